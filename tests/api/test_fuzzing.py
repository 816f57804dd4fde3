"""Fuzzing the API from its OpenAPI document (tests/api/fuzzing.py), in process over ASGI, on
both stores: no 5xx, no traceback in any answer, no event appended by a rejected request, and
every check schemathesis has, positive_data_acceptance included. A request that fits the schema
is accepted, or refused only for the game's or the server's state with the documented problem of
`STATE_REFUSALS` (an action the rules refuse now, a version past the game's end, no pending
retraction, a log that does not parse, a ruleset not installed): the document's request schemas
say the rest (a body's unknown fields refused, an action's text of at least one character, the
statistics filters' forms). The sizes are bounded for the suite's time (about 15 s a store);
`bench/fuzz.py` runs the same with large ones against a uvicorn process."""

from __future__ import annotations

import logging

import schemathesis
from schemathesis.core.transport import Response
from schemathesis.python import asgi

from api.app import create_app
from api.settings import EdgeSettings
from store.app import Chronicle
from tests.api.fuzzing import AnyCase, Checking, all_checks, fuzz, seed_games
from tests.api.support import ADMIN_TOKEN

EXAMPLES = 1  # per operation and generation mode, on each store
COVERAGE = 2  # coverage-phase requests per operation and generation mode
SEED = 20260101


def test_generated_requests_pass_every_check(chronicle: Chronicle) -> None:
    app = create_app(chronicle, settings=EdgeSettings(token_rate=None, address_rate=None))
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app)
    games = seed_games(chronicle, ADMIN_TOKEN)

    def send(case: AnyCase) -> Response:
        return case.call(app=app)

    def head() -> int:
        return chronicle.recorder.max_notification_id() or 0

    logging.getLogger("httpx").setLevel(logging.WARNING)
    checking = Checking(all_checks(), {"app": app}, COVERAGE)
    try:
        figures = fuzz(schema, send, head, games, EXAMPLES, seed=SEED, checking=checking)
    finally:
        # schemathesis keeps one event loop for the process and every application's lifespan
        # running in it; stop them, so nothing of this application outlives its store.
        asgi._shutdown()

    assert figures.failures == [], "\n".join(figures.failures[:20])
    assert figures.by_check == {}
    assert "positive_data_acceptance" in {check.__name__ for check in checking.checks}
    assert figures.requests == figures.examples > 20 * (EXAMPLES + COVERAGE)
    classes = {status // 100 for status in figures.statuses}
    assert {2, 4} <= classes, figures.statuses  # both accepted and refused requests were met
    assert 405 in figures.statuses  # the coverage phase's undeclared methods were sent
