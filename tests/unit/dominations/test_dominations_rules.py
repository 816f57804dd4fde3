"""Rules of dominations-provinces.md beyond the worked examples: the conformance checklist of
Appendix D, the catalog option, physical mode (5.4) and the variant options of Appendix A."""

from __future__ import annotations

import json

import msgspec
import pytest

from domain.games.dominations import RULESET
from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations.board import loci_completed, parse_cell
from domain.games.dominations.data import DEFAULT_TEXT, CatalogError, Face, load_catalog
from domain.games.dominations.state import ATTACK, BUILD, START, Available, Owned, State, TurnState
from domain.rng import NoRng, ScriptedRng, SeededRng
from domain.ruleset import Command, RejectedError, Rejection, Viewer
from tests.unit.dominations.scenarios import Play, config, make


def test_a_conquest_card_paid_with_two_domains_is_refused_citing_the_rule() -> None:
    state = make(players={"p1": {"knowledge": {"TRA": 2, "GOV": 2}}})
    result = RULESET.decide(
        state, Command(ac.BuyConquestCard(None, {"TRA": 1, "GOV": 1}), "p1", "seat"), NoRng()
    )
    assert isinstance(result, Rejection)
    assert result.code == "E_BAD_PARAMS" and result.rule == "dominations 4.2.2"
    assert "one domain" in result.message
    parsed = RULESET.parse_notation('buy_conquest_card {"payment":{"TRA":1,"GOV":1}}', state)
    assert isinstance(RULESET.decide(state, Command(parsed, "p1", "seat"), NoRng()), Rejection)
    ok = RULESET.decide(state, Command(ac.BuyConquestCard(None, {"TRA": 2}), "p1", "seat"), NoRng())
    assert not isinstance(ok, Rejection)


def test_conquest_cards_may_be_bought_in_every_step_of_the_own_turn_only() -> None:
    play = Play(make(step=BUILD, players={"p1": {"knowledge": {"ART": 4}}, "p2": {"knowledge": {"ART": 4}}}))
    play("p2", ac.BuyConquestCard("ART"), "E_NOT_YOUR_TURN")
    play("p1", ac.BuyConquestCard("ART"))
    assert len(play.p("p1").conquest_hand) == 1


def test_a_rejected_action_changes_nothing_and_consumes_no_draw() -> None:
    state = make(available=["P08"], players={"p1": {"conquest_hand": ["C01"]}})
    before = msgspec.json.encode(RULESET.view(state, __import__("domain.ruleset").ruleset.OMNISCIENT))
    assert isinstance(
        RULESET.decide(state, Command(ac.AttemptConquest("P03"), "p1", "seat"), NoRng()), Rejection
    )
    after = msgspec.json.encode(RULESET.view(state, __import__("domain.ruleset").ruleset.OMNISCIENT))
    assert before == after


def test_the_failed_player_may_retry_by_default_but_not_under_the_variant() -> None:
    kept = Available("FX1", 1, ("R30",), 1, "p1")
    Play(make(available=[kept]))("p1", ac.AttemptConquest("FX1"))
    Play(make(options={"retry_by_failed_player": False}, available=[kept]))(
        "p1", ac.AttemptConquest("FX1"), "E_RETRY_NOT_ALLOWED"
    )


def test_printed_plus_failures_discards_kept_cards_and_draws_more() -> None:
    kept = Available("FX5", 2, ("R30", "R29"), 2, "p2")
    play = Play(make(options={"retry_draw_rule": "printed_plus_failures"}, age=2, available=[kept]))
    facts = play("p1", ac.AttemptConquest("FX5"))
    assert facts[0].kept_taken == () and len(facts[0].drawn) == 4
    assert set(play.state.rebellion.discard) == {"R30", "R29"}


def test_influence_overspend_and_cards_only_variants() -> None:
    def start(options: dict[str, object]) -> Play:
        play = Play(
            make(
                options=options,
                age=2,
                available=["P08"],
                players={"p1": {"influence": 5, "conquest_hand": ["C34", "C26"]}},
                rebellion_top=["R12", "R21"],
            )
        )
        play("p1", ac.AttemptConquest("P08"))
        return play

    start({})("p1", ac.SpendInfluence(3), "E_INFLUENCE_EXCESS")
    start({"influence_overspend": True})("p1", ac.SpendInfluence(3))
    play = start({"discard_rule": "cards_only"})
    play("p1", ac.SpendInfluence(2))
    play("p1", ac.ResolveConquest(("C34", "C26"), "GOV"), "E_DISCARD_TOO_LOW")


