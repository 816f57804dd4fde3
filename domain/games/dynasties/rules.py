"""`decide_state` (the ruleset's `decide`, with the state its facts lead to), `setup` and
`outcome` of Dynasties & Kingdoms (rules version dk-1):
dynasties-kingdoms.md sections 1 (setup), 3 (turn sequence), 5.2-5.3 (validation order and
error codes) and 6 (victory); battles are in `battle.py`.

`decide` works on a running copy of the state: every fact is folded as soon as it is emitted,
so later steps of the same action see its effect exactly as a replay will. After each accepted
action `advance` runs the derived steps: in digital mode the engine deals, draws for the
automatic rebels, resolves showdowns and rolls Build city rolls and city destruction itself;
then eliminations (3.1), the end of a turn cut short, and the end of the game (6).

Rulings (beyond D1-D25):
- The acting player is the command's seat; the recorder acts for whoever is entitled.
  Observed outcomes (dice, shuffles, deals, showdowns) are table inputs of the recorder or of
  the active player's seat.
- A game whose map or options fail the checks of 1.2/8.2 is voided by its first fact
  (`GameVoided`, naming the failed check, e.g. "MAP_INVALID: M7: ..."); `check_config` gives
  the same answer before a game is created.
- In digital mode the whole turn-order roll-off is rolled at setup (stream `turn-order`, one
  operation per die), and the deck is shuffled (stream `deck`, n = 0) right after the last
  homeland pick; each reshuffle takes the next `deck` operation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.endings import ranked_resignation
from domain.games.dynasties import battle as B
from domain.games.dynasties.actions import (
    Action,
    ChooseRebelController,
    DealBattle,
    DiscardAndDraw,
    EndPhase,
    MoveArmy,
    PickHomeland,
    ResolveBattle,
    RollCity,
    RollCityDestruction,
    RollProvince,
    RollTurnOrder,
    ShuffleDeck,
)
from domain.games.dynasties.cards import DECK
from domain.games.dynasties.engine import Ctx, reject, table_only
from domain.games.dynasties.events import (
    ArmiesDied,
    ArmiesMoved,
    ArmiesPlaced,
    ArmiesTrimmed,
    BattleStarted,
    BlocksLifted,
    CityBuilt,
    CityRemoved,
    CityRolled,
    CityRollPending,
    DeckShuffled,
    Fact,
    GameEnded,
    GameVoided,
    HomelandPicked,
    MapWarned,
    PhaseStarted,
    PlayerEliminated,
    ProvinceBlocked,
    ProvinceRolled,
    RollOffRegrouped,
    TurnOrderDecided,
    TurnOrderRolled,
    TurnSkipped,
    TurnStarted,
    VtGained,
)
from domain.games.dynasties.maps import MapData, MapError, get_map, independence, load_map
from domain.games.dynasties.options import opts_from
from domain.games.dynasties.state import Player, Prov, Source, State
from domain.games.dynasties.tables import PROVINCE_TABLE, city_result, effect_code
from domain.rng import Rng
from domain.ruleset import Command, GameConfig, Outcome, Rejection

PHASES = ("city", "province", "expansion", "scoring")
ARMY_LIMIT = 10

# -- creation -------------------------------------------------------------------------------


def check_config(config: GameConfig) -> Rejection | None:
    """The checks of `create_game` (5.3) that the generic options cannot express: the map
    (8.2), the player count against the map (1.2) and the option values of D4 and D5."""
    opts = opts_from(config.options)
    found = load_map(opts.map, opts.strict_province_count)
    if isinstance(found, MapError):
        return reject("MAP_INVALID", found.message, "8.2")
    if opts.army_supply != 0 and opts.army_supply < 4:
        return reject("BAD_PARAMETER", "army_supply is 0 (unlimited) or at least 4.", "1.2")
    if not opts.first_die_color or not opts.second_die_color or opts.first_die_color == opts.second_die_color:
        return reject("BAD_PARAMETER", "The two die colours must be non-empty and different.", "1.2")
    limit = found.player_limit(opts.homeland_rule == "relax_when_blocked")
    if not 2 <= len(config.seats) <= limit:
        return reject("PLAYER_COUNT", f"This map takes 2 to {limit} players.", "1.2")
    return None


def initial(config: GameConfig) -> State:
    opts = opts_from(config.options)
    board = get_map(opts.map)
    provs = tuple(Prov(rebels=3) if p.barbarian else Prov() for p in board.provinces)
    seats = config.seat_ids()
    return State(
        mode=config.mode,
        opts=opts,
        seats=seats,
        provs=provs,
        players=tuple(Player(s) for s in seats),
        groups=(seats,),
    )


def setup(config: GameConfig, state: State, rng: Rng) -> Sequence[Fact]:
    problem = check_config(config)
    if problem is not None:
        return [GameVoided(problem.code, problem.message)]
    ctx = Ctx(state, rng)
    warnings = state.map.warnings
    if warnings:
        ctx.emit(MapWarned(warnings))
    if state.mode != "digital":
        return ctx.facts
    while ctx.state.status == "setup_turn_order":
        player = _due_to_roll(ctx.state)[0]
        n = ctx.state.n_turn_order
        (value,) = rng.roll("turn-order", n, 6, 1)
        _roll_turn_order(ctx, player, value, "turn-order", n)
    return ctx.facts


# -- helpers --------------------------------------------------------------------------------


def _board(state: State) -> MapData:
    return state.map


def _die_ok(value: int | None) -> bool:
    return value is not None and 1 <= value <= 6


def _bad_die(state: State, *values: int | None) -> Rejection | None:
    for v in values:
        if v is None and state.mode == "physical":
            return reject("BAD_PARAMETER", "Enter the die as the table rolled it.", "5.2")
        if v is not None and not 1 <= v <= 6:
            return reject("BAD_PARAMETER", f"A six-sided die shows 1 to 6, not {v}.", "5.2")
    return None


def _entitled(state: State, command: Command, seat: str | None) -> Rejection | None:
    if command.seat is not None and command.seat != seat:
        who = seat or "the table"
        return reject("NOT_YOUR_TURN", f"It is {who} who acts now, not {command.seat}.", "5.2")
    return None


def _playing(state: State) -> Rejection | None:
    if state.status != "playing":
        return reject("WRONG_STATUS", f"This action belongs to play, not to {state.status}.", "5.2")
    return None


def _busy(state: State) -> Rejection | None:
    if state.battle is not None or state.city_roll is not None:
        return reject("PENDING_STEP", "Finish the pending battle or Build city roll first.", "3.3")
    return None


# -- setup actions --------------------------------------------------------------------------


def _due_to_roll(state: State) -> tuple[str, ...]:
    group = next((g for g in state.groups if len(g) > 1), ())
    done = {p for p, _ in state.rolls}
    return tuple(p for p in group if p not in done)


def _roll_turn_order(ctx: Ctx, player: str, value: int, stream: str | None, n: int | None) -> None:
    ctx.emit(TurnOrderRolled(player, value, stream, n, observed=stream is None))
    state = ctx.state
    if _due_to_roll(state):
        return
    rolls = dict(state.rolls)
    index = next(i for i, g in enumerate(state.groups) if len(g) > 1)
    group = state.groups[index]
    values = sorted(set(rolls.values()), reverse=True)
    if state.opts.turn_order_ties == "reroll_all":
        if len(values) < len(group):
            groups: tuple[tuple[str, ...], ...] = (group,)
        else:
            groups = tuple((p,) for v in values for p in group if rolls[p] == v)
    else:
        split = tuple(tuple(p for p in group if rolls[p] == v) for v in values)
        groups = state.groups[:index] + split + state.groups[index + 1 :]
    if all(len(g) == 1 for g in groups):
        order = tuple(g[0] for g in groups)
        first = order[-1] if state.opts.homeland_pick_order == "reverse_turn_order" else order[0]
        ctx.emit(TurnOrderDecided(order, first))
    else:
        ctx.emit(RollOffRegrouped(groups))


def check_roll_turn_order(state: State, a: RollTurnOrder, command: Command) -> Rejection | None:
    if a.player not in state.seats:
        return reject("BAD_PARAMETER", f"There is no player {a.player!r}.", "5.2")
    if state.mode == "digital":
        return reject("BAD_PARAMETER", "The server rolls the turn order in a digital game.", "5.4")
    bad = _bad_die(state, a.value)
    if bad:
        return bad
    if state.status != "setup_turn_order":
        return reject("WRONG_STATUS", "The turn order is settled.", "1.3")
    if command.by == "seat" and command.seat != a.player:
        return reject("NOT_YOUR_TURN", "Each player enters its own roll.", "1.3")
    if a.player not in _due_to_roll(state):
        return reject("NOT_YOUR_TURN", f"{a.player} is not due to roll now.", "1.3")
    return None


def do_roll_turn_order(ctx: Ctx, a: RollTurnOrder) -> None:
    assert a.value is not None
    _roll_turn_order(ctx, a.player, a.value, None, None)


def homeland_problem(state: State, province: str) -> Rejection | None:
    board = _board(state)
    i = board.index[province]
    if board.provinces[i].barbarian:
        return reject("HOMELAND_BARBARIAN", "A barbarian province cannot be a homeland.", "1.4")
    taken = [board.index[p.homeland] for p in state.players if p.homeland is not None]
    if i in taken:
        return reject("HOMELAND_TAKEN", f"{province} is already a homeland.", "1.4")
    blocked = 0
    for t in taken:
        blocked |= board.neighbours[t] | (1 << t)
    relaxed = state.opts.homeland_rule == "relax_when_blocked"
    if blocked >> i & 1:
        if not relaxed or _any_open(state, blocked):
            return reject("HOMELAND_ADJACENT", f"{province} borders a homeland already picked.", "1.4")
        return None
    if relaxed:
        return None
    remaining = sum(1 for p in state.players if p.homeland is None) - 1
    if remaining > 0:
        free = board.eligible & ~blocked & ~(board.neighbours[i] | (1 << i))
        if independence(free, board.neighbours, remaining) < remaining:
            return reject(
                "HOMELAND_STRANDS_PLAYERS",
                f"Picking {province} would leave a later player no legal homeland.",
                "1.4",
            )
    return None


def _any_open(state: State, blocked: int) -> bool:
    return bool(_board(state).eligible & ~blocked)


def check_pick(state: State, a: PickHomeland, command: Command) -> Rejection | None:
    if a.province not in _board(state).index:
        return reject("BAD_PARAMETER", f"There is no province {a.province!r}.", "5.2")
    if state.status != "setup_homelands":
        return reject("WRONG_STATUS", "Homelands are picked after the turn-order roll.", "1.4")
    bad = _entitled(state, command, state.next_picker)
    return bad or homeland_problem(state, a.province)


def do_pick(ctx: Ctx, a: PickHomeland) -> None:
    state = ctx.state
    picker = state.next_picker
    assert picker is not None
    order = state.turn_order
    if state.opts.homeland_pick_order == "reverse_turn_order":
        order = tuple(reversed(order))
    i = order.index(picker)
    nxt = order[i + 1] if i + 1 < len(order) else None
    ctx.emit(HomelandPicked(picker, a.province, nxt))
    if nxt is None and state.mode == "digital":
        order52 = ctx.rng.shuffle("deck", ctx.state.n_deck, DECK)
        ctx.emit(DeckShuffled(tuple(order52), 52, "deck", ctx.state.n_deck))
        start_turn(ctx, ctx.state.turn_order[0], 1)


def check_shuffle(state: State, a: ShuffleDeck, command: Command) -> Rejection | None:
    if state.status != "setup_deck":
        return reject("WRONG_STATUS", "The deck is shuffled once, after the homeland picks.", "1.6")
    if state.mode == "digital":
        return reject("BAD_PARAMETER", "The server shuffles in a digital game.", "5.4")
    return None


def do_shuffle(ctx: Ctx, a: ShuffleDeck) -> None:
    ctx.emit(DeckShuffled((), 52, observed=True))
    start_turn(ctx, ctx.state.turn_order[0], 1)


# -- turns ----------------------------------------------------------------------------------


def start_turn(ctx: Ctx, player: str, round_no: int) -> None:
    """3.1: lift the player's blocks, skip eliminated players, open the City phase."""
    for _ in range(len(ctx.state.turn_order) + 1):
        if ctx.state.opts.blocked_duration == "until_next_turn":
            _lift_blocks(ctx, player)
        if not ctx.state.player(player).eliminated:
            state = ctx.state
            cities = tuple(
                pid for pid, p in zip(state.map.ids, state.provs, strict=True) if p.owner == player and p.city
            )
            ctx.emit(TurnStarted(player, round_no, cities))
            return
        ctx.emit(TurnSkipped(player))
        player, round_no = _next(ctx.state, player, round_no)
    _end_by_elimination(ctx)  # pragma: no cover - every player eliminated is handled earlier


