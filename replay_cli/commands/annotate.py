"""`chronicle annotate`: write on a game (or a variation) without touching its record.

    chronicle annotate GAME --at N TEXT [--glyph ?!] [--on card:Village] [--highlight red]
        [--arrow-to pile:Province]

anchors a comment, a move glyph (`!`, `?`, `!!`, `??`, `!?`, `?!`) and a highlight to version N,
and optionally to one of the game's coordinates: `KIND:NAME` with the kind one of card, pile,
space, province, tile or seat (`card:Village`, `pile:Province`, `space:3,4`); `--arrow-to`
draws an arrow from that coordinate to a second one. Annotations live
in a stream of their own; `--edit ID` replaces one's content and `--delete ID` removes it (both
are events: nothing written is lost). `chronicle log` shows them under their versions.

The local store's owner writes as the recorder, or for the seat `--seat` names. With `--server
URL`, the token (`--token`, `--token-file` or `CHRONICLE_TOKEN`) says who writes: a seat's, the
recorder's, or a reviewer's token (`--review-token NAME` hands one out, with the recorder's).
While the game runs only the author's side sees an annotation; once it ends, everyone.
"""

from __future__ import annotations

import argparse
import json
from typing import Any
from uuid import UUID

import msgspec

from domain.notes import Annotation
from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import UsageError
from replay_cli.local import open_store, resolve_line, resolve_seat
from replay_cli.parser import intermix
from replay_cli.sources import add_store_or_server, server_token
from store import notes, variations
from store.notes import AnnotationEdit, NewAnnotation


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "annotate", "annotate a game at a version (comment, glyph, highlight)", __doc__
    )
    parser.add_argument("game", metavar="GAME", help="game or variation id (locally a game also by prefix)")
    parser.add_argument("text", nargs="?", default="", metavar="TEXT", help="the comment")
    parser.add_argument("--at", type=int, metavar="N", help="the version annotated")
    parser.add_argument("--glyph", metavar="G", help="a move glyph: ! ? !! ?? !? ?!")
    parser.add_argument("--on", dest="coordinate", metavar="COORD", help="a coordinate, e.g. card:Village")
    parser.add_argument("--highlight", metavar="COLOR", help="red, green, yellow or blue")
    parser.add_argument("--arrow-to", metavar="COORD", help="an arrow from --on's coordinate to this one")
    parser.add_argument("--seat", metavar="S", help="locally: write for this seat (id or player name)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--edit", metavar="ID", help="replace this annotation's content")
    which.add_argument("--delete", metavar="ID", help="delete this annotation")
    which.add_argument("--review-token", metavar="NAME", help="hand a reviewer a token (the recorder)")
    parser.add_argument("--json", action="store_true", help="print the answer as a JSON object")
    add_store_or_server(parser, "annotate on a Chronicle server")
    intermix(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.edit is None and args.delete is None and args.review_token is None and args.at is None:
        raise UsageError("give --at N, the version annotated")
    token = server_token(args)
    if args.server is not None:
        if args.store is not None:
            raise UsageError("give --store or --server, not both")
        answer = _remote(args, token)
    else:
        answer = _local(args)
    if answer is None:
        print(f"deleted annotation {args.delete}")
    elif args.json:
        print(json.dumps(answer, ensure_ascii=False))
    elif "review_token" in answer:
        print(f"review token for {answer['reviewer']}: {answer['review_token']}")
    else:
        note = msgspec.convert(answer, Annotation)
        print(f"annotation {note.annotation_id} at version {note.version}: {note.line()}")
    return 0


def _content(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "text": args.text,
        "glyph": args.glyph,
        "highlight": args.highlight,
        "coordinate": args.coordinate,
        "to": args.arrow_to,
    }


def _local(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.review_token is not None:
        raise UsageError(
            "--review-token hands out a token on a server (--server); the local store needs none"
        )
    app = open_store(args.store)
    try:
        target = _target(app, args.game)
        author = "recorder"
        if args.seat is not None:
            author = f"seat:{resolve_seat(args.seat, variations.line(app, target).game.config)}"
        if args.delete is not None:
            notes.delete_as(app, target, author, args.delete, admin=True)
            return None
        if args.edit is not None:
            edited = notes.edit_as(
                app, target, author, args.edit, AnnotationEdit(**_content(args)), admin=True
            )
            return _builtins(edited)
        return _builtins(notes.annotate_as(app, target, author, NewAnnotation(at=args.at, **_content(args))))
    finally:
        app.close()


def _target(app: Any, text: str) -> UUID:
    """A game or a variation by its id or a unique prefix."""
    return resolve_line(app, text)


def _remote(args: argparse.Namespace, token: str | None) -> dict[str, Any] | None:
    from replay_cli.remote import RemoteClient, RemoteReader

    if args.seat is not None:
        raise UsageError("over a server the token says who writes; --seat is for the local store")
    client = RemoteClient(args.server, token)
    try:
        game = RemoteReader(client, None).resolve(args.game)
        base = f"/games/{game}"
        if args.review_token is not None:
            found: Any = client.post(f"{base}/review-tokens", {"name": args.review_token})
        elif args.delete is not None:
            found = client.send("DELETE", f"{base}/annotations/{args.delete}")
        elif args.edit is not None:
            found = client.send("PATCH", f"{base}/annotations/{args.edit}", _content(args))
        else:
            found = client.post(f"{base}/annotations", {"at": args.at, **_content(args)})
        return found if isinstance(found, dict) else None
    finally:
        client.close()


def _builtins(note: Annotation) -> dict[str, Any]:
    found = msgspec.to_builtins(note)
    assert isinstance(found, dict)
    return found
