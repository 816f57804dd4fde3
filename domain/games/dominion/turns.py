"""Setup, turn sequence, end of game and scoring of Dominion (1st-edition base game and
Empires): dominion.md 1.2-1.9, 3, 7.

Setup is a frame like any effect, so a physical game can stop in it for the recorder: the
kingdom (drawn with the seeded RNG, stream `kingdom`, n 0: a shuffle of the randomizer names in
sorted order, dealt from the first; or a preset; or entered), the landscapes' tokens and
Obelisk's pile (stream `obelisk`, n 0: one roll over the sorted eligible piles), the first
player (stream `first-player`, n 0: one roll over the seats; or entered), then in turn order
each player is dealt 7 Copper and 3 Estate into an empty discard pile, shuffles it (stream
`deck:<seat>`) and draws 5.

A base game draws from the 25 first-edition base names alone, or under `base_edition` 2 from the
26 second-edition names (dominion-2e.md 1), by the same procedure. With Empires the 49 kingdom randomizers are
shuffled, in `mixed` mode together with the 34 Events and Landmarks: dealt landscapes are kept
up to `landscape_count` and skipped beyond it, and dealing stops at the 10th kingdom pile; in
`separate` mode the landscapes are shuffled apart (stream `landscapes`, n 0) and the first
`landscape_count` taken (6.3).

Turns are frames too: `start` (3.2: Durations), `buy_phase` (3.4: Arena), `bought` (the gain
after the when-buy abilities, 4.5), `cleanup` (3.5: Encampments return, what stays in play,
Capital), then `between` (3.6-3.8: Baths, Donate, Mountain Pass, the game-end check).

Rulings: the game-end check runs after the between-turns step (3.8); a 4-player game needs
four empty piles only under `four_piles_at_four_players`. Ties go to the fewest turns taken,
then are shared (7.3); under `tiebreak_earlier_seat_loses` the tied player latest in turn order
wins and lower places are ordered the same way.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.games.dominion.data import DATA
from domain.games.dominion.decisions import obelisk_piles
from domain.games.dominion.engine import (
    ANSWERS,
    DURATION_START,
    HANDLERS,
    ON_BUY_PHASE,
    ON_DISCARD_FROM_PLAY,
    ON_END_OF_TURN,
    SCORING,
    Ctx,
    ask,
    draw,
    gain,
    shuffle,
)
from domain.games.dominion.events import (
    CleanedUp,
    Dealt,
    Drew,
    DurationsEnded,
    Fact,
    FirstPlayerChosen,
    GameEnded,
    Identified,
    KingdomChosen,
    LandscapesSetUp,
    Observed,
    PhaseChanged,
    Returned,
    Shuffled,
    SupplyBuilt,
    TurnStarted,
)
from domain.games.dominion.fold import started
from domain.games.dominion.state import AS, RECORDER, Decision, Frame, State, acting, physical

KINGDOM_STREAM = "kingdom"
LANDSCAPE_STREAM = "landscapes"
OBELISK_STREAM = "obelisk"
FIRST_STREAM = "first-player"
STARTING = ("Copper",) * 7 + ("Estate",) * 3
GATHERING = frozenset({"Farmers' Market", "Temple", "Wild Hunt"})


def choose_kingdom(
    ctx: Ctx,
    piles: tuple[str, ...],
    method: str,
    landscapes: tuple[str, ...] = (),
    obelisk: str | None = None,
    **random: Any,
) -> None:
    piles = tuple(sorted(piles))
    events = tuple(sorted(x for x in landscapes if x in DATA.events))
    landmarks = tuple(sorted(x for x in landscapes if x not in DATA.events))
    ctx.emit(KingdomChosen(piles, method, events=events, landmarks=landmarks, **random))
    n = ctx.state.n
    sizes: dict[str, int] = {}
    mixed: dict[str, tuple[str, ...]] = {}
    for name in (*DATA.basic, *piles):
        cards = DATA.pile_cards(name, n)
        sizes[name] = len(cards)
        if len(set(cards)) > 1:
            mixed[name] = cards
    ctx.emit(SupplyBuilt(sizes, mixed))
    if events or landmarks:
        _landscapes(ctx, piles, events, landmarks, obelisk)


def _landscapes(
    ctx: Ctx, piles: tuple[str, ...], events: tuple[str, ...], landmarks: tuple[str, ...], obelisk: str | None
) -> None:
    """Tokens for the landscapes, in the order of 1.8."""
    n = ctx.state.n
    landmark_vp = {name: 6 * n for name in landmarks if name in DATA.token_landmarks}
    pile_vp: dict[str, int] = {}
    pile_debt: dict[str, int] = {}
    if "Aqueduct" in landmarks:
        landmark_vp["Aqueduct"] = 0
        pile_vp.update({"Silver": 8, "Gold": 8})
    if "Defiled Shrine" in landmarks:
        landmark_vp["Defiled Shrine"] = 0
        for pile in piles:
            if "Action" in DATA.pile_types[pile] and pile not in GATHERING:
                pile_vp[pile] = pile_vp.get(pile, 0) + 2
    random: dict[str, Any] = {}
    if "Obelisk" in landmarks and obelisk is None:
        eligible = obelisk_piles(piles)
        if eligible:
            roll = ctx.rng.roll(OBELISK_STREAM, 0, len(eligible))[0]
            obelisk = eligible[roll - 1]
            random = {"stream": OBELISK_STREAM, "n": 0, "outcome": roll, "faces": len(eligible)}
    if "Tax" in events:
        pile_debt = {pile: 1 for pile in (*DATA.basic, *piles)}
    ctx.emit(LandscapesSetUp(landmark_vp, pile_vp, pile_debt, obelisk, **random))


def deal_random(ctx: Ctx) -> None:
    """The random kingdom of 6.3, from the seed."""
    v = ctx.state.variants
    left_out = {name.strip() for name in v.exclude.split(",")}
    names = tuple(n for n in DATA.randomizers(v.expansions, v.base_edition) if n not in left_out)
    if v.expansions == "base":
        order = ctx.rng.shuffle(KINGDOM_STREAM, 0, names)
        choose_kingdom(ctx, tuple(order[:10]), "random", stream=KINGDOM_STREAM, n=0)
        return
    mixed = v.landscapes == "mixed"
    scapes = tuple(n for n in DATA.landscapes if n not in left_out)
    deck = tuple(sorted((*names, *scapes))) if mixed else names
    order = ctx.rng.shuffle(KINGDOM_STREAM, 0, deck)
    piles: list[str] = []
    landscapes: list[str] = []
    for name in order:
        if len(piles) == 10:
            break
        if name in scapes:
            if len(landscapes) < v.landscape_count:
                landscapes.append(name)
        else:
            piles.append(name)
    if not mixed:
        apart = ctx.rng.shuffle(LANDSCAPE_STREAM, 0, scapes)
        landscapes = list(apart[: v.landscape_count])
    choose_kingdom(ctx, tuple(piles), "random", tuple(landscapes), stream=KINGDOM_STREAM, n=0)


def _setup(ctx: Ctx, f: Frame) -> None:
    state = ctx.state
    physical = state.mode == "physical"
    if f.step == 0:
        ctx.set(replace(f, step=1))
        method = state.variants.kingdom
        # A preset's name means the set of the game's base edition (2016's first_game under 2).
        preset = DATA.preset(method, state.variants.base_edition)
        if preset is not None:
            choose_kingdom(ctx, preset, method, DATA.preset_landscapes.get(method, ()))
        elif method == "random" and not physical:
            deal_random(ctx)
        else:
            ask(ctx, Decision(RECORDER, "kingdom", "kingdom", lo=10, hi=10))
        return
    if f.step == 1:
        ctx.set(replace(f, step=2))
        if physical:
            ask(ctx, Decision(RECORDER, "first_player", "first_player"))
        else:
            roll = ctx.rng.roll(FIRST_STREAM, 0, state.n)[0]
            ctx.emit(FirstPlayerChosen(state.seats[roll - 1], FIRST_STREAM, 0, roll, state.n))
        return
    if f.n < state.n:
        p = (state.first + f.n) % state.n
        ctx.set(replace(f, n=f.n + 1))
        ctx.emit(Dealt(state.seats[p], STARTING))
        shuffle(ctx, p)
        draw(ctx, p, 5)
        return
    ctx.frames.pop()
    ctx.emit(TurnStarted(state.seats[state.first], 1))


def _kingdom(ctx: Ctx, d: Decision, value: Any) -> None:
    piles, landscapes, obelisk = value
    # The table typed its kingdom in: logged as chosen, whatever way the table chose it.
    choose_kingdom(ctx, piles, "manual", landscapes, obelisk, observed=True)


def _first(ctx: Ctx, d: Decision, seat: Any) -> None:
    ctx.emit(FirstPlayerChosen(seat, observed=True))


def _observe(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.emit(Observed(ctx.seat(d.target), tuple(cards), len(cards)))


def _identify(ctx: Ctx, d: Decision, cards: Any) -> None:
    ctx.emit(Identified(ctx.seat(d.target), d.zone, tuple(cards), len(cards)))


def staying(state: State, p: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Which Duration records end now, and which cards stay in play (3.5 step 2): an Archive
    with cards left in a set, an Enchantress played this turn that still has cards to draw,
    and the Throne Rooms and Crowns that played them. Same-named cards are interchangeable,
    so a card linked to two staying records stays once per copy in play."""
    pl = state.players[p]
    if not pl.lasting:
        return (), ()
    ended: list[int] = []
    stay: list[str] = []
    for i, record in enumerate(pl.lasting):
        kind = acting(record.card)
        keep = any(record.sets) if kind == "Archive" else record.turn == state.turn and record.draws > 0
        if keep:
            stay.extend((*record.links, record.card))
        else:
            ended.append(i)
    kept: list[str] = []
    pool = list(pl.play)
    for card in stay:
        if card in pool:
            pool.remove(card)
            kept.append(card)
    return tuple(ended), tuple(kept)


