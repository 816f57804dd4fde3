"""`chronicle`: argument parsing and dispatch (design.md section 7).

Each command lives in `replay_cli.commands.<name>` with a `register(subparsers)` that adds its
parser and sets `run`. Every failure ends here as one line on stderr (`chronicle: error: ...`)
and an exit status (see `errors.py`); set `CHRONICLE_DEBUG=1` to see the traceback of an
unexpected error instead.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Callable, Sequence

from eventsourcing.persistence import InterfaceError, OperationalError

from domain.ruleset import RejectedError
from replay_cli.commands import COMMANDS
from replay_cli.errors import REFUSED, CliError, rejected
from replay_cli.parser import ChronicleParser
from store.config import redact, store_url
from store.errors import ServiceError


def build_parser() -> ChronicleParser:
    parser = ChronicleParser(
        prog="chronicle",
        description="Record, replay and audit tabletop games as event streams.",
    )
    parser.add_argument("--version", action="version", version=f"chronicle {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def version() -> str:
    """The installed distribution's version (a source checkout that was never installed says so)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("chronicle")
    except PackageNotFoundError:
        return "(not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    # A player's name or a ruleset's text may not fit a narrow terminal encoding; never die of it.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    # A message may quote what a library said about the store; its password is masked.
    url = store_url(getattr(args, "store", None))
    try:
        return run(args)
    except CliError as error:
        return _fail(redact(error.message, url), error.status)
    except RejectedError as error:
        return _fail(rejected(error.rejection).message, REFUSED)
    except ServiceError as error:
        return _fail(f"{error.detail.rstrip('.')} ({error.code})", REFUSED)
    except (OperationalError, InterfaceError) as error:
        # as the server's 503: on SQLite, another process held the write lock past the wait
        # (10 s); on PostgreSQL, the database did not answer. A write refused here is not stored.
        detail = redact(str(error).strip() or type(error).__name__, url)
        return _fail(f"the event store did not answer ({detail}); retry (store_unavailable)", REFUSED)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `chronicle log GAME | head`: the reader left, which is not an error; point stdout at
        # /dev/null so the interpreter's final flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        if os.environ.get("CHRONICLE_DEBUG"):
            raise
        return _fail(
            redact(f"unexpected {type(error).__name__}: {error}", url)
            + " (set CHRONICLE_DEBUG=1 for the traceback)",
            REFUSED,
        )


def _fail(message: str, status: int) -> int:
    sys.stdout.flush()
    print(f"chronicle: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
