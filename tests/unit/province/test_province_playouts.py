"""Seeded bot games under random mixes of variant options (province.md 10.4), in both modes.

Each game runs to its end; on a sample of states every listed legal action must be accepted
and every other probe action refused, the invariants of 2.4 hold after every input, and the
facts must fold back into the live state.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from domain.games.province import RULESET
from domain.games.province.state import State
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Actor, Command, Rejection
from tests.unit.province.scenarios import assert_invariants, config

GAMES = 24
SAMPLE_EVERY = 7


def random_variants(bot: random.Random) -> dict[str, Any]:
    chosen: dict[str, Any] = {}
    for option in RULESET.meta.options:
        if option.choices is not None:
            chosen[option.name] = bot.choice(option.choices)
        elif option.minimum is not None:
            chosen[option.name] = bot.choice((option.default, 35, option.minimum + 10))
    return chosen


def assert_legal_matches_probes(state: State, seat: str | None, legal: tuple[Any, ...], rng: Rng) -> None:
    by: Actor = "seat" if seat is not None else "recorder"
    for action in RULESET.probe_actions(state):
        accepted = not isinstance(RULESET.decide(state, Command(action, seat, by), rng), Rejection)
        assert accepted == (action in legal), (action, state.phase, state.awaiting)


@pytest.mark.parametrize("game", range(GAMES))
def test_bot_games_under_mixed_variants_keep_legal_actions_and_decide_in_step(game: int) -> None:
    bot = random.Random(game)
    mode = "physical" if game % 3 == 0 else "digital"
    cfg = config(mode, random_variants(bot), game_id=f"mixed-{game}")
    seed = hashlib.sha256(cfg.game_id.encode()).digest()
    rng: Rng = SeededRng(seed, cfg.game_id) if mode == "digital" else NoRng()
    start = RULESET.initial(cfg)
    facts = list(RULESET.setup(cfg, start, rng))
    state = start
    for fact in facts:
        state = RULESET.evolve(state, fact)
    steps = 0
    while RULESET.outcome(state) is None:
        (prompt,) = RULESET.pending(state)
        legal = RULESET.legal_actions(state, prompt.seat)
        assert legal and {type(a).__name__ for a in legal} == set(prompt.kinds)
        if prompt.seat is None or steps % SAMPLE_EVERY == 0:
            assert_legal_matches_probes(state, prompt.seat, legal, rng)
        kind = bot.choice(sorted({type(a).__name__ for a in legal}))
        action = bot.choice([a for a in legal if type(a).__name__ == kind])
        by: Actor = "seat" if prompt.seat is not None else "recorder"
        outcome = RULESET.decide(state, Command(action, prompt.seat, by), rng)
        assert not isinstance(outcome, Rejection), outcome
        for fact in outcome:
            facts.append(fact)
            state = RULESET.evolve(state, fact)
        assert_invariants(state)
        steps += 1
        assert steps < 30_000
    folded = start
    for fact in facts:
        folded = RULESET.evolve(folded, fact)
    assert folded == state
    assert state.supply() >= 0 and all(p.coins >= 0 and p.labor >= 0 for p in state.players)
