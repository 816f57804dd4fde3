"""The replay stepper: where the reader is in a game, and what each key does to that.

Pure logic, no terminal: the replay command feeds it keys (from a raw terminal, or from the
characters of lines when stdin is not a terminal) and draws `screen()`.

Keys: `n`, space or right arrow: the next action with everything it caused (`steps.py`);
`b` or left arrow: back one action; `e`: step by event instead (every fact and bookkeeping
event a version of its own), `e` again: by action; `j` then a number and Enter: jump to that
version; `t` then a number and Enter: the first version of that turn (as
the ruleset's `progress` counts turns); Escape (or any other key) cancels a number; `q` quits,
even amid a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from replay_cli.reading import Timeline
from replay_cli.render import event_line, outcome_line, prompt_lines, tree_lines
from replay_cli.steps import Steps, steps_of

NEXT = frozenset({"n", " ", "RIGHT"})
BACK = frozenset({"b", "LEFT"})
ENTER = frozenset({"ENTER", "\r", "\n"})
EVENT_PLACE = "\0"  # where the event line goes, once the rest is cut to the screen
HELP = "n/space/right: next  b/left: back  e: events  j N enter: version N  t N enter: turn N  q: quit"


@dataclass
class Stepper:
    timeline: Timeline
    version: int
    entering: str | None = None  # "j" or "t" while a number is being typed
    digits: str = ""
    message: str = ""
    strike: bool = False  # strike a retracted event's line through (a terminal that can)
    by_event: bool = False  # step by event, not by action with what it caused
    steps: Steps = field(init=False)

    def __post_init__(self) -> None:
        self.steps = steps_of(self.timeline)

    def press(self, key: str) -> bool:
        """Apply one key; False when the reader quits (`q` quits even amid a number)."""
        self.message = ""
        if key in ("q", "Q"):
            return False
        if self.entering is not None:
            self._number_key(key)
            return True
        if key in NEXT:
            self._step(1)
        elif key in BACK:
            self._step(-1)
        elif key in ("e", "E"):
            self.by_event = not self.by_event
            self.message = "stepping by event" if self.by_event else "stepping by action"
        elif key in ("j", "t"):
            self.entering, self.digits = key, ""
        elif key not in ENTER:
            self.message = f"unknown key {key!r}; {HELP}"
        return True

    def _number_key(self, key: str) -> None:
        if key.isdigit():
            self.digits += key
        elif key in ("BACKSPACE", "\x7f", "\b"):
            self.digits = self.digits[:-1]
        elif key in ENTER:
            what, digits = self.entering, self.digits
            self.entering, self.digits = None, ""
            if digits:
                self._jump(what, int(digits))
        else:  # Escape, or any other key, cancels the number
            self.entering, self.digits = None, ""

    def _jump(self, what: str | None, number: int) -> None:
        if what == "j":
            if not 1 <= number <= self.timeline.last:
                self.message = f"no version {number}: versions run 1..{self.timeline.last}"
                return
            self.version = number
            return
        if self.timeline.turn(1) is None:
            self.message = "turn jumps need the ruleset installed here"
            return
        found = self.timeline.first_version_of_turn(number)
        if found is None:
            self.message = f"no turn {number} in this game"
        else:  # by action: where the step that starts the turn ends, as its first player finds it
            self.version = found if self.by_event else self.steps.stop(found)

    def _step(self, direction: int) -> None:
        if self.by_event:
            target: int | None = self.version + direction
        else:
            target = self.steps.next(self.version, direction)
        if target is None or not 1 <= target <= self.timeline.last:
            self.message = "this is the last version" if direction > 0 else "this is the first version"
        else:
            self.version = target

    def screen(self, width: int = 100, height: int = 40) -> list[str]:
        """The lines to draw, fitted to `width` x `height` (the state is cut when too long)."""
        timeline, version = self.timeline, self.version
        info = timeline.info
        snapshot = timeline.snapshot(version)
        players = ", ".join(f"{name} ({seat})" for seat, name in info.seats.items())
        where = f"version {version} / {timeline.last}"
        turn = timeline.turn(version)
        if turn is not None:
            where += f"   turn {turn[0]}" + (f", {info.seat_label(turn[1])} to act" if turn[1] else "")
        whole = not self.by_event and self.steps.stop(version) == version
        first = self.steps.head(version) if whole else version
        event = timeline.event(first)
        if event.retracted:
            where += "   [retracted later]"
        if first < version:  # by action: the action's line stands for its step
            caused = version - first
            where += f"   +{caused} event{'s' if caused > 1 else ''} it caused (e: by event)"
        rule = "-" * min(width, 72)
        notes = [f"  {note}" for v in range(first, version + 1) for note in timeline.event(v).notes]
        head = [
            f"Chronicle replay  {info.game_id}  {info.ruleset} ({info.mode})  {players}"
            f"  [seen as {snapshot.viewer}]",
            where,
            EVENT_PLACE,
            *notes,
            rule,
        ]
        body = tree_lines(snapshot.state)
        # Who is to answer matters more than the tail of the state: the state is what gets cut.
        if snapshot.outcome is not None:
            tail = [outcome_line(info, snapshot.outcome)]
        else:
            tail = prompt_lines(info, snapshot.prompts)
        typing = f"   {self.entering} {self.digits}_" if self.entering else ""
        foot = [rule, self.message or HELP + typing]
        room = max(height - len(head) - len(tail) - len(foot), 1)
        if len(body) > room:
            body = [*body[: room - 1], f"... ({len(body) - room + 1} more lines)"]
        lines = [line[:width] for line in head + body + tail + foot]
        # The event line is cut before it is styled, so that no escape sequence is cut in two.
        lines[head.index(EVENT_PLACE)] = event_line(event, self.strike, width)
        return lines