def _lift_blocks(ctx: Ctx, player: str) -> None:
    """The provinces `player` blocked are free again (option `blocked_duration`)."""
    state = ctx.state
    lifted = tuple(pid for pid, p in zip(state.map.ids, state.provs, strict=True) if p.blocked_by == player)
    if lifted:
        ctx.emit(BlocksLifted(player, lifted))


def _next(state: State, player: str, round_no: int) -> tuple[str, int]:
    order = state.turn_order
    i = order.index(player) + 1
    return (order[i], round_no) if i < len(order) else (order[0], round_no + 1)


def end_turn(ctx: Ctx) -> None:
    player = ctx.state.turn_player
    if ctx.state.opts.blocked_duration == "end_of_turn":
        _lift_blocks(ctx, player)
    nxt, round_no = _next(ctx.state, player, ctx.state.round)
    start_turn(ctx, nxt, round_no)


def gain_vt(ctx: Ctx, player: str, amount: int, source: str) -> None:
    ctx.emit(VtGained(player, amount, source))
    if ctx.state.opts.victory_check == "immediate":
        check_victory(ctx, player)


def check_victory(ctx: Ctx, player: str) -> None:
    if ctx.state.status == "playing" and ctx.state.player(player).vt >= ctx.state.opts.victory_vt:
        ctx.emit(GameEnded((player,), "victory"))


