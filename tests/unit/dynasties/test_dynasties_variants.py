"""Every variant option of dynasties-kingdoms.md 1.2 (D1-D25): seeded playouts to the end with
each non-default value, in both modes, and targeted rules of the variants."""

from __future__ import annotations

from typing import Any

import pytest

from domain.games.dynasties.options import OPTIONS
from tests.unit.dynasties.playouts import new_config, play
from tests.unit.dynasties.scenarios import Table, start

ALTERNATIVES: list[tuple[str, Any]] = [
    (o.name, value) for o in OPTIONS if o.choices is not None for value in o.choices if value != o.default
] + [("army_supply", 6), ("victory_vt", 40), ("first_die_color", "black")]


@pytest.mark.parametrize(("name", "value"), ALTERNATIVES, ids=[f"{n}={v}" for n, v in ALTERNATIVES])
@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_a_game_with_the_variant_plays_to_the_end_in_both_modes(name: str, value: Any, mode: str) -> None:
    for i, players in enumerate((2, 4, 6)):
        config = new_config(players, mode, {name: value}, game_id=f"v-{name}-{i}")
        game = play(config, seed=i, bot=i == 1)
        assert game.state.status == "finished"


def test_attacks_per_target_one_refuses_a_second_battle_for_the_same_province() -> None:
    t = Table(
        start(
            active="red",
            phase="expansion",
            options={"attacks_per_target": "one"},
            provinces={"kaifeng": "red 6", "luoyang": "red 4", "xiangzhou": "blue 5"},
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "red",
            "to": "xiangzhou",
            "from": [{"province": "kaifeng", "count": 1}],
        }
    )
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["2C", "3C"],
            "defender_cards": ["AS", "AH", "AD", "AC", "KS", "KH"],
        }
    )
    t.act({"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": [], "draw": []})
    t.act({"type": "discard_and_draw", "side": "defender", "player": "blue", "discard": [], "draw": []})
    t.act({"type": "resolve_battle", "declared_winner": "attacker"}, "RESULT_MISMATCH")
    t.act({"type": "resolve_battle", "declared_winner": "defender"})
    t.act(
        {
            "type": "move_army",
            "player": "red",
            "to": "xiangzhou",
            "from": [{"province": "luoyang", "count": 2}],
        },
        "ATTACK_LIMIT",
    )


def test_original_armies_counts_only_what_a_province_held_at_the_start() -> None:
    t = Table(
        start(
            active="blue",
            phase="province",
            options={"last_army_rule": "original_armies"},
            provinces={"kaifeng": "blue 1", "luoyang": "blue 3"},
        )
    )
    t.act({"type": "end_phase", "player": "blue", "phase": "province"})
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "kaifeng",
            "from": [{"province": "luoyang", "count": 2}],
        }
    )
    # Under the default rule the arrivals would relieve Kaifeng's only original army (D13).
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "luoyang",
            "from": [{"province": "kaifeng", "count": 1}],
        },
        "LAST_ARMY",
    )
    t.holds("kaifeng", "blue 3, moved 2")


def test_face_up_discardable_lets_the_face_up_card_go() -> None:
    t = Table(
        start(
            active="red",
            phase="expansion",
            options={"face_up_discardable": True},
            provinces={"kaifeng": "red 3", "luoyang": "blue 1"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "luoyang", "from": [{"province": "kaifeng", "count": 1}]}
    )
    t.act({"type": "deal_battle", "attacker_cards": ["2C", "3C"], "defender_cards": ["AS", "AH"]})
    t.act(
        {"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": ["2C"], "draw": ["4C"]}
    )
    assert t.battle().attacker.face_up is None


def test_total_7_limits_the_replacements() -> None:
    t = Table(
        start(
            active="red",
            phase="expansion",
            options={"card_limit": "total_7"},
            provinces={"kaifeng": "red 7", "luoyang": "blue 1"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "luoyang", "from": [{"province": "kaifeng", "count": 5}]}
    )
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["2C", "3C", "4C", "5C", "6C", "7C"],
            "defender_cards": ["AS", "AH"],
        }
    )
    t.act(
        {
            "type": "discard_and_draw",
            "side": "attacker",
            "player": "red",
            "discard": ["3C", "4C"],
            "draw": ["AD", "KD"],
        },
        "DRAW_LIMIT",
    )
    t.act(
        {"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": ["3C"], "draw": ["AD"]}
    )


