"""Bearer tokens: from the `Authorization` header to what the caller may do on one game.

A seat token acts for its seat and sees its hidden information; the recorder token acts for
any seat and sees everything; the administrator token (env `CHRONICLE_ADMIN_TOKEN`) may do what
the recorder does on every game and more; no token is the public, read-only view (design.md 5).
A header that is present but not a bearer token is refused (`invalid_token`), never ignored.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar.connection import ASGIConnection

from api.settings import EdgeSettings
from store.app import Access, Chronicle
from store.errors import GameNotFound, Unauthorized
from store.limits import MAX_TOKEN


def header(connection: ASGIConnection[Any, Any, Any, Any], name: bytes) -> str | None:
    """The first value of the header `name` (in lower case, as ASGI gives names), or None:
    read from the scope, without building the request's header mapping for one lookup."""
    for key, value in connection.scope["headers"]:
        if key == name:
            return value.decode("latin-1")
    return None


def bearer_token(request: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header."""
    found = header(request, b"authorization")
    if found is None:
        return None
    scheme, _, token = found.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        raise Unauthorized("Send the token as `Authorization: Bearer <token>`.", code="invalid_token")
    if len(token) > MAX_TOKEN:
        raise Unauthorized(f"A token has at most {MAX_TOKEN} characters.", code="invalid_token")
    return token


def check_creator(chronicle: Chronicle, settings: EdgeSettings, token: str | None) -> bool:
    """Refuse `token` a new game the server's creation policy does not allow it (401, 403);
    whether it is the administrator's."""
    admin = chronicle.is_admin(token)
    settings.check_create(token, admin)
    return admin


def parse_game_id(text: str) -> UUID:
    """A game id from a path; an id that is not a UUID names no game (404, not 400)."""
    try:
        return UUID(text)
    except ValueError:
        raise GameNotFound(f"There is no game {text}.") from None


def game_access(chronicle: Chronicle, game_id: UUID, token: str | None) -> Access:
    """What `token` grants on `game_id`. An unknown game is a 404 whatever the token, so a
    missing game is never reported as a missing token."""
    chronicle.secrets(game_id)
    return chronicle.access(game_id, token)


def open_game(chronicle: Chronicle, game_id: str, token: str | None) -> tuple[UUID, Access]:
    """The game a path names and what `token` grants on it: an id that is not a UUID, or that
    names no game, is a 404 whatever the token (parse_game_id, game_access)."""
    gid = parse_game_id(game_id)
    return gid, game_access(chronicle, gid, token)
