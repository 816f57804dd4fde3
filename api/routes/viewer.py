"""The web viewer: a games list at `/`, a replay page per game at `/view/{id}`, the picture of
a game at any version (`GET /games/{id}/picture`), and the pages' own scripts and styles under
`/static` (served from this package: no page loads anything from elsewhere).

The picture is drawn from the state the one redaction gives the caller (domain/reading.py via
`Chronicle.view`), so the page shows a seat token its own hand and the public nobody's.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Annotated, Any

import msgspec
from litestar import MediaType, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter
from litestar.static_files import create_static_files_router

from api.auth import game_access, parse_game_id
from api.problems import problem_responses
from domain.picture import changes, picture_of, to_builtins
from store.app import Chronicle
from store.limits import INT64_MAX, INT64_MIN

STATIC = Path(__file__).resolve().parent.parent / "static"


class PictureView(msgspec.Struct):
    game_id: str
    version: int
    last: int
    status: str
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
    shown = chronicle.view(gid, access, at)
    game = chronicle.game(gid)
    names = {seat.id: seat.name for seat in game.config.seats}
    ruleset = game.config.ruleset
    picture = picture_of(ruleset, shown["state"], names)
    before = None
    if shown["version"] > 1:
        previous = chronicle.view(gid, access, shown["version"] - 1)
        before = picture_of(ruleset, previous["state"], names)
    return PictureView(
        game_id=str(gid),
        version=shown["version"],
        last=game.version,
        status=shown["status"],
        view=shown["view"],
        picture=to_builtins(picture, changes(before, picture)),
    )


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
