"""The web viewer: a games list at `/`, a replay page per game at `/view/{id}`, the picture of
a game at any version (`GET /games/{id}/picture`), and the pages' own scripts and styles under
`/static` (served from this package: no page loads anything from elsewhere).

The picture is drawn from the state the one redaction gives the caller (domain/reading.py via
`Chronicle.view`), so the page shows a seat token its own hand and the public nobody's.
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import MediaType, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter
from litestar.static_files import create_static_files_router

from api.auth import game_access, parse_game_id
from api.problems import problem_responses
from domain import reading
from domain.game import Game
from domain.picture import Picture, changes, picture_of, to_builtins
from domain.ruleset import Viewer
from store.app import Chronicle
from store.errors import InvalidRequest
from store.limits import INT64_MAX, INT64_MIN

STATIC = Path(__file__).resolve().parent.parent / "static"


class PictureView(msgspec.Struct):
    game_id: str
    version: int
    last: int  # the game's latest version
    status: str  # the game's status now
    view: str
    picture: dict[str, Any]


@get(
    "/games/{game_id:str}/picture",
    sync_to_thread=True,
    tags=["reading"],
    responses=problem_responses(400, 401, 404),
)
def game_picture(
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
    at: Annotated[
        int | None,
        QueryParameter(ge=INT64_MIN, le=INT64_MAX, description="the version to show (default: the latest)"),
    ] = None,
) -> PictureView:
    """The game as a person sees it on the table at version `at` (default the latest), drawn
    from the state redacted for the caller; `picture.changed` names what differs from the
    version before."""
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    latest = chronicle.game(gid)
    if at is not None and not 1 <= at <= latest.version:
        raise InvalidRequest(f"Version {at} is outside 1..{latest.version}.", code="invalid_version")
    version = latest.version if at is None else at
    viewer = chronicle.viewer(latest, access)
    names = {seat.id: seat.name for seat in latest.config.seats}
    picture = _picture(chronicle, latest, version, viewer, names)
    before = _picture(chronicle, latest, version - 1, viewer, names) if version > 1 else None
    return PictureView(
        game_id=str(gid),
        version=version,
        last=latest.version,
        status=latest.status,
        view=str(viewer),
        picture=to_builtins(picture, changes(before, picture)),
    )


# Pictures already drawn, by (store, game, version, viewer): a stored version never changes (a
# correction is a later version), and a viewer stepping through a game asks for each version
# and the one before it, so most steps fold the stream once instead of twice.
_DRAWN: OrderedDict[tuple[int, UUID, int, str], Picture] = OrderedDict()
_DRAWN_MAX = 512
_DRAWN_LOCK = threading.Lock()


def _picture(
    chronicle: Chronicle, latest: Game, version: int, viewer: Viewer, names: dict[str, str]
) -> Picture:
    key = (id(chronicle), latest.id, version, str(viewer))
    with _DRAWN_LOCK:
        found = _DRAWN.get(key)
        if found is not None:
            _DRAWN.move_to_end(key)
            return found
    game = latest if version == latest.version else chronicle.game(latest.id, version=version)
    drawn = picture_of(latest.config.ruleset, reading.state(game, viewer), names)
    with _DRAWN_LOCK:
        _DRAWN[key] = drawn
        while len(_DRAWN) > _DRAWN_MAX:
            _DRAWN.popitem(last=False)
    return drawn


def _page(name: str, **values: str) -> Response[str]:
    text = (STATIC / name).read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(value, quote=True))
    return Response(text, media_type=MediaType.HTML)


@get("/", include_in_schema=False, sync_to_thread=False)
def games_page() -> Response[str]:
    """The games list, with filters; each game opens its replay page."""
    return _page("index.html")


@get("/view/{game_id:str}", include_in_schema=False, sync_to_thread=True)
def game_page(chronicle: NamedDependency[Chronicle], game_id: FromPath[str]) -> Response[str]:
    """A game's replay page: the picture, the move list, the step controls."""
    gid = parse_game_id(game_id)
    chronicle.game(gid)  # an unknown game is a 404 problem, as everywhere
    return _page("game.html", game_id=str(gid))


ROUTES = [game_picture, games_page, game_page]
STATIC_ROUTER = create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False)
