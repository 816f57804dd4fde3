"""How a route module declares its handlers: one `Concern` per module names the tag its
operations are listed under in the OpenAPI document, and each handler states its path and the
problem statuses it may answer (api/problems.py), nothing more.

A concern's handlers run in the worker threads (`sync_to_thread`) unless it says otherwise:
they read and write the store, which blocks (None: async handlers, which need no thread).
Litestar's own defaults stand for the rest (a POST answers 201, a DELETE 204) unless a
handler passes `status_code`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litestar import delete, get, patch, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec

from api.problems import problem_responses
from store.limits import MAX_IMPORT_BYTES

# The problems of a write to a game: a bad body, no or a wrong token, no such game, a conflict,
# a body too large, a write over its rate limit; and of one the rules may refuse as well (422).
GAME_WRITE = (400, 401, 403, 404, 409, 413, 429)
RULED_WRITE = (400, 401, 403, 404, 409, 413, 422, 429)


class Concern:
    """The decorators of one route module's handlers."""

    def __init__(self, tag: str, *, sync_to_thread: bool | None = True) -> None:
        self.tag = tag
        self.sync_to_thread = sync_to_thread

    def get(
        self, path: str, *problems: int, answers: Mapping[int, ResponseSpec] | None = None, **options: Any
    ) -> HTTPRouteHandler:
        return self._declare(get, path, problems, answers, options)

    def post(
        self, path: str, *problems: int, answers: Mapping[int, ResponseSpec] | None = None, **options: Any
    ) -> HTTPRouteHandler:
        return self._declare(post, path, problems, answers, options)

    def post_import(self, path: str, *problems: int) -> HTTPRouteHandler:
        """A POST that stores a game brought from elsewhere (201): its body may be as large as an
        import's, not only a request's."""
        return self.post(path, *problems, status_code=201, request_max_body_size=MAX_IMPORT_BYTES)

    def patch(self, path: str, *problems: int, **options: Any) -> HTTPRouteHandler:
        return self._declare(patch, path, problems, None, options)

    def delete(self, path: str, *problems: int, **options: Any) -> HTTPRouteHandler:
        return self._declare(delete, path, problems, None, options)

    def _declare(
        self,
        kind: type[HTTPRouteHandler],
        path: str,
        problems: tuple[int, ...],
        answers: Mapping[int, ResponseSpec] | None,
        options: dict[str, Any],
    ) -> HTTPRouteHandler:
        """The handler decorator; `answers` documents the successful answers where the return
        type alone does not say enough (several statuses, several media types)."""
        responses = {**(answers or {}), **problem_responses(*problems)} or None
        return kind(path, sync_to_thread=self.sync_to_thread, tags=[self.tag], responses=responses, **options)
