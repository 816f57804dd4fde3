"""Importing a game played online from its log: an optional part of the Ruleset protocol.

A ruleset that can read the logs of an online version of its game adds
`read_online_log(text, kingdom) -> OnlineLog` (`OnlineLogHooks`; found with `online_log_reader`,
like the other optional hooks of domain/ruleset.py). It reads and checks one log, raising
`LogRefusal` for a log it cannot import, and answers what the import needs: the players in turn
order, the options and tag of the physical game the log becomes, and a `LogPlanner` that turns
the log into the actions a table would record, one at a time, against the engine's state. The
store records those actions (store/imports.py) without knowing the game; `rehearse` plays them
through the rules alone first, so a log that contradicts itself is refused before anything is
stored. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from domain.rng import NoRng
from domain.ruleset import Command, GameConfig, Rejection, Ruleset, Seat, decider, resolve_options


class LogRefusal(Exception):
    """A log that cannot be imported, refused before anything is stored: a stable `code`
    (`log_unreadable`, `log_kingdom`, ...) and a sentence saying why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class LogLine(Protocol):
    """One line of a log: `number` counts from 1 in the file."""

    @property
    def number(self) -> int: ...

    @property
    def text(self) -> str: ...


class LogStep(Protocol):
    """One action to record: `seat` answers for that seat (None: the recorder's own entry);
    `line` is the log line it stands for (None for the table's setup choices)."""

    @property
    def action(self) -> Any: ...

    @property
    def seat(self) -> str | None: ...

    @property
    def line(self) -> LogLine | None: ...


@runtime_checkable
class LogStop(Protocol):
    """The import cannot go on: `reason` is `finished` (the game is over), `left` (`players`
    left the online game: the first of them resigns) or `stuck` (the log does not say what the
    engine asks)."""

    @property
    def reason(self) -> str: ...

    @property
    def message(self) -> str: ...

    @property
    def line(self) -> LogLine | None: ...

    @property
    def players(self) -> tuple[str, ...]: ...


class LogPlanner(Protocol):
    """Walks one log alongside the engine: `next_step(state)` is the next action to record or
    why the import stops; `absorb(facts)` ticks off the log lines the recorded facts stand for.
    `unexplained` are the lines no fact stood for, `unlogged` what the engine did that no line
    shows."""

    @property
    def unexplained(self) -> Sequence[LogLine]: ...

    @property
    def unlogged(self) -> Sequence[str]: ...

    def next_step(self, state: Any) -> LogStep | LogStop: ...

    def absorb(self, facts: Sequence[Any]) -> None: ...

    def current_line(self) -> LogLine | None: ...

    def current_turn(self) -> int:
        """The log's turn at the planner's position (0 in the setup)."""
        ...


class OnlineLog(Protocol):
    """One log, read and checked: what its import needs. `players` are the log's names in turn
    order (the first takes the ruleset's first seat); `options` and `tag` make the physical
    game it becomes; `turns` and `lines` count the log's turn headers and lines."""

    @property
    def format(self) -> str: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def options(self) -> Mapping[str, Any]: ...

    @property
    def tag(self) -> str: ...

    @property
    def turns(self) -> int: ...

    @property
    def lines(self) -> int: ...

    def planner(self, seats: Mapping[str, str]) -> LogPlanner:
        """A fresh planner; `seats` maps each log name to its seat id."""
        ...

    def log_scores(self) -> dict[str, int | None]:
        """Each player's final score by the log's own account (None where it gives none)."""
        ...

    def held_scores(self, state: Any) -> dict[str, int]:
        """Each seat's score from what it holds in `state`: the scores of an import that
        stopped before the game ended."""
        ...


class OnlineLogHooks(Protocol):
    """The optional method of a ruleset whose online logs can be imported."""

    def read_online_log(self, text: str, kingdom: Sequence[str]) -> OnlineLog:
        """The log in `text`, checked, or `LogRefusal`. `kingdom` names the kingdom where the
        log does not (empty: the log's own)."""
        ...


def online_log_reader(ruleset: Ruleset[Any, Any, Any]) -> OnlineLogHooks | None:
    """The ruleset, where it reads online logs; None where it does not."""
    return ruleset if callable(getattr(ruleset, "read_online_log", None)) else None  # type: ignore[return-value]


@dataclass(frozen=True)
class Stopped:
    """A stop of the import's own: the planner ran out of steps (`stuck`)."""

    reason: str
    message: str
    line: LogLine | None = None
    players: tuple[str, ...] = ()


def no_progress(planner: LogPlanner) -> Stopped:
    return Stopped("stuck", "The import made no progress.", planner.current_line())


def step_budget(log: OnlineLog) -> int:
    """How many steps an import takes at most: the planner ticks a line or ends a phase each
    step, so a log that needs more is stuck."""
    return 20 * log.lines + 100


def rehearse(ruleset: Ruleset[Any, Any, Any], log: OnlineLog, seats: Mapping[str, str]) -> LogStop | None:
    """Play the log through the rules alone, as the import records it, and return where it
    gets stuck (None when it ends otherwise: finished, a player left, or an action the rules
    refuse, which the import stores up to). Nothing is stored."""
    resolved = resolve_options(ruleset.meta, log.options)
    assert not isinstance(resolved, Rejection), resolved
    names = tuple(Seat(seat, name) for name, seat in seats.items())
    config = GameConfig("rehearsal", ruleset.meta.id, "physical", names, resolved)
    decide = decider(ruleset)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, NoRng()):
        state = ruleset.evolve(state, fact)
    planner = log.planner(seats)
    for _ in range(step_budget(log)):
        step = planner.next_step(state)
        if isinstance(step, LogStop):
            return step if step.reason == "stuck" else None
        decided = decide(state, Command(step.action, step.seat, "recorder"), NoRng())
        if isinstance(decided, Rejection):
            return None
        facts, state = decided
        planner.absorb(list(facts))
    return no_progress(planner)