def test_voluntary_abandon_and_minimal_discard_variants() -> None:
    def start(options: dict[str, object]) -> Play:
        play = Play(
            make(
                options=options,
                available=["FX2"],
                players={"p1": {"conquest_hand": ["C33", "C34", "C01"]}},
                rebellion_top=["R09"],
            )
        )
        play("p1", ac.AttemptConquest("FX2"))
        return play

    start({})("p1", ac.AbandonConquest(), "E_CANNOT_ABANDON")
    start({"allow_voluntary_abandon": True})("p1", ac.AbandonConquest())
    start({"discard_must_be_minimal": True})(
        "p1", ac.ResolveConquest(("C33", "C34")), "E_DISCARD_NOT_MINIMAL"
    )
    start({"discard_must_be_minimal": True})("p1", ac.ResolveConquest(("C33",)))


def test_single_domain_black_number_variant() -> None:
    state = dict(available=["FX1"], players={"p1": {"knowledge": {"CRA": 4, "REL": 2, "TRA": 6}}})
    Play(make(options={"knowledge_price_domains": "single_domain"}, **state))(  # type: ignore[arg-type]
        "p1", ac.ConquerWithKnowledge("FX1", {"CRA": 4, "REL": 2}, "TRA"), "E_WRONG_PAYMENT_TOTAL"
    )
    Play(make(options={"knowledge_price_domains": "single_domain"}, **state))(  # type: ignore[arg-type]
        "p1", ac.ConquerWithKnowledge("FX1", {"TRA": 6}, "TRA")
    )


def test_reward_domain_is_required_when_the_reward_holds_knowledge() -> None:
    play = Play(
        make(available=["FX1"], players={"p1": {"conquest_hand": ["C33", "C34"]}}, rebellion_top=["R01"])
    )
    play("p1", ac.AttemptConquest("FX1"))
    play("p1", ac.ResolveConquest(("C33",)), "E_REWARD_DOMAIN_REQUIRED")
    play("p1", ac.ResolveConquest(("C33",), "ART"))


def test_arcs_influence_and_espionnage_vp_variants() -> None:
    play = Play(
        make(
            options={"arcs_reward": "influence", "espionnage_reward": "vp"},
            available=["FX2"],
            players={"p1": {"conquest_hand": ["C33"], "masteries": ["Arcs de Triomphe", "Espionnage"]}},
            rebellion_top=["R01"],
        )
    )
    play("p1", ac.AttemptConquest("FX2"))
    play("p1", ac.ResolveConquest(("C33",)))
    p1 = play.p("p1")
    assert (p1.vp, p1.influence, p1.k("SCI")) == (3 + 5, 2, 0)


def test_the_siege_can_cost_influence_and_copies_stack_under_the_variant() -> None:
    play = Play(
        make(
            options={"siege_cost": "influence", "mastery_effects_stack": True},
            available=["FX2"],
            players={"p1": {"influence": 2, "masteries": ["Engins de Siege", "Conscription"]}},
            rebellion_top=["R40"],
        )
    )
    facts = play("p1", ac.AttemptConquest("FX2"))
    assert facts[0].conscription_bonus == 3
    play("p1", ac.UseSiegeEngines())
    assert play.p("p1").influence == 1
    play("p1", ac.UseSiegeEngines(), "E_SIEGE_ALREADY_USED")


def test_the_empty_rebellion_deck_gives_a_short_draw_or_rejects_the_attempt() -> None:
    everything = [f"R{i:02d}" for i in range(1, 41)]
    kept = Available("P03", 1, tuple(everything), 1, "p2")
    other = Available("FX1", 1)
    Play(make(available=[kept, other], rebellion_draw=[]))("p1", ac.AttemptConquest("FX1"))
    Play(make(options={"exhausted_deck": "reject_attempt"}, available=[kept, other], rebellion_draw=[]))(
        "p1", ac.AttemptConquest("FX1"), "E_DECK_EXHAUSTED"
    )


def test_base_effect_cannot_claim_a_provinces_effect_and_floors_only_when_clamped() -> None:
    play = Play(make(players={"p1": {"vp": 3}}))
    play("p1", ac.BaseEffect("p1", "provinces", "Arcs de Triomphe", vp=2), "E_STRICT_RULE")
    play("p1", ac.BaseEffect("p1", "base_card", "Fishing", vp=-5), "E_NEGATIVE_RESULT")
    play("p1", ac.BaseEffect("p1", "base_card", "Fishing", vp=-5, clamp=True))
    assert play.p("p1").vp == 0
    play(None, ac.BaseEffect("p2", "base_rule", "city income", knowledge={"CRA": 2}), by="recorder")
    assert play.k("p2", "CRA") == 2


