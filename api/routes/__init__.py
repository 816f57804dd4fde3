"""The route handlers, one module per concern; `ROUTES` lists them all for `create_app`.

They are handed over in one `Router`, so each path is registered once with all its handlers.
Litestar 2 registers every handler of a path again whenever another handler joins that path,
and a sync handler registered twice is wrapped for the thread pool twice: it then answers a
coroutine (a 500 for a handler returning a `Response`) and loses its name in the OpenAPI
document (`operationId` "GamesAsynccallable").
"""

from __future__ import annotations

from litestar import Router

from api import live, metrics
from api.routes import (
    deals,
    dispute_page,
    disputes,
    endings,
    games,
    health,
    imports,
    new_game_page,
    notes,
    players,
    reading,
    retractions,
    rulebook_page,
    rulesets,
    stats,
    table_page,
    transfer,
    variations,
    viewer,
)

HANDLERS = [
    *health.ROUTES,
    *rulesets.ROUTES,
    *games.ROUTES,
    *imports.ROUTES,
    *transfer.ROUTES,
    *disputes.ROUTES,
    *deals.ROUTES,
    *retractions.ROUTES,
    *endings.ROUTES,
    *notes.ROUTES,
    *variations.ROUTES,
    *reading.ROUTES,
    *stats.ROUTES,
    *players.ROUTES,
    *viewer.ROUTES,
    *new_game_page.ROUTES,
    *rulebook_page.ROUTES,
    *dispute_page.ROUTES,
    *table_page.ROUTES,
    *live.ROUTES,
    *metrics.ROUTES,
]
ROUTES = [Router(path="/", route_handlers=HANDLERS), viewer.STATIC_ROUTER]
