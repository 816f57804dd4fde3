"""The worked examples of dynasties-kingdoms.md section 9 (E1-E15), one test each."""

from __future__ import annotations

from domain.games.dynasties import RULESET
from domain.games.dynasties.cards import DECK
from domain.rng import ScriptedRng
from tests.unit.dynasties.scenarios import Table, config, start


def _e1_table() -> Table:
    cfg = config(("red", "blue", "green"))
    state = RULESET.initial(cfg)
    for fact in RULESET.setup(cfg, state, ScriptedRng()):
        state = RULESET.evolve(state, fact)
    return Table(state, config_=cfg)


def _roll_off(t: Table) -> None:
    t.act({"type": "roll_turn_order", "player": "red", "value": 7}, "BAD_PARAMETER")
    t.act({"type": "roll_turn_order", "player": "red", "value": 4})
    t.act({"type": "roll_turn_order", "player": "blue", "value": 6})
    t.act({"type": "roll_turn_order", "player": "red", "value": 3}, "NOT_YOUR_TURN")
    t.act({"type": "roll_turn_order", "player": "green", "value": 4})
    assert t.now().groups == (("blue",), ("red", "green"))
    t.act({"type": "roll_turn_order", "player": "blue", "value": 5}, "NOT_YOUR_TURN")
    t.act({"type": "roll_turn_order", "player": "green", "value": 2})
    t.act({"type": "roll_turn_order", "player": "red", "value": 2})
    assert t.now().groups == (("blue",), ("red", "green"))
    t.act({"type": "roll_turn_order", "player": "red", "value": 5})
    t.act({"type": "roll_turn_order", "player": "green", "value": 1})


def test_e1_the_turn_order_roll_off_rerolls_a_repeated_tie_among_the_tied_players() -> None:
    t = _e1_table()
    _roll_off(t)
    assert t.now().turn_order == ("blue", "red", "green")
    assert t.now().status == "setup_homelands"
    assert t.now().next_picker == "blue"


def test_e2_homeland_picks_place_four_armies_and_a_city_and_the_deck_starts_play() -> None:
    t = _e1_table()
    _roll_off(t)
    t.act({"type": "pick_homeland", "player": "red", "province": "chengdu"}, "NOT_YOUR_TURN")
    t.act({"type": "pick_homeland", "player": "blue", "province": "khitans"}, "HOMELAND_BARBARIAN")
    t.act({"type": "pick_homeland", "player": "blue", "province": "kaifeng"})
    t.holds("kaifeng", "blue 4, city")
    assert t.now().next_picker == "red"
    t.act({"type": "pick_homeland", "player": "red", "province": "luoyang"}, "HOMELAND_ADJACENT")
    t.act({"type": "pick_homeland", "player": "red", "province": "kaifeng"}, "HOMELAND_TAKEN")
    t.act({"type": "pick_homeland", "player": "red", "province": "chengdu"})
    t.act({"type": "pick_homeland", "player": "green", "province": "hangzhou"})
    assert t.now().status == "setup_deck"
    t.act({"type": "shuffle_deck"})
    s = t.state
    assert s.status == "playing" and s.round == 1 and len(s.draw) == 52 and s.discard == ()
    t.holds("chengdu", "red 4, city")
    t.holds("hangzhou", "green 4, city")
    for pid in ("khitans", "uighurs", "tufan", "da_chang_he", "annam"):
        t.holds(pid, "3 rebels")
    empty = [pid for pid, p in zip(s.map.ids, s.provs, strict=True) if p == type(p)()]
    assert len(empty) == 15
    assert all(p.vt == 0 for p in s.players)
    assert (s.active, s.phase, s.to_roll, s.rolled) == ("blue", "city", ("kaifeng",), ())


def test_e3_the_city_phase_rolls_each_city_once_then_the_province_phase_lists_provinces_in_map_order() -> (
    None
):
    t = Table(
        start(
            active="red",
            phase="city",
            round_no=3,
            to_roll=("chengdu", "jiangling"),
            provinces={"chengdu": "red 4, city", "jiangling": "red 2, city", "fengxiang": "red 1"},
            vt={"red": 10},
        )
    )
    t.act({"type": "roll_city", "province": "fengxiang", "value": 3}, "NO_CITY")
    t.act({"type": "roll_city", "province": "chengdu", "value": 2})
    assert t.vt("red") == 12
    t.act({"type": "roll_city", "province": "chengdu", "value": 5}, "ALREADY_ROLLED")
    t.act({"type": "end_phase", "player": "red", "phase": "city"}, "ROLLS_PENDING")
    t.act({"type": "roll_city", "province": "jiangling", "value": 6})
    t.holds("jiangling", "red 5, city")
    t.act({"type": "end_phase", "player": "red", "phase": "city"})
    assert t.now().phase == "province"
    assert t.now().to_roll == ("fengxiang", "chengdu", "jiangling")
    t.holds("chengdu", "red 4, city")
    t.holds("fengxiang", "red 1")
    assert t.vt("red") == 12


