"""`chronicle record`: enter actions at the table, in the ruleset's notation (or as JSON).

The user owns the local store, so they record as the table's recorder: any seat may act, and
`--seat` only says for whom (without it the ruleset takes the seat it is waiting for). With
`--server URL` the actions go to a server, with the token from `--token`, `--token-file` or
`CHRONICLE_TOKEN`: the recorder's token records for any seat, a seat's token for its seat.
Actions given on the command line are recorded in order, each atomically with its facts; the
first illegal one stops the command (those before it stay recorded) with exit status 1, and
its message names the later actions it did not enter. `?` among them lists the legal actions
at that point, as in the interactive loop. Without actions, an interactive loop reads one
action per line.

`undo [K]` (on the command line or in the loop) retracts the last K live actions, 1 by
default (domain/corrections.py): they stay in the record, marked retracted, and the game goes
on from the state before them. Redoing one is recording it again. The recorder's correction
is carried out at once; `--reason` says why (in the loop: `undo [K] [REASON]`). A correction
the rules refuse (say, more actions than were played) fails like an illegal action.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

import msgspec

from domain.events import ActionRecorded
from domain.game import Game
from domain.ruleset import RejectedError
from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import REFUSED, CliError, UsageError, rejection_of
from replay_cli.local import game_info, open_store, resolve_game, resolve_seat
from replay_cli.parser import intermix
from replay_cli.reading import EventLine, GameInfo
from replay_cli.render import event_line, outcome_line, prompt_lines
from replay_cli.sources import add_store_or_server, server_token
from store.app import ADMIN, RECORDER, Chronicle
from store.errors import ServiceError

SHOWN_CHOICES = 12


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(subparsers, "record", "record actions (or an interactive session)", __doc__)
    parser.add_argument("game", metavar="GAME", help="game id, or a unique prefix of at least 4 characters")
    parser.add_argument(
        "actions",
        nargs="*",
        metavar="ACTION",
        help="e.g. 'move green top', 'build camp', 'end'; or 'undo [K]' to retract the last K actions",
    )
    parser.add_argument("--seat", metavar="S", help="the seat the actions are for (id or player name)")
    parser.add_argument("--json", action="store_true", help="each action is a JSON object, not notation")
    parser.add_argument(
        "--reason", default="", metavar="TEXT", help="why, for each 'undo' (kept in the record)"
    )
    add_store_or_server(parser, "record on a Chronicle server, with the game's recorder token")
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

    def undo(self, count: int, reason: str) -> Undone:
        """Retract the last `count` live actions as the recorder (at once)."""
        answer = self.app.retract(self.game_id, RECORDER, count=count, reason=reason, seat=self.seat)
        game = self.game()
        undone = [game.actions[seq - 1] for seq in answer.retracted]
        shown = self.app.read_events(self.game_id, ADMIN, gt=answer.version - 1, lte=answer.version)
        actions = {
            e.originator_version: game.ruleset.format_action(game.ruleset.codec.decode_action(e.action))
            for a in undone
            for e in self.app.stored_events(game.id, gt=a.action_version - 1, lte=a.action_version)
            if isinstance(e, ActionRecorded)
        }
        return Undone(
            lines=[EventLine(e.version, e.type, e.text, e.retracted) for e in shown],
            actions=[(a.seq, actions[a.action_version]) for a in undone],
            version=answer.version,
            waiting_for=list(answer.waiting_for),
        )

    def legal_notation(self) -> list[str]:
        found: list[str] = self.app.legal_actions(self.game_id, RECORDER, self.seat)["notation"]
        return found

    def legal_templates(self) -> list[str]:
        found: list[str] = self.app.legal_actions(self.game_id, RECORDER, self.seat)["templates"]
        return found

    def legal_explained(self) -> list[tuple[str, str]]:
        """Each legal action's notation with what it means."""
        found = self.app.legal_actions(self.game_id, RECORDER, self.seat)
        return list(zip(found["notation"], found["explanations"], strict=True))

    def situation(self) -> Situation:
        game = self.game()
        outcome = msgspec.to_builtins(game.outcome) if game.outcome is not None else None
        return Situation(game_info(game), game.version, outcome, self.app.prompts(self.game_id, RECORDER))

    def close(self) -> None:
        self.app.close()


@dataclass(frozen=True)
class Situation:
    """What the interactive loop shows before each line: the game, its version, its outcome
    once it is over, and who must answer what."""

    info: GameInfo
    version: int
    outcome: dict[str, Any] | None
    prompts: list[dict[str, Any]]


class Table(Protocol):
    """A game recorded into as the table's recorder: in the local store (`Recorder`) or on a
    server with the recorder's token (replay_cli/remote_record.py)."""

    def record(self, action: str | dict[str, Any]) -> list[EventLine]: ...

    def undo(self, count: int, reason: str) -> Undone: ...

    def legal_notation(self) -> list[str]: ...

    def legal_templates(self) -> list[str]: ...

    def legal_explained(self) -> list[tuple[str, str]]: ...

    def situation(self) -> Situation: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Undone:
    """What one `undo` did: the events it appended, the actions it retracted (number and
    notation), and the version the game is at now."""

    lines: list[EventLine]
    actions: list[tuple[int, str]]
    version: int
    waiting_for: list[str]

    def summary(self) -> str:
        if not self.actions:  # a request still waiting for approvals (never the recorder's)
            return f"retraction pending, waiting for {', '.join(self.waiting_for)}; version {self.version}"
        undone = ", ".join(f"#{seq} ({notation})" for seq, notation in self.actions)
        return f"retracted {undone}; the game is at version {self.version}"


UNDO = "undo"


