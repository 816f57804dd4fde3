"""Rules of Dominations + Provinces: `initial`, `setup` and `decide` (dominations-provinces.md
sections 1.7, 3, 4, 5 and 6). Every check runs in the order section 4 lists, so the first failing
check names the error code; a rejection cites the spec section.

Rulings (where the spec leaves room):
- Physical mode records draws one card at a time: the engine answers an action that draws with
  `DrawsRequested`, and the recorder enters each observed card with `record_draw` (5.4). The
  number of requested cards is capped by what the draw and discard piles hold, so a short draw
  (5.3) needs no separate entry. Spy peek values are not recorded in physical mode (5.4 makes
  them optional).
- Under `retry_draw_rule = printed_plus_failures` the province's kept cards go to the
  rebellion discard pile after the new cards are drawn.
- A player holding no land tile (possible only with a short custom land supply) may end the
  turn from START or GROW_AFTER_FAIL without placing one.
- `base_effect` may be entered by the active seat (for itself or another seat), by the
  recorder or by the system; the S7 and S13a entries (`age_end_base_scoring`,
  `final_scoring`) only by the recorder or the system.
- Declared amounts (city and mastery costs, S7 and S13a entries) are checked for affordability
  and non-negative results only (section 0.3, DECLARED).
- The game is created with the catalog of the `catalog` option; an invalid catalog raises
  `RejectedError` with code `E_BAD_CATALOG` naming the failed check (data.py).
- `abandon_conquest` is refused (`E_CANNOT_ABANDON`) when the attack can succeed: C >= R and the
  hand reaches the required discard. Under the default discard rule this is exactly C >= R; under
  `discard_rule = cards_only` a player whose cards alone cannot reach R may abandon, otherwise
  the attack could neither succeed nor fail.
- Hegemon (6.5): which Hegemon objectives are active is base-game content, so the S7 entry
  declares whether the Hegemon token was active this Age (`hegemon_token_active`) and, when not
  configured, its VP; S9 then scores it STRICTLY (single leader with at least 1 card; ties score
  nothing).
- Spy peek under `spy_peek_short_pile = reshuffle_first` records the reshuffle with `order` =
  the whole new draw pile (the short pile's cards on top of the shuffled discard); in physical
  mode the discard multiset simply joins the draw multiset.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from msgspec.structs import replace

from domain.decision import Decision
from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.board import (
    adjacent,
    cell_name,
    edge_neighbours,
    icons,
    loci_completed,
    locus_cells,
    parse_cell,
    reference_production,
    vertex_neighbours,
    vertices,
)
from domain.games.dominations.data import (
    DEFAULT,
    DEFAULT_TEXT,
    DOMAINS,
    CatalogError,
    Face,
    Tables,
    load_catalog,
)
from domain.games.dominations.fold import evolve
from domain.games.dominations.options import variants_from
from domain.games.dominations.state import (
    ATTACK,
    BUILD,
    DEVELOP,
    END_OF_AGE,
    FINAL_SCORING,
    GAME_OVER,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    Deck,
    DrawRequest,
    Placed,
    Player,
    State,
    bonus,
    conquest_value,
)
from domain.rng import Rng
from domain.ruleset import Command, GameConfig, RejectedError, Rejection

SPEC = "dominations"
OWN_TURN = (START, ATTACK, PLACE_PROVINCE, GROW_AFTER_FAIL, BUILD, DEVELOP)
AGE_DECKS = ("province-I", "province-II", "province-III")


def rej(code: str, message: str, section: str) -> Rejection:
    return Rejection(code, message, f"{SPEC} {section}")


# --- creation -----------------------------------------------------------------------------------


def tables_for(options: Mapping[str, Any]) -> Tables:
    text = options.get("catalog", "default")
    if text in ("default", "", DEFAULT_TEXT):
        return DEFAULT
    try:
        return load_catalog(str(text))
    except CatalogError as error:
        raise RejectedError(
            Rejection("E_BAD_CATALOG", f"The catalog failed check {error.check!r}: {error}", f"{SPEC} 1.4"),
            status=400,
        ) from None


def initial(config: GameConfig) -> State:
    options = variants_from(config.options)
    if options["rules_version"] != "rulebook" or options["dynasties_module"]:
        raise RejectedError(
            rej("E_BAD_PARAMS", "Only the rulebook rules without Dynasties exist.", "7.1"), 400
        )
    tables = tables_for(options)
    if options["reward_knowledge_domain"] == "printed":
        unprinted = [
            p.province_id
            for p in tables.catalog.provinces
            if p.reward.knowledge and p.reward.knowledge_domain == "choice"
        ]
        if unprinted:
            message = (
                f"The catalog failed check 'reward': no printed reward domain for {', '.join(unprinted)}."
            )
            raise RejectedError(Rejection("E_BAD_CATALOG", message, f"{SPEC} 7.13"), 400)
    if _initial_caps(options) is None:
        raise RejectedError(rej("E_BAD_PARAMS", "knowledge_cap must be 'none' or a JSON map.", "7.38"), 400)
    if options["first_player"] not in config.seat_ids():
        raise RejectedError(rej("E_BAD_PARAMS", "first_player must be one of the seats.", "4.1"), 400)
    if _starting(str(options["starting_values"])) is None:
        raise RejectedError(
            rej("E_BAD_PARAMS", "starting_values must be 'default' or {knowledge, influence, vp}.", "1.7"),
            400,
        )
    token = str(options["hegemon_token_vp"])
    if token != "declared" and not token.isdigit():
        raise RejectedError(
            rej("E_BAD_PARAMS", "hegemon_token_vp must be 'declared' or a number.", "6.5"), 400
        )
    if dominance_vp_map(options) is None and options["dominance_vp"] != "declared":
        raise RejectedError(
            rej("E_BAD_PARAMS", "dominance_vp must be 'declared' or a JSON map card -> VP.", "6.1"), 400
        )
    seats = config.seat_ids()
    physical = config.mode == "physical"
    board: dict[str, Placed] = {}
    start_tiles = set()
    for s in tables.catalog.initial_board:
        cell = parse_cell(s.cell)
        assert cell is not None
        board[cell_name(cell)] = Placed(s.tile_id, s.rotation, "start", None, tables.faces.get(s.tile_id))
        start_tiles.add(s.tile_id)
    land = tuple(sorted(t.tile_id for t in tables.catalog.land_tiles if t.tile_id not in start_tiles))
    by_age = tuple(
        tuple(p.province_id for p in tables.catalog.provinces if p.age == age) for age in (1, 2, 3)
    )
    if physical:
        by_age = tuple(tuple(sorted(d)) for d in by_age)
        conquest = tuple(sorted(str(tables.strength[c]) for c in tables.conquest_ids))
        rebellion = tuple(sorted(str(tables.strength[c]) for c in tables.rebellion_ids))
    else:
        conquest, rebellion = tables.conquest_ids, tables.rebellion_ids
    return State(
        tables=tables,
        options=options,
        mode=config.mode,
        seats=seats,
        players=tuple(_start_player(seat, options) for seat in seats),
        board=board,
        province_decks=(by_age[0], by_age[1], by_age[2]),
        land=Deck(land),
        conquest=Deck(conquest),
        rebellion=Deck(rebellion),
        mastery_supply=tuple(m.card_id for m in tables.catalog.masteries),
        dominance={card: None for card, _ in _dominance_cards(options)},
        first_player=str(options["first_player"]),
    )


@lru_cache(maxsize=64)
def _parse_caps(text: str) -> tuple[int, ...] | None:
    if text == "none":
        return (-1,) * 6
    parsed = _parse_vp_map(text)
    if parsed is None or any(d not in DOMAINS for d in parsed):
        return None
    return tuple(parsed.get(d, -1) for d in DOMAINS)


def _initial_caps(options: Mapping[str, Any]) -> Any:
    return _parse_caps(str(options["knowledge_cap"]))


@lru_cache(maxsize=64)
def _parse_vp_map(text: str) -> dict[str, int] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in data.items()
    ):
        return None
    return data


def dominance_vp_map(options: Mapping[str, Any]) -> dict[str, int] | None:
    """The configured VP of each Dominance card, or None when they are declared in S7."""
    text = str(options["dominance_vp"])
    if text == "declared":
        return None
    parsed = _parse_vp_map(text)
    cards = {card for card, _ in _dominance_cards(options)}
    if parsed is None or any(card not in cards for card in parsed):
        return None
    return parsed


@lru_cache(maxsize=64)
def _starting(text: str) -> tuple[tuple[int, ...], int, int] | None:
    if text == "default":
        return ((0,) * 6, 0, 0)
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) - {"knowledge", "influence", "vp"}:
        return None
    knowledge = data.get("knowledge", {})
    influence, vp = data.get("influence", 0), data.get("vp", 0)
    if not isinstance(knowledge, dict) or _bad_map(knowledge) or not isinstance(influence, int):
        return None
    if not isinstance(vp, int) or min(influence, vp) < 0:
        return None
    return (tuple(knowledge.get(d, 0) for d in DOMAINS), influence, vp)


def _start_player(seat: str, options: Mapping[str, Any]) -> Player:
    start = _starting(str(options["starting_values"]))
    assert start is not None
    return Player(seat, knowledge=start[0], influence=start[1], vp=start[2], cap=_initial_caps(options))


def _dominance_cards(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    spy = options["spy_domain"]
    return tuple(("SPY" if d == spy else f"DOM-{d}", d) for d in DOMAINS)


class Ctx(Decision[State, Any]):
    """Facts emitted so far and the state they lead to."""

    __slots__ = ()

    def __init__(self, state: State, rng: Rng) -> None:
        super().__init__(state, rng, evolve)


def setup(config: GameConfig, state: State, rng: Rng) -> list[Any]:
    ctx = Ctx(state, rng)
    ctx.emit(
        ev.GameSetUp(
            state.tables.catalog.catalog_version,
            tuple((s.cell, s.tile_id, s.rotation) for s in state.tables.catalog.initial_board),
        )
    )
    physical = state.mode == "physical"
    decks: list[tuple[str, tuple[str, ...]]] = []
    if state.opt("province_decks_shuffled"):
        decks += [(AGE_DECKS[i], state.province_decks[i]) for i in range(3)]
    decks += [
        ("conquest", state.conquest.draw),
        ("rebellion", state.rebellion.draw),
        ("land", state.land.draw),
    ]
    for name, items in decks:
        if physical:
            ctx.emit(ev.DeckShuffled(name, 0, (), len(items), observed=True))
        else:
            order = tuple(rng.shuffle(name, 0, tuple(sorted(items))))
            ctx.emit(ev.DeckShuffled(name, 0, order, len(order), order_digest=digest(order)))
    n = len(state.seats)
    requests: list[DrawRequest] = []
    requests += _reveal(ctx, 1, n)
    for seat in state.seats:
        requests += _deal(ctx, seat, int(state.opt("hand_size")))
    _then_begin(ctx, requests, 1, state.first_player)
    return ctx.facts


def _reveal(ctx: Ctx, age: int, count: int) -> list[DrawRequest]:
    deck = ctx.state.province_decks[age - 1]
    count = min(count, len(deck))
    if count <= 0:
        return []
    if ctx.state.mode == "physical":
        return [DrawRequest(AGE_DECKS[age - 1], "avail")] * count
    ctx.emit(ev.ProvincesRevealed(age, deck[:count]))
    return []


def _deal(ctx: Ctx, seat: str, count: int) -> list[DrawRequest]:
    count = min(count, len(ctx.state.land.draw))
    if count <= 0:
        return []
    if ctx.state.mode == "physical":
        return [DrawRequest("land", f"land:{seat}")] * count
    ctx.emit(ev.LandDealt(seat, ctx.state.land.draw[:count], count))
    return []


def _then_begin(ctx: Ctx, requests: list[DrawRequest], age: int, first: str) -> None:
    if requests:
        ctx.emit(ev.DrawsRequested(tuple(requests), after=f"begin_age:{age}:{first}"))
    else:
        ctx.emit(ev.AgeBegan(age, first))


# --- drawing ------------------------------------------------------------------------------------


def digest(order: tuple[str, ...]) -> str:
    """5.2 step 7: lowercase hex SHA-256 of the ids joined by commas, top first."""
    return hashlib.sha256(",".join(order).encode()).hexdigest()


def draw_cards(deck: Deck, name: str, k: int, rng: Rng) -> tuple[tuple[str, ...], tuple[ev.Reshuffled, ...]]:
    """5.3 in digital mode: k cards one at a time, reshuffling the discard pile (canonical id
    order, counter n = reshuffles + 1) when the draw pile is empty; short if both are empty."""
    draw = list(deck.draw)
    discard = sorted(deck.discard)
    n = deck.reshuffles
    out: list[str] = []
    reshuffles: list[ev.Reshuffled] = []
    for index in range(k):
        if not draw:
            if not discard:
                break
            n += 1
            order = tuple(rng.shuffle(name, n, tuple(discard)))
            reshuffles.append(ev.Reshuffled(name, n, index, order, len(order), digest(order)))
            draw, discard = list(order), []
        out.append(draw.pop(0))
    return tuple(out), tuple(reshuffles)


def _available_cards(deck: Deck) -> int:
    return len(deck.draw) + len(deck.discard)


# --- common checks ------------------------------------------------------------------------------


def acting_seat(state: State, command: Command) -> str | None:
    if command.by == "seat":
        return command.seat
    return command.seat if command.seat is not None else state.active


def _bad_map(m: Mapping[str, int] | None) -> bool:
    return m is not None and any(d not in DOMAINS or not isinstance(v, int) or v < 0 for d, v in m.items())


def _can_pay(p: Player, cost: Mapping[str, int]) -> bool:
    return all(p.k(d) >= v for d, v in cost.items())


def check(state: State, command: Command) -> Rejection | None:
    action = command.action
    if state.step == GAME_OVER:
        return rej("E_GAME_OVER", "The game has ended.", "4.0")
    if isinstance(action, ac.RecordDraw):
        return _check_record(state, action, command)
    if state.awaiting:
        return rej("E_OUTCOME_REQUIRED", "The table must first enter the drawn card(s).", "5.4")
    if isinstance(action, ac.AgeEndBaseScoring | ac.FinalScoring):
        return _check_scoring(state, action, command)
    if isinstance(action, ac.BaseEffect):
        return _check_base_effect(state, action, command)
    seat = acting_seat(state, command)
    if state.active is None or seat != state.active:
        return rej("E_NOT_YOUR_TURN", "It is not your turn.", "4.0")
    fn = _CHECKS.get(type(action))
    if fn is None:
        return rej("E_BAD_PARAMS", "That is not a Dominations action.", "4.0")
    result: Rejection | None = fn(state, action, seat)
    return result


def _check_record(state: State, a: ac.RecordDraw, command: Command) -> Rejection | None:
    if state.mode != "physical":
        return rej("E_OUTCOME_NOT_ALLOWED", "In a digital game the server draws.", "4.0")
    if command.by == "seat":
        return rej("E_NOT_YOUR_TURN", "Only the recorder enters drawn cards.", "5.4")
    if not state.awaiting:
        return rej("E_WRONG_STEP", "No draw is awaited.", "5.4")
    req = state.awaiting[0]
    if req.deck in AGE_DECKS:
        pile = state.province_decks[AGE_DECKS.index(req.deck)]
    else:
        deck: Deck = getattr(state, req.deck)
        pile = deck.draw if deck.draw else deck.discard
    if a.card not in pile:
        return rej("E_CARD_NOT_IN_PILE", f"{a.card!r} cannot be drawn from the {req.deck} pile now.", "5.4")
    attack = state.attack
    if req.target == "attack" and attack is not None and attack.spy_peek:
        index = len(attack.drawn)
        if index < len(attack.spy_peek) and a.card != attack.spy_peek[index]:
            return rej("E_CARD_NOT_IN_PILE", f"The Spy saw {attack.spy_peek[index]} on top.", "5.4")
    return None


def _check_scoring(
    state: State, a: ac.AgeEndBaseScoring | ac.FinalScoring, command: Command
) -> Rejection | None:
    if command.by == "seat":
        return rej("E_NOT_YOUR_TURN", "Only the recorder declares base-game scoring.", "6.1")
    step = END_OF_AGE if isinstance(a, ac.AgeEndBaseScoring) else FINAL_SCORING
    if state.step != step:
        return rej("E_WRONG_STEP", "That scoring is not due now.", "6.1" if step == END_OF_AGE else "6.2")
    totals = {p.seat: [p.vp, p.influence, *p.knowledge] for p in state.players}
    for e in a.entries:
        if e.player not in totals or _bad_knowledge(e.knowledge):
            return rej("E_BAD_PARAMS", "An entry names an unknown player or domain.", "4.0")
        t = totals[e.player]
        t[0] += e.vp
        t[1] += e.influence
        for d, v in e.knowledge.items():
            t[2 + DOMAINS.index(d)] += v
        if min(t) < 0:
            return rej("E_NEGATIVE_RESULT", f"The entry for {e.player} makes a value negative.", "4.2.14")
    if state.opt("influence_vp_rule") == "none" and any("influence" in e.source.lower() for e in a.entries):
        return rej("E_BAD_PARAMS", "This game scores no VP from Influence (influence_vp_rule = none).", "6.1")
    if isinstance(a, ac.AgeEndBaseScoring):
        cards = {card for card, _ in _dominance_cards(state.options)}
        if any(card not in cards or v < 0 for card, v in a.dominance_vp.items()):
            return rej("E_BAD_PARAMS", "dominance_vp names an unknown card or a negative value.", "6.1")
        if a.dominance_vp and dominance_vp_map(state.options) is not None:
            return rej("E_BAD_PARAMS", "Dominance VP are fixed by the configuration.", "6.1")
        hegemon = bool(state.opt("hegemon_module"))
        if not hegemon and (a.hegemon_token_active or a.hegemon_token_vp is not None):
            return rej("E_BAD_PARAMS", "This game is played without the Hegemon module.", "6.5")
        configured = state.opt("hegemon_token_vp") != "declared"
        if a.hegemon_token_vp is not None and (configured or a.hegemon_token_vp < 0):
            return rej("E_BAD_PARAMS", "The token's VP are fixed by the configuration or negative.", "6.5")
    return None


def _bad_knowledge(m: Mapping[str, int]) -> bool:
    return any(d not in DOMAINS for d in m)


def _check_base_effect(state: State, a: ac.BaseEffect, command: Command) -> Rejection | None:
    if command.by == "seat" and (state.active is None or command.seat != state.active):
        return rej("E_NOT_YOUR_TURN", "A seat enters base-game effects in its own turn.", "4.2.14")
    if a.player not in state.seats or _bad_knowledge(a.knowledge) or _bad_knowledge(a.cap_changes):
        return rej("E_BAD_PARAMS", "Unknown player or domain.", "4.0")
    if a.source_kind == "provinces":
        return rej("E_STRICT_RULE", "Provinces effects are computed by the engine.", "4.2.14")
    if a.source_kind not in ("base_card", "base_rule", "hegemon", "other"):
        return rej("E_BAD_PARAMS", "source_kind must be base_card, base_rule, hegemon or other.", "4.2.14")
    if not a.clamp:
        p = state.player(a.player)
        vals = [p.vp + a.vp, p.influence + a.influence] + [p.k(d) + v for d, v in a.knowledge.items()]
        if min(vals) < 0:
            return rej("E_NEGATIVE_RESULT", "The declared loss would make a value negative.", "4.2.14")
    return None


# --- 4.2.1 place_tile ---------------------------------------------------------------------------


def _face_of(state: State, tile: str) -> Face | None:
    return state.tables.faces.get(tile)


def _board_icons(state: State, cell: tuple[str, int, int]) -> dict[tuple[int, int], tuple[str | None, ...]]:
    out: dict[tuple[int, int], tuple[str | None, ...]] = {}
    for v in vertices(cell):
        found: list[str | None] = []
        for c in locus_cells(v):
            placed = state.board.get(cell_name(c))
            if placed is not None and placed.face is not None:
                found.append(icons(placed.face, c, placed.rotation)[v])
        out[v] = tuple(found)
    return out


def cities_blocked(state: State, source: str) -> bool:
    if state.opt("moche_blocks") != "cities":
        return False
    provinces = state.tables.provinces
    ids = [a.province_id for a in state.available]
    if source == "province" and state.opt("permanent_ends_after_tile") and state.turn.pending_province_tile:
        ids.append(state.turn.pending_province_tile)
    return any(provinces[i].effect.kind == "cities_not_activated" for i in ids)


def _clean(m: Mapping[str, int]) -> dict[str, int]:
    return {d: m[d] for d in DOMAINS if m.get(d)}


def _check_place(state: State, a: ac.PlaceTile, seat: str) -> Rejection | None:
    return _place(state, a, seat)[0]


def _place(state: State, a: ac.PlaceTile, seat: str) -> tuple[Rejection | None, ev.TilePlaced | None]:
    step = state.step
    if step == PLACE_PROVINCE:
        if a.source != "province" or a.tile != state.turn.pending_province_tile:
            return rej(
                "E_MUST_PLACE_PROVINCE_TILE", "Place the conquered province's tile first.", "4.2.1"
            ), None
    elif step in (START, GROW_AFTER_FAIL):
        if a.source != "hand":
            return rej("E_WRONG_STEP", "Only a tile from your hand can be placed now.", "4.2.1"), None
    else:
        return rej("E_WRONG_STEP", "No tile can be placed in this step.", "3.2"), None
    cell = parse_cell(a.cell)
    if cell is None or _bad_map(a.produced) or any(_bad_map(x.produced) for x in a.produced_extra):
        return rej("E_BAD_PARAMS", "Malformed cell or production.", "4.0"), None
    if any(_bad_map(x.produced) for x in a.city_activations):
        return rej("E_BAD_PARAMS", "Malformed city production.", "4.0"), None
    p = state.player(seat)
    if a.source == "hand" and a.tile not in p.land_hand:
        return rej("E_TILE_NOT_IN_HAND", f"{a.tile} is not in your hand.", "4.2.1"), None
    if a.rotation not in (0, 1, 2):
        return rej("E_BAD_ROTATION", "Rotation must be 0, 1 or 2.", "4.2.1"), None
    name = cell_name(cell)
    if name in state.board:
        return rej("E_CELL_OCCUPIED", f"{name} already holds a tile.", "4.2.1"), None
    how = state.opt("placement_adjacency")
    near = edge_neighbours(cell) if how == "edge" else vertex_neighbours(cell)
    if state.board and not any(cell_name(c) in state.board for c in near):
        return rej("E_NOT_ADJACENT", f"{name} touches no placed tile.", "4.2.1"), None
    face = _face_of(state, a.tile)
    if a.face is not None:
        if (face is not None and a.face != face) or not all(
            d is None or d in DOMAINS for d in (a.face.camp, *a.face.corners)
        ):
            return rej(
                "E_BAD_PARAMS", "The face is fixed by the catalog or names an unknown domain.", "4.2.1"
            ), None
        face = a.face
    verified = False
    if state.production_model() == "reference":
        if face is None:
            if a.produced is None:
                return rej(
                    "E_OUTCOME_REQUIRED", "The tile's face is unknown: declare its production.", "4.2.1"
                ), None
            produced = _clean(a.produced)
        else:
            produced = reference_production(face, cell, a.rotation, _board_icons(state, cell))
            verified = True
            if a.produced is not None and _clean(a.produced) != produced:
                return rej("E_PRODUCTION_MISMATCH", f"The reference production is {produced}.", "1.6"), None
    else:
        if a.produced is None:
            return rej("E_BAD_PARAMS", "Declare the production (production_model = declared).", "4.2.1"), None
        produced = _clean(a.produced)
    if a.city_activations and cities_blocked(state, a.source):
        return rej(
            "E_CITIES_BLOCKED", "A province forbids city activation while it is available.", "3.3"
        ), None
    seen: set[str] = set()
    for act in a.city_activations:
        c = parse_cell(act.cell)
        placed = state.board.get(cell_name(c)) if c is not None else None
        if (
            c is None
            or placed is None
            or placed.city_owner != act.owner
            or cell_name(c) in seen
            or not adjacent(cell, c, state.opt("city_adjacency"))
        ):
            return rej(
                "E_CITY_NOT_ADJACENT", f"No adjacent city of {act.owner} on {act.cell}.", "4.2.1"
            ), None
        seen.add(cell_name(c))
    extra: dict[str, int] = {}
    for x in a.produced_extra:
        for d, v in x.produced.items():
            extra[d] = extra.get(d, 0) + v
    loci = loci_completed(cell, state.board)
    gain = len(loci) * state.owns(seat, "missionaires")
    fact = ev.TilePlaced(
        seat,
        a.source,
        a.tile,
        name,
        a.rotation,
        face,
        produced,
        verified,
        _clean(extra),
        tuple(replace(x, cell=cell_name(parse_cell(x.cell) or cell)) for x in a.city_activations),
        tuple(loci),
        gain,
        permanent_ended=a.source == "province",
    )
    return None, fact


def _do_place(ctx: Ctx, a: ac.PlaceTile, seat: str) -> None:
    fact = _place(ctx.state, a, seat)[1]
    assert fact is not None
    ctx.emit(fact)


# --- 4.2.2 buy_conquest_card --------------------------------------------------------------------


def _buy_domain(a: ac.BuyConquestCard) -> str | None:
    if a.payment is not None:
        used = [d for d, v in a.payment.items() if v]
        if len(used) == 1 and a.payment[used[0]] == 2 and a.domain in (None, used[0]):
            return used[0]
        return None
    return a.domain


def _check_buy(state: State, a: ac.BuyConquestCard, seat: str) -> Rejection | None:
    if state.step not in OWN_TURN:
        return rej("E_WRONG_STEP", "Conquest cards are bought during your own turn.", "4.2.2")
    if a.payment is not None and len([d for d, v in a.payment.items() if v]) > 1:
        return rej(
            "E_BAD_PARAMS",
            "A conquest card costs 2 Knowledge of one domain; it cannot be paid with two domains.",
            "4.2.2",
        )
    domain = _buy_domain(a)
    if domain not in DOMAINS:
        return rej("E_BAD_PARAMS", "Name one domain and pay 2 Knowledge of it.", "4.2.2")
    p = state.player(seat)
    if p.k(domain) < 2:
        return rej("E_INSUFFICIENT_KNOWLEDGE", f"You need 2 {domain} Knowledge.", "4.2.2")
    if not _available_cards(state.conquest):
        return rej("E_DECK_EXHAUSTED", "No conquest card is left to draw.", "4.2.2")
    limit = int(state.opt("conquest_hand_limit"))
    if limit and len(p.conquest_hand) >= limit:
        return rej("E_HAND_LIMIT", "Your conquest hand is full.", "7.31")
    if (
        state.step == ATTACK
        and state.opt("post_reveal_buy_only_when_short")
        and state.attack is not None
        and conquest_value(state) >= state.attack.rebellion_value
    ):
        return rej("E_INFLUENCE_NOT_NEEDED", "Your conquest value already reaches the rebellion.", "7.7")
    return None


def _do_buy(ctx: Ctx, a: ac.BuyConquestCard, seat: str) -> None:
    domain = _buy_domain(a)
    assert domain is not None
    must = ctx.state.step == ATTACK
    if ctx.state.mode == "physical":
        ctx.emit(ev.ConquestCardBought(seat, domain, None, must))
        target = f"{'must' if must else 'hand'}:{seat}"
        ctx.emit(ev.DrawsRequested((DrawRequest("conquest", target),)))
        return
    cards, reshuffles = draw_cards(ctx.state.conquest, "conquest", 1, ctx.rng)
    ctx.emit(ev.ConquestCardBought(seat, domain, cards[0], must, reshuffles))


# --- 4.2.3 attempt_conquest ---------------------------------------------------------------------


def _draw_plan(state: State, province_id: str, seat: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """(kept cards taken, number of new cards to draw, kept cards discarded)."""
    av = state.avail(province_id)
    assert av is not None
    prov = state.tables.provinces[province_id]
    masteries = state.tables.masteries
    reduction = sum(masteries[m.card_id].rebellion_draw_reduction for m in state.player(seat).masteries)
    if av.failed_attempts > 0:
        if state.opt("retry_draw_rule") == "kept_plus_one":
            return av.kept, 1, ()
        return (), max(0, prov.rebellion_draws - reduction) + av.failed_attempts, av.kept
    return (), max(0, prov.rebellion_draws - reduction), ()


def _check_attempt(state: State, a: ac.AttemptConquest, seat: str) -> Rejection | None:
    if state.step != START:
        return rej("E_WRONG_STEP", "A conquest is attempted at the start of the turn, as its Grow.", "4.2.3")
    av = state.avail(a.province)
    if av is None:
        return rej("E_PROVINCE_NOT_AVAILABLE", f"{a.province} is not an available province.", "4.2.3")
    if not state.opt("retry_by_failed_player") and av.last_failed_by == seat:
        return rej("E_RETRY_NOT_ALLOWED", "The last failed attacker may not retry.", "7.6")
    if a.use_spy and state.dominance.get("SPY") != seat:
        return rej("E_NO_SPY", "You do not hold the Spy.", "6.4")
    if a.spy_peek is not None:
        if state.mode == "digital":
            return rej("E_OUTCOME_NOT_ALLOWED", "In a digital game the server shows the Spy's cards.", "4.0")
        if not a.use_spy:
            return rej("E_BAD_PARAMS", "A peek is recorded only with use_spy.", "5.4")
        deck = state.rebellion
        pile = deck.draw + deck.discard if _peek_reshuffles(state, a) else deck.draw
        if len(a.spy_peek) > 5 or not _contains(pile, a.spy_peek):
            return rej("E_CARD_NOT_IN_PILE", "The peeked cards are not in the rebellion draw pile.", "5.4")
    if a.use_siege and state.opt("siege_timing") != "before_draw":
        return rej("E_BAD_PARAMS", "use_siege exists only with siege_timing = before_draw.", "4.2.3")
    _, k, _ = _draw_plan(state, a.province, seat)
    if state.opt("exhausted_deck") == "reject_attempt" and k > _available_cards(state.rebellion):
        return rej("E_DECK_EXHAUSTED", "The rebellion draw cannot be completed.", "7.32")
    if a.use_siege:
        return _siege_checks(state, seat, 0)
    return None


def _peek_reshuffles(state: State, a: ac.AttemptConquest) -> bool:
    """7.12 variant: a Spy peek at a short pile first shuffles the discard under it."""
    deck = state.rebellion
    short = len(deck.draw) < 5 and bool(deck.discard)
    return a.use_spy and short and state.opt("spy_peek_short_pile") == "reshuffle_first"


def _do_attempt(ctx: Ctx, a: ac.AttemptConquest, seat: str) -> None:
    state = ctx.state
    kept, k, discarded = _draw_plan(state, a.province, seat)
    prov = state.tables.provinces[a.province]
    conscription = 3 * state.owns(seat, "conscription")
    base = prov.base_rebellion + sum(state.strength(c) for c in kept)
    siege = "influence" if state.opt("siege_cost") == "influence" else "CRA"
    if state.mode == "physical":
        k = min(k, _available_cards(state.rebellion))
        peek = a.spy_peek if a.use_spy else None
        merged: tuple[ev.Reshuffled, ...] = ()
        if _peek_reshuffles(state, a):
            # Physical piles are multisets: the shuffled discard joins the draw pile.
            order = tuple(sorted(state.rebellion.draw + state.rebellion.discard))
            merged = (ev.Reshuffled("rebellion", state.rebellion.reshuffles + 1, 0, order, len(order)),)
        ctx.emit(
            ev.ConquestAttempted(
                seat, a.province, a.use_spy, peek, kept, (), merged, base, conscription, discarded
            )
        )
        if a.use_siege:
            ctx.emit(ev.SiegeEnginesUsed(seat, siege))
        if k:
            ctx.emit(ev.DrawsRequested((DrawRequest("rebellion", "attack"),) * k))
        return
    deck = state.rebellion
    pre: tuple[ev.Reshuffled, ...] = ()
    if _peek_reshuffles(state, a):
        # 7.12 variant: the discard pile is shuffled and put under the short draw pile.
        n = deck.reshuffles + 1
        order = deck.draw + tuple(ctx.rng.shuffle("rebellion", n, tuple(sorted(deck.discard))))
        pre = (ev.Reshuffled("rebellion", n, 0, order, len(order), digest(order)),)
        deck = Deck(order, (), n)
    peek = deck.draw[:5] if a.use_spy else None
    drawn, reshuffles = draw_cards(deck, "rebellion", k, ctx.rng)
    r = base + sum(state.strength(c) for c in drawn)
    ctx.emit(
        ev.ConquestAttempted(
            seat, a.province, a.use_spy, peek, kept, drawn, pre + reshuffles, r, conscription, discarded
        )
    )
    if a.use_siege:
        ctx.emit(ev.SiegeEnginesUsed(seat, siege))


# --- 4.2.4 - 4.2.7 the attack window ------------------------------------------------------------


def _in_attack(state: State) -> Rejection | None:
    if state.step != ATTACK or state.attack is None:
        return rej("E_WRONG_STEP", "No attack is open.", "3.2")
    return None


def _check_siege(state: State, a: ac.UseSiegeEngines, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    if state.opt("siege_timing") == "before_draw":
        return rej("E_WRONG_STEP", "Engins de Siege is used as part of the attempt.", "4.2.4")
    return _siege_checks(state, seat, state.attack.siege_uses if state.attack else 0)


def _siege_checks(state: State, seat: str, uses: int) -> Rejection | None:
    copies = state.owns(seat, "engins_de_siege")
    if not copies:
        return rej("E_NO_MASTERY", "You do not own Engins de Siege.", "4.2.4")
    if uses >= copies:
        return rej("E_SIEGE_ALREADY_USED", "Engins de Siege was already used in this attack.", "4.2.4")
    p = state.player(seat)
    if state.opt("siege_cost") == "influence":
        if p.influence < 1:
            return rej("E_NOT_ENOUGH_INFLUENCE", "Engins de Siege costs 1 Influence.", "4.2.4")
    elif p.k("CRA") < 1:
        return rej("E_INSUFFICIENT_KNOWLEDGE", "Engins de Siege costs 1 CRA Knowledge.", "4.2.4")
    return None


def _do_siege(ctx: Ctx, a: ac.UseSiegeEngines, seat: str) -> None:
    paid = "influence" if ctx.state.opt("siege_cost") == "influence" else "CRA"
    ctx.emit(ev.SiegeEnginesUsed(seat, paid))


def _check_spend(state: State, a: ac.SpendInfluence, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    assert state.attack is not None
    if a.amount < 1:
        return rej("E_BAD_PARAMS", "Spend at least 1 Influence.", "4.2.5")
    c, r_value = conquest_value(state), state.attack.rebellion_value
    if c >= r_value:
        return rej("E_INFLUENCE_NOT_NEEDED", "Your conquest value already reaches the rebellion.", "4.2.5")
    if a.amount > state.player(seat).influence:
        return rej("E_NOT_ENOUGH_INFLUENCE", "You do not have that much Influence.", "4.2.5")
    if a.amount > r_value - c and not state.opt("influence_overspend"):
        return rej("E_INFLUENCE_EXCESS", f"The shortfall is only {r_value - c}.", "4.2.5")
    return None


def _do_spend(ctx: Ctx, a: ac.SpendInfluence, seat: str) -> None:
    ctx.emit(ev.InfluenceSpent(seat, a.amount))


def required_discard(state: State) -> int:
    a = state.attack
    assert a is not None
    if state.opt("discard_rule") == "cards_only":
        return a.rebellion_value
    return max(0, a.rebellion_value - bonus(a))


def _reward_domain_needed(state: State, province_id: str) -> bool:
    reward = state.tables.provinces[province_id].reward
    return reward.knowledge > 0 and reward.knowledge_domain == "choice"


def _check_reward_domain(state: State, province_id: str, domain: str | None) -> Rejection | None:
    if _reward_domain_needed(state, province_id) and domain not in DOMAINS:
        return rej("E_REWARD_DOMAIN_REQUIRED", "Name the domain of the reward Knowledge.", "4.2.6")
    return None


def _contains(big: tuple[str, ...], small: tuple[str, ...]) -> bool:
    need = Counter(small)
    have = Counter(big)
    return all(have[c] >= n for c, n in need.items())


def _check_resolve(state: State, a: ac.ResolveConquest, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    attack = state.attack
    assert attack is not None
    if conquest_value(state) < attack.rebellion_value:
        return rej("E_CONQUEST_VALUE_TOO_LOW", "Your conquest value is below the rebellion value.", "4.2.6")
    hand = state.player(seat).conquest_hand
    if not _contains(hand, a.discard):
        return rej("E_CARD_NOT_IN_HAND", "A discarded card is not in your hand.", "4.2.6")
    if not _contains(a.discard, attack.must_use):
        return rej("E_MUST_USE_NOT_DISCARDED", "Cards bought after the reveal must be used.", "4.2.6")
    total = sum(state.strength(c) for c in a.discard)
    need = required_discard(state)
    if total < need:
        return rej("E_DISCARD_TOO_LOW", f"The discard totals {total}; {need} is required.", "4.2.6")
    if state.opt("discard_must_be_minimal"):
        must = Counter(attack.must_use)
        for c in a.discard:
            if must[c] == 0 and total - state.strength(c) >= need:
                return rej("E_DISCARD_NOT_MINIMAL", f"{c} is not needed.", "7.29")
    return _check_reward_domain(state, attack.province_id, a.reward_domain)


def _rewards(
    state: State, seat: str, province_id: str, reward_domain: str | None
) -> tuple[int, dict[str, int], int]:
    reward = state.tables.provinces[province_id].reward
    vp, influence = reward.vp, reward.influence
    knowledge: dict[str, int] = {}
    if reward.knowledge:
        domain = reward.knowledge_domain if reward.knowledge_domain != "choice" else reward_domain
        assert domain is not None
        knowledge[domain] = reward.knowledge
    arcs = 2 * state.owns(seat, "arcs_de_triomphe")
    if state.opt("arcs_reward") == "vp":
        vp += arcs
    else:
        influence += arcs
    esp = 5 * state.owns(seat, "espionnage")
    if state.opt("espionnage_reward") == "vp":
        vp += esp
    elif esp:
        knowledge["SCI"] = knowledge.get("SCI", 0) + esp
    return vp, knowledge, influence


def _do_resolve(ctx: Ctx, a: ac.ResolveConquest, seat: str) -> None:
    attack = ctx.state.attack
    assert attack is not None
    domain = a.reward_domain if _reward_domain_needed(ctx.state, attack.province_id) else None
    vp, knowledge, influence = _rewards(ctx.state, seat, attack.province_id, domain)
    ctx.emit(
        ev.ProvinceConquered(
            seat, attack.province_id, "attack", a.discard, {}, domain, vp, knowledge, influence, (), True
        )
    )


def _check_abandon(state: State, a: ac.AbandonConquest, seat: str) -> Rejection | None:
    if (r := _in_attack(state)) is not None:
        return r
    assert state.attack is not None
    hand = sum(state.strength(c) for c in state.player(seat).conquest_hand)
    # Must conquer when success is possible; under `discard_rule = cards_only` that also needs
    # the cards alone to reach the requirement (identical to C >= R under the default rule).
    can_win = conquest_value(state) >= state.attack.rebellion_value and hand >= required_discard(state)
    if can_win and not state.opt("allow_voluntary_abandon"):
        return rej(
            "E_CANNOT_ABANDON", "Your conquest value reaches the rebellion: you must conquer.", "4.2.7"
        )
    return None


def _do_abandon(ctx: Ctx, a: ac.AbandonConquest, seat: str) -> None:
    attack = ctx.state.attack
    assert attack is not None
    p = ctx.state.player(seat)
    ctx.emit(ev.ConquestAbandoned(seat, attack.province_id, p.conquest_hand, p.influence))


# --- 4.2.9 conquer_with_knowledge ---------------------------------------------------------------


def _check_knowledge(state: State, a: ac.ConquerWithKnowledge, seat: str) -> Rejection | None:
    if state.step != START:
        return rej("E_WRONG_STEP", "A knowledge conquest is the turn's Grow choice.", "4.2.9")
    if _bad_map(a.payment):
        return rej("E_BAD_PARAMS", "Malformed payment.", "4.0")
    av = state.avail(a.province)
    if av is None:
        return rej("E_PROVINCE_NOT_AVAILABLE", f"{a.province} is not an available province.", "4.2.9")
    price = state.tables.provinces[a.province].knowledge_price
    if price is None:
        return rej("E_NO_KNOWLEDGE_PRICE", f"{a.province} cannot be conquered with Knowledge.", "4.2.9")
    if sum(a.payment.values()) != price:
        return rej("E_WRONG_PAYMENT_TOTAL", f"The price is exactly {price} Knowledge.", "4.2.9")
    p = state.player(seat)
    short = [d for d, v in a.payment.items() if v > p.k(d)]
    if short:
        return rej("E_INSUFFICIENT_KNOWLEDGE", f"Not enough {short[0]} Knowledge.", "4.2.9")
    if (
        state.opt("knowledge_price_domains") == "single_domain"
        and len([v for v in a.payment.values() if v]) > 1
    ):
        return rej("E_WRONG_PAYMENT_TOTAL", "The price must be paid from one domain.", "7.16")
    return _check_reward_domain(state, a.province, a.reward_domain)


def _do_knowledge(ctx: Ctx, a: ac.ConquerWithKnowledge, seat: str) -> None:
    state = ctx.state
    av = state.avail(a.province)
    assert av is not None
    domain = a.reward_domain if _reward_domain_needed(state, a.province) else None
    vp, knowledge, influence = _rewards(state, seat, a.province, domain)
    ctx.emit(
        ev.ProvinceConquered(
            seat,
            a.province,
            "knowledge",
            (),
            _clean(a.payment),
            domain,
            vp,
            knowledge,
            influence,
            av.kept,
            counts_as_attack=bool(state.opt("knowledge_conquest_is_attack")),
        )
    )


# --- 4.2.10 - 4.2.13 ----------------------------------------------------------------------------


def _check_corsaires(state: State, a: ac.CorsairesExchange, seat: str) -> Rejection | None:
    if state.step not in OWN_TURN:
        return rej("E_WRONG_STEP", "Corsaires is used during your own turn.", "4.2.10")
    swap = state.opt("corsaires_exchange") == "any_knowledge_swap"
    if not swap and (a.from_ is not None or a.to is not None):
        return rej("E_BAD_PARAMS", "Corsaires exchanges 1 TRA for 1 Influence: no domains to name.", "4.2.10")
    copies = state.owns(seat, "corsaires")
    if not copies:
        return rej("E_NO_MASTERY", "You do not own Corsaires.", "4.2.10")
    per_turn = int(state.opt("corsaires_per_turn"))
    if per_turn and state.turn.corsaires_used >= per_turn * copies:
        return rej("E_CORSAIRES_USED", "Corsaires was already used this turn.", "4.2.10")
    if swap:
        if a.from_ not in DOMAINS or a.to not in DOMAINS or a.from_ == a.to:
            return rej("E_BAD_PARAMS", "Name two different domains, from and to.", "4.2.10")
        if state.player(seat).k(a.from_) < 1:
            return rej("E_INSUFFICIENT_KNOWLEDGE", f"You have no {a.from_} Knowledge.", "4.2.10")
        return None
    if state.player(seat).k("TRA") < 1:
        return rej("E_INSUFFICIENT_KNOWLEDGE", "Corsaires costs 1 TRA Knowledge.", "4.2.10")
    return None


def _do_corsaires(ctx: Ctx, a: ac.CorsairesExchange, seat: str) -> None:
    if a.from_ is not None and a.to is not None:
        ctx.emit(ev.CorsairesExchanged(seat, a.from_, a.to))
    else:
        ctx.emit(ev.CorsairesExchanged(seat))


def _check_spy_peek(state: State, a: ac.SpyPeek, seat: str) -> Rejection | None:
    if not state.opt("spy_peek_allows_abort") or state.step != START:
        return rej("E_WRONG_STEP", "The Spy peeks only as part of an attack.", "7.11")
    if state.dominance.get("SPY") != seat:
        return rej("E_NO_SPY", "You do not hold the Spy.", "6.4")
    return None


def _do_spy_peek(ctx: Ctx, a: ac.SpyPeek, seat: str) -> None:
    cards = ctx.state.rebellion.draw[:5] if ctx.state.mode == "digital" else ()
    ctx.emit(ev.SpyPeeked(seat, cards))


def _check_monument(state: State, a: ac.ContributeMonument, seat: str) -> Rejection | None:
    if state.step == DEVELOP:
        return rej("E_PHASE_PASSED", "Build actions end with the first mastery.", "3.2")
    if state.step != BUILD:
        return rej("E_WRONG_STEP", "Monuments are contributed in the Build step.", "4.2.12")
    if _bad_map(a.cost) or a.vp < 0 or not a.monument_id or not a.level_card_id:
        return rej("E_BAD_PARAMS", "Malformed monument contribution.", "4.0")
    if state.turn.build_actions >= int(state.opt("max_build_actions_per_turn")):
        return rej("E_BUILD_LIMIT", "No Build action is left this turn.", "4.2.12")
    if not _can_pay(state.player(seat), a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.12")
    return None


def _do_monument(ctx: Ctx, a: ac.ContributeMonument, seat: str) -> None:
    ctx.emit(ev.MonumentContributed(seat, a.monument_id, a.level_card_id, _clean(a.cost), a.vp))


def _check_city(state: State, a: ac.BuildCity, seat: str) -> Rejection | None:
    if state.step == DEVELOP:
        return rej("E_PHASE_PASSED", "Build actions end with the first mastery.", "3.2")
    if state.step != BUILD:
        return rej("E_WRONG_STEP", "Cities are built in the Build step.", "4.2.11")
    cell = parse_cell(a.cell)
    if cell is None or _bad_map(a.cost):
        return rej("E_BAD_PARAMS", "Malformed cell or cost.", "4.0")
    if state.turn.build_actions >= int(state.opt("max_build_actions_per_turn")):
        return rej("E_BUILD_LIMIT", "No Build action is left this turn.", "4.2.11")
    placed = state.board.get(cell_name(cell))
    if placed is None:
        return rej("E_BAD_CITY", "That cell holds no tile.", "4.2.11")
    if placed.city_owner is None:
        if a.new_level != 1:
            return rej("E_BAD_CITY", "A new City has level 1.", "4.2.11")
    elif placed.city_owner != seat or a.new_level != placed.city_level + 1:
        return rej("E_BAD_CITY", "Only your own City is upgraded, one level at a time.", "4.2.11")
    camp = placed.face.camp if placed.face is not None else None
    if camp is not None and any(v and d != camp for d, v in a.cost.items()):
        return rej("E_WRONG_COST_DOMAIN", f"This City is paid with {camp} Knowledge.", "4.2.11")
    if not _can_pay(state.player(seat), a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.11")
    return None


def _do_city(ctx: Ctx, a: ac.BuildCity, seat: str) -> None:
    cell = parse_cell(a.cell)
    assert cell is not None
    ctx.emit(ev.CityBuilt(seat, cell_name(cell), a.new_level, _clean(a.cost)))


def tree_slots(p: Player) -> list[tuple[int, int]]:
    taken = {(0, 0), *(m.pos for m in p.masteries)}
    out = {
        (x + dx, y + dy)
        for x, y in taken
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if (x + dx, y + dy) not in taken
    }
    return sorted(out)


def _check_mastery(state: State, a: ac.AcquireMastery, seat: str) -> Rejection | None:
    if state.step not in (BUILD, DEVELOP):
        return rej("E_WRONG_STEP", "Masteries are acquired in the Build or Develop step.", "4.2.13")
    if _bad_map(a.cost):
        return rej("E_BAD_PARAMS", "Malformed cost.", "4.0")
    if state.turn.mastery_actions >= int(state.opt("max_masteries_per_turn")):
        return rej("E_MASTERY_LIMIT", "No mastery is left to acquire this turn.", "4.2.13")
    if a.card not in state.mastery_supply:
        return rej("E_CARD_NOT_IN_PILE", f"{a.card} is not in the mastery supply.", "4.2.13")
    p = state.player(seat)
    if a.pos not in tree_slots(p):
        return rej("E_BAD_TREE_POSITION", "Place the card orthogonally next to your tree.", "4.2.13")
    m = state.tables.masteries[a.card]
    # 7.22 variant: Conscription has no domain and is paid with any mix.
    domainless = m.effect == "conscription" and state.opt("conscription_domainless")
    if m.cost is not None and (
        sum(a.cost.values()) != m.cost
        or (not domainless and any(v and d != m.domain for d, v in a.cost.items()))
    ):
        return rej("E_WRONG_COST", f"{m.name} costs {m.cost} {m.domain}.", "4.2.13")
    if not _can_pay(p, a.cost):
        return rej("E_INSUFFICIENT_KNOWLEDGE", "You cannot pay that cost.", "4.2.13")
    return None


def _do_mastery(ctx: Ctx, a: ac.AcquireMastery, seat: str) -> None:
    ctx.emit(ev.MasteryAcquired(seat, a.card, a.pos, _clean(a.cost)))


# --- 4.2.15 end_turn and the end of an Age (section 6) --------------------------------------------


def _check_end(state: State, a: ac.EndTurn, seat: str) -> Rejection | None:
    # Ruling: a player without land tiles (a short custom land supply) cannot place one, so
    # the turn may end from START or GROW_AFTER_FAIL; a conquered tile must still be placed.
    if not state.player(seat).land_hand and state.step in (START, GROW_AFTER_FAIL):
        return None
    if state.step in (START, PLACE_PROVINCE, GROW_AFTER_FAIL):
        return rej("E_GROW_NOT_DONE", "Place the turn's tile before ending the turn.", "4.2.15")
    if state.step not in (BUILD, DEVELOP):
        return rej("E_WRONG_STEP", "The turn cannot end now.", "4.2.15")
    return None


def seat_order(state: State) -> tuple[str, ...]:
    i = state.seats.index(state.first_player)
    return state.seats[i:] + state.seats[:i]


def _do_end(ctx: Ctx, a: ac.EndTurn, seat: str) -> None:
    state = ctx.state
    order = seat_order(state)
    i = order.index(seat)
    if i + 1 < len(order):
        ctx.emit(ev.TurnEnded(seat, order[i + 1], state.round, False))
        return
    if state.round < int(state.opt("turns_per_age")):
        ctx.emit(ev.TurnEnded(seat, order[0], state.round + 1, False))
        return
    ctx.emit(ev.TurnEnded(seat, None, state.round, True))
    ctx.emit(ev.ProvinceAgeEffects(state.age, _age_effects(ctx.state)))
    if state.opt("eoa_dominance_before_base_scoring"):
        ctx.emit(award_dominance(ctx.state, dominance_vp_map(state.options) or {}))


def _metric(p: Player, name: str) -> int:
    if name == "vp":
        return p.vp
    if name == "influence":
        return p.influence
    return p.k(name.split(":", 1)[1])


def _loss(p: Player, resource: str, amount: int, vp_floor: bool) -> ev.Loss:
    if resource == "vp":
        return ev.Loss(p.seat, vp=min(amount, p.vp) if vp_floor else amount)
    if resource == "influence":
        return ev.Loss(p.seat, influence=min(amount, p.influence))
    d = resource.split(":", 1)[1]
    return ev.Loss(p.seat, knowledge={d: min(amount, p.k(d))} if min(amount, p.k(d)) else {})


def _age_effects(state: State) -> tuple[ev.ProvinceEffect, ...]:
    """S6: end-of-Age province effects, one at a time, each seeing the previous results."""
    provinces = state.tables.provinces
    avail = list(state.available)
    if state.opt("eoa_province_order") == "tile_number":
        avail.sort(key=lambda a: provinces[a.province_id].tile_no)
    vp_floor = bool(state.opt("vp_floor_zero"))
    out: list[ev.ProvinceEffect] = []
    running = state
    for av in avail:
        effect = provinces[av.province_id].effect
        if effect.timing != "end_of_age":
            continue
        params = effect.params
        losses: list[ev.Loss] = []
        if effect.kind == "all_lose":
            losses = [_loss(p, params["resource"], int(params["amount"]), vp_floor) for p in running.players]
        elif effect.kind == "rank_loss":
            values = [_metric(p, params["metric"]) for p in running.players]
            top = max(values)
            tied = values.count(top) > 1
            for p, v in zip(running.players, values, strict=True):
                amount = params["top_amount"] if v == top else params["others_amount"]
                if v == top and tied and state.opt("rank_loss_tie") == "tied_lose_others_amount":
                    amount = params["others_amount"]
                losses.append(_loss(p, params["resource"], int(amount), vp_floor))
        item = ev.ProvinceEffect(av.province_id, effect.kind, tuple(losses))
        running = evolve(running, ev.ProvinceAgeEffects(state.age, (item,)))
        out.append(item)
    return tuple(out)


def award_dominance(state: State, vp_map: Mapping[str, int]) -> ev.DominanceAwarded:
    """S8: strictly the most Knowledge of the card's domain holds it for the next Age."""
    holders: dict[str, str | None] = {}
    vp: dict[str, int] = {}
    for card, domain in _dominance_cards(state.options):
        values = [p.k(domain) for p in state.players]
        top = max(values)
        if top > 0 and values.count(top) == 1:
            holder: str | None = state.seats[values.index(top)]
        else:
            holder = state.dominance.get(card) if state.opt("dominance_tie") == "keep_previous" else None
        holders[card] = holder
        if holder is not None and vp_map.get(card):
            vp[holder] = vp.get(holder, 0) + vp_map[card]
    return ev.DominanceAwarded(state.age, holders, vp)


