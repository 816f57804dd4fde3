"""The picture of a Dynasties & Kingdoms table (domain/picture.py), drawn from a redacted view.

Shown: the map's provinces (name, who holds it and with how many armies, rebels, a city, a
block, its neighbours on the standard map), each player's VT, homeland and standing, the round,
phase and turn order, the draw and discard pile sizes, and the battle in progress: both sides'
strength, hand size, face-up card and cards as the view shows them (another side's hidden
cards read `??`), with the result once it is known.

On the standard map the provinces are also a `Map` for drawing: each at its committed place
(layout.py), its borders as edges, the province fought over now marked `battle`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.dynasties.layout import LAYOUT
from domain.games.dynasties.maps import DEFAULT_MAP
from domain.picture import Map, Node, Picture, Row, Section, Table, label, seat_labels

NAMES = {p.id: p.name for p in DEFAULT_MAP.provinces}
ADJACENT = {p.id: p.adjacent for p in DEFAULT_MAP.provinces}
BARBARIAN = {p.id for p in DEFAULT_MAP.provinces if p.barbarian}
BORDERS = tuple(sorted({tuple(sorted((a, b))) for a, near in ADJACENT.items() for b in near}))


def _map(view: Mapping[str, Any], battle_at: str | None, names: Mapping[str, str]) -> Map:
    """The standard map at its committed layout (layout.py): each province with its holder,
    armies, rebels and marks; the province fought over now is marked `battle`."""
    homelands = {p.get("homeland") for p in view.get("players") or ()}
    nodes = []
    for pid, prov in (view.get("provinces") or {}).items():
        if pid not in LAYOUT:
            continue
        x, y = LAYOUT[pid]
        marks = tuple(
            m
            for m, on in (
                ("city", prov.get("city")),
                ("barbarian", pid in BARBARIAN),
                ("homeland", pid in homelands),
                ("blocked", prov.get("blocked_by")),
                ("battle", pid == battle_at),
            )
            if on
        )
        nodes.append(
            Node(
                pid,
                NAMES.get(pid, pid),
                x,
                y,
                owner=prov.get("army_owner"),
                armies=int(prov.get("armies") or 0),
                rebels=int(prov.get("rebels") or 0),
                marks=marks,
            )
        )
    return Map("map", "Map", tuple(nodes), tuple((a, b) for a, b in BORDERS), replaces=("provinces",))


def _side(role: str, side: Mapping[str, Any], names: Mapping[str, str]) -> Row:
    who = label(names, side.get("player")) if side.get("player") else str(side.get("kind", "-"))
    cards = side.get("cards") or ()
    marks = ("hidden",) if any(c == "??" for c in cards) else ()
    return Row(
        role,
        (
            role,
            who,
            str(side.get("strength", "-")),
            str(side.get("hand_size", len(cards))),
            str(side.get("face_up") or "-"),
            " ".join(cards) or "-",
        ),
        marks,
    )


def picture(view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    players = view.get("players") or []
    active = view.get("active_player")
    standard = view.get("map") == DEFAULT_MAP.id
    winners = view.get("winners") or []
    if view.get("status") == "finished":
        who = " and ".join(label(names, w) for w in winners) or "nobody"
        headline = f"Game over ({view.get('end_reason')}): {who} won"
    elif active is None:
        # Before the first round: the turn order is rolled, then homelands are picked.
        picker = view.get("next_picker")
        step = f"{label(names, picker)} picks a homeland" if picker else "the turn order is rolled"
        headline = f"Setting up: {step}"
    else:
        headline = f"Round {view.get('round')}: {label(names, active)} to play ({view.get('phase')} phase)"
    deck = view.get("deck") or {}
    facts: tuple[tuple[str, str], ...] = (
        ("Turn order", ", ".join(label(names, s) for s in view.get("turn_order") or ()) or "-"),
        ("Draw pile", str(deck.get("draw_pile_count", "?"))),
        ("Discard pile", str(deck.get("discard_pile_count", "?"))),
    )
    if view.get("rolled"):
        facts += (("Rolled", ", ".join(NAMES.get(p, p) for p in view["rolled"])),)
    player_rows = tuple(
        Row(
            p["id"],
            (
                label(names, p["id"]),
                str(p.get("vt", 0)),
                NAMES.get(p.get("homeland") or "", p.get("homeland") or "-"),
                "out" if p.get("eliminated") else ("winner" if p["id"] in winners else "in"),
            ),
            ("active",) if p["id"] == active else (),
        )
        for p in players
    )
    province_rows = []
    for pid, prov in (view.get("provinces") or {}).items():
        owner = prov.get("army_owner")
        held = f"{label(names, owner)} x{prov.get('armies', 0)}" if owner else "-"
        marks: tuple[str, ...] = ("city",) if prov.get("city") else ()
        province_rows.append(
            Row(
                pid,
                (
                    NAMES.get(pid, pid) if standard else pid,
                    held,
                    str(prov.get("rebels") or "-"),
                    "city" if prov.get("city") else "-",
                    label(names, prov["blocked_by"]) if prov.get("blocked_by") else "-",
                    ", ".join(NAMES.get(a, a) for a in ADJACENT.get(pid, ())) if standard else "",
                ),
                marks,
            )
        )
    pending = view.get("pending")
    battle_at = (
        ((pending.get("battle") or {}).get("province"))
        if pending and pending.get("kind") == "battle"
        else None
    )
    sections: tuple[Section, ...] = (_map(view, battle_at, names),) if standard else ()
    sections += (Table("players", "Players", ("player", "VT", "homeland", "standing"), player_rows),)
    if pending and pending.get("kind") == "battle":
        battle = pending.get("battle") or {}
        rows = (
            _side("attacker", battle.get("attacker") or {}, names),
            _side("defender", battle.get("defender") or {}, names),
        )
        result = battle.get("result")
        where = battle.get("province") or ""
        title = f"Battle for {NAMES.get(where, where)} ({battle.get('step')})"
        if result:
            title += ": tie" if result.get("tie") else f": {result.get('winner')} wins"
        sections += (Table("battle", title, ("side", "who", "strength", "hand", "face up", "cards"), rows),)
    elif pending and pending.get("kind") == "city_roll":
        facts += (("City roll", NAMES.get(pending.get("province") or "", str(pending.get("province")))),)
    sections += (
        Table(
            "provinces",
            "Map",
            ("province", "armies", "rebels", "city", "blocked by", "neighbours"),
            tuple(province_rows),
        ),
    )
    return Picture("dynasties", headline, facts, sections, seat_labels([p["id"] for p in players], names))
