"""Rate limits on writes, once per client address and once per bearer token, on every POST,
PUT, PATCH and DELETE (actions, retractions and their answers, game creation, a view
rebuild). Reads are never limited.

A write over either limit is refused before its handler runs, so it appends nothing: a 429
problem (`rate_limited`, api/problems.py) with `Retry-After` and the `RateLimit-*` headers of
the limit that refused it. A token is counted by its SHA-256 (the counters never hold a
token); a request without one meets the address limit alone, and the address is counted
first. Windows are fixed: a limit of 600/minute admits 600 writes from the first one's second
on, then none until that minute is over. A write refused by its rules (a 422) was admitted
here, so it counts.

The counters live in memory, one set per server process, or in Redis with `CHRONICLE_REDIS`,
shared by every process; there each count is taken and raised in one atomic round trip, so
two processes never admit the same place twice. A Redis that does not answer refuses writes
(503 `rate_limiter_unavailable`) rather than let them through uncounted.

The hook every request passes before its handler (api/guard.py) counts both limits, first,
straight from the ASGI scope: the busiest write, an action, passes it several thousand times a
second, and building a request object per limit cost more than the counting. It is not a
middleware: beneath any middleware Litestar adds a second layer of exception handling to
every request, which cost more than the counting too.

Mutants judged equivalent (bench/mutation.py, group news): the header names in other letter
cases (HTTP reads them alike) and the codec's name likewise; a token key's prefix spelled
otherwise (only its difference from the address's matters); a first window's count or end
other than zero (an ended window starts afresh either way); the sweep counting writes down
rather than up; the client's timeouts (reached only on a Redis that stops answering mid-way,
not one that refuses); the transaction dropped from the window's pipeline (each command is
atomic alone; only a window ending between them could tell); and a refusal's shortest reset
raised from one second to two.
"""

from __future__ import annotations

import hashlib
from time import time

from litestar.exceptions import TooManyRequestsException
from litestar.types import Scope
from redis.asyncio import Redis

from api.settings import EdgeSettings, Rate

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
PURGE_EVERY = 10_000  # writes between two sweeps of ended windows from memory
UNKNOWN_ADDRESS = "127.0.0.1"  # a scope without a client (Litestar's choice, kept)


def refusal(rate: Rate, reset_in: int) -> TooManyRequestsException:
    """The 429 for `rate`, whose window ends in `reset_in` seconds."""
    return TooManyRequestsException(
        headers={
            "RateLimit-Policy": f"{rate.limit}; w={SECONDS[rate.unit]}",
            "RateLimit-Limit": str(rate.limit),
            "RateLimit-Remaining": "0",
            "RateLimit-Reset": str(reset_in),
        }
    )


class MemoryCounters:
    """Each key's count and the end of its window. Only the event loop reads and writes them,
    with no await between the read and the write, so they need no lock."""

    def __init__(self) -> None:
        self.counts: dict[str, tuple[int, int]] = {}
        self.writes = 0

    def count(self, key: str, rate: Rate) -> None:
        """Count one write against `rate`, or raise its refusal (then nothing is counted)."""
        now = int(time())
        count, reset = self.counts.get(key, (0, 0))
        if reset <= now:
            count, reset = 0, now + SECONDS[rate.unit]
        if count >= rate.limit:
            raise refusal(rate, reset - now)
        self.counts[key] = (count + 1, reset)
        self.writes += 1
        if self.writes % PURGE_EVERY == 0:
            # an ended window is dropped only when its key comes again: sweep now and then,
            # or one-off keys (a token per request) would pile up
            self.counts = {k: v for k, v in self.counts.items() if v[1] > now}


class RedisCounters:
    """The counters in Redis, under `namespace`. A window is a key that expires with it:
    created at zero if absent, raised, and its time left read, in one transaction."""

    def __init__(self, url: str, namespace: str) -> None:
        self.url = url
        self.prefix = f"{namespace}:rate_limit:"
        self.client: Redis | None = None

    async def count(self, key: str, rate: Rate) -> None:
        if self.client is None:
            self.client = Redis.from_url(self.url, socket_timeout=2.0, socket_connect_timeout=2.0)
        name = self.prefix + key
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(name, 0, ex=SECONDS[rate.unit], nx=True)
            pipe.incr(name)
            pipe.ttl(name)
            _created, count, left = await pipe.execute()
        if count > rate.limit:
            raise refusal(rate, max(1, left))

    async def close(self) -> None:
        if self.client is not None:
            await self.client.aclose()
            self.client = None


def address_key(scope: Scope) -> str:
    client = scope.get("client")
    return "address:" + (client[0] if client else UNKNOWN_ADDRESS)


def token_key(scope: Scope) -> str | None:
    """The key of the request's `Authorization` header, or None without one."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return "token:" + hashlib.sha256(value.decode("latin-1").strip().encode()).hexdigest()[:32]
    return None


class WriteLimits:
    """The configured limits, as the application's middleware factory."""

    def __init__(self, settings: EdgeSettings) -> None:
        self.address = settings.address_rate
        self.token = settings.token_rate
        self.counters: MemoryCounters | RedisCounters = (
            MemoryCounters()
            if settings.redis_url is None
            else RedisCounters(settings.redis_url, settings.redis_namespace)
        )

    @property
    def active(self) -> bool:
        return self.address is not None or self.token is not None

    async def close(self) -> None:
        if isinstance(self.counters, RedisCounters):
            await self.counters.close()

    async def count(self, scope: Scope) -> None:
        """Count an HTTP write (`scope`) against each limit, or raise the refusal of the
        first it is over; anything else passes uncounted."""
        if not self.active or scope.get("method") not in WRITES:
            return
        keys: list[tuple[str, Rate]] = []
        if self.address is not None:
            keys.append((address_key(scope), self.address))
        if self.token is not None:
            key = token_key(scope)
            if key is not None:
                keys.append((key, self.token))
        counters = self.counters
        for key, rate in keys:
            if isinstance(counters, MemoryCounters):
                counters.count(key, rate)  # no await: in memory, counting never waits
            else:
                await counters.count(key, rate)
