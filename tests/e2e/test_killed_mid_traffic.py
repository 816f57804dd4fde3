"""Nothing acknowledged is lost, and nothing is stored twice, when the server is killed while
actions are being recorded, on SQLite and on PostgreSQL.

Eight clients (one per seat of four digital Province games, each seat with its own token and
its own action ids) record actions over HTTP against a real uvicorn process. Once enough
answers have come back, the server gets SIGKILL while requests are in flight; a new process
starts on the same store and port, and every client sends again, unchanged, the request it
had no answer to (same action_id, same expected version). Then the store must hold every
acknowledged action exactly once, where its answer said, and no action nobody was told of;
and `chronicle audit --all`, run as a subprocess on the store, must find every game clean.
"""

from __future__ import annotations

import base64
import random
import subprocess
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest

from domain.events import ActionRecorded
from store.app import Chronicle
from store.sealing import KEY_VARIABLE
from tests.cli.conftest import COMMAND
from tests.e2e.support import ROOT, Server, clean_env

GAMES = 4
SEATS = ("A", "B")
BEFORE_KILL = 40  # acknowledged actions before the kill
KILLS = 5  # at most, until one lands while a request is in flight
AFTER_RESTART = 40  # and after the restart
RETRY_FOR = 20.0  # seconds a client keeps sending one request while the server is away
KEY = base64.b64encode(bytes(range(7, 39))).decode()


