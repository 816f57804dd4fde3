"""`chronicle import-log dominion FILE...`: turn Dominion Online game logs into physical games
in the local store, every action recorded through the rules as if entered at the table.

For each log it prints the game id, how the import ended (finished; a player left; refused by
the rules; stuck where the log does not say what the engine asks), the turns and actions, the
final scores of the log against Chronicle's, and the first refusal with its turn, log line and
rule. Today's format (other players' draws hidden) lists no kingdom: `--kingdom` names it, else
it is the piles the log names. A log Chronicle cannot import (cards it does not implement, a
kingdom short of 10 piles) is refused before anything is stored and the next file is read. Exit status 0
when every log imported to its end with the log's scores, else 1.

With `--server URL` each log is imported by a server (`POST /games/import/dominion`, under its
policy for creating games, token from `--token`, `--token-file` or `CHRONICLE_TOKEN`), and
each game's recorder and seat tokens, which the server shows this once, are printed too.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from replay_cli.commands import Subparsers
from replay_cli.errors import CliError, UsageError
from replay_cli.local import open_store
from replay_cli.parser import file_name, shown_name
from replay_cli.sources import add_store_or_server, open_client, server_token
from store.imports import ImportReport, LogRefused, import_log
from store.limits import MAX_NAME

if TYPE_CHECKING:
    from replay_cli.remote import RemoteClient

GAMES = ("dominion",)
MAX_LOG_BYTES = 4 * 1024 * 1024


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "import-log", help="import Dominion Online game logs as physical games", description=__doc__
    )
    parser.add_argument("game", metavar="GAME", choices=GAMES, help="the game the logs are of: dominion")
    parser.add_argument("files", nargs="+", metavar="FILE", type=file_name, help="log files (text)")
    parser.add_argument("--json", action="store_true", help="one JSON object per log")
    parser.add_argument(
        "--kingdom",
        default="",
        metavar="PILES",
        help="the 10 kingdom piles, comma separated, for logs of today's format (which list none); "
        "without it they are the piles the log names",
    )
    add_store_or_server(parser, "import into a Chronicle server")
    parser.set_defaults(run=run)


def _read(path: str) -> str:
    file = Path(path)
    try:
        if file.stat().st_size > MAX_LOG_BYTES:
            size = MAX_LOG_BYTES // (1024 * 1024)
            raise UsageError(f"{shown_name(path)}: larger than {size} MiB, not a game log")
        data = file.read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {shown_name(path)}: {error.strerror or error}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        # a log saved in another encoding: replacing its bytes would import names it does not hold
        raise UsageError(
            f"{shown_name(path)}: not UTF-8 text (byte {error.start}); save the log as UTF-8"
        ) from None


def run(args: argparse.Namespace) -> int:
    texts = [(shown_name(path), _read(path)) for path in args.files]
    kingdom = tuple(name.strip() for name in args.kingdom.split(",") if name.strip())
    token = server_token(args)
    failed = 0
    for path, outcome in _imports(args, token, texts, kingdom):
        if isinstance(outcome, LogRefused):
            failed += 1
            if args.json:
                print(json.dumps({"source": path, "refused": outcome.code, "detail": outcome.detail}))
            else:
                print(f"{path}\n  not imported ({outcome.code}): {outcome.detail}")
            continue
        report, tokens = outcome
        ok = report.status in ("finished", "left") and report.scores_match
        failed += not ok
        if args.json:
            print(json.dumps(msgspec.to_builtins(report) | tokens))
        else:
            print("\n".join(report_lines(report) + _token_lines(tokens)))
    if failed:
        which = f"{failed} of {len(texts)} logs"
        raise CliError(f"{which} were refused or did not reach their end with the log's scores")
    return 0


Imported = tuple[ImportReport, dict[str, Any]]  # the report, and the tokens a server shows once


def _imports(
    args: argparse.Namespace, token: str | None, texts: list[tuple[str, str]], kingdom: tuple[str, ...]
) -> Iterator[tuple[str, Imported | LogRefused]]:
    """Each log's import, into the local store or through the server, as it is done."""
    if args.server is not None:
        with closing(open_client(args, token)) as client:
            for path, text in texts:
                yield path, _import_remote(client, path, text, kingdom)
        return
    app = open_store(args.store, create=True)
    try:
        for path, text in texts:
            try:
                yield path, (import_log(app, text, path, kingdom, game=args.game), {})
            except LogRefused as error:
                yield path, error
    finally:
        app.close()


def _import_remote(
    client: RemoteClient, path: str, text: str, kingdom: tuple[str, ...]
) -> Imported | LogRefused:
    # The server keeps a short name for the log (the file's, cut to fit); the report names
    # the file as it was given here.
    body = {"log": text, "source": Path(path).name[:MAX_NAME], "kingdom": list(kingdom)}
    try:
        answer = client.post("/games/import/dominion", body)
    except CliError as error:
        # The server refused this log before storing anything: the next one is still read.
        if error.http != 422 or error.code is None:
            raise
        return LogRefused(error.detail or error.message, code=error.code)
    report = msgspec.structs.replace(msgspec.convert(answer["report"], ImportReport), source=path)
    return report, {"recorder_token": answer["recorder_token"], "seat_tokens": answer["seat_tokens"]}


def _token_lines(tokens: dict[str, Any]) -> list[str]:
    if not tokens:
        return []
    seats = tokens["seat_tokens"]
    return [f"  recorder {tokens['recorder_token']}", *(f"  seat {seat:<3} {t}" for seat, t in seats.items())]


def report_lines(report: ImportReport) -> list[str]:
    players = ", ".join(f"{seat} {name}" for seat, name in report.players.items())
    scores = ", ".join(
        f"{name} {score} (log {_shown(report.scores_log.get(name))})" for name, score in report.scores.items()
    )
    verdict = "equal" if report.scores_match else "DIFFERENT"
    refusal = report.refusal
    lines = [
        report.source,
        f"  game     {report.game_id}  {report.status}: {report.message}",
        f"  players  {players}",
        f"  turns    {report.turns} (log {report.turns_log})",
        f"  actions  {report.actions}",
        f"  scores   {scores}: {verdict}",
    ]
    if refusal is not None:
        lines.append(
            f"  refused  turn {refusal.turn}, line {refusal.line} {refusal.text!r}: "
            f"rejected ({refusal.code}): {refusal.message} [{refusal.rule}]"
        )
    else:
        lines.append("  refused  nothing")
    if report.unexplained:
        lines.append(f"  lines no fact stands for: {', '.join(map(str, report.unexplained))}")
    if report.unlogged:
        lines.append(f"  not in the log: {'; '.join(report.unlogged)}")
    return lines


def _shown(score: int | None) -> str:
    return "-" if score is None else str(score)
