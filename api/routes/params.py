"""Query parameters that more than one route takes, declared once so the OpenAPI document
describes them alike."""

from __future__ import annotations

from typing import Annotated

from litestar.params import ParameterKwarg, QueryParameter

from store.limits import INT64_MAX, INT64_MIN


def checked_version(description: str, name: str | None = None) -> ParameterKwarg:
    """A version the handler checks itself (400 `invalid_version` below 1 or past the game):
    any 64-bit integer passes here, and the document states the minimum the check applies."""
    return QueryParameter(
        name=name, ge=INT64_MIN, le=INT64_MAX, schema_extra={"minimum": 1}, description=description
    )


ShownVersion = Annotated[int | None, checked_version("the version to show (default: the latest)")]
# A version the parameter's own bounds check (400 `invalid_request` below 1).
Version = Annotated[int | None, QueryParameter(ge=1, le=INT64_MAX)]
