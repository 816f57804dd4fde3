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
from litestar import Response
from litestar.params import FromPath, JSONBody

from api.auth import game_access, open_game
from api.concern import Concern
from api.dependencies import ChronicleDep, TokenDep
from store import disputes, evidence
from store.app import Access, Chronicle
from store.disputes import MAX_CLAIM, DisputeNotFound, DisputeView

route = Concern("disputes")

CLAIM_TEXT = {"pattern": r"^[^\x00-\x08\x0b-\x1f]*[^\s\x00-\x1f][^\x00-\x08\x0b-\x1f]*$"}


class OpenDispute(msgspec.Struct, forbid_unknown_fields=True, rename={"first": "from", "last": "to"}):
    first: Annotated[int, msgspec.Meta(ge=1)]
    last: Annotated[int, msgspec.Meta(ge=1)]
    # the OpenAPI document says what store/disputes.py checks (`invalid_claim`): not blank, no
    # control character but newlines and tabs
    claim: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CLAIM, extra_json_schema=CLAIM_TEXT)]


class NewRuling(msgspec.Struct, forbid_unknown_fields=True):
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CLAIM)]


def _open_dispute(chronicle: Chronicle, dispute_id: str, token: str | None) -> tuple[UUID, Access]:
    """The dispute a path names and what `token` grants on its game: an id that is not a
    UUID names no dispute (404, not 400)."""
    try:
        did = UUID(dispute_id)
    except ValueError:
        raise DisputeNotFound(f"There is no dispute {dispute_id}.") from None
    return did, game_access(chronicle, disputes.game_of(chronicle, did), token)


@route.post("/games/{game_id:str}/disputes", 400, 401, 403, 404, status_code=201)
def open_dispute(
    data: JSONBody[OpenDispute], chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> DisputeView:
    """Open a dispute over versions `from`..`to`; the answer holds the engine's verdict."""
    gid, access = open_game(chronicle, game_id, token)
    return disputes.open_dispute(chronicle, gid, access, data.first, data.last, data.claim)


@route.get("/games/{game_id:str}/disputes", 401, 403, 404)
def list_disputes(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> list[DisputeView]:
    gid, access = open_game(chronicle, game_id, token)
    return [disputes.show(chronicle, d, access) for d in disputes.disputes_of(chronicle, gid)]


@route.get("/disputes/{dispute_id:str}", 401, 403, 404)
def show_dispute(chronicle: ChronicleDep, token: TokenDep, dispute_id: FromPath[str]) -> DisputeView:
    did, access = _open_dispute(chronicle, dispute_id, token)
    return disputes.show(chronicle, did, access)


@route.post("/disputes/{dispute_id:str}/rulings", 400, 401, 403, 404, 409, status_code=201)
def rule_dispute(
    data: JSONBody[NewRuling], chronicle: ChronicleDep, token: TokenDep, dispute_id: FromPath[str]
) -> DisputeView:
    did, access = _open_dispute(chronicle, dispute_id, token)
    return disputes.rule(chronicle, did, access, data.text)


@route.get("/disputes/{dispute_id:str}/bundle", 401, 403, 404)
def bundle(chronicle: ChronicleDep, token: TokenDep, dispute_id: FromPath[str]) -> Response[bytes]:
    """The evidence bundle for `chronicle verify`, as the reader may see the game."""
    did, access = _open_dispute(chronicle, dispute_id, token)
    return Response(
        msgspec.json.encode(evidence.build(chronicle, did, access)), media_type="application/json"
    )


ROUTES = [open_dispute, list_disputes, show_dispute, rule_dispute, bundle]
