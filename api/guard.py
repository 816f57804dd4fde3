"""The checks every request passes before its handler decodes anything (`before_request`,
after the write limits).

Each refusal is a 400 problem: a body nested deeper than `MAX_JSON_DEPTH` (`json_too_deep`;
decoders recurse, so it is found on the raw text), an integer literal outside the signed 64-bit
range anywhere in a body (`number_out_of_range`; a ruleset must never see one, and neither
store can hold one), and a path or query text with a control character or longer than
`MAX_QUERY_TEXT` (`invalid_request`; such text reaches SQL filters, and PostgreSQL refuses
NUL). The body's size is Litestar's `request_max_body_size` (413 `body_too_large`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar import Request

from api.rate_limits import WriteLimits
from store.errors import InvalidRequest
from store.limits import (
    INT64_MAX,
    INT64_MIN,
    MAX_JSON_DEPTH,
    MAX_QUERY_TEXT,
    big_integer,
    text_problem,
    too_deep,
)

MAX_QUERY_ITEMS = 64
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def before_request(limits: WriteLimits) -> Callable[[Request[Any, Any, Any]], Awaitable[None]]:
    """The hook every request passes before its handler: a write is counted against the write
    limits (api/rate_limits.py), then the checks above."""

    async def before(request: Request[Any, Any, Any]) -> None:
        await limits.count(request.scope)
        await guard_request(request)

    return before


async def guard_request(request: Request[Any, Any, Any]) -> None:
    _check_path_and_query(request)
    if request.method in BODY_METHODS:
        body = await request.body()
        if body:
            check_body(body)


def check_body(body: bytes) -> None:
    if too_deep(body):
        raise InvalidRequest(
            f"The body nests arrays and objects deeper than {MAX_JSON_DEPTH} levels.", code="json_too_deep"
        )
    literal = big_integer(body)
    if literal is not None:
        shown = literal if len(literal) <= 40 else f"{literal[:20]}...({len(literal)} digits)"
        raise InvalidRequest(
            f"The integer {shown} lies outside the signed 64-bit range ({INT64_MIN} to {INT64_MAX}).",
            code="number_out_of_range",
        )


def _check_path_and_query(request: Request[Any, Any, Any]) -> None:
    for name, value in request.path_params.items():
        if isinstance(value, str):
            _check_text(f"path parameter {name}", value)
    if not request.scope.get("query_string"):
        return
    items = list(request.query_params.multi_items())
    if len(items) > MAX_QUERY_ITEMS:
        raise InvalidRequest(f"A request takes at most {MAX_QUERY_ITEMS} query parameters, not {len(items)}.")
    for name, value in items:
        _check_text("a query parameter name", name)
        _check_text(f"query parameter {name[:40]}", value)


def _check_text(what: str, text: str) -> None:
    problem = text_problem(what, text, MAX_QUERY_TEXT)
    if problem is not None:
        raise InvalidRequest(problem[0].upper() + problem[1:] + ".")
