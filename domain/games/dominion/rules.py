"""Rules entry points of Dominion (1st-edition base game): `initial`, `setup`, `decide_state`
(the ruleset's `decide`, with the state its facts lead to), `outcome` and `progress`
(dominion.md sections 1, 3, 4 and 7).

`decide` holds every check. While decisions are open (4.3) only their answers are accepted,
each from the player it asks (the recorder may answer for anyone; with several players asked
at once the recorder names the seat). Otherwise the current player records turn actions (4.2).
The recorder of a physical game also answers the engine's own questions: the kingdom and the
first player when the table chose them, and the cards seen when a card comes from a deck whose
order the engine does not know (6.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.endings import ranked_resignation
from domain.games.dominion import base2_actions as _base2_actions  # noqa: F401  (registers the cards)
from domain.games.dominion import castles as _castles  # noqa: F401
from domain.games.dominion import effects as _effects  # noqa: F401
from domain.games.dominion import empires_actions as _empires_actions  # noqa: F401
from domain.games.dominion import empires_treasures as _empires_treasures  # noqa: F401
from domain.games.dominion import landmarks as _landmarks  # noqa: F401
from domain.games.dominion import landscape_events as _landscape_events  # noqa: F401
from domain.games.dominion import turns as _turns  # noqa: F401  (registers setup and clean-up)
from domain.games.dominion import unseen
from domain.games.dominion.actions import (
    ANSWER_KIND,
    AnnounceShuffle,
    BuyCard,
    BuyEvent,
    ChooseKingdom,
    EndPhase,
    PayDebt,
    PlayCard,
    PlayTreasure,
    PlayTreasures,
    SelectCards,
    normalized,
)
from domain.games.dominion.data import DATA
from domain.games.dominion.decisions import check, reject
from domain.games.dominion.engine import (
    ANSWERS,
    EFFECTS,
    EVENTS,
    ON_BUY_PHASE,
    ON_TREASURES,
    OWN_BUY,
    OWN_GAIN,
    Ctx,
    bought,
    finish,
    gain,
    hooks_live,
    pile_of,
    play,
    run,
    settle,
)
from domain.games.dominion.events import (
    Bought,
    DebtPaid,
    EventBought,
    Fact,
    Gained,
    PhaseChanged,
    ShuffleAnnounced,
    TreasuresPlayed,
)
from domain.games.dominion.fold import evolve
from domain.games.dominion.options import variants_from
from domain.games.dominion.state import RECORDER, UNSEEN, Decision, Frame, Player, State, with_player
from domain.games.dominion.turns import card_vp, current_totals, order_keys
from domain.rng import NoRng, Rng
from domain.ruleset import Command, GameConfig, Outcome, Rejection


def initial(config: GameConfig) -> State:
    seats = config.seat_ids()
    return State(
        variants=variants_from(config.options),
        mode=config.mode,
        seats=seats,
        players=tuple(Player() for _ in seats),
    )


def setup(config: GameConfig, state: State, rng: Rng) -> list[Fact]:
    ctx = Ctx(state, rng)
    ctx.frames.append(Frame("setup", 0))
    run(ctx)
    return finish(ctx)


def _who(state: State, command: Command) -> int | Rejection:
    """The seat index an answer comes from (RECORDER for the engine's own questions)."""
    if command.seat is not None:
        if command.seat not in state.seats:
            return reject("unknown_seat", f"There is no seat {command.seat!r}.", "2.1")
        return state.index(command.seat)
    if command.by == "seat":
        return reject("unknown_seat", "A seat's action names its seat.", "4.3")
    asked = {d.p for d in state.prompts}
    if RECORDER in asked:
        return RECORDER
    if len(asked) == 1:
        return asked.pop()
    return reject("which_seat", "Several players must answer: say for which seat.", "4.3")


def find_decision(state: State, command: Command) -> tuple[int, Decision] | Rejection:
    kind = ANSWER_KIND.get(type(command.action))  # type: ignore[call-overload]
    recorder_kinds = ("observe", "kingdom", "first_player")
    if kind in recorder_kinds:
        if command.by == "seat":
            return reject("recorder_only", "Only the table's recorder enters what the table saw.", "6.4")
        for i, d in enumerate(state.prompts):
            if d.p == RECORDER and d.kind == kind:
                return i, d
        return reject("nothing_to_observe", "The engine is not waiting for that from the table.", "6.4")
    who = _who(state, command)
    if isinstance(who, Rejection):
        return who
    if who == RECORDER or any(d.p == RECORDER for d in state.prompts):
        return reject("awaiting_table", "The recorder must first enter what the table saw.", "6.4")
    for i, d in enumerate(state.prompts):
        if d.p == who:
            if kind is None:
                return reject("decision_pending", f"First answer the open decision ({_what(d)}).", "4.3")
            if d.kind != kind:
                return reject("wrong_answer", f"The open decision asks for {_what(d)}.", "4.4")
            return i, d
    waiting = ", ".join(sorted({state.seat(d.p) for d in state.prompts}))
    if kind is None:
        return reject("decision_pending", f"First {waiting} must answer the open decision(s).", "4.3")
    return reject(
        "not_asked", f"{state.seat(who)} has no decision to answer now ({waiting} must answer).", "4.3"
    )


def _what(d: Decision) -> str:
    if d.kind == "select":
        return f"{d.verb} cards for {d.source}"
    if d.kind == "pile":
        return f"a pile to gain from for {d.source}"
    if d.kind == "choose":
        return f"one of {', '.join(d.options)} for {d.source}"
    return d.kind


def _value(action: Any) -> Any:
    if isinstance(action, SelectCards):
        return tuple(action.cards)
    if isinstance(action, ChooseKingdom):
        return (tuple(action.piles), tuple(action.landscapes), action.obelisk)
    for field in ("option", "pile", "card", "cards", "seat", "amount"):
        if hasattr(action, field):
            value = getattr(action, field)
            return tuple(value) if isinstance(value, tuple) else value
    return None


def check_turn(state: State, command: Command) -> Rejection | None:
    action = command.action
    current = state.seats[state.current]
    if (command.by == "seat" or command.seat is not None) and command.seat != current:
        return reject("not_your_turn", f"It is {current}'s turn.", "4.2")
    check = TURN_CHECKS.get(type(action))
    if check is None:
        return reject("not_now", "That answers a decision, and none is open.", "4.3")
    return check(state, action)


def _check_play(state: State, action: PlayCard) -> Rejection | None:
    if state.phase != "action":
        return reject("wrong_phase", "Action cards are played in the Action phase.", "3.3")
    if action.card not in DATA.actions:
        return reject("not_an_action", f"{action.card} is not an Action card.", "4.2")
    pl = state.players[state.current]
    if not unseen.can_bind(pl, pl.hand, (action.card,)):
        return reject("not_in_hand", f"There is no {action.card} in your hand{_unseen(pl)}.", "4.2")
    if state.actions < 1:
        return reject("no_actions", "You have no Action left to play it.", "4.2")
    return None


def _check_treasures(state: State, action: PlayTreasure | PlayTreasures) -> Rejection | None:
    cards = (action.card,) if isinstance(action, PlayTreasure) else action.cards
    if state.phase != "buy":
        return reject("wrong_phase", "Treasures are played in the Buy phase.", "3.3")
    if not state.window:
        return reject("treasures_closed", "No more Treasures once you have bought something.", "4.2")
    if not cards:
        return reject("no_cards", "Name the Treasures to play.", "4.2")
    if not DATA.treasures.issuperset(cards):
        card = next(c for c in cards if c not in DATA.treasures)
        return reject("not_a_treasure", f"{card} is not a Treasure.", "4.2")
    pl = state.players[state.current]
    if not unseen.can_bind(pl, pl.hand, cards):
        return reject("not_in_hand", f"Those Treasures are not all in your hand{_unseen(pl)}.", "4.2")
    return None


def _check_buy(state: State, action: BuyCard) -> Rejection | None:
    if state.phase != "buy":
        return reject("wrong_phase", "Cards are bought in the Buy phase.", "3.4")
    pile_id = pile_of(state, action.pile)
    if pile_id is None:
        home = DATA.home.get(action.pile)
        if home is not None and home in state.supply:
            return reject("not_on_top", f"{action.pile} is not on top of the {home} pile.", "1.6")
        return reject("unknown_pile", f"There is no Supply pile {action.pile!r} in this game.", "4.1")
    rejection = _can_buy(state)
    if rejection is not None:
        return rejection
    pile = state.supply[pile_id]
    if not pile:
        return reject("pile_empty", f"The {action.pile} pile is empty.", "4.2")
    coins, _ = DATA.cost[pile[0]]
    if state.coins < coins:
        return reject("cannot_afford", f"{pile[0]} costs ${coins}; you have ${state.coins}.", "4.2")
    return None


def _check_event(state: State, action: BuyEvent) -> Rejection | None:
    if state.phase != "buy":
        return reject("wrong_phase", "Events are bought in the Buy phase.", "4.2")
    if action.event not in state.events:
        return reject("unknown_event", f"There is no Event {action.event!r} in this game.", "4.2")
    rejection = _can_buy(state)
    if rejection is not None:
        return rejection
    coins, _ = DATA.events[action.event]
    if state.coins < coins:
        return reject("cannot_afford", f"{action.event} costs ${coins}; you have ${state.coins}.", "4.2")
    return None


def _check_debt(state: State, action: PayDebt) -> Rejection | None:
    phase = state.phase
    if phase != "buy" and not (state.variants.pay_debt_any_time and phase == "action"):
        return reject("wrong_phase", "Debt is paid off in your Buy phase.", "8.7")
    debt = state.players[state.current].debt
    if not 1 <= action.amount <= min(state.coins, debt):
        most = min(state.coins, debt)
        why = f"you have {debt} debt and ${state.coins}"
        return reject("cannot_pay", f"You can pay off 1 to {most} debt now ({why}).", "4.2")
    return None


def _check_end(state: State, action: EndPhase) -> Rejection | None:
    if state.phase not in ("action", "buy"):
        return reject("wrong_phase", "There is no phase to end now.", "4.2")
    return None


# The checks of the current player's turn actions (4.2), by the action's type; any other
# action answers a decision.
TURN_CHECKS: dict[type[Any], Callable[[State, Any], Rejection | None]] = {
    PlayCard: _check_play,
    PlayTreasure: _check_treasures,
    PlayTreasures: _check_treasures,
    BuyCard: _check_buy,
    BuyEvent: _check_event,
    PayDebt: _check_debt,
    EndPhase: _check_end,
}


def _unseen(pl: Player) -> str:
    if UNSEEN not in pl.hand:
        return ""
    return f" (its unseen cards can be only {', '.join(pl.pool)})"


def _can_buy(state: State) -> Rejection | None:
    if state.buys < 1:
        return reject("no_buys", "You have no Buy left.", "4.2")
    debt = state.players[state.current].debt
    if debt:
        return reject("in_debt", f"You cannot buy while you have debt ({debt}); pay it off first.", "4.2")
    return None


def decide_state(state: State, command: Command, rng: Rng) -> tuple[list[Fact], State] | Rejection:
    """`decide`, with the state its facts lead to: each fact was folded as it was emitted."""
    action = normalized(command.action)
    if action is not command.action:
        command = Command(action, command.seat, command.by)
    if state.status == "over":
        return reject("game_over", "The game is over.", "7.1")
    if type(action) is AnnounceShuffle:
        return announce_shuffle(state, command, rng)
    if state.prompts:
        found = find_decision(state, command)
        if isinstance(found, Rejection):
            return found
        i, d = found
        value = _value(command.action)
        verb = command.action.verb if isinstance(command.action, SelectCards) else None
        if d.kind == "pile" and isinstance(value, str):
            value = pile_of(state, value) or value
        rejection = check(state, d, value, verb)
        if rejection is not None:
            return rejection
        ctx = Ctx(state, rng)
        del ctx.prompts[i]
        if d.kind == "select" and not d.cards:
            settle(ctx, d.p, d.zone or "hand", value)
        elif d.kind == "react" and value is not None:
            settle(ctx, d.p, "hand", (value,))
        ANSWERS[d.purpose](ctx, d, value)
        run(ctx)
        return finish(ctx), ctx.state
    if state.status != "playing":
        return reject("not_started", "The game has not started.", "1.9")
    if state.phase == "action" and state.mode == "physical" and isinstance(command.action, ENDS_ACTION_PHASE):
        return buy_from_action_phase(state, command, rng)
    rejection = check_turn(state, command)
    if rejection is not None:
        return rejection
    ctx = Ctx(state, rng)
    TURN_MOVES[type(command.action)](ctx, state.current, command.action)  # apply_turn
    if ctx.frames:  # run: only a move that left something to resolve
        run(ctx)
    return finish(ctx), ctx.state


# At a physical table, playing a Treasure or buying in the Action phase ends it first, as a
# table does without a word (3.3-3.4): the facts show the Buy phase beginning, then the play
# or the buy. A digital game keeps the explicit `end_phase`.
ENDS_ACTION_PHASE = (PlayTreasure, PlayTreasures, BuyCard, BuyEvent)


def start_buy_phase(state: State, rng: Rng) -> Ctx | None:
    """The Action phase ended by the engine; None when the Buy phase opens with a decision
    (Arena), which the player must answer before anything else."""
    ctx = Ctx(state, rng)
    ctx.frames.append(Frame("buy_phase", state.current))
    run(ctx)
    return None if ctx.prompts else ctx


def after_action_phase(state: State) -> State | None:
    """The state once the engine ended the Action phase (for the legal actions); without a
    start-of-Buy-phase ability in the game that is the phase change alone."""
    if not any(name in ON_BUY_PHASE for name in state.landmarks):
        return evolve(state, PhaseChanged(state.seats[state.current], "buy"))
    ctx = start_buy_phase(state, NoRng())
    return None if ctx is None else ctx.state


def buy_from_action_phase(state: State, command: Command, rng: Rng) -> tuple[list[Fact], State] | Rejection:
    current = state.seats[state.current]
    if (command.by == "seat" or command.seat is not None) and command.seat != current:
        return reject("not_your_turn", f"It is {current}'s turn.", "4.2")
    ctx = start_buy_phase(state, rng)
    if ctx is None:
        return reject(
            "buy_phase_decision",
            "The Buy phase begins with a decision (Arena): end the Action phase first.",
            "3.4",
        )
    rejection = check_turn(ctx.state, command)
    if rejection is not None:
        return rejection
    apply_turn(ctx, command.action)
    run(ctx)
    return finish(ctx), ctx.state


def announce_shuffle(state: State, command: Command, rng: Rng) -> tuple[list[Fact], State] | Rejection:
    """The table says a seat shuffled: true only if the engine shuffled that deck since the
    seat's turn began and that shuffle was not announced yet (4.8: a deck is shuffled when a
    card is needed from it and it is empty)."""
    seat = command.action.seat
    if state.mode != "physical" or command.by == "seat":
        return reject("recorder_only", "Only the table's recorder announces a shuffle.", "6.4")
    if seat not in state.seats:
        return reject("unknown_seat", f"There is no seat {seat!r}.", "2.1")
    pl = state.players[state.index(seat)]
    if not pl.unannounced:
        left = len(pl.deck) + len(pl.unknown)
        return reject(
            "no_shuffle_due",
            f"{seat} has not shuffled here: its deck still holds {left} card(s) and is shuffled "
            "only when a card is needed from it and it is empty.",
            "4.8",
        )
    ctx = Ctx(state, rng)
    ctx.emit(ShuffleAnnounced(seat))
    return finish(ctx), ctx.state


def apply_turn(ctx: Ctx, action: Any) -> None:
    TURN_MOVES[type(action)](ctx, ctx.state.current, action)


def _play_card(ctx: Ctx, p: int, action: PlayCard) -> None:
    settle(ctx, p, "hand", (action.card,))
    play(ctx, p, action.card, action=True)


def _play_treasures(ctx: Ctx, p: int, action: PlayTreasure | PlayTreasures) -> None:
    cards = (action.card,) if isinstance(action, PlayTreasure) else tuple(action.cards)
    settle(ctx, p, "hand", cards)
    play_treasures(ctx, p, cards)


def _buy_card(ctx: Ctx, p: int, action: BuyCard) -> None:
    state = ctx.state
    pile = pile_of(state, action.pile) or action.pile
    card = state.supply[pile][0]
    coins, debt = DATA.cost[card]
    seat = state.seats[p]
    # Folding Bought changes nothing hooks_live reads.
    if card in OWN_BUY or hooks_live(state, p):
        ctx.emit(Bought(seat, card, coins, debt))
        # The gain waits under the when-buy abilities, which resolve first (4.5).
        ctx.frames.append(Frame("bought", p, cards=(pile,)))
        bought(ctx, p, card)
    elif debt or card in OWN_GAIN:
        ctx.emit(Bought(seat, card, coins, debt))
        gain(ctx, p, pile)
    else:  # nothing triggers: the buy and its gain reach their state in one step
        pl = state.players[p]
        supply = dict(state.supply)
        supply[pile] = supply[pile][1:]
        mine = state.status == "playing" and p == state.current
        facts = (
            Bought(seat, card, coins, debt),
            Gained(seat, card, "supply", "discard", None if pile == card else pile),
        )
        reached = replace(
            state,
            players=with_player(state.players, p, replace(pl, discard=(*pl.discard, card))),
            supply=supply,
            gained=(*state.gained, card) if mine else state.gained,
            buys=state.buys - 1,
            coins=state.coins - coins,
            window=False,
            bought=True,
        )
        ctx.emit_folded(facts, reached)


def _buy_event(ctx: Ctx, p: int, action: BuyEvent) -> None:
    coins, debt = DATA.events[action.event]
    ctx.emit(EventBought(ctx.seat(p), action.event, coins, debt))
    EVENTS[action.event](ctx, p)


def _pay_debt(ctx: Ctx, p: int, action: PayDebt) -> None:
    ctx.emit(DebtPaid(ctx.seat(p), action.amount))


def _end_phase(ctx: Ctx, p: int, action: EndPhase) -> None:
    state = ctx.state
    if state.phase != "action":
        ctx.frames.append(Frame("cleanup", p))
    elif not ON_BUY_PHASE.keys().isdisjoint(state.landmarks):
        ctx.frames.append(Frame("buy_phase", p))
    else:  # no start-of-Buy-phase ability in the game: the Buy phase begins, as `buy_phase` does
        ctx.emit(PhaseChanged(state.seats[p], "buy"))


# What each turn action does once `check_turn` accepted it.
TURN_MOVES: dict[type[Any], Callable[[Ctx, int, Any], None]] = {
    PlayCard: _play_card,
    PlayTreasure: _play_treasures,
    PlayTreasures: _play_treasures,
    BuyCard: _buy_card,
    BuyEvent: _buy_event,
    PayDebt: _pay_debt,
    EndPhase: _end_phase,
}


def plain_treasure(card: str) -> bool:
    """A Treasure whose play is only its coins: played in a batch, no frame of its own."""
    return card not in EFFECTS and card not in DATA.plus and card not in DATA.actions


# Every card module is imported above, so the registries `plain_treasure` reads are complete.
PLAIN_TREASURES = frozenset(filter(plain_treasure, DATA.treasures))


def play_treasures(ctx: Ctx, p: int, cards: tuple[str, ...]) -> None:
    """Play Treasures in the order given: plain ones in batches, the others one by one. The
    first decision stops the list; the rest stay in hand to be recorded after it (4.2)."""
    if PLAIN_TREASURES.issuperset(cards):  # the common case: one batch
        _batch(ctx, p, cards)
        return
    batch: list[str] = []
    for card in cards:
        if plain_treasure(card):
            batch.append(card)
            continue
        if batch:
            _batch(ctx, p, tuple(batch))
            batch = []
        play(ctx, p, card)
        run(ctx)
        if ctx.prompts:
            return
    if batch:
        _batch(ctx, p, tuple(batch))


def _batch(ctx: Ctx, p: int, batch: tuple[str, ...]) -> None:
    ctx.emit(TreasuresPlayed(ctx.seat(p), batch, sum(map(DATA.coins.__getitem__, batch))))
    for hook in ON_TREASURES:
        hook(ctx, p, batch)


def outcome(state: State) -> Outcome | None:
    result = state.result
    if result is None:
        return None
    seats = state.seats
    details: dict[str, Any] = {
        "card_vp": dict(zip(seats, result.card_vp, strict=True)),
        "vp_tokens": dict(zip(seats, result.tokens, strict=True)),
        "turns": dict(zip(seats, result.turns, strict=True)),
    }
    return Outcome(
        scores=dict(zip(seats, result.scores, strict=True)),
        ranks=dict(zip(seats, result.ranks, strict=True)),
        winners=tuple(seats[p] for p in result.winners),
        details=details,
        reason=result.reason,
    )


def resign_outcome(state: State, seat: str) -> Outcome:
    """`seat` resigns: it ranks last, the others by the end-of-game order as the game stands
    (7.3: the higher total, then the fewest turns, else shared), scored as at the end."""
    seats = state.seats
    totals = current_totals(state)
    keys = order_keys(state, totals)
    details: dict[str, Any] = {
        "card_vp": {s: card_vp(pl.owned()) for s, pl in zip(seats, state.players, strict=True)},
        "vp_tokens": {s: pl.vp for s, pl in zip(seats, state.players, strict=True)},
        "turns": {s: pl.turns for s, pl in zip(seats, state.players, strict=True)},
    }
    return ranked_resignation(
        dict(zip(seats, totals, strict=True)), seat, dict(zip(seats, keys, strict=True)), details
    )


def progress(state: State) -> tuple[int, str | None]:
    if state.status == "over":
        return (state.turn, None)
    if state.prompts:
        p = state.prompts[0].p
        return (state.turn, None if p == RECORDER else state.seats[p])
    if state.status != "playing":
        return (state.turn, None)
    return (state.turn, state.seats[state.current])
