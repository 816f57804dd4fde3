"""Rate limits on writes: Litestar's rate-limit middleware, once per client address and once
per bearer token, on every POST and DELETE (actions, retractions and their answers, game
creation, a view rebuild). Reads are never limited.

A write over either limit is refused before its handler runs, so it appends nothing: a 429
problem (`rate_limited`, api/problems.py) with `Retry-After` and the `RateLimit-*` headers.
A token is counted by its SHA-256 (the counters never hold a token); a request without one
meets the address limit alone. Windows are fixed (Litestar's): a limit of 600/minute admits
600 writes from the first one's second on, then none until that minute is over.

The counters live in memory, one set per server process, or in Redis with `CHRONICLE_REDIS`,
shared by every process. A Redis that does not answer refuses writes (503
`rate_limiter_unavailable`) rather than let them through uncounted.
"""

from __future__ import annotations

import hashlib
from time import time
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import TooManyRequestsException
from litestar.middleware.base import DefineMiddleware
from litestar.middleware.rate_limit import (
    DURATION_VALUES,
    CacheObject,
    RateLimitConfig,
    RateLimitMiddleware,
    get_remote_address,
)
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from litestar.types import Message, Receive, Scope, Send
from redis.asyncio import Redis

from api.settings import EdgeSettings, Rate

STORE = "rate_limit"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PURGE_EVERY = 10_000  # writes between two sweeps of expired counters from memory


class WriteCounters(MemoryStore):
    """The in-memory counters: each window a plain count and its end, in a dict. Only the
    event loop reads and writes them, with no await between the read and the write, so they
    need none of the locks, expiry stamps and encoding a store entry costs: through the store
    the two limits took a quarter of the server's time per recorded action."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, tuple[int, int]] = {}


class CountingRateLimitMiddleware(RateLimitMiddleware):
    """Litestar's middleware, keeping each window as a count and its end. Litestar stores one
    timestamp per request of the window and writes the whole list back on every request,
    which costs in proportion to the limit; only the list's length is ever read. Answers to
    admitted writes carry no `RateLimit-*` headers (two limits would each set them); a
    refusal carries the refusing limit's."""

    _writes = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        app = scope["litestar_app"]
        store = self.config.get_store_from_app(app)
        if not isinstance(store, WriteCounters):
            await super().__call__(scope, receive, send)
            return
        request: Request[Any, Any, Any] = app.request_class(scope)
        if await self.should_check_request(request=request):
            key = self.cache_key_from_request(request)
            now = int(time())
            count, reset = store.counts.get(key, (0, 0))
            if reset <= now:
                count, reset = 0, now + DURATION_VALUES[self.unit]
            if count >= self.max_requests:
                window = CacheObject(history=[reset] * count, reset=reset)
                headers = self.create_response_headers(window) if self.config.set_rate_limit_headers else None
                raise TooManyRequestsException(headers=headers)
            store.counts[key] = (count + 1, reset)
            CountingRateLimitMiddleware._writes += 1
            if CountingRateLimitMiddleware._writes % PURGE_EVERY == 0:
                # an ended window is dropped only when its key comes again: sweep now and
                # then, or one-off keys (a token per request) would pile up
                store.counts = {k: v for k, v in store.counts.items() if v[1] > now}
        await self.app(scope, receive, send)

    async def retrieve_cached_history(self, key: str, store: Store) -> CacheObject:
        now = int(time())
        cached = await store.get(key)
        if cached:
            count, reset = msgspec.json.decode(cached, type=tuple[int, int])
            if reset > now:
                return CacheObject(history=[reset] * count, reset=reset)
        return CacheObject(history=[], reset=now + DURATION_VALUES[self.unit])

    async def set_cached_history(self, key: str, cache_object: CacheObject, store: Store) -> None:
        now = int(time())
        cache_object.history.append(now)
        count = len(cache_object.history)
        expires_in = max(1, cache_object.reset - now)
        await store.set(key, msgspec.json.encode((count, cache_object.reset)), expires_in=expires_in)

    def create_send_wrapper(self, send: Send, cache_object: CacheObject) -> Send:
        async def unchanged(message: Message) -> None:
            await send(message)

        return unchanged


# The checks are coroutines: Litestar runs a plain function given here in a worker thread,
# two thread hops per write to compare a method name.
async def is_write(request: Request[Any, Any, Any]) -> bool:
    return request.method in WRITES


async def has_token_and_writes(request: Request[Any, Any, Any]) -> bool:
    return request.method in WRITES and "authorization" in request.headers


def address_of(request: Request[Any, Any, Any]) -> str:
    return "address:" + get_remote_address(request)


def token_of(request: Request[Any, Any, Any]) -> str:
    header = request.headers.get("authorization", "")
    return "token:" + hashlib.sha256(header.strip().encode()).hexdigest()[:32]


def _config(rate: Rate, identify: Any, check: Any) -> DefineMiddleware:
    return RateLimitConfig(
        rate_limit=(rate.unit, rate.limit),
        identifier_for_request=identify,
        check_throttle_handler=check,
        middleware_class=CountingRateLimitMiddleware,
        store=STORE,
    ).middleware


def write_limits(settings: EdgeSettings) -> list[DefineMiddleware]:
    """The middleware of the configured limits: the address first, then the token."""
    middleware = []
    if settings.address_rate is not None:
        middleware.append(_config(settings.address_rate, address_of, is_write))
    if settings.token_rate is not None:
        middleware.append(_config(settings.token_rate, token_of, has_token_and_writes))
    return middleware


def limit_stores(settings: EdgeSettings) -> dict[str, Store]:
    """The counters' store: Redis when `CHRONICLE_REDIS` names one, else the app's memory."""
    if settings.redis_url is None:
        return {STORE: WriteCounters()}
    client = Redis.from_url(settings.redis_url, socket_timeout=2.0, socket_connect_timeout=2.0)
    store = RedisStore(client, namespace=f"{settings.redis_namespace}:{STORE}", handle_client_shutdown=True)
    return {STORE: store}
