"""`chronicle new`: create a game in the local store and show its id, commitment and tokens.

The user owns the store, so they create as administrator: `--seed` may fix the server seed
(to reproduce a deal); otherwise it comes from the CSPRNG and stays sealed until the end.
With `--server URL` the game is created on a server (`POST /games`); a token (`--token`,
`--token-file` or `CHRONICLE_TOKEN`) is sent when given: a server that creates games by token
needs one, and `--seed` there needs the administrator's.

`--same-deal-as GAME` deals again the deal of a finished digital game of the same ruleset and
player count (store/deals.py): its options, client seed and seed come from that game, so
`--option`, `--client-seed` and `--seed` do not apply.

For a game Chronicle has no engine for (`any`), `--title TITLE`, `--bgg-id N` and
`--definition FILE` set the options `title`, `bgg_id` and `definition`: the file (TOML or JSON,
or the name of a shipped example: five-dice, card-deck, cooperative) declares the table's
dice, decks, tracks and ending, and is stored in the game's first event
(replay_cli/definitions.py). A title in the file serves when `--title` is absent.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import msgspec

from domain.ruleset import RulesetMeta
from replay_cli.commands import Subparsers
from replay_cli.errors import UsageError
from replay_cli.local import open_store, resolve_game
from replay_cli.options import check_new_game, parse_options, ruleset_named
from replay_cli.sources import add_store_or_server, server_token
from store.app import CreatedGame, NewGame


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("new", help="create a game", description=__doc__)
    parser.add_argument("ruleset", metavar="RULESET", help="e.g. province")
    parser.add_argument(
        "--player",
        dest="players",
        action="append",
        required=True,
        metavar="NAME",
        help="once per seat, in seat order",
    )
    parser.add_argument("--mode", choices=("digital", "physical"), default="digital")
    parser.add_argument("--option", dest="options", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--client-seed", default="", metavar="S")
    parser.add_argument("--tag", dest="tags", action="append", default=[], metavar="T")
    parser.add_argument("--seed", metavar="HEX", help="fix the 32-byte server seed (digital games)")
    parser.add_argument(
        "--same-deal-as", metavar="GAME", help="play the deal of a finished digital game again"
    )
    parser.add_argument("--title", metavar="TITLE", help="the game's title (any): the option `title`")
    parser.add_argument(
        "--bgg-id", type=int, metavar="N", help="the game's BoardGameGeek id (any): the option `bgg_id`"
    )
    parser.add_argument(
        "--definition",
        metavar="FILE",
        help="the table's dice, decks, tracks and ending (any): a TOML or JSON file, or a "
        "shipped example (five-dice, card-deck, cooperative)",
    )
    parser.add_argument("--json", action="store_true", help="print the answer as a JSON object")
    add_store_or_server(parser, "create the game on a Chronicle server")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_named(args.ruleset)
    if args.seed is not None and not _is_seed(args.seed):
        raise UsageError("--seed takes 32 bytes as 64 hexadecimal digits")
    if args.same_deal_as is not None and (args.options or args.client_seed or args.seed):
        raise UsageError(
            "--same-deal-as takes its deal's options and seeds: leave out --option, --client-seed and --seed"
        )
    options = parse_options(args.options, ruleset.meta) | declared_options(args, ruleset.meta)
    check_new_game(ruleset, len(args.players), options)
    new = NewGame(
        ruleset=args.ruleset,
        players=list(args.players),
        mode=args.mode,
        options=options,
        client_seed=args.client_seed,
        tags=list(args.tags),
        server_seed=args.seed,
        same_deal_as=args.same_deal_as,
    )
    token = server_token(args)
    if args.server is not None:
        if args.store is not None:
            raise UsageError("give --store or --server, not both")
        created = _create_remote(args.server, token, new)
    else:
        app = open_store(args.store, create=True)
        try:
            if args.same_deal_as is not None:
                new.same_deal_as = str(resolve_game(app, args.same_deal_as))
            created = app.create_game(new, admin=True)
        finally:
            app.close()
    if args.json:
        print(json.dumps(msgspec.to_builtins(created), indent=2))
    else:
        print("\n".join(_lines(created, args.ruleset, args.mode)))
    return 0


def declared_options(args: argparse.Namespace, meta: RulesetMeta) -> dict[str, Any]:
    """The options `--title`, `--bgg-id` and `--definition` stand for (they win over an
    `--option` of the same name); a usage error for a ruleset that has no such option."""
    flags = {"title": args.title, "bgg_id": args.bgg_id, "definition": args.definition}
    for name, value in flags.items():
        if value is not None and meta.option(name) is None:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} applies to a ruleset with the option {name!r} (any), not {meta.id}")
    options: dict[str, Any] = {}
    if args.definition is not None:
        from replay_cli.definitions import read_definition  # the game's own parser, when asked

        found = read_definition(args.definition)
        options["definition"] = found.definition
        if found.title is not None:
            options["title"] = found.title
        if found.bgg_id is not None:
            options["bgg_id"] = found.bgg_id
    if args.title is not None:
        options["title"] = args.title
    if args.bgg_id is not None:
        options["bgg_id"] = args.bgg_id
    return options


def _create_remote(url: str, token: str | None, new: NewGame) -> CreatedGame:
    from replay_cli.remote import RemoteClient

    client = RemoteClient(url, token)
    try:
        body = {k: v for k, v in msgspec.to_builtins(new).items() if v is not None}
        return msgspec.convert(client.post("/games", body), CreatedGame)
    finally:
        client.close()


def _is_seed(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False


def _lines(created: CreatedGame, ruleset: str, mode: str) -> list[str]:
    seal = created.commitment or "none (a physical game: the table makes its own luck)"
    tokens = {"recorder": created.recorder_token} | {
        f"{seat} ({name})": created.seat_tokens[seat] for seat, name in created.seats.items()
    }
    width = max(map(len, tokens))
    return [
        f"game        {created.game_id}",
        f"ruleset     {ruleset} ({mode})",
        f"commitment  {seal}",
        "tokens:",
        *(f"  {who:<{width}}  {token}" for who, token in tokens.items()),
    ]