@dataclass
class Traffic:
    """What the clients saw, shared between their threads (under `lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acknowledged: dict[str, dict[str, Any]] = field(default_factory=dict)  # action_id -> answer
    refused: set[str] = field(default_factory=set)  # action ids answered 409: not stored
    in_flight: int = 0  # requests to record an action sent and not yet answered
    interrupted: int = 0  # such requests cut off without an answer (sent before the kill)
    replayed: int = 0  # acknowledged by a retry after the restart: stored before the kill
    stop: threading.Event = field(default_factory=threading.Event)

    def acks(self) -> int:
        with self.lock:
            return len(self.acknowledged)


@dataclass(frozen=True)
class SeatClient:
    name: str
    game_id: str
    seat: str
    token: str


def send_until_answered(
    http: httpx.Client, client: SeatClient, body: dict[str, Any], traffic: Traffic
) -> httpx.Response:
    """POST one action, sending the same body again while the server cannot answer."""
    deadline = time.monotonic() + RETRY_FOR
    headers = {"Authorization": f"Bearer {client.token}"}
    while True:
        with traffic.lock:
            traffic.in_flight += 1
        try:
            response = http.post(f"/games/{client.game_id}/actions", json=body, headers=headers)
        except httpx.ConnectError:  # the server is down: nothing was sent
            pass
        except httpx.TransportError:  # sent, and cut off before any answer
            with traffic.lock:
                traffic.interrupted += 1
        else:
            if response.status_code != 503:
                return response
        finally:
            with traffic.lock:
                traffic.in_flight -= 1
        assert time.monotonic() < deadline, (
            f"{client.name}: no answer to {body['action_id']} in {RETRY_FOR} s"
        )
        time.sleep(0.02)


def get_until_answered(http: httpx.Client, path: str, token: str) -> dict[str, Any]:
    deadline = time.monotonic() + RETRY_FOR
    while True:
        try:
            response = http.get(path, headers={"Authorization": f"Bearer {token}"})
            if response.status_code != 503:
                assert response.status_code == 200, response.text
                body: dict[str, Any] = response.json()
                return body
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"no answer to GET {path} in {RETRY_FOR} s"
        time.sleep(0.02)


def play(base_url: str, client: SeatClient, traffic: Traffic, seed: int) -> int:
    """Record actions for one seat until told to stop (or the game ends); return how many
    were acknowledged. Every request that got no answer is sent again before anything else."""
    choose = random.Random(seed)
    sent = acknowledged = 0
    with httpx.Client(base_url=base_url, timeout=10.0) as http:
        while not traffic.stop.is_set():
            legal = get_until_answered(http, f"/games/{client.game_id}/legal-actions", client.token)
            if not legal["actions"]:
                detail = get_until_answered(http, f"/games/{client.game_id}", client.token)
                if detail["status"] == "finished":
                    return acknowledged
                time.sleep(0.01)  # the other seat's turn
                continue
            action_id = f"{client.name}-{sent}"
            sent += 1
            body = {
                "action": choose.choice(legal["actions"]),
                "action_id": action_id,
                "expected_version": legal["version"],
            }
            response = send_until_answered(http, client, body, traffic)
            answer = response.json()
            if response.status_code == 409 and answer["code"] == "version_conflict":
                with traffic.lock:
                    traffic.refused.add(action_id)
                continue
            assert response.status_code in (200, 201), (action_id, response.text)
            assert answer["replayed"] == (response.status_code == 200)
            acknowledged += 1
            with traffic.lock:
                traffic.acknowledged[action_id] = {"game_id": client.game_id, **answer}
                traffic.replayed += answer["replayed"]
    return acknowledged


def wait_for(condition: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.002)


def test_every_acknowledged_action_survives_a_kill_mid_traffic_exactly_once(
    store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite keeps its key file beside the store; PostgreSQL is given the key, as deployed.
    env = {} if store_url.startswith("sqlite") else {KEY_VARIABLE: KEY}
    server = Server(store_url, tmp_path / "server.log", env)
    traffic = Traffic()
    try:
        clients = []
        for number in range(GAMES):
            created = httpx.post(
                f"{server.url}/games",
                json={"ruleset": "province", "players": ["Ann", "Ben"], "client_seed": f"crash-{number}"},
            )
            assert created.status_code == 201, created.text
            game = created.json()
            clients += [
                SeatClient(f"g{number}{seat}", game["game_id"], seat, game["seat_tokens"][seat])
                for seat in SEATS
            ]

        with ThreadPoolExecutor(len(clients)) as pool:
            futures = [pool.submit(play, server.url, c, traffic, seed) for seed, c in enumerate(clients)]
            try:
                wait_for(lambda: traffic.acks() >= BEFORE_KILL, f"{BEFORE_KILL} acknowledgements")
                # A request seen in flight may be answered before the kill lands (an action is
                # recorded in a millisecond or two): kill again until one is cut off.
                for _kill in range(KILLS):
                    wait_for(lambda: traffic.in_flight > 0, "a request in flight")
                    server.kill()
                    at_kill = traffic.acks()
                    server.start()
                    wait_for(
                        lambda at_kill=at_kill: traffic.acks() >= at_kill + AFTER_RESTART,
                        "acknowledgements after the restart",
                    )
                    if traffic.interrupted:
                        break
            finally:
                traffic.stop.set()  # each client finishes (answers) what it sent, then stops
            per_client = [future.result(timeout=60) for future in futures]  # a client's failure fails here
    finally:
        server.stop()

    assert traffic.interrupted >= 1, f"none of {KILLS} kills cut off a request: none landed mid-traffic"
    assert at_kill >= BEFORE_KILL and sum(per_client) == len(traffic.acknowledged) >= at_kill + AFTER_RESTART

    if env:
        monkeypatch.setenv(KEY_VARIABLE, KEY)
    with Chronicle(store_url) as app:
        for game_id in {c.game_id for c in clients}:
            stored = [e for e in app.stored_events(UUID(game_id)) if isinstance(e, ActionRecorded)]
            ids = Counter(e.action_id for e in stored)
            assert all(n == 1 for n in ids.values()), [i for i, n in ids.items() if n > 1]
            told = {i: a for i, a in traffic.acknowledged.items() if a["game_id"] == game_id}
            assert set(ids) == set(told), "stored actions differ from the acknowledged ones"
            assert not set(ids) & traffic.refused
            by_id = {e.action_id: e for e in stored}
            game = app.game(UUID(game_id))
            for action_id, answer in told.items():  # stored where its answer said
                assert by_id[action_id].seq == answer["seq"]
                assert game.actions[answer["seq"] - 1].last_version == answer["version"]

    audit = subprocess.run(
        [*COMMAND, "audit", "--all"],
        env=clean_env(CHRONICLE_STORE=store_url, **env),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert f"{GAMES} games audited: all clean" in audit.stderr