def _cleanup(ctx: Ctx, f: Frame) -> None:
    """Clean-up (3.5): Encampments return, play (but what stays) and hand are discarded,
    Capital's debt, draw 5; then the end of the turn."""
    if f.step == 0 and _plain_cleanup(ctx, f):
        return
    state = ctx.state
    seat = ctx.seat(f.p)
    if f.step == 0:
        for card in state.encamped:
            home = "Overlord" if physical(card) == "Overlord" else DATA.home[acting(card)]
            ctx.emit(Returned(seat, card, home))
        ended, kept = staying(ctx.state, f.p)
        if ended:
            ctx.emit(DurationsEnded(seat, ended))
        pl = ctx.state.players[f.p]
        leaving = pl.play
        if kept:
            rest = list(leaving)
            for card in kept:
                rest.remove(card)
            leaving = tuple(rest)
        top = pl.hand[-1] if pl.hand else leaving[-1] if leaving else None
        public = state.variants.all_discards_public
        ctx.emit(CleanedUp(seat, leaving, pl.hand, len(pl.hand), top, public))
        # Without a card with a hook among those leaving, step 1 has nothing to do: the frame
        # goes straight to the draw, as step 1 would leave it.
        plain = AS not in "".join(leaving) and ON_DISCARD_FROM_PLAY.keys().isdisjoint(leaving)
        f = ctx.set(replace(f, step=2 if plain else 1, n=len(leaving) if plain else f.n, cards=leaving))
        if plain and not draw(ctx, f.p, 5):
            return
    if f.step == 1:
        # The frame counts the cards past; it is stored only before a hook, which may ask.
        # Without an Overlord token among them, the cards are their printed selves and one
        # set test says that none has a hook.
        cards = f.cards
        if AS in "".join(cards) or not ON_DISCARD_FROM_PLAY.keys().isdisjoint(cards):
            for i in range(f.n, len(cards)):
                hook = ON_DISCARD_FROM_PLAY.get(physical(cards[i]))
                if hook is not None:
                    f = ctx.set(replace(f, n=i + 1))
                    hook(ctx, f.p, cards[i])
                    if ctx.prompts or ctx.frames[-1] is not f:
                        return
        f = ctx.set(replace(f, step=2, n=len(cards)))
        if not draw(ctx, f.p, 5):
            return
    ctx.frames.pop()
    state = ctx.state
    if state.landmarks or state.players[f.p].donates or state.mountain_pass >= 0:
        ctx.frames.append(Frame("between", f.p))
    else:  # nothing happens between these turns (3.6-3.7)
        end_turn(ctx, f.p)


