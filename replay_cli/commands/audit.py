"""`chronicle audit`: re-decide every action of a game and compare with what was stored.

On the local store the user is the administrator, so a running digital game is audited with
its sealed seed too. Over a server, the server audits (finished games, or any with the
administrator token); `--all` skips the running games the server will not audit yet and
counts them. Exit status 0 when every audited game is clean, else 1.

`--all` on the local store audits across `--jobs` worker processes (by default one a core),
each opening the store itself (replay_cli/workers.py), and prints the same lines in the same
order as one process does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from replay_cli.commands import Subparsers
from replay_cli.errors import REFUSED, CliError, UsageError
from replay_cli.local import LocalReader
from replay_cli.progress import Progress
from replay_cli.reading import Reader
from replay_cli.sources import add_reading_options, open_reader
from replay_cli.workers import default_jobs, in_workers
from store.audit import AuditReport
from store.errors import ServiceError


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("audit", help="audit a game, or every game", description=__doc__)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("game", nargs="?", metavar="GAME", help="game id (locally also a unique prefix)")
    which.add_argument("--all", action="store_true", help="every game in the store (or on the server)")
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="with --all on the local store: audit across N processes (default: one a core; 1: this one)",
    )
    add_reading_options(parser, viewer=False)
    parser.set_defaults(run=run)


def report_line(report: AuditReport) -> str:
    if report.clean:
        undone = f", {report.retracted} retracted" if report.retracted else ""
        return f"{report.game_id}  clean  ({report.actions} actions{undone}, {report.facts} facts)"
    divergence = report.divergence
    assert divergence is not None
    return (
        f"{report.game_id}  DIVERGED at version {divergence.version}: {divergence.what} [{divergence.rule}]"
    )


def run(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs takes a positive number")
    reader = open_reader(args)
    try:
        if not args.all:
            report = reader.audit(reader.resolve(args.game))
            print(report_line(report))
            return 0 if report.clean else REFUSED
        return _audit_all(reader, args.jobs if args.jobs is not None else default_jobs())
    finally:
        reader.close()


# What a server answers for a game whose audit opens only when it ends.
NOT_YET = frozenset({"seed_sealed", "game_running"})

Outcome = tuple[str, bool | None]
"""A game's line and whether it is clean; None for a running game skipped."""


def game_outcome(reader: Reader, game_id: str) -> Outcome:
    """One game of `audit --all`: the same in the command's process or in a worker."""
    try:
        report = reader.audit(game_id)
        return report_line(report), report.clean
    # One game the source will not audit does not stop the rest; a running one (a server
    # audits a game once it ends) is skipped and counted, not held against the others.
    except (CliError, ServiceError) as error:
        if error.code in NOT_YET:
            return f"{game_id}  skipped: still running", None
        message = error.message if isinstance(error, CliError) else f"{error.detail} ({error.code})"
        return f"{game_id}  NOT AUDITED: {message}", False


def outcomes(reader: Reader, ids: list[str], jobs: int) -> Iterator[Outcome]:
    """Each game's outcome in the order of `ids`: across `jobs` worker processes on the
    local store, else in this process."""
    if jobs > 1 and len(ids) > 1 and isinstance(reader, LocalReader):
        return in_workers(reader.app.url, ids, jobs, game_outcome)
    return (game_outcome(reader, game_id) for game_id in ids)


def _audit_all(reader: Reader, jobs: int) -> int:
    ids = reader.game_ids()
    progress = Progress(len(ids), "auditing")
    unclean = running = 0
    for line, clean in outcomes(reader, ids, jobs):
        if clean is None:
            running += 1
        else:
            unclean += not clean
        progress.advance()
        progress.print_above(line)
    progress.finish()
    verdict = "all clean" if not unclean else f"{unclean} not clean"
    skipped = f"; {running} running games skipped (audited once they end)" if running else ""
    print(f"{len(ids) - running} games audited: {verdict}{skipped}", file=sys.stderr)
    return 0 if not unclean else REFUSED