def test_build_limits_and_the_develop_phase() -> None:
    play = Play(make(step=BUILD, players={"p1": {"knowledge": {"GOV": 5, "ART": 6}}}))
    play("p1", ac.BuildCity("U(0,0)", 1, {"CRA": 1}), "E_WRONG_COST_DOMAIN")
    play("p1", ac.BuildCity("U(0,0)", 1, {"GOV": 2}))
    play("p1", ac.BuildCity("U(0,0)", 2, {"GOV": 2}), "E_BUILD_LIMIT")
    play("p1", ac.AcquireMastery("ARC-1", (3, 3), {"ART": 3}), "E_BAD_TREE_POSITION")
    play("p1", ac.AcquireMastery("ARC-1", (1, 0), {"ART": 3}))
    play("p1", ac.BuildCity("U(0,0)", 2, {"GOV": 2}), "E_PHASE_PASSED")
    play("p1", ac.AcquireMastery("ARC-2", (2, 0), {"ART": 3}), "E_MASTERY_LIMIT")
    play("p1", ac.EndTurn())
    assert play.state.active == "p2" and play.state.step == START


def test_loci_completion_finds_up_to_three_vertices() -> None:
    cell = parse_cell("U(0,0)")
    assert cell is not None
    occupied = {
        name: True
        for name in (
            "U(-1,0)",
            "U(0,-1)",
            "D(-1,0)",
            "D(0,-1)",
            "D(-1,-1)",
            "U(-1,1)",
            "D(-1,1)",
            "D(0,0)",
            "U(0,1)",
        )
    }
    assert loci_completed(cell, occupied) == [(0, 0), (0, 1)]


def test_a_catalog_brought_at_creation_is_validated_naming_the_failed_check() -> None:
    doc = json.loads(DEFAULT_TEXT)
    doc["provinces"][0]["age"] = 7
    with pytest.raises(CatalogError) as error:
        load_catalog(json.dumps(doc))
    assert error.value.check == "province_age"
    with pytest.raises(RejectedError) as raised:
        RULESET.initial(config(options={"catalog": json.dumps(doc)}))
    assert raised.value.rejection.code == "E_BAD_CATALOG" and "province_age" in raised.value.rejection.message
    doc = json.loads(DEFAULT_TEXT)
    doc["conquest_composition"] = {"0": 10, "1": 10}
    with pytest.raises(CatalogError, match="composition"):
        load_catalog(json.dumps(doc))
    doc = json.loads(DEFAULT_TEXT)
    doc["provinces"][0]["tile_face"] = {"camp": "GOV", "corners": ["CRA", None, "ART"]}
    state = RULESET.initial(config(options={"catalog": json.dumps(doc)}))
    assert state.tables.faces["P03"].camp == "GOV"


def test_a_physical_game_checks_drawn_cards_against_the_pile() -> None:
    cfg = config("physical")
    state = RULESET.initial(cfg)
    facts = list(RULESET.setup(cfg, state, NoRng()))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    assert isinstance(facts[-1], ev.DrawsRequested)
    play = Play(state, NoRng())
    play(None, ac.RecordDraw("P08"), "E_CARD_NOT_IN_PILE", by="recorder")
    play("p1", ac.RecordDraw("P03"), "E_NOT_YOUR_TURN")
    play("p1", ac.EndTurn(), "E_OUTCOME_REQUIRED")
    play(None, ac.RecordDraw("P03"), by="recorder")
    play(None, ac.RecordDraw("P03"), "E_CARD_NOT_IN_PILE", by="recorder")
    digital = make(players={"p1": {"knowledge": {"TRA": 2}}})
    Play(digital)(None, ac.RecordDraw("C01"), "E_OUTCOME_NOT_ALLOWED", by="recorder")


def test_physical_rebellion_draws_are_strengths_from_the_known_multiset() -> None:
    state = make(mode="physical", available=["FX1"], players={"p1": {"conquest_hand": ["3", "3"]}})
    play = Play(state, NoRng())
    play("p1", ac.AttemptConquest("FX1"))
    assert play.state.awaiting and play.state.step == ATTACK
    play(None, ac.RecordDraw("7"), "E_CARD_NOT_IN_PILE", by="recorder")
    play(None, ac.RecordDraw("4"), by="recorder")
    assert play.state.attack is not None and play.state.attack.rebellion_value == 7
    play("p1", ac.ResolveConquest(("3", "3"), "CRA"), "E_CONQUEST_VALUE_TOO_LOW")
    play("p1", ac.AbandonConquest())
    assert play.state.avail("FX1").kept == ("4",)  # type: ignore[union-attr]


