"""`chronicle stats`: the statistics of the finished games in the store, as aligned tables,
or one game's statistics with its progression drawn as a small chart.

The tables: games played, game length, win rate by seat (95% Wilson interval), player
records, head to head, ratings (openskill), dice fairness per stream (chi-square against
fair dice), and each game's own tables (Province: opening orders; any: each title's games and
players). `chronicle stats any` is `chronicle stats --ruleset any`. Filters: --ruleset,
--player, --mode, --variant NAME=VALUE, --since/--until (finishing date: 2026, 2026-03,
2026-03-14, 2026-03-14T09:30). --table ID picks tables by their stable ids; --csv and --json
print them for other programs.

A tie for first is a draw for those tied. A player is a name within one ruleset
(`province/Ann`), and for `any` within one title (`any:Azul/Ann`); --across-rulesets counts a
name as one player in every ruleset.

The same-deal table compares the games that played one deal (`chronicle new RULESET
--same-deal-as GAME`): each table's players and scores, read from the store itself (over a
server, `GET /stats/same-deal`).

The view is brought up to date first (the active generation catches up with the store);
--no-update reads it as it stands. --server URL reads a server's statistics instead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

import msgspec

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import UsageError
from replay_cli.local import open_store, resolve_game
from replay_cli.progress import Progress
from replay_cli.sources import add_store_option, add_token_options, server_token

BOLD, DIM, RED, GREEN, RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[0m"
SPARKS = "▁▂▃▄▅▆▇█"
CHART_HEIGHT = 8
CHART_WIDTH = 60
TABLE_WIDTH = 120  # a wide terminal's columns; --wide prints every column


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "stats", "statistics over the finished games, or of one game", __doc__
    )
    parser.add_argument(
        "ruleset_given", nargs="?", metavar="RULESET", help="only this ruleset's games (as --ruleset)"
    )
    parser.add_argument("--game", metavar="GAME", help="one game's statistics (an id or a unique prefix)")
    parser.add_argument("--ruleset", metavar="ID")
    parser.add_argument("--player", metavar="NAME")
    parser.add_argument("--mode", choices=("digital", "physical"))
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--since", metavar="DATE", help="finished on or after (ISO 8601)")
    parser.add_argument("--until", metavar="DATE", help="finished on or before (ISO 8601)")
    parser.add_argument(
        "--across-rulesets",
        action="store_true",
        help="count a player's name as one player in every ruleset (default: per ruleset)",
    )
    parser.add_argument("--table", action="append", default=[], metavar="ID", help="only these tables")
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="rows per table (20; 0: all)")
    parser.add_argument(
        "--wide",
        action="store_true",
        help=f"every column, however wide (default: the columns that fit in {TABLE_WIDTH})",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--csv", action="store_true", help="CSV, headed by the stable column ids")
    output.add_argument("--json", action="store_true", help="JSON")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--no-update", action="store_true", help="read the view without catching it up")
    parser.add_argument("--server", metavar="URL", help="read a Chronicle server's statistics instead")
    add_token_options(parser)
    add_store_option(parser)
    parser.set_defaults(run=run)


def use_colour(choice: str, stream: TextIO) -> bool:
    if choice != "auto":
        return choice == "always"
    return stream.isatty() and not os.environ.get("NO_COLOR")


def run(args: argparse.Namespace) -> int:
    from projections.filters import check_filters
    from projections.service import game_tables, parse_variant, to_csv
    from projections.views import Filters

    if args.limit < 0:
        raise UsageError("--limit takes a number of rows, 0 for all")
    if args.ruleset_given is not None:
        if args.ruleset is not None and args.ruleset != args.ruleset_given:
            raise UsageError("give the ruleset once: RULESET or --ruleset")
        args.ruleset = args.ruleset_given
    try:
        # A server checks the filters against its own rulesets.
        check = check_filters if args.server is None else (lambda f: f)
        filters = check(
            Filters(
                args.ruleset,
                args.mode,
                args.player,
                args.since,
                args.until,
                parse_variant(args.variant),
                args.across_rulesets,
            )
        )
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.server is not None and (args.store is not None or args.no_update):
        raise UsageError("--server reads the server's view: --store and --no-update do not apply")
    server_token(args)  # a token option without --server is a usage error
    colour = use_colour(args.color, sys.stdout)
    if args.game is not None:
        stats = _remote_game(args) if args.server is not None else _local_game(args)
        tables = game_tables(stats)
        if args.json:
            print(msgspec.json.encode(stats).decode())
        elif args.csv:
            sys.stdout.write(to_csv(tables))
        else:
            for line in game_lines(stats, tables, colour, None if args.wide else TABLE_WIDTH):
                print(line)
        return 0
    heading, found = _remote_tables(args) if args.server is not None else _local_tables(args, filters)
    chosen = found
    if args.table:
        known = {t.id for t in found}
        unknown = [t for t in args.table if t not in known]
        if unknown:
            raise UsageError(f"no table {unknown[0]!r} (tables: {', '.join(sorted(known))})")
        chosen = [t for t in found if t.id in args.table]
    if args.json:
        print(json.dumps(msgspec.to_builtins(chosen), indent=1))
    elif args.csv:
        sys.stdout.write(to_csv(chosen))
    else:
        print(_style(heading[0], BOLD, colour) + heading[1])
        for t in chosen:
            print()
            for line in table_lines(t, colour, args.limit, None if args.wide else TABLE_WIDTH):
                print(line)
    return 0


def _local_game(args: argparse.Namespace) -> Any:
    from projections.service import game_stats

    app = open_store(args.store)
    try:
        return game_stats(app, resolve_game(app, args.game))
    finally:
        app.close()


def _client(args: argparse.Namespace) -> Any:
    from replay_cli.remote import RemoteClient

    return RemoteClient(args.server, server_token(args))


def _remote_game(args: argparse.Namespace) -> Any:
    from projections.game_stats import GameStatistics
    from replay_cli.remote import RemoteReader

    client = _client(args)
    try:
        game_id = RemoteReader(client, None).resolve(args.game)
        body = client.get(f"/games/{game_id}/stats")
        return msgspec.convert(body["statistics"], GameStatistics)
    finally:
        client.close()


def _local_tables(args: argparse.Namespace, filters: Any) -> tuple[tuple[str, str], list[Any]]:
    from projections.runner import StatsReader, catch_up
    from projections.service import snapshot

    app = open_store(args.store)
    try:
        if not args.no_update:
            progress = Progress(1000, "updating the statistics")

            def report(position: int, head: int) -> None:
                progress.advance((1000 * position // head if head else 1000) - progress.done)

            catch_up(app.url, on_progress=report)
            progress.finish()
        reader = StatsReader(app)
        try:
            found = snapshot(reader, filters)
        finally:
            reader.close()
        same_deal = _same_deal_table(app, filters)
    finally:
        app.close()
    assert found is not None
    where = f" (view generation {found.generation}, position {found.position})"
    return (f"{found.games} finished games", where), [*found.tables, same_deal]


def _same_deal_table(app: Any, filters: Any) -> Any:
    """The tables that played one deal side by side (projections/same_deal.py); read from the store."""
    from projections.same_deal import comparison_table

    return comparison_table(app, filters.ruleset)


def _remote_tables(args: argparse.Namespace) -> tuple[tuple[str, str], list[Any]]:
    from projections.tables import Column, Table

    client = _client(args)
    try:
        body = client.get(
            "/stats",
            ruleset=args.ruleset,
            mode=args.mode,
            player=args.player,
            since=args.since,
            until=args.until,
            variant=args.variant or None,
            across_rulesets="true" if args.across_rulesets else None,
            limit=1000,
        )
        same_deal = client.get("/stats/same-deal", ruleset=args.ruleset)
    finally:
        client.close()
    tables = [
        Table(
            t["id"],
            t["title"],
            t["key"],
            [msgspec.convert(c, Column) for c in t["columns"]],
            t["rows"],
            t.get("description", ""),
        )
        for t in [*body["tables"], same_deal]
    ]
    where = f" (server {args.server}, view generation {body['generation']}, position {body['position']})"
    return (f"{body['games']} finished games", where), tables


def game_lines(stats: Any, tables: list[Any], colour: bool, width: int | None = None) -> list[str]:
    names = ", ".join(f"{seat} {name}" for seat, name in stats.seats.items())
    lines = [_style(f"Game {stats.game_id} ({stats.ruleset}, {stats.mode}, {stats.status})", BOLD, colour)]
    lines.append(
        f"{names}; {stats.turns} turns, {stats.actions} actions, {stats.retracted_actions} retracted"
    )
    if stats.winners:
        lines.append("winners: " + ", ".join(stats.seats.get(w, w) for w in stats.winners))
    lines.extend(chart_lines(stats, colour))
    for t in tables[1:]:
        lines.append("")
        lines.extend(table_lines(t, colour, 0, width))
    return lines


def _style(text: str, code: str, colour: bool) -> str:
    return f"{code}{text}{RESET}" if colour else text


def format_value(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if kind == "ratio" and isinstance(value, int | float):
        return f"{100 * value:.1f}%"
    if isinstance(value, float):
        if kind == "count" and value.is_integer():
            return f"{value:.0f}"
        return f"{value:.3f}" if kind == "seconds" else f"{value:.2f}"
    return str(value)


def table_lines(table: Any, colour: bool, limit: int, width: int | None = None) -> list[str]:
    """A table aligned in columns: text to the left, numbers to the right. With a `width`,
    the columns that would run past it are left out (the first always stays), and a line
    below the table says so."""
    rows = table.rows if limit == 0 else table.rows[:limit]
    # a composite key repeats the columns beside it
    composite = table.id in (
        "games_played",
        "win_rate_by_seat",
        "player_records",
        "head_to_head",
        "rating",
        "decision_time",
        "dice_chi_square",
    )
    columns = [c for c in table.columns if not (composite and c.id == table.key)]
    cells = [[format_value(row.get(c.id), c.kind) for c in columns] for row in rows]
    widths = [max([len(c.label), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    left_out: list[str] = []
    if width is not None:
        kept = 1
        while kept < len(columns) and sum(widths[: kept + 1]) + 2 * kept <= width:
            kept += 1
        left_out = [c.label for c in columns[kept:]]
        columns, widths, cells = columns[:kept], widths[:kept], [r[:kept] for r in cells]

    def align(text: str, i: int) -> str:
        return text.ljust(widths[i]) if columns[i].kind == "text" else text.rjust(widths[i])

    lines = [_style(f"{table.title}  [{table.id}]", BOLD, colour)]
    # The legend: what a row is and what each column counts (projections/tables.py).
    lines.extend(_style(f"  {line}", DIM, colour) for line in table.legend() if line.strip(": "))
    lines.append(_style("  ".join(align(c.label, i) for i, c in enumerate(columns)), DIM, colour))
    for row, line in zip(rows, cells, strict=True):
        text = "  ".join(align(cell, i) for i, cell in enumerate(line))
        if colour and table.id == "dice_chi_square":
            text = _style(text, GREEN if row.get("fair") else RED, True)
        lines.append(text)
    if not rows:
        lines.append("(nothing to show)")
    elif len(rows) < len(table.rows):
        lines.append(
            _style(f"... {len(table.rows) - len(rows)} more rows (--limit 0 shows all)", DIM, colour)
        )
    if left_out:
        more = f"{len(left_out)} more columns" if len(left_out) > 1 else "1 more column"
        lines.append(_style(f"... {more} from {left_out[0]!r} on (--wide shows all)", DIM, colour))
    return lines


def _samples(values: Sequence[float], width: int) -> list[float]:
    if len(values) <= width:
        return list(values)
    return [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)]


def sparkline(values: Sequence[float], width: int = CHART_WIDTH) -> str:
    shown = _samples(values, width)
    if not shown:
        return ""
    low, high = min(shown), max(shown)
    span = high - low or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in shown)


def chart_marks(seats: Mapping[str, str]) -> dict[str, str]:
    """One distinct character per seat for the chart: the seats' first characters when they
    differ (Province's A and B), else their last (Dominion's p1, p2 read 1, 2), else the
    players' initials, else 1, 2, 3... (then letters: at most 16 seats)."""
    ids = list(seats)
    for scheme in (
        [s[:1] for s in ids],
        [s[-1:] for s in ids],
        [seats[s][:1].upper() for s in ids],
    ):
        if all(m.strip() and m != "*" for m in scheme) and len(set(scheme)) == len(ids):
            return dict(zip(ids, scheme, strict=True))
    return {s: "123456789abcdefghijklmnopq"[i] for i, s in enumerate(ids)}


