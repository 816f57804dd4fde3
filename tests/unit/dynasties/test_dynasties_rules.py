"""Rules of dynasties-kingdoms.md 3.1, 3.3 and 6 not covered by a worked example: elimination
cuts a turn short and skips later turns, the last standing player under D24's variant, Build
and Destruction in a barbarian province, the army supply of D4."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.dynasties.events import PlayerEliminated, TurnSkipped
from domain.games.dynasties.state import Prov
from tests.unit.dynasties.scenarios import Table, start


def _lose_uprising(t: Table, province: str) -> None:
    t.act({"type": "roll_province", "province": province, "first": 1, "second": 1})
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "blue"})
    t.act({"type": "deal_battle", "attacker_cards": ["AS", "AH", "AD", "AC"], "defender_cards": ["2C", "3D"]})
    t.act({"type": "discard_and_draw", "side": "attacker", "player": "blue", "discard": [], "draw": []})
    t.act({"type": "discard_and_draw", "side": "defender", "player": "red", "discard": [], "draw": []})
    t.act({"type": "resolve_battle", "declared_winner": "attacker"})


def test_losing_the_last_army_eliminates_the_player_ends_its_turn_and_skips_it_later() -> None:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="province",
            to_roll=("jiangling",),
            provinces={"jiangling": "red 1", "kaifeng": "blue 3", "hangzhou": "green 2"},
            vt={"red": 7},
        )
    )
    _lose_uprising(t, "jiangling")
    assert any(isinstance(f, PlayerEliminated) and f.player == "red" for f in t.facts)
    assert (t.now().active, t.now().phase) == ("blue", "city")
    assert t.now().player("red").vt == 7
    for player in ("blue", "green"):
        for phase in ("city", "province", "expansion", "scoring"):
            if phase == "province":
                for pid in t.now().to_roll:
                    t.act({"type": "roll_province", "province": pid, "first": 3, "second": 1})
            t.act({"type": "end_phase", "player": player, "phase": phase})
    assert any(isinstance(f, TurnSkipped) and f.player == "red" for f in t.facts)
    assert (t.now().active, t.now().round) == ("blue", 2)


def test_the_last_player_standing_wins_under_the_variant() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            to_roll=("jiangling",),
            options={"elimination": "last_player_standing_wins"},
            provinces={"jiangling": "red 1", "kaifeng": "blue 3"},
        )
    )
    _lose_uprising(t, "jiangling")
    assert t.now().status == "finished" and t.now().winners == ("blue",)


def test_when_every_player_is_eliminated_the_most_vt_wins() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            to_roll=("jiangling",),
            provinces={"jiangling": "red 1"},
            vt={"red": 30, "blue": 20},
        )
    )
    # Blue was eliminated earlier and holds nothing; red's Death roll leaves nobody.
    players = tuple(replace(p, eliminated=p.id == "blue") for p in t.state.players)
    provs = tuple(Prov() if p.owner == "blue" else p for p in t.state.provs)
    t.state = replace(t.state, players=players, provs=provs)
    t.act({"type": "roll_province", "province": "jiangling", "first": 2, "second": 2})
    assert t.now().status == "finished" and t.now().winners == ("red",)


def test_build_in_a_barbarian_province_gives_one_army_and_destruction_does_nothing() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            to_roll=("khitans", "youzhou"),
            provinces={"khitans": "red 2", "youzhou": "red 1, city"},
        )
    )
    t.act({"type": "roll_province", "province": "khitans", "first": 5, "second": 6})
    t.holds("khitans", "red 3")
    t.act({"type": "roll_province", "province": "youzhou", "first": 5, "second": 4})
    t.holds("youzhou", "red 1")


def test_the_army_supply_limits_gains() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            to_roll=("youzhou",),
            options={"army_supply": 4},
            provinces={"youzhou": "red 3"},
        )
    )
    t.act({"type": "roll_province", "province": "youzhou", "first": 5, "second": 3})
    t.holds("youzhou", "red 4")
