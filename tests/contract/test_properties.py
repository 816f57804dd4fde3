"""Algebraic properties of every ruleset, over states that seeded playouts reach, with hypothesis
choosing the game, how far it is played and when the table takes actions back:

- the notation prints every legal action so that it parses back to the same action;
- folding the facts of the live actions (those no correction undid) from the initial state
  gives the game's state, and so does replaying its stored events, at any version;
- replaying the live actions from scratch with the same seed derives the same facts (a
  correction never re-rolls).

Examples are derandomized so a CI run is repeatable; `CHRONICLE_PROPERTY_EXAMPLES=N` asks
for N examples per configuration (default 8) for a deeper run.
"""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import reduce
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from domain.game import Game
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import (
    Actor,
    Command,
    GameConfig,
    Rejection,
    Ruleset,
    Seat,
    get_ruleset,
    resolve_options,
)

AnyRuleset = Ruleset[Any, Any, Any]
EXAMPLES = int(os.environ.get("CHRONICLE_PROPERTY_EXAMPLES", "8"))
AT = datetime(2026, 1, 1, tzinfo=UTC)
MAX_STEPS = 120

CONFIGURATIONS: list[tuple[str, str, dict[str, Any]]] = [
    (ruleset, mode, {})
    for ruleset in ("province", "dominion", "dynasties", "dominations")
    for mode in ("digital", "physical")
] + [
    ("dominion", "digital", {"expansions": "base,empires"}),
    ("dominion", "physical", {"expansions": "base,empires"}),
    ("dominion", "digital", {"base_edition": 2}),
    ("dominion", "physical", {"base_edition": 2}),
]
IDS = [
    f"{r}-{m}{'-empires' if o.get('expansions') else ''}{'-2e' if o.get('base_edition') else ''}"
    for r, m, o in CONFIGURATIONS
]

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # a seed does not shrink to a simpler game
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass
class Played:
    ruleset: AnyRuleset
    config: GameConfig
    rng: Rng
    game: Game
    events: list[Any] = field(default_factory=list)
    states: list[tuple[int, Any]] = field(default_factory=list)  # (version, state) after each step


def _config(ruleset: AnyRuleset, mode: str, options: dict[str, Any], seed: int) -> GameConfig:
    meta = ruleset.meta
    count = meta.min_players + seed % (meta.max_players - meta.min_players + 1)
    resolved = resolve_options(meta, options)
    assert not isinstance(resolved, Rejection)
    check = getattr(ruleset, "check_config", None)
    while True:
        config = GameConfig(
            str(UUID(bytes=hashlib.sha256(f"property {seed}".encode()).digest()[:16], version=4)),
            meta.id,
            "physical" if mode == "physical" else "digital",
            tuple(Seat(s, f"Player {s}") for s in meta.seat_ids[:count]),
            resolved,
        )
        if check is None or check(config) is None or count == meta.min_players:
            return config
        count -= 1


def play(ruleset_id: str, mode: str, options: dict[str, Any], seed: int, steps: int, undo: float) -> Played:
    """A seeded bot game on the `Game` aggregate, `steps` actions long at most, the table
    retracting the last one or two live actions with probability `undo` after each."""
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None
    config = _config(ruleset, mode, options, seed)
    server_seed = hashlib.sha256(f"property {seed}".encode()).digest()
    rng: Rng = SeededRng(server_seed, config.game_id) if mode == "digital" else NoRng()
    game = Game.start(config, commitment(server_seed), rng, AT)
    played = Played(ruleset, config, rng, game, list(game.collect_events()))
    bot = random.Random(seed)
    for _ in range(steps):
        if game.outcome is not None or ruleset.outcome(game.state) is not None:
            break
        if game.live and bot.random() < undo:
            plan = game.plan_retraction(min(len(game.live), 1 + bot.randrange(2)), "recorder", None)
            assert not isinstance(plan, Rejection), plan
            game.retract(plan, "recorder", None, "", AT)
        else:
            seat = bot.choice(ruleset.pending(game.state)).seat
            legal = ruleset.legal_actions(game.state, seat)
            action = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
            by: Actor = "seat" if seat is not None else "recorder"
            command = Command(action, seat, by)
            facts = game.decide(command, rng)
            assert not isinstance(facts, Rejection), facts
            game.record(command, facts, AT)
        played.events += game.collect_events()
        played.states.append((game.version, game.state))
    return played


def live_facts(played: Played) -> list[Any]:
    """The setup facts, then the facts of each action no correction undid, in order."""
    codec = played.ruleset.codec
    undone = played.game.retracted_versions()
    return [
        codec.decode_fact(e.fact)
        for e in played.events
        if isinstance(e, Game.FactRecorded) and e.originator_version not in undone
    ]


def replayed(events: list[Any]) -> Game:
    """The aggregate rebuilt from its events, as the store rebuilds it."""
    game = reduce(lambda aggregate, event: event.mutate(aggregate), events, None)
    assert isinstance(game, Game)
    return game


@pytest.mark.parametrize(("ruleset_id", "mode", "options"), CONFIGURATIONS, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**20), steps=st.integers(0, MAX_STEPS))
def test_every_legal_action_prints_in_notation_that_parses_back_to_it(
    ruleset_id: str, mode: str, options: dict[str, Any], seed: int, steps: int
) -> None:
    played = play(ruleset_id, mode, options, seed, steps, undo=0.0)
    ruleset, state = played.ruleset, played.game.state
    prompted = sorted({p.seat for p in ruleset.pending(state)}, key=str)
    assert prompted or ruleset.outcome(state) is not None
    for seat in prompted:
        for action in ruleset.legal_actions(state, seat):
            text = ruleset.format_action(action)
            assert ruleset.parse_notation(text, state) == action, f"{text!r} does not parse back to {action}"


@pytest.mark.parametrize(("ruleset_id", "mode", "options"), CONFIGURATIONS, ids=IDS)
@SETTINGS
@given(
    seed=st.integers(0, 2**20),
    steps=st.integers(1, MAX_STEPS),
    undo=st.sampled_from([0.0, 0.05, 0.2]),
    at=st.floats(0, 1),
)
def test_folding_the_live_facts_equals_replaying_the_stream_and_replay_never_rerolls(
    ruleset_id: str, mode: str, options: dict[str, Any], seed: int, steps: int, undo: float, at: float
) -> None:
    played = play(ruleset_id, mode, options, seed, steps, undo)
    ruleset, game = played.ruleset, played.game
    facts = live_facts(played)
    folded = reduce(ruleset.evolve, facts, ruleset.initial(played.config))
    assert folded == game.state
    assert replayed(played.events).state == game.state
    if played.states:  # any earlier version replays to the state the game had then
        version, state = played.states[int(at * (len(played.states) - 1))]
        assert replayed(played.events[:version]).state == state

    # The live actions decided afresh, in order, with the same seed, derive the same facts.
    undone = game.retracted_versions()
    again = list(ruleset.setup(played.config, ruleset.initial(played.config), played.rng))
    state = reduce(ruleset.evolve, again, ruleset.initial(played.config))
    for event in played.events:
        if isinstance(event, Game.ActionRecorded) and event.originator_version not in undone:
            command = Command(ruleset.codec.decode_action(event.action), event.seat, event.by)  # type: ignore[arg-type]
            derived = ruleset.decide(state, command, played.rng)
            assert not isinstance(derived, Rejection), derived
            again += derived
            state = reduce(ruleset.evolve, derived, state)
    assert again == facts
    assert state == game.state
