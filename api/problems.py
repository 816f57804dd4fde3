"""Problem details (RFC 9457) for every error the API answers, and the handlers that make them.

Every error body is `application/problem+json`:
`{"type": "https://chronicle.dev/problems/<code>", "title", "status", "detail", "code", "rule"?}`.
`code` is stable and machine-readable, snake_case in every game: a ruleset's rejection code
(`not_active_player`, `wrong_phase`, ..., with the spec's own name beside it as `spec_code` where
it differs, such as `WRONG_PHASE` or `E_BAD_PARAMS`) or one of the service's (`game_not_found`,
`version_conflict`, `invalid_token`, ...). A bad request
is always a 4xx with such a body; only a fault of the server itself is a 500 (`internal_error`),
and its details go to the log, never to the client.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import msgspec
from eventsourcing.persistence import InterfaceError, OperationalError
from litestar import Request, Response
from litestar.exceptions import HTTPException, SerializationException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.types import ExceptionHandlersMap
from redis.exceptions import RedisError

from domain.ruleset import RejectedError
from store.errors import ServiceError, StoreNotAnswering
from store.limits import INT64_MAX, INT64_MIN, MAX_BODY_BYTES, MAX_IMPORT_BYTES, explain

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPE_BASE = "https://chronicle.dev/problems/"

log = logging.getLogger("chronicle.api")


class Problem(msgspec.Struct, omit_defaults=True):
    """An RFC 9457 problem, with Chronicle's stable `code` and, for a rules rejection, the
    rule (spec file and section) it rests on."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    rule: str | None = None
    spec_code: str | None = None  # the rules spec's own name of `code`, where it differs


def problem(
    status: int, code: str, title: str, detail: str, rule: str | None = None, spec_code: str | None = None
) -> Response[Problem]:
    headers = {"WWW-Authenticate": 'Bearer realm="chronicle"'} if status == 401 else None
    body = Problem(PROBLEM_TYPE_BASE + code, title, status, detail, code, rule or None, spec_code)
    return Response(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _status_code(status: int) -> str:
    return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")


def _on_service_error(_: Request[Any, Any, Any], exc: ServiceError) -> Response[Problem]:
    return problem(exc.status, exc.code, exc.title, exc.detail)


_REJECTION_TITLES = {400: "The request is not valid", 403: "Not allowed", 422: "The rules do not allow this"}


def _on_rejection(_: Request[Any, Any, Any], exc: RejectedError) -> Response[Problem]:
    rejection = exc.rejection
    title = _REJECTION_TITLES.get(exc.status, HTTPStatus(exc.status).phrase)
    return problem(
        exc.status, rejection.stable_code, title, rejection.message, rejection.rule, rejection.spec_code
    )


def _on_validation(request: Request[Any, Any, Any], exc: ValidationException) -> Response[Problem]:
    """A body, query or header that does not fit its schema. An integer past the signed 64-bit
    bound every integer parameter carries is `number_out_of_range`, as in a body (api/guard.py)."""
    errors = [error for error in exc.extra if isinstance(error, dict)] if isinstance(exc.extra, list) else []
    parts = [_validation_message(error) for error in errors]
    detail = "; ".join(parts) or exc.detail
    bounds = (f"<= {INT64_MAX}", f">= {INT64_MIN}")
    out_of_range = any(bound in str(error.get("message")) for error in errors for bound in bounds)
    return problem(
        400,
        "number_out_of_range" if out_of_range else "invalid_request",
        "The request is not valid",
        f"{request.method} {request.url.path}: {detail}",
    )


def _validation_message(error: dict[str, Any]) -> str:
    key = str(error.get("key") or "")
    message = str(error.get("message", "invalid"))
    where = "body" if key in ("", "data") else key
    if message == repr(key):  # a required parameter (or the body) is missing
        return f"{where} is required"
    return f"{where}: {explain(message)}"


def _on_http_exception(_: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    status = exc.status_code
    if isinstance(exc.__cause__, SerializationException):  # Litestar could not decode the body
        if "Number out of range" in str(exc.detail):  # a float literal past the double range
            return problem(
                400,
                "number_out_of_range",
                "The request is not valid",
                "The body holds a number past the range of a 64-bit float.",
            )
        return problem(
            400,
            "invalid_json",
            "The body is not valid JSON",
            f"The request body cannot be read: {exc.detail}.",
        )
    if status == 413:
        return problem(
            413,
            "body_too_large",
            "The body is too large",
            f"A request body holds at most {MAX_BODY_BYTES:,} bytes ({MAX_IMPORT_BYTES:,} for an import).",
        )
    if status == 429:
        return _rate_limited(exc)
    if status == 404:
        return problem(404, "not_found", "Not found", "There is no such resource; see /schema for the API.")
    if status == 405:
        return _method_not_allowed(exc)
    if status >= 500:
        return problem(
            status, _status_code(status), HTTPStatus(status).phrase, "The server could not answer."
        )
    return problem(status, _status_code(status), HTTPStatus(status).phrase, exc.detail)


def _method_not_allowed(exc: HTTPException) -> Response[Problem]:
    """A 405 names the path's methods in `Allow`, as RFC 9110 asks: the router lists them,
    with `websocket` for a path that also upgrades (no HTTP method, so left out)."""
    listed = dict(exc.headers or {}).get("allow", "")
    methods = [m.strip() for m in listed.split(",") if m.strip() and m.strip().isupper()]
    refused = problem(405, "method_not_allowed", "Method not allowed", exc.detail)
    refused.headers["Allow"] = ", ".join(methods)
    return refused


def _rate_limited(exc: HTTPException) -> Response[Problem]:
    """A write over its rate limit (api/rate_limits.py): `Retry-After` says when the window
    that refused it ends, and the `RateLimit-*` headers describe the limit."""
    headers = dict(exc.headers or {})
    reset = headers.get("RateLimit-Reset", "")
    retry_after = max(1, int(reset)) if reset.isdigit() else 1
    response = problem(
        429,
        "rate_limited",
        "Too many requests",
        f"Too many writes from this token or address; retry in {retry_after} s.",
    )
    response.headers.update({**headers, "Retry-After": str(retry_after)})
    return response


def _on_store_unavailable(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.warning("store unavailable: %s", exc)
    return problem(
        503, "store_unavailable", "The event store is unavailable", "The event store did not answer; retry."
    )


def _on_store_not_answering(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """A part of the store that did not answer in time: the message says which, and what
    became of a write (store/errors.py)."""
    log.warning("store not answering: %s", exc)
    return problem(503, "store_unavailable", "The event store is unavailable", str(exc))


def _on_limiter_unavailable(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.warning("rate limiter unavailable: %s", exc)
    return problem(
        503,
        "rate_limiter_unavailable",
        "The rate limiter is unavailable",
        "The rate limiter's Redis did not answer, so no write is accepted; retry.",
    )


def _on_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem(500, "internal_error", "Internal server error", "The server failed; the error was logged.")


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ServiceError: _on_service_error,
    RejectedError: _on_rejection,
    ValidationException: _on_validation,
    HTTPException: _on_http_exception,
    StoreNotAnswering: _on_store_not_answering,
    OperationalError: _on_store_unavailable,
    InterfaceError: _on_store_unavailable,
    RedisError: _on_limiter_unavailable,
    Exception: _on_unexpected,
}


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the problem answers a route may give."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=f"{HTTPStatus(status).phrase} (problem details)",
            generate_examples=False,
        )
        for status in statuses
    }