def test_a_physical_attempt_and_its_drawn_cards_are_one_action() -> None:
    """5.4: entered together, a card that cannot have been drawn refuses the attempt itself,
    and nothing of it is stored; the right cards record the attempt and its draw at once."""
    state = make(mode="physical", available=["P08"], players={"p1": {"conquest_hand": ["3", "3"]}})
    play = Play(state, NoRng())
    play("p1", ac.AttemptConquest("P08", drawn=("4", "7")), "E_CARD_NOT_IN_PILE", by="recorder")
    play("p1", ac.AttemptConquest("P08", drawn=("4",)), "E_OUTCOME_REQUIRED", by="recorder")
    play("p1", ac.AttemptConquest("P08", drawn=("4", "4", "4")), "E_OUTCOME_REQUIRED", by="recorder")
    play("p1", ac.AttemptConquest("P08", drawn=("4", "2")), "E_NOT_YOUR_TURN")
    assert play.state is state and play.facts == []
    facts = play("p1", ac.AttemptConquest("P08", drawn=("4", "2")), by="recorder")
    assert [type(f).__name__ for f in facts].count("CardRecorded") == 2
    assert not play.state.awaiting and play.state.attack is not None
    assert play.state.attack.rebellion_value == 4 + 4 + 2
    digital = Play(make(available=["P08"]))
    digital("p1", ac.AttemptConquest("P08", drawn=("R01", "R02")), "E_OUTCOME_NOT_ALLOWED", by="recorder")
    assert RULESET.parse_notation("attempt P08 spy draw 4 2", state) == ac.AttemptConquest(
        "P08", use_spy=True, drawn=("4", "2")
    )
    assert RULESET.format_action(ac.AttemptConquest("P08", drawn=("4", "2"))) == "attempt P08 draw 4 2"


def test_digital_setup_shuffles_each_deck_on_its_own_stream() -> None:
    cfg = config()
    state = RULESET.initial(cfg)
    facts = RULESET.setup(cfg, state, SeededRng(bytes(range(32)), cfg.game_id))
    shuffles = [(f.deck, f.n) for f in facts if isinstance(f, ev.DeckShuffled)]
    assert shuffles == [
        ("province-I", 0),
        ("province-II", 0),
        ("province-III", 0),
        ("conquest", 0),
        ("rebellion", 0),
        ("land", 0),
    ]
    revealed = [f for f in facts if isinstance(f, ev.ProvincesRevealed)]
    assert len(revealed) == 1 and len(revealed[0].provinces) == 3


def _end_of_age(
    options: dict[str, object],
    held: dict[str, tuple[str, ...]],
    players: dict[str, dict[str, object]] | None = None,
    dominance: dict[str, str] | None = None,
) -> Play:
    from msgspec.structs import replace as _replace

    state = make(
        options=options,
        players=players,
        dominance=dominance,
        round=5,
        active="p3",
        step=BUILD,
        turn=TurnState(grow_choice="tile", grow_done=True),
        available=["FX2"],
    )
    holders = tuple(_replace(p, province_cards_held=held.get(p.seat, ())) for p in state.players)
    play = Play(_replace(state, players=holders))
    play("p3", ac.EndTurn())
    return play


def test_the_hegemon_token_scores_for_the_single_leader_and_ties_score_nothing() -> None:
    play = _end_of_age({"hegemon_module": True}, {"p1": ("P03", "FX1"), "p2": ("FX5",)})
    play(None, ac.AgeEndBaseScoring(hegemon_token_active=True, hegemon_token_vp=4), by="recorder")
    scored = next(f for f in play.facts if isinstance(f, ev.HegemonScored))
    assert scored.scorer == "p1" and play.p("p1").vp == 4
    play = _end_of_age({"hegemon_module": True, "hegemon_token_vp": "6"}, {"p1": ("P03",), "p2": ("FX5",)})
    play(
        None,
        ac.AgeEndBaseScoring(hegemon_token_active=True, hegemon_token_vp=4),
        by="recorder",
        expect="E_BAD_PARAMS",
    )
    play(None, ac.AgeEndBaseScoring(hegemon_token_active=True), by="recorder")
    assert all(p.vp == 0 for p in play.state.players)
    play = _end_of_age({}, {})
    play(None, ac.AgeEndBaseScoring(hegemon_token_active=True), by="recorder", expect="E_BAD_PARAMS")


def test_with_the_hegemon_module_conquered_cards_stay_with_the_conqueror() -> None:
    play = Play(
        make(
            options={"hegemon_module": True},
            available=["FX2"],
            players={"p1": {"conquest_hand": ["C33"]}},
            rebellion_top=["R01"],
        )
    )
    play("p1", ac.AttemptConquest("FX2"))
    play("p1", ac.ResolveConquest(("C33",)))
    assert play.p("p1").province_cards_held == ("FX2",) and play.state.boxed == ()


