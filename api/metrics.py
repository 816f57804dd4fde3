"""`GET /metrics`: this server process's figures in the Prometheus text format.

- `chronicle_actions_recorded_total`: actions this process appended;
- `chronicle_rejections_total{code}`: refused requests by their problem `code`;
- `chronicle_record_seconds`: time to decide and append one action (`POST /games/{id}/actions`,
  from its handler's start to its commit; a refused action is not timed);
- `chronicle_live_subscribers`, `chronicle_live_games`: open live streams, and the games they follow;
- `chronicle_redis_up`: 1 while the live streams are linked through Redis (with `CHRONICLE_REDIS`);
- `chronicle_projection_lag_games`: finished games the statistics view has not counted yet
  (up to 1,000).

Each application has a registry of its own, so several in one process (the tests) never mix.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from litestar import Litestar, Response, get
from litestar.datastructures import State
from litestar.types import Scope
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from domain.events import GameFinished
from domain.game import Game
from domain.ruleset import RejectedError
from projections.runner import APP_NAME, StatsReader
from store.app import Appended, Chronicle
from store.errors import ServiceError

LAG_LIMIT = 1000

# Litestar adds the charset of a text answer itself: named here too, it came twice
PROMETHEUS_TEXT = CONTENT_TYPE_LATEST.replace("; charset=utf-8", "")


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter(
            "chronicle_actions_recorded", "Actions this process appended", registry=self.registry
        )
        self.rejections = Counter(
            "chronicle_rejections", "Refused requests by problem code", ["code"], registry=self.registry
        )
        self.record_seconds = Histogram(
            "chronicle_record_seconds",
            "Time to answer POST /games/{id}/actions",
            buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )
        self.subscribers = Gauge("chronicle_live_subscribers", "Open live streams", registry=self.registry)
        self.live_games = Gauge("chronicle_live_games", "Games followed live", registry=self.registry)
        self.redis_up = Gauge("chronicle_redis_up", "1 while linked through Redis", registry=self.registry)
        self.lag = Gauge(
            "chronicle_projection_lag_games",
            "Finished games the statistics view has not counted yet",
            registry=self.registry,
        )

    def saved(self, appended: list[Appended]) -> None:
        count = sum(1 for event in appended if event.topic == Game.ActionRecorded.TOPIC)
        if count:
            self.actions.inc(count)

    def refused(self, exc: Exception, _scope: Scope) -> None:
        if isinstance(exc, RejectedError):
            self.rejections.labels(exc.rejection.code).inc()
        elif isinstance(exc, ServiceError):
            self.rejections.labels(exc.code).inc()
        else:
            status = getattr(exc, "status_code", 500)
            self.rejections.labels(f"http_{status}").inc()

    async def after_exception(self, exc: Exception, scope: Scope) -> None:
        self.refused(exc, scope)


def metrics_lifespan(metrics: Metrics) -> Callable[[Litestar], AbstractAsyncContextManager[None]]:
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        chronicle: Chronicle = app.state.chronicle
        chronicle.listeners.append(metrics.saved)
        try:
            yield
        finally:
            if metrics.saved in chronicle.listeners:
                chronicle.listeners.remove(metrics.saved)

    return lifespan


def _projection_lag(state: State) -> int:
    chronicle: Chronicle = state.chronicle
    reader: StatsReader | None = state.get("stats")
    if reader is None:
        from api.dependencies import provide_stats

        reader = provide_stats(state)
    view = reader.view()
    position = 0 if view is None else (view.max_tracking_id(APP_NAME) or 0)
    waiting = chronicle.recorder.select_notifications(
        start=position, limit=LAG_LIMIT, topics=(GameFinished.TOPIC,), inclusive_of_start=False
    )
    return len(waiting)


@get("/metrics", sync_to_thread=True, tags=["health"], include_in_schema=True)
def metrics_route(state: State) -> Response[bytes]:
    """This process's figures, in the Prometheus text format."""
    metrics: Metrics = state.metrics
    live: Any = state.get("live")
    if live is not None:
        metrics.subscribers.set(live.games.subscribers() + live.fanout.feed_watchers())
        metrics.live_games.set(len(live.games.games))
        if live.fanout.redis_url:
            metrics.redis_up.set(1 if live.fanout.linked else 0)
    metrics.lag.set(_projection_lag(state))
    return Response(generate_latest(metrics.registry), media_type=PROMETHEUS_TEXT)


ROUTES = [metrics_route]
