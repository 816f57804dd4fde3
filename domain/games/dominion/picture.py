"""The picture of a Dominion table (domain/picture.py), drawn from a redacted view.

Shown: the Supply (each pile's cost, count and top card, so a split pile shows which half is
on top, with the VP and debt tokens on it), Events and Landmarks with their tokens, the
trash, and each player's hand (the cards when the view lists them, else only how many), play
area, set-aside cards and Durations, deck and discard sizes (when the view gives them, else
`?`: by the table rule of dominion.md 6.5 a seat counts its own piles and another seat's only
under the `open_counts` variant), the discard pile's top card, VP tokens and debt. A hand the
viewer may not see is never more than its size here, because the view never lists it.

The same is drawn as cards (domain/picture.py `Cards`): the Supply, Events and Landmarks and
the trash in one section, and a section per seat (hand, play area, deck and discard piles),
each card with its cost and types from the card data; a hidden hand is its size in backs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.games.dominion.data import DATA
from domain.games.dominion.describe import count_text
from domain.picture import Card, Cards, Picture, Row, Section, Table, Zone, cards, label, seat_labels

BASIC_ORDER = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")


def _cost(name: str) -> str:
    card = DATA.cards.get(name)
    if card is None:
        events = DATA.events.get(name)
        if events is None:
            return "-"
        coins, debt = events
    else:
        coins, debt = card.cost
    text = f"${coins}" if coins or not debt else ""
    return f"{text} {debt}D".strip() if debt else text


def _types(name: str) -> tuple[str, ...]:
    card = DATA.cards.get(name)
    if card is not None:
        return card.types
    if name in DATA.events:
        return ("Event",)
    return ("Landmark",) if name in DATA.landmarks else ()


def _card(key: str, name: str, **more: Any) -> Card:
    return Card(
        key, name, _cost(name) if name in DATA.cards or name in DATA.events else "", _types(name), **more
    )


def _face_up(items: Any, prefix: str) -> tuple[Card, ...]:
    return tuple(_card(f"{prefix}{i}", str(name)) for i, name in enumerate(items or ()))


def _seat_cards(seat: str, p: Mapping[str, Any], names: Mapping[str, str], current: Any) -> Cards:
    """One seat's cards as the view gives them: a hand the viewer may not see is its size in
    backs; deck and discard are piles (their sizes when the view gives them), the discard's
    top card face up when the view names it."""
    hand = (
        Zone("hand", "Hand", _face_up(p["hand"], "h"))
        if "hand" in p
        else Zone("hand", "Hand", backs=int(p.get("hand_count", 0)), marks=("hidden",))
    )
    lasting = tuple(_card(f"d{i}", str(d.get("card", "?"))) for i, d in enumerate(p.get("durations") or ()))
    zones = [hand, Zone("play", "In play", _face_up(p.get("in_play"), "p") + lasting)]
    if p.get("set_aside"):
        zones.append(Zone("aside", "Set aside", _face_up(p["set_aside"], "a")))
    deck, discard = p.get("deck_count"), p.get("discard_count")
    top = p.get("discard_top")
    zones.append(Zone("deck", "Deck", size=None if deck is None else int(deck), pile=True))
    zones.append(
        Zone(
            "discard",
            "Discard",
            (_card("top", str(top)),) if top else (),
            size=None if discard is None else int(discard),
            pile=True,
        )
    )
    note = f"{p.get('vp_tokens', 0)} VP tokens, {p.get('debt', 0)} debt"
    who = label(names, seat) + (" (to play)" if seat == current else "")
    return Cards(f"seat-{seat}", who, tuple(zones), seat=seat, note=note, replaces=("players",))


def _count(p: Mapping[str, Any], key: str) -> str:
    return str(p[key]) if key in p else "?"


def _player_row(seat: str, p: Mapping[str, Any], names: Mapping[str, str], current: Any) -> Row:
    hand = f"{cards(p['hand'])}" if "hand" in p else count_text(p.get("hand_count", 0))
    durations = ", ".join(d.get("card", "?") for d in p.get("durations") or ())
    play = cards(p.get("in_play"))
    if durations:
        play += f" | lasting: {durations}"
    if p.get("set_aside"):
        play += f" | aside: {cards(p['set_aside'])}"
    marks: tuple[str, ...] = ("active",) if seat == current else ()
    if "hand" not in p:
        marks += ("hidden",)
    return Row(
        seat,
        (
            label(names, seat),
            hand,
            play,
            _count(p, "deck_count"),
            _count(p, "discard_count"),
            str(p.get("discard_top") or "-"),
            str(p.get("vp_tokens", 0)),
            str(p.get("debt", 0)),
        ),
        marks,
    )


def picture(view: Mapping[str, Any], names: Mapping[str, str]) -> Picture:
    players: Mapping[str, Any] = view.get("players") or {}
    current = view.get("current")
    result = view.get("result")
    if result:
        winners = " and ".join(label(names, s) for s in result.get("winners") or ()) or "nobody"
        headline = f"Game over ({result.get('reason')}): {winners} won"
    elif current is not None:
        headline = f"Turn {view.get('turn')}: {label(names, current)}, {view.get('phase')} phase"
    else:
        headline = f"{view.get('status')}"
    facts: tuple[tuple[str, str], ...] = (
        ("Actions", str(view.get("actions", 0))),
        ("Buys", str(view.get("buys", 0))),
        ("Coins", str(view.get("coins", 0))),
        ("Gained this turn", cards(view.get("gained_this_turn"))),
        ("Trash", cards(view.get("trash"))),
    )
    if result:
        scores = result.get("scores") or {}
        facts = (("Scores", ", ".join(f"{label(names, s)} {v}" for s, v in scores.items())), *facts)
    if view.get("obelisk"):
        facts += (("Obelisk", str(view["obelisk"])),)
    if view.get("enchanted"):
        facts += (("Enchanted", ", ".join(label(names, s) for s in view["enchanted"])),)
    supply: Mapping[str, int] = view.get("supply") or {}
    tops: Mapping[str, Any] = view.get("supply_top") or {}
    pile_vp: Mapping[str, int] = view.get("pile_vp") or {}
    pile_debt: Mapping[str, int] = view.get("pile_debt") or {}
    order = [p for p in BASIC_ORDER if p in supply] + [p for p in supply if p not in BASIC_ORDER]
    supply_rows = []
    for pile in order:
        top = tops.get(pile)
        tokens = ", ".join(
            x
            for x in (
                f"{pile_vp[pile]} VP" if pile in pile_vp else "",
                f"{pile_debt[pile]}D" if pile in pile_debt else "",
            )
            if x
        )
        shown = pile if top in (None, pile) else f"{pile}: {top}"
        supply_rows.append(
            Row(
                pile,
                (shown, _cost(top or pile), str(supply[pile]), tokens or "-"),
                ("empty",) if supply[pile] == 0 else (),
            )
        )
    landmark_vp: Mapping[str, int] = view.get("landmark_vp") or {}
    landscape_rows = tuple(Row(e, (e, "Event", _cost(e), "-")) for e in view.get("events") or ()) + tuple(
        Row(m, (m, "Landmark", "-", f"{landmark_vp[m]} VP" if m in landmark_vp else "-"))
        for m in view.get("landmarks") or ()
    )
    supply_cards = tuple(
        _card(
            pile,
            str(tops.get(pile) or pile),
            count=int(supply[pile]),
            tokens=row.cells[3] if row.cells[3] != "-" else "",
            marks=row.marks,
        )
        for pile, row in zip(order, supply_rows, strict=True)
    )
    landscapes = tuple(_card(e, e) for e in view.get("events") or ()) + tuple(
        _card(m, m, tokens=f"{landmark_vp[m]} VP" if m in landmark_vp else "")
        for m in view.get("landmarks") or ()
    )
    table_zones: tuple[Zone, ...] = (Zone("supply", "Supply", supply_cards),)
    if landscapes:
        table_zones += (Zone("landscapes", "Events and Landmarks", landscapes),)
    table_zones += (Zone("trash", "Trash", _face_up(view.get("trash"), "t")),)
    drawn: tuple[Section, ...] = (
        Cards(
            "table",
            "Supply and trash",
            table_zones,
            replaces=("supply", "landscapes") if landscapes else ("supply",),
        ),
        *(_seat_cards(seat, p, names, current) for seat, p in players.items()),
    )
    sections: tuple[Section, ...] = (
        *drawn,
        Table(
            "players",
            "Players",
            ("player", "hand", "in play", "deck", "discard", "discard top", "VP tokens", "debt"),
            tuple(_player_row(seat, p, names, current) for seat, p in players.items()),
        ),
        Table("supply", "Supply", ("pile", "cost", "left", "tokens"), tuple(supply_rows)),
    )
    if landscape_rows:
        sections += (
            Table("landscapes", "Events and Landmarks", ("name", "kind", "cost", "tokens"), landscape_rows),
        )
    decisions = view.get("decisions") or ()
    if decisions:
        sections += (
            Table(
                "decisions",
                "Waiting for",
                ("who", "decision"),
                tuple(
                    Row(
                        str(i),
                        (
                            label(names, d.get("seat")),
                            f"{d.get('source') or ''} {d.get('purpose', '?')}".strip(),
                        ),
                    )
                    for i, d in enumerate(decisions)
                ),
            ),
        )
    return Picture("dominion", headline, facts, sections, seat_labels(players, names))