def test_e4_death_removes_the_armies_the_city_stays_and_can_be_retaken() -> None:
    t = Table(
        start(
            players=("blue", "red"),
            active="blue",
            phase="province",
            round_no=4,
            to_roll=("luoyang", "kaifeng"),
            provinces={"kaifeng": "blue 6, city", "luoyang": "blue 2"},
            vt={"blue": 20},
        )
    )
    t.act({"type": "roll_province", "province": "kaifeng", "first": 2, "second": 3})
    t.holds("kaifeng", "city")
    t.act({"type": "roll_province", "province": "luoyang", "first": 3, "second": 1})
    t.act({"type": "end_phase", "player": "blue", "phase": "province"})
    assert t.now().phase == "expansion"
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "kaifeng",
            "from": [{"province": "luoyang", "count": 1}],
        }
    )
    t.holds("kaifeng", "blue 1, city, moved 1")
    t.act({"type": "end_phase", "player": "blue", "phase": "expansion"})
    t.holds("kaifeng", "blue 1, city")
    t.holds("luoyang", "blue 1")
    assert t.vt("blue") == 22 and t.now().phase == "scoring"
    assert all(p.moved == 0 for p in t.now().provs)


def test_e5_a_blocked_province_stops_movement_both_ways_until_the_rollers_next_turn() -> None:
    t = Table(
        start(
            active="red",
            phase="province",
            round_no=5,
            to_roll=("luoyang", "xiangzhou"),
            provinces={"xiangzhou": "red 3", "luoyang": "red 4", "kaifeng": "blue 5"},
            vt={"red": 10, "blue": 8},
        )
    )
    t.act({"type": "roll_province", "province": "xiangzhou", "first": 2, "second": 5})
    assert t.prov("xiangzhou").blocked_by == "red"
    t.act({"type": "roll_province", "province": "luoyang", "first": 3, "second": 3})
    t.act({"type": "end_phase", "player": "red", "phase": "province"})
    mv = {"type": "move_army", "player": "red"}
    t.act({**mv, "to": "luoyang", "from": [{"province": "xiangzhou", "count": 1}]}, "PROVINCE_BLOCKED")
    t.act({**mv, "to": "xiangzhou", "from": [{"province": "luoyang", "count": 1}]}, "PROVINCE_BLOCKED")
    t.act({"type": "end_phase", "player": "red", "phase": "expansion"})
    assert t.vt("red") == 12
    t.act({"type": "end_phase", "player": "red", "phase": "scoring"})
    assert (t.now().active, t.now().round, t.now().phase, t.now().to_roll) == ("blue", 5, "city", ())
    assert t.prov("xiangzhou").blocked_by == "red"
    t.act({"type": "end_phase", "player": "blue", "phase": "city"})
    assert t.now().to_roll == ("kaifeng",)
    t.act({"type": "roll_province", "province": "kaifeng", "first": 3, "second": 2})
    t.act({"type": "end_phase", "player": "blue", "phase": "province"})
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "xiangzhou",
            "from": [{"province": "kaifeng", "count": 2}],
        },
        "PROVINCE_BLOCKED",
    )
    t.act({"type": "end_phase", "player": "blue", "phase": "expansion"})
    assert t.vt("blue") == 9
    t.act({"type": "end_phase", "player": "blue", "phase": "scoring"})
    assert (t.now().active, t.now().round, t.now().phase, t.now().to_roll) == ("red", 6, "city", ())
    assert t.prov("xiangzhou").blocked_by is None
    t.act({"type": "end_phase", "player": "red", "phase": "city"})
    assert t.now().to_roll == ("luoyang", "xiangzhou")
    t.act({"type": "roll_province", "province": "xiangzhou", "first": 3, "second": 1})
    t.act({"type": "roll_province", "province": "luoyang", "first": 3, "second": 2})
    t.act({"type": "end_phase", "player": "red", "phase": "province"})
    t.act({**mv, "to": "luoyang", "from": [{"province": "xiangzhou", "count": 1}]})
    assert (t.now().round, t.now().active, t.now().phase) == (6, "red", "expansion")
    t.holds("xiangzhou", "red 2")
    t.holds("luoyang", "red 5, moved 1")
    t.holds("kaifeng", "blue 5")
    assert (t.vt("red"), t.vt("blue")) == (12, 9)


