"""Eight `chronicle serve` processes on one PostgreSQL schema, written to through each of
them, each hold no more sessions than their bound (`?connections=4`), counted by PostgreSQL
(`pg_stat_activity`) all along: the application, the statistics view it reads, the runner's
application, view and subscription, live polling and the views' catalog share one pool a
process, and the runner's lease is the last session. Nothing fails meanwhile."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.e2e.cluster import Follower, ServeProcess
from tests.postgres_support import Sampler
from tests.projections.support import OPENING

# Eight, as many as a deployment this size runs on one schema (before the shared pool, one
# process alone held 13 to 23 sessions).
SERVERS = 8
BOUND = 4
GAMES = SERVERS
MOVES = 3  # of the opening, before the first seat resigns
SAMPLES = 10  # counts of the sessions taken, at the least
STARTUP = 300.0  # several processes importing everything at once on a shared machine


@pytest.mark.postgres
def test_eight_servers_on_one_schema_stay_within_their_sessions_while_written_to(
    postgres_url: str, tmp_path: Path
) -> None:
    url = f"{postgres_url}&connections={BOUND}"
    logs = [tmp_path / f"server{i}.log" for i in range(SERVERS)]
    servers = [ServeProcess(url, log, wait=False) for log in logs]
    sampler: Sampler | None = None
    client = httpx.Client(timeout=60)  # keeps a connection to each server
    try:
        for server in servers:
            server.wait_until_healthy(STARTUP)
        pids = [client.get(f"{server.url}/health").json()["process"] for server in servers]
        assert len(set(pids)) == SERVERS
        sampler = Sampler(pids)
        sampler.start()

        # A game created on each server, and its first action recorded there, all at once.
        def open_game(server: ServeProcess) -> tuple[str, dict[str, str], int]:
            created = client.post(
                f"{server.url}/games",
                json={"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"},
            )
            assert created.status_code == 201, created.text
            game_id = created.json()["game_id"]
            headers = {"Authorization": f"Bearer {created.json()['recorder_token']}"}
            first = client.post(
                f"{server.url}/games/{game_id}/actions", json={"action": OPENING[0]}, headers=headers
            )
            assert first.status_code == 201, first.text
            return game_id, headers, first.json()["version"]

        with ThreadPoolExecutor(SERVERS) as opening:
            games = list(opening.map(open_game, servers))
        follower = Follower(f"{servers[-1].url}/games/{games[0][0]}/live")
        follower.start()
        assert follower.connected.wait(60)

        # then each action through the next server along, the games' actions interleaved
        through = 1
        for action in [*OPENING[1:MOVES], None]:
            for g, (game_id, headers, _) in enumerate(games):
                server = servers[(g + through) % SERVERS]
                if action is None:
                    answer = client.post(
                        f"{server.url}/games/{game_id}/resign", json={"seat": "A"}, headers=headers
                    )
                else:
                    answer = client.post(
                        f"{server.url}/games/{game_id}/actions", json={"action": action}, headers=headers
                    )
                assert answer.status_code in (200, 201), (server.url, answer.text)
                games[g] = (game_id, headers, answer.json()["version"])
            through += 1

        follower.wait_for(games[0][2], timeout=60)
        for _ in range(3):  # the runner, whichever it is, counts the finished games
            stats = client.get(f"{servers[1].url}/stats", params={"game": games[-1][0], "wait": 30})
            assert stats.status_code == 200, stats.text
            if stats.json()["caught_up"]:
                break
        assert (stats.json()["caught_up"], stats.json()["games"]) == (True, GAMES)
        for i, server in enumerate(servers):  # each reads at its last version a game others wrote
            game_id, _, version = games[(i + 1) % GAMES]
            read = client.get(f"{server.url}/games/{game_id}")
            assert read.status_code == 200 and read.json()["version"] == version, read.text
        # a loaded machine samples slowly: the bound holds while idle too, so sample on
        deadline = time.monotonic() + 60
        while sampler.samples <= SAMPLES and time.monotonic() < deadline:
            time.sleep(0.1)
        sampler.stop()
    finally:
        client.close()
        for server in servers:  # all told at once, then waited for
            if server.process is not None:
                server.process.terminate()
        for server in servers:
            server.stop()
        if sampler is not None and sampler.is_alive():
            sampler.stopping.set()

    assert sampler.samples > SAMPLES
    assert all(count >= 1 for count in sampler.most.values()), sampler.most  # the count sees them
    assert max(sampler.most.values()) <= BOUND, sampler.most
    # every session says whose it is: the pool's and the runner's lease's
    assert all(re.search(rf"\bpid {pid} on ", name) for pid, name in sampler.names), sampler.names
    for log in logs:
        text = log.read_text()
        assert "Traceback" not in text and '"status":5' not in text, text
