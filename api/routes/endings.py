"""Ending a game other than by its rules: a seat resigns, or the game is abandoned.

The policy lives in `domain/endings.py` and `domain/game.py`, the writes in the service
(`Chronicle.resign`, `Chronicle.abandon`); this module only turns HTTP into their arguments.
"""

from __future__ import annotations

import msgspec
from litestar.params import FromPath, JSONBody

from api.auth import open_game
from api.concern import RULED_WRITE, Concern
from api.dependencies import ChronicleDep, TokenDep
from store.app import Ended
from store.limits import Reason, SeatId

route = Concern("games")


class ResignRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/resign`: a seat's token resigns its own seat; the recorder names the
    `seat`. `reason` says why, for the log."""

    seat: SeatId | None = None
    reason: Reason = ""


class AbandonRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/abandon`: the recorder's or the administrator's token; `reason` says why."""

    reason: Reason = ""


@route.post("/games/{game_id:str}/resign", *RULED_WRITE, status_code=200)
def resign(
    data: JSONBody[ResignRequest], chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> Ended:
    """A seat resigns: the game ends at once, the resigning seat ranked as the ruleset ranks a
    resignation (by default last, the others by their current score), and the seed is
    revealed. A game already over is a 422 `game_over`."""
    gid, access = open_game(chronicle, game_id, token)
    return chronicle.resign(gid, access, seat=data.seat, reason=data.reason)


@route.post("/games/{game_id:str}/abandon", *RULED_WRITE, status_code=200)
def abandon(
    data: JSONBody[AbandonRequest], chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]
) -> Ended:
    """The recorder or an administrator abandons the game: it ends with no outcome, statistics
    leave it out, the seed is revealed and the audit still runs."""
    gid, access = open_game(chronicle, game_id, token)
    return chronicle.abandon(gid, access, reason=data.reason)


ROUTES = [resign, abandon]