def test_dominance_ties_and_configured_dominance_vp() -> None:
    knowledge: dict[str, dict[str, object]] = {
        "p1": {"knowledge": {"ART": 3, "SCI": 2}},
        "p2": {"knowledge": {"ART": 3}},
    }
    play = _end_of_age({"dominance_vp": '{"SPY": 3, "DOM-SCI": 2}'}, {}, knowledge, {"SPY": "p2"})
    play(None, ac.AgeEndBaseScoring(dominance_vp={"SPY": 2}), by="recorder", expect="E_BAD_PARAMS")
    play(None, ac.AgeEndBaseScoring(), by="recorder")
    assert play.state.dominance["SPY"] is None and play.state.dominance["DOM-SCI"] == "p1"
    assert play.p("p1").vp == 2
    play = _end_of_age({"dominance_tie": "keep_previous"}, {}, knowledge, {"SPY": "p2"})
    play(None, ac.AgeEndBaseScoring(dominance_vp={"SPY": 5}), by="recorder")
    assert play.state.dominance["SPY"] == "p2" and play.p("p2").vp == 5


def test_siege_before_draw_is_part_of_the_attempt() -> None:
    start = make(
        options={"siege_timing": "before_draw"},
        available=["FX2"],
        players={"p1": {"knowledge": {"CRA": 1}, "masteries": ["Engins de Siege"]}},
        rebellion_top=["R09"],
    )
    play = Play(start)
    facts = play("p1", ac.AttemptConquest("FX2", use_siege=True))
    assert isinstance(facts[-1], ev.SiegeEnginesUsed) and play.k("p1", "CRA") == 0
    play("p1", ac.UseSiegeEngines(), "E_WRONG_STEP")
    Play(make(available=["FX2"]))("p1", ac.AttemptConquest("FX2", use_siege=True), "E_BAD_PARAMS")


def test_corsaires_knowledge_swap_variant() -> None:
    play = Play(
        make(
            options={"corsaires_exchange": "any_knowledge_swap"},
            players={"p1": {"knowledge": {"ART": 1}, "masteries": ["Corsaires"]}},
        )
    )
    play("p1", ac.CorsairesExchange(), "E_BAD_PARAMS")
    play("p1", ac.CorsairesExchange("ART", "ART"), "E_BAD_PARAMS")
    play("p1", ac.CorsairesExchange("SCI", "ART"), "E_INSUFFICIENT_KNOWLEDGE")
    play("p1", ac.CorsairesExchange("ART", "GOV"))
    assert play.k("p1", "ART") == 0 and play.k("p1", "GOV") == 1
    assert RULESET.parse_notation(RULESET.format_action(ac.CorsairesExchange("ART", "GOV")), play.state) == (
        ac.CorsairesExchange("ART", "GOV")
    )


def test_spy_peek_variants() -> None:
    base = dict(dominance={"SPY": "p1"}, available=["FX2"], rebellion_top=["R40", "R01"])
    play = Play(make(**base))  # type: ignore[arg-type]
    play("p1", ac.SpyPeek(), "E_WRONG_STEP")
    play = Play(make(options={"spy_peek_allows_abort": True}, **base))  # type: ignore[arg-type]
    facts = play("p1", ac.SpyPeek())
    assert facts[0].cards[:2] == ("R40", "R01") and play.state.step == START
    assert RULESET.redact(facts[0], Viewer("seat", "p2")).cards == ()
    everything = [f"R{i:02d}" for i in range(1, 41)]
    short = make(
        options={"spy_peek_short_pile": "reshuffle_first"},
        dominance={"SPY": "p1"},
        available=["FX2"],
        rebellion_draw=["R40", "R39"],
        rebellion_discard=[r for r in everything if r not in ("R40", "R39")],
    )
    shuffled = [r for r in everything if r not in ("R40", "R39")]
    play = Play(short, ScriptedRng(shuffles={("rebellion", 1): shuffled}))
    facts = play("p1", ac.AttemptConquest("FX2", use_spy=True))
    assert facts[0].spy_peek == ("R40", "R39", *shuffled[:3]) and facts[0].drawn == ("R40",)
    assert play.state.rebellion.reshuffles == 1 and play.state.rebellion.discard == ()


