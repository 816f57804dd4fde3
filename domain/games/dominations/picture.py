"""The picture of a Dominations + Provinces table (domain/picture.py), drawn from a redacted view.

Shown: the triangular tile grid (each placed tile with the domains at its corners and camp,
who placed it, and the city on it with its owner and level), each player's Knowledge per
domain, influence, VP, land and conquest hands (the tiles and cards when the view lists them,
else how many), masteries, cities and conquered provinces; the provinces on offer with the
rebellion cards kept on them, the province decks, the land supply, the conquest and rebellion
piles, the masteries left, dominance, and the attack in progress as the view shows it.

A tile's corners are listed in the cell's vertex order v0, v1, v2 (dominations-provinces.md
1.6): for an up cell bottom-left, top, bottom-right; for a down cell top-left, top-right,
bottom. Corner `c_k` of a face placed with rotation `r` sits on vertex `(k + r) mod 3`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.dominations.board import parse_cell
from domain.games.dominations.data import DEFAULT, DOMAINS
from domain.picture import Board, Picture, Row, Table, Tile, label, seat_labels


def _tile(cell: str, placed: Mapping[str, Any]) -> Tile | None:
    parsed = parse_cell(cell)
    if parsed is None:
        return None
    o, i, j = parsed
    face = DEFAULT.faces.get(str(placed.get("tile_id")))
    corners: tuple[str | None, ...] = ()
    centre = None
    if face is not None:
        r = int(placed.get("rotation") or 0) % 3
        at: list[str | None] = [None, None, None]
        for k, colour in enumerate(face.corners):
            at[(k + r) % 3] = colour
        corners, centre = tuple(at), face.camp
    city = placed.get("city") or {}
    return Tile(
        key=cell,
        shape="up" if o == "U" else "down",
        col=2 * i + j + (1 if o == "U" else 2),
        row=-j,
        label=str(placed.get("tile_id")),
        owner=city.get("owner"),
        level=int(city.get("level") or 0),
        centre=centre,
        corners=corners,
        marks=("city",) if city else (),
    )


def _pile(pile: Mapping[str, Any]) -> str:
    discard = " ".join(pile.get("discard") or ()) or "-"
    return f"{pile.get('draw_count', 0)} to draw, discard {discard}"


def _hand(p: Mapping[str, Any], key: str) -> str:
    shown = p.get(key)
    if shown is None:
        return f"{p.get(key + '_count', 0)} hidden"
    return " ".join(shown) or "-"


def picture(view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    players: Mapping[str, Any] = view.get("players") or {}
    active = view.get("active")
    winners = view.get("winners")
    if winners is not None:
        headline = f"Game over: {' and '.join(label(names, w) for w in winners) or 'nobody'} won"
    else:
        headline = (
            f"Age {view.get('age')}, round {view.get('round')}: {label(names, active)} ({view.get('step')})"
        )
    decks = view.get("province_decks") or {}
    conquest = view.get("conquest") or {}
    rebellion = view.get("rebellion") or {}
    facts: tuple[tuple[str, str], ...] = (
        (
            "Province decks",
            ", ".join(f"{k.removeprefix('province-')}: {v.get('count', 0)}" for k, v in decks.items()),
        ),
        ("Land supply", str((view.get("land_supply") or {}).get("count", 0))),
        ("Conquest pile", _pile(conquest)),
        ("Rebellion pile", _pile(rebellion)),
        ("Masteries left", " ".join(view.get("mastery_supply") or ()) or "-"),
    )
    held = {k: v for k, v in (view.get("dominance") or {}).items() if v}
    if held:
        facts += (("Dominance", ", ".join(f"{k} {label(names, v)}" for k, v in held.items())),)
    player_rows = []
    for seat, p in players.items():
        knowledge = p.get("knowledge") or {}
        marks: tuple[str, ...] = ("active",) if seat == active else ()
        if p.get("conquest_hand") is None or p.get("land_hand") is None:
            marks += ("hidden",)
        player_rows.append(
            Row(
                seat,
                (
                    label(names, seat),
                    str(p.get("vp", 0)),
                    str(p.get("influence", 0)),
                    " ".join(str(knowledge.get(d, 0)) for d in DOMAINS),
                    _hand(p, "land_hand"),
                    _hand(p, "conquest_hand"),
                    " ".join(m.get("card_id", "?") for m in p.get("masteries") or ()) or "-",
                    " ".join(c.get("province_id", "?") for c in p.get("provinces_conquered") or ()) or "-",
                ),
                marks,
            )
        )
    tiles = tuple(t for cell, placed in (view.get("board") or {}).items() if (t := _tile(cell, placed)))
    offer = tuple(
        Row(
            a["province_id"],
            (
                a["province_id"],
                DEFAULT.provinces[a["province_id"]].name if a["province_id"] in DEFAULT.provinces else "-",
                " ".join(a.get("kept_rebellion") or ()) or "-",
                str(a.get("failed_attempts", 0)),
            ),
        )
        for a in view.get("available_provinces") or ()
    )
    sections: tuple[Table | Board, ...] = (
        Table(
            "players",
            "Players",
            (
                "player",
                "VP",
                "infl.",
                " ".join(DOMAINS),
                "land hand",
                "conquest hand",
                "masteries",
                "provinces",
            ),
            tuple(player_rows),
        ),
        Board("board", "Tiles", tiles),
        Table("provinces", "Provinces on offer", ("id", "name", "rebellion kept", "failed"), offer),
    )
    attack = view.get("attack")
    if attack:
        rows = (
            Row("attacker", ("attacker", label(names, attack.get("attacker")))),
            Row("province", ("province", str(attack.get("province_id")))),
            Row("drawn", ("rebellion drawn", " ".join(attack.get("drawn") or ()) or "-")),
            Row("rebellion", ("rebellion value", str(attack.get("rebellion_value")))),
            Row(
                "conquest",
                (
                    "conquest value",
                    "hidden" if attack.get("conquest_value") is None else str(attack["conquest_value"]),
                ),
            ),
        )
        sections += (Table("attack", "Attack", ("", ""), rows),)
    return Picture("dominations", headline, facts, sections, seat_labels(players, names))
