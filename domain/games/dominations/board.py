"""Board geometry of Dominations + Provinces: the triangular grid of
dominations-provinces.md 1.6 (cells `U(i,j)` / `D(i,j)`, their vertices, edge neighbours,
Loci) and the reference production model.

Cells are written as in the spec, `U(0,0)`; vertices are `(i, j)` tuples.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from domain.games.dominations.data import DOMAINS, Face

Cell = tuple[str, int, int]
Vertex = tuple[int, int]


@lru_cache(maxsize=4096)
def parse_cell(text: str) -> Cell | None:
    t = text.replace(" ", "")
    if len(t) < 6 or t[0] not in "UD" or t[1] != "(" or t[-1] != ")":
        return None
    parts = t[2:-1].split(",")
    if len(parts) != 2:
        return None
    try:
        return (t[0], int(parts[0]), int(parts[1]))
    except ValueError:
        return None


def cell_name(cell: Cell) -> str:
    return f"{cell[0]}({cell[1]},{cell[2]})"


def vertices(cell: Cell) -> tuple[Vertex, Vertex, Vertex]:
    o, i, j = cell
    if o == "U":
        return ((i, j), (i, j + 1), (i + 1, j))
    return ((i, j + 1), (i + 1, j + 1), (i + 1, j))


def edge_neighbours(cell: Cell) -> tuple[Cell, Cell, Cell]:
    o, i, j = cell
    if o == "U":
        return (("D", i, j), ("D", i - 1, j), ("D", i, j - 1))
    return (("U", i, j), ("U", i + 1, j), ("U", i, j + 1))


def locus_cells(v: Vertex) -> tuple[Cell, ...]:
    i, j = v
    return (
        ("U", i, j),
        ("U", i - 1, j),
        ("U", i, j - 1),
        ("D", i - 1, j),
        ("D", i, j - 1),
        ("D", i - 1, j - 1),
    )


def vertex_neighbours(cell: Cell) -> set[Cell]:
    out: set[Cell] = set()
    for v in vertices(cell):
        out.update(locus_cells(v))
    out.discard(cell)
    return out


def adjacent(a: Cell, b: Cell, how: str) -> bool:
    return b in edge_neighbours(a) if how == "edge" else b in vertex_neighbours(a)


def icons(face: Face, cell: Cell, rotation: int) -> dict[Vertex, str | None]:
    """Corner c_k goes to vertex v_((k + r) mod 3)."""
    vs = vertices(cell)
    return {vs[(k + rotation) % 3]: face.corners[k] for k in range(3)}


def reference_production(
    face: Face, cell: Cell, rotation: int, board_icons: Mapping[Vertex, tuple[str | None, ...]]
) -> dict[str, int]:
    """1.6: +1 Camp; per corner that connects to an icon already at its vertex, +1 of its
    colour and +1 more per matching icon there."""
    out: dict[str, int] = {}
    if face.camp is not None:
        out[face.camp] = 1
    for v, colour in icons(face, cell, rotation).items():
        if colour is None:
            continue
        others = [c for c in board_icons.get(v, ()) if c is not None]
        if others:
            out[colour] = out.get(colour, 0) + 1 + sum(1 for c in others if c == colour)
    return {d: out[d] for d in DOMAINS if out.get(d)}


def loci_completed(cell: Cell, occupied: Mapping[str, object]) -> list[Vertex]:
    """Vertices of `cell` (in v0, v1, v2 order) whose six cells are all occupied once `cell`
    is placed; they could not have been complete before, since `cell` was empty."""
    name = cell_name(cell)
    return [
        v
        for v in vertices(cell)
        if all(cell_name(c) == name or cell_name(c) in occupied for c in locus_cells(v))
    ]


def frontier(occupied: Mapping[str, object], how: str) -> list[str]:
    """Empty cells that may take a tile (edge or vertex adjacency), sorted for stable listings."""
    if not occupied:
        return ["U(0,0)"]
    out: set[str] = set()
    for name in occupied:
        cell = parse_cell(name)
        assert cell is not None
        near = edge_neighbours(cell) if how == "edge" else vertex_neighbours(cell)
        for c in near:
            n = cell_name(c)
            if n not in occupied:
                out.add(n)
    return sorted(out)