def test_suit_order_breaks_the_e11_tie_for_the_rebels() -> None:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="expansion",
            options={"tie_rule": "suit_order"},
            provinces={"youzhou": "red 5", "khitans": "3 rebels"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "khitans", "from": [{"province": "youzhou", "count": 3}]}
    )
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "blue"})
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["AS", "8H", "8C", "3D"],
            "defender_cards": ["AD", "8S", "8D", "5C"],
        }
    )
    t.act(
        {"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": ["3D"], "draw": ["JD"]}
    )
    t.act(
        {"type": "discard_and_draw", "side": "defender", "player": "blue", "discard": ["5C"], "draw": ["JH"]}
    )
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.winner == "defender" and resolved.tie  # type: ignore[union-attr]


def test_redeal_returns_a_tied_battle_to_the_deal() -> None:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="expansion",
            options={"tie_rule": "redeal"},
            provinces={"youzhou": "red 5", "khitans": "3 rebels"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "khitans", "from": [{"province": "youzhou", "count": 3}]}
    )
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "blue"})
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["AS", "8H", "8C", "3D"],
            "defender_cards": ["AD", "8S", "8D", "5C"],
        }
    )
    t.act(
        {"type": "discard_and_draw", "side": "attacker", "player": "red", "discard": ["3D"], "draw": ["JD"]}
    )
    t.act(
        {"type": "discard_and_draw", "side": "defender", "player": "blue", "discard": ["5C"], "draw": ["JH"]}
    )
    t.act({"type": "resolve_battle", "declared_winner": "tie"})
    assert t.battle().step == "deal" and len(t.now().discard) == 10


def test_automatic_rebels_discard_by_the_policy() -> None:
    t = Table(
        start(
            players=("red", "blue"),
            active="red",
            phase="expansion",
            options={"rebel_control": "automatic"},
            provinces={"youzhou": "red 5", "khitans": "3 rebels"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "khitans", "from": [{"province": "youzhou", "count": 3}]}
    )
    assert t.battle().step == "deal"
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["AS", "8H", "8C", "3D"],
            "defender_cards": ["AD", "8S", "9D", "5C"],
        }
    )
    t.act({"type": "discard_and_draw", "side": "attacker", "discard": [], "draw": []})
    t.act(
        {"type": "discard_and_draw", "side": "defender", "discard": ["5C"], "draw": ["JH"]}, "RESULT_MISMATCH"
    )
    t.act({"type": "discard_and_draw", "side": "defender", "discard": ["8S", "5C"], "draw": ["JH", "2D"]})
    assert t.battle().defender.cards == ("AD", "9D", "JH", "2D")


def test_end_of_turn_blocks_end_with_the_rollers_turn() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            options={"blocked_duration": "end_of_turn"},
            to_roll=("xiangzhou",),
            provinces={"xiangzhou": "red 3", "kaifeng": "blue 5"},
        )
    )
    t.act({"type": "roll_province", "province": "xiangzhou", "first": 2, "second": 6})
    t.act({"type": "end_phase", "player": "red", "phase": "province"})
    t.act({"type": "end_phase", "player": "red", "phase": "expansion"})
    t.act({"type": "end_phase", "player": "red", "phase": "scoring"})
    assert t.prov("xiangzhou").blocked_by is None


def test_death_razes_city_removes_the_city_too() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            options={"death_razes_city": True},
            to_roll=("xiangzhou", "kaifeng"),
            provinces={"xiangzhou": "red 3, city", "kaifeng": "red 2"},
        )
    )
    t.act({"type": "roll_province", "province": "xiangzhou", "first": 2, "second": 2})
    assert t.prov("xiangzhou") == type(t.prov("xiangzhou"))()