def test_a_physical_spy_peek_must_match_the_cards_then_drawn() -> None:
    play = Play(make(mode="physical", dominance={"SPY": "p1"}, available=["FX1"]), NoRng())
    play("p1", ac.AttemptConquest("FX1", use_spy=True, spy_peek=("4", "0")))
    play(None, ac.RecordDraw("3"), "E_CARD_NOT_IN_PILE", by="recorder")
    play(None, ac.RecordDraw("4"), by="recorder")
    Play(make(dominance={"SPY": "p1"}, available=["FX1"]))(
        "p1", ac.AttemptConquest("FX1", use_spy=True, spy_peek=("R01",)), "E_OUTCOME_NOT_ALLOWED"
    )


def test_a_declared_face_makes_a_faceless_tile_produce_by_the_reference_model() -> None:
    state = make(
        step="PLACE_PROVINCE",
        turn=TurnState(grow_choice="attack", pending_province_tile="FX1"),
        available=["FX2"],
    )
    face = Face("ART", ("CRA", "TRA", None))
    play = Play(state)
    facts = play("p1", ac.PlaceTile("province", "FX1", "D(0,0)", 0, face=face))
    assert facts[0].production_verified and facts[0].produced == {"CRA": 1, "ART": 1}
    assert play.state.board["D(0,0)"].face == face
    Play(state)("p1", ac.PlaceTile("province", "FX1", "D(0,0)", 0), "E_OUTCOME_REQUIRED")


def test_monument_contributions_are_declared_build_actions() -> None:
    play = Play(make(step=BUILD, players={"p1": {"knowledge": {"GOV": 3}}}))
    play("p1", ac.ContributeMonument("Pyramid", "Pyramid-1", {"GOV": 4}, 2), "E_INSUFFICIENT_KNOWLEDGE")
    play("p1", ac.ContributeMonument("Pyramid", "Pyramid-1", {"GOV": 3}, 2))
    assert play.p("p1").vp == 2 and play.state.monuments == {"Pyramid": (("Pyramid-1", "p1"),)}
    play("p1", ac.ContributeMonument("Pyramid", "Pyramid-2", {}, 0), "E_BUILD_LIMIT")


def test_a_knowledge_conquest_counts_as_an_attack_only_under_the_variant() -> None:
    start = dict(available=["FX1"], players={"p1": {"knowledge": {"CRA": 6}}})
    facts = Play(make(**start))("p1", ac.ConquerWithKnowledge("FX1", {"CRA": 6}, "ART"))  # type: ignore[arg-type]
    assert not facts[0].counts_as_attack
    play = Play(make(options={"knowledge_conquest_is_attack": True}, **start))  # type: ignore[arg-type]
    assert play("p1", ac.ConquerWithKnowledge("FX1", {"CRA": 6}, "ART"))[0].counts_as_attack


def test_per_game_statistics_count_attacks_failures_and_conquests() -> None:
    from domain.games.dominations import stats

    play = Play(
        make(
            available=["P03", "FX1"],
            players={
                "p1": {"influence": 2, "conquest_hand": ["C08"], "land_hand": ["L031"]},
                "p2": {"conquest_hand": ["C36", "C37", "C24"]},
            },
            rebellion_top=["R30", "R20", "R01"],
        )
    )
    play("p1", ac.AttemptConquest("P03"))
    play("p1", ac.AbandonConquest())
    play("p1", ac.PlaceTile("hand", "L031", "D(0,0)", 0))
    play("p1", ac.EndTurn())
    play("p2", ac.AttemptConquest("P03"))
    play("p2", ac.ResolveConquest(("C36", "C37", "C24"), "REL"))
    extra = stats.per_game(config(), play.facts, None)
    assert (
        extra["players"]["p1"]["failures"] == 1 and extra["players"]["p1"]["influence_lost_by_failures"] == 2
    )
    assert (
        extra["players"]["p2"]["successes"] == 1
        and extra["players"]["p2"]["strength_discarded_on_successes"] == 8
    )
    assert (
        extra["provinces"]["P03"]["attempts"] == 2 and extra["provinces"]["P03"]["most_rebellion_cards"] == 3
    )
    table = stats.tables([{"extra": extra}])[0]
    assert table["rows"][0]["province"] == "P03" and table["rows"][0]["conquests"] == 1


def test_knowledge_caps_lose_what_is_gained_above_them() -> None:
    play = Play(
        make(
            options={"knowledge_cap": '{"TRA": 2}'},
            extra_board=[("D(-1,0)", "L003", 0, None)],
            players={"p1": {"land_hand": ["L002"]}},
        )
    )
    play("p1", ac.PlaceTile("hand", "L002", "D(0,0)", 0))
    assert play.k("p1", "TRA") == 2 and play.k("p1", "SCI") == 2
    play("p1", ac.BaseEffect("p1", "base_card", "City", cap_changes={"TRA": 5}))
    play("p1", ac.BaseEffect("p1", "base_card", "Market", knowledge={"TRA": 9}))
    assert play.k("p1", "TRA") == 5
    with pytest.raises(RejectedError):
        RULESET.initial(config(options={"knowledge_cap": "[1]"}))