def _armies_of(state: State, player: str) -> int:
    total = sum(p.armies for p in state.provs if p.owner == player)
    battle = state.battle
    if battle is not None and battle.context == "expansion" and battle.attacker.player == player:
        total += battle.attacker.strength
    return total


def gain_armies(ctx: Ctx, player: str, province: str, n: int) -> None:
    """Armies from a table: D4's supply and D11's hard cap may reduce the gain."""
    state = ctx.state
    count = n
    if state.opts.army_supply:
        count = min(count, max(0, state.opts.army_supply - _armies_of(state, player)))
    if state.opts.army_cap == "hard":
        count = min(count, max(0, ARMY_LIMIT - state.prov(province).armies))
    if count or n:
        ctx.emit(ArmiesPlaced(player, province, count, n - count))


# -- City and Province phases ---------------------------------------------------------------


def check_roll_city(state: State, a: RollCity, command: Command) -> Rejection | None:
    if a.province not in _board(state).index:
        return reject("BAD_PARAMETER", f"There is no province {a.province!r}.", "5.2")
    bad = _bad_die(state, a.value) or _playing(state)
    if bad:
        return bad
    if state.battle is not None or (state.city_roll is not None and state.city_roll != a.province):
        return reject("PENDING_STEP", "Finish the pending step first.", "5.3")
    bad = _entitled(state, command, state.active) if state.mode == "digital" else table_only(state, command)
    if bad:
        return bad
    if state.city_roll == a.province and state.phase == "province":
        return None
    if state.phase != "city":
        return reject("WRONG_PHASE", "City rolls belong to the City phase.", "3.2")
    prov = state.prov(a.province)
    if prov.owner != state.active:
        return reject("NOT_CONTROLLED", f"{a.province} is not yours.", "3.2")
    if not prov.city:
        return reject("NO_CITY", f"{a.province} has no city.", "3.2")
    if a.province in state.rolled or a.province not in state.to_roll:
        return reject("ALREADY_ROLLED", f"{a.province} was already rolled this phase.", "3.2")
    if state.opts.roll_order == "map_order" and a.province != state.to_roll[0]:
        return reject("ROLL_ORDER", f"Roll {state.to_roll[0]} first (map order).", "D6")
    return None


