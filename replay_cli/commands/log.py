"""`chronicle log`: one human line per event, numbered by version.

An action undone by a later retraction stays in the log, and so do its facts: on a terminal
they are struck through, elsewhere marked `~ 12  ~~text~~`; the retraction itself is an
ordinary line. `--hide-retracted` leaves them out, showing only the corrected line of play.
The annotations the reader may see follow the line of their version, indented: `note <id>: ?!
[card:Village] text (author)` (`chronicle annotate`). GAME may also be a variation's id.
`--json` prints the events as `GET /games/{id}/events` answers (`{"events": [...]}`),
`--ndjson` one JSON object a line, from the local store or a server alike.
"""

from __future__ import annotations

import argparse
import json
import sys

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.render import can_strike, event_line
from replay_cli.sources import add_reading_options, open_reader


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(subparsers, "log", "list a game's events", __doc__)
    parser.add_argument("game", metavar="GAME", help="game id (locally also a unique prefix)")
    parser.add_argument(
        "--hide-retracted",
        action="store_true",
        help="leave out retracted actions and their facts (the retractions stay)",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="the events as one JSON object")
    output.add_argument("--ndjson", action="store_true", help="one JSON object per event and line")
    add_reading_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    reader = open_reader(args)
    try:
        game_id = reader.resolve(args.game)
        if args.json or args.ndjson:
            raw = [e for e in reader.raw_events(game_id) if not (args.hide_retracted and e.get("retracted"))]
            if args.json:
                print(json.dumps({"events": raw}, ensure_ascii=False))
            else:
                for served in raw:
                    print(json.dumps(served, ensure_ascii=False))
            return 0
        events = reader.events(game_id)
    finally:
        reader.close()
    strike = can_strike(sys.stdout)
    for event in events:
        if not (args.hide_retracted and event.retracted):
            print(event_line(event, strike))
            for note in event.notes:
                print(f"        {note}")
    return 0
