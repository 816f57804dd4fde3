"""Games: create, list, look at one, and record an action into one.

Writes go through the service (`Chronicle.create_game`, `Chronicle.record`), which validates,
decides and appends atomically; this module only turns HTTP into its arguments. A game's
version is its ETag (`"12"`), so `If-Match: "12"` works like `expected_version: 12`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio.to_thread
import msgspec
from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.enums import ParamType
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIType, Operation, Parameter, Schema
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.types import ASGIApp, Receive, Scope, Send

from api.auth import bearer_token, check_creator, game_access, header, open_game, parse_game_id
from api.concern import Concern
from api.dependencies import ChronicleDep, SettingsDep, TokenDep
from api.metrics import Metrics
from api.problems import problem_responses
from api.schemas import ActionRequest, GameDetail, GameList
from domain import reading
from projections.games_index import GameIndex
from store.app import Chronicle, CreatedGame, NewGame, Recorded
from store.errors import InvalidRequest, Unauthorized
from store.limits import INT64_MAX, MAX_NAME, MAX_RULESET_ID

MAX_PAGE = 500
route = Concern("games")


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


@route.post("/games", 400, 401, 403, 413, 429, status_code=201)
def create_game(
    data: JSONBody[NewGame], chronicle: ChronicleDep, token: TokenDep, settings: SettingsDep
) -> CreatedGame:
    """Create a game. The answer holds the tokens, shown only this once: one per seat and the
    recorder's. A fixed `server_seed` needs the administrator token. A server run with
    `CHRONICLE_CREATE=token` creates games for the administrator token and its creation
    tokens only."""
    admin = check_creator(chronicle, settings, token)
    if data.server_seed is not None and token is None:
        raise Unauthorized("Fixing the server seed needs the administrator token.")
    return chronicle.create_game(data, admin=admin, token=token)


@route.get("/games", 400)
def list_games(
    index: NamedDependency[GameIndex],
    ruleset: Annotated[str | None, QueryParameter(max_length=MAX_RULESET_ID)] = None,
    player: Annotated[str | None, QueryParameter(max_length=MAX_NAME)] = None,
    status: FromQuery[Literal["running", "finished", "abandoned"] | None] = None,
    tag: Annotated[str | None, QueryParameter(max_length=MAX_NAME)] = None,
    offset: Annotated[int, QueryParameter(ge=0, le=INT64_MAX)] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 50,
) -> GameList:
    """Games matching every given filter, newest first. `player` matches a player's name
    (case-insensitive), `tag` one of the game's tags."""
    games, total = index.search(
        ruleset=ruleset, player=player, status=status, tag=tag, offset=offset, limit=limit
    )
    return GameList(games, total, offset, limit)