def _draw_dice(
    ctx: Ctx, count: int, given: tuple[int | None, ...]
) -> tuple[tuple[int, ...], str | None, int | None] | Rejection:
    if ctx.state.mode == "physical":
        return tuple(v for v in given if v is not None), None, None
    n = ctx.state.n_dice
    faces = ctx.rng.roll("dice", n, 6, count)
    if any(g is not None and g != f for g, f in zip(given, faces, strict=True)):
        return reject("RESULT_MISMATCH", f"The dice show {' '.join(map(str, faces))}.", "5.4")
    return faces, "dice", n


def do_roll_city(ctx: Ctx, a: RollCity) -> Rejection | None:
    drawn = _draw_dice(ctx, 1, (a.value,))
    if isinstance(drawn, Rejection):
        return drawn
    faces, stream, n = drawn
    city_roll(ctx, a.province, faces[0], stream, n, build=ctx.state.city_roll == a.province)
    return None


def city_roll(ctx: Ctx, province: str, value: int, stream: str | None, n: int | None, build: bool) -> None:
    player = ctx.state.turn_player
    ctx.emit(CityRolled(player, province, value, build, stream, n, observed=stream is None))
    kind, amount = city_result(value)
    if kind == "vt":
        gain_vt(ctx, player, amount, "city")
    else:
        gain_armies(ctx, player, province, amount)


