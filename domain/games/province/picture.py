"""The picture of a Province table (domain/picture.py), drawn from a redacted view.

Shown: the work cycle's spaces with the workers on them (green workers, the Camp and Village
pieces, each seat's sailors), each player's coins, labour and buildings (`*` marks the first
builder of a building, who scores its first-builder bonus), claimed goals and sailors, the goal
row (the revealed goal, how many lie face down, the removed ones), the Lender coin, the
Harbor's ships and master, and the coin supply. The face-down goals are listed only when the
view lists them (the omniscient viewer of a digital game).

For drawing, the work cycle is also a `Cycle` (its spaces in loop order from the placement
space, with their pieces) and the buildings are cards with their builders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.province.data import DATA
from domain.games.province.table_inputs import AWAITING_TEXT
from domain.picture import (
    Card,
    Cards,
    Cycle,
    Picture,
    Piece,
    Row,
    Section,
    Space,
    Table,
    Zone,
    label,
    seat_labels,
)

BUILDINGS = {b.id: b for b in DATA.buildings}


def _workers(space: Mapping[str, Any], names: Mapping[str, str]) -> str:
    parts = []
    if space.get("green"):
        parts.append(f"{space['green']} green")
    if space.get("camp"):
        parts.append("Camp")
    if space.get("village"):
        parts.append("Village")
    for seat, n in (space.get("sailors") or {}).items():
        if n:
            parts.append(f"{n} sailor{'s' if n > 1 else ''} {label(names, seat)}")
    return ", ".join(parts) or "-"


def _cycle_order() -> tuple[str, ...]:
    """The work cycle's spaces from the placement space, each followed by its `next`."""
    by_id = {s.id: s for s in DATA.spaces}
    order = [DATA.placement_space]
    while by_id[order[-1]].next != order[0] and len(order) < len(by_id):
        order.append(by_id[order[-1]].next)
    return tuple(order)


def _pieces(space: Mapping[str, Any]) -> tuple[Piece, ...]:
    out: list[Piece] = []
    if space.get("green"):
        out.append(Piece("green", int(space["green"])))
    if space.get("camp"):
        out.append(Piece("camp"))
    if space.get("village"):
        out.append(Piece("village"))
    out += [Piece("sailor", int(n), str(seat)) for seat, n in (space.get("sailors") or {}).items() if n]
    return tuple(out)


def _drawn(view: Mapping[str, Any], players: Mapping[str, Any]) -> tuple[Section, ...]:
    """The work cycle as a loop of spaces with their pieces, and the buildings as cards with
    their builders (the first builder first)."""
    board: Mapping[str, Any] = view.get("board") or {}
    gives = {s.id: s.resource for s in DATA.spaces}
    order = [sid for sid in _cycle_order() if sid in board] + [sid for sid in board if sid not in gives]
    cycle = Cycle(
        "cycle",
        "Work cycle",
        tuple(Space(sid, sid, gives.get(sid, ""), _pieces(board[sid])) for sid in order),
        replaces=("board",),
    )
    out: tuple[Section, ...] = (cycle,)
    if view.get("rules_data_version") != DATA.version:
        return out
    builders: dict[str, list[str]] = {}
    for seat, p in players.items():
        for b in p.get("built") or ():
            builders.setdefault(b, []).insert(
                0 if b in (p.get("first") or ()) else len(builders.get(b, [])), seat
            )
    buildings = tuple(
        Card(
            b.id,
            b.name,
            f"{b.cost_labor}L {b.cost_coins}c",
            ("Building",),
            tokens=f"{b.vp} VP",
            owners=tuple(builders.get(b.id, ())),
            marks=("taken",) if b.id in builders else (),
        )
        for b in DATA.buildings
    )
    return (
        *out,
        Cards(
            "buildings-drawn",
            "Buildings",
            (Zone("buildings", "Buildings", buildings),),
            replaces=("buildings",),
        ),
    )


def _built(player: Mapping[str, Any]) -> str:
    first = set(player.get("first") or ())
    return " ".join(f"{b}*" if b in first else b for b in player.get("built") or ()) or "-"


def picture(view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    players: Mapping[str, Any] = view.get("players") or {}
    active = view.get("active")
    status = view.get("status")
    end = view.get("end") or {}
    scores = end.get("scores") or {}
    if end:
        winner = end.get("winner")
        headline = f"Game over: {label(names, winner)} wins" if winner else "Game over: a draw"
    elif active is None:
        # Before the first turn nobody plays: the table decides who starts, or in a digital
        # game the engine draws it.
        waiting = AWAITING_TEXT.get(str(view.get("awaiting")), "who goes first")
        who = "the table decides" if view.get("mode") == "physical" else "the engine draws"
        headline = f"Setting up: {who} {waiting}"
    else:
        headline = f"Turn {view.get('turn')}: {label(names, active)} to play ({view.get('phase')})"
        if view.get("final_turn"):
            headline += ", final turn"
    goals = view.get("goals") or {}
    lender = view.get("lender_coin")
    facts: tuple[tuple[str, str], ...] = (
        ("Status", str(status)),
        ("Coin supply", str(view.get("supply"))),
        (
            "Lender coin",
            label(names, lender) if lender in players else "supply",
        ),
        ("Goal revealed", str(goals.get("revealed") or "-")),
        ("Goals face down", str(goals.get("hidden_count", 0))),
    )
    hidden = goals.get("hidden")
    if hidden:
        facts += (("Face-down order", ", ".join(hidden)),)
    if goals.get("removed"):
        facts += (("Goals removed", ", ".join(goals["removed"])),)
    ships = view.get("ships")
    if ships:
        facts += (("Ships", f"{' '.join(ships.get('faces') or ())} -> {ships.get('result')}"),)
    if view.get("harbor_master"):
        facts += (("Harbor master", label(names, view["harbor_master"])),)
    player_rows = []
    for seat, p in players.items():
        marks = ("active",) if seat == active and not end else ()
        total = scores.get(seat, {}).get("total")
        player_rows.append(
            Row(
                seat,
                (
                    label(names, seat),
                    str(p.get("coins", 0)),
                    str(p.get("labor", 0)),
                    _built(p),
                    ", ".join(p.get("goals") or ()) or "-",
                    str(p.get("sailors", 0)),
                    "-" if total is None else str(total),
                ),
                marks,
            )
        )
    board: Mapping[str, Any] = view.get("board") or {}
    gives = {s.id: s.resource for s in DATA.spaces}
    space_rows = tuple(
        Row(sid, (sid, gives.get(sid, "-"), _workers(space, names))) for sid, space in board.items()
    )
    built_anywhere = {b for p in players.values() for b in p.get("built") or ()}
    supply_rows = tuple(
        Row(
            b.id,
            (b.name, f"{b.cost_labor}L {b.cost_coins}c", str(b.vp), ", ".join(b.requires) or "-"),
            ("taken",) if b.id in built_anywhere else (),
        )
        for b in DATA.buildings
        if view.get("rules_data_version") == DATA.version
    )
    sections: tuple[Section, ...] = (
        *_drawn(view, players),
        Table(
            "players",
            "Players",
            ("player", "coins", "labour", "buildings (* first)", "goals", "sailors", "score"),
            tuple(player_rows),
        ),
        Table("board", "Work cycle", ("space", "gives", "workers"), space_rows),
        Table("buildings", "Buildings", ("building", "cost", "VP", "needs"), supply_rows),
    )
    return Picture("province", headline, facts, sections, seat_labels(players, names))
