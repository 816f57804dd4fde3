"""Several `chronicle serve` processes started at the same moment on a fresh PostgreSQL schema
all come up: each creates the tables it needs, and table creation is safe to race
(store/postgres.py). A game created through one is then read through every other."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.e2e.cluster import ServeProcess

SERVERS = 3


@pytest.mark.postgres
def test_servers_started_together_on_a_fresh_schema_all_come_up(postgres_url: str, tmp_path: Path) -> None:
    servers = [ServeProcess(postgres_url, tmp_path / f"server{i}.log", wait=False) for i in range(SERVERS)]
    try:
        for server in servers:
            server.wait_until_healthy()
        created = httpx.post(
            f"{servers[0].url}/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}, timeout=10
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["game_id"]
        for server in servers[1:]:
            answer = httpx.get(f"{server.url}/games/{game_id}", timeout=10)
            assert answer.status_code == 200, answer.text
            assert answer.json()["version"] == created.json()["version"]
    finally:
        for server in servers:
            server.stop()
    for i in range(SERVERS):
        log = (tmp_path / f"server{i}.log").read_text()
        assert "Traceback" not in log, f"server {i} logged an error:\n{log}"
