"""Ending a game other than by its rules: a seat resigns, or the game is abandoned.

The policy lives in `domain/endings.py` and `domain/game.py`, the writes in the service
(`Chronicle.resign`, `Chronicle.abandon`); this module only turns HTTP into their arguments.
"""

from __future__ import annotations

import msgspec
from litestar import post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.auth import game_access, parse_game_id
from api.problems import problem_responses
from store.app import Chronicle, Ended
from store.limits import Reason, SeatId


class ResignRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/resign`: a seat's token resigns its own seat; the recorder names the
    `seat`. `reason` says why, for the log."""

    seat: SeatId | None = None
    reason: Reason = ""


class AbandonRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/abandon`: the recorder's or the administrator's token; `reason` says why."""

    reason: Reason = ""


@post(
    "/games/{game_id:str}/resign",
    status_code=200,
    sync_to_thread=True,
    tags=["games"],
    responses=problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
def resign(
    data: JSONBody[ResignRequest],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
) -> Ended:
    """A seat resigns: the game ends at once, the resigning seat ranked as the ruleset ranks a
    resignation (by default last, the others by their current score), and the seed is
    revealed. A game already over is a 422 `game_over`."""
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    return chronicle.resign(gid, access, seat=data.seat, reason=data.reason)


@post(
    "/games/{game_id:str}/abandon",
    status_code=200,
    sync_to_thread=True,
    tags=["games"],
    responses=problem_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
def abandon(
    data: JSONBody[AbandonRequest],
    chronicle: NamedDependency[Chronicle],
    token: NamedDependency[str | None],
    game_id: FromPath[str],
) -> Ended:
    """The recorder or an administrator abandons the game: it ends with no outcome, statistics
    leave it out, the seed is revealed and the audit still runs."""
    gid = parse_game_id(game_id)
    access = game_access(chronicle, gid, token)
    return chronicle.abandon(gid, access, reason=data.reason)


ROUTES = [resign, abandon]
