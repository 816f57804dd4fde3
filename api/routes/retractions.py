"""Corrections at the table: retract the last live actions, and answer a pending request.

The policy lives in `domain/corrections.py` (its rules are cited as "corrections N") and the
writes in the service (`Chronicle.retract`, `Chronicle.answer_retraction`); this module only
turns HTTP into their arguments. A retraction carried out is a 201; one left waiting for the
other seats' approval is a 202 with its `request_id` and `waiting_for`; a refusal is a 422
problem naming the rule, and appends nothing. Approving or declining takes a seat's token.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.auth import game_access, parse_game_id
from api.problems import problem_responses
from api.routes.games import IF_MATCH, etag, expected_version
from api.schemas import PendingRetraction, PendingRetractions, RetractionRequest
from store.app import Chronicle, Retraction
from store.errors import Unauthorized


@post(
    "/games/{game_id:str}/retractions",
    status_code=201,
    sync_to_thread=True,
    tags=["corrections"],
    responses={
        201: ResponseSpec(Retraction, description="Carried out: `retracted` lists the undone actions"),
        202: ResponseSpec(
            Retraction, description="Left pending: every seat in `waiting_for` must approve `request_id`"
        ),
        **problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
    },
)
def retract(
    data: JSONBody[RetractionRequest],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
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
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    if access.role == "public":
        raise Unauthorized("A retraction needs a seat or recorder token.")
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


@get(
    "/games/{game_id:str}/retractions",
    sync_to_thread=True,
    tags=["corrections"],
    responses=problem_responses(401, 404),
)
def pending_retractions(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], game_id: FromPath[str]
) -> PendingRetractions:
    """The retraction requests still waiting for approval (public). A request lapses when
    another action is recorded or a seat declines it."""
    gid = parse_game_id(game_id)
    game_access(chronicle, gid, token)
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


def _answer(
    chronicle: Chronicle, token: str | None, game_id: str, request_id: str, approved: bool
) -> Response[Retraction]:
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    if access.role == "public":
        raise Unauthorized("Answering a retraction request needs a seat's token.")
    result = chronicle.answer_retraction(gid, request_id, access, approved)
    return Response(result, status_code=200, headers=etag(result.version))


ANSWER_RESPONSES: dict[int, ResponseSpec] = {
    200: ResponseSpec(
        Retraction,
        description="Answered: `retracted` lists the undone actions once the last approval came in; "
        "a request still waiting keeps its `request_id` and `waiting_for`",
    ),
    **problem_responses(400, 401, 403, 404, 409, 422, 429),
}


@post(
    "/games/{game_id:str}/retractions/{request_id:str}/approve",
    status_code=200,
    sync_to_thread=True,
    tags=["corrections"],
    responses=ANSWER_RESPONSES,
)
def approve_retraction(
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
    request_id: FromPath[str],
) -> Response[Retraction]:
    """A seat whose approval the request needs approves it; the last approval carries the
    retraction out. Only a seat's token answers (403 `seat_token_required`); a request that
    was carried out, declined or lapsed is a 422 `no_pending_retraction`."""
    return _answer(chronicle, token, game_id, request_id, approved=True)


@post(
    "/games/{game_id:str}/retractions/{request_id:str}/decline",
    status_code=200,
    sync_to_thread=True,
    tags=["corrections"],
    responses=ANSWER_RESPONSES,
)
def decline_retraction(
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
    request_id: FromPath[str],
) -> Response[Retraction]:
    """A seat whose approval the request needs declines it: the request closes and nothing
    is retracted."""
    return _answer(chronicle, token, game_id, request_id, approved=False)


ROUTES = [retract, pending_retractions, approve_retraction, decline_retraction]
