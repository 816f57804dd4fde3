"""Creating a game of Dominations + Provinces: the catalog, the initial state and the setup
facts (dominations-provinces.md 1.3-1.7, 3 and S1-S5 of 4.1)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from domain.games.dominations import events as ev
from domain.games.dominations.board import (
    cell_name,
    parse_cell,
)
from domain.games.dominations.data import (
    DEFAULT,
    DEFAULT_TEXT,
    DOMAINS,
    CatalogError,
    Tables,
    load_catalog,
)
from domain.games.dominations.engine import AGE_DECKS, SPEC, Ctx, bad_map, digest, rej
from domain.games.dominations.options import variants_from
from domain.games.dominations.state import (
    Deck,
    DrawRequest,
    Placed,
    Player,
    State,
)
from domain.rng import Rng
from domain.ruleset import GameConfig, RejectedError, Rejection


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
        dominance={card: None for card, _ in dominance_cards(options)},
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
    cards = {card for card, _ in dominance_cards(options)}
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
    if not isinstance(knowledge, dict) or bad_map(knowledge) or not isinstance(influence, int):
        return None
    if not isinstance(vp, int) or min(influence, vp) < 0:
        return None
    return (tuple(knowledge.get(d, 0) for d in DOMAINS), influence, vp)


def _start_player(seat: str, options: Mapping[str, Any]) -> Player:
    start = _starting(str(options["starting_values"]))
    assert start is not None
    return Player(seat, knowledge=start[0], influence=start[1], vp=start[2], cap=_initial_caps(options))


def dominance_cards(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    spy = options["spy_domain"]
    return tuple(("SPY" if d == spy else f"DOM-{d}", d) for d in DOMAINS)


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
    requests += reveal(ctx, 1, n)
    for seat in state.seats:
        requests += deal(ctx, seat, int(state.opt("hand_size")))
    then_begin(ctx, requests, 1, state.first_player)
    return ctx.facts


def reveal(ctx: Ctx, age: int, count: int) -> list[DrawRequest]:
    deck = ctx.state.province_decks[age - 1]
    count = min(count, len(deck))
    if count <= 0:
        return []
    if ctx.state.mode == "physical":
        return [DrawRequest(AGE_DECKS[age - 1], "avail")] * count
    ctx.emit(ev.ProvincesRevealed(age, deck[:count]))
    return []


def deal(ctx: Ctx, seat: str, count: int) -> list[DrawRequest]:
    count = min(count, len(ctx.state.land.draw))
    if count <= 0:
        return []
    if ctx.state.mode == "physical":
        return [DrawRequest("land", f"land:{seat}")] * count
    ctx.emit(ev.LandDealt(seat, ctx.state.land.draw[:count], count))
    return []


def then_begin(ctx: Ctx, requests: list[DrawRequest], age: int, first: str) -> None:
    if requests:
        ctx.emit(ev.DrawsRequested(tuple(requests), after=f"begin_age:{age}:{first}"))
    else:
        ctx.emit(ev.AgeBegan(age, first))
