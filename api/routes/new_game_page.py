"""The New game page at `/new`: a form per installed ruleset (players, mode, variant options,
Dominion's kingdom), which creates the game through `POST /games` and shows the table's links,
one per seat and one for the recorder, each `/table/{id}#token=...` with its QR code.

The page reads everything through the API (`GET /rulesets`, `GET /rulesets/{id}/setup`); the
tokens it is answered live only in the page and in the links' fragments, which no request
carries, so no log or Referer ever holds one."""

from __future__ import annotations

from litestar import Response, get

from api.routes.viewer import _page


@get("/new", include_in_schema=False, sync_to_thread=False)
def new_game_page() -> Response[str]:
    """The New game form."""
    return _page("new.html")


ROUTES = [new_game_page]