def test_e6_build_rolls_the_city_table_on_a_city_and_builds_a_city_elsewhere() -> None:
    t = Table(
        start(
            players=("green", "red"),
            active="green",
            phase="province",
            to_roll=("hangzhou", "fuzhou"),
            provinces={"hangzhou": "green 4, city", "fuzhou": "green 2"},
            vt={"green": 30},
        )
    )
    t.act({"type": "roll_province", "province": "hangzhou", "first": 4, "second": 4})
    assert t.now().city_roll == "hangzhou"
    t.act({"type": "roll_province", "province": "fuzhou", "first": 6, "second": 1}, "PENDING_STEP")
    t.act({"type": "roll_city", "province": "hangzhou", "value": 5})
    t.holds("hangzhou", "green 6, city")
    t.act({"type": "roll_province", "province": "fuzhou", "first": 6, "second": 1})
    t.holds("fuzhou", "green 2, city")
    t.act({"type": "end_phase", "player": "green", "phase": "province"})
    assert t.now().phase == "expansion" and t.vt("green") == 30


def test_e7_an_uprising_won_by_the_rebels_removes_the_armies_and_can_destroy_the_city() -> None:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="province",
            to_roll=("chengdu", "jiangling"),
            provinces={"chengdu": "red 5, city", "jiangling": "red 2, city"},
            vt={"red": 25},
        )
    )
    t.act({"type": "roll_province", "province": "jiangling", "first": 1, "second": 1})
    battle = t.now().battle
    assert battle is not None and battle.step == "choose_controller"
    assert (battle.attacker.kind, battle.attacker.strength, battle.attacker.hand_size) == ("rebels", 3, 4)
    assert (battle.defender.player, battle.defender.strength, battle.defender.hand_size) == ("red", 2, 3)
    deal = {
        "type": "deal_battle",
        "attacker_cards": ["QH", "QC", "5S", "QD"],
        "defender_cards": ["KD", "KS", "4C"],
    }
    t.act(deal, "PENDING_STEP")
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "red"}, "CONTROLLER_INVALID")
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "green"})
    t.act(deal)
    assert t.now().battle is not None
    assert (t.battle().attacker.face_up, t.battle().defender.face_up) == ("QH", "KD")
    dd = {"type": "discard_and_draw"}
    t.act({**dd, "side": "defender", "player": "red", "discard": ["4C"], "draw": ["7H"]}, "PENDING_STEP")
    t.act({**dd, "side": "attacker", "player": "red", "discard": ["5S"], "draw": ["9C"]}, "NOT_YOUR_TURN")
    t.act({**dd, "side": "attacker", "player": "green", "discard": ["5S"], "draw": ["9C"]})
    assert t.battle().attacker.cards == ("QH", "QC", "QD", "9C")
    t.act(
        {**dd, "side": "defender", "player": "red", "discard": ["KD", "4C"], "draw": ["7H", "8H"]},
        "FACE_UP_CARD",
    )
    t.act({**dd, "side": "defender", "player": "red", "discard": ["4C"], "draw": ["7H"]})
    assert t.battle().defender.cards == ("KD", "KS", "7H")
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.winner == "attacker"  # type: ignore[union-attr]
    assert resolved.attacker_hand.category == "three_of_a_kind"  # type: ignore[union-attr]
    assert resolved.attacker_hand.key == (12, 9, 0)  # type: ignore[union-attr]
    assert resolved.defender_hand.key == (13, 7, 0, 0)  # type: ignore[union-attr]
    assert t.now().battle is not None and t.battle().step == "city_destruction"
    t.act({"type": "roll_province", "province": "chengdu", "first": 3, "second": 4}, "PENDING_STEP")
    t.act({"type": "roll_city_destruction", "value": 2})
    assert t.now().battle is None
    t.act({"type": "roll_province", "province": "chengdu", "first": 3, "second": 4})
    t.act({"type": "end_phase", "player": "red", "phase": "province"})
    t.holds("jiangling", "3 rebels")
    t.holds("chengdu", "red 5, city")
    assert t.vt("red") == 25 and t.now().phase == "expansion"
    assert set(t.now().discard) == {"QH", "QC", "5S", "QD", "9C", "KD", "KS", "4C", "7H"}
    assert len(t.now().draw) == 43


