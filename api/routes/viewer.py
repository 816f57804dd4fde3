"""The web viewer: a games list at `/`, a replay page per game at `/view/{id}`, the statistics
page at `/statistics`, the picture of a game at any version (`GET /games/{id}/picture`), the
turn each version belongs to (`GET /games/{id}/turns`, for the turn keys), and the pages' own
scripts, styles and the chart library under `/static` (served from this package: no page loads
anything from elsewhere).

The picture is drawn from the state the one redaction gives the caller (domain/reading.py via
`Chronicle.view`), so the page shows a seat token its own hand and the public nobody's.
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import MediaType, Response, get
from litestar.params import FromPath
from litestar.static_files import create_static_files_router

from api.auth import open_game, parse_game_id
from api.concern import Concern
from api.dependencies import ChronicleDep, TokenDep
from api.routes.params import ShownVersion, checked_version
from domain import reading
from domain.game import Game
from domain.picture import Picture, changes, picture_of, to_builtins
from domain.ruleset import Viewer
from store.app import Chronicle
from store.errors import InvalidRequest

route = Concern("reading")
SinceVersion = Annotated[int | None, checked_version("the version whose picture `changed` compares with")]
STATIC = Path(__file__).resolve().parent.parent / "static"


class TurnsView(msgspec.Struct):
    game_id: str
    turns: list[tuple[int, str | None]]  # (turn, seat to act) after each version, version 1 first


class PictureView(msgspec.Struct):
    game_id: str
    version: int
    last: int  # the game's latest version
    status: str  # the game's status now
    view: str
    picture: dict[str, Any]


@route.get("/games/{game_id:str}/picture", 400, 401, 404)
def game_picture(
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    at: ShownVersion = None,
    since: SinceVersion = None,
) -> PictureView:
    """The game as a person sees it on the table at version `at` (default the latest), drawn
    from the state redacted for the caller; `picture.changed` names what differs from version
    `since` (default the version before; a replay stepping by action compares with the end of
    the step before, so all an action caused is marked)."""
    gid, access = open_game(chronicle, game_id, token)
    latest = chronicle.game(gid)
    if at is not None and not 1 <= at <= latest.version:
        raise InvalidRequest(f"Version {at} is outside 1..{latest.version}.", code="invalid_version")
    version = latest.version if at is None else at
    if since is not None and not 1 <= since <= version:
        raise InvalidRequest(f"Version {since} is outside 1..{version}.", code="invalid_version")
    earlier = version - 1 if since is None else since
    viewer = chronicle.viewer(latest, access)
    names = {seat.id: seat.name for seat in latest.config.seats}
    return picture_view(
        gid, latest, viewer, version, earlier, lambda v: _picture(chronicle, latest, v, viewer, names)
    )


def picture_view(
    line_id: UUID, latest: Game, viewer: Viewer, version: int, earlier: int, draw: Callable[[int], Picture]
) -> PictureView:
    """A game's (or a variation's) picture at `version`, what differs from `earlier` marked
    (everything when `earlier` is 0), as `draw` draws a version of it for `viewer`."""
    picture = draw(version)
    before = draw(earlier) if earlier >= 1 else None
    return PictureView(
        game_id=str(line_id),
        version=version,
        last=latest.version,
        status=latest.status,
        view=str(viewer),
        picture=to_builtins(picture, changes(before, picture)),
    )


@route.get("/games/{game_id:str}/turns", 401, 404)
def game_turns(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> TurnsView:
    """The turn and the seat to act after each version (the ruleset's `progress`), so a
    viewer can step by turn and draw turn headers. Whose turn it is, and its number, is what
    every player at the table sees; nothing else of the state leaves the fold."""
    gid, _ = open_game(chronicle, game_id, token)  # an unknown game is a 404, a private one needs a token
    latest = chronicle.game(gid)
    key = (id(chronicle), gid, latest.version)
    with _DRAWN_LOCK:
        found = _TURNS.get(key)
    if found is None:
        found = []
        aggregate: Game | None = None
        for event in chronicle.stored_events(gid):
            aggregate = event.mutate(aggregate)
            assert aggregate is not None
            found.append(latest.ruleset.progress(aggregate.state))
        with _DRAWN_LOCK:
            _TURNS[key] = found
            while len(_TURNS) > _TURNS_MAX:
                _TURNS.popitem(last=False)
    return TurnsView(str(gid), found)


_TURNS: OrderedDict[tuple[int, UUID, int], list[tuple[int, str | None]]] = OrderedDict()
_TURNS_MAX = 64


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
def game_page(chronicle: ChronicleDep, game_id: FromPath[str]) -> Response[str]:
    """A game's replay page: the picture, the move list, the step controls."""
    gid = parse_game_id(game_id)
    chronicle.game(gid)  # an unknown game is a 404 problem, as everywhere
    return _page("game.html", game_id=str(gid))


@get("/statistics", include_in_schema=False, sync_to_thread=False)
def statistics_page() -> Response[str]:
    """The statistics page: the dashboard's figures drawn as charts, with the API's filters."""
    return _page("stats.html")


ROUTES = [game_picture, game_turns, games_page, game_page, statistics_page]
STATIC_ROUTER = create_static_files_router(path="/static", directories=[STATIC], include_in_schema=False)