def test_setup_shuffles_follow_hmac_sha256_v1_with_the_deck_as_stream_and_ids_sorted() -> None:
    cfg = config()
    seed = bytes(range(32))
    facts = RULESET.setup(cfg, RULESET.initial(cfg), SeededRng(seed, cfg.game_id))
    shuffled = {f.deck: f.order for f in facts if isinstance(f, ev.DeckShuffled)}
    reference = SeededRng(seed, cfg.game_id)
    rebellion = tuple(f"R{i:02d}" for i in range(1, 41))
    assert shuffled["rebellion"] == reference.shuffle("rebellion", 0, rebellion)
    assert shuffled["conquest"] == reference.shuffle("conquest", 0, tuple(f"C{i:02d}" for i in range(1, 41)))
    assert shuffled["province-I"] == reference.shuffle("province-I", 0, ("FX1", "FX2", "P03"))


def test_catalog_mastery_costs_are_checked_and_conscription_may_be_domainless() -> None:
    doc = json.loads(DEFAULT_TEXT)
    for m in doc["masteries"]:
        m["cost"] = 3
    text = json.dumps(doc)
    state = make(options={"catalog": text}, step=BUILD, players={"p1": {"knowledge": {"GOV": 2, "ART": 3}}})
    play = Play(state)
    play("p1", ac.AcquireMastery("CON-1", (1, 0), {"GOV": 2, "ART": 1}), "E_WRONG_COST")
    state = make(
        options={"catalog": text, "conscription_domainless": True},
        step=BUILD,
        players={"p1": {"knowledge": {"GOV": 2, "ART": 3}}},
    )
    Play(state)("p1", ac.AcquireMastery("CON-1", (1, 0), {"GOV": 2, "ART": 1}))
    Play(state)("p1", ac.AcquireMastery("ARC-1", (1, 0), {"GOV": 2, "ART": 1}), "E_WRONG_COST")


def test_first_player_and_starting_values_options() -> None:
    cfg = config(
        options={"first_player": "p2", "starting_values": '{"influence": 1, "knowledge": {"CRA": 2}}'}
    )
    state = RULESET.initial(cfg)
    for fact in RULESET.setup(cfg, state, SeededRng(bytes(32), cfg.game_id)):
        state = RULESET.evolve(state, fact)
    assert state.active == "p2" and state.player("p1").influence == 1 and state.player("p3").k("CRA") == 2
    with pytest.raises(RejectedError):
        RULESET.initial(config(seats=2, options={"first_player": "p4"}))
    with pytest.raises(RejectedError):
        RULESET.initial(config(options={"starting_values": '{"vp": -1}'}))


def test_a_physical_short_pile_peek_merges_the_discard_under_the_reshuffle_variant() -> None:
    state = make(
        mode="physical",
        options={"spy_peek_short_pile": "reshuffle_first"},
        dominance={"SPY": "p1"},
        available=["FX1"],
        rebellion_draw=["4"],
        rebellion_discard=["0"] * 8 + ["1"] * 10 + ["2"] * 10 + ["3"] * 8 + ["4"] * 3,
    )
    play = Play(state, NoRng())
    play("p1", ac.AttemptConquest("FX1", use_spy=True, spy_peek=("4", "4")))
    assert len(play.state.rebellion.draw) == 40 and play.state.rebellion.reshuffles == 1
    play(None, ac.RecordDraw("4"), by="recorder")
    assert play.state.attack is not None and play.state.attack.rebellion_value == 7


def test_a_player_without_land_tiles_may_end_the_turn_after_a_failed_attack() -> None:
    play = Play(make(available=["FX1"], rebellion_top=["R40"]))
    play("p1", ac.AttemptConquest("FX1"))
    play("p1", ac.AbandonConquest())
    assert ac.EndTurn() in RULESET.legal_actions(play.state, "p1")
    play("p1", ac.EndTurn())
    assert play.state.active == "p2"


def test_printed_reward_domains_need_a_catalog_that_prints_them() -> None:
    with pytest.raises(RejectedError):
        RULESET.initial(config(options={"reward_knowledge_domain": "printed"}))
    doc = json.loads(DEFAULT_TEXT)
    for p in doc["provinces"]:
        p["reward"]["knowledge_domain"] = "GOV"
    options = {"reward_knowledge_domain": "printed", "catalog": json.dumps(doc)}
    play = Play(make(options=options, available=["FX1"], players={"p1": {"knowledge": {"CRA": 6}}}))
    play("p1", ac.ConquerWithKnowledge("FX1", {"CRA": 6}))
    assert play.k("p1", "GOV") == 2


