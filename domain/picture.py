"""The picture of a game: the table as a person sees it, as data every viewer draws.

A game package's `picture` module turns a *view* (the answer of `ruleset.view(state, viewer)`,
already redacted by the one redaction, domain/reading.py) into a `Picture`: a headline, a few
facts, and sections: tables (rows of cells), a board of placed tiles, cards laid out in zones,
a cycle of spaces with pieces on them, or a map of regions and borders. A drawn section names
the tables it `replaces` (they say the same thing), so the web viewer can draw it instead and
keep the tables behind a toggle. The terminal replay and the web viewer draw the same picture,
each its own way. Because a picture
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


class Card(msgspec.Struct, frozen=True):
    """One card (or card-like piece: a building) face up: its name, cost as printed, `types`
    (drawn as colour bands), `count` left in its pile (a supply pile), `tokens` lying on it,
    `owners` the seats that hold it (a Province building: its builders, the first one first)."""

    key: str
    name: str
    cost: str = ""
    types: tuple[str, ...] = ()
    count: int | None = None
    tokens: str = ""
    owners: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()


class Zone(msgspec.Struct, frozen=True):
    """A place cards lie: the `cards` the view shows face up, `backs` cards the viewer sees only
    the backs of (another seat's hand: the view gives its size, never its cards), and `size`
    for a pile of which at most the top shows (a deck, a discard pile; None: the view does not
    say how many)."""

    key: str
    label: str
    cards: tuple[Card, ...] = ()
    backs: int = 0
    size: int | None = None
    pile: bool = False
    marks: tuple[str, ...] = ()


class Cards(msgspec.Struct, frozen=True, tag="cards"):
    """Cards laid out in zones (a supply, one seat's hand, play area and piles). `seat` names
    the seat the zones belong to; `replaces` the tables of the same picture that say the same
    thing (a viewer that draws this section may leave them out)."""

    id: str
    title: str
    zones: tuple[Zone, ...]
    seat: str | None = None
    note: str = ""
    replaces: tuple[str, ...] = ()


class Piece(msgspec.Struct, frozen=True):
    """Pieces of one kind on a space: `kind` (a worker's colour or a named piece), whose."""

    kind: str
    count: int = 1
    seat: str | None = None


class Space(msgspec.Struct, frozen=True):
    key: str
    label: str
    gives: str = ""
    pieces: tuple[Piece, ...] = ()
    marks: tuple[str, ...] = ()


class Cycle(msgspec.Struct, frozen=True, tag="cycle"):
    """Spaces in a loop, in cycle order (each one's next is the one after, the last's the first)."""

    id: str
    title: str
    spaces: tuple[Space, ...]
    replaces: tuple[str, ...] = ()


class Node(msgspec.Struct, frozen=True):
    """A region of a map at (`x`, `y`) in a 1000 x 1000 box (y down): who holds it and with
    what. `marks`: `city`, `barbarian`, `battle` (fought over now), `blocked`, `homeland`."""

    key: str
    label: str
    x: float
    y: float
    owner: str | None = None
    armies: int = 0
    rebels: int = 0
    marks: tuple[str, ...] = ()


class Map(msgspec.Struct, frozen=True, tag="map"):
    """Regions as nodes and their borders as edges (pairs of node keys, each border once)."""

    id: str
    title: str
    nodes: tuple[Node, ...]
    edges: tuple[tuple[str, str], ...]
    replaces: tuple[str, ...] = ()


Section = Table | Board | Cards | Cycle | Map


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
    index>` for a table cell (and `<section>/<row>` for a new row), `<section>/<key>` for a drawn
    part: a tile, a zone of cards, a space of a cycle, a region of a map; and in a zone that was
    there before, `<section>/<zone>/<card>` for each card that is new or differs."""
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
            parts = _parts(old) if old is not None and type(old) is type(section) else {}
            for key, part in _parts(section).items():
                was_part = parts.get(key)
                if was_part == part:
                    continue
                out.add(f"{section.id}/{key}")
                if isinstance(part, Zone) and isinstance(was_part, Zone):
                    # which cards of a changed zone changed: a supply pile's count, a new card
                    before_cards = {c.key: c for c in was_part.cards}
                    out |= {f"{section.id}/{key}/{c.key}" for c in part.cards if before_cards.get(c.key) != c}
    return out


def _parts(section: Section) -> dict[str, Any]:
    """A drawn section's parts by key, each compared whole: a changed zone, space, region or
    tile is marked, not each card in it."""
    if isinstance(section, Board):
        return {t.key: t for t in section.tiles}
    if isinstance(section, Cards):
        return {z.key: z for z in section.zones}
    if isinstance(section, Cycle):
        return {s.key: s for s in section.spaces}
    if isinstance(section, Map):
        return {n.key: n for n in section.nodes}
    return {}


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