def test_e8_moves_keep_the_last_army_and_armies_that_moved_stay_put() -> None:
    t = Table(
        start(
            players=("blue", "red"),
            active="blue",
            phase="expansion",
            provinces={"kaifeng": "blue 4, city", "luoyang": "blue 1"},
            vt={"blue": 15},
        )
    )
    mv = {"type": "move_army", "player": "blue"}
    t.act({**mv, "to": "luoyang", "from": [{"province": "kaifeng", "count": 4}]}, "LAST_ARMY")
    t.act({**mv, "to": "qingzhou", "from": [{"province": "kaifeng", "count": 2}]})
    t.holds("qingzhou", "blue 2, moved 2")
    t.holds("kaifeng", "blue 2, city")
    t.act({**mv, "to": "yangzhou", "from": [{"province": "qingzhou", "count": 1}]}, "NOT_ENOUGH_UNMOVED")
    t.act({**mv, "to": "luoyang", "from": [{"province": "kaifeng", "count": 1}]})
    t.holds("luoyang", "blue 2, moved 1")
    t.act({**mv, "to": "xiangzhou", "from": [{"province": "luoyang", "count": 1}]})
    t.holds("xiangzhou", "blue 1, moved 1")
    t.holds("luoyang", "blue 1, moved 1")
    t.act({**mv, "to": "xiangzhou", "from": [{"province": "kaifeng", "count": 1}]}, "LAST_ARMY")
    t.act({**mv, "to": "zhenzhou", "from": [{"province": "xiangzhou", "count": 1}]}, "NOT_ADJACENT")
    t.act({"type": "end_phase", "player": "blue", "phase": "expansion"})
    t.holds("kaifeng", "blue 1, city")
    t.holds("qingzhou", "blue 2")
    assert t.vt("blue") == 19 and t.now().phase == "scoring"
    assert all(p.moved == 0 for p in t.now().provs)


def test_e9_a_combined_attack_from_two_provinces_loses_to_a_flush() -> None:
    t = Table(
        start(
            active="red",
            phase="expansion",
            provinces={"kaifeng": "red 4", "luoyang": "red 2", "xiangzhou": "blue 5, city"},
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "red",
            "to": "xiangzhou",
            "from": [{"province": "kaifeng", "count": 3}, {"province": "luoyang", "count": 1}],
        }
    )
    b = t.now().battle
    assert b is not None and (
        b.attacker.strength,
        b.attacker.hand_size,
        b.defender.strength,
        b.defender.hand_size,
    ) == (4, 5, 5, 6)
    t.holds("kaifeng", "red 1")
    t.holds("luoyang", "red 1")
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["9H", "7C", "8D", "KS", "2H"],
            "defender_cards": ["4D", "4S", "9D", "QD", "2D", "JC"],
        }
    )
    dd = {"type": "discard_and_draw"}
    t.act({**dd, "side": "attacker", "player": "red", "discard": ["KS", "2H"], "draw": ["6S", "TC"]})
    t.act({**dd, "side": "defender", "player": "blue", "discard": ["4S", "JC"], "draw": ["7D", "3C"]})
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.attacker_hand.category == "straight" and resolved.attacker_hand.key == (10,)  # type: ignore[union-attr]
    assert resolved.defender_hand.category == "flush"  # type: ignore[union-attr]
    assert resolved.defender_hand.key == (12, 9, 7, 4, 2)  # type: ignore[union-attr]
    assert resolved.winner == "defender" and t.now().battle is None  # type: ignore[union-attr]
    t.act(
        {
            "type": "move_army",
            "player": "red",
            "to": "xiangzhou",
            "from": [{"province": "kaifeng", "count": 1}],
        },
        "LAST_ARMY",
    )
    t.holds("kaifeng", "red 1")
    t.holds("luoyang", "red 1")
    t.holds("xiangzhou", "blue 5, city")
    assert set(t.now().discard) == {
        "9H",
        "7C",
        "8D",
        "6S",
        "TC",
        "KS",
        "2H",
        "4D",
        "9D",
        "QD",
        "2D",
        "7D",
        "3C",
        "4S",
        "JC",
    }
    assert len(t.now().draw) == 37


