"""What the API and the CLI ask of the statistics: tables over the finished games that match
some filters (from the active view), one game's statistics (folded on demand from its
stream, so a running game has them too), and CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import msgspec

from projections.game_stats import GameStatistics, game_statistics
from projections.runner import StatsReader
from projections.tables import DECISION_SECONDS, Column, Table, all_tables, dice_columns, dice_test, table
from projections.views import Filters
from store.app import ADMIN, Access, Chronicle


class Snapshot(msgspec.Struct):
    """The tables over the matching games and where the view stood when they were read."""

    generation: int | None
    position: int
    caught_up: bool
    games: int
    tables: list[Table]


def parse_variant(pairs: Iterable[str]) -> dict[str, str]:
    """`name=value` pairs (values compared as case-insensitive text)."""
    variant: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"a variant filter is NAME=VALUE, not {pair!r}")
        variant[name.strip()] = value.strip().casefold()
    return variant


def snapshot(
    reader: StatsReader,
    filters: Filters,
    *,
    table_id: str | None = None,
    position: int | None = None,
    wait: float = 0.0,
    withheld: frozenset[str] = frozenset(),
) -> Snapshot | None:
    """The tables (or one table, None if unknown) over the finished games matching
    `filters` but the `withheld` ones, after waiting up to `wait` seconds for the view to
    cover `position`."""
    caught_up = reader.wait(position, timeout=wait) if position is not None else True
    view = reader.view()
    games, stored = view.games_and_ratings(filters) if view is not None else ([], None)
    if withheld and any(g.game_id in withheld for g in games):
        # the stored ratings count the withheld games: the ratings are replayed without them
        games, stored = [g for g in games if g.game_id not in withheld], None
    across = filters.across_rulesets
    if table_id is None:
        tables = all_tables(games, stored, across)
    else:
        found = table(table_id, games, stored, across)
        if found is None:
            return None
        tables = [found]
    return Snapshot(reader.generation(), reader.position(), caught_up, len(games), tables)


def game_stats(app: Chronicle, game_id: UUID, access: Access = ADMIN) -> GameStatistics:
    """One game's statistics as `access` may see them (a finished game's are public)."""
    game = app.game(game_id)  # GameNotFound for an unknown game
    return game_statistics(app.events.get(game_id), viewer=app.viewer(game, access))


def progression_table(stats: GameStatistics) -> Table:
    """The per-turn metrics as one table: a row per turn, a column per metric and seat."""
    metrics: list[str] = []
    for sample in stats.progression:
        for name in sample.metrics:
            if name not in metrics:
                metrics.append(name)
    seats = list(stats.seats)
    columns = [
        Column("turn", "Turn", "count", "the turn just ended (0: after setup); a turn is one player's"),
        Column("seat", "Seat", "text", "the seat whose turn it was"),
    ] + [
        Column(
            f"{name}_{seat}",
            f"{name} {stats.seats[seat]}",
            "number",
            f"the ruleset's {name} figure of {stats.seats[seat]} at the end of the turn",
        )
        for name in metrics
        for seat in seats
    ]
    rows = [
        {"turn": s.turn, "seat": s.seat or ""}
        | {f"{name}_{seat}": s.metrics.get(name, {}).get(seat) for name in metrics for seat in seats}
        for s in stats.progression
    ]
    return Table(
        "progression",
        f"Progression of game {stats.game_id}",
        "turn",
        columns,
        rows,
        "One row per turn: the figures the ruleset follows, at the end of the turn.",
    )


def activity_table(stats: GameStatistics) -> Table:
    rows = [
        {
            "seat": a.seat,
            "player": a.player,
            "actions": a.actions,
            "decision_seconds": a.decision_seconds,
            "mean_decision_seconds": a.decision_seconds / a.actions if a.actions else None,
        }
        for a in stats.activity
    ]
    columns = [
        Column("seat", "Seat", "text", "the seat's id"),
        Column("player", "Player", "text", "the player's name"),
        Column(
            "actions",
            "Actions",
            "count",
            "actions recorded for the seat (by its token or by the recorder for it); the recorder's "
            "entries when no seat was asked, and retracted actions, are not counted",
        ),
        DECISION_SECONDS,
        Column("mean_decision_seconds", "Mean per action (s)", "seconds", "decision time / actions"),
    ]
    return Table(
        "activity", "Actions and decision time", "seat", columns, rows, "One row per seat of the game."
    )


def game_dice_table(stats: GameStatistics) -> Table:
    rows = [{"stream": f"{d.stream}/d{d.faces}"} | dice_test(d.counts) for d in stats.dice]
    columns = [
        Column("stream", "Stream", "text", "the random stream and the die size"),
        *dice_columns("Pearson's chi-square against a fair die"),
    ]
    return Table(
        "game_dice",
        "Random outcomes per stream",
        "stream",
        columns,
        rows,
        "One row per random stream and die size of the game (shuffles and draws are not dice).",
    )


def game_tables(stats: GameStatistics) -> list[Table]:
    return [progression_table(stats), activity_table(stats), game_dice_table(stats)]


def to_csv(tables: Sequence[Table]) -> str:
    """One CSV per table (headed by the stable column ids), separated by a blank line."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for index, t in enumerate(tables):
        if index:
            out.write("\n")
        writer.writerow([c.id for c in t.columns])
        for row in t.rows:
            writer.writerow([_cell(row.get(c.id)) for c in t.columns])
    return out.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(round(value, 6))
    return str(value)
