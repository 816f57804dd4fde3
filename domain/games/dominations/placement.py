"""4.2.1 `place_tile` (dominations-provinces.md): where a tile may go, what it produces (the
reference production or the table's declared one) and the Cities it activates."""

from __future__ import annotations

from msgspec.structs import replace

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
    DOMAINS,
    Face,
)
from domain.games.dominations.engine import Ctx, bad_map, clean, rej
from domain.games.dominations.state import (
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    State,
)
from domain.ruleset import Rejection


def _face_of(state: State, tile: str) -> Face | None:
    return state.tables.faces.get(tile)


def board_icons(state: State, cell: tuple[str, int, int]) -> dict[tuple[int, int], tuple[str | None, ...]]:
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


def check_place(state: State, a: ac.PlaceTile, seat: str) -> Rejection | None:
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
    if cell is None or bad_map(a.produced) or any(bad_map(x.produced) for x in a.produced_extra):
        return rej("E_BAD_PARAMS", "Malformed cell or production.", "4.0"), None
    if any(bad_map(x.produced) for x in a.city_activations):
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
            produced = clean(a.produced)
        else:
            produced = reference_production(face, cell, a.rotation, board_icons(state, cell))
            verified = True
            if a.produced is not None and clean(a.produced) != produced:
                return rej("E_PRODUCTION_MISMATCH", f"The reference production is {produced}.", "1.6"), None
    else:
        if a.produced is None:
            return rej("E_BAD_PARAMS", "Declare the production (production_model = declared).", "4.2.1"), None
        produced = clean(a.produced)
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
        clean(extra),
        tuple(replace(x, cell=cell_name(parse_cell(x.cell) or cell)) for x in a.city_activations),
        tuple(loci),
        gain,
        permanent_ended=a.source == "province",
    )
    return None, fact


def do_place(ctx: Ctx, a: ac.PlaceTile, seat: str) -> None:
    fact = _place(ctx.state, a, seat)[1]
    assert fact is not None
    ctx.emit(fact)
