"""Statistics: tables over finished games (filters, pagination, CSV), the flat map of every
figure by its stable id, one game's statistics, and the state of the view.

Every table and column has a stable id (`win_rate_by_seat`, `rating`, `dice_chi_square`, ...;
`wins`, `ci_low`, ...) and every row a key, so one figure is `<table>/<row key>/<column>`
(`GET /stats/figures`); labels are for people and may change. A client that just finished a
game reads its own write with `position=` (a store position) or `game=` (a game id): the
answer waits up to `wait` seconds for the view to hold it and says `caught_up`.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any, Literal

import msgspec
from litestar import Response
from litestar.params import FromPath, QueryParameter

from api.auth import open_game, parse_game_id
from api.concern import Concern
from api.dependencies import ChronicleDep, StatsDep, TokenDep
from projections.filters import check_filters
from projections.game_stats import GameStatistics
from projections.runner import VIEWS, StatsReader, rebuild, status
from projections.service import Snapshot, game_stats, game_tables, parse_variant, snapshot, to_csv
from projections.tables import Table
from projections.views import Filters
from store.app import Chronicle
from store.deals import withheld_games
from store.errors import Forbidden, GameNotFound, InvalidRequest, ServiceError, Unauthorized
from store.limits import INT64_MAX, MAX_NAME, MAX_RULESET_ID

CSV = "text/csv; charset=utf-8"
MAX_PAGE = 1000
MAX_WAIT = 30.0
route = Concern("statistics")


class UnknownStatistic(ServiceError):
    status = 404
    code = "unknown_statistic"
    title = "No such statistic"


class TablePage(msgspec.Struct):
    id: str
    title: str
    key: str
    columns: list[dict[str, str]]  # id, label, kind and description (the column's definition)
    rows: list[dict[str, Any]]
    total: int
    offset: int
    limit: int
    description: str = ""  # what one row is


class StatsAnswer(msgspec.Struct):
    generation: int | None
    position: int
    caught_up: bool
    games: int
    tables: list[TablePage]


class FiguresAnswer(msgspec.Struct):
    generation: int | None
    position: int
    caught_up: bool
    games: int
    figures: dict[str, Any]


class GameStatsAnswer(msgspec.Struct):
    statistics: GameStatistics
    tables: list[TablePage]


class ViewStatus(msgspec.Struct):
    view: str
    generation: int
    state: str
    position: int
    games: int
    head: int
    caught_up: bool
    events_behind: int = 0  # events after its position (those that finish no game never count)
    games_behind: int = 0  # finished games it has yet to count
    lag_seconds: float = 0.0  # how long the oldest of those has waited
    finished: int = 0  # games finished up to `head`: games + left_out + games_behind
    left_out: int = 0  # finished at or before its position but not counted (could not be folded)


Ruleset = Annotated[
    str | None, QueryParameter(max_length=MAX_RULESET_ID, description="a ruleset id, e.g. province")
]
Mode = Annotated[Literal["digital", "physical"] | None, QueryParameter(description="how the game was played")]
Player = Annotated[
    str | None, QueryParameter(max_length=MAX_NAME, description="a player's name (case-insensitive)")
]
# the forms projections/filters.py reads (`invalid_filter` otherwise): a date or time, to the second
DATE = (
    "^[0-9]{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01])"
    "(T([01][0-9]|2[0-3])(:[0-5][0-9](:[0-5][0-9])?)?)?)?)?$"
)
# NAME=VALUE with a name that is not blank (projections/service.py's parse_variant)
VARIANT = {"items": {"type": "string", "pattern": "^[^=]*[^=\\s][^=]*="}}
Since = Annotated[
    str | None,
    QueryParameter(
        schema_extra={"pattern": DATE}, description="finished on or after (ISO 8601 date or time)"
    ),
]
Until = Annotated[
    str | None,
    QueryParameter(
        schema_extra={"pattern": DATE}, description="finished on or before (ISO 8601 date or time)"
    ),
]
Variant = Annotated[
    list[str] | None,
    QueryParameter(schema_extra=VARIANT, description="variant option NAME=VALUE (repeatable)"),
]
Across = Annotated[
    bool,
    QueryParameter(description="count a player's name as one player in every ruleset (default: per ruleset)"),
]
Position = Annotated[
    int | None,
    QueryParameter(
        ge=0,
        le=INT64_MAX,
        schema_extra={"minimum": 0},  # Litestar leaves out a minimum of 0
        description="wait until the view covers this position",
    ),
]
GameId = Annotated[str | None, QueryParameter(description="wait until this finished game is counted")]
Wait = Annotated[float, QueryParameter(ge=0, le=MAX_WAIT, description="seconds to wait at most")]
Offset = Annotated[int, QueryParameter(ge=0, le=INT64_MAX)]
Limit = Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)]
Format = Annotated[Literal["json", "csv"], QueryParameter(description="json (default) or csv")]


def _filters(
    ruleset: str | None,
    mode: str | None,
    player: str | None,
    since: str | None,
    until: str | None,
    variant: list[str] | None,
    across_rulesets: bool = False,
) -> Filters:
    """The filters asked for, each value checked (projections/filters.py): a value no game
    could match is a 400 `invalid_filter` naming the accepted forms."""
    try:
        parsed = parse_variant(variant or [])
        return check_filters(
            Filters(
                ruleset=ruleset,
                mode=mode,
                player=player,
                since=since,
                until=until,
                variant=parsed,
                across_rulesets=across_rulesets,
            )
        )
    except ValueError as error:
        message = str(error)
        raise InvalidRequest(message[:1].upper() + message[1:] + ".", code="invalid_filter") from None


def _target(chronicle: Chronicle, position: int | None, game: str | None) -> int | None:
    """The position to wait for: the one given, or (for `game`) the store's head when that
    game is finished (its finishing event lies at or before the head)."""
    if game is None:
        return position
    gid = parse_game_id(game)
    if chronicle.game(gid).outcome is None:
        return position
    head = chronicle.recorder.max_notification_id() or 0
    return max(head, position or 0)


def _page(t: Table, offset: int, limit: int) -> TablePage:
    return TablePage(
        t.id,
        t.title,
        t.key,
        [msgspec.to_builtins(c) for c in t.columns],
        t.rows[offset : offset + limit],
        len(t.rows),
        offset,
        limit,
        t.description,
    )


def _read(
    chronicle: Chronicle,
    stats: StatsReader,
    filters: Filters,
    table_id: str | None,
    position: int | None,
    game: str | None,
    wait: float,
) -> Snapshot:
    target = _target(chronicle, position, game)
    withheld = withheld_games(chronicle)  # the one withholding rule (store/deals.py)
    found = snapshot(stats, filters, table_id=table_id, position=target, wait=wait, withheld=withheld)
    if found is None:
        raise UnknownStatistic(f"There is no statistic {table_id!r}; GET /stats lists them.")
    return found


def _csv(tables: list[Table], name: str) -> Response[str]:
    return Response(
        to_csv(tables), media_type=CSV, headers={"Content-Disposition": f'attachment; filename="{name}.csv"'}
    )


@route.get("/stats", 400, 404)
def stats_tables(
    chronicle: ChronicleDep,
    stats: StatsDep,
    ruleset: Ruleset = None,
    mode: Mode = None,
    player: Player = None,
    since: Since = None,
    until: Until = None,
    variant: Variant = None,
    across_rulesets: Across = False,
    position: Position = None,
    game: GameId = None,
    wait: Wait = 5.0,
    offset: Offset = 0,
    limit: Limit = 50,
) -> StatsAnswer:
    """Every table over the finished games that match the filters; each table's rows are
    paginated by `offset`/`limit` (its `total` counts them all)."""
    found = _read(
        chronicle,
        stats,
        _filters(ruleset, mode, player, since, until, variant, across_rulesets),
        None,
        position,
        game,
        wait,
    )
    pages = [_page(t, offset, limit) for t in found.tables]
    return StatsAnswer(found.generation, found.position, found.caught_up, found.games, pages)


@route.get("/stats/tables/{table_id:str}", 400, 404)
def stats_table(
    chronicle: ChronicleDep,
    stats: StatsDep,
    table_id: FromPath[str],
    ruleset: Ruleset = None,
    mode: Mode = None,
    player: Player = None,
    since: Since = None,
    until: Until = None,
    variant: Variant = None,
    across_rulesets: Across = False,
    position: Position = None,
    game: GameId = None,
    wait: Wait = 5.0,
    offset: Offset = 0,
    limit: Limit = 50,
    format: Format = "json",
) -> Response[Any]:
    """One table by its stable id; `format=csv` exports all of its rows."""
    found = _read(
        chronicle,
        stats,
        _filters(ruleset, mode, player, since, until, variant, across_rulesets),
        table_id,
        position,
        game,
        wait,
    )
    [t] = found.tables
    if format == "csv":
        return _csv([t], t.id)
    return Response(_page(t, offset, limit), headers={"X-Stats-Position": str(found.position)})


@route.get("/stats/figures", 400, 404)
def stats_figures(
    chronicle: ChronicleDep,
    stats: StatsDep,
    ruleset: Ruleset = None,
    mode: Mode = None,
    player: Player = None,
    since: Since = None,
    until: Until = None,
    variant: Variant = None,
    across_rulesets: Across = False,
    position: Position = None,
    game: GameId = None,
    wait: Wait = 5.0,
) -> FiguresAnswer:
    """Every figure by its stable id `<table>/<row key>/<column>`, for dashboards."""
    found = _read(
        chronicle,
        stats,
        _filters(ruleset, mode, player, since, until, variant, across_rulesets),
        None,
        position,
        game,
        wait,
    )
    figures: dict[str, Any] = {}
    for t in found.tables:
        figures.update(t.figures())
    return FiguresAnswer(found.generation, found.position, found.caught_up, found.games, figures)


@route.get("/stats/status")
def stats_status(chronicle: ChronicleDep) -> list[ViewStatus]:
    """Each generation of each view: its state, position and games, and the store's head."""
    return [msgspec.convert(row, ViewStatus) for row in status(app=chronicle)]


