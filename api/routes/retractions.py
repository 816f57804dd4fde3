"""Corrections at the table: retract the last live actions, and answer a pending request.

The policy lives in `domain/corrections.py` (its rules are cited as "corrections N") and the
writes in the service (`Chronicle.retract`, `Chronicle.answer_retraction`); this module only
turns HTTP into their arguments. A retraction carried out is a 201; one left waiting for the
other seats' approval is a 202 with its `request_id` and `waiting_for`; a refusal is a 422
problem naming the rule, and appends nothing. Approving or declining takes a seat's token.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Response
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.auth import open_game
from api.concern import RULED_WRITE, Concern
from api.dependencies import ChronicleDep, TokenDep
from api.routes.games import IF_MATCH, etag, expected_version
from api.schemas import PendingRetraction, PendingRetractions, RetractionRequest
from store.app import Access, Chronicle, Retraction
from store.errors import Unauthorized

route = Concern("corrections")


RETRACTED: dict[int, ResponseSpec] = {
    201: ResponseSpec(Retraction, description="Carried out: `retracted` lists the undone actions"),
    202: ResponseSpec(
        Retraction, description="Left pending: every seat in `waiting_for` must approve `request_id`"
    ),
}


@route.post("/games/{game_id:str}/retractions", *RULED_WRITE, status_code=201, answers=RETRACTED)
def retract(
    data: JSONBody[RetractionRequest],
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    if_match: Annotated[
        str | None, HeaderParameter(name="If-Match", schema_extra={"pattern": IF_MATCH})
    ] = None,
) -> Response[Retraction]:
    """Retract the last `count` live actions: the state, prompts, legal actions and log follow
    the corrected line, and the undone actions and their facts stay in the stream marked
    `retracted`. The recorder's token retracts at once. A seat's token retracts its own plain
    actions at once; crossing another seat's action, a random outcome or a reveal is a 422
    naming the rule, or with `ask_approval` a 202 request the other seats answer."""
    gid, access = _seat_or_recorder(chronicle, game_id, token, "A retraction needs a seat or recorder token.")
    result = chronicle.retract(
        gid,
        access,
        count=data.count,
        reason=data.reason,
        ask_approval=data.ask_approval,
        seat=data.seat,
        expected_version=expected_version(data.expected_version, if_match),
    )
    status = 202 if result.request_id is not None else 201
    return Response(result, status_code=status, headers=etag(result.version))


@route.get("/games/{game_id:str}/retractions", 401, 404)
def pending_retractions(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> PendingRetractions:
    """The retraction requests still waiting for approval (public). A request lapses when
    another action is recorded or a seat declines it."""
    gid, _ = open_game(chronicle, game_id, token)
    return PendingRetractions([_pending(p) for p in chronicle.pending_retractions(gid)])


def _pending(request: dict[str, Any]) -> PendingRetraction:
    approvals = list(request.get("approvals", ()))
    needs = list(request["needs"])
    return PendingRetraction(
        request_id=request["request_id"],
        seqs=list(request["seqs"]),
        seat=request["seat"],
        reason=request["reason"],
        needs=needs,
        approvals=approvals,
        waiting_for=[s for s in needs if s not in approvals],
    )


def _seat_or_recorder(
    chronicle: Chronicle, game_id: str, token: str | None, refusal: str
) -> tuple[UUID, Access]:
    """The game a path names and what `token` grants on it, which must be more than the
    public's (401 with `refusal` otherwise)."""
    gid, access = open_game(chronicle, game_id, token)
    if access.role == "public":
        raise Unauthorized(refusal)
    return gid, access


def _answer(
    chronicle: Chronicle, token: str | None, game_id: str, request_id: str, approved: bool
) -> Response[Retraction]:
    refusal = "Answering a retraction request needs a seat's token."
    gid, access = _seat_or_recorder(chronicle, game_id, token, refusal)
    result = chronicle.answer_retraction(gid, request_id, access, approved)
    return Response(result, status_code=200, headers=etag(result.version))


ANSWERED = ResponseSpec(
    Retraction,
    description="Answered: `retracted` lists the undone actions once the last approval came in; "
    "a request still waiting keeps its `request_id` and `waiting_for`",
)


def _answering(path: str) -> HTTPRouteHandler:
    """The decorator of a seat's answer to a retraction request."""
    return route.post(path, 400, 401, 403, 404, 409, 422, 429, status_code=200, answers={200: ANSWERED})


@_answering("/games/{game_id:str}/retractions/{request_id:str}/approve")
def approve_retraction(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], request_id: FromPath[str]
) -> Response[Retraction]:
    """A seat whose approval the request needs approves it; the last approval carries the
    retraction out. Only a seat's token answers (403 `seat_token_required`); a request that
    was carried out, declined or lapsed is a 422 `no_pending_retraction`."""
    return _answer(chronicle, token, game_id, request_id, approved=True)


@_answering("/games/{game_id:str}/retractions/{request_id:str}/decline")
def decline_retraction(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], request_id: FromPath[str]
) -> Response[Retraction]:
    """A seat whose approval the request needs declines it: the request closes and nothing
    is retracted."""
    return _answer(chronicle, token, game_id, request_id, approved=False)


ROUTES = [retract, pending_retractions, approve_retraction, decline_retraction]
