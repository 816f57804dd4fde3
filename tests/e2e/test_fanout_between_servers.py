"""Two `chronicle serve` processes on one PostgreSQL and one Redis: spectators on either see
every append made through either, once and in order, also while Redis is down and after it
comes back, and across a dropped connection.

The servers read the store's sequence only every minute while Redis carries the news
(`CHRONICLE_LIVE_POLL`), so an append that reaches the other server's spectator within a few
seconds came through Redis; while Redis is down they read the store often, and that is how
the news arrives then. The Redis server is the test's own, killed and started again. The
write limits are off: with them on, their counters live in the same Redis and writes are
refused while it is down (api/rate_limits.py), which is not what this test is about.
"""

from __future__ import annotations

import random
from pathlib import Path
from uuid import UUID

import httpx
import pytest

from store.app import Chronicle
from tests.e2e.cluster import Follower, RedisServer, ServeProcess, next_move, post_move

THROUGH_REDIS = 8.0  # seconds an append may take to reach the other server's spectator
STEPS = 6  # actions per phase


@pytest.mark.postgres
@pytest.mark.redis
def test_spectators_on_two_servers_see_every_append_through_redis(postgres_url: str, tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis.log")
    env = {
        "CHRONICLE_REDIS": redis.url,
        "CHRONICLE_LIVE_POLL": "60",
        "CHRONICLE_WRITE_LIMIT_TOKEN": "off",
        "CHRONICLE_WRITE_LIMIT_ADDRESS": "off",
    }
    a = ServeProcess(postgres_url, tmp_path / "a.log", env, wait=False)
    b = ServeProcess(postgres_url, tmp_path / "b.log", env, wait=False)
    app = Chronicle(postgres_url)
    try:
        for server in (a, b):
            server.wait_until_healthy()
            server.wait_for_redis("up")
        via_a = httpx.Client(base_url=a.url, timeout=30)
        via_b = httpx.Client(base_url=b.url, timeout=30)
        created = via_a.post("/games", json={"ruleset": "dominations", "players": ["Ann", "Ben"]}).json()
        game_id, token = created["game_id"], created["recorder_token"]
        on_b = Follower(f"{b.url}/games/{game_id}/live")
        on_a = Follower(f"{a.url}/games/{game_id}/live")
        dropping = Follower(f"{b.url}/games/{game_id}/live", stop_after=created["version"] + 2)
        for follower in (on_a, on_b, dropping):
            follower.start()
            assert follower.connected.wait(60)
        bot = random.Random(3)

        def step(through: httpx.Client, watcher: Follower, within: float) -> None:
            move = next_move(app, game_id, bot)
            assert move is not None, "the game ended too soon for the test"
            version = post_move(through, game_id, token, *move)
            watcher.wait_for(version, within)

        for _ in range(STEPS):  # A's appends reach B's spectator through Redis
            step(via_a, on_b, THROUGH_REDIS)
        dropping.join(60)
        redis.kill()
        for server in (a, b):
            server.wait_for_redis("down")
        resumed = Follower(f"{b.url}/games/{game_id}/live", {"Last-Event-ID": str(dropping.versions()[-1])})
        resumed.start()
        for _ in range(STEPS):  # Redis is down: B reads the store
            step(via_a, on_b, THROUGH_REDIS)
        redis.start()
        for server in (a, b):
            server.wait_for_redis("up")
        for _ in range(STEPS):  # back through Redis, both ways
            step(via_a, on_b, THROUGH_REDIS)
            step(via_b, on_a, THROUGH_REDIS)
        last = app.game(UUID(game_id)).version
        # B's own cached game followed A's appends: no stale answer, and B writes on top of them
        assert via_b.get(f"/games/{game_id}").json()["version"] == last
        assert via_a.get(f"/games/{game_id}/state").json() == via_b.get(f"/games/{game_id}/state").json()
        for follower in (on_a, on_b, resumed):
            follower.wait_for(last, THROUGH_REDIS)
        assert on_a.versions() == list(range(1, last + 1))
        assert on_b.versions() == list(range(1, last + 1))
        assert dropping.versions() + resumed.versions() == list(range(1, last + 1))
        assert on_a.events == on_b.events
    finally:
        app.close()
        for server in (a, b):
            server.kill()
        redis.kill()