def check_roll_province(state: State, a: RollProvince, command: Command) -> Rejection | None:
    if a.province not in _board(state).index:
        return reject("BAD_PARAMETER", f"There is no province {a.province!r}.", "5.2")
    bad = _bad_die(state, a.first, a.second) or _playing(state) or _busy(state)
    if bad:
        return bad
    bad = _entitled(state, command, state.active) if state.mode == "digital" else table_only(state, command)
    if bad:
        return bad
    if state.phase != "province":
        return reject("WRONG_PHASE", "Province rolls belong to the Province phase.", "3.3")
    if a.province in state.rolled:
        return reject("ALREADY_ROLLED", f"{a.province} was already rolled this phase.", "3.3")
    if a.province not in state.to_roll:
        return reject("NOT_CONTROLLED", f"{a.province} was not yours at the start of the phase.", "3.3")
    if state.opts.roll_order == "map_order" and a.province != state.to_roll[0]:
        return reject("ROLL_ORDER", f"Roll {state.to_roll[0]} first (map order).", "D6")
    return None


def do_roll_province(ctx: Ctx, a: RollProvince) -> Rejection | None:
    drawn = _draw_dice(ctx, 2, (a.first, a.second))
    if isinstance(drawn, Rejection):
        return drawn
    (first, second), stream, n = drawn
    state = ctx.state
    player = state.turn_player
    p = a.province
    name, effect, amount = PROVINCE_TABLE[(first, second)]
    barbarian = state.map.provinces[state.map.index[p]].barbarian
    ctx.emit(
        ProvinceRolled(player, p, first, second, name, effect_code(effect, amount), stream, n, stream is None)
    )
    prov = ctx.state.prov(p)
    if effect == "rebels":
        automatic = state.opts.rebel_control == "automatic"
        ctx.emit(
            BattleStarted(
                "uprising",
                p,
                "rebels",
                None,
                amount,
                "player",
                player,
                prov.armies,
                "deal" if automatic else "choose_controller",
            )
        )
    elif effect == "death":
        ctx.emit(ArmiesDied(p, prov.armies))
        if state.opts.death_razes_city and prov.city:
            ctx.emit(CityRemoved(p, "death"))
    elif effect == "blocked":
        ctx.emit(ProvinceBlocked(p, player))
    elif effect == "build":
        if barbarian:
            gain_armies(ctx, player, p, 1)
        elif not prov.city:
            ctx.emit(CityBuilt(p))
        else:
            ctx.emit(CityRollPending(p))
    elif effect == "destruction":
        if prov.city:
            ctx.emit(CityRemoved(p, "destruction"))
    elif effect == "armies":
        gain_armies(ctx, player, p, amount)
    elif effect == "vt":
        gain_vt(ctx, player, amount, "province")
    return None


