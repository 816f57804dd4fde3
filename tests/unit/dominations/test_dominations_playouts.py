"""Seeded random playouts under non-default variant options (Appendix A), with the contract
checks (legal versus probe, fold equals live, codec round trips) and the invariants of 2.9
(non-negative values, card conservation, `attack` exactly in step ATTACK) after every fact."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from domain.games.dominations import RULESET
from domain.games.dominations import events as ev
from domain.games.dominations.state import ATTACK, State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import PUBLIC, Command, GameConfig, Rejection, Seat, Viewer, resolve_options
from tests.contract import test_rulesets as contract

VARIANTS: list[dict[str, Any]] = [
    {"siege_timing": "before_draw", "corsaires_exchange": "any_knowledge_swap", "corsaires_per_turn": 0},
    {"spy_peek_allows_abort": True, "spy_peek_short_pile": "reshuffle_first", "mastery_effects_stack": True},
    {"eoa_dominance_before_base_scoring": True, "dominance_vp": '{"SPY": 3, "DOM-CRA": 2}'},
    {"land_refill": "fresh_hand", "first_player_rule": "rotate", "kept_cards_reset_at_age_end": True},
    {"retry_draw_rule": "printed_plus_failures", "influence_overspend": True, "discard_rule": "cards_only"},
    {"exhausted_deck": "reject_attempt", "conquest_hand_limit": 3, "post_reveal_buy_only_when_short": True},
    {
        "knowledge_price_domains": "single_domain",
        "discard_must_be_minimal": True,
        "allow_voluntary_abandon": True,
    },
    {"production_model": "declared", "placement_adjacency": "vertex", "eoa_province_order": "tile_number"},
    {"hegemon_module": True, "knowledge_cap": '{"CRA": 4, "SCI": 6}'},
    {"hegemon_module": True, "hegemon_count_scope": "this_age", "hegemon_token_vp": "5"},
    {"province_decks_shuffled": False, "influence_reset_each_age": True, "final_tie_rule": "most_influence"},
]


def invariants(state: State) -> None:
    for p in state.players:
        assert min(p.knowledge) >= 0 and p.influence >= 0
        assert p.vp >= 0 or not state.opt("vp_floor_zero")
    conquest = Counter(state.conquest.draw + state.conquest.discard)
    for p in state.players:
        conquest.update(p.conquest_hand)
    rebellion = Counter(state.rebellion.draw + state.rebellion.discard + state.rebellion_boxed)
    for a in state.available:
        rebellion.update(a.kept)
    if state.attack is not None:
        rebellion.update(state.attack.kept_taken + state.attack.drawn)
    if state.mode == "digital":
        assert sorted(conquest.elements()) == list(state.tables.conquest_ids)
        assert sorted(rebellion.elements()) == list(state.tables.rebellion_ids)
    else:
        assert sum(conquest.values()) == 40
        assert sum(rebellion.values()) == 40
    assert (state.attack is not None) == (state.step == ATTACK)


def play(options: dict[str, Any], i: int, mode: str) -> None:
    meta = RULESET.meta
    resolved = resolve_options(meta, options)
    assert not isinstance(resolved, Rejection), resolved
    seats = 2 + i % 3
    config = GameConfig(
        f"variant-{i}",
        "dominations",
        "physical" if mode == "physical" else "digital",
        tuple(Seat(s, s) for s in meta.seat_ids[:seats]),
        resolved,
    )
    rng: Rng = SeededRng(contract.seed_of(config.game_id), config.game_id) if mode == "digital" else NoRng()
    state = RULESET.initial(config)
    playout = contract.Playout(config, state, state)
    for fact in RULESET.setup(config, state, rng):
        playout.facts.append(fact)
        playout.state = RULESET.evolve(playout.state, fact)
    bot = random.Random(i)
    while RULESET.outcome(playout.state) is None:
        prompts = RULESET.pending(playout.state)
        seat = bot.choice(prompts).seat
        legal = RULESET.legal_actions(playout.state, seat)
        assert legal
        if playout.actions % 7 == 0:
            contract.check_state(RULESET, playout, seat, legal, rng)
        action = (
            RULESET.bot_choose(playout.state, seat, legal, bot.randrange)
            if i % 2
            else contract.choose(bot, legal)
        )
        result = RULESET.decide(playout.state, Command(action, seat, "seat" if seat else "recorder"), rng)
        assert not isinstance(result, Rejection), f"{action}: {result}"
        for fact in result:
            playout.facts.append(fact)
            playout.state = RULESET.evolve(playout.state, fact)
            invariants(playout.state)
        playout.actions += 1
        assert playout.actions < 5000
    contract.check_facts(RULESET, playout, one_by_one=True)


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_variant_playouts_keep_every_contract_and_invariant(index: int) -> None:
    for i in range(4):
        play(VARIANTS[index], index * 10 + i, "digital")
    play(VARIANTS[index], index * 10 + 5, "physical")


def test_default_playouts_keep_the_invariants_in_both_modes() -> None:
    for i in range(6):
        play({}, 100 + i, "digital")
        play({}, 200 + i, "physical")


def test_views_and_redacted_facts_hide_hands_orders_and_peeks() -> None:
    meta = RULESET.meta
    resolved = resolve_options(meta, {})
    assert not isinstance(resolved, Rejection)
    config = GameConfig(
        "views-1", "dominations", "digital", tuple(Seat(s, s) for s in meta.seat_ids[:3]), resolved
    )
    rng = SeededRng(contract.seed_of(config.game_id), config.game_id)
    state = RULESET.initial(config)
    facts = list(RULESET.setup(config, state, rng))
    for fact in facts:
        state = RULESET.evolve(state, fact)
    bot = random.Random(3)
    for _ in range(60):
        seat = RULESET.pending(state)[0].seat
        legal = RULESET.legal_actions(state, seat)
        result = RULESET.decide(
            state,
            Command(
                RULESET.bot_choose(state, seat, legal, bot.randrange), seat, "seat" if seat else "recorder"
            ),
            rng,
        )
        assert not isinstance(result, Rejection)
        for fact in result:
            facts.append(fact)
            state = RULESET.evolve(state, fact)
    p1 = state.player("p1")
    public = RULESET.view(state, PUBLIC)
    mine = RULESET.view(state, Viewer("seat", "p1"))
    assert public["players"]["p1"]["land_hand"] is None and mine["players"]["p1"]["land_hand"] == list(
        p1.land_hand
    )
    assert public["players"]["p1"]["conquest_hand"] is None
    assert "draw" not in public["conquest"] and "order" not in public["land_supply"]
    text = msgspec.json.encode(public).decode()
    assert all(f'"{tile}"' not in text for tile in p1.land_hand)
    for fact in facts:
        for viewer in (PUBLIC, Viewer("seat", "p2")):
            redacted = RULESET.redact(fact, viewer)
            assert RULESET.describe(redacted, config)
            if isinstance(redacted, ev.LandDealt) and redacted.seat != viewer.seat:
                assert redacted.tiles == ()
            if isinstance(redacted, ev.DeckShuffled):
                assert redacted.order == ()
