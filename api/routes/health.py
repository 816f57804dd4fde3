"""`GET /health`: the server answers and so does its event store (a read, and on SQLite the
writer process, each within two seconds: store/answering.py); which process answered, and
whether it runs the statistics view."""

from __future__ import annotations

import os
from typing import Any, Literal
from urllib.parse import urlparse

from litestar import Request, get
from litestar.di import NamedDependency

from api.problems import problem_responses
from api.schemas import Health
from projections.runner import ProjectionHost
from store.answering import probe
from store.app import Chronicle


def store_kind(url: str) -> Literal["sqlite", "postgresql"]:
    return "sqlite" if urlparse(url).scheme == "sqlite" else "postgresql"


@get("/health", tags=["health"], responses=problem_responses(503))
async def health(chronicle: NamedDependency[Chronicle], request: Request[Any, Any, Any]) -> Health:
    """The server is up and its event store answers a read, and on SQLite its writer process
    answers, within two seconds (else 503 `store_unavailable`, saying which did not); with
    Redis, whether the live streams are linked through it."""
    await probe(chronicle).check()
    host: ProjectionHost | None = request.app.state.get("projections")
    projections: Literal["running", "standby", "external"] = (
        "external" if host is None else "running" if host.leading else "standby"
    )
    fanout = getattr(request.app.state.get("live"), "fanout", None)
    redis: Literal["up", "down"] | None = (
        None if fanout is None or fanout.redis_url is None else "up" if fanout.linked else "down"
    )
    return Health("ok", store_kind(chronicle.url), projections, os.getpid(), redis)


ROUTES = [health]
