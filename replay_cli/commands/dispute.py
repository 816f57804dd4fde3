"""`chronicle dispute`: a claim over a range of a game, the engine's verdict, human rulings
and the evidence bundle anyone checks offline with `chronicle verify` (store/disputes.py,
store/evidence.py).

    chronicle dispute open GAME --from N --to M --claim TEXT
    chronicle dispute rule DISPUTE --text TEXT
    chronicle dispute show DISPUTE
    chronicle dispute list GAME
    chronicle dispute export DISPUTE > bundle.json

The verdict re-decides every action of versions N..M from the stored facts and recomputes
every random outcome; each finding names its rule (`chronicle rules RULE` prints it). On the
local store the user is the administrator: a running digital game is re-decided with its sealed
seed, which no output shows; a bundle of a running game holds no seed. With `--server URL`
and a token (a seat's or the recorder's; `--token`, `--token-file` or `CHRONICLE_TOKEN`) the
server does the same, and shows what that token may see.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import CliError, UsageError
from replay_cli.local import open_store, resolve_dispute, resolve_game
from replay_cli.parser import file_name
from replay_cli.sources import add_store_or_server, server_token
from store.app import ADMIN, Chronicle
from store.verdict import Verdict


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "dispute", "open a dispute over a game's range, rule on it, export its evidence", __doc__
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")
    opening = verbs.add_parser("open", help="open a dispute and print the engine's verdict")
    opening.add_argument("game", metavar="GAME", help="game id or a unique prefix")
    opening.add_argument("--from", dest="first", type=int, required=True, metavar="N", help="first version")
    opening.add_argument("--to", dest="last", type=int, required=True, metavar="M", help="last version")
    opening.add_argument("--claim", required=True, metavar="TEXT", help="what is disputed, in words")
    ruling = verbs.add_parser("rule", help="record a human ruling on a dispute")
    ruling.add_argument("dispute", metavar="DISPUTE", help="dispute id or a unique prefix")
    ruling.add_argument("--text", required=True, metavar="TEXT")
    showing = verbs.add_parser("show", help="print a dispute with its verdict and rulings")
    showing.add_argument("dispute", metavar="DISPUTE", help="dispute id or a unique prefix")
    listing = verbs.add_parser("list", help="list the disputes over a game")
    listing.add_argument("game", metavar="GAME", help="game id or a unique prefix")
    exporting = verbs.add_parser("export", help="write the dispute's evidence bundle (JSON)")
    exporting.add_argument("dispute", metavar="DISPUTE", help="dispute id or a unique prefix")
    exporting.add_argument(
        "--out", metavar="FILE", type=file_name, help="write to FILE instead of standard output"
    )
    for verb in (opening, ruling, showing, listing, exporting):
        add_store_or_server(verb, "a Chronicle server instead of the local store")
        verb.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from store import disputes, evidence

    token = server_token(args)
    if args.server is not None:
        if args.store is not None:
            raise UsageError("give --store or --server, not both")
        return _remote(args, token)
    app = open_store(args.store)
    try:
        if args.verb == "open":
            shown = disputes.open_dispute(
                app, resolve_game(app, args.game), ADMIN, args.first, args.last, args.claim
            )
            print("\n".join(dispute_lines(shown)))
            return 0
        if args.verb == "rule":
            shown = disputes.rule(app, resolve_dispute(app, args.dispute), ADMIN, args.text)
            print("\n".join(dispute_lines(shown)))
            return 0
        if args.verb == "show":
            print("\n".join(dispute_lines(disputes.show(app, resolve_dispute(app, args.dispute), ADMIN))))
            return 0
        if args.verb == "list":
            return _list(app, resolve_game(app, args.game))
        data = msgspec.json.encode(evidence.build(app, resolve_dispute(app, args.dispute), ADMIN))
    finally:
        app.close()
    return _write(args, data)


def _write(args: argparse.Namespace, data: bytes) -> int:
    if args.out is None:
        sys.stdout.buffer.write(data + b"\n")
        sys.stdout.flush()
        return 0
    try:
        Path(args.out).write_bytes(data + b"\n")
    except OSError as error:
        raise CliError(f"cannot write {args.out}: {error.strerror or error}") from None
    return 0


def _remote(args: argparse.Namespace, token: str | None) -> int:
    from replay_cli.remote import RemoteClient, RemoteReader
    from store.disputes import DisputeView

    client = RemoteClient(args.server, token)
    try:
        if args.verb == "open":
            game_id = RemoteReader(client, None).resolve(args.game, variations=False)
            body = {"from": args.first, "to": args.last, "claim": args.claim}
            print(
                "\n".join(
                    dispute_lines(
                        msgspec.convert(client.post(f"/games/{game_id}/disputes", body), DisputeView)
                    )
                )
            )
            return 0
        if args.verb == "list":
            game_id = RemoteReader(client, None).resolve(args.game, variations=False)
            return _list_views(
                game_id, msgspec.convert(client.get(f"/games/{game_id}/disputes"), list[DisputeView])
            )
        dispute_id = RemoteReader(client, None).resolve_dispute(args.dispute)
        if args.verb == "rule":
            answer = client.post(f"/disputes/{dispute_id}/rulings", {"text": args.text})
            print("\n".join(dispute_lines(msgspec.convert(answer, DisputeView))))
            return 0
        if args.verb == "show":
            print(
                "\n".join(dispute_lines(msgspec.convert(client.get(f"/disputes/{dispute_id}"), DisputeView)))
            )
            return 0
        data = msgspec.json.encode(client.get(f"/disputes/{dispute_id}/bundle"))
    finally:
        client.close()
    return _write(args, data)


def _list(app: Chronicle, game_id: UUID) -> int:
    from store import disputes

    return _list_views(
        str(game_id), [disputes.show(app, d, ADMIN) for d in disputes.disputes_of(app, game_id)]
    )


def _list_views(game_id: str, found: list[Any]) -> int:
    if not found:
        print(f"no disputes over game {game_id}")
    for shown in found:
        state = "holds" if shown.verdict.holds else "does not hold"
        last = shown.rulings[-1] if shown.rulings else None
        ruled = f"; ruled: {last.text} ({ruling_provenance(last)})" if last is not None else ""
        print(
            f"{shown.dispute_id}  versions {shown.first}-{shown.last}  record {state}  {shown.claim}{ruled}"
        )
    return 0


def dispute_lines(shown: object) -> list[str]:
    from store.disputes import DisputeView

    assert isinstance(shown, DisputeView)
    lines = [
        f"dispute   {shown.dispute_id}",
        f"game      {shown.game_id}, versions {shown.first}-{shown.last} (opened by {shown.opened_by} "
        f"at version {shown.game_version}, {shown.opened_at})",
        f"claim     {shown.claim}",
        *verdict_lines(shown.verdict),
    ]
    if shown.game_head:  # what a bundle of this dispute must reproduce: worth noting
        lines.insert(2, f"head      {shown.game_head} (the hash chain at version {shown.game_version})")
    for ruling in shown.rulings:
        lines.append(f"ruling    {ruling.text}  ({ruling_provenance(ruling)})")
    return lines


def ruling_provenance(ruling: Any) -> str:
    """Who ruled, in which store, when; and when it was imported into this one."""
    where = f"in store {ruling.store}" if ruling.store else "in a store the export did not name"
    imported = f", imported {ruling.imported_at}" if ruling.imported_at else ""
    return f"{ruling.by}, {where}, {ruling.at}{imported}"


def verdict_lines(verdict: Verdict) -> list[str]:
    """The verdict as `dispute show` and `verify` print it: one line per finding."""
    lines = [f"verdict   {verdict.summary}"]
    for finding in verdict.findings:
        code = f" ({finding.code})" if finding.code and finding.code != finding.verdict else ""
        lines.append(f"  v{finding.version:<5} {finding.action}  {finding.verdict}{code}  [{finding.rule}]")
        if finding.detail:
            lines.append(f"          {finding.detail}")
    if (
        verdict.stopped is not None
        and verdict.stopped.what
        and not any(f.version == verdict.stopped.version for f in verdict.findings)
    ):
        stop = verdict.stopped
        lines.append(f"  stopped at version {stop.version}: {stop.what} ({stop.code}) [{stop.rule}]")
    return lines