def _do_base_scoring(ctx: Ctx, a: ac.AgeEndBaseScoring) -> None:
    state = ctx.state
    ctx.emit(ev.BaseScoringDeclared(state.age, a.entries, dict(a.dominance_vp)))
    state = ctx.state
    configured = dominance_vp_map(state.options)
    if state.opt("eoa_dominance_before_base_scoring"):
        # S8 ran before S7: declared Dominance VP are credited now to the holders it chose.
        if a.dominance_vp:
            vp: dict[str, int] = {}
            for card, holder in state.dominance.items():
                if holder is not None and a.dominance_vp.get(card):
                    vp[holder] = vp.get(holder, 0) + a.dominance_vp[card]
            ctx.emit(ev.DominanceAwarded(state.age, dict(state.dominance), vp))
    else:
        ctx.emit(award_dominance(state, configured if configured is not None else a.dominance_vp))
    if state.opt("hegemon_module"):
        ctx.emit(_hegemon_scoring(ctx.state, a))
    ctx.emit(ev.KnowledgeReset(state.age, bool(state.opt("influence_reset_each_age"))))
    if state.age == 3:
        return
    state = ctx.state
    if state.opt("kept_cards_reset_at_age_end"):
        kept = tuple(c for av in state.available for c in av.kept)
        ctx.emit(ev.KeptCardsReset(kept))
    requests: list[DrawRequest] = []
    requests += _reveal(ctx, state.age + 1, len(state.seats) - len(state.available))
    if state.opt("land_refill") == "fresh_hand":
        ctx.emit(ev.LandHandsBoxed())
    order = seat_order(state)
    hand_size = int(state.opt("hand_size"))
    for seat in order:
        planned = sum(1 for r in requests if r.target == f"land:{seat}")
        need = hand_size - len(ctx.state.player(seat).land_hand) - planned
        pending_land = sum(1 for r in requests if r.deck == "land")
        if ctx.state.mode == "physical":
            need = min(need, len(ctx.state.land.draw) - pending_land)
        requests += _deal(ctx, seat, need) if need > 0 else []
    first = state.first_player
    if state.opt("first_player_rule") == "rotate":
        first = state.seats[(state.seats.index(first) + 1) % len(state.seats)]
    _then_begin(ctx, requests, state.age + 1, first)


