"""The server's commits on SQLite by a writer process (store/writer_process.py): every append
is answered with its own notification ids once committed, a clash refuses that append alone,
an append the process did not answer fails as unknown (never as a clash), and closing the store
ends the process after its answers."""

from __future__ import annotations

import asyncio
import io
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID, uuid4

import msgspec
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError, StoredEvent
from litestar.testing import TestClient

from api.app import create_app
from domain.events import ActionRecorded
from store.app import RECORDER, Chronicle, NewGame, Recorded
from store.audit import audit_events
from store.group_commit import GroupCommitSQLiteRecorder
from store.writer_process import ANSWER_WAIT, Row, WriterProcess, WriterStopped, _error, _frame, serve

T = TypeVar("T")
OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
]


def on_a_loop(work: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(work, 20))


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/writer.sqlite3"


@pytest.fixture
def app(url: str) -> Iterator[Chronicle]:
    with closing(Chronicle(url, writer_process=True)) as chronicle:
        assert chronicle.writer is not None
        yield chronicle


def events(stream: UUID, *versions: int) -> list[Row]:
    return [(stream.hex, v, "test:Event", b"{}") for v in versions]


def served(url: str, batches: list[Any]) -> list[Any]:
    """What a writer answers to `batches`, sent at once down a pipe it reads to its end."""
    source, into = os.pipe()
    os.write(into, b"".join(_frame(msgspec.msgpack.encode(b)) for b in batches))
    os.close(into)
    sink = io.BytesIO()
    try:
        serve(url, source, sink)
    finally:
        os.close(source)
    answers, data = [], sink.getvalue()
    while data:
        size = int.from_bytes(data[:4], "little")
        answers.append(msgspec.msgpack.decode(data[4 : 4 + size]))
        data = data[4 + size :]
    return answers


def test_actions_recorded_on_an_event_loop_are_committed_by_a_process_of_their_own(app: Chronicle) -> None:
    new = NewGame("province", ["Ann", "Ben"], mode="physical")
    games = [UUID(app.create_game(new).game_id) for _ in range(6)]
    writers: set[int] = set()

    async def table(game_id: UUID) -> list[Recorded]:
        recorded = []
        for action in OPENING:
            recorded.append(await app.record_async(game_id, action, RECORDER))
            assert app.writer is not None and app.writer.process is not None
            writers.add(app.writer.process.pid)
        return recorded

    async def tables() -> list[list[Recorded]]:
        return list(await asyncio.gather(*(table(g) for g in games)))

    answers = on_a_loop(tables())
    assert len(writers) == 1 and os.getpid() not in writers
    for game_id, recorded in zip(games, answers, strict=True):
        stored = app.stored_events(game_id)
        assert [e.seq for e in stored if isinstance(e, ActionRecorded)] == [r.seq for r in recorded] == [1, 2]
        assert stored[-1].originator_version == recorded[-1].version
        assert audit_events(stored, None).clean


def test_each_append_is_answered_with_the_notification_ids_it_was_stored_at(app: Chronicle) -> None:
    writer, one, two = app.writer, uuid4(), uuid4()
    assert writer is not None

    async def appends() -> list[Any]:
        assert writer.serves(asyncio.get_running_loop())
        return list(await asyncio.gather(writer.submit(events(one, 1, 2)), writer.submit(events(two, 1))))

    first, second = on_a_loop(appends())
    stored = app.recorder.select_notifications(1, 100)
    positions = {(n.originator_id, n.originator_version): n.id for n in stored}
    assert first == [positions[(one, 1)], positions[(one, 2)]]
    assert second == [positions[(two, 1)]]


def test_a_clash_sent_to_the_writer_refuses_that_append_alone(app: Chronicle) -> None:
    writer, taken, free = app.writer, uuid4(), uuid4()
    assert writer is not None
    app.recorder.insert_events([StoredEvent(taken, v, "test:Event", b"{}") for v in (1, 2)])

    async def appends() -> list[Any]:
        assert writer.serves(asyncio.get_running_loop())
        sent = [writer.submit(events(free, 1)), writer.submit(events(taken, 2, 3))]
        sent.append(writer.submit(events(free, 2)))
        return list(await asyncio.gather(*sent, return_exceptions=True))

    first, clash, third = on_a_loop(appends())
    assert isinstance(clash, IntegrityError)
    assert isinstance(first, list) and isinstance(third, list) and first[0] < third[0]
    assert [e.originator_version for e in app.recorder.select_events(taken)] == [1, 2]
    assert [e.originator_version for e in app.recorder.select_events(free)] == [1, 2]


