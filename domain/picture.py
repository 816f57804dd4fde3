"""The picture of a game: the table as a person sees it, as data every viewer draws.

A game package's `picture` module turns a *view* (the answer of `ruleset.view(state, viewer)`,
already redacted by the one redaction, domain/reading.py) into a `Picture`: a headline, a few
facts, and sections that are either tables (rows of cells) or a board of placed tiles. The
terminal replay and the web viewer draw the same picture, each its own way. Because a picture
is computed from the view alone (plus the public rules data and the seats' names), it can never
show more than the view does: two states one viewer cannot tell apart give it one picture.

`changes(before, after)` names the cells that differ between two pictures, so a viewer can
highlight what a step changed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec


class Row(msgspec.Struct, frozen=True):
    """One row of a table. `key` is stable from step to step (a seat, a pile, a space), so a
    change is found cell by cell; `marks` say how to draw it (`active`, `first`, `hidden`,
    `claimed`, `empty`, `own`)."""

    key: str
    cells: tuple[str, ...]
    marks: tuple[str, ...] = ()


class Table(msgspec.Struct, frozen=True, tag="table"):
    id: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]


class Tile(msgspec.Struct, frozen=True):
    """One placed tile of a board on a triangular grid (`shape` up or down) or a square one.
    `col` counts half tile widths from the left, `row` tiles from the top; `corners` are the
    colours (domains) at the tile's three corners clockwise from its top or bottom one."""

    key: str
    shape: Literal["up", "down", "square"]
    col: int
    row: int
    label: str
    owner: str | None = None
    level: int = 0
    centre: str | None = None
    corners: tuple[str | None, ...] = ()
    marks: tuple[str, ...] = ()


class Board(msgspec.Struct, frozen=True, tag="board"):
    id: str
    title: str
    tiles: tuple[Tile, ...]


Section = Table | Board


class Picture(msgspec.Struct, frozen=True):
    ruleset: str
    headline: str
    facts: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...]
    seats: dict[str, str] = {}  # seat id -> label, in seat order


Painter = Callable[[Mapping[str, Any], Mapping[str, str]], Picture]


def painter(ruleset: str) -> Painter | None:
    """The ruleset's `picture(view, names)`, from `domain/games/<ruleset>/picture.py`."""
    if not ruleset.isidentifier():
        return None
    try:
        module = importlib.import_module(f"domain.games.{ruleset}.picture")
    except ModuleNotFoundError:
        return None
    found: Painter | None = getattr(module, "picture", None)
    return found


def picture_of(ruleset: str, view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    """The picture of `view` (a redacted view of a game of `ruleset`); a ruleset without its own
    picture gets its view's top-level fields as one table."""
    paint = painter(ruleset)
    if paint is not None:
        return paint(view, names)
    rows = tuple(Row(str(k), (str(k), _short(v))) for k, v in view.items())
    return Picture(ruleset, ruleset, (), (Table("view", "State", ("field", "value"), rows),), dict(names))


def _short(value: Any) -> str:
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= 60 else text[:57] + "..."


def changes(before: Picture | None, after: Picture) -> set[str]:
    """Keys of what differs from `before` to `after`: `fact:<label>`, `<section>/<row>/<column
    index>` for a table cell (and `<section>/<row>` for a new row), `<section>/<tile>` for a tile."""
    if before is None:
        return set()
    out: set[str] = set()
    old_facts = dict(before.facts)
    out |= {f"fact:{k}" for k, v in after.facts if old_facts.get(k) != v}
    old_sections = {s.id: s for s in before.sections}
    for section in after.sections:
        old = old_sections.get(section.id)
        if isinstance(section, Table):
            rows = {r.key: r for r in old.rows} if isinstance(old, Table) else {}
            for row in section.rows:
                was = rows.get(row.key)
                if was is None:
                    out.add(f"{section.id}/{row.key}")
                    continue
                for i, cell in enumerate(row.cells):
                    if i >= len(was.cells) or was.cells[i] != cell:
                        out.add(f"{section.id}/{row.key}/{i}")
        else:
            tiles = {t.key: t for t in old.tiles} if isinstance(old, Board) else {}
            out |= {f"{section.id}/{t.key}" for t in section.tiles if tiles.get(t.key) != t}
    return out


def to_builtins(picture: Picture, changed: set[str] | None = None) -> dict[str, Any]:
    out = msgspec.to_builtins(picture)
    assert isinstance(out, dict)
    out["changed"] = sorted(changed or ())
    return out


def label(names: Mapping[str, str], seat: str | None) -> str:
    """A seat as people call it: the player's name, or the seat id when it has none."""
    if seat is None:
        return "-"
    return names.get(seat) or seat


def seat_labels(seats: Any, names: Mapping[str, str]) -> dict[str, str]:
    return {str(s): label(names, str(s)) for s in seats}


def cards(items: Any) -> str:
    """A list of cards as `3 Copper, Estate`, grouped in first-seen order."""
    counts: dict[str, int] = {}
    for item in items or ():
        counts[str(item)] = counts.get(str(item), 0) + 1
    return ", ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items()) or "-"