# -- Expansion ------------------------------------------------------------------------------


def check_move(state: State, a: MoveArmy, command: Command) -> Rejection | None:
    board = _board(state)
    if a.to not in board.index or not a.from_:
        return reject("BAD_PARAMETER", "Name a known target and at least one source.", "5.2")
    names = [s.province for s in a.from_]
    if len(set(names)) != len(names) or any(s.count < 1 or s.province not in board.index for s in a.from_):
        return reject("BAD_PARAMETER", "Sources must be known, distinct, with counts of at least 1.", "5.2")
    bad = _playing(state) or _entitled(state, command, state.active) or _busy(state)
    if bad:
        return bad
    if state.phase != "expansion":
        return reject("WRONG_PHASE", "Armies move in the Expansion phase.", "3.4")
    player = state.active
    for s in a.from_:
        if state.prov(s.province).owner != player:
            return reject("NOT_CONTROLLED", f"{s.province} is not yours.", "3.4")
    ti = board.index[a.to]
    for s in a.from_:
        if not board.neighbours[ti] >> board.index[s.province] & 1:
            return reject("NOT_ADJACENT", f"{s.province} does not border {a.to}.", "3.4")
    target = state.provs[ti]
    if target.blocked_by is not None or any(state.prov(s.province).blocked_by is not None for s in a.from_):
        return reject("PROVINCE_BLOCKED", "No army moves into or out of a blocked province.", "3.3")
    again = state.opts.moved_armies_may_move_again
    original = state.opts.last_army_rule == "original_armies"
    for s in a.from_:
        prov = state.prov(s.province)
        if not again and s.count > prov.armies - prov.moved:
            return reject(
                "NOT_ENOUGH_UNMOVED",
                f"{s.province} has only {prov.armies - prov.moved} unmoved armies.",
                "3.4",
            )
        if original:
            if prov.sent_out + s.count > prov.start_armies - 1:
                return reject("LAST_ARMY", f"{s.province} must keep one of its original armies.", "D13")
        elif prov.armies - s.count < 1:
            return reject("LAST_ARMY", f"The last army may not leave {s.province}.", "3.4")
    group = sum(s.count for s in a.from_)
    battle = target.rebels > 0 or (target.owner is not None and target.owner != player)
    if battle and state.opts.attacks_per_target == "one" and a.to in state.attacked:
        return reject("ATTACK_LIMIT", f"{a.to} was already attacked this phase.", "D14")
    if state.opts.army_cap == "hard":
        after = group if battle else group + (target.armies if target.owner == player else 0)
        if after > ARMY_LIMIT:
            return reject("ARMY_CAP", "A province never holds more than 10 armies.", "D11")
    return None


