"""The picture of an `any` table (domain/picture.py), drawn from a redacted view.

Shown: the title, turn and round, whose turn it is and the last roll as facts; a table of the
players with each per-player track and the size of their hand; the table's tracks; the decks
(the draw pile face down, the discard pile's top card face up, each with its count), the cards
on the table, and each hand (its cards for a viewer who sees them, backs otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.picture import Card, Cards, Picture, Row, Section, Table, Zone, label, seat_labels


def _grouped(cards: list[str]) -> tuple[Card, ...]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return tuple(Card(name, name, count=n if n > 1 else None) for name, n in counts.items())


def _roll(roll: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    if not roll:
        return "-"
    faces = ", ".join(roll.get("shown") or []) or " ".join(str(v) for v in roll.get("values") or [])
    who = f"{label(names, roll['seat'])}: " if roll.get("seat") else ""
    return f"{who}{roll.get('dice')} = {faces}"


SHEET_AFTER = 3  # more per-player tracks than this are drawn as a sheet: a row each, a column a player


def _players(view: Mapping[str, Any], names: Mapping[str, str]) -> list[Section]:
    tracks: Mapping[str, Mapping[str, int]] = view["tracks"]["player"]
    hands: Mapping[str, Any] = view["hands"]
    seats = view["seats"]
    sheet = len(tracks) > SHEET_AFTER
    total = {s: sum(values.get(s, 0) for values in tracks.values()) for s in seats}
    shown = {"total": total} if sheet else tracks
    cards = bool(view["decks"])  # a game without decks holds no hands worth a column
    columns = ("player", *shown, *(("hand",) if cards else ()))
    rows = []
    for seat in seats:
        count = hands[seat]["count"]
        held = (f"{count} card{'s' if count != 1 else ''}",) if cards else ()
        marks = ("turn",) if seat == view["turn_seat"] else ()
        cells = (label(names, seat), *(str(values.get(seat, 0)) for values in shown.values()), *held)
        rows.append(Row(seat, cells, marks))
    sections: list[Section] = [Table("players", "Players", columns, tuple(rows))]
    if sheet:  # a scoring sheet on a phone: its rows down, the players across
        filled: Mapping[str, list[str]] = view.get("filled", {})

        def cell(name: str, seat: str) -> str:  # "-": a row not scored yet
            value = tracks[name].get(seat, 0)
            return str(value) if seat in filled.get(name, ()) or value else "-"

        lines = tuple(Row(name, (name, *(cell(name, s) for s in seats))) for name in tracks)
        columns = ("row", *(label(names, s) for s in seats))
        sections.append(Table("sheet", "Score sheet", columns, lines))
    return sections


def _cards(view: Mapping[str, Any], names: Mapping[str, str]) -> list[Section]:
    sections: list[Section] = []
    decks: Mapping[str, Any] = view["decks"]
    if decks:
        zones = []
        for name, deck in decks.items():
            # A pile is drawn as one card with its count: its top back, or the discard's top face.
            zones.append(Zone(f"{name}-pile", f"{name} draw pile", size=deck["count"], pile=True))
            discard = list(deck["discard"])
            top = (Card(discard[-1], discard[-1]),) if discard else ()
            zones.append(Zone(f"{name}-discard", f"{name} discard pile", top, size=len(discard), pile=True))
        sections.append(Cards("decks", "Decks", tuple(zones)))
    if decks or view["table"]:
        table = list(view["table"])
        sections.append(Cards("table", "On the table", (Zone("table", "Face up", _grouped(table)),)))
    if decks:
        for seat in view["seats"]:
            hand = view["hands"][seat]
            known = list(hand.get("cards", []))
            backs = hand["count"] - len(known) if "cards" in hand else hand["count"]
            zone = Zone("hand", "Hand", _grouped(known), backs=backs, size=hand["count"])
            sections.append(Cards(f"hand-{seat}", f"{label(names, seat)}'s hand", (zone,), seat=seat))
    return sections


def picture(view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    title = view.get("title") or "A game"
    facts: list[tuple[str, str]] = [
        ("Turn", str(view["turn"])),
        ("Round", str(view["round"])),
        ("To play", label(names, view["turn_seat"])),
        ("Last roll", _roll(view.get("last_roll"), names)),
    ]
    result = view.get("result")
    if result:
        facts.append(("Result", str(result.get("reason", ""))))
    sections: list[Section] = _players(view, names)
    table_tracks: Mapping[str, int] = view["tracks"]["table"]
    if table_tracks:
        rows = tuple(Row(name, (name, str(value))) for name, value in table_tracks.items())
        sections.append(Table("table-tracks", "Table tracks", ("track", "value"), rows))
    sections += _cards(view, names)
    return Picture("any", title, tuple(facts), tuple(sections), seat_labels(view["seats"], names))
