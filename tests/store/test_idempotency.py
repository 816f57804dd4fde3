"""Client action ids on both stores: a retry answers the first result, an id names one action.

An `action_id` is bound to the seat and the action it first carried. The same id sent again
with the same seat and action is a retry (the first answer, `replayed`, nothing appended),
whatever version the game has reached since; with another seat or another action it is refused
(`action_id_reused`), never answered with someone else's result. Duplicate sends racing each
other are still one action: the loser of the race reads the stream again and finds its id.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import UUID

import pytest

from domain.events import ActionRecorded
from store.app import RECORDER, Access, Chronicle, NewGame, Recorded
from store.audit import audit_events
from store.errors import ActionIdReused, Forbidden, VersionConflict
from tests.store.test_store import FIRST_TURN, OPENING, physical_game

SENDERS = 8


def stored_action_ids(app: Chronicle, game_id: UUID) -> list[str | None]:
    return [e.action_id for e in app.stored_events(game_id) if isinstance(e, ActionRecorded)]


def digital_game(app: Chronicle) -> tuple[UUID, str]:
    """A digital Province game and the seat whose turn it is."""
    created = app.create_game(NewGame("province", ["Ann", "Ben"]))
    game_id = UUID(created.game_id)
    (prompt,) = app.prompts(game_id, RECORDER)
    return game_id, prompt["seat"]


def test_a_retry_with_a_stale_expected_version_still_answers_the_first_result(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    version = app.game(game_id).version
    first = app.record(game_id, FIRST_TURN[0], RECORDER, action_id="m1", expected_version=version)
    app.record(game_id, FIRST_TURN[1], RECORDER, action_id="m2")

    again = app.record(game_id, FIRST_TURN[0], RECORDER, action_id="m1", expected_version=version)

    assert again.replayed
    assert (again.seq, again.version, again.facts) == (first.seq, first.version, first.facts)
    assert stored_action_ids(app, game_id) == [None, None, "m1", "m2"]


def test_an_action_id_sent_again_with_another_action_is_refused_as_reused(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    app.record(game_id, FIRST_TURN[0], RECORDER, action_id="m1")
    before = app.game(game_id).version

    with pytest.raises(ActionIdReused) as refused:
        app.record(game_id, FIRST_TURN[1], RECORDER, action_id="m1")
    assert str(refused.value) == (
        "action_id 'm1' was recorded as action #3, a different action; choose a new action_id."
    )
    with pytest.raises(ActionIdReused):  # the same words in notation name another move too
        app.record(game_id, "move green right", RECORDER, action_id="m1")

    assert refused.value.status == 409 and refused.value.code == "action_id_reused"
    assert app.game(game_id).version == before


def test_an_action_id_is_bound_to_the_action_whether_sent_as_notation_or_as_an_object(
    app: Chronicle,
) -> None:
    game_id = physical_game(app, *OPENING)
    first = app.record(game_id, "move green top", RECORDER, action_id="m1")
    app.record(game_id, "move green right", RECORDER, action_id="m2")

    # the text is read against the table as it was when the action was first recorded
    as_text = app.record(game_id, "move green top", RECORDER, action_id="m1")
    as_object = app.record(game_id, FIRST_TURN[0], RECORDER, action_id="m1")

    assert as_text.replayed and as_object.replayed
    assert as_text.seq == as_object.seq == first.seq
    with pytest.raises(ActionIdReused):
        app.record(game_id, "move green left", RECORDER, action_id="m1")


def test_an_action_id_sent_again_for_another_seat_is_refused_as_reused(app: Chronicle) -> None:
    game_id, seat = digital_game(app)
    other = "B" if seat == "A" else "A"
    move = {"kind": "MoveWorker", "piece": "green", "from": "top"}
    app.record(game_id, move, Access("seat", seat), action_id="mine")
    before = app.game(game_id).version

    with pytest.raises(ActionIdReused) as refused:  # the other seat's token cannot collect this answer
        app.record(game_id, move, Access("seat", other), action_id="mine")
    assert str(refused.value) == (
        f"action_id 'mine' was recorded as action #1 for seat {seat}, not seat {other}; "
        "choose a new action_id."
    )
    with pytest.raises(ActionIdReused):  # nor the recorder naming the other seat
        app.record(game_id, move, RECORDER, seat=other, action_id="mine")
    with pytest.raises(Forbidden):  # a seat token naming another seat is refused as ever
        app.record(game_id, move, Access("seat", seat), seat=other, action_id="mine")

    assert app.game(game_id).version == before
    assert app.record(game_id, move, Access("seat", seat), action_id="mine").replayed
    assert app.record(game_id, move, RECORDER, seat=seat, action_id="mine").replayed


def test_a_stale_expected_version_without_a_stored_action_id_is_still_a_conflict(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    version = app.game(game_id).version
    app.record(game_id, FIRST_TURN[0], RECORDER, action_id="m1")

    with pytest.raises(VersionConflict):
        app.record(game_id, FIRST_TURN[1], RECORDER, action_id="m2", expected_version=version)

    assert stored_action_ids(app, game_id) == [None, None, "m1"]


def send_together(
    writers: list[Chronicle], game_id: UUID, action: dict[str, Any], action_id: str, version: int
) -> list[Recorded]:
    """`SENDERS` threads send the same request at once, spread over `writers`; every thread is
    joined and its answer (or its error, raised here) collected."""
    start = threading.Barrier(SENDERS, timeout=30)

    def send(sender: int) -> Recorded:
        start.wait()
        return writers[sender % len(writers)].record(
            game_id, action, RECORDER, action_id=action_id, expected_version=version
        )

    with ThreadPoolExecutor(SENDERS) as pool:
        futures = [pool.submit(send, sender) for sender in range(SENDERS)]
        return [future.result(timeout=60) for future in futures]


def test_concurrent_duplicate_sends_of_an_action_all_get_its_first_answer_and_store_it_once(
    app: Chronicle, store_url: str
) -> None:
    """Every round, eight threads (on two application objects, as two server processes
    would) send the same action with the same id and expected version at once."""
    game_id = physical_game(app, *OPENING)
    second = Chronicle(store_url)
    try:
        for round_number, action in enumerate(FIRST_TURN):
            version = app.game(game_id).version
            answers = send_together([app, second], game_id, action, f"tap-{round_number}", version)

            firsts = [a for a in answers if not a.replayed]
            assert len(firsts) == 1, answers
            first = firsts[0]
            assert first.seq == 3 + round_number
            for answer in answers:
                assert (answer.seq, answer.version, answer.facts) == (first.seq, first.version, first.facts)
    finally:
        second.close()

    assert stored_action_ids(app, game_id) == [None, None] + [f"tap-{n}" for n in range(len(FIRST_TURN))]
    assert audit_events(app.stored_events(game_id), None).clean


def dominion_game(app: Chronicle) -> UUID:
    """A digital Dominion game: its notation is read against the table ("play all treasures"
    names the Treasures in the hand)."""
    created = app.create_game(NewGame("dominion", ["Ann", "Ben"]))
    return UUID(created.game_id)


def test_a_retry_in_notation_is_read_against_the_table_the_action_was_first_recorded_at(
    app: Chronicle,
) -> None:
    game_id = dominion_game(app)
    app.record(game_id, "end", RECORDER)  # into the Buy phase
    first = app.record(game_id, "play all treasures", RECORDER, action_id="t1")
    assert first.facts, "the hand held Treasures to play"
    app.record(game_id, "end", RECORDER, action_id="t2")  # the hand is another one now

    again = app.record(game_id, "play all treasures", RECORDER, action_id="t1")
    stored = next(
        e for e in app.stored_events(game_id) if isinstance(e, ActionRecorded) and e.action_id == "t1"
    )
    as_object = app.record(game_id, dict(stored.action), RECORDER, action_id="t1")

    assert again.replayed and (again.seq, again.version) == (first.seq, first.version)
    assert as_object.replayed and as_object.seq == first.seq
    with pytest.raises(ActionIdReused):  # words that name no action there are another action
        app.record(game_id, "frobnicate", RECORDER, action_id="t1")


def test_a_retracted_action_s_retry_is_read_against_the_table_before_it(app: Chronicle) -> None:
    """A retraction drops the state kept before the action: the table is read from the store
    at the version before it instead."""
    game_id = dominion_game(app)
    app.record(game_id, "end", RECORDER)
    first = app.record(game_id, "play all treasures", RECORDER, action_id="t1")
    app.retract(game_id, RECORDER)

    again = app.record(game_id, "play all treasures", RECORDER, action_id="t1")

    assert again.replayed and again.seq == first.seq
    assert stored_action_ids(app, game_id).count("t1") == 1