def test_an_append_the_writer_did_not_answer_fails_as_unknown_and_the_next_starts_a_new_writer(
    app: Chronicle,
) -> None:
    writer, stream = app.writer, uuid4()
    assert writer is not None

    async def appends() -> tuple[object, int, int, list[int] | None]:
        assert writer.serves(asyncio.get_running_loop())
        await writer.submit(events(uuid4(), 1))
        assert writer.process is not None
        first = writer.process.pid
        os.kill(first, signal.SIGSTOP)  # it takes the batch into its pipe, and writes nothing
        pending = asyncio.ensure_future(writer.submit(events(stream, 1)))
        await asyncio.sleep(0.2)
        assert not pending.done()
        killed = writer.process
        os.kill(first, signal.SIGKILL)
        failed = await asyncio.gather(pending, return_exceptions=True)
        assert killed.returncode == -signal.SIGKILL  # reaped, not left a zombie
        after = await writer.submit(events(stream, 1))  # not written before: version 1 is free
        assert writer.process is not None
        return failed[0], first, writer.process.pid, list(after) if after is not None else None

    failed, first, second, after = on_a_loop(appends())
    assert isinstance(failed, WriterStopped) and isinstance(failed, OperationalError)
    assert "ended before it answered" in str(failed)
    assert not isinstance(failed, IntegrityError)  # a clash would be decided again and written twice
    assert second != first and after is not None
    assert [e.originator_version for e in app.recorder.select_events(stream)] == [1]


def test_the_served_app_commits_through_a_writer_that_ends_with_the_server(url: str) -> None:
    with TestClient(create_app(store=url)) as client:
        body = {"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"}
        created = client.post("/games", json=body).json()
        headers = {"Authorization": f"Bearer {created['recorder_token']}"}
        path = f"/games/{created['game_id']}/actions"
        answers = [client.post(path, json={"action": a}, headers=headers) for a in OPENING]
        writer = client.app.state.chronicle.writer
        assert isinstance(writer, WriterProcess) and writer.process is not None
        process = writer.process
    assert [a.status_code for a in answers] == [201, 201]
    assert process.returncode == 0  # it read the end of its pipe once its answers were given
    with closing(Chronicle(url)) as reader:
        assert reader.game(UUID(created["game_id"])).version == answers[-1].json()["version"]


def test_the_writer_answers_each_batch_it_reads_until_its_input_ends(url: str, monkeypatch: Any) -> None:
    """Batches waiting together in the pipe are written in one transaction, each answered."""
    written: list[int] = []
    write = GroupCommitSQLiteRecorder._write_batch

    def counting(self: GroupCommitSQLiteRecorder, batch: list[Any]) -> None:
        written.append(len(batch))
        write(self, batch)

    monkeypatch.setattr(GroupCommitSQLiteRecorder, "_write_batch", counting)
    taken, free = uuid4().hex, uuid4().hex
    state = b"{}"
    batches = [
        [[(taken, 1, "test:Event", state)]],
        [[(free, 1, "test:Event", state)], [(taken, 1, "test:Event", state)]],
    ]
    answers = served(url, batches)
    assert written == [3]  # both batches were waiting: one transaction, three appends
    with closing(Chronicle(url)) as reader:
        stored = reader.recorder.select_events(UUID(hex=free))
        assert [(e.originator_version, e.topic, e.state) for e in stored] == [(1, "test:Event", state)]
    assert answers[0] == [["ok", [1]]]
    assert answers[1][0] == ["ok", [2]]
    assert answers[1][1][:2] == ["error", "IntegrityError"]


def test_an_error_named_by_the_writer_is_raised_as_the_library_s_class_of_that_name() -> None:
    assert (
        type(_error("IntegrityError", "clash")) is IntegrityError
        and str(_error("IntegrityError", "clash")) == "clash"
    )
    assert type(_error("OperationalError", "locked")) is OperationalError
    other = _error("ValueError", "odd")  # not a store error: still one, with its name kept
    assert type(other) is PersistenceError and str(other) == "ValueError: odd"


def test_a_writer_outlives_a_stop_signal_and_ends_with_its_input(url: str) -> None:
    with closing(Chronicle(url, writer_process=True)) as app:
        writer = app.writer
        assert writer is not None

        async def appends() -> tuple[int, int]:
            assert writer.serves(asyncio.get_running_loop())
            await writer.submit(events(uuid4(), 1))
            assert writer.process is not None
            before = writer.process.pid
            os.kill(before, signal.SIGTERM)  # a stopping server's requests still need their commits
            os.kill(before, signal.SIGINT)
            await asyncio.sleep(0.2)
            await writer.submit(events(uuid4(), 1))
            assert writer.process is not None
            return before, writer.process.pid

        before, after = on_a_loop(appends())
        process = writer.process
        assert before == after and process is not None
    assert process.returncode == 0 and writer.process is None


