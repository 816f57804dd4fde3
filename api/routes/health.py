"""`GET /health`: the server answers and so does its event store."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlparse

from litestar import get
from litestar.di import NamedDependency

from api.problems import problem_responses
from api.schemas import Health
from store.app import Chronicle


def store_kind(url: str) -> Literal["sqlite", "postgresql"]:
    return "sqlite" if urlparse(url).scheme == "sqlite" else "postgresql"


@get("/health", sync_to_thread=True, tags=["health"], responses=problem_responses(503))
def health(chronicle: NamedDependency[Chronicle]) -> Health:
    """The server is up and its event store answers a read."""
    chronicle.recorder.max_notification_id()
    return Health("ok", store_kind(chronicle.url))


ROUTES = [health]
