"""`chronicle audit`: re-decide every action of a game and compare with what was stored.

On the local store the user is the administrator, so a running digital game is audited with
its sealed seed too. Over a server, the server audits (finished games, or any with the
administrator token). Exit status 0 when every audited game is clean, else 1.
"""

from __future__ import annotations

import argparse
import sys

from replay_cli.commands import Subparsers
from replay_cli.errors import REFUSED, CliError
from replay_cli.progress import Progress
from replay_cli.reading import Reader
from replay_cli.sources import add_reading_options, open_reader
from store.audit import AuditReport
from store.errors import ServiceError


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("audit", help="audit a game, or every game", description=__doc__)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("game", nargs="?", metavar="GAME", help="game id (locally also a unique prefix)")
    which.add_argument("--all", action="store_true", help="every game in the store (or on the server)")
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
    reader = open_reader(args)
    try:
        if not args.all:
            report = reader.audit(reader.resolve(args.game))
            print(report_line(report))
            return 0 if report.clean else REFUSED
        return _audit_all(reader)
    finally:
        reader.close()


def _audit_all(reader: Reader) -> int:
    ids = reader.game_ids()
    progress = Progress(len(ids), "auditing")
    unclean = 0
    for game_id in ids:
        try:
            report = reader.audit(game_id)
            line, clean = report_line(report), report.clean
        # One game the source will not audit (a sealed seed over a server) does not stop the rest.
        except (CliError, ServiceError) as error:
            message = error.message if isinstance(error, CliError) else f"{error.detail} ({error.code})"
            line, clean = f"{game_id}  NOT AUDITED: {message}", False
        unclean += not clean
        progress.advance()
        progress.print_above(line)
    progress.finish()
    verdict = "all clean" if not unclean else f"{unclean} not clean"
    print(f"{len(ids)} games audited: {verdict}", file=sys.stderr)
    return 0 if not unclean else REFUSED