def undo_count(text: str) -> int:
    """The K of `undo K`: a whole number (the rules judge whether it is in range)."""
    if not text.isdigit():
        raise UsageError(f"undo takes a number of actions to retract, not {text!r}")
    return int(text)


def split_undos(words: list[str]) -> list[str | int]:
    """The command line's actions, with each `undo [K]` (also `'undo K'` as one word) turned
    into the number of actions it retracts."""
    steps: list[str | int] = []
    rest = list(words)
    while rest:
        word = rest.pop(0)
        head, _, tail = word.strip().partition(" ")
        if head.lower() != UNDO:
            steps.append(word)
        elif tail.strip():
            steps.append(undo_count(tail.strip()))
        elif rest and rest[0].strip().isdigit():
            steps.append(undo_count(rest.pop(0).strip()))
        else:
            steps.append(1)
    return steps


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


def _open(args: argparse.Namespace) -> Table:
    token = server_token(args)
    if args.server is not None:
        if args.store is not None:
            raise UsageError("give --store or --server, not both")
        from replay_cli.remote_record import RemoteRecorder

        return RemoteRecorder.open(args.server, token, args.game, args.seat)
    app = open_store(args.store)
    try:
        game_id = resolve_game(app, args.game)
        seat = resolve_seat(args.seat, app.game(game_id).config) if args.seat is not None else None
    except BaseException:
        app.close()
        raise
    return Recorder(app, game_id, seat)


def run(args: argparse.Namespace) -> int:
    recorder = _open(args)
    try:
        if not args.actions:
            return Session(recorder, args.json, args.reason).run(input)
        steps = split_undos(args.actions)
        for done, step in enumerate(steps):
            try:
                _step(recorder, step, args)
            except (CliError, RejectedError, ServiceError) as error:
                raise _stopped(error, steps[done + 1 :]) from None
        return 0
    finally:
        recorder.close()


def _step(recorder: Table, step: str | int, args: argparse.Namespace) -> None:
    """One word of the command line: an action, an `undo`, or `?` (the legal actions, as the
    interactive loop lists them)."""
    if isinstance(step, int):
        undone = recorder.undo(step, args.reason)
        for line in undone.lines:
            print(event_line(line))
        print(undone.summary(), flush=True)
    elif step.strip() == "?":
        Session(recorder, args.json).list_legal()
        sys.stdout.flush()
    else:
        for line in recorder.record(parse_action(step, args.json)):
            print(event_line(line), flush=True)


def _stopped(error: CliError | RejectedError | ServiceError, rest: list[str | int]) -> CliError:
    """The refusal that stopped a batch, naming the later actions it did not enter (those
    before it stay recorded)."""
    if isinstance(error, RejectedError):
        message, status = rejection_of(error.rejection), REFUSED
    elif isinstance(error, ServiceError):
        message, status = f"{error.detail.rstrip('.')} ({error.code})", REFUSED
    else:
        message, status = error.message, error.status
    if rest:
        named = ", ".join(f"undo {s}" if isinstance(s, int) else repr(s) for s in rest)
        message += f"; not entered: {named}"
    return CliError(message, status)


class Session:
    """The interactive loop: before each line it shows what the game waits for and the legal
    actions; `?` lists them all, `help` the commands, `undo [K] [REASON]` retracts the last K
    actions, `quit` (or end of input) leaves. An illegal action or a refused correction is
    shown and the loop goes on."""

    def __init__(self, recorder: Table, as_json: bool, reason: str = "") -> None:
        self.recorder = recorder
        self.as_json = as_json
        self.reason = reason  # for an `undo` that gives none
        # Words the loop answers itself rather than the ruleset (`undo [K] [REASON]` too).
        self.commands: dict[str, Callable[[], bool]] = {
            "?": self.list_legal,
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
            elif line and line.split(maxsplit=1)[0].lower() == UNDO:
                self._undo(line)
                changed = True
            elif line:
                self._record(line)
                changed = True
        return 0

    def _show_situation(self) -> bool:
        """What the game waits for; False (after the outcome) once it is over."""
        now = self.recorder.situation()
        if now.outcome is not None:
            print(outcome_line(now.info, now.outcome))
            return False
        print(f"version {now.version}")
        for line in prompt_lines(now.info, now.prompts):
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
            print(rejection_of(r))
        except ServiceError as error:
            print(f"refused ({error.code}): {error.detail}")
        except CliError as error:
            print(error.message)

    def _undo(self, line: str) -> None:
        """`undo [K] [REASON]`: retract the last K live actions (1 by default)."""
        words = line.split(maxsplit=2)[1:]
        count = 1
        if words and words[0].isdigit():
            count = int(words.pop(0))
        reason = " ".join(words) or self.reason
        try:
            undone = self.recorder.undo(count, reason)
        except RejectedError as error:
            r = error.rejection
            print(rejection_of(r))
            return
        except ServiceError as error:
            print(f"refused ({error.code}): {error.detail}")
            return
        for event in undone.lines:
            print(event_line(event))
        print(undone.summary())

    def list_legal(self) -> bool:
        explained = self.recorder.legal_explained()
        width = min(40, max((len(n) for n, _ in explained), default=0))
        for notation, meaning in explained:
            print(f"  {notation:<{width}}  {meaning}")
        shapes = self.recorder.legal_templates()
        if shapes:
            print("  and any count in each LOW..HIGH of:")
            for shape in shapes:
                print(f"  {shape}")
        return True

    def _help(self) -> bool:
        print(
            "Enter an action in notation" + (" (as JSON)" if self.as_json else "") + "; ? lists the legal"
            " actions, undo [K] [REASON] retracts the last K actions, quit leaves."
        )
        return True
