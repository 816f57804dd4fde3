"""Rate limits on writes (api/rate_limits.py), per bearer token and per client address, with
low limits set for the tests: a refused write is a 429 `rate_limited` problem with
`Retry-After`, and appends nothing; reads are never limited. The Redis-backed counters are
tested against the real Redis, shared by two applications as by two server processes."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
import redis
from litestar.exceptions import TooManyRequestsException
from litestar.testing import TestClient

from api import rate_limits
from api.app import create_app
from api.settings import EdgeSettings, Rate
from store.app import Chronicle
from tests.api.support import Api, Game, assert_problem, bearer

NEW = {"ruleset": "province", "players": ["Ann", "Ben"], "mode": "physical"}
FIRST = {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"}


@contextmanager
def served(chronicle: Chronicle, **settings: object) -> Iterator[Api]:
    with TestClient(create_app(chronicle, settings=EdgeSettings(**settings))) as client:  # type: ignore[arg-type]
        yield Api(client, chronicle)


def head(chronicle: Chronicle) -> int:
    return chronicle.recorder.max_notification_id() or 0


def assert_rate_limited(response: httpx.Response, limit: int, window: int) -> None:
    assert_problem(response, 429, "rate_limited")
    assert 1 <= int(response.headers["retry-after"]) <= window
    assert response.headers["ratelimit-limit"] == str(limit)
    assert response.headers["ratelimit-remaining"] == "0"
    assert 1 <= int(response.headers["ratelimit-reset"]) <= window
    assert response.headers["ratelimit-policy"] == f"{limit}; w={window}"


def new_game(api: Api, token: str | None = None) -> httpx.Response:
    return api.client.post("/games", json=NEW, headers=bearer(token))


def created(response: httpx.Response) -> Game:
    assert response.status_code == 201, response.text
    body = response.json()
    return Game(body["game_id"], "physical", "", body["seat_tokens"], body["recorder_token"])


def test_a_token_over_its_write_limit_is_refused_with_retry_after_and_appends_nothing(
    chronicle: Chronicle,
) -> None:
    with served(chronicle, token_rate=Rate(3, "minute"), address_rate=None) as api:
        game = created(new_game(api))
        api.ok(game, FIRST, game.recorder)
        assert api.act(game, {"kind": "EndTurn"}, game.recorder).status_code == 422  # refused, yet counted
        api.ok(game, {"kind": "RevealGoal", "goal": "workers2"}, game.recorder)
        after = head(chronicle)

        refused = api.act(game, {"kind": "MoveWorker", "piece": "green", "from": "top"}, game.recorder)

        assert_rate_limited(refused, 3, 60)
        assert head(chronicle) == after
        retraction = api.client.post(f"/games/{game.id}/retractions", json={}, headers=bearer(game.recorder))
        assert_rate_limited(retraction, 3, 60)
        assert head(chronicle) == after


def test_each_token_is_counted_alone_and_reads_are_never_limited(chronicle: Chronicle) -> None:
    with served(chronicle, token_rate=Rate(1, "minute"), address_rate=None) as api:
        game = created(new_game(api))
        api.ok(game, FIRST, game.recorder)
        assert_rate_limited(api.act(game, FIRST, game.recorder), 1, 60)

        assert api.act(game, {"kind": "RevealGoal", "goal": "workers2"}, game.seat("A")).status_code != 429
        assert_rate_limited(api.act(game, FIRST, game.seat("A")), 1, 60)
        for _ in range(5):
            assert api.get(f"/games/{game.id}/events", game.recorder).status_code == 200
            assert api.get(f"/games/{game.id}/state", game.seat("A")).status_code == 200


def test_the_address_limit_counts_every_write_from_one_address_whatever_the_token(
    chronicle: Chronicle,
) -> None:
    with served(chronicle, token_rate=None, address_rate=Rate(4, "minute")) as api:
        game = created(new_game(api))
        created(new_game(api, "any-token"))
        api.ok(game, FIRST, game.recorder)
        assert (
            api.client.post(
                f"/games/{game.id}/retractions/x/approve", headers=bearer(game.seat("B"))
            ).status_code
            == 422
        )
        before = head(chronicle)

        assert_rate_limited(new_game(api), 4, 60)
        assert_rate_limited(api.act(game, {"kind": "RevealGoal", "goal": "workers2"}, game.seat("A")), 4, 60)
        assert head(chronicle) == before
        assert api.get("/games").json()["total"] == 2


class Clock:
    """The limiter's clock, moved by the test: a window's edge must not fall between two
    requests by chance, as it would with the real clock on a slow machine."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_a_write_is_admitted_again_once_its_window_is_over(
    chronicle: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", clock)
    with served(chronicle, token_rate=None, address_rate=Rate(1, "minute")) as api:
        created(new_game(api))
        clock.now += 59
        refused = new_game(api)
        assert_rate_limited(refused, 1, 60)
        assert int(refused.headers["retry-after"]) == 1

        clock.now += 1

        created(new_game(api))
        assert_rate_limited(new_game(api), 1, 60)


