"""The Litestar application, wired in one place.

`create_app(chronicle)` serves an application object the caller owns (tests, the CLI's
`serve`); `create_app(store=URL)` or `create_app()` opens the store named by the URL (or by
`CHRONICLE_STORE`) when the server starts and closes it when it stops. Either way the
application object and one `GameIndex` live on `app.state`.

The statistics view runs in the server process by default when the server opens the store
itself (`projections="inprocess"`); with `projections="external"` (or
`CHRONICLE_PROJECTIONS=external`) it is left to `chronicle projections run` processes and the
server only reads it.
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from typing import Literal

import anyio.to_thread
from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig

from api.access_log import AccessLog, access_logging
from api.dependencies import DEPENDENCIES
from api.docs import OfflineDocsPlugin
from api.guard import before_request
from api.live import live_lifespan
from api.metrics import Metrics, metrics_lifespan
from api.openapi import RefinedJsonPlugin
from api.problems import EXCEPTION_HANDLERS
from api.rate_limits import WriteLimits
from api.routes import ROUTES
from api.settings import EdgeSettings, SettingsError
from projections.games_index import GameIndex
from projections.runner import ProjectionHost, StatsReader
from store.app import Chronicle
from store.collector import fewer_collections
from store.limits import MAX_BODY_BYTES

DESCRIPTION = """Chronicle records and replays tabletop games as event streams.

Authenticate with `Authorization: Bearer <token>`: a seat token, the recorder token (both
returned once by `POST /games`), or the administrator token. Without a token you get the
public view. Every error is an RFC 9457 problem (`application/problem+json`) with a stable
`code`."""


def _open_store(store: str | None) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        # the server's commits on SQLite are written by a process of their own
        chronicle = await anyio.to_thread.run_sync(partial(Chronicle, store, writer_process=True))
        app.state.chronicle = chronicle
        app.state.index = GameIndex(chronicle)
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(chronicle.close)

    return lifespan


YOUNG_OBJECTS = 10_000  # objects allocated and not yet freed between two young collections


@asynccontextmanager
async def _collector(app: Litestar) -> AsyncIterator[None]:
    """Once the server is up, what start-up built (modules, routes, schemas: most of the
    objects the process will ever hold) is moved out of the collector's sight. Without it
    every full collection walked them all again: pauses of a tenth of a second that every
    request and live stream in flight waited through.

    Young collections wait for `YOUNG_OBJECTS` objects rather than 700. A recorded action
    leaves a few dozen objects that outlive it for a while (its events until they are
    written, its answer until it is sent): with 700, a young collection came every dozen
    actions and took about 8% of the server's CPU time; with 10,000 they come a few times a
    run, under 1% (bench.http_actions, timed with `gc.callbacks`). Garbage in reference
    cycles waits longer to be freed."""
    gc.collect()
    gc.freeze()
    with fewer_collections(YOUNG_OBJECTS):
        yield


ProjectionsMode = Literal["inprocess", "external"]


def _run_projections(mode: ProjectionsMode) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        host: ProjectionHost | None = None
        if mode == "inprocess":
            url = app.state.chronicle.url
            host = await anyio.to_thread.run_sync(lambda: ProjectionHost(url, role="chronicle serve").start())
        app.state.projections = host
        try:
            yield
        finally:
            if host is not None:
                await anyio.to_thread.run_sync(host.stop)
            reader: StatsReader | None = app.state.get("stats")
            if reader is not None:
                reader.close()

    return lifespan


def projections_mode(given: str | None, default: ProjectionsMode) -> ProjectionsMode:
    mode = given or os.environ.get("CHRONICLE_PROJECTIONS") or default
    if mode not in ("inprocess", "external"):
        raise ValueError(f"projections run 'inprocess' or 'external', not {mode!r}")
    return mode  # type: ignore[return-value]


def create_app(
    chronicle: Chronicle | None = None,
    store: str | None = None,
    projections: ProjectionsMode | None = None,
    settings: EdgeSettings | None = None,
) -> Litestar:
    """The HTTP API over `chronicle`, or over a store opened from `store` (a URL) at start-up.
    The statistics view runs in process when the app opens the store itself, unless
    `projections` (or `CHRONICLE_PROJECTIONS`) says `external`; over a given application
    object it runs in process only when asked. `settings` (default: from the environment,
    api/settings.py) set who may create games, the write rate limits and where the access log
    goes (api/access_log.py)."""
    if chronicle is not None and store is not None:
        raise ValueError("give either an application object or a store URL, not both")
    mode = projections_mode(projections, "inprocess" if chronicle is None else "external")
    settings = settings if settings is not None else EdgeSettings.from_env()
    state = State({"chronicle": chronicle, "index": GameIndex(chronicle)} if chronicle is not None else {})
    state.settings = settings
    state.metrics = metrics = Metrics()
    try:
        access_log = AccessLog.to(settings.access_log)
    except OSError as error:
        raise SettingsError(
            f"CHRONICLE_ACCESS_LOG: cannot write to {settings.access_log}: {error.strerror}"
        ) from None
    limits = WriteLimits(settings)
    return Litestar(
        route_handlers=ROUTES,
        dependencies=DEPENDENCIES,
        exception_handlers=EXCEPTION_HANDLERS,
        state=state,
        middleware=[
            *([access_logging(access_log)] if access_log is not None else []),
        ],
        before_request=before_request(limits),
        request_max_body_size=MAX_BODY_BYTES,
        lifespan=[
            *([_open_store(store)] if chronicle is None else []),
            _run_projections(mode),
            live_lifespan(settings),
            metrics_lifespan(metrics),
            _collector,
        ],
        after_exception=[metrics.after_exception],
        on_shutdown=[limits.close, *([access_log.close] if access_log is not None else [])],
        openapi_config=OpenAPIConfig(
            title="Chronicle",
            version="0.1.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[OfflineDocsPlugin(), RefinedJsonPlugin()],
        ),
    )
