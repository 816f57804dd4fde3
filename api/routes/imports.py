"""Importing a game log: `POST /games/import/dominion` with a Dominion Online log's text, and
`POST /games/import/bgstats` with a BG Stats export.

The service checks the log before anything is stored (store/imports.py, through the ruleset's
`read_online_log`: a 422 problem `cards_not_implemented`, `log_kingdom`, `log_unreadable`, ...),
then records it action by action through the same append path as `POST /games/{id}/actions`. The answer
is the import's report (its game, status, turns, actions, the log's scores beside
Chronicle's, the first refusal) with the game's tokens, shown this once. Creating the game
follows the server's creation policy like `POST /games`.

A BG Stats export (the app's JSON file as it is, in `{"file": ...}`) stores each play as a
finished physical game of `any` (store/bgstats_import.py); the answer counts the plays
imported, skipped (imported before, or ignored by the app) and refused, with each play's
result (a refusal names its reason). A file that is no BG Stats export is a 422 problem `bgstats_invalid`.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar.params import JSONBody

from api.auth import check_creator
from api.concern import Concern
from api.dependencies import ChronicleDep, SettingsDep, TokenDep
from store.bgstats_import import BgStatsReport, import_bgstats
from store.imports import ImportReport, import_with_tokens
from store.limits import MAX_IMPORT_BYTES, MAX_NAME, NO_CONTROL

route = Concern("games")
PileName = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME, pattern=NO_CONTROL)]


class LogImport(msgspec.Struct, forbid_unknown_fields=True):
    """A log's text (line breaks allowed) and, optionally, a name for it in the report and the
    10 kingdom piles of a log of today's format (which lists none; without them they are the
    piles the log names)."""

    log: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_IMPORT_BYTES)]
    source: Annotated[str, msgspec.Meta(max_length=MAX_NAME, pattern=NO_CONTROL)] = ""
    kingdom: Annotated[list[PileName], msgspec.Meta(max_length=10)] = []


class ImportedGame(msgspec.Struct):
    report: ImportReport
    recorder_token: str
    seat_tokens: dict[str, str]


@route.post_import("/games/import/dominion", 400, 401, 403, 413, 422, 429)
def import_dominion_log(
    data: JSONBody[LogImport], chronicle: ChronicleDep, token: TokenDep, settings: SettingsDep
) -> ImportedGame:
    """Turn a Dominion Online log (the 2012-13 format or today's) into a physical game. A log the rules
    refuse part way keeps the actions before the refusal; the report names the refused one."""
    check_creator(chronicle, settings, token)
    report, created = import_with_tokens(chronicle, data.log, data.source, data.kingdom, game="dominion")
    return ImportedGame(report, created.recorder_token, created.seat_tokens)


class BgStatsImport(msgspec.Struct, forbid_unknown_fields=True):
    """A BG Stats export as the app writes it (`games`, `players`, `plays` and whatever else the
    app keeps, read past)."""

    file: dict[str, Any]


@route.post_import("/games/import/bgstats", 400, 401, 403, 413, 422, 429)
def import_bgstats_file(
    data: JSONBody[BgStatsImport], chronicle: ChronicleDep, token: TokenDep, settings: SettingsDep
) -> BgStatsReport:
    """Store each play of a BG Stats export as a finished physical game of `any`; a play this
    store holds already is skipped, a bad play refused with its index and reason, and stores
    nothing."""
    check_creator(chronicle, settings, token)
    return import_bgstats(chronicle, data.file)


ROUTES = [import_dominion_log, import_bgstats_file]
