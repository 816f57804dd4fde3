"""Corrections at the table (domain/corrections.py), through the store on both backends.

Retraction at every kind of boundary: own action, another seat's, across a roll, across a
reveal, approved and refused; a retraction never re-rolls; and a property: for random
playouts with random retractions, folding the stored events gives the state that replaying
only the live actions gives, and the audit stays clean.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any
from uuid import UUID

import pytest

from domain.events import ActionRecorded, ActionsRetracted
from domain.rng import SeededRng
from domain.ruleset import Command, GameConfig, RejectedError, Seat, get_ruleset, resolve_options
from store.app import RECORDER, Access, Chronicle, NewGame
from store.audit import audit_events
from store.errors import VersionConflict

ANN, BEN = Access("seat", "A"), Access("seat", "B")
OPENING = ["first A white", "reveal workers2"]


def physical(app: Chronicle, *moves: str) -> UUID:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    for move in [*OPENING, *moves]:
        app.record(game_id, move, RECORDER)
    return game_id


def digital(app: Chronicle, seed: int) -> UUID:
    server_seed = hashlib.sha256(f"corrections:{seed}".encode()).hexdigest()
    created = app.create_game(NewGame("province", ["Ann", "Ben"], server_seed=server_seed), admin=True)
    return UUID(created.game_id)


def refusal(call: Any) -> tuple[str, str]:
    with pytest.raises(RejectedError) as refused:
        call()
    return refused.value.rejection.code, refused.value.rejection.rule


def test_the_recorder_undoes_a_mistaken_build_and_the_game_goes_on(app: Chronicle) -> None:
    game_id = physical(app, "move green top", "move green right", "move green left")
    before_build = app.game(game_id).state
    app.record(game_id, "build camp", RECORDER)
    done = app.retract(game_id, RECORDER, reason="meant the Mill")
    assert done.retracted == [6]
    game = app.game(game_id)
    assert game.state == before_build and game.live == [1, 2, 3, 4, 5]
    app.record(game_id, "build mill", RECORDER)
    app.record(game_id, "end", RECORDER)
    assert app.game(game_id).state.player("A").built == ("mill",)
    shown = app.read_events(game_id, RECORDER)
    assert [e.retracted for e in shown if e.type == "action"] == [False] * 5 + [True, False, False]
    assert any(e.type == "retraction" and "meant the Mill" in e.text for e in shown)
    assert audit_events(app.stored_events(game_id), None).clean


def test_a_seat_retracts_its_own_plain_action_at_once(app: Chronicle) -> None:
    game_id = physical(app)
    app.record(game_id, "move green top", ANN)
    assert app.retract(game_id, ANN).retracted == [3]
    assert app.game(game_id).state.turn_state.moves == 0


def test_a_seat_cannot_retract_another_seats_action_without_approval(app: Chronicle) -> None:
    game_id = physical(app, "move green top", "end")
    app.record(game_id, "move green right", BEN)
    version = app.game(game_id).version
    assert refusal(lambda: app.retract(game_id, BEN, count=2)) == (
        "retraction_crosses_another_seat",
        "corrections 2a",
    )
    assert refusal(lambda: app.retract(game_id, ANN)) == ("retraction_crosses_another_seat", "corrections 2a")
    assert app.game(game_id).version == version


def test_every_other_seat_approving_carries_out_a_pending_retraction(app: Chronicle) -> None:
    game_id = physical(app, "move green top", "end")
    app.record(game_id, "move green right", BEN)
    pending = app.retract(game_id, BEN, count=2, ask_approval=True, reason="wrong piece")
    assert pending.retracted == [] and pending.waiting_for == ["A"]
    assert app.game(game_id).live == [1, 2, 3, 4, 5]
    assert refusal(lambda: app.answer_retraction(game_id, pending.request_id or "", BEN, True))[0] == (
        "not_an_approver"
    )
    done = app.answer_retraction(game_id, pending.request_id or "", ANN, True)
    assert done.retracted == [4, 5] and app.game(game_id).live == [1, 2, 3]
    assert audit_events(app.stored_events(game_id), None).clean


def test_a_declined_or_lapsed_request_retracts_nothing(app: Chronicle) -> None:
    game_id = physical(app, "move green top", "end")
    app.record(game_id, "move green right", BEN)
    declined = app.retract(game_id, BEN, count=2, ask_approval=True)
    app.answer_retraction(game_id, declined.request_id or "", ANN, False)
    assert app.game(game_id).live == [1, 2, 3, 4, 5]
    lapsed = app.retract(game_id, BEN, count=2, ask_approval=True)
    app.record(game_id, "move green right", BEN)  # play went on
    code, rule = refusal(lambda: app.answer_retraction(game_id, lapsed.request_id or "", ANN, True))
    assert (code, rule) == ("no_pending_retraction", "corrections 4")
    assert app.game(game_id).live == [1, 2, 3, 4, 5, 6]


def test_setup_and_a_finished_game_cannot_be_retracted(app: Chronicle) -> None:
    game_id = physical(app)
    assert refusal(lambda: app.retract(game_id, RECORDER, count=3)) == ("nothing_to_retract", "corrections 1")


def _script_to(fact_type: str) -> tuple[UUID, str, list[tuple[Any, str | None]]]:
    """Find, with the rules alone, a seeded digital game in which an action causes a fact of
    `fact_type`: the game's id and seed name, and the actions up to that one. A bot that
    mostly builds gets Harbors (and so ship tosses) early."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {})
    assert isinstance(options, dict)
    for attempt in range(100, 200):
        game_id = UUID(int=attempt)
        config = GameConfig(
            str(game_id), "province", "digital", (Seat("A", "Ann"), Seat("B", "Ben")), options
        )
        rng = SeededRng(_seed(attempt), config.game_id)
        state = ruleset.initial(config)
        for fact in ruleset.setup(config, state, rng):
            state = ruleset.evolve(state, fact)
        bot, script = random.Random(attempt), []
        while ruleset.outcome(state) is None:
            seat = ruleset.pending(state)[0].seat
            legal = ruleset.legal_actions(state, seat)
            builds = [a for a in legal if type(a).__name__ == "Build"]
            action = bot.choice(builds if builds and bot.random() < 0.9 else legal)
            facts = ruleset.decide(state, Command(action, seat, "seat"), rng)
            assert isinstance(facts, list | tuple)
            for fact in facts:
                state = ruleset.evolve(state, fact)
            script.append((action, seat))
            if any(type(f).__name__ == fact_type for f in facts) and ruleset.outcome(state) is None:
                return game_id, str(attempt), script
    raise AssertionError(f"no {fact_type} in 100 games")


