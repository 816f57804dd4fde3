"""Fuzzing the API from its OpenAPI document (tests/api/fuzzing.py), in process over ASGI, on
both stores: no 5xx, no traceback in any answer, and no event appended by a rejected request.
The example count is bounded for the suite's time; `bench/fuzz.py` runs the same with a large
one against a uvicorn process."""

from __future__ import annotations

import logging

import schemathesis
from schemathesis.core.transport import Response
from schemathesis.python import asgi

from api.app import create_app
from api.settings import EdgeSettings
from store.app import Chronicle
from tests.api.fuzzing import AnyCase, fuzz, seed_games
from tests.api.support import ADMIN_TOKEN

EXAMPLES = 6  # per operation and generation mode, on each store
SEED = 20260101


def test_generated_requests_never_get_a_5xx_a_traceback_or_a_partial_write(chronicle: Chronicle) -> None:
    app = create_app(chronicle, settings=EdgeSettings(token_rate=None, address_rate=None))
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app)
    games = seed_games(chronicle, ADMIN_TOKEN)

    def send(case: AnyCase) -> Response:
        return case.call(app=app)

    def head() -> int:
        return chronicle.recorder.max_notification_id() or 0

    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        figures = fuzz(schema, send, head, games, EXAMPLES, seed=SEED)
    finally:
        # schemathesis keeps one event loop for the process and every application's lifespan
        # running in it; stop them, so nothing of this application outlives its store.
        asgi._shutdown()

    assert figures.failures == [], "\n".join(figures.failures[:20])
    assert figures.requests == figures.examples > 20 * EXAMPLES
    classes = {status // 100 for status in figures.statuses}
    assert {2, 4} <= classes, figures.statuses  # both accepted and refused requests were met