def _plain_cleanup(ctx: Ctx, f: Frame) -> bool:
    """A digital Clean-up where nothing can happen but discarding and drawing five from the
    deck (shuffling the discard pile when it runs short, as `draw` does), and the next
    player's turn then starts at once: its facts (CleanedUp, Drew, Shuffled, Drew,
    TurnStarted, as many as happen) with the state their folds give, reached in one step.
    False (nothing done) when anything could differ: Encampments, Durations, a card with a
    hook leaving play, unknown cards, anything between turns or at the start of the next,
    enchantments, or the end of the game."""
    state = ctx.state
    p = f.p
    pl = state.players[p]
    play = pl.play
    if (
        state.mode != "digital"
        or pl.unknown
        or pl.camp
        or pl.lasting
        or pl.donates
        or not ON_END_OF_TURN.keys().isdisjoint(state.landmarks)
        or state.mountain_pass >= 0
        or state.enchantments
        or AS in "".join(play)
        or not ON_DISCARD_FROM_PLAY.keys().isdisjoint(play)
        or game_over(state) is not None
    ):
        return False
    seats = state.seats
    q = (p + 1) % len(seats)
    following = state.players[q]
    if q == p or following.lasting or following.donates:
        return False
    hand = pl.hand
    seat = seats[p]
    top = hand[-1] if hand else play[-1] if play else None
    cleaned = CleanedUp(seat, play, hand, len(hand), top, state.variants.all_discards_public)
    deck = pl.deck
    discard = pl.discard + play + hand
    if len(deck) >= 5:
        drawn = deck[:5]
        facts: tuple[Fact, ...] = (cleaned, Drew(seat, drawn, 5), TurnStarted(seats[q], state.turn + 1))
        mine = replace(pl, deck=deck[5:], hand=drawn, discard=discard, play=())
    else:  # the deck runs short: what it holds, then the shuffled discard pile (4.8)
        steps: list[Fact] = [cleaned]
        if deck:
            steps.append(Drew(seat, deck, len(deck)))
        drawn, shuffles = deck, pl.shuffles
        if discard:
            stream = f"deck:{seat}"
            order = ctx.rng.shuffle(stream, shuffles, tuple(sorted(discard)))
            steps.append(Shuffled(seat, len(order), tuple(order), stream, shuffles))
            k = min(5 - len(deck), len(order))
            steps.append(Drew(seat, order[:k], k))
            drawn, deck, discard, shuffles = drawn + order[:k], order[k:], (), shuffles + 1
        else:
            deck = ()
        steps.append(TurnStarted(seats[q], state.turn + 1))
        facts = tuple(steps)
        mine = replace(pl, deck=deck, hand=drawn, discard=discard, play=(), shuffles=shuffles)
    players = list(state.players)
    players[p] = mine
    players[q] = replace(following, turns=following.turns + 1, unannounced=0)
    ctx.frames.pop()
    ctx.emit_folded(facts, started(state, tuple(players), q, state.turn + 1))
    return True


