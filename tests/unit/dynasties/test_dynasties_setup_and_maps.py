"""Maps (dynasties-kingdoms.md section 8: format, checks M1-M12, warnings, the default map) and
setup (1.2-1.6: voided configurations, the roll-off variants, homeland picks and D2/D3)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from domain.games.dynasties import RULESET
from domain.games.dynasties.events import GameVoided, MapWarned
from domain.games.dynasties.maps import DEFAULT_MAP, DEFAULT_MAP_TEXT, MapData, MapError, check_map
from tests.unit.dynasties.playouts import new_config, play
from tests.unit.dynasties.scenarios import Table, config

BASE: dict[str, Any] = json.loads(DEFAULT_MAP_TEXT)


def _small() -> dict[str, Any]:
    return {
        "format": "dynasties-kingdoms-map",
        "version": 1,
        "id": "square",
        "name": "Square",
        "provinces": [
            {"id": "a", "name": "A", "barbarian": False, "adjacent": ["b", "d"]},
            {"id": "b", "name": "B", "barbarian": False, "adjacent": ["a", "c"]},
            {"id": "c", "name": "C", "barbarian": False, "adjacent": ["b", "d"]},
            {"id": "d", "name": "D", "barbarian": True, "adjacent": ["a", "c"]},
        ],
    }


def test_the_default_map_has_23_provinces_46_adjacencies_and_a_homeland_capacity_of_7() -> None:
    assert len(DEFAULT_MAP.provinces) == 23
    assert sum(len(p.adjacent) for p in DEFAULT_MAP.provinces) == 92
    assert {p.id for p in DEFAULT_MAP.provinces if p.barbarian} == {
        "annam",
        "da_chang_he",
        "tufan",
        "uighurs",
        "khitans",
    }
    assert DEFAULT_MAP.capacity == 7 and DEFAULT_MAP.player_limit(False) == 7
    assert DEFAULT_MAP.warnings == ()


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    change(data)
    return data


CASES = [
    ("M1", "not json"),
    ("M1", "[1, 2]"),
    ("M2", _broken(lambda d: d.update(version=2))),
    ("M3", _broken(lambda d: d.update(extra=1))),
    ("M3", _broken(lambda d: d["provinces"][0].update(id="Bad Id"))),
    ("M3", _broken(lambda d: d["provinces"][0].pop("barbarian"))),
    ("M4", _broken(lambda d: d.update(provinces=d["provinces"][:2]))),
    ("M5", _broken(lambda d: d["provinces"][1].update(name="KHITANS"))),
    ("M6", _broken(lambda d: d["provinces"][0]["adjacent"].append("atlantis"))),
    ("M6", _broken(lambda d: d["provinces"][0]["adjacent"].append("khitans"))),
    ("M7", _broken(lambda d: d["provinces"][0]["adjacent"].remove("uighurs"))),
    ("M11", _broken(lambda d: d.update(max_players=8))),
]


@pytest.mark.parametrize(("check", "source"), CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_a_broken_map_is_refused_with_the_first_failing_check(check: str, source: Any) -> None:
    found = check_map(source if isinstance(source, str) else json.dumps(source))
    assert isinstance(found, MapError) and found.check == check, found


def test_disconnected_isolated_and_tiny_maps_fail_m8_m9_m10_and_strict_maps_m12() -> None:
    split = _small()
    split["provinces"] = [
        {"id": "a", "name": "A", "barbarian": False, "adjacent": ["b"]},
        {"id": "b", "name": "B", "barbarian": False, "adjacent": ["a"]},
        {"id": "c", "name": "C", "barbarian": False, "adjacent": ["d"]},
        {"id": "d", "name": "D", "barbarian": False, "adjacent": ["c"]},
    ]
    assert getattr(check_map(split), "check", None) == "M8"
    star = _small()
    star["provinces"] = [
        {"id": "a", "name": "A", "barbarian": False, "adjacent": ["b", "c"]},
        {"id": "b", "name": "B", "barbarian": False, "adjacent": ["a", "c"]},
        {"id": "c", "name": "C", "barbarian": False, "adjacent": ["a", "b"]},
    ]
    assert getattr(check_map(star), "check", None) == "M9"
    lonely = _small()
    lonely["provinces"][1]["barbarian"] = True
    assert getattr(check_map(lonely), "check", None) == "M10"
    assert isinstance(check_map(_small()), MapData)
    assert getattr(check_map(_small(), strict=True), "check", None) == "M12"
    warned = check_map(_small())
    assert isinstance(warned, MapData) and warned.warnings[0].startswith("W1")


def test_a_custom_map_given_as_an_option_is_played_and_a_broken_one_voids_the_game() -> None:
    game = play(
        new_config(2, "digital", {"map": json.dumps(_small())}, game_id="dk-square"), seed=1, bot=True
    )
    assert game.state.map.id == "square" and game.state.status == "finished"
    warned = game.facts[0]
    assert isinstance(warned, MapWarned) and warned.warnings[0].startswith("W1")
    bad = _small()
    bad["provinces"][0]["adjacent"] = ["b"]
    cfg = new_config(2, "digital", {"map": json.dumps(bad)})
    problem = RULESET.check_config(cfg)
    assert problem is not None and problem.code == "MAP_INVALID" and "M7" in problem.message
    (fact,) = RULESET.setup(cfg, RULESET.initial(cfg), None)  # type: ignore[arg-type]
    assert isinstance(fact, GameVoided) and "M7" in fact.message
    state = RULESET.evolve(RULESET.initial(cfg), fact)
    outcome = RULESET.outcome(state)
    assert outcome is not None and outcome.winners == () and "MAP_INVALID" in outcome.reason
    too_many = RULESET.check_config(new_config(3, "digital", {"map": json.dumps(_small())}))
    assert too_many is not None and too_many.code == "PLAYER_COUNT"
    assert RULESET.check_config(new_config(2, "digital", {"army_supply": 3})) is not None
    assert RULESET.check_config(new_config(2, "digital", {"second_die_color": "red"})) is not None


def _roll(t: Table, rolls: list[tuple[str, int]]) -> None:
    for player, value in rolls:
        t.act({"type": "roll_turn_order", "player": player, "value": value})


def _fresh(players: tuple[str, ...], **options: Any) -> Table:
    cfg = config(players, options=options)
    return Table(RULESET.initial(cfg), config_=cfg)


def test_reroll_all_discards_a_tied_round() -> None:
    t = _fresh(("red", "blue", "green"), turn_order_ties="reroll_all")
    _roll(t, [("red", 4), ("blue", 6), ("green", 4)])
    assert t.now().groups == (("red", "blue", "green"),) and t.now().status == "setup_turn_order"
    _roll(t, [("red", 1), ("blue", 2), ("green", 3)])
    assert t.now().turn_order == ("green", "blue", "red")


def test_reverse_turn_order_lets_the_last_player_pick_first() -> None:
    t = _fresh(("red", "blue"), homeland_pick_order="reverse_turn_order")
    _roll(t, [("red", 6), ("blue", 2)])
    assert t.now().next_picker == "blue"


def test_the_lookahead_refuses_a_pick_that_strands_a_later_player() -> None:
    t = _fresh(("p1", "p2", "p3", "p4", "p5"))
    _roll(t, [("p1", 6), ("p2", 5), ("p3", 4), ("p4", 3), ("p5", 2)])
    for player, province in (("p1", "taiyuan"), ("p2", "kaifeng"), ("p3", "chengdu")):
        t.act({"type": "pick_homeland", "player": player, "province": province})
    t.act({"type": "pick_homeland", "player": "p4", "province": "hongzhou"}, "HOMELAND_STRANDS_PLAYERS")
    t.act({"type": "pick_homeland", "player": "p4", "province": "hangzhou"})
    t.act({"type": "pick_homeland", "player": "p5", "province": "changsha"})
    assert t.now().status == "setup_deck"


def test_relax_when_blocked_waives_adjacency_only_when_no_legal_pick_remains() -> None:
    t = _fresh(("p1", "p2", "p3", "p4", "p5"), homeland_rule="relax_when_blocked")
    _roll(t, [("p1", 6), ("p2", 5), ("p3", 4), ("p4", 3), ("p5", 2)])
    for player, province in (("p1", "taiyuan"), ("p2", "kaifeng"), ("p3", "chengdu"), ("p4", "hongzhou")):
        t.act({"type": "pick_homeland", "player": player, "province": province})
    t.act({"type": "pick_homeland", "player": "p5", "province": "hongzhou"}, "HOMELAND_TAKEN")
    t.act({"type": "pick_homeland", "player": "p5", "province": "khitans"}, "HOMELAND_BARBARIAN")
    t.act({"type": "pick_homeland", "player": "p5", "province": "luoyang"})


def test_seven_players_play_a_whole_game_on_the_default_map_and_eight_are_refused() -> None:
    """The default map's homeland capacity is 7 (1.2, 8.3): seven homelands are picked (the
    lookahead of 1.4 binding with five or more) and the game runs to its end; eight players
    are a PLAYER_COUNT."""
    assert RULESET.meta.max_players == 7
    seven = new_config(7, "digital", game_id="dk-seven")
    assert RULESET.check_config(seven) is None
    game = play(seven, seed=7, bot=True)
    assert game.state.status == "finished"
    assert len({p.homeland for p in game.state.players}) == 7
    eight = RULESET.check_config(new_config(8, "digital"))
    assert eight is not None and eight.code == "PLAYER_COUNT" and eight.rule.endswith("1.2")
