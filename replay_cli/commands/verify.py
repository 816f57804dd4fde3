"""`chronicle verify BUNDLE`: check a dispute's evidence bundle offline, with no store and no
server (store/evidence.py): the hash chain over the events, the seed against its commitment,
and the verdict re-decided from the events, finding by finding. It prints the verdict and what
it checked; a redacted bundle (a seat's, of a running game) is checked as far as its view
allows and the rest is named. Exit status 0 when nothing diverges, 1 at the first divergence
(named with its check and version), 2 when the file cannot be read or is no bundle at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from replay_cli.commands import Subparsers
from replay_cli.errors import REFUSED, CliError
from replay_cli.parser import file_name


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify", help="check a dispute's evidence bundle offline", description=__doc__
    )
    parser.add_argument(
        "bundle", metavar="BUNDLE", type=file_name, help="the bundle (JSON); - reads standard input"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from replay_cli.commands.dispute import verdict_lines
    from store.evidence import verify

    try:
        data = sys.stdin.buffer.read() if args.bundle == "-" else Path(args.bundle).read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {args.bundle}: {error.strerror or error}", status=2) from None
    problem = _not_a_bundle(data)
    if problem is not None:
        name = "standard input" if args.bundle == "-" else args.bundle
        raise CliError(
            f"{name} is not an evidence bundle ({problem}; `chronicle dispute export` writes one)", status=2
        )
    report = verify(data)
    if report.verdict is not None and (report.divergence is None or report.divergence.check == "verdict"):
        for line in verdict_lines(report.verdict):
            print(line)
    for what in report.verified:
        print(f"checked   {what}")
    for what in report.unchecked:
        print(f"unchecked {what}")
    if report.divergence is not None:
        where = f" at version {report.divergence.version}" if report.divergence.version is not None else ""
        print(f"DIVERGED ({report.divergence.check}){where}: {report.divergence.what}")
        return REFUSED
    print("verified: the bundle holds")
    return 0


def _not_a_bundle(data: bytes) -> str | None:
    """Why `data` is no bundle at all (not JSON, or JSON without a bundle's `format`), else
    None: a file that is a bundle, however damaged, is verified and its divergence named."""
    try:
        document = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return "it is not JSON"
    if not isinstance(document, dict) or "format" not in document:
        return "it is JSON without a bundle's format field"
    return None