class RebuildStarted(msgspec.Struct):
    view: str
    status: str


@route.post("/stats/rebuild/{view:str}", 400, 401, 403, 404, 429, status_code=202)
def rebuild_view(chronicle: ChronicleDep, token: TokenDep, view: FromPath[str]) -> RebuildStarted:
    """Build a view afresh in the background (administrator token); readers keep the current
    generation until the new one has caught up (`GET /stats/status` follows it)."""
    if token is None:
        raise Unauthorized("Rebuilding a view needs the administrator token.")
    if not chronicle.is_admin(token):
        raise Forbidden("Only an administrator may rebuild a view.", code="admin_required")
    if view not in VIEWS:
        raise UnknownStatistic(f"There is no view {view!r} (views: {', '.join(VIEWS)}).")
    threading.Thread(target=rebuild, args=(chronicle.url, view), name=f"rebuild-{view}", daemon=True).start()
    return RebuildStarted(view, "rebuilding")


@route.get("/games/{game_id:str}/stats", 401, 404)
def game_statistics(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], format: Format = "json"
) -> Response[Any]:
    """One game's statistics, folded from its stream (retracted actions left out): the
    progression of its metrics turn by turn, actions and decision time per seat, the dice
    per stream. A running game's statistics need a seat or recorder token."""
    gid, access = open_game(chronicle, game_id, token)
    try:
        found = game_stats(chronicle, gid, access)
    except LookupError:
        raise GameNotFound(f"Game {gid} uses a ruleset this server does not have.") from None
    if found.status != "finished" and access.role == "public":
        raise Unauthorized("A running game's statistics need a seat or recorder token.")
    tables = game_tables(found)
    if format == "csv":
        return _csv(tables, f"game-{gid}")
    return Response(GameStatsAnswer(found, [_page(t, 0, len(t.rows) or 1) for t in tables]))


ROUTES = [stats_tables, stats_table, stats_figures, stats_status, rebuild_view, game_statistics]