def test_missionaires_rel_knowledge_and_negative_vp_variants() -> None:
    occupied = ["U(-1,0)", "U(0,-1)", "D(-1,0)", "D(0,-1)", "D(-1,-1)"]
    play = Play(
        make(
            options={"missionaires_reward": "rel_knowledge", "production_model": "declared"},
            board=[(c, f"L07{i}", 0, None) for i, c in enumerate(occupied)],
            players={"p1": {"land_hand": ["L050"], "masteries": ["Missionaires"]}},
        )
    )
    play("p1", ac.PlaceTile("hand", "L050", "U(0,0)", 0, {}))
    assert play.k("p1", "REL") == 1 and play.p("p1").influence == 0
    recuay = Available("P08", 1)
    start = dict(
        age=2,
        round=5,
        active="p3",
        step=BUILD,
        turn=TurnState(grow_choice="tile", grow_done=True),
        available=[recuay],
        players={"p1": {"vp": 4}, "p2": {"vp": 4}, "p3": {"vp": 1}},
    )
    play = Play(make(options={"vp_floor_zero": False, "rank_loss_tie": "tied_lose_others_amount"}, **start))  # type: ignore[arg-type]
    play("p3", ac.EndTurn())
    assert [p.vp for p in play.state.players] == [-1, -1, -4]


def test_permanent_effect_may_last_through_the_conquerors_own_tile() -> None:
    board = [("U(0,0)", "L001", 0, "p2")]
    start = dict(
        board=board,
        step="PLACE_PROVINCE",
        turn=TurnState(grow_choice="attack", pending_province_tile="P03"),
        available=["FX1"],
    )
    city = ac.CityActivation("U(0,0)", "p2", {"GOV": 1})
    tile = ac.PlaceTile("province", "P03", "D(0,0)", 0, {}, (), (city,))
    Play(make(**start))("p1", tile)  # type: ignore[arg-type]
    Play(make(options={"permanent_ends_after_tile": True}, **start))("p1", tile, "E_CITIES_BLOCKED")  # type: ignore[arg-type]


def _two_copies_of_a_reducing_mastery(stack: bool) -> State:
    doc = json.loads(DEFAULT_TEXT)
    for m in doc["masteries"]:
        if m["name"] == "Arcs de Triomphe":
            m["rebellion_draw_reduction"] = 1
    state = make(
        options={"catalog": json.dumps(doc), "mastery_effects_stack": stack},
        age=2,
        available=["P08"],
        rebellion_top=["R12", "R21"],
    )
    owned = (Owned("ARC-1", (1, 0)), Owned("ARC-2", (2, 0)))
    players = tuple(
        msgspec.structs.replace(p, masteries=owned) if p.seat == "p1" else p for p in state.players
    )
    return msgspec.structs.replace(state, players=players)


@pytest.mark.parametrize(("stack", "drawn"), [(False, 1), (True, 0)])
def test_copies_of_a_draw_reducing_mastery_reduce_once_unless_effects_stack(stack: bool, drawn: int) -> None:
    """1.5 and 4.2.3: two copies of a reduce-by-one mastery take one draw off P08's two,
    and both only with `mastery_effects_stack`."""
    facts = Play(_two_copies_of_a_reducing_mastery(stack))("p1", ac.AttemptConquest("P08"))
    assert len(facts[0].drawn) == drawn


def test_a_missing_reward_domain_cites_the_action_it_was_missing_from() -> None:
    state = make(available=["FX1"], players={"p1": {"knowledge": {"CRA": 6}}})
    knowledge = RULESET.decide(
        state, Command(ac.ConquerWithKnowledge("FX1", {"CRA": 6}), "p1", "seat"), NoRng()
    )
    assert isinstance(knowledge, Rejection) and knowledge.code == "E_REWARD_DOMAIN_REQUIRED"
    assert knowledge.rule == "dominations 4.2.9"
    play = Play(make(available=["FX1"], players={"p1": {"conquest_hand": ["C33"]}}, rebellion_top=["R01"]))
    play("p1", ac.AttemptConquest("FX1"))
    attack = RULESET.decide(play.state, Command(ac.ResolveConquest(("C33",)), "p1", "seat"), NoRng())
    assert isinstance(attack, Rejection) and attack.rule == "dominations 4.2.6"