def do_move(ctx: Ctx, a: MoveArmy) -> None:
    state = ctx.state
    player = state.turn_player
    target = state.prov(a.to)
    group = sum(s.count for s in a.from_)
    sources = tuple(Source(s.province, s.count) for s in a.from_)
    if target.owner == player:
        ctx.emit(ArmiesMoved(player, a.to, sources, "reinforced"))
    elif target.owner is None and target.rebels == 0:
        ctx.emit(ArmiesMoved(player, a.to, sources, "occupied"))
    else:
        ctx.emit(ArmiesMoved(player, a.to, sources, "attacking"))
        rebels = target.rebels > 0
        automatic = state.opts.rebel_control == "automatic"
        step = "choose_controller" if rebels and not automatic else "deal"
        ctx.emit(
            BattleStarted(
                "expansion",
                a.to,
                "player",
                player,
                group,
                "rebels" if rebels else "player",
                None if rebels else target.owner,
                target.rebels if rebels else target.armies,
                step,
                sources,
            )
        )


# -- end_phase and scoring ------------------------------------------------------------------


def check_end_phase(state: State, a: EndPhase, command: Command) -> Rejection | None:
    if a.phase not in PHASES:
        return reject("BAD_PARAMETER", f"Unknown phase {a.phase!r}.", "5.2")
    bad = _playing(state) or _entitled(state, command, state.active) or _busy(state)
    if bad:
        return bad
    if a.phase != state.phase:
        return reject("WRONG_PHASE", f"The current phase is {state.phase}.", "3")
    if a.phase in ("city", "province") and state.to_roll:
        return reject(
            "ROLLS_PENDING",
            f"Still to roll: {', '.join(state.to_roll)}.",
            f"3.{2 if a.phase == 'city' else 3}",
        )
    return None


def do_end_phase(ctx: Ctx, a: EndPhase) -> None:
    state = ctx.state
    player = state.turn_player
    if a.phase == "city":
        ctx.emit(PhaseStarted(player, "province", state.controlled(player)))
    elif a.phase == "province":
        ctx.emit(PhaseStarted(player, "expansion"))
    elif a.phase == "expansion":
        ctx.emit(PhaseStarted(player, "scoring"))
        gain_vt(ctx, player, len(ctx.state.controlled(player)), "scoring")
        if ctx.state.opts.victory_check == "end_of_turn":
            check_victory(ctx, player)
        if ctx.state.status != "playing":
            return
        over = tuple(
            Source(pid, p.armies - ARMY_LIMIT)
            for pid, p in zip(ctx.state.map.ids, ctx.state.provs, strict=True)
            if p.armies > ARMY_LIMIT
        )
        if over:
            ctx.emit(ArmiesTrimmed(player, over))
    else:
        end_turn(ctx)


# -- derived steps after each action ----------------------------------------------------------


def _end_by_elimination(ctx: Ctx) -> None:
    players = ctx.state.players
    best = max(p.vt for p in players)
    ctx.emit(GameEnded(tuple(p.id for p in players if p.vt == best), "all_eliminated"))


def advance(ctx: Ctx) -> None:
    """Derived steps (digital deals and rolls), eliminations, turns cut short, game end."""
    for _ in range(64):
        state = ctx.state
        if state.status != "playing":
            return
        if state.mode == "digital" and B.auto_step(ctx):
            continue
        if state.mode == "digital" and state.city_roll is not None and state.battle is None:
            n = state.n_dice
            (value,) = ctx.rng.roll("dice", n, 6, 1)
            city_roll(ctx, state.city_roll, value, "dice", n, build=True)
            continue
        break
    state = ctx.state
    if state.status != "playing":
        return
    alive = {p.owner for p in state.provs if p.owner is not None}
    battle = state.battle
    if battle is not None and battle.context == "expansion" and battle.attacker.player is not None:
        alive.add(battle.attacker.player)
    for p in state.players:
        if not p.eliminated and p.id not in alive:
            ctx.emit(PlayerEliminated(p.id))
    state = ctx.state
    standing = [p.id for p in state.players if not p.eliminated]
    if not standing:
        _end_by_elimination(ctx)
        return
    if state.opts.elimination == "last_player_standing_wins" and len(standing) == 1:
        ctx.emit(GameEnded((standing[0],), "last_player_standing"))
        return
    active = state.active
    if (
        active is not None
        and state.player(active).eliminated
        and state.battle is None
        and state.city_roll is None
    ):
        if state.opts.victory_check == "end_of_turn":
            check_victory(ctx, active)
            if ctx.state.status != "playing":
                return
        end_turn(ctx)