def _seed(attempt: int) -> bytes:
    return hashlib.sha256(f"corrections:{attempt}".encode()).digest()


def _first_action_with(app: Chronicle, fact_type: str) -> tuple[UUID, str]:
    """Record, through the store, a game up to the first action that causes `fact_type`."""
    game_id, attempt, script = _script_to(fact_type)
    new = NewGame("province", ["Ann", "Ben"], server_seed=_seed(int(attempt)).hex())
    app.create_game(new, admin=True, game_id=game_id)
    codec = app.game(game_id).ruleset.codec
    for action, seat in script:
        app.record(game_id, codec.encode(action), Access("seat", seat))
    seat = script[-1][1]
    assert seat is not None
    return game_id, seat


def test_a_retraction_across_a_roll_is_refused_without_approval_and_never_rerolls(app: Chronicle) -> None:
    game_id, seat = _first_action_with(app, "ShipsTossed")
    other = "B" if seat == "A" else "A"
    tossed = app.read_events(game_id, RECORDER)
    last_action = [e for e in app.stored_events(game_id) if isinstance(e, ActionRecorded)][-1].action
    code, rule = refusal(lambda: app.retract(game_id, Access("seat", seat)))
    assert (code, rule) == ("retraction_crosses_random_outcome", "corrections 2b")
    pending = app.retract(game_id, Access("seat", seat), ask_approval=True)
    app.answer_retraction(game_id, pending.request_id or "", Access("seat", other), True)
    again = app.record(game_id, last_action, Access("seat", seat))
    first_toss = next(e.data for e in reversed(tossed) if e.data.get("type") == "ShipsTossed")
    assert next(f for f in again.facts if f["type"] == "ShipsTossed") == first_toss
    assert audit_events(
        app.stored_events(game_id), app.seed_for_audit(app.game(game_id), Access("admin"))
    ).clean


def test_a_retraction_across_a_reveal_is_refused_without_approval(app: Chronicle) -> None:
    game_id, seat = _first_action_with(app, "GoalRevealed")
    code, rule = refusal(lambda: app.retract(game_id, Access("seat", seat)))
    assert (code, rule) == ("retraction_crosses_reveal", "corrections 2c")
    assert app.retract(game_id, RECORDER).retracted  # the table may, having agreed


@pytest.mark.parametrize("seed", range(3))
def test_random_retractions_leave_the_state_of_the_live_actions_and_a_clean_audit(
    app: Chronicle, store_url: str, seed: int
) -> None:
    game_id = digital(app, 100 + seed)
    bot = random.Random(seed)
    for _ in range(150):
        game = app.game(game_id)
        if game.outcome is not None:
            break
        if game.live and bot.random() < 0.15:
            app.retract(game_id, RECORDER, count=bot.randint(1, min(3, len(game.live))))
            continue
        seat = game.ruleset.pending(game.state)[0].seat
        action = bot.choice(game.ruleset.legal_actions(game.state, seat))
        app.record(game_id, game.ruleset.codec.encode(action), RECORDER, seat=seat)

    fresh = Chronicle(store_url)  # no cache: fold every stored event from the start
    try:
        folded = fresh.game(game_id)
        stored = fresh.stored_events(game_id)
        seed_bytes = fresh.seed_for_audit(folded, Access("admin"))
    finally:
        fresh.close()
    assert any(isinstance(e, ActionsRetracted) for e in stored)
    ruleset, config = folded.ruleset, folded.config
    assert seed_bytes is not None
    rng = SeededRng(seed_bytes, config.game_id, config.client_seed)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, rng):
        state = ruleset.evolve(state, fact)
    live = set(folded.live)
    for event in stored:
        if isinstance(event, ActionRecorded) and event.seq in live:
            action = ruleset.codec.decode_action(event.action)
            for fact in ruleset.decide(state, Command(action, event.seat, "recorder"), rng):  # type: ignore[union-attr]
                state = ruleset.evolve(state, fact)
    assert state == folded.state
    assert audit_events(stored, seed_bytes).clean


def test_an_undo_that_expects_an_older_version_undoes_nothing(app: Chronicle) -> None:
    game_id = physical(app, "move green top")
    seen = app.game(game_id).version
    app.record(game_id, "move green right", RECORDER)  # entered by someone else meanwhile
    with pytest.raises(VersionConflict):
        app.retract(game_id, RECORDER, expected_version=seen)
    assert app.game(game_id).live == [1, 2, 3, 4]