def test_e10_two_pair_is_decided_by_the_kicker_and_the_city_survives_its_roll() -> None:
    t = Table(
        start(
            players=("green", "red"),
            active="green",
            phase="expansion",
            provinces={"hongzhou": "green 6", "changsha": "red 4, city", "jiangling": "red 3"},
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "green",
            "to": "changsha",
            "from": [{"province": "hongzhou", "count": 4}],
        }
    )
    t.holds("hongzhou", "green 2")
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["KH", "7S", "2C", "KC", "9D"],
            "defender_cards": ["KD", "7D", "7C", "9S", "3H"],
        }
    )
    dd = {"type": "discard_and_draw"}
    t.act({**dd, "side": "attacker", "player": "green", "discard": ["2C", "9D"], "draw": ["7H", "QC"]})
    t.act({**dd, "side": "defender", "player": "red", "discard": ["3H"], "draw": ["KS"]})
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.attacker_hand.key == (13, 7, 12) and resolved.defender_hand.key == (13, 7, 9)  # type: ignore[union-attr]
    assert t.now().battle is not None and t.battle().step == "city_destruction"
    t.act({"type": "roll_city_destruction", "value": 5})
    t.holds("hongzhou", "green 2")
    t.holds("changsha", "green 4, city, moved 4")
    t.holds("jiangling", "red 3")
    assert set(t.now().discard) == {
        "KH",
        "7S",
        "KC",
        "7H",
        "QC",
        "2C",
        "9D",
        "KD",
        "7D",
        "7C",
        "9S",
        "KS",
        "3H",
    }
    assert len(t.now().draw) == 39


def test_e11_an_exact_tie_against_rebels_goes_to_the_defender() -> None:
    t = Table(
        start(
            players=("red", "blue", "green"),
            active="red",
            phase="expansion",
            provinces={"youzhou": "red 5", "khitans": "3 rebels"},
        )
    )
    t.act(
        {"type": "move_army", "player": "red", "to": "khitans", "from": [{"province": "youzhou", "count": 3}]}
    )
    assert t.now().battle is not None and t.battle().step == "choose_controller"
    t.holds("youzhou", "red 2")
    t.act({"type": "choose_rebel_controller", "player": "red", "controller": "blue"})
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["AS", "8H", "8C", "3D"],
            "defender_cards": ["AD", "8S", "8D", "5C"],
        }
    )
    dd = {"type": "discard_and_draw"}
    t.act({**dd, "side": "attacker", "player": "red", "discard": ["3D"], "draw": ["JD"]})
    t.act({**dd, "side": "defender", "player": "blue", "discard": ["5C"], "draw": ["JH"]})
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.tie and resolved.winner == "defender"  # type: ignore[union-attr]
    assert resolved.attacker_hand.key == (8, 14, 11, 0)  # type: ignore[union-attr]
    t.holds("youzhou", "red 2")
    t.holds("khitans", "3 rebels")
    assert set(t.now().discard) == {"AS", "8H", "8C", "JD", "3D", "AD", "8S", "8D", "JH", "5C"}
    assert len(t.now().draw) == 42


def test_e12_scoring_counts_provinces_then_trims_armies_above_ten() -> None:
    t = Table(
        start(
            players=("blue", "red"),
            active="blue",
            phase="expansion",
            provinces={"kaifeng": "blue 8", "luoyang": "blue 6", "zhenzhou": "blue 1", "qingzhou": "red 2"},
            vt={"blue": 40},
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "kaifeng",
            "from": [{"province": "luoyang", "count": 5}],
        }
    )
    t.holds("kaifeng", "blue 13, moved 5")
    t.act({"type": "end_phase", "player": "blue", "phase": "expansion"})
    assert t.vt("blue") == 43
    t.holds("kaifeng", "blue 10")
    t.act({"type": "end_phase", "player": "blue", "phase": "scoring"})
    t.holds("luoyang", "blue 1")
    t.holds("zhenzhou", "blue 1")
    t.holds("qingzhou", "red 2")
    assert (t.now().active, t.now().phase) == ("red", "city")


def test_e12_variant_a_hard_army_cap_refuses_the_move() -> None:
    t = Table(
        start(
            players=("blue", "red"),
            active="blue",
            phase="expansion",
            options={"army_cap": "hard"},
            provinces={"kaifeng": "blue 8", "luoyang": "blue 6", "zhenzhou": "blue 1", "qingzhou": "red 2"},
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "kaifeng",
            "from": [{"province": "luoyang", "count": 5}],
        },
        "ARMY_CAP",
    )