def _hegemon_scoring(state: State, a: ac.AgeEndBaseScoring) -> ev.HegemonScored:
    """S9: the single player holding the most province cards (at least 1) scores the token;
    a tie scores nothing [PUB]."""
    if state.opt("hegemon_count_scope") == "this_age":
        counts = {p.seat: sum(1 for c in p.conquered if c.age == state.age) for p in state.players}
    else:
        counts = {p.seat: len(p.province_cards_held) for p in state.players}
    best = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == best]
    scorer = leaders[0] if a.hegemon_token_active and best >= 1 and len(leaders) == 1 else None
    configured = str(state.opt("hegemon_token_vp"))
    vp = int(configured) if configured != "declared" else (a.hegemon_token_vp or 0)
    return ev.HegemonScored(state.age, a.hegemon_token_active, counts, scorer, vp if scorer else 0)


def _do_final(ctx: Ctx, a: ac.FinalScoring) -> None:
    ctx.emit(ev.FinalScoringDeclared(a.entries))
    state = ctx.state
    scores = {p.seat: p.vp for p in state.players}
    best = max(scores.values())
    winners = [p for p in state.players if p.vp == best]
    if state.opt("final_tie_rule") == "most_influence" and len(winners) > 1:
        most = max(p.influence for p in winners)
        winners = [p for p in winners if p.influence == most]
    ctx.emit(ev.GameEnded(scores, tuple(p.seat for p in winners)))


