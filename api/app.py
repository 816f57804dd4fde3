"""The Litestar application, wired in one place.

`create_app(chronicle)` serves an application object the caller owns (tests, the CLI's
`serve`); `create_app(store=URL)` or `create_app()` opens the store named by the URL (or by
`CHRONICLE_STORE`) when the server starts and closes it when it stops. Either way the
application object and one `GameIndex` live on `app.state`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import anyio.to_thread
from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import ScalarRenderPlugin, SwaggerRenderPlugin

from api.dependencies import DEPENDENCIES
from api.problems import EXCEPTION_HANDLERS
from api.routes import ROUTES
from projections.games_index import GameIndex
from store.app import Chronicle

DESCRIPTION = """Chronicle records and replays tabletop games as event streams.

Authenticate with `Authorization: Bearer <token>`: a seat token, the recorder token (both
returned once by `POST /games`), or the administrator token. Without a token you get the
public view. Every error is an RFC 9457 problem (`application/problem+json`) with a stable
`code`."""


def _open_store(store: str | None) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        chronicle = await anyio.to_thread.run_sync(Chronicle, store)
        app.state.chronicle = chronicle
        app.state.index = GameIndex(chronicle)
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(chronicle.close)

    return lifespan


def create_app(chronicle: Chronicle | None = None, store: str | None = None) -> Litestar:
    """The HTTP API over `chronicle`, or over a store opened from `store` (a URL) at start-up."""
    if chronicle is not None and store is not None:
        raise ValueError("give either an application object or a store URL, not both")
    state = State({"chronicle": chronicle, "index": GameIndex(chronicle)} if chronicle is not None else {})
    return Litestar(
        route_handlers=ROUTES,
        dependencies=DEPENDENCIES,
        exception_handlers=EXCEPTION_HANDLERS,
        state=state,
        lifespan=[_open_store(store)] if chronicle is None else [],
        openapi_config=OpenAPIConfig(
            title="Chronicle",
            version="0.1.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[ScalarRenderPlugin(), SwaggerRenderPlugin()],
        ),
    )
