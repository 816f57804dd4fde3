"""Disputes (store/disputes.py) and their evidence bundles (store/evidence.py).

- `POST /games/{id}/disputes` `{"from", "to", "claim"}` with a seat's or the recorder's token
  (or the administrator's): opens a dispute and answers with its verdict (201);
- `GET /games/{id}/disputes`: the game's disputes, for whoever may read the game;
- `GET /disputes/{id}`: one dispute, its verdict redacted for the reader;
- `POST /disputes/{id}/rulings` `{"text"}`: the recorder's (or administrator's) ruling;
- `GET /disputes/{id}/bundle`: the evidence bundle, as the reader may see the game.

A dispute is read with a token of its game; the token of another game is refused as it is
on the game itself.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.auth import game_access, parse_game_id
from api.problems import problem_responses
from store import disputes, evidence
from store.app import Chronicle
from store.disputes import MAX_CLAIM, DisputeNotFound, DisputeView

CLAIM_TEXT = {"pattern": r"^[^\x00-\x08\x0b-\x1f]*[^\s\x00-\x1f][^\x00-\x08\x0b-\x1f]*$"}


class OpenDispute(msgspec.Struct, forbid_unknown_fields=True, rename={"first": "from", "last": "to"}):
    first: Annotated[int, msgspec.Meta(ge=1)]
    last: Annotated[int, msgspec.Meta(ge=1)]
    # the OpenAPI document says what store/disputes.py checks (`invalid_claim`): not blank, no
    # control character but newlines and tabs
    claim: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CLAIM, extra_json_schema=CLAIM_TEXT)]


class NewRuling(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CLAIM)]


def _dispute_id(text: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        raise DisputeNotFound(f"There is no dispute {text}.") from None


@post(
    "/games/{game_id:str}/disputes",
    status_code=201,
    sync_to_thread=True,
    tags=["disputes"],
    responses=problem_responses(400, 401, 403, 404),
)
def open_dispute(
    data: JSONBody[OpenDispute],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
) -> DisputeView:
    """Open a dispute over versions `from`..`to`; the answer holds the engine's verdict."""
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    return disputes.open_dispute(chronicle, gid, access, data.first, data.last, data.claim)


@get(
    "/games/{game_id:str}/disputes",
    sync_to_thread=True,
    tags=["disputes"],
    responses=problem_responses(401, 403, 404),
)
def list_disputes(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], game_id: FromPath[str]
) -> list[DisputeView]:
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    return [disputes.show(chronicle, d, access) for d in disputes.disputes_of(chronicle, gid)]


@get(
    "/disputes/{dispute_id:str}",
    sync_to_thread=True,
    tags=["disputes"],
    responses=problem_responses(401, 403, 404),
)
def show_dispute(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], dispute_id: FromPath[str]
) -> DisputeView:
    did = _dispute_id(dispute_id)
    access = game_access(chronicle, disputes.game_of(chronicle, did), token)
    return disputes.show(chronicle, did, access)


@post(
    "/disputes/{dispute_id:str}/rulings",
    status_code=201,
    sync_to_thread=True,
    tags=["disputes"],
    responses=problem_responses(400, 401, 403, 404, 409),
)
def rule_dispute(
    data: JSONBody[NewRuling],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    dispute_id: FromPath[str],
) -> DisputeView:
    did = _dispute_id(dispute_id)
    access = game_access(chronicle, disputes.game_of(chronicle, did), token)
    return disputes.rule(chronicle, did, access, data.text)


@get(
    "/disputes/{dispute_id:str}/bundle",
    sync_to_thread=True,
    tags=["disputes"],
    responses=problem_responses(401, 403, 404),
)
def bundle(
    chronicle: NamedDependency[Chronicle], token: NamedDependency[str | None], dispute_id: FromPath[str]
) -> Response[bytes]:
    """The evidence bundle for `chronicle verify`, as the reader may see the game."""
    did = _dispute_id(dispute_id)
    access = game_access(chronicle, disputes.game_of(chronicle, did), token)
    return Response(
        msgspec.json.encode(evidence.build(chronicle, did, access)), media_type="application/json"
    )


ROUTES = [open_dispute, list_disputes, show_dispute, rule_dispute, bundle]
