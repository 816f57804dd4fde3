"""`chronicle rulesets [ID]`: the games Chronicle knows, their player counts and variant
options with their defaults.

Without ID, one line per ruleset; with ID, its seats, every option (default, the values it
takes, what it does) and where to read its rules (`chronicle rules ID`). `--server URL` asks a
server (`GET /rulesets`) instead of this installation; `--json` prints what the server would.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import msgspec

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import UsageError


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "rulesets", "list the games, their player counts and variant options", __doc__
    )
    parser.add_argument("ruleset", nargs="?", metavar="ID", help="one ruleset in full")
    parser.add_argument("--json", action="store_true", help="JSON, as GET /rulesets serves it")
    parser.add_argument("--server", metavar="URL", help="the rulesets a Chronicle server knows")
    parser.set_defaults(run=run)


def _local() -> list[dict[str, Any]]:
    from domain.ruleset import all_rulesets
    from domain.ruleset_info import RulesetInfo

    return [msgspec.to_builtins(RulesetInfo.of(r)) for r in all_rulesets()]


def _remote(url: str) -> list[dict[str, Any]]:
    from replay_cli.remote import RemoteClient

    client = RemoteClient(url, None)
    try:
        found = client.get("/rulesets")["rulesets"]
    finally:
        client.close()
    assert isinstance(found, list)
    return found


def players(info: dict[str, Any]) -> str:
    low, high = info["min_players"], info["max_players"]
    return str(low) if low == high else f"{low}-{high}"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_lines(option: dict[str, Any]) -> list[str]:
    takes = ""
    if option.get("choices"):
        takes = " (" + " | ".join(_value(c) for c in option["choices"]) + ")"
    elif option.get("min") is not None or option.get("max") is not None:
        low = option.get("min")
        high = option.get("max")
        takes = f" ({low if low is not None else ''}..{high if high is not None else ''})"
    default = _value(option["default"])
    if len(default) > 40:
        default = default[:37] + "..."
    return [f"  {option['name']} = {default}{takes}", f"      {option['description']}"]


def run(args: argparse.Namespace) -> int:
    found = _remote(args.server) if args.server is not None else _local()
    if args.ruleset is not None:
        chosen = [r for r in found if r["id"] == args.ruleset]
        if not chosen:
            known = ", ".join(r["id"] for r in found)
            raise UsageError(f"there is no ruleset {args.ruleset!r} (installed: {known})")
        found = chosen
    if args.json:
        print(json.dumps(found if args.ruleset is None else found[0], indent=1))
        return 0
    if args.ruleset is None:
        width = max((len(r["id"]) for r in found), default=0)
        for r in found:
            print(
                f"{r['id']:<{width}}  {players(r):>4} players  {len(r['options']):>3} options  {r['title']}"
            )
        print("chronicle rulesets ID: one in full; chronicle rules ID: its rules")
        return 0
    [r] = found
    print(f"{r['id']}: {r['title']} (rules version {r['version']})")
    print(f"players: {players(r)}; seats {', '.join(r['seat_ids'])}")
    flags = [("hidden information", r["hidden_information"]), ("chance", r["chance"])]
    print("; ".join(f"{name}: {'yes' if on else 'no'}" for name, on in flags))
    print(f"rules: chronicle rules {r['id']}; a section an option cites: chronicle rules {r['id']} SECTION")
    print(f"variant options (NAME = default, --option NAME=VALUE at `chronicle new`): {len(r['options'])}")
    for option in r["options"]:
        for line in option_lines(option):
            print(line)
    return 0