def chart_lines(stats: Any, colour: bool) -> list[str]:
    """The score ("vp", else the first metric) per seat turn by turn as a small chart, then
    every metric per seat as a sparkline."""
    progression = stats.progression
    if not progression:
        return ["(this ruleset reports no metrics turn by turn)"]
    metrics = list(progression[-1].metrics)
    main = "vp" if "vp" in metrics else metrics[0]
    seats = list(stats.seats)
    series = {s: [p.metrics.get(main, {}).get(s, 0.0) for p in progression] for s in seats}
    width = min(CHART_WIDTH, len(progression))
    columns = {s: _samples(v, width) for s, v in series.items()}
    low = min(min(v) for v in columns.values())
    high = max(max(v) for v in columns.values())
    span = high - low or 1.0
    grid = [[" "] * width for _ in range(CHART_HEIGHT)]
    palette = [GREEN, RED, "\x1b[34m", "\x1b[33m", "\x1b[35m", "\x1b[36m"]
    marks = chart_marks(stats.seats)
    for index, seat in enumerate(seats):
        for x, value in enumerate(columns[seat]):
            y = CHART_HEIGHT - 1 - round((value - low) / span * (CHART_HEIGHT - 1))
            mark = marks[seat]
            if colour:
                mark = f"{palette[index % len(palette)]}{mark}{RESET}"
            grid[y][x] = "*" if grid[y][x] != " " else mark
    label = max(len(f"{high:g}"), len(f"{low:g}"))
    lines = [_style(f"{main} by turn (turns {progression[0].turn}..{progression[-1].turn})", BOLD, colour)]
    for y, row in enumerate(grid):
        value = high - y * span / (CHART_HEIGHT - 1)
        tick = f"{value:g}" if y in (0, CHART_HEIGHT - 1) else ""
        lines.append(f"{tick.rjust(label)} |" + "".join(row))
    lines.append(" " * label + " +" + "-" * width)
    legend = ", ".join(f"{marks[seat]} = {name}" for seat, name in stats.seats.items())
    meet = "both" if len(seats) == 2 else "more than one"
    lines.append(" " * (label + 2) + legend + f", * = {meet}")
    lines.append("")
    for name in metrics:
        for seat in seats:
            values = [p.metrics.get(name, {}).get(seat, 0.0) for p in progression]
            lines.append(f"{name:>10} {stats.seats[seat]:<10} {sparkline(values)}  {values[-1]:g}")
    return lines
