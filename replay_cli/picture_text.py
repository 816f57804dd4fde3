"""A game's picture (domain/picture.py) as Rich renderables, for `chronicle replay` and `show`.

Tables become Rich tables; a tile board becomes a character grid (a triangle for each tile,
the owner's seat number and the city's level when a city stands on it). Cells a step changed
are drawn on yellow; the player to act is bold; rows with hidden cards are dim.

The drawn sections made for the browser (cards, a cycle of spaces, a map) say what tables of
the same picture say; where those tables are there the terminal draws the tables, which read
better in a terminal, and otherwise a drawn section as lines of text (`_text`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from domain.picture import Board, Cards, Cycle, Map, Picture, Table, picture_of
from replay_cli.reading import Snapshot

CHANGED = "black on yellow"
DOMAIN_COLOURS = {
    "CRA": "red",
    "TRA": "yellow",
    "ART": "magenta",
    "SCI": "cyan",
    "GOV": "blue",
    "REL": "white",
}


WIDE = 100  # from this width on, every table is drawn as a table


def render(picture: Picture, changed: Iterable[str] = (), width: int = WIDE) -> RenderableType:
    """`picture` for a pane `width` columns wide: narrower than WIDE, a table of more than four
    columns is drawn one row a paragraph (`name  column value  column value ...`)."""
    changed = set(changed)
    parts: list[RenderableType] = [Text(picture.headline, style="bold")]
    facts = RichTable.grid(padding=(0, 1))
    facts.add_column(style="dim")
    facts.add_column()
    for name, value in picture.facts:
        facts.add_row(name, Text(value, style=CHANGED if f"fact:{name}" in changed else ""))
    parts.append(facts)
    tables = {s.id for s in picture.sections if isinstance(s, Table)}
    for section in picture.sections:
        if isinstance(section, Cards | Cycle | Map):
            if not section.replaces or not set(section.replaces) <= tables:
                parts.append(_text(section, picture, changed))
        elif isinstance(section, Board):
            parts.append(_board(section, picture, changed))
        elif width < WIDE and len(section.columns) > 4:
            parts.append(_paragraphs(section, changed))
        else:
            parts.append(_table(section, changed))
    return Group(*parts)


def print_picture(snapshot: Snapshot) -> None:
    """`chronicle show --picture`: the picture once, as wide as the terminal (plain when piped)."""
    info = snapshot.info
    console = Console(highlight=False)
    console.print(f"{info.ruleset} {info.game_id}  version {snapshot.version}  seen as {snapshot.viewer}")
    console.print(render(picture_of(info.ruleset, snapshot.state, info.seats), (), console.width))


def _table(section: Table, changed: set[str]) -> RichTable:
    table = RichTable(
        title=section.title,
        title_justify="left",
        title_style="bold underline",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        expand=False,
    )
    for column in section.columns:
        table.add_column(column, overflow="fold")
    for row in section.rows:
        style = " ".join(
            s for s in ("bold" if "active" in row.marks else "", "dim" if "empty" in row.marks else "") if s
        )
        new_row = f"{section.id}/{row.key}" in changed
        cells = [
            Text(cell, style=CHANGED if new_row or f"{section.id}/{row.key}/{i}" in changed else "")
            for i, cell in enumerate(row.cells)
        ]
        if "active" in row.marks and cells:
            cells[0] = Text("> ", style="bold") + cells[0]
        table.add_row(*cells, style=style or None)
    return table


def _paragraphs(section: Table, changed: set[str]) -> RenderableType:
    out: list[RenderableType] = [Text(section.title, style="bold underline")]
    for row in section.rows:
        new_row = f"{section.id}/{row.key}" in changed
        line = Text("> " if "active" in row.marks else "  ", style="bold")
        line.append(row.cells[0], style="bold" if "active" in row.marks else "")
        for i, (column, cell) in enumerate(zip(section.columns[1:], row.cells[1:], strict=False), start=1):
            line.append("  ")
            line.append(f"{column} ", style="dim")
            line.append(cell, style=CHANGED if new_row or f"{section.id}/{row.key}/{i}" in changed else "")
        out.append(line)
    return Group(*out)


def _board(section: Board, picture: Picture, changed: set[str]) -> RenderableType:
    if not section.tiles:
        return Text(f"{section.title}: empty", style="dim")
    seats = list(picture.seats)
    left = min(t.col for t in section.tiles)
    top = min(t.row for t in section.tiles)
    width = (max(t.col for t in section.tiles) - left) * 2 + 2
    height = max(t.row for t in section.tiles) - top + 1
    lines = [Text(" " * width) for _ in range(height)]
    for tile in section.tiles:
        x, y = (tile.col - left) * 2, tile.row - top
        owner = str(seats.index(tile.owner) + 1) if tile.owner in seats else "·"
        glyph = ("▲" if tile.shape == "up" else "▼") + (owner if tile.owner else " ")
        style = DOMAIN_COLOURS.get(tile.centre or "", "")
        if f"{section.id}/{tile.key}" in changed:
            style = CHANGED
        elif tile.owner:
            style += " bold reverse"
        lines[y] = lines[y][:x] + Text(glyph, style=style.strip()) + lines[y][x + 2 :]
    legend = Text(
        "▲▼ a tile (colour: its camp's domain), with a city: its owner's seat number",
        style="dim",
    )
    return Group(Text(section.title, style="bold underline"), *lines, legend)


def _text(section: Cards | Cycle | Map, picture: Picture, changed: set[str]) -> RenderableType:
    """A drawn section as lines: a zone of cards, a space of the cycle or a region of the map a
    line, marked on yellow when the step changed it."""
    lines: list[RenderableType] = [Text(section.title, style="bold underline")]

    def line(key: str, text: str) -> None:
        lines.append(Text(text, style=CHANGED if f"{section.id}/{key}" in changed else ""))

    def who(seat: str | None) -> str:
        return picture.seats.get(seat or "", seat or "-")

    if isinstance(section, Cards):
        if section.note:
            lines.append(Text(section.note, style="dim"))
        for zone in section.zones:
            shown = [
                c.name
                + (f" x{c.count}" if c.count is not None else "")
                + (f" [{c.tokens}]" if c.tokens else "")
                for c in zone.cards
            ]
            if zone.backs:
                shown.append(f"{zone.backs} face down")
            if zone.pile:
                shown.append(f"{'?' if zone.size is None else zone.size} in the pile")
            line(zone.key, f"{zone.label}: {', '.join(shown) or '-'}")
    elif isinstance(section, Cycle):
        for space in section.spaces:
            pieces = ", ".join(
                f"{p.count} {p.kind}" + (f" of {who(p.seat)}" if p.seat else "") for p in space.pieces
            )
            line(space.key, f"{space.label} ({space.gives}): {pieces or '-'} ->")
    else:
        for node in section.nodes:
            held = f"{who(node.owner)} x{node.armies}" if node.owner else "-"
            extra = f", {node.rebels} rebels" if node.rebels else ""
            marks = f" [{' '.join(node.marks)}]" if node.marks else ""
            line(node.key, f"{node.label}: {held}{extra}{marks}")
    return Group(*lines)
