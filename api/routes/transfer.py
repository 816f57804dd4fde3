"""Export and import (store/transfer.py): `GET /games/{id}/export` gives the game as stored,
with its hash chain (JSON, or NDJSON with `format=ndjson` or `Accept: application/x-ndjson`);
`POST /games/import` stores such an export (JSON) after checking its chain and auditing it,
and answers with the game's new tokens. Importing creates a game, so it follows the server's
creation policy like `POST /games`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, Response
from litestar.params import FromPath, JSONBody, QueryParameter

from api.auth import check_creator, open_game
from api.concern import Concern
from api.dependencies import ChronicleDep, SettingsDep, TokenDep
from store.bgstats import bgstats
from store.transfer import Export, Imported, encode, export_game, import_game

NDJSON = "application/x-ndjson"
reading = Concern("reading")  # an export is a way to read a game
games = Concern("games")  # an import creates one


@reading.get("/games/{game_id:str}/export", 400, 401, 403, 404)
def export(
    request: Request[Any, Any, Any],
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    form: Annotated[
        Literal["json", "ndjson", "bgstats"] | None,
        QueryParameter(
            name="format", description="json, ndjson, or bgstats (a finished game as a BG Stats play)"
        ),
    ] = None,
) -> Response[bytes]:
    """The game as stored, every event with its digest in the hash chain: for the recorder or
    an administrator while it runs (it holds every hidden fact, never an unrevealed seed), for
    anyone once it has ended."""
    gid, access = open_game(chronicle, game_id, token)
    if form == "bgstats":
        return Response(msgspec.json.encode(bgstats(chronicle, gid)), media_type="application/json")
    exported = export_game(chronicle, gid, access)
    chosen = form or ("ndjson" if NDJSON in request.headers.get("accept", "") else "json")
    media = NDJSON if chosen == "ndjson" else "application/json"
    return Response(encode(exported, chosen), media_type=media)


@games.post_import("/games/import", 400, 401, 403, 409, 413, 429)
def import_export(
    data: JSONBody[Export], chronicle: ChronicleDep, token: TokenDep, settings: SettingsDep
) -> Imported:
    """Store a game exported from this or another server; 400 `chain_broken`,
    `export_unclean`, `game_running_digital` or `export_invalid` before anything is stored,
    409 `game_exists` when this store holds it already, `id_taken` when one of its ids is one
    a stream of this store has or would derive (store/import_ids.py)."""
    check_creator(chronicle, settings, token)
    return import_game(chronicle, data)


ROUTES = [export, import_export]