def _between(ctx: Ctx, f: Frame) -> None:
    """End of turn (3.6: Baths), between turns (3.7: Donate, Mountain Pass), the game-end
    check (3.8) and the next player's start of turn."""
    state = ctx.state
    if f.step == 0:
        f = ctx.set(replace(f, step=1))
        for name in state.landmarks:
            hook = ON_END_OF_TURN.get(name)
            if hook is not None:
                hook(ctx, f.p)
        if ctx.prompts or ctx.frames[-1] is not f:
            return
    if f.step == 1:
        pl = ctx.state.players[f.p]
        if pl.donates and not state.variants.donate_start_of_next_turn:
            ctx.frames.append(Frame("donate", f.p))
            return
        f = ctx.set(replace(f, step=2))
    if f.step == 2:
        f = ctx.set(replace(f, step=3))
        if ctx.state.mountain_pass >= 0:
            skip = state.variants.mountain_pass_skipped_if_game_over and game_over(ctx.state)
            if not skip:
                ctx.frames.append(Frame("mountain_pass", ctx.state.mountain_pass))
                return
    ctx.frames.pop()
    end_turn(ctx, f.p)


def _start(ctx: Ctx, f: Frame) -> None:
    """Start of turn (3.2 steps 3-5): pending Donates under `donate_start_of_next_turn`, then
    each Duration's start-of-turn effect in play order."""
    pl = ctx.state.players[f.p]
    if f.step == 0:
        if pl.donates and ctx.state.variants.donate_start_of_next_turn:
            ctx.frames.append(Frame("donate", f.p))  # each Donate separately (8.30)
            return
        f = ctx.set(replace(f, step=1))
    if f.step == 1:
        f = ctx.set(replace(f, step=2, cards=tuple(r.card for r in pl.lasting)))
    while f.n < len(f.cards):
        i = f.n
        f = ctx.set(replace(f, n=i + 1))
        hook = DURATION_START.get(acting(f.cards[i]))
        if hook is not None:
            hook(ctx, f.p, i)
            if ctx.prompts or ctx.frames[-1] is not f:
                return
    ctx.frames.pop()


def _buy_phase(ctx: Ctx, f: Frame) -> None:
    """A Buy phase begins (3.4): the Treasure window opens, then Arena."""
    ctx.frames.pop()
    ctx.emit(PhaseChanged(ctx.seat(f.p), "buy"))
    for name in ctx.state.landmarks:
        hook = ON_BUY_PHASE.get(name)
        if hook is not None:
            hook(ctx, f.p)


