"""Every worked example of dominations-provinces.md section 8, as scenario tests."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

from domain.games.dominations import RULESET
from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.state import (
    ATTACK,
    BUILD,
    END_OF_AGE,
    GROW_AFTER_FAIL,
    PLACE_PROVINCE,
    START,
    Attack,
    Available,
    TurnState,
)
from domain.rng import ScriptedRng, _uniform, commitment
from domain.ruleset import OMNISCIENT, PUBLIC, Viewer
from tests.unit.dominations.scenarios import Play, make

SEED = bytes(range(32))
EX1B = [
    "C35",
    "C12",
    "C40",
    "C25",
    "C14",
    "C29",
    "C02",
    "C39",
    "C30",
    "C33",
    "C15",
    "C21",
    "C18",
    "C24",
    "C05",
    "C03",
    "C16",
    "C13",
    "C06",
    "C01",
    "C38",
    "C07",
    "C20",
    "C10",
    "C26",
    "C11",
    "C19",
    "C22",
    "C23",
    "C08",
    "C34",
    "C31",
    "C27",
    "C28",
    "C09",
    "C37",
    "C17",
    "C32",
    "C04",
    "C36",
]
EX1D = [
    "R17",
    "R02",
    "R29",
    "R19",
    "R01",
    "R25",
    "R28",
    "R16",
    "R13",
    "R20",
    "R26",
    "R15",
    "R06",
    "R31",
    "R24",
    "R21",
    "R35",
    "R04",
    "R08",
    "R23",
    "R18",
    "R27",
    "R12",
    "R36",
    "R09",
    "R32",
    "R03",
    "R22",
    "R11",
    "R33",
    "R10",
    "R30",
    "R14",
    "R37",
    "R34",
    "R38",
    "R40",
    "R39",
    "R07",
]


def _illustrative_shuffle(deck: str, n: int, items: list[str]) -> list[str]:
    """5.2's illustrative message format (`game_id|deck|n`), with the engine's uniform()."""
    sub = hmac.new(SEED, f"test-game|{deck}|{n}".encode(), hashlib.sha256).digest()

    def words() -> Iterator[int]:
        k = 0
        while True:
            block = hashlib.sha256(sub + k.to_bytes(8, "big")).digest()
            for off in range(0, 32, 8):
                yield int.from_bytes(block[off : off + 8], "big")
            k += 1

    w = words()
    out = sorted(items)
    for i in range(len(out) - 1, 0, -1):
        j = _uniform(w, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def test_example_1_the_shuffle_procedure_reproduces_the_illustrative_vectors() -> None:
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    reb = [f"R{i:02d}" for i in range(1, 41)]
    assert _illustrative_shuffle("rebellion", 0, reb)[:5] == ["R14", "R03", "R06", "R22", "R28"]
    assert _illustrative_shuffle("conquest", 0, [f"C{i:02d}" for i in range(1, 41)]) == EX1B
    small = _illustrative_shuffle("rebellion", 1, ["R38", "R03", "R31", "R12", "R22"])
    assert small == ["R03", "R22", "R31", "R38", "R12"]
    assert hashlib.sha256(",".join(small).encode()).hexdigest() == (
        "f94db3665b095d6107a595865f5ced5e90a5956b4ebc6065ef6217a3bc350d8d"
    )
    assert _illustrative_shuffle("rebellion", 1, [r for r in reb if r != "R05"]) == EX1D


def test_example_2_placing_a_land_tile_with_the_reference_production_model() -> None:
    play = Play(make(extra_board=[("D(-1,0)", "L003", 0, None)], players={"p1": {"land_hand": ["L002"]}}))
    play("p1", ac.PlaceTile("hand", "L002", "U(0,0)", 0), "E_CELL_OCCUPIED")
    play("p1", ac.PlaceTile("hand", "L002", "D(3,3)", 0), "E_NOT_ADJACENT")
    play("p1", ac.PlaceTile("hand", "L002", "D(0,0)", 1, {"SCI": 2, "TRA": 3}), "E_PRODUCTION_MISMATCH")
    facts = play("p1", ac.PlaceTile("hand", "L002", "D(0,0)", 0))
    placed = facts[0]
    assert isinstance(placed, ev.TilePlaced)
    assert placed.produced == {"TRA": 3, "SCI": 2} and placed.loci_completed == ()
    assert play.k("p1", "SCI") == 2 and play.k("p1", "TRA") == 3
    assert play.state.board["D(0,0)"].tile_id == "L002" and "L002" not in play.p("p1").land_hand
    assert play.state.step == BUILD


def test_example_3_buying_conquest_cards_before_choosing_a_grow_option() -> None:
    play = Play(make(conquest_top=EX1B, players={"p1": {"knowledge": {"TRA": 3, "GOV": 1}}}))
    play("p2", ac.BuyConquestCard("TRA"), "E_NOT_YOUR_TURN")
    facts = play("p1", ac.BuyConquestCard("TRA"))
    play("p1", ac.BuyConquestCard("GOV"), "E_INSUFFICIENT_KNOWLEDGE")
    play("p1", ac.BuyConquestCard("TRA"), "E_INSUFFICIENT_KNOWLEDGE")
    assert play.k("p1", "TRA") == 1 and play.k("p1", "GOV") == 1
    assert play.p("p1").conquest_hand == ("C35",)
    assert play.state.conquest.draw[:3] == ("C12", "C40", "C25") and len(play.state.conquest.draw) == 39
    assert play.state.step == START
    public = RULESET.redact(facts[0], PUBLIC)
    assert public.card is None and public.domain == "TRA"
    assert RULESET.redact(facts[0], Viewer("seat", "p1")).card == "C35"


def test_example_4_conquering_recuay() -> None:
    play = Play(
        make(
            options={"production_model": "declared"},
            age=2,
            round=2,
            available=["FX2", "P08", "FX5"],
            players={
                "p1": {
                    "vp": 20,
                    "influence": 1,
                    "conquest_hand": ["C33", "C21", "C22", "C07"],
                    "land_hand": ["L020"],
                }
            },
            rebellion_top=["R09", "R19", "R29"],
        )
    )
    facts = play("p1", ac.AttemptConquest("P08"))
    assert facts[0].drawn == ("R09", "R19") and facts[0].rebellion_value == 7
    assert play.state.step == ATTACK
    play("p1", ac.ResolveConquest(("C33", "C21"), "ART"), "E_DISCARD_TOO_LOW")
    play("p1", ac.AbandonConquest(), "E_CANNOT_ABANDON")
    play("p1", ac.ResolveConquest(("C33", "C21", "C22"), "ART"))
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "P08"
    play("p1", ac.PlaceTile("hand", "L020", "D(0,0)", 0, {}), "E_MUST_PLACE_PROVINCE_TILE")
    play("p1", ac.PlaceTile("province", "P08", "D(0,0)", 0, {"GOV": 1}))
    p1 = play.p("p1")
    assert (p1.vp, p1.k("ART"), p1.k("GOV"), p1.influence) == (30, 10, 1, 3)
    assert p1.conquest_hand == ("C07",) and "L020" in p1.land_hand
    assert [(c.province_id, c.age, c.round, c.method) for c in p1.conquered] == [("P08", 2, 2, "attack")]
    assert [a.province_id for a in play.state.available] == ["FX2", "FX5"]
    assert sorted(play.state.conquest.discard) == ["C21", "C22", "C33"]
    assert sorted(play.state.rebellion.discard) == ["R09", "R19"]
    assert play.state.rebellion.draw[0] == "R29"
    assert play.state.board["D(0,0)"].tile_id == "P08" and play.state.step == BUILD


def test_example_5_a_failed_attack_then_another_player_draws_the_kept_cards_plus_one() -> None:
    start = make(
        options={"production_model": "declared"},
        round=3,
        available=["P03", "FX1", "FX2"],
        players={
            "p1": {"vp": 6, "influence": 2, "conquest_hand": ["C08", "C23"], "land_hand": ["L031"]},
            "p2": {"vp": 9, "conquest_hand": ["C36", "C37", "C24", "C09"]},
        },
        rebellion_top=["R30", "R20", "R01", "R10"],
    )
    play = Play(start)
    facts = play("p1", ac.AttemptConquest("P03"))
    assert facts[0].drawn == ("R30", "R20") and facts[0].rebellion_value == 7
    play("p1", ac.ResolveConquest(("C08", "C23")), "E_CONQUEST_VALUE_TOO_LOW")
    facts = play("p1", ac.AbandonConquest())
    assert facts[0].discarded == ("C08", "C23")
    moche = play.state.avail("P03")
    assert moche is not None and moche.kept == ("R30", "R20") and moche.failed_attempts == 1
    assert play.p("p1").influence == 0 and play.state.step == GROW_AFTER_FAIL
    play("p1", ac.EndTurn(), "E_GROW_NOT_DONE")
    play("p1", ac.PlaceTile("hand", "L031", "D(0,0)", 0, {"CRA": 1}))
    play("p1", ac.EndTurn())
    assert play.state.active == "p2" and play.state.step == START
    facts = play("p2", ac.AttemptConquest("P03"))
    assert facts[0].kept_taken == ("R30", "R20") and facts[0].drawn == ("R01",)
    assert facts[0].rebellion_value == 7
    play("p2", ac.ResolveConquest(("C36", "C37", "C09"), "REL"))
    p1, p2 = play.p("p1"), play.p("p2")
    assert (p1.vp, p1.influence, p1.k("CRA"), p1.conquest_hand) == (6, 0, 1, ())
    assert (p2.vp, p2.k("REL"), p2.influence, p2.conquest_hand) == (14, 3, 1, ("C24",))
    assert [a.province_id for a in play.state.available] == ["FX1", "FX2"]
    assert sorted(play.state.conquest.discard) == ["C08", "C09", "C23", "C36", "C37"]
    assert sorted(play.state.rebellion.discard) == ["R01", "R20", "R30"]
    assert play.state.rebellion.draw[0] == "R10"
    assert [(c.province_id, c.age, c.round, c.method) for c in p2.conquered] == [("P03", 1, 3, "attack")]
    # Replaying the accepted facts from the start rebuilds the same state.
    folded = start
    for fact in play.facts:
        folded = RULESET.evolve(folded, fact)
    assert folded == play.state


def test_example_6_moche_blocks_cities_until_it_is_conquered() -> None:
    board = [("U(0,0)", "L001", 0, "p2"), ("D(-1,0)", "L003", 0, None)]
    play = Play(
        make(
            options={"production_model": "declared"},
            board=board,
            available=["P03", "FX1", "FX2"],
            players={"p1": {"land_hand": ["L002"]}},
        )
    )
    city = ac.CityActivation("U(0,0)", "p2", {"GOV": 1})
    tile = ac.PlaceTile("hand", "L002", "D(0,0)", 0, {"SCI": 2, "TRA": 3}, (), (city,))
    play("p1", tile, "E_CITIES_BLOCKED")
    play("p1", ac.PlaceTile("hand", "L002", "D(0,0)", 0, {"SCI": 2, "TRA": 3}))
    assert play.k("p1", "SCI") == 2 and play.k("p1", "TRA") == 3 and play.k("p2", "GOV") == 0
    # Part 2: P3 has just conquered Moche.
    part2 = make(
        options={"production_model": "declared"},
        board=[*board, ("D(0,0)", "L002", 0, None)],
        active="p3",
        step=PLACE_PROVINCE,
        turn=TurnState(grow_choice="attack", pending_province_tile="P03"),
        available=["FX1", "FX2"],
        players={"p3": {"knowledge": {"REL": 3}}},
    )
    play = Play(part2)
    play("p3", ac.PlaceTile("province", "P03", "U(1,0)", 0, {"REL": 1}, (), (city,)), "E_CITY_NOT_ADJACENT")
    play("p3", ac.PlaceTile("province", "P03", "D(0,-1)", 0, {"REL": 1}, (), (city,)))
    assert play.k("p2", "GOV") == 1 and play.k("p3", "REL") == 4
    assert play.state.board["D(0,-1)"].tile_id == "P03" and play.state.step == BUILD


def test_example_7_conquest_cards_bought_after_the_reveal_must_be_used() -> None:
    play = Play(
        make(
            options={"production_model": "declared"},
            active="p2",
            available=["FX1", "P03", "FX2"],
            players={
                "p2": {
                    "vp": 10,
                    "knowledge": {"SCI": 4, "CRA": 1},
                    "conquest_hand": ["C33", "C10", "C11"],
                    "masteries": ["Engins de Siege"],
                }
            },
            rebellion_top=["R31", "R13"],
            conquest_top=["C25", "C12"],
        )
    )
    facts = play("p2", ac.AttemptConquest("FX1"))
    assert facts[0].drawn == ("R31",) and facts[0].rebellion_value == 6
    facts = play("p2", ac.BuyConquestCard("SCI"))
    assert facts[0].card == "C25" and facts[0].must_use
    assert play.state.attack is not None and play.state.attack.must_use == ("C25",)
    play("p2", ac.UseSiegeEngines())
    play("p2", ac.ResolveConquest(("C33", "C10"), "TRA"), "E_MUST_USE_NOT_DISCARDED")
    play("p2", ac.ResolveConquest(("C25", "C10", "C11"), "TRA"))
    p2 = play.p("p2")
    assert (p2.vp, p2.k("SCI"), p2.k("CRA"), p2.k("TRA"), p2.influence) == (14, 2, 0, 2, 1)
    assert p2.conquest_hand == ("C33",)
    assert sorted(play.state.conquest.discard) == ["C10", "C11", "C25"]
    assert play.state.conquest.draw[0] == "C12"
    assert play.state.rebellion.discard == ("R31",) and play.state.rebellion.draw[0] == "R13"
    assert [a.province_id for a in play.state.available] == ["P03", "FX2"]
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "FX1"


def test_example_8_topping_up_with_influence() -> None:
    play = Play(
        make(
            age=2,
            active="p3",
            available=["P08", "FX2", "FX5"],
            players={"p3": {"vp": 12, "influence": 4, "conquest_hand": ["C34", "C26"]}},
            rebellion_top=["R12", "R21", "R35"],
        )
    )
    assert play("p3", ac.AttemptConquest("P08"))[0].rebellion_value == 7
    play("p3", ac.SpendInfluence(3), "E_INFLUENCE_EXCESS")
    play("p3", ac.SpendInfluence(2))
    play("p3", ac.SpendInfluence(1), "E_INFLUENCE_NOT_NEEDED")
    play("p3", ac.ResolveConquest(("C34",), "GOV"), "E_DISCARD_TOO_LOW")
    play("p3", ac.ResolveConquest(("C34", "C26"), "GOV"))
    p3 = play.p("p3")
    assert (p3.vp, p3.k("GOV"), p3.influence, p3.conquest_hand) == (22, 10, 4, ())
    assert sorted(play.state.conquest.discard) == ["C26", "C34"]
    assert sorted(play.state.rebellion.discard) == ["R12", "R21"] and play.state.rebellion.draw[0] == "R35"
    assert [a.province_id for a in play.state.available] == ["FX2", "FX5"]
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "P08"


def test_example_9_conquering_with_knowledge() -> None:
    start = make(
        options={"production_model": "declared"},
        active="p3",
        available=["FX1", "P03", "FX2"],
        players={"p3": {"knowledge": {"CRA": 4, "REL": 2, "TRA": 1}, "land_hand": ["L040"]}},
    )
    play = Play(start)
    play("p3", ac.ConquerWithKnowledge("P03", {"CRA": 4, "REL": 2}), "E_NO_KNOWLEDGE_PRICE")
    play("p3", ac.ConquerWithKnowledge("FX1", {"CRA": 4, "TRA": 1}), "E_WRONG_PAYMENT_TOTAL")
    play("p3", ac.ConquerWithKnowledge("FX1", {"CRA": 3, "REL": 3}), "E_INSUFFICIENT_KNOWLEDGE")
    play("p3", ac.ConquerWithKnowledge("FX1", {"CRA": 4, "REL": 2}, "TRA"))
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "FX1"
    play("p3", ac.AttemptConquest("P03"), "E_WRONG_STEP")
    play("p3", ac.PlaceTile("hand", "L040", "D(0,0)", 0, {}), "E_MUST_PLACE_PROVINCE_TILE")
    play("p3", ac.PlaceTile("province", "FX1", "D(0,0)", 0, {"ART": 1}))
    p3 = play.p("p3")
    assert [p3.k(d) for d in ("CRA", "REL", "TRA", "ART")] == [0, 0, 3, 1]
    assert (p3.vp, p3.influence) == (4, 1) and "L040" in p3.land_hand
    assert [(c.province_id, c.age, c.method) for c in p3.conquered] == [("FX1", 1, "knowledge")]
    assert [a.province_id for a in play.state.available] == ["P03", "FX2"]
    assert play.state.rebellion == start.rebellion and play.state.conquest == start.conquest
    assert play.state.step == BUILD


def test_example_10_the_rebellion_deck_runs_out_mid_draw() -> None:
    everything = [f"R{i:02d}" for i in range(1, 41)]
    start = make(
        age=2,
        available=["P08", "FX5"],
        players={"p1": {"vp": 5, "conquest_hand": ["C27", "C28", "C07"]}},
        rebellion_draw=["R05"],
        rebellion_discard=[r for r in everything if r != "R05"],
    )
    play = Play(start, ScriptedRng(shuffles={("rebellion", 1): EX1D}))
    facts = play("p1", ac.AttemptConquest("P08"))
    attempt = facts[0]
    assert attempt.drawn == ("R05", "R17") and attempt.rebellion_value == 5
    (reshuffle,) = attempt.reshuffles
    assert (reshuffle.deck, reshuffle.n, reshuffle.before_index) == ("rebellion", 1, 1)
    assert reshuffle.order_digest == "9aee4e68d0daaf200643a0f18b13831832a623bc4bfa4123c4e17e426c48a87c"
    play("p1", ac.ResolveConquest(("C27", "C28"), "SCI"), "E_DISCARD_TOO_LOW")
    play("p1", ac.ResolveConquest(("C27", "C28", "C07"), "SCI"))
    reb = play.state.rebellion
    assert len(reb.draw) == 38 and reb.draw[:4] == ("R02", "R29", "R19", "R01")
    assert sorted(reb.discard) == ["R05", "R17"] and reb.reshuffles == 1
    p1 = play.p("p1")
    assert (p1.vp, p1.k("SCI"), p1.influence, p1.conquest_hand) == (15, 10, 2, ())
    assert sorted(play.state.conquest.discard) == ["C07", "C27", "C28"]
    public = RULESET.redact(attempt, PUBLIC)
    assert public.reshuffles[0].order == () and public.drawn == ("R05", "R17")
    # The digest of a short pile would give its order away: it is shown once the game is over.
    assert public.reshuffles[0].order_digest == ""
    assert RULESET.redact(attempt, OMNISCIENT).reshuffles[0].order_digest == reshuffle.order_digest


def test_example_11_the_spy() -> None:
    play = Play(
        make(
            age=2,
            active="p2",
            dominance={"SPY": "p2"},
            available=["P03", "P08", "FX5"],
            players={"p2": {"vp": 20, "conquest_hand": ["C39", "C40"], "land_hand": ["L060"]}},
            rebellion_top=["R29", "R01", "R19", "R09", "R37", "R02"],
        )
    )
    facts = play("p2", ac.AttemptConquest("P03", use_spy=True))
    attempt = facts[0]
    assert attempt.spy_peek == ("R29", "R01", "R19", "R09", "R37")
    assert attempt.drawn == ("R29", "R01") and attempt.rebellion_value == 5
    assert RULESET.redact(attempt, PUBLIC).spy_peek is None
    assert RULESET.redact(attempt, Viewer("seat", "p3")).spy_peek is None
    assert RULESET.redact(attempt, Viewer("seat", "p2")).spy_peek == attempt.spy_peek
    assert RULESET.view(play.state, PUBLIC)["attack"]["spy_peek"] is None
    play("p2", ac.ResolveConquest(("C39",), "CRA"), "E_DISCARD_TOO_LOW")
    play("p2", ac.ResolveConquest(("C39", "C40"), "CRA"))
    p2 = play.p("p2")
    assert (p2.vp, p2.k("CRA"), p2.influence, p2.conquest_hand) == (25, 3, 1, ())
    play("p2", ac.PlaceTile("province", "P03", "D(0,0)", 0, {}))
    play("p2", ac.EndTurn())
    play("p3", ac.AttemptConquest("P08", use_spy=True), "E_NO_SPY")
    facts = play("p3", ac.AttemptConquest("P08"))
    assert facts[0].drawn == ("R19", "R09") and facts[0].rebellion_value == 7
    assert play.state.step == ATTACK and play.state.attack is not None and play.state.attack.attacker == "p3"
    assert sorted(play.state.rebellion.discard) == ["R01", "R29"]
    assert play.state.rebellion.draw[:2] == ("R37", "R02")
    assert "draw" not in RULESET.view(play.state, PUBLIC)["rebellion"]
    assert RULESET.view(play.state, OMNISCIENT)["rebellion"]["draw"][0] == "R37"


def test_example_12_conscription_siege_arcs_and_espionnage_in_one_attack() -> None:
    play = Play(
        make(
            age=2,
            available=["P08", "FX5"],
            players={
                "p1": {
                    "vp": 25,
                    "knowledge": {"CRA": 2, "SCI": 1},
                    "conquest_hand": ["C34", "C24"],
                    "masteries": ["Conscription", "Engins de Siege", "Arcs de Triomphe", "Espionnage"],
                }
            },
            rebellion_top=["R23", "R32"],
        )
    )
    facts = play("p1", ac.AttemptConquest("P08"))
    assert facts[0].rebellion_value == 9 and facts[0].conscription_bonus == 3
    play("p1", ac.SpendInfluence(1), "E_NOT_ENOUGH_INFLUENCE")
    play("p1", ac.UseSiegeEngines())
    assert play.k("p1", "CRA") == 1
    play("p1", ac.UseSiegeEngines(), "E_SIEGE_ALREADY_USED")
    play("p1", ac.ResolveConquest(("C34",), "SCI"), "E_DISCARD_TOO_LOW")
    play("p1", ac.ResolveConquest(("C34", "C24"), "SCI"))
    p1 = play.p("p1")
    assert (p1.vp, p1.k("SCI"), p1.k("CRA"), p1.influence, p1.conquest_hand) == (37, 16, 1, 2, ())
    assert sorted(play.state.conquest.discard) == ["C24", "C34"]
    assert sorted(play.state.rebellion.discard) == ["R23", "R32"]
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "P08"


def _example_13(masteries: list[str]) -> Play:
    occupied = ["U(-1,0)", "U(0,-1)", "D(-1,0)", "D(0,-1)", "D(-1,-1)"]
    tiles = ["L070", "L071", "L072", "L073", "L074"]
    return Play(
        make(
            options={"production_model": "declared"},
            active="p3",
            board=[(c, t, 0, None) for c, t in zip(occupied, tiles, strict=True)],
            players={"p3": {"influence": 1, "land_hand": ["L050"], "masteries": masteries}},
        )
    )


def test_example_13_missionaires_and_locus_completion() -> None:
    play = _example_13(["Missionaires"])
    facts = play("p3", ac.PlaceTile("hand", "L050", "U(0,0)", 0, {"ART": 1}))
    assert facts[0].loci_completed == ((0, 0),) and facts[0].missionaires_gain == 1
    assert play.p("p3").influence == 2 and play.k("p3", "ART") == 1
    play = _example_13([])
    facts = play("p3", ac.PlaceTile("hand", "L050", "U(0,0)", 0, {"ART": 1}))
    assert facts[0].loci_completed == ((0, 0),) and play.p("p3").influence == 1


def test_example_14_end_of_age_ii_province_effects_spy_award_and_refill() -> None:
    recuay = Available("P08", 1, ("R15", "R25"), 1, "p2")
    play = Play(
        make(
            age=2,
            round=5,
            active="p3",
            step=BUILD,
            turn=TurnState(grow_choice="tile", grow_done=True),
            available=[Available("FX2", 1), recuay],
            players={
                "p1": {"vp": 40, "influence": 2, "knowledge": {"ART": 3}},
                "p2": {"vp": 30},
                "p3": {"vp": 3, "influence": 1},
            },
            province_decks=((), (), ("FX3", "FX4")),
        )
    )
    facts = play("p3", ac.EndTurn())
    assert play.state.step == END_OF_AGE and play.state.active is None
    effects = facts[-1]
    assert isinstance(effects, ev.ProvinceAgeEffects)
    assert [e.province_id for e in effects.effects] == ["FX2", "P08"]
    play(None, ac.AgeEndBaseScoring(), by="recorder")
    p1, p2, p3 = play.p("p1"), play.p("p2"), play.p("p3")
    assert (p1.vp, p2.vp, p3.vp) == (30, 25, 0)
    assert (p1.influence, p2.influence, p3.influence) == (1, 0, 0)
    assert play.state.dominance["SPY"] == "p1"
    assert all(v is None for k, v in play.state.dominance.items() if k != "SPY")
    assert all(k == 0 for p in play.state.players for k in p.knowledge)
    assert [a.province_id for a in play.state.available] == ["FX2", "P08", "FX3"]
    kept = play.state.avail("P08")
    assert kept is not None and kept.kept == ("R15", "R25") and kept.failed_attempts == 1
    assert play.state.province_decks[2] == ("FX4",)
    final = play.state
    assert (final.age, final.round, final.active, final.step) == (3, 1, "p1", START)
    assert all(len(p.land_hand) == 7 for p in play.state.players)


def test_example_15_corsaires_inside_an_attack() -> None:
    attack = Attack("p1", "FX1", drawn=("R31",), rebellion_value=6)
    play = Play(
        make(
            step=ATTACK,
            attack=attack,
            turn=TurnState(grow_choice="attack"),
            available=["FX1", "P03", "FX2"],
            players={
                "p1": {
                    "vp": 8,
                    "knowledge": {"TRA": 2},
                    "conquest_hand": ["C33", "C26"],
                    "masteries": ["Corsaires"],
                }
            },
        )
    )
    play("p1", ac.SpendInfluence(1), "E_NOT_ENOUGH_INFLUENCE")
    play("p1", ac.CorsairesExchange())
    assert play.k("p1", "TRA") == 1 and play.p("p1").influence == 1
    play("p1", ac.CorsairesExchange(), "E_CORSAIRES_USED")
    play("p1", ac.SpendInfluence(1))
    play("p1", ac.ResolveConquest(("C33", "C26"), "CRA"))
    p1 = play.p("p1")
    assert (p1.k("TRA"), p1.k("CRA"), p1.vp, p1.influence) == (1, 2, 12, 1)
    assert p1.conquest_hand == ()
    assert sorted(play.state.conquest.discard) == ["C26", "C33"]
    assert play.state.rebellion.discard == ("R31",)
    assert play.state.step == PLACE_PROVINCE and play.state.turn.pending_province_tile == "FX1"
