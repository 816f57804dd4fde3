"""Players: one name's games, results, streaks and rating over time (projections/player_record.py).

The answer follows the statistics' rules: the finished games it counts are the statistics
view's, and the games of a deal still in play are withheld from it as from `/stats` (the one
withholding rule, store/deals.py `withheld_games`), from its games list too. A name no
counted or listed game holds is a 404 `unknown_player`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote

import msgspec
from litestar import Request, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.concern import Concern
from api.dependencies import ChronicleDep, StatsDep
from api.routes.viewer import _page
from projections.filters import check_filters
from projections.games_index import GameIndex
from projections.player_record import PlayerRecord, player_records
from projections.views import Filters
from store.deals import withheld_games
from store.errors import InvalidRequest, ServiceError
from store.limits import MAX_NAME, MAX_RULESET_ID

MAX_WAIT = 30.0
route = Concern("players")


class UnknownPlayer(ServiceError):
    status = 404
    code = "unknown_player"
    title = "No such player"


class PlayerAnswer(msgspec.Struct):
    player: str  # the name asked for
    across_rulesets: bool
    position: int  # the statistics view's position when read
    caught_up: bool  # whether the view had counted every game the index saw finish
    records: list[PlayerRecord]  # one per ruleset (and spelling); one line across rulesets


Ruleset = Annotated[
    str | None, QueryParameter(max_length=MAX_RULESET_ID, description="only this ruleset, e.g. province")
]
Across = Annotated[
    bool, QueryParameter(description="one record across every ruleset (default: one per ruleset)")
]
Wait = Annotated[
    float,
    QueryParameter(
        ge=0, le=MAX_WAIT, description="seconds to wait at most for the view to count finished games"
    ),
]


@route.get("/players/{name:path}", 400, 404)
def player(
    chronicle: ChronicleDep,
    stats: StatsDep,
    index: NamedDependency[GameIndex],
    request: Request[Any, Any, Any],
    name: FromPath[Path],  # routes it; the name itself is read from the raw path (`_name`)
    ruleset: Ruleset = None,
    across_rulesets: Across = False,
    wait: Wait = 5.0,
) -> PlayerAnswer:
    """A player's games (running, finished, abandoned), results, placings, current and
    longest win streak and the rating after each game, per ruleset (`ruleset` narrows,
    `across_rulesets=true` gives one record across rulesets, as on `/stats`). The name is
    case-insensitive, and may hold a `/` (sent as `%2F`, or as it is)."""
    player = _name(request, "/players/")
    if not player.strip() or len(player) > MAX_NAME:
        raise UnknownPlayer("No game has a player of that name.")
    try:
        check_filters(Filters(ruleset=ruleset))
    except ValueError as error:
        message = str(error)
        raise InvalidRequest(message[:1].upper() + message[1:] + ".", code="invalid_filter") from None
    index.catch_up()
    # the index has seen these games finish: give the view a moment to count them
    caught_up = stats.wait(index.position, timeout=wait)
    withheld = withheld_games(chronicle)  # the one withholding rule (store/deals.py)
    view = stats.view()
    counted = view.games(Filters(ruleset=ruleset)) if view is not None else []
    counted = [g for g in counted if g.game_id not in withheld]
    listed, _ = index.search(ruleset=ruleset, player=player, limit=len(index.games) + 1)
    listed = [g for g in listed if g.game_id not in withheld]
    records = player_records(player, counted, listed, across_rulesets)
    if not records:
        raise UnknownPlayer(f"No game has a player named {player!r}.")
    return PlayerAnswer(player, across_rulesets, stats.position(), caught_up, records)


@get("/player/{name:path}", include_in_schema=False, sync_to_thread=False)
def player_page(request: Request[Any, Any, Any], name: FromPath[Path]) -> Response[str]:
    """A player's page: results per ruleset, the rating over time, streaks and the games
    (api/static/player.js reads `GET /players/{name}`)."""
    return _page("player.html", player=_name(request, "/player/"))


def _name(request: Request[Any, Any, Any], prefix: str) -> str:
    """The name as sent, after `prefix`: a name may hold `/`, which a `str` parameter cannot
    reach, and the `path` parameter's value is normalised (`a//b` would read `a/b`)."""
    raw = (request.scope.get("raw_path") or request.scope["path"].encode()).split(b"?", 1)[0]
    path = unquote(raw.decode("latin-1"), encoding="utf-8", errors="replace")
    return path[len(prefix) :] if path.startswith(prefix) else ""


ROUTES = [player, player_page]