def test_e13_reaching_one_hundred_vt_ends_the_game_at_once() -> None:
    t = Table(
        start(
            players=("green", "red"),
            active="green",
            phase="city",
            to_roll=("hangzhou", "fuzhou"),
            provinces={"hangzhou": "green 3, city", "fuzhou": "green 2, city"},
            vt={"green": 98},
        )
    )
    t.act({"type": "roll_city", "province": "hangzhou", "value": 1})
    assert t.vt("green") == 99
    t.act({"type": "roll_city", "province": "fuzhou", "value": 3})
    assert t.now().status == "finished" and t.now().winners == ("green",) and t.vt("green") == 102
    t.act({"type": "end_phase", "player": "green", "phase": "city"}, "GAME_OVER")
    t.holds("hangzhou", "green 3, city")
    outcome = RULESET.outcome(t.state)
    assert outcome is not None and outcome.winners == ("green",)


def test_e14_a_short_draw_pile_needs_a_reshuffle_dealt_after_the_old_pile() -> None:
    rest = [c for c in DECK if c not in {"2C", "5H", "9S", "JD"}]
    t = Table(
        start(
            players=("blue", "red"),
            active="blue",
            phase="expansion",
            provinces={"kaifeng": "blue 4", "luoyang": "red 3", "changan": "red 2"},
            draw=["2C", "5H", "9S", "JD"],
            discard=rest,
        )
    )
    t.act(
        {
            "type": "move_army",
            "player": "blue",
            "to": "luoyang",
            "from": [{"province": "kaifeng", "count": 3}],
        }
    )
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["5H", "9S", "AC", "3D"],
            "defender_cards": ["JD", "2C", "KH", "6S"],
        },
        "RESHUFFLE_REQUIRED",
    )
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["AC", "9S", "5H", "3D"],
            "defender_cards": ["JD", "2C", "KH", "6S"],
            "reshuffle": {},
        },
        "CARD_UNAVAILABLE",
    )
    t.act(
        {
            "type": "deal_battle",
            "attacker_cards": ["5H", "9S", "AC", "3D"],
            "defender_cards": ["JD", "2C", "KH", "6S"],
            "reshuffle": {},
        }
    )
    assert len(t.now().draw) == 44 and t.now().discard == ()
    dd = {"type": "discard_and_draw"}
    t.act({**dd, "side": "attacker", "player": "blue", "discard": ["9S", "3D"], "draw": ["5C", "5S"]})
    t.act({**dd, "side": "defender", "player": "red", "discard": ["2C", "6S"], "draw": ["JC", "KD"]})
    (resolved,) = t.act({"type": "resolve_battle"})
    assert resolved.attacker_hand.key == (5, 14, 0) and resolved.defender_hand.key == (13, 11, 0)  # type: ignore[union-attr]
    assert t.now().battle is None
    t.holds("kaifeng", "blue 1")
    t.holds("luoyang", "blue 3, moved 3")
    t.holds("changan", "red 2")
    assert len(t.now().draw) == 40
    assert set(t.now().discard) == {"9S", "3D", "2C", "6S", "5H", "AC", "5C", "5S", "JD", "KH", "JC", "KD"}


def test_e15_digital_rolls_come_from_the_random_source_and_a_wrong_recorded_value_is_refused() -> None:
    # The refused entry of a 5 draws nothing new: the accepted 6 is the same roll, counter 0.
    rng = ScriptedRng(rolls={("dice", 0): (6,), ("dice", 1): (3, 1)})
    t = Table(
        start(
            active="red",
            phase="city",
            round_no=2,
            mode="digital",
            to_roll=("chengdu",),
            provinces={"chengdu": "red 4, city"},
        ),
        rng,
    )
    # Step 1 (no seed: BAD_PARAMETER) does not apply: digital actions never carry seeds
    # (design.md 4); the scripted source stands in for the seeds dk-test-2 and dk-test-1.
    t.act({"type": "roll_city", "province": "chengdu", "value": 5}, "RESULT_MISMATCH")
    t.act({"type": "roll_city", "province": "chengdu", "value": 6})
    t.holds("chengdu", "red 7, city")
    t.act({"type": "end_phase", "player": "red", "phase": "city"})
    assert t.now().to_roll == ("chengdu",)
    t.act({"type": "roll_province", "province": "chengdu", "first": 3, "second": 1})
    t.holds("chengdu", "red 7, city")
    assert (t.now().phase, t.now().to_roll, t.now().rolled) == ("province", (), ("chengdu",))
    rng.assert_all_drawn()
