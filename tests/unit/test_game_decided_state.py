"""The Game aggregate records an action by taking the state `decide` reached (domain/ruleset.py
`decider`) instead of folding its facts a second time; a replay folds the stored facts with
`evolve`. Both routes must give the same state, after every action of seeded bot games of
every ruleset, physical tables included; and facts that are not the ones just decided are
folded as before."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from datetime import UTC, datetime
from functools import reduce
from typing import Any
from uuid import UUID

import pytest

from domain.game import Game
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import Actor, Command, GameConfig, Rejection, Seat, all_rulesets, decider, resolve_options

AT = datetime(2026, 1, 1, tzinfo=UTC)
FACT_FIELDS = [field.name for field in dataclasses.fields(Game.FactRecorded)]
ACTIONS = 250

CONFIGURATIONS: list[tuple[str, str, dict[str, Any]]] = [
    (r.meta.id, mode, {}) for r in all_rulesets() for mode in ("digital", "physical")
] + [
    ("dominion", "digital", {"expansions": "base,empires"}),
    ("dominion", "physical", {"expansions": "base,empires"}),
    ("dominion", "digital", {"base_edition": 2}),
]
IDS = [f"{r}-{m}{'-' + '-'.join(map(str, o.values())) if o else ''}" for r, m, o in CONFIGURATIONS]


def _start(ruleset_id: str, mode: str, options: dict[str, Any], seed: int) -> tuple[Game, Rng]:
    game_id = str(UUID(bytes=hashlib.sha256(f"decided {seed}".encode()).digest()[:16], version=4))
    for ruleset in all_rulesets():
        if ruleset.meta.id == ruleset_id:
            resolved = resolve_options(ruleset.meta, options)
            assert not isinstance(resolved, Rejection)
            seats = tuple(Seat(s, f"Player {s}") for s in ruleset.meta.seat_ids[: ruleset.meta.min_players])
            config = GameConfig(game_id, ruleset_id, mode, seats, resolved)  # type: ignore[arg-type]
            server_seed = hashlib.sha256(f"decided {seed}".encode()).digest()
            rng: Rng = SeededRng(server_seed, game_id) if mode == "digital" else NoRng()
            game = Game.start(config, commitment(server_seed), rng, AT)
            return game, rng
    raise LookupError(ruleset_id)


def _replayed(events: list[Any]) -> Game:
    game = reduce(lambda aggregate, event: event.mutate(aggregate), events, None)
    assert isinstance(game, Game)
    return game


@pytest.mark.parametrize(("ruleset_id", "mode", "options"), CONFIGURATIONS, ids=IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_state_decide_reached_is_the_state_the_stored_facts_fold_to(
    ruleset_id: str, mode: str, options: dict[str, Any], seed: int
) -> None:
    game, rng = _start(ruleset_id, mode, options, seed)
    ruleset = game.ruleset
    events = list(game.collect_events())
    folded = game.state
    bot = random.Random(seed)
    for _ in range(ACTIONS):
        if ruleset.outcome(game.state) is not None:
            break
        seat = bot.choice(ruleset.pending(game.state)).seat
        action = ruleset.bot_choose(game.state, seat, ruleset.legal_actions(game.state, seat), bot.randrange)
        by: Actor = "seat" if seat is not None else "recorder"
        command = Command(action, seat, by)
        facts = game.decide(command, rng)
        assert not isinstance(facts, Rejection), facts
        game.record(command, facts, AT)
        new = list(game.collect_events())
        events += new
        for event in new:
            if isinstance(event, Game.FactRecorded):
                folded = ruleset.evolve(folded, ruleset.codec.decode_fact(event.fact))
                # built as the dataclass builds it: the same fields, in the order it sets them
                assert list(vars(event)) == FACT_FIELDS and Game.FactRecorded(**vars(event)) == event
        assert game.state == folded
    replayed = _replayed(events)
    assert replayed.state == game.state
    assert replayed.actions == game.actions  # each action's last version and boundaries


def test_facts_other_than_the_ones_decided_are_folded() -> None:
    """A caller that records facts it did not just get from `decide` (copies, or none decided
    since) gets them folded; only the very facts decided against this state are taken as is."""
    game, rng = _start("dominion", "digital", {}, 3)
    ruleset = game.ruleset
    seat = ruleset.pending(game.state)[0].seat
    command = Command(ruleset.legal_actions(game.state, seat)[0], seat, "seat")
    decided = decider(ruleset)(game.state, command, rng)
    assert not isinstance(decided, Rejection)
    facts, reached = decided
    copies = [ruleset.codec.decode_fact(ruleset.codec.encode(f)) for f in facts]
    game.record(command, copies, AT)  # nothing decided on the aggregate: folded
    assert game.state == reached
    seat = ruleset.pending(game.state)[0].seat
    command = Command(ruleset.legal_actions(game.state, seat)[0], seat, "seat")
    first = game.decide(command, rng)
    assert not isinstance(first, Rejection)
    before = game.state
    copies = [ruleset.codec.decode_fact(ruleset.codec.encode(f)) for f in first]
    game.record(command, copies, AT)  # equal facts, not the same ones: folded
    assert game.state == reduce(ruleset.evolve, first, before)
    assert game._decided is None


def test_a_copy_of_a_game_records_without_touching_the_original() -> None:
    """The store decides on a copy of its cached game (store/core.py `_cached_copy`): the copy
    shares the immutable state and copies the bookkeeping, so what it records, and what it
    left pending or decided, never shows in the original. The checkpoints are shared: the
    copy's action adds the entry the original's next action would add alike."""
    import copy

    game, rng = _start("province", "digital", {}, 4)
    ruleset = game.ruleset
    for _ in range(6):
        seat = ruleset.pending(game.state)[0].seat
        command = Command(ruleset.legal_actions(game.state, seat)[0], seat, "recorder")
        facts = game.decide(command, rng)
        assert not isinstance(facts, Rejection)
        game.record(command, facts, AT, action_id=f"a{game.version}")
    seat = ruleset.pending(game.state)[0].seat
    command = Command(ruleset.legal_actions(game.state, seat)[0], seat, "recorder")
    assert not isinstance(game.decide(command, rng), Rejection)  # decided, not yet recorded
    before = (game.version, game.state, list(game.actions), dict(game.action_ids), list(game.live))
    checkpoints, pending = dict(game.checkpoints), len(game.pending_events)

    clone = copy.deepcopy(game)
    assert type(clone) is Game and clone.state is game.state and clone.pending_events == []
    assert clone._decided is None and game._decided is not None
    facts = clone.decide(command, rng)
    assert not isinstance(facts, Rejection)
    clone.record(command, facts, AT, action_id="copied")

    assert (game.version, game.state, game.actions, game.action_ids, game.live) == before
    assert len(game.pending_events) == pending
    # the checkpoints are shared: the clone's action added the one the original would add next
    assert game.checkpoints == {**checkpoints, len(game.actions) + 1: game.state}
    assert clone.version == game.version + 1 + len(facts) and clone.result_of("copied") is not None
    assert game.result_of("copied") is None


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.meta.id)
def test_every_ruleset_hands_back_the_state_its_decide_folded(ruleset: Any) -> None:
    """Each built-in ruleset's `decide` folds every fact as it emits it (a rule reads the
    state the facts so far lead to): recording then takes that state rather than folding the
    facts a second time (`decider`)."""
    assert decider(ruleset) is ruleset.decide_state
