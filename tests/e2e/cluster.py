"""Several real `chronicle serve` processes on one store (and one Redis), for the tests of
what happens between processes."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import httpx
import msgspec
import pytest
import redis
import websockets.sync.client

from domain.ruleset import get_ruleset
from store.app import RECORDER, Chronicle
from tests.e2e.support import ROOT, Server, free_port

TIMEOUT = 120.0


class ServeProcess(Server):
    """One `chronicle serve` process. With `wait=False` it is launched and left to come up,
    so that several can start at the same moment (`wait_until_healthy` afterwards)."""

    def __init__(
        self, store_url: str, log: Path, env: dict[str, str] | None = None, *, wait: bool = True
    ) -> None:
        self._wait = wait
        super().__init__(store_url, log, env)

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "replay_cli.main", "serve", "--port", str(self.port)],
                cwd=ROOT,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        if self._wait:
            self._wait_until_healthy()

    def wait_until_healthy(self, timeout: float = 120.0) -> None:
        """Several processes starting at once on a shared machine take a while."""
        self._wait = True
        self._wait_until_healthy(timeout)

    def _wait_until_healthy(self, timeout: float = 120.0) -> None:
        """As `Server`'s, but /health may name Redis too."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.log.read_text()}")
            try:
                answer = httpx.get(f"{self.url}/health", timeout=1.0).json()
                if answer.get("status") == "ok" and answer.get("store") == self.store_kind:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"the server did not answer /health within {timeout} s:\n{self.log.read_text()}")

    def health(self) -> dict[str, str]:
        answer: dict[str, str] = httpx.get(f"{self.url}/health", timeout=5).json()
        return answer

    def wait_for_redis(self, state: str, timeout: float = 30.0) -> None:
        """Until /health says the live streams' Redis link is `state` (up or down)."""
        deadline = time.monotonic() + timeout
        while self.health().get("redis") != state:
            if time.monotonic() > deadline:
                pytest.fail(f"{self.url}: Redis not {state} within {timeout} s: {self.health()}")
            time.sleep(0.1)


class RedisServer:
    """A Redis server of the test's own (it is killed and started again), on a free port."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while True:
            try:
                with redis.Redis.from_url(self.url, socket_connect_timeout=1) as client:
                    client.ping()
                    return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    pytest.fail(f"redis-server did not answer:\n{self.log.read_text()}")
                time.sleep(0.05)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)


def server_sent(lines: Iterator[str]) -> Iterator[tuple[str, str, str]]:
    """(id, event, data) of each server-sent event."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in fields:
                yield fields.get("id", ""), fields.get("event", "message"), fields["data"]
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


class Follower(threading.Thread):
    """Reads one live stream to its end in the background: each event's (id, type, data)."""

    def __init__(
        self, url: str, headers: dict[str, str] | None = None, stop_after: int | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.url, self.headers, self.stop_after = url, headers or {}, stop_after
        self.events: list[tuple[str, str, str]] = []
        self.arrived: list[float] = []  # time.monotonic() at each event
        self.ended = False
        self.error: BaseException | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=self.headers, timeout=TIMEOUT) as answer:
                assert answer.status_code == 200, answer.read()
                self.connected.set()
                for event in server_sent(answer.iter_lines()):
                    self.events.append(event)
                    self.arrived.append(time.monotonic())
                    if self.stop_after is not None and event[0] == str(self.stop_after):
                        return  # a dropped connection
            self.ended = True
        except BaseException as error:
            self.error = error
        finally:
            self.connected.set()

    def versions(self) -> list[int]:
        return [int(i) for i, _, _ in self.events]

    def wait_for(self, version: int, timeout: float) -> float:
        """Seconds until the stream reached `version`; fails after `timeout`."""
        started = time.monotonic()
        while not self.events or int(self.events[-1][0]) < version:
            if self.error is not None or time.monotonic() - started > timeout:
                pytest.fail(f"{self.url} did not reach version {version} within {timeout} s: {self.error!r}")
            time.sleep(0.005)
        return time.monotonic() - started


class SocketFollower(Follower):
    def run(self) -> None:
        try:
            ws_url = self.url.replace("http://", "ws://")
            with websockets.sync.client.connect(ws_url, open_timeout=TIMEOUT) as socket:
                self.connected.set()
                for message in socket:
                    event = msgspec.json.decode(message)
                    self.events.append((str(event["version"]), event["type"], str(message)))
        except websockets.exceptions.ConnectionClosedOK:
            pass
        except BaseException as error:
            self.error = error
        finally:
            self.ended = True
            self.connected.set()


def next_move(app: Chronicle, game_id: str, bot: random.Random) -> tuple[str | None, object] | None:
    """A bot's move (seat, encoded action) for whoever is prompted in a Dominations game read
    through `app`; None once it is over."""
    ruleset = get_ruleset("dominations")
    assert ruleset is not None
    game = app.game(UUID(game_id))
    if game.outcome is not None:
        return None
    seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
    seat = seats[0] if len(seats) == 1 else bot.choice(seats)
    legal = ruleset.legal_actions(game.state, seat)
    return seat, ruleset.codec.encode(ruleset.bot_choose(game.state, seat, legal, bot.randrange))


def post_move(http: httpx.Client, game_id: str, token: str, seat: str | None, action: object) -> int:
    """Record a move over HTTP with the recorder's token; the version it reached."""
    answer = http.post(
        f"/games/{game_id}/actions",
        json={"action": action, "seat": seat},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text
    version: int = answer.json()["version"]
    return version


def play(
    app: Chronicle, game_id: str, count: int | None, http: httpx.Client | None = None, token: str = ""
) -> None:
    """Bot moves until the game ends or `count` actions are recorded: over HTTP with the
    recorder's `token` when `http` is given, else through `app`."""
    bot = random.Random(7)
    recorded = 0
    while count is None or recorded < count:
        move = next_move(app, game_id, bot)
        if move is None:
            return
        seat, action = move
        if http is not None:
            post_move(http, game_id, token, seat, action)
        else:
            app.record(UUID(game_id), action, RECORDER, seat=seat)  # type: ignore[arg-type]
        recorded += 1