@route.get("/games/{game_id:str}", 401, 404)
def game_detail(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> Response[GameDetail]:
    """A game's configuration, version, status, open prompts and (once over) outcome."""
    gid, access = open_game(chronicle, game_id, token)
    game = chronicle.game(gid)
    viewer = chronicle.viewer(game, access)
    detail = GameDetail(
        game_id=str(gid),
        ruleset=game.config.ruleset,
        mode=game.config.mode,
        seats={s.id: s.name for s in game.config.seats},
        options=dict(game.config.options),
        tags=list(game.tags),
        commitment=game.commitment,
        version=game.version,
        status=game.status,  # type: ignore[arg-type]
        prompts=reading.prompts(game, viewer),
        outcome=reading.outcome(game),
    )
    return Response(detail, headers=etag(game.version))


# what expected_version reads (a version of at most 18 digits stands for every 64-bit one)
IF_MATCH = '^(W/)?"?([0-9]{1,18}|[*])"?$'


def expected_version(in_body: int | None, if_match: str | None) -> int | None:
    """The version a write expects, from the body or `If-Match` (`"12"`, `12` or `*`)."""
    if if_match is None:
        return in_body
    text = if_match.strip().removeprefix("W/").strip('"')
    if text == "*":
        header = None
    elif text.isascii() and text.isdigit():
        if len(text) > 19 or int(text) > INT64_MAX:
            raise InvalidRequest(
                "If-Match names a version outside the signed 64-bit range.", code="number_out_of_range"
            )
        header = int(text)
    else:
        shown = if_match if len(if_match) <= 40 else if_match[:40] + "..."
        raise InvalidRequest(f'If-Match takes one game version, like If-Match: "12", not {shown!r}.')
    if in_body is not None and header is not None and in_body != header:
        raise InvalidRequest(f"If-Match ({header}) and expected_version ({in_body}) disagree.")
    return in_body if header is None else header


@dataclass
class _ActionOperation(Operation):
    """The action route's OpenAPI operation, with the `If-Match` header it takes. The handler
    reads that header itself: as a declared parameter, extracting it cost each action about
    25,000 instructions (bench.instructions)."""

    def __post_init__(self) -> None:
        header = Parameter(
            name="If-Match",
            param_in=ParamType.HEADER,
            schema=Schema(
                one_of=[Schema(type=OpenAPIType.STRING, pattern=IF_MATCH), Schema(type=OpenAPIType.NULL)]
            ),
            required=False,
            description='The version the write expects (`"12"`), as `expected_version` in the body.',
        )
        self.parameters = [*(self.parameters or []), header]


@post(
    "/games/{game_id:str}/actions",
    operation_class=_ActionOperation,
    status_code=201,
    tags=["games"],
    responses={
        201: ResponseSpec(Recorded, description="Recorded: the action's facts as its recorder may see them"),
        200: ResponseSpec(Recorded, description="A retry of an action_id already recorded: the first answer"),
        **problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
    },
)
async def record_action(
    data: JSONBody[ActionRequest],
    request: Request[Any, Any, Any],
    game_id: FromPath[str],
) -> ASGIApp:
    """Record one action (a `{"kind": ...}` object or notation text) with the facts it causes.
    An illegal action is a 422 carrying the rules' rejection; nothing is appended then."""
    # The busiest route runs on the event loop, not in a worker thread: handing each request
    # to a thread and back cost more than deciding and appending the action. What reads the
    # store leaves the loop (the token's first check, `record_async`'s reads and commit). It
    # takes the application and the token here, not as dependencies: those are resolved in a
    # task group of their own, which cost the event loop more than the rest of the routing.
    chronicle: Chronicle = request.app.state.chronicle
    token = bearer_token(request)
    gid = parse_game_id(game_id)
    expected = expected_version(data.expected_version, header(request, b"if-match"))
    access = chronicle.access_in_memory(gid, token)
    if access is None:  # the first request of a game in this process, or a stranger: may read
        access = await anyio.to_thread.run_sync(game_access, chronicle, gid, token)
    action: dict[str, Any] | str = data.action
    started = time.perf_counter()
    result = await chronicle.record_async(
        gid, action, access, seat=data.seat, action_id=data.action_id, expected_version=expected
    )
    metrics: Metrics = request.app.state.metrics
    metrics.record_seconds.observe(time.perf_counter() - started)
    return Answer(result)


_ENCODE = msgspec.json.Encoder().encode
_JSON = (b"content-type", b"application/json")


class Answer:
    """An action's answer, sent as `Response(recorded, headers=etag(...))` sends it (the same
    status, headers and bytes; a test holds them to Litestar's rendering), as a bare ASGI
    application: Litestar's response classes build each header through a case-insensitive
    mapping that lowers every name again on every lookup, about 7 us per answer, as much as
    deciding the action takes (`bench.instructions`: the loop's instructions per action fell
    from 898,292 to 842,876)."""

    __slots__ = ("body", "headers", "status")

    def __init__(self, result: Recorded) -> None:
        self.body = _ENCODE(result)
        self.status = 200 if result.replayed else 201
        self.headers = [
            _JSON,
            (b"content-length", b"%d" % len(self.body)),
            (b"etag", b'"%d"' % result.version),
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status, "headers": self.headers})
        await send({"type": "http.response.body", "body": self.body, "more_body": False})


ROUTES = [create_game, list_games, game_detail, record_action]
