"""`chronicle record`: enter actions at the table, in the ruleset's notation (or as JSON).

The user owns the local store, so they record as the table's recorder: any seat may act, and
`--seat` only says for whom (without it the ruleset takes the seat it is waiting for).
Actions given on the command line are recorded in order, each atomically with its facts; the
first illegal one stops the command (those before it stay recorded) with exit status 1.
Without actions, an interactive loop reads one action per line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec

from domain.game import Game
from domain.ruleset import RejectedError
from replay_cli.commands import Subparsers
from replay_cli.errors import CliError, UsageError, rejection_line
from replay_cli.local import game_info, open_store, resolve_game, resolve_seat
from replay_cli.parser import intermix
from replay_cli.reading import EventLine
from replay_cli.render import event_line, outcome_line, prompt_lines
from replay_cli.sources import add_store_option
from store.app import ADMIN, RECORDER, Chronicle
from store.errors import ServiceError

SHOWN_CHOICES = 12


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "record",
        help="record actions (or an interactive session)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    parser.add_argument(
        "actions", nargs="*", metavar="ACTION", help="e.g. 'move green top', 'build camp', 'end'"
    )
    parser.add_argument("--seat", metavar="S", help="the seat the actions are for (id or player name)")
    parser.add_argument("--json", action="store_true", help="each action is a JSON object, not notation")
    add_store_option(parser)
    intermix(parser)
    parser.set_defaults(run=run)


class Recorder:
    """One game in the local store, recorded into as the table's recorder."""

    def __init__(self, app: Chronicle, game_id: UUID, seat: str | None) -> None:
        self.app = app
        self.game_id = game_id
        self.seat = seat

    def game(self) -> Game:
        return self.app.game(self.game_id)

    def record(self, action: str | dict[str, Any]) -> list[EventLine]:
        """Record one action; the lines of the events it appended (the action, its facts, and
        the game's end if it ended it)."""
        result = self.app.record(self.game_id, action, RECORDER, seat=self.seat)
        landed = self.game().actions[result.seq - 1]
        shown = self.app.read_events(self.game_id, ADMIN, gt=landed.action_version - 1, lte=result.version)
        return [EventLine(e.version, e.type, e.text) for e in shown]

    def legal_notation(self) -> list[str]:
        found: list[str] = self.app.legal_actions(self.game_id, RECORDER, self.seat)["notation"]
        return found


def parse_action(text: str, as_json: bool) -> str | dict[str, Any]:
    if not as_json:
        return text
    try:
        action = json.loads(text)
    except json.JSONDecodeError as error:
        raise UsageError(f"not a JSON object: {text!r} ({error.msg})") from None
    if not isinstance(action, dict):
        raise UsageError(f"an action is a JSON object with a 'kind', not {text!r}")
    return action


def run(args: argparse.Namespace) -> int:
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        seat = resolve_seat(args.seat, app.game(game_id).config) if args.seat is not None else None
        recorder = Recorder(app, game_id, seat)
        if not args.actions:
            return Session(recorder, args.json).run(input)
        for text in args.actions:
            action = parse_action(text, args.json)
            for line in recorder.record(action):
                print(event_line(line), flush=True)
        return 0
    finally:
        app.close()


class Session:
    """The interactive loop: before each line it shows what the game waits for and the legal
    actions; `?` lists them all, `help` the commands, `quit` (or end of input) leaves. An
    illegal action is shown and the loop goes on."""

    def __init__(self, recorder: Recorder, as_json: bool) -> None:
        self.recorder = recorder
        self.as_json = as_json
        # Words the loop answers itself rather than the ruleset (`undo` will join them).
        self.commands: dict[str, Callable[[], bool]] = {
            "?": self._list_legal,
            "help": self._help,
            "quit": lambda: False,
            "exit": lambda: False,
        }

    def run(self, read_line: Callable[[str], str]) -> int:
        if sys.stdin.isatty():
            import readline  # noqa: F401  (line editing and history for input())
        # The situation is shown again only after an action was tried, not after `?` or `help`.
        changed = True
        while True:
            if changed:
                if not self._show_situation():
                    break
                changed = False
            try:
                line = read_line("> ").strip()
            except EOFError:
                print()
                break
            command = self.commands.get(line.lower())
            if command is not None:
                if not command():
                    break
            elif line:
                self._record(line)
                changed = True
        return 0

    def _show_situation(self) -> bool:
        """What the game waits for; False (after the outcome) once it is over."""
        game = self.recorder.game()
        info = game_info(game)
        if game.outcome is not None:
            print(outcome_line(info, msgspec.to_builtins(game.outcome)))
            return False
        print(f"version {game.version}")
        prompts = self.recorder.app.prompts(self.recorder.game_id)
        for line in prompt_lines(info, prompts):
            print(line)
        legal = self.recorder.legal_notation()
        if legal:
            shown = " | ".join(legal[:SHOWN_CHOICES])
            more = (
                f"  (+{len(legal) - SHOWN_CHOICES} more; ? lists all)" if len(legal) > SHOWN_CHOICES else ""
            )
            print(f"legal: {shown}{more}")
        sys.stdout.flush()
        return True

    def _record(self, line: str) -> None:
        try:
            for event in self.recorder.record(parse_action(line, self.as_json)):
                print(event_line(event))
        except RejectedError as error:
            r = error.rejection
            print(rejection_line(r.code, r.message, r.rule))
        except ServiceError as error:
            print(f"refused ({error.code}): {error.detail}")
        except CliError as error:
            print(error.message)

    def _list_legal(self) -> bool:
        for notation in self.recorder.legal_notation():
            print(f"  {notation}")
        return True

    def _help(self) -> bool:
        print(
            "Enter an action in notation" + (" (as JSON)" if self.as_json else "") + "; ? lists the legal"
            " actions, quit leaves."
        )
        return True
