"""The event store on both backends: atomic appends, versions, idempotent retries, audits."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError

from domain.events import ActionRecorded, FactRecorded, GameCreated, GameFinished
from domain.rng import commitment
from domain.ruleset import RejectedError
from projections.games_index import GameIndex
from store import clock
from store.app import ADMIN, RECORDER, Access, Chronicle, NewGame, Recorded
from store.audit import audit_events
from store.errors import GameNotFound, Unauthorized, VersionConflict

SEED = bytes(range(32)).hex()

OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
]
FIRST_TURN = [
    {"kind": "MoveWorker", "piece": "green", "from": "top"},
    {"kind": "MoveWorker", "piece": "green", "from": "right"},
    {"kind": "MoveWorker", "piece": "green", "from": "left"},
    {"kind": "Build", "building": "camp"},
    {"kind": "EndTurn"},
]


def physical_game(app: Chronicle, *actions: dict[str, Any]) -> UUID:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    for action in actions:
        app.record(game_id, action, RECORDER)
    return game_id


def test_a_game_is_one_stream_that_starts_with_its_configuration(app: Chronicle) -> None:
    game_id = physical_game(app)
    events = app.stored_events(game_id)
    assert isinstance(events[0], GameCreated)
    assert events[0].ruleset == "province" and events[0].mode == "physical"
    assert [s["name"] for s in events[0].seats] == ["Ann", "Ben"]
    assert [e.originator_version for e in events] == list(range(1, len(events) + 1))


def test_an_action_and_its_facts_are_appended_together(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    before = app.game(game_id).version
    recorded = app.record(game_id, FIRST_TURN[0], RECORDER)
    events = app.stored_events(game_id, gt=before)
    assert isinstance(events[0], ActionRecorded)
    assert all(isinstance(e, FactRecorded) for e in events[1:])
    assert [e.fact for e in events[1:]] == recorded.facts
    assert recorded.version == before + len(events)


def test_a_rejected_action_appends_nothing(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    before = app.game(game_id).version
    with pytest.raises(RejectedError) as refused:
        app.record(game_id, {"kind": "Build", "building": "camp"}, RECORDER)
    assert refused.value.rejection.code == "no_worker_moved"
    assert app.game(game_id).version == before


def test_a_stale_expected_version_is_refused_and_appends_nothing(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    version = app.game(game_id).version
    app.record(game_id, FIRST_TURN[0], RECORDER, expected_version=version)
    after = app.game(game_id).version
    with pytest.raises(VersionConflict):
        app.record(game_id, FIRST_TURN[1], RECORDER, expected_version=version)
    assert app.game(game_id).version == after


def test_a_retried_action_id_returns_the_first_answer_and_appends_nothing(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    first = app.record(game_id, FIRST_TURN[0], RECORDER, action_id="tap-1")
    again = app.record(game_id, FIRST_TURN[0], RECORDER, action_id="tap-1")
    assert again.replayed and not first.replayed
    assert (again.seq, again.version, again.facts) == (first.seq, first.version, first.facts)
    assert app.game(game_id).version == first.version


def test_the_state_at_any_version_is_the_fold_of_the_events_up_to_it(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING, *FIRST_TURN)
    game = app.game(game_id)
    ruleset = game.ruleset
    state = ruleset.initial(game.config)
    for event in app.stored_events(game_id):
        if isinstance(event, FactRecorded):
            state = ruleset.evolve(state, ruleset.codec.decode_fact(event.fact))
        assert app.game(game_id, version=event.originator_version).state == state
    assert game.state == state


def test_a_second_process_on_the_same_store_sees_every_write(app: Chronicle, store_url: str) -> None:
    game_id = physical_game(app, *OPENING)
    other = Chronicle(store_url)
    try:
        assert other.game(game_id).version == app.game(game_id).version
        other.record(game_id, FIRST_TURN[0], RECORDER)
        assert app.game(game_id).version == other.game(game_id).version
        with pytest.raises(RejectedError):  # the first process's cached copy was brought up to date
            app.record(game_id, {"kind": "MoveWorker", "piece": "green", "from": "top"}, RECORDER)
    finally:
        other.close()


def count_reads(app: Chronicle) -> list[tuple[Any, ...]]:
    """The store reads of events `app` makes from now on, one entry each."""
    select_events = app.recorder.select_events
    reads: list[tuple[Any, ...]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append((*args, *kwargs.values()))
        return select_events(*args, **kwargs)

    app.recorder.select_events = counted  # type: ignore[method-assign]
    return reads


def test_recording_an_action_reads_nothing_when_this_process_wrote_the_game_last(
    app: Chronicle, store_url: str
) -> None:
    game_id = physical_game(app, *OPENING)
    reads = count_reads(app)
    for action in FIRST_TURN[:3]:
        app.record(game_id, action, RECORDER)
    assert reads == []  # decided on this process's copy; the store's versions guard the write
    with closing(Chronicle(store_url)) as cold:  # a process that never read the game: one read
        cold_reads = count_reads(cold)
        cold.record(game_id, FIRST_TURN[3], RECORDER)
        assert len([r for r in cold_reads if game_id in r]) == 1  # (its secrets are another stream)
    # another process wrote since: the stale copy's write is refused by the store, and the
    # action is decided again on the stored game (one read), then recorded
    recorded = app.record(game_id, FIRST_TURN[4], RECORDER)
    assert len(reads) == 1 and recorded.version == app.game(game_id).version
    assert [a.seq for a in app.game(game_id).actions[-2:]] == [recorded.seq - 1, recorded.seq]


def test_a_refusal_on_a_stale_copy_is_confirmed_on_the_stored_game(app: Chronicle, store_url: str) -> None:
    game_id = physical_game(app, *OPENING)
    app.record(game_id, FIRST_TURN[0], RECORDER)
    with closing(Chronicle(store_url)) as other:
        other.record(game_id, FIRST_TURN[1], RECORDER)
        version = other.game(game_id).version
    # legal only after the other process's move, illegal on this process's copy
    recorded = app.record(game_id, FIRST_TURN[2], RECORDER, expected_version=version)
    assert recorded.version > version


def test_a_cached_look_reads_nothing_and_a_stale_one_never_makes_a_wrong_write(
    app: Chronicle, store_url: str
) -> None:
    game_id = physical_game(app, *OPENING)
    reads = count_reads(app)
    looked = app.cached_game(game_id)
    assert reads == [] and looked.version == app.game(game_id).version
    assert len(reads) == 1  # `game` asks the store whether anyone appended since
    with closing(Chronicle(store_url)) as other:
        theirs = other.record(game_id, FIRST_TURN[0], RECORDER)
    stale = app.cached_game(game_id)
    assert stale.version == looked.version  # another process's write is not looked for ...
    with pytest.raises(RejectedError):  # ... but `record` decides on the stored game
        app.record(game_id, FIRST_TURN[0], RECORDER)
    assert app.game(game_id).version == theirs.version  # nothing of ours was appended
    with closing(Chronicle(store_url)) as fresh:  # a game this process never read: from the store
        assert fresh.cached_game(game_id).version == theirs.version


def test_concurrent_writers_never_lose_or_duplicate_an_action(app: Chronicle, store_url: str) -> None:
    game_id = physical_game(app, *OPENING)
    before = len(app.game(game_id).actions)
    other = Chronicle(store_url)
    moves = [FIRST_TURN[0], FIRST_TURN[1], FIRST_TURN[2]]

    def write(writer: Chronicle, action: dict[str, Any]) -> Recorded | str:
        try:
            return writer.record(game_id, action, RECORDER)
        except RejectedError as error:
            return error.rejection.code

    try:
        with ThreadPoolExecutor(max_workers=len(moves)) as pool:
            futures = [pool.submit(write, w, m) for w, m in zip([app, other, app], moves, strict=True)]
        answers = [f.result() for f in futures]  # a writer that raised fails the test here
    finally:
        other.close()
    codec = app.game(game_id).ruleset.codec
    acknowledged = {
        a.seq: codec.decode_action(move)
        for a, move in zip(answers, moves, strict=True)
        if isinstance(a, Recorded)
    }
    assert acknowledged, answers
    with closing(Chronicle(store_url)) as reader:  # read back from the store, not from a cache
        stored = {
            e.seq: codec.decode_action(e.action)
            for e in reader.stored_events(game_id)
            if isinstance(e, ActionRecorded) and e.seq > before
        }
    assert stored == acknowledged  # every acknowledged write stored once, nothing else stored
    assert audit_events(app.stored_events(game_id), None).clean


def test_an_unknown_game_is_not_found(app: Chronicle) -> None:
    with pytest.raises(GameNotFound):
        app.game(UUID(int=7))


def test_a_digital_game_reveals_its_seed_only_when_it_ends(app: Chronicle) -> None:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], server_seed=SEED), admin=True)
    game_id = UUID(created.game_id)
    assert created.commitment == commitment(bytes.fromhex(SEED))
    stored = app.stored_events(game_id)
    assert all(SEED not in repr(e) for e in stored)
    assert audit_events(stored, None).divergence is not None  # sealed: random outcomes unchecked
    assert audit_events(stored, app.seed_for_audit(app.game(game_id), ADMIN)).clean


def test_tokens_are_stored_hashed_and_grant_their_role(app: Chronicle) -> None:
    created = app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"))
    game_id = UUID(created.game_id)
    sealed = app.secrets(game_id)
    for token in [*created.seat_tokens.values(), created.recorder_token]:
        assert token not in repr(sealed.token_hashes)
    assert app.access(game_id, created.seat_tokens["B"]) == Access("seat", "B")
    assert app.access(game_id, created.recorder_token) == RECORDER


def test_the_game_index_lists_and_filters_games(app: Chronicle) -> None:
    physical_game(app)
    app.create_game(NewGame("province", ["Cleo", "Dan"], mode="physical", tags=["club"]))
    index = GameIndex(app)
    rows, total = index.search()
    assert total == 2 and rows[0].players == ["Cleo", "Dan"]
    assert index.search(player="ann")[1] == 1
    assert index.search(tag="club")[0][0].players == ["Cleo", "Dan"]
    assert index.search(status="finished")[1] == 0


def test_a_finished_game_is_closed_with_its_outcome(app: Chronicle, monkeypatch: pytest.MonkeyPatch) -> None:
    moment = datetime(2026, 5, 1, 12, 0, 7, tzinfo=UTC)
    monkeypatch.setattr(clock, "now", lambda: moment)
    game_id = _play_digital_to_the_end(app)
    game = app.game(game_id)
    last = app.stored_events(game_id)[-1]
    assert isinstance(last, GameFinished) and last.server_seed == SEED
    assert last.timestamp == moment
    assert game.outcome is not None and last.outcome["winners"] == list(game.outcome.winners)
    with pytest.raises(RejectedError) as refused:
        app.record(game_id, {"kind": "EndTurn"}, RECORDER)
    assert refused.value.rejection.code == "game_over"
    assert audit_events(app.stored_events(game_id), bytes.fromhex(SEED)).clean
    rows, _ = GameIndex(app).search(status="finished")
    assert [r.game_id for r in rows] == [str(game_id)]


def _play_digital_to_the_end(app: Chronicle) -> UUID:
    import random

    created = app.create_game(NewGame("province", ["Ann", "Ben"], server_seed=SEED), admin=True)
    game_id = UUID(created.game_id)
    bot = random.Random(3)
    for _ in range(5000):
        game = app.game(game_id)
        if game.outcome is not None:
            return game_id
        prompt = game.ruleset.pending(game.state)[0]
        action = bot.choice(game.ruleset.legal_actions(game.state, prompt.seat))
        app.record(game_id, game.ruleset.codec.encode(action), RECORDER, seat=prompt.seat)
    raise AssertionError("the game did not end")


def test_a_configuration_the_ruleset_cannot_play_is_refused_before_anything_is_stored(app: Chronicle) -> None:
    with pytest.raises(RejectedError) as refused:
        app.create_game(NewGame("dynasties", ["Ann", "Ben"], options={"map": '{"provinces": []}'}))
    assert refused.value.status == 400 and refused.value.rejection.code == "MAP_INVALID"
    assert GameIndex(app).search()[1] == 0


def test_the_public_cannot_record(app: Chronicle) -> None:
    game_id = physical_game(app, *OPENING)
    with pytest.raises(Unauthorized, match=r"^Recording an action needs a seat or recorder token\.$"):
        app.record(game_id, FIRST_TURN[0], Access("public"))


def test_an_unknown_or_malformed_action_is_refused_with_its_code_and_the_rules_it_breaks(
    app: Chronicle,
) -> None:
    game_id = physical_game(app, *OPENING)
    with pytest.raises(RejectedError) as unknown:
        app.record(game_id, {"kind": "Castle"}, RECORDER)
    with pytest.raises(RejectedError) as malformed:
        app.record(game_id, {"kind": "MoveWorker", "piece": 5}, RECORDER)
    spec = app.game(game_id).ruleset.meta.spec
    assert (unknown.value.rejection.code, unknown.value.rejection.rule) == ("unknown_action", spec)
    assert (malformed.value.rejection.code, malformed.value.rejection.rule) == ("invalid_payload", spec)


def test_an_action_is_stamped_with_the_moment_it_was_recorded(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = physical_game(app, *OPENING)
    moment = datetime(2026, 5, 1, 12, 0, 7, tzinfo=UTC)
    monkeypatch.setattr(clock, "now", lambda: moment)
    app.record(game_id, FIRST_TURN[0], RECORDER)
    (last,) = [e for e in app.stored_events(game_id) if isinstance(e, ActionRecorded)][-1:]
    assert last.timestamp == moment


def test_a_write_that_keeps_losing_the_race_is_refused_after_five_tries(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = physical_game(app, *OPENING)
    before = app.game(game_id).version
    tries: list[int] = []

    def always_taken(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        raise IntegrityError("another write took this version")

    async def always_taken_async(*args: Any, **kwargs: Any) -> Any:
        always_taken()

    monkeypatch.setattr(app, "_commit", always_taken)
    monkeypatch.setattr(app, "_commit_async", always_taken_async)
    too_busy = r"^The game is too busy to record this action now; try again\.$"
    with pytest.raises(VersionConflict, match=too_busy):
        app.record(game_id, FIRST_TURN[0], RECORDER)
    assert len(tries) == 5 and app.game(game_id).version == before
    with pytest.raises(VersionConflict, match=too_busy):
        asyncio.run(asyncio.wait_for(app.record_async(game_id, FIRST_TURN[0], RECORDER), 10))
    assert len(tries) == 10 and app.game(game_id).version == before