def test_closing_the_store_from_another_thread_waits_for_the_answers_of_what_was_sent(url: str) -> None:
    """As the server's shutdown closes the store: from a worker thread, while its loop runs."""
    app = Chronicle(url, writer_process=True)
    writer, stream = app.writer, uuid4()
    assert writer is not None
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever)
    runner.start()
    try:

        async def held() -> asyncio.Future[Any]:
            assert writer.serves(asyncio.get_running_loop())
            await writer.submit(events(uuid4(), 1))
            assert writer.process is not None
            os.kill(writer.process.pid, signal.SIGSTOP)  # the next batch waits in its pipe
            pending = asyncio.ensure_future(writer.submit(events(stream, 1)))
            await asyncio.sleep(0.1)
            return pending

        pending = asyncio.run_coroutine_threadsafe(held(), loop).result(timeout=20)
        process = writer.process
        assert process is not None and not pending.done()
        threading.Timer(0.3, os.kill, (process.pid, signal.SIGCONT)).start()
        started = time.monotonic()
        app.close()  # waits until the held batch is written and answered, and no longer
        assert time.monotonic() - started < 5
        assert pending.done() and pending.result() is not None
        assert process.returncode == 0 and writer.process is None
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(timeout=10)
        loop.close()
    with closing(Chronicle(url)) as reader:
        assert [e.originator_version for e in reader.recorder.select_events(stream)] == [1]


def test_a_writer_that_cannot_start_fails_the_batch_it_was_started_for(
    app: Chronicle, monkeypatch: Any
) -> None:
    writer = app.writer
    assert writer is not None

    def cannot(*args: Any, **kwargs: Any) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(subprocess, "Popen", cannot)

    async def append() -> object:
        assert writer.serves(asyncio.get_running_loop())
        return (await asyncio.gather(writer.submit(events(uuid4(), 1)), return_exceptions=True))[0]

    failed = on_a_loop(append())
    assert isinstance(failed, WriterStopped) and "did not start: no more processes" in str(failed)


def test_the_writer_answers_a_batch_without_waiting_for_the_next(url: str) -> None:
    source, into = os.pipe()
    answers, sink_end = os.pipe()
    sink = os.fdopen(sink_end, "wb")
    writing = threading.Thread(target=serve, args=(url, source, sink))
    writing.start()
    try:
        frame = _frame(msgspec.msgpack.encode([[(uuid4().hex, 1, "test:Event", b"{}")]]))
        os.write(into, frame[:7])  # a frame may come in parts
        time.sleep(0.1)
        os.write(into, frame[7:])
        ready, _, _ = select.select([answers], [], [], 20)  # the pipe stays open meanwhile
        assert ready and msgspec.msgpack.decode(os.read(answers, 1 << 16)[4:]) == [["ok", [1]]]
    finally:
        os.close(into)
        writing.join(timeout=20)
        sink.close()
        os.close(answers)
        os.close(source)
    assert not writing.is_alive()


def test_a_batch_the_store_cannot_take_is_answered_with_the_error_for_each_append(
    url: str, monkeypatch: Any
) -> None:
    def unavailable(self: GroupCommitSQLiteRecorder, batch: list[Any]) -> None:
        batch[0].succeed([7])  # answered before the failure: kept as it is
        raise OperationalError("database is locked")

    monkeypatch.setattr(GroupCommitSQLiteRecorder, "_write_batch", unavailable)
    rows = [[(uuid4().hex, 1, "test:Event", b"{}")], [(uuid4().hex, 1, "test:Event", b"{}")]]
    assert served(url, [rows]) == [[["ok", [7]], ["error", "OperationalError", "database is locked"]]]


def test_closing_the_store_on_its_own_event_loop_lets_the_writer_go_at_once(app: Chronicle) -> None:
    writer = app.writer
    assert writer is not None

    async def close_here() -> tuple[float, subprocess.Popen[bytes] | None]:
        assert writer.serves(asyncio.get_running_loop())
        await writer.submit(events(uuid4(), 1))
        process = writer.process
        started = time.monotonic()
        writer.close()  # the loop cannot wait for itself: nothing is in flight, nothing fails
        return time.monotonic() - started, process

    took, process = on_a_loop(close_here())
    assert took < 5 and process is not None and process.returncode == 0 and writer.process is None


def test_a_ping_is_answered_in_its_turn_and_a_writer_silent_for_its_bound_is_replaced_unasked(
    app: Chronicle,
) -> None:
    writer = app.writer
    assert writer is not None

    async def pings() -> tuple[list[bool], subprocess.Popen[bytes], int]:
        assert writer.serves(asyncio.get_running_loop())
        answered = [await writer.answers(1.0)]  # no writer runs yet: nothing to wait for
        await writer.submit(events(uuid4(), 1))
        stuck = writer.process
        assert stuck is not None
        answered.append(await writer.answers(5.0))
        writer.answer_wait = 1.0
        os.kill(stuck.pid, signal.SIGSTOP)
        answered.append(await writer.answers(0.3))
        answered.append(await writer.answers(0.3))  # the same ping, still unanswered
        await asyncio.sleep(1.0)  # the ping's silence outlasts the bound: no write needed
        assert writer.process is None
        writer.answer_wait = ANSWER_WAIT  # as served: a new writer's start takes a while
        await writer.submit(events(uuid4(), 1))
        assert writer.process is not None
        answered.append(await writer.answers(5.0))
        return answered, stuck, writer.process.pid

    answered, stuck, replacement = on_a_loop(pings())
    assert answered == [True, True, False, False, True]
    assert stuck.returncode == -signal.SIGKILL and replacement != stuck.pid