# -- dispatch -------------------------------------------------------------------------------

Check = Callable[[State, Any, Command], Rejection | None]
Do = Callable[[Ctx, Any], Rejection | None]

RULES: dict[type, tuple[Check, Do]] = {
    RollTurnOrder: (check_roll_turn_order, do_roll_turn_order),
    PickHomeland: (check_pick, do_pick),
    ShuffleDeck: (check_shuffle, do_shuffle),
    RollCity: (check_roll_city, do_roll_city),
    RollProvince: (check_roll_province, do_roll_province),
    MoveArmy: (check_move, do_move),
    ChooseRebelController: (B.check_choose, B.do_choose),
    DealBattle: (B.check_deal, B.do_deal),
    DiscardAndDraw: (B.check_draw, B.do_draw),
    ResolveBattle: (B.check_resolve, B.do_resolve),
    RollCityDestruction: (B.check_destruction, B.do_destruction),
    EndPhase: (check_end_phase, do_end_phase),
}

GAME_OVER = reject("GAME_OVER", "The game has ended.", "6")


def check(state: State, action: Action, command: Command) -> Rejection | None:
    if state.status == "finished":
        return GAME_OVER
    return RULES[type(action)][0](state, action, command)


def decide_state(state: State, command: Command, rng: Rng) -> tuple[list[Fact], State] | Rejection:
    """`decide`, with the state its facts lead to: each fact was folded as it was emitted."""
    action = command.action
    if type(action) not in RULES:
        return reject("BAD_PARAMETER", "Unknown action.", "5.1")
    problem = check(state, action, command)
    if problem is not None:
        return problem
    ctx = Ctx(state, rng)
    problem = RULES[type(action)][1](ctx, action)
    if problem is not None:
        return problem
    if ctx.state.status == "playing":
        advance(ctx)
    return ctx.facts, ctx.state


def outcome(state: State) -> Outcome | None:
    if state.status != "finished":
        return None
    scores = {p.id: p.vt for p in state.players}
    winners = state.winners
    ranks = {}
    for p in state.players:
        if p.id in winners:
            ranks[p.id] = 1
        else:
            better = sum(1 for q in state.players if q.id not in winners and q.vt > p.vt)
            ranks[p.id] = (2 if winners else 1) + better
    details = {
        "vt": scores,
        "eliminated": [p.id for p in state.players if p.eliminated],
        "round": state.round,
    }
    return Outcome(scores=scores, ranks=ranks, winners=winners, details=details, reason=state.end_reason)


def resign_outcome(state: State, seat: str) -> Outcome:
    """`seat` last; the others as the game stands, ordered as section 6 ends a game: under
    `last_player_standing_wins` the one player of them not eliminated wins (the resigner
    leaves it standing alone), else the most VT win, several on a tie; then the rest by VT,
    equal VT sharing a place."""
    stay = [p for p in state.players if p.id != seat]
    standing = [p.id for p in stay if not p.eliminated]
    if state.opts.elimination == "last_player_standing_wins" and len(standing) == 1:
        first = set(standing)
    else:
        best = max(p.vt for p in stay)
        first = {p.id for p in stay if p.vt == best}
    order = {p.id: (0 if p.id in first else 1, -p.vt) for p in state.players}
    details = {"eliminated": [p.id for p in state.players if p.eliminated], "round": state.round}
    return ranked_resignation({p.id: p.vt for p in state.players}, seat, order, details)


def progress(state: State) -> tuple[int, str | None]:
    """The turn is one player's turn, as in every game; a round is every player's turn once
    (`rounds`)."""
    return (state.turns, state.active)


def rounds(state: State) -> int:
    return state.round