def _bought(ctx: Ctx, f: Frame) -> None:
    ctx.frames.pop()
    gain(ctx, f.p, f.cards[0])


HANDLERS["setup"] = _setup
HANDLERS["cleanup"] = _cleanup
HANDLERS["between"] = _between
HANDLERS["start"] = _start
HANDLERS["buy_phase"] = _buy_phase
HANDLERS["bought"] = _bought
ANSWERS["kingdom"] = _kingdom
ANSWERS["first_player"] = _first
ANSWERS["observe"] = _observe
ANSWERS["identify"] = _identify


def game_over(state: State) -> str | None:
    supply = state.supply
    if not supply.get("Province"):
        return "province_pile_empty"
    empty = (*supply.values(),).count(())  # an empty pile is the empty tuple
    n = len(state.seats)
    four = n >= 5 or (n == 4 and state.variants.four_piles_at_four_players)
    needed = 4 if four else 3
    return "piles_empty" if empty >= needed else None


def end_turn(ctx: Ctx, p: int) -> None:
    state = ctx.state
    reason = game_over(state)
    if reason is None:
        start_turn(ctx, (p + 1) % state.n)
    else:
        ctx.emit(score(state, reason))


def start_turn(ctx: Ctx, p: int) -> None:
    ctx.emit(TurnStarted(ctx.state.seats[p], ctx.state.turn + 1))
    pl = ctx.state.players[p]
    if pl.lasting or pl.donates:
        ctx.frames.append(Frame("start", p))


def card_vp(cards: tuple[str, ...]) -> int:
    """VP of the cards a player has (7.2 step 1)."""
    vp = DATA.vp
    total = sum(vp[c] for c in cards)
    gardens = cards.count("Gardens")
    if gardens:
        total += gardens * (len(cards) // 10)
    if "Humble Castle" in cards or "King's Castle" in cards:
        castles = sum(1 for c in cards if c in DATA.castles)
        total += castles * (cards.count("Humble Castle") + 2 * cards.count("King's Castle"))
    return total


def landmark_vp(state: State, p: int) -> dict[str, int]:
    """The VP each scoring landmark of the game gives player p (5.6)."""
    return {name: SCORING[name](state, p) for name in state.landmarks if name in SCORING}


def current_totals(state: State) -> list[int]:
    """Each player's score as it stands (7.2): cards, VP tokens and scoring landmarks."""
    tokens = [pl.vp for pl in state.players]
    cards = [card_vp(pl.owned()) for pl in state.players]
    landmarks = [sum(landmark_vp(state, p).values()) for p in range(state.n)]
    return [c + t + lm for c, t, lm in zip(cards, tokens, landmarks, strict=True)]


def order_keys(state: State, totals: list[int]) -> list[tuple[int, int]]:
    """Each player's place in the end-of-game order (7.3), the smaller first: the higher
    total, then the fewest turns (equal keys share a place), or under
    `tiebreak_earlier_seat_loses` the later seat in turn order. A resignation orders the
    players who stay by the same keys."""
    n = state.n
    if state.variants.tiebreak_earlier_seat_loses:
        return [(-totals[p], -((p - state.first) % n)) for p in range(n)]
    return [(-totals[p], state.players[p].turns) for p in range(n)]


def score(state: State, reason: str) -> GameEnded:
    seats = state.seats
    n = state.n
    cards = [card_vp(pl.owned()) for pl in state.players]
    tokens = [pl.vp for pl in state.players]
    landmarks = [landmark_vp(state, p) for p in range(n)]
    totals = [c + t + sum(lm.values()) for c, t, lm in zip(cards, tokens, landmarks, strict=True)]
    turns = [pl.turns for pl in state.players]
    keys = order_keys(state, totals)
    ranks = [1 + sum(1 for q in range(n) if keys[q] < keys[p]) for p in range(n)]
    return GameEnded(
        reason=reason,
        scores={seats[p]: totals[p] for p in range(n)},
        card_vp={seats[p]: cards[p] for p in range(n)},
        tokens={seats[p]: tokens[p] for p in range(n)},
        turns={seats[p]: turns[p] for p in range(n)},
        ranks={seats[p]: ranks[p] for p in range(n)},
        winners=tuple(seats[p] for p in range(n) if ranks[p] == 1),
        landmarks={seats[p]: landmarks[p] for p in range(n)} if state.landmarks else {},
    )