def _do_record(ctx: Ctx, a: ac.RecordDraw) -> None:
    req = ctx.state.awaiting[0]
    reshuffled = False
    if req.deck not in AGE_DECKS:
        deck: Deck = getattr(ctx.state, req.deck)
        reshuffled = not deck.draw
    ctx.emit(ev.CardRecorded(req.deck, req.target, a.card, reshuffled))
    state = ctx.state
    if not state.awaiting and state.after_draws and state.after_draws.startswith("begin_age:"):
        _, age, first = state.after_draws.split(":")
        ctx.emit(ev.AgeBegan(int(age), first))


_CHECKS: dict[type, Any] = {
    ac.PlaceTile: _check_place,
    ac.BuyConquestCard: _check_buy,
    ac.AttemptConquest: _check_attempt,
    ac.UseSiegeEngines: _check_siege,
    ac.SpendInfluence: _check_spend,
    ac.ResolveConquest: _check_resolve,
    ac.AbandonConquest: _check_abandon,
    ac.ConquerWithKnowledge: _check_knowledge,
    ac.CorsairesExchange: _check_corsaires,
    ac.SpyPeek: _check_spy_peek,
    ac.ContributeMonument: _check_monument,
    ac.BuildCity: _check_city,
    ac.AcquireMastery: _check_mastery,
    ac.EndTurn: _check_end,
}
_DOS: dict[type, Any] = {
    ac.PlaceTile: _do_place,
    ac.BuyConquestCard: _do_buy,
    ac.AttemptConquest: _do_attempt,
    ac.UseSiegeEngines: _do_siege,
    ac.SpendInfluence: _do_spend,
    ac.ResolveConquest: _do_resolve,
    ac.AbandonConquest: _do_abandon,
    ac.ConquerWithKnowledge: _do_knowledge,
    ac.CorsairesExchange: _do_corsaires,
    ac.SpyPeek: _do_spy_peek,
    ac.ContributeMonument: _do_monument,
    ac.BuildCity: _do_city,
    ac.AcquireMastery: _do_mastery,
    ac.EndTurn: _do_end,
}


def decide(state: State, command: Command, rng: Rng) -> list[Any] | Rejection:
    rejection = check(state, command)
    if rejection is not None:
        return rejection
    ctx = Ctx(state, rng)
    action = command.action
    if isinstance(action, ac.RecordDraw):
        _do_record(ctx, action)
    elif isinstance(action, ac.AgeEndBaseScoring):
        _do_base_scoring(ctx, action)
    elif isinstance(action, ac.FinalScoring):
        _do_final(ctx, action)
    elif isinstance(action, ac.BaseEffect):
        ctx.emit(
            ev.BaseEffectApplied(
                action.player,
                action.source_kind,
                action.source,
                _clean_signed(action.knowledge),
                action.influence,
                action.vp,
                action.clamp,
                {d: action.cap_changes[d] for d in DOMAINS if d in action.cap_changes},
            )
        )
    else:
        seat = acting_seat(state, command)
        assert seat is not None
        _DOS[type(action)](ctx, action, seat)
    return ctx.facts


def _clean_signed(m: Mapping[str, int]) -> dict[str, int]:
    return {d: m[d] for d in DOMAINS if m.get(d)}
