"""The drawn sections of a picture (domain/picture.py: cards, a cycle of spaces, a map), built by
each game's picture from a view alone: a hand the view does not list is only backs, the work
cycle runs in its loop's order, the map's layout is committed data that keeps provinces apart,
a step's change names the zone, space or province, and the terminal still draws them as text.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import msgspec
from rich.console import Console

from domain.games.dynasties.layout import LAYOUT
from domain.games.dynasties.maps import DEFAULT_MAP
from domain.games.province.data import DATA as PROVINCE
from domain.picture import (
    Card,
    Cards,
    Cycle,
    Map,
    Picture,
    Piece,
    Space,
    Zone,
    changes,
    picture_of,
    to_builtins,
)
from replay_cli.picture_text import render

NAMES = {"p1": "Ann", "p2": "Ben"}


def _dominion(hand: list[str] | None = None) -> dict[str, Any]:
    ann: dict[str, Any] = {"hand": hand if hand is not None else ["Copper", "Witch", "Estate"]}
    ann |= {"in_play": ["Village"], "deck_count": 7, "discard_count": 2, "discard_top": "Gold"}
    return {
        "current": "p1",
        "turn": 3,
        "phase": "action",
        "supply": {"Copper": 46, "Province": 8, "Witch": 10},
        "trash": ["Estate"],
        "players": {"p1": ann, "p2": {"hand_count": 5, "in_play": [], "discard_count": 0}},
    }


def _cards(picture: Picture, section_id: str) -> Cards:
    found = next(s for s in picture.sections if s.id == section_id)
    assert isinstance(found, Cards)
    return found


def _zone(section: Cards, key: str) -> Zone:
    return next(z for z in section.zones if z.key == key)


def test_a_dominion_hand_the_view_lists_is_cards_and_one_it_does_not_is_backs() -> None:
    picture = picture_of("dominion", _dominion(), NAMES)
    ann, ben = _cards(picture, "seat-p1"), _cards(picture, "seat-p2")
    assert [c.name for c in _zone(ann, "hand").cards] == ["Copper", "Witch", "Estate"]
    witch = _zone(ann, "hand").cards[1]
    assert (witch.cost, witch.types) == ("$5", ("Action", "Attack"))
    assert _zone(ben, "hand").cards == () and _zone(ben, "hand").backs == 5
    assert "hidden" in _zone(ben, "hand").marks
    # piles: sizes when the view gives them, else unknown; the discard's top card face up
    assert (_zone(ann, "deck").size, _zone(ben, "deck").size) == (7, None)
    assert [c.name for c in _zone(ann, "discard").cards] == ["Gold"]
    table = _cards(picture, "table")
    assert [(c.name, c.count) for c in _zone(table, "supply").cards] == [
        ("Copper", 46),
        ("Province", 8),
        ("Witch", 10),
    ]
    assert [c.name for c in _zone(table, "trash").cards] == ["Estate"]
    assert table.replaces == ("supply",) and ann.replaces == ("players",)
    # nothing of Ben's hand reaches the picture but its size
    encoded = msgspec.json.encode(to_builtins(picture)).decode()
    assert '"type":"cards"' in encoded and "hand_count" not in encoded


def test_dominion_events_and_landmarks_are_cards_with_their_cost_and_tokens() -> None:
    view = _dominion() | {"events": ["Annex"], "landmarks": ["Arena"], "landmark_vp": {"Arena": 6}}
    table = _cards(picture_of("dominion", view, NAMES), "table")
    annex, arena = _zone(table, "landscapes").cards
    assert (annex.cost, annex.types) == ("8D", ("Event",))
    assert (arena.cost, arena.types, arena.tokens) == ("", ("Landmark",), "6 VP")
    assert table.replaces == ("supply", "landscapes")


def test_a_step_names_the_zone_it_changed() -> None:
    before = picture_of("dominion", _dominion(), NAMES)
    after = picture_of("dominion", _dominion(["Copper", "Witch"]), NAMES)
    changed = changes(before, after)
    assert "seat-p1/hand" in changed
    assert not any(c.startswith("seat-p1/hand/") for c in changed)  # a card left: the zone is marked
    gold = changes(before, picture_of("dominion", _dominion(["Copper", "Witch", "Gold"]), NAMES))
    assert {c for c in gold if c.startswith("seat-p1/")} == {"seat-p1/hand", "seat-p1/hand/h2"}
    assert not any(c.startswith("seat-p2/") or c.startswith("table/") for c in changed)


def _province(board: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": "playing",
        "active": "p1",
        "turn": 2,
        "phase": "work",
        "rules_data_version": PROVINCE.version,
        "board": board,
        "players": {
            "p1": {"coins": 1, "labor": 0, "built": ["lender", "mill"], "first": ["mill"]},
            "p2": {"coins": 0, "labor": 2, "built": ["lender"], "first": ["lender"]},
        },
    }


def test_the_province_work_cycle_runs_in_its_loop_order_with_its_pieces() -> None:
    ids = [s.id for s in PROVINCE.spaces]
    board: dict[str, dict[str, Any]] = {sid: {} for sid in reversed(ids)}
    board[ids[0]] = {"green": 2, "sailors": {"p2": 1}}
    board[ids[1]] = {"camp": True}
    picture = picture_of("province", _province(board), NAMES)
    cycle = next(s for s in picture.sections if isinstance(s, Cycle))
    order = [s.key for s in cycle.spaces]
    assert order[0] == PROVINCE.placement_space
    following = {s.id: s.next for s in PROVINCE.spaces}
    assert all(following[a] == b for a, b in itertools.pairwise([*order, order[0]]))
    first = next(s for s in cycle.spaces if s.key == ids[0])
    assert first.pieces == (Piece("green", 2), Piece("sailor", 1, "p2"))
    buildings = _zone(_cards(picture, "buildings-drawn"), "buildings").cards
    by_id = {c.key: c for c in buildings}
    assert len(buildings) == len(PROVINCE.buildings)
    assert by_id["lender"].owners == ("p2", "p1")  # the first builder first
    assert by_id["mill"].owners == ("p1",) and by_id["bank"].owners == ()


def _dynasties(pending: dict[str, Any] | None) -> dict[str, Any]:
    provinces: dict[str, Any] = {p.id: {"armies": 0, "rebels": 0} for p in DEFAULT_MAP.provinces}
    provinces["youzhou"] = {"army_owner": "p1", "armies": 4, "city": True}
    return {
        "map": DEFAULT_MAP.id,
        "status": "playing",
        "active_player": "p1",
        "round": 1,
        "phase": "war",
        "players": [{"id": "p1", "homeland": "youzhou"}, {"id": "p2", "homeland": "fuzhou"}],
        "provinces": provinces,
        "pending": pending,
    }


def test_the_dynasties_map_has_every_province_each_border_once_and_the_battle_marked() -> None:
    battle = {"kind": "battle", "battle": {"province": "taiyuan", "attacker": {}, "defender": {}}}
    picture = picture_of("dynasties", _dynasties(battle), NAMES)
    drawn = next(s for s in picture.sections if isinstance(s, Map))
    nodes = {n.key: n for n in drawn.nodes}
    assert set(nodes) == {p.id for p in DEFAULT_MAP.provinces}
    borders = {frozenset((p.id, a)) for p in DEFAULT_MAP.provinces for a in p.adjacent}
    assert {frozenset(e) for e in drawn.edges} == borders and len(drawn.edges) == len(borders)
    assert nodes["taiyuan"].marks == ("battle",)
    youzhou = nodes["youzhou"]
    assert (youzhou.owner, youzhou.armies) == ("p1", 4)
    assert set(youzhou.marks) == {"city", "homeland"}
    calm = picture_of("dynasties", _dynasties(None), NAMES)
    assert {c for c in changes(calm, picture) if c.startswith("map/")} == {"map/taiyuan"}


def test_the_committed_map_layout_keeps_every_province_apart_and_inside_its_box() -> None:
    assert set(LAYOUT) == {p.id for p in DEFAULT_MAP.provinces}
    assert all(0 <= x <= 1000 and 0 <= y <= 1000 for x, y in LAYOUT.values())
    closest = min(math.dist(a, b) for a, b in itertools.combinations(LAYOUT.values(), 2))
    assert closest >= 149
    # no border runs across a province it does not touch
    for a, b in {tuple(sorted((p.id, n))) for p in DEFAULT_MAP.provinces for n in p.adjacent}:
        for other, at in LAYOUT.items():
            if other not in (a, b):
                assert _to_segment(at, LAYOUT[a], LAYOUT[b]) >= 59, (other, a, b)


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _text(picture: Picture, changed: set[str] | None = None) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(render(picture, changed or set()))
    return console.export_text()


def test_the_terminal_draws_the_new_sections_as_text_unless_a_table_says_the_same() -> None:
    card = Card("c", "Witch", "$5", ("Action", "Attack"), count=10)
    sections = (
        Cards(
            "table", "Supply", (Zone("supply", "Supply", (card,)), Zone("deck", "Deck", size=4, pile=True))
        ),
        Cycle("cycle", "Work cycle", (Space("top", "top", "coin", (Piece("green", 2),)),)),
        Map("map", "Map", (), ()),
    )
    text = _text(Picture("dominion", "Turn 1", (), sections, NAMES), {"table/supply"})
    assert "Supply: Witch x10" in text
    assert "Deck: 4 in the pile" in text
    assert "top (coin): 2 green" in text
    # the real pictures keep their tables in the terminal and leave out the drawings they replace
    real = _text(picture_of("dominion", _dominion(), NAMES))
    assert "Hand: Copper" not in real and "Witch" in real
