"""Processes sharing one SQLite file take turns on its write lock (store/sqlite.py): two real
`chronicle serve` processes answering for the same games, and a server beside `chronicle
simulate`, record every action they are sent, none refused with a 503 "database is locked".

Each action of a game goes to either server, as behind a proxy or with `serve --workers`, so
the writer process of each finds the game appended by the other and reads its stored digest
before it inserts: the transaction that used to fail at once under the other's writes."""

from __future__ import annotations

import random
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import httpx

from store.app import Chronicle
from tests.cli.conftest import COMMAND
from tests.e2e.cluster import ServeProcess
from tests.e2e.support import ROOT, clean_env

CLIENTS = 3
ACTIONS = 15  # per client: each a write some other process's writes contend with


def record(
    servers: list[httpx.Client], game: dict[str, str], actions: int, seed: int, answers: list[httpx.Response]
) -> None:
    """`actions` random legal actions of `game`, each sent to a server picked at random."""
    choose = random.Random(seed)
    headers = {"Authorization": f"Bearer {game['recorder_token']}"}
    for _ in range(actions):
        http = choose.choice(servers)
        legal = http.get(f"/games/{game['game_id']}/legal-actions", headers=headers).json()
        body = {"action": choose.choice(legal["actions"]), "seat": legal["seat"]}
        answers.append(http.post(f"/games/{game['game_id']}/actions", json=body, headers=headers))


def in_threads(work: Callable[[int], None]) -> None:
    threads = [threading.Thread(target=work, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)


def refused(answers: list[httpx.Response]) -> list[str]:
    return [f"{a.status_code} {a.text}" for a in answers if a.status_code != 201]


def create(http: httpx.Client, seed: int) -> dict[str, str]:
    created = http.post(
        "/games", json={"ruleset": "province", "players": ["Ann", "Ben"], "client_seed": f"{seed}"}
    )
    assert created.status_code == 201, created.text
    game: dict[str, str] = created.json()
    return game


def test_two_servers_on_one_sqlite_file_record_every_action_of_the_games_they_share(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    servers = [ServeProcess(url, tmp_path / f"server{n}.log", wait=False) for n in range(2)]
    try:
        for server in servers:
            server.wait_until_healthy()
        clients = [httpx.Client(base_url=s.url, timeout=30) for s in servers]
        games = [create(clients[n % 2], n) for n in range(CLIENTS)]
        answers: list[httpx.Response] = []
        in_threads(lambda n: record(clients, games[n], ACTIONS, n, answers))
    finally:
        for server in servers:
            server.stop()
    assert len(answers) == CLIENTS * ACTIONS
    assert refused(answers) == []
    with Chronicle(url) as app:
        for game in games:
            last = max(a.json()["version"] for a in answers if a.json()["game_id"] == game["game_id"])
            assert app.game(UUID(game["game_id"])).version == last


def test_a_server_beside_chronicle_simulate_on_one_sqlite_file_records_every_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    server = ServeProcess(url, tmp_path / "server.log")
    simulate = subprocess.Popen(
        [*COMMAND, "simulate", "province", "--games", "200", "--seed", "beside"],
        env=clean_env(CHRONICLE_STORE=url),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    answers: list[httpx.Response] = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            deadline = time.monotonic() + 60
            while not http.get("/games", params={"tag": "simulated"}).json()["games"]:
                assert simulate.poll() is None and time.monotonic() < deadline, "simulate did not start"
                time.sleep(0.1)

            def short_games(n: int) -> None:
                # two actions a game: the first of each follows an append the server's writer
                # did not make (the game's creation), so it reads before it writes
                for game in range(ACTIONS // 2):
                    record([http], create(http, n * 100 + game), 2, n, answers)

            in_threads(short_games)
        still_simulating = simulate.poll() is None
    finally:
        simulate.terminate()
        _, errors = simulate.communicate(timeout=60)
        server.stop()
    assert still_simulating, f"simulate ended before the server's writes: {errors.decode()}"
    assert b"locked" not in errors
    assert len(answers) == CLIENTS * (ACTIONS // 2) * 2
    assert refused(answers) == []
