"""The table page, `/table/{game_id}`: the phones around a table record a game by touch.

The page holds no token in its address: a seat's or the recorder's token arrives in the URL
fragment (`/table/{id}#token=...`), which no request carries; the page keeps it on the device
and reads the API with it in an `Authorization` header, so the one redaction decides what it
shows (a seat never sees another seat's hand).
"""

from __future__ import annotations

from litestar import Response, get
from litestar.params import FromPath

from api.auth import parse_game_id
from api.dependencies import ChronicleDep
from api.routes.viewer import _page


@get("/table/{game_id:str}", include_in_schema=False, sync_to_thread=True)
def table_page(chronicle: ChronicleDep, game_id: FromPath[str]) -> Response[str]:
    """A game's table: the picture, whose turn it is, and the legal actions to tap."""
    gid = parse_game_id(game_id)
    chronicle.game(gid)  # an unknown game is a 404 problem, as everywhere
    return _page("table.html", game_id=str(gid))


ROUTES = [table_page]
