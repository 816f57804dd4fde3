"""A store that does not answer is seen (store/answering.py, store/writer_process.py): `/health`
answers 503 within its two seconds, naming the SQLite writer process or the database that did
not answer; a write to a stuck writer answers 503 `store_unavailable` within the writer's bound
instead of hanging, the writer is killed and replaced, and a later write succeeds on the new
one, with nothing acknowledged lost."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.app import create_app
from domain.events import ActionRecorded
from store.answering import ANSWER_WAIT
from store.app import Chronicle
from store.writer_process import ANSWER_WAIT as WRITER_WAIT
from store.writer_process import WriterProcess
from tests.api.support import assert_problem

SILENCE = 4.0  # the writer's bound in these tests (15 s served): longer than the health check's
SLACK = 1.5  # seconds a loaded machine may add to an answer's bound
HELD = 7.0  # seconds another session holds the PostgreSQL events table
WRITE_BOUND = 12.0  # seconds a PostgreSQL write waits for the table's lock (store/config.py)


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/stuck.sqlite3"


@pytest.fixture
def client(url: str) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(store=url)) as test_client:
        yield test_client


def writer_of(client: TestClient[Litestar]) -> WriterProcess:
    writer = client.app.state.chronicle.writer
    assert isinstance(writer, WriterProcess)
    return writer


class Table:
    """A physical Province game recorded over the client, each action with its own id."""

    def __init__(self, client: TestClient[Litestar]) -> None:
        self.client = client
        created = client.post(
            "/games", json={"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"}
        )
        assert created.status_code == 201, created.text
        self.id = created.json()["game_id"]
        self.headers = {"Authorization": f"Bearer {created.json()['recorder_token']}"}
        self.sent = 0
        self.acknowledged: dict[str, int] = {}  # action id -> the version its answer named

    def next_action(self) -> dict[str, Any]:
        legal = self.client.get(f"/games/{self.id}/legal-actions", headers=self.headers).json()
        self.sent += 1
        return {"action": legal["actions"][0], "seat": legal["seat"], "action_id": f"a{self.sent}"}

    def post(self, body: dict[str, Any]) -> Any:
        answer = self.client.post(f"/games/{self.id}/actions", json=body, headers=self.headers)
        if answer.status_code in (200, 201):
            self.acknowledged[body["action_id"]] = answer.json()["version"]
        return answer


def release_after(seconds: float, rollback: Callable[[], None]) -> Callable[[], None]:
    """Rolls back after `seconds` however long the checks take, or as soon as the returned
    function is called: whichever comes first, once."""
    once = threading.Lock()

    def release() -> None:
        if once.acquire(blocking=False):
            rollback()

    timer = threading.Timer(seconds, release)
    timer.start()

    def now() -> None:
        timer.cancel()
        release()
        timer.join()  # a rollback the timer began has ended

    return now


def timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


def test_a_stopped_writer_is_seen_by_health_fails_a_write_in_its_bound_and_is_replaced(
    client: TestClient[Litestar], url: str
) -> None:
    table = Table(client)
    for _ in range(2):
        assert table.post(table.next_action()).status_code == 201
    writer = writer_of(client)
    writer.answer_wait = SILENCE
    stuck = writer.process
    assert stuck is not None and client.get("/health").status_code == 200

    os.kill(stuck.pid, signal.SIGSTOP)  # alive, holding its pipes, answering nothing
    try:
        health, waited = timed(lambda: client.get("/health"))
        body = assert_problem(health, 503, "store_unavailable")
        assert "writer process did not answer within 2 s" in body["detail"]
        assert ANSWER_WAIT <= waited < ANSWER_WAIT + SLACK

        lost = table.next_action()
        write, waited = timed(lambda: table.post(lost))
        body = assert_problem(write, 503, "store_unavailable")
        assert f"answered nothing for {SILENCE:g} s and was replaced" in body["detail"]
        assert "outcome is unknown" in body["detail"]
        assert waited < SILENCE + SLACK  # its silence was timed from the health check's ping
        assert stuck.returncode == -signal.SIGKILL  # killed, and reaped
        writer.answer_wait = WRITER_WAIT  # as served: a new writer's start takes a while
    finally:
        if stuck.poll() is None:
            stuck.kill()
            stuck.wait()

    retried = table.post(lost)  # the same action, sent again as its answer advised
    assert retried.status_code == 201, retried.text
    assert writer.process is not None and writer.process.pid != stuck.pid
    assert table.post(table.next_action()).status_code == 201
    assert client.get("/health").status_code == 200

    with closing(Chronicle(url)) as reader:
        stored = [e for e in reader.stored_events(UUID(table.id)) if isinstance(e, ActionRecorded)]
        game = reader.game(UUID(table.id))
    assert [e.action_id for e in stored] == list(table.acknowledged)  # each once, in order
    assert game.version == max(table.acknowledged.values())


def test_a_writer_that_takes_its_turn_behind_another_process_is_not_taken_for_stuck(
    client: TestClient[Litestar], url: str
) -> None:
    table = Table(client)
    assert table.post(table.next_action()).status_code == 201
    writer = writer_of(client)
    writer.answer_wait = 2.0
    started = writer.process
    assert started is not None
    other = subprocess.Popen(  # another process holds the write lock for a while (below the bound)
        [
            "python3",
            "-c",
            "import sqlite3, sys, time\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(1.2); c.execute('COMMIT')",
            str(Path(url.removeprefix("sqlite:///"))),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert other.stdout is not None and other.stdout.readline() == b"held\n"
        answer, waited = timed(lambda: table.post(table.next_action()))
    finally:
        other.wait(timeout=30)
    assert answer.status_code == 201, answer.text
    assert waited >= 0.8  # it waited for the lock ...
    assert writer.process is started  # ... and was left to answer


@pytest.mark.postgres
def test_health_reports_a_database_that_does_not_answer_and_recovers_with_it(postgres_url: str) -> None:
    schema = postgres_url.rsplit("schema=", 1)[1]
    with TestClient(create_app(store=postgres_url)) as client:
        assert client.get("/health").status_code == 200
        with psycopg.connect(postgres_url.split("?", 1)[0]) as locker:
            # another session holds the events table: a read of it waits for as long as that lasts
            table = client.app.state.chronicle.recorder.events_table_name
            locker.execute(f'LOCK TABLE "{schema}".{table} IN ACCESS EXCLUSIVE MODE')
            release = release_after(HELD, locker.rollback)
            try:
                health, waited = timed(lambda: client.get("/health"))
                again, waited_again = timed(lambda: client.get("/health"))  # the same read, still waiting
            finally:
                release()
        body = assert_problem(health, 503, "store_unavailable")
        assert body["detail"] == "The event store did not answer a read within 2 s."
        assert ANSWER_WAIT <= waited < ANSWER_WAIT + SLACK
        assert again.status_code == 503 and waited_again < ANSWER_WAIT + SLACK
        deadline = time.monotonic() + 10
        while (answer := client.get("/health")).status_code != 200:
            assert time.monotonic() < deadline, answer.text
        assert answer.json()["store"] == "postgresql"


@pytest.mark.postgres
def test_a_write_behind_a_held_table_lock_answers_503_within_its_bound_and_is_taken_after(
    postgres_url: str,
) -> None:
    """Another session holds the events table's write lock for longer than a write waits (ten
    tries of `POSTGRES_LOCK_TIMEOUT`, 1 s, 0.2 s apart): the write is refused in its bound,
    stores nothing, and the same action id is taken once the lock is gone."""
    schema = postgres_url.rsplit("schema=", 1)[1]
    with TestClient(create_app(store=postgres_url)) as client:
        table = Table(client)
        assert table.post(table.next_action()).status_code == 201
        body = table.next_action()
        with psycopg.connect(postgres_url.split("?", 1)[0]) as locker:
            events = client.app.state.chronicle.recorder.events_table_name
            locker.execute(f'LOCK TABLE "{schema}".{events} IN EXCLUSIVE MODE')  # reads still go on
            release = threading.Timer(WRITE_BOUND + SLACK + 2.0, locker.rollback)
            release.start()
            try:
                refused, waited = timed(lambda: table.post(body))
            finally:
                release.join()
        assert_problem(refused, 503, "store_unavailable")
        assert WRITE_BOUND - 2.0 <= waited < WRITE_BOUND + SLACK
        taken = table.post(body)
        assert taken.status_code == 201, taken.text
    with closing(Chronicle(postgres_url)) as reader:
        stored = [e for e in reader.stored_events(UUID(table.id)) if isinstance(e, ActionRecorded)]
    assert [e.action_id for e in stored] == list(table.acknowledged)  # each once, in order


@pytest.mark.postgres
def test_a_write_whose_lock_comes_while_it_retries_is_taken_and_so_are_the_next(postgres_url: str) -> None:
    """The lock goes while the write is between its tries: a try that timed out left nothing of
    its statements behind on its session, so the next try, and every later write on that
    session, is taken. Without the pool's `prepare_threshold=None` (store/postgres_pool.py) a
    statement psycopg took as prepared in the failed pipeline answered 500 "prepared statement
    does not exist" in about one run of three here."""
    schema = postgres_url.rsplit("schema=", 1)[1]
    with TestClient(create_app(store=postgres_url)) as client:
        table = Table(client)
        for _ in range(6):  # the session's statements used often enough to be prepared
            assert table.post(table.next_action()).status_code == 201
        for hold in (1.5, 2.5, 1.5, 2.5):  # one try refused, or two or three
            body = table.next_action()
            with psycopg.connect(postgres_url.split("?", 1)[0]) as locker:
                events = client.app.state.chronicle.recorder.events_table_name
                locker.execute(f'LOCK TABLE "{schema}".{events} IN EXCLUSIVE MODE')
                release = threading.Timer(hold, locker.rollback)
                release.start()
                try:
                    taken = table.post(body)
                finally:
                    release.join()
            assert taken.status_code == 201, taken.text
            for _ in range(3):
                assert table.post(table.next_action()).status_code == 201
    with closing(Chronicle(postgres_url)) as reader:
        stored = [e for e in reader.stored_events(UUID(table.id)) if isinstance(e, ActionRecorded)]
    assert [e.action_id for e in stored] == list(table.acknowledged)