def test_without_limits_a_burst_of_writes_is_admitted(chronicle: Chronicle) -> None:
    with served(chronicle, token_rate=None, address_rate=None) as api:
        for _ in range(12):
            created(new_game(api))


@pytest.mark.redis
def test_with_redis_two_servers_share_the_counters(
    chronicle: Chronicle, redis_namespace: tuple[str, str]
) -> None:
    url, namespace = redis_namespace
    settings = {"token_rate": None, "address_rate": Rate(3, "minute"), "redis_url": url}
    with (
        served(chronicle, **settings, redis_namespace=namespace) as first,
        served(chronicle, **settings, redis_namespace=namespace) as second,
    ):
        created(new_game(first))
        created(new_game(second))
        created(new_game(first))

        assert_rate_limited(new_game(second), 3, 60)
        assert_rate_limited(new_game(first), 3, 60)
        assert first.get("/games").json()["total"] == 3


@pytest.mark.redis
def test_with_redis_the_counters_hold_no_token(
    chronicle: Chronicle, redis_namespace: tuple[str, str]
) -> None:
    url, namespace = redis_namespace
    with served(chronicle, token_rate=Rate(5, "minute"), redis_url=url, redis_namespace=namespace) as api:
        game = created(new_game(api))
        api.ok(game, FIRST, game.recorder)

    with redis.Redis.from_url(url) as client:
        keys = [key.decode() for key in client.scan_iter(match=f"{namespace}*")]
        values = b"".join(client.get(key) or b"" for key in keys)
    assert sorted(key.removeprefix(f"{namespace}:rate_limit:").split(":")[0] for key in keys) == [
        "address",
        "token",
    ]
    assert any(key.endswith("address:testclient") for key in keys), keys
    assert not any(game.recorder in key for key in keys) and game.recorder.encode() not in values


@pytest.mark.redis
def test_an_unreachable_redis_refuses_writes_with_503_and_appends_nothing(chronicle: Chronicle) -> None:
    with served(chronicle, redis_url="redis://127.0.0.1:1/0") as api:
        assert_problem(new_game(api), 503, "rate_limiter_unavailable")
        assert api.get("/games").status_code == 200

    assert head(chronicle) == 0


def test_ended_windows_are_swept_from_memory_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(rate_limits, "time", clock)
    monkeypatch.setattr(rate_limits, "PURGE_EVERY", 4)
    counters = rate_limits.MemoryCounters()
    once = Rate(1, "second")
    counters.count("token:a", once)
    clock.now += 1  # its window is over, and its key never comes again
    counters.count("token:b", once)
    counters.count("token:c", once)
    assert "token:a" in counters.counts  # three writes: no sweep yet

    counters.count("token:d", once)  # the fourth write sweeps

    assert list(counters.counts) == ["token:b", "token:c", "token:d"]


def test_a_refused_write_is_not_counted_in_memory() -> None:
    counters = rate_limits.MemoryCounters()
    two = Rate(2, "minute")
    counters.count("address:x", two)
    counters.count("address:x", two)
    for _ in range(3):
        with pytest.raises(TooManyRequestsException) as refused:
            counters.count("address:x", two)
        assert refused.value.headers is not None and refused.value.headers["RateLimit-Limit"] == "2"
    assert counters.counts["address:x"][0] == 2


@pytest.mark.redis
def test_with_redis_concurrent_writes_from_two_processes_never_pass_the_limit(
    redis_namespace: tuple[str, str],
) -> None:
    """Each count is taken and raised in one transaction: however the writes of two server
    processes interleave, exactly the limit is admitted."""
    url, namespace = redis_namespace
    five = Rate(5, "minute")

    async def burst() -> list[bool]:
        first, second = rate_limits.RedisCounters(url, namespace), rate_limits.RedisCounters(url, namespace)

        async def one(counters: rate_limits.RedisCounters) -> bool:
            try:
                await counters.count("address:burst", five)
            except TooManyRequestsException as refused:
                assert refused.headers is not None
                assert 1 <= int(refused.headers["RateLimit-Reset"]) <= 60
                return False
            return True

        try:
            return await asyncio.gather(*(one(first if i % 2 else second) for i in range(24)))
        finally:
            await first.close()
            await second.close()
            assert first.client is None and second.client is None

    admitted = asyncio.run(burst())

    assert sum(admitted) == 5
    with redis.Redis.from_url(url) as client:
        assert 1 <= client.ttl(f"{namespace}:rate_limit:address:burst") <= 60  # the window ends


def test_a_scope_without_a_client_is_counted_as_the_local_address() -> None:
    assert rate_limits.address_key({"client": None}) == "address:127.0.0.1"  # type: ignore[arg-type]
    assert rate_limits.address_key({"client": ("10.1.2.3", 5)}) == "address:10.1.2.3"  # type: ignore[arg-type]
