"""What the reading commands (`show`, `log`, `audit`, `replay`, `games`) ask of a game source.

Two sources answer it: the local store (`local.py`, where the user owns the file and reads as
recorder and administrator) and a Chronicle server (`remote.py`, where the token decides).
The commands only see these plain records, so each renders the same either way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import msgspec

from domain.notes import Annotation
from store.audit import AuditReport


@dataclass(frozen=True)
class GameInfo:
    game_id: str
    ruleset: str
    mode: str
    seats: dict[str, str]  # seat id -> player name
    version: int
    status: str

    def seat_label(self, seat: str | None) -> str:
        if seat is None:
            return "the table"
        name = self.seats.get(seat)
        return f"{name} ({seat})" if name and name != seat else seat


@dataclass(frozen=True)
class EventLine:
    version: int
    type: str
    text: str
    retracted: bool = False  # an action, or one of its facts, undone by a later retraction
    notes: tuple[str, ...] = ()  # the annotations at this version the reader may see, one line each


def first_of_turns(turns: Sequence[tuple[int, str | None]], lines: Sequence[EventLine]) -> dict[int, int]:
    """The first version of each turn (turns and lines one per version), on the corrected line
    of play where it reaches that turn, else on the retracted actions that reached it."""
    live: dict[int, int] = {}
    undone: dict[int, int] = {}
    for (turn, _seat), line in zip(turns, lines, strict=False):
        (undone if line.retracted else live).setdefault(turn, line.version)
    return undone | live


@dataclass(frozen=True)
class Snapshot:
    """A game as one viewer sees it at one version. `prompts` is None when the source cannot
    tell (a past version over the server, which only serves the current prompts)."""

    info: GameInfo
    version: int
    viewer: str
    status: str
    state: dict[str, Any]
    prompts: list[dict[str, Any]] | None
    outcome: dict[str, Any] | None


@dataclass(frozen=True)
class GameRow:
    game_id: str
    ruleset: str
    mode: str
    players: list[str]
    status: str
    winners: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    title: str = ""  # a game of `any`: the title played


@dataclass(frozen=True)
class Filters:
    ruleset: str | None = None
    player: str | None = None
    status: str | None = None
    tag: str | None = None


class Timeline(Protocol):
    """Every version of one game, for the replay stepper."""

    info: GameInfo

    @property
    def last(self) -> int: ...

    def event(self, version: int) -> EventLine: ...

    def snapshot(self, version: int) -> Snapshot: ...

    def turn(self, version: int) -> tuple[int, str | None] | None:
        """(turn, seat to act) at `version`, or None when the source cannot tell."""
        ...

    def first_version_of_turn(self, turn: int) -> int | None: ...


class KeptTimeline(ABC):
    """What both sources' timelines share: the event lines and turns of every version, known
    at once, and each version's snapshot made by `_make_snapshot` when first shown, then kept."""

    def __init__(
        self, info: GameInfo, lines: list[EventLine], turns: list[tuple[int, str | None]] | None
    ) -> None:
        self.info = info
        self._lines = lines
        self._turns = turns  # None when the source cannot tell
        self._shown: dict[int, Snapshot] = {}
        self._first_of_turn = first_of_turns(turns or [], lines)

    @property
    def last(self) -> int:
        return len(self._lines)

    def event(self, version: int) -> EventLine:
        return self._lines[version - 1]

    def snapshot(self, version: int) -> Snapshot:
        found = self._shown.get(version)
        if found is None:
            found = self._make_snapshot(version)
            self._shown[version] = found
        return found

    @abstractmethod
    def _make_snapshot(self, version: int) -> Snapshot: ...

    def turn(self, version: int) -> tuple[int, str | None] | None:
        return self._turns[version - 1] if self._turns else None

    def first_version_of_turn(self, turn: int) -> int | None:
        return self._first_of_turn.get(turn)


class Reader(Protocol):
    def resolve(self, game: str) -> str:
        """The full game id for what the user typed (an id, or locally a unique prefix)."""
        ...

    def events(self, game_id: str) -> list[EventLine]: ...

    def raw_events(self, game_id: str) -> list[dict[str, Any]]:
        """The events as the HTTP API serves them (version, type, at, data, text, retracted)."""
        ...

    def snapshot(self, game_id: str, at: int | None) -> Snapshot: ...

    def audit(self, game_id: str) -> AuditReport: ...

    def games(self, filters: Filters) -> list[GameRow]: ...

    def game_ids(self) -> list[str]:
        """Every game, for `audit --all`."""
        ...

    def timeline(self, game_id: str) -> Timeline: ...

    def annotations(self, game_id: str) -> list[dict[str, Any]]:
        """The game's annotations the reader may see, as `GET /games/{id}/annotations` lists them."""
        ...

    def close(self) -> None: ...


def note_line(annotation: dict[str, Any]) -> str:
    """One annotation as a line under its version: `note <id>: ?! [card:Village] text (author)`."""
    found = msgspec.convert(annotation, Annotation)
    return f"note {found.annotation_id}: {found.line()}"


def with_notes(lines: list[EventLine], annotations: list[dict[str, Any]]) -> list[EventLine]:
    """`lines` with each annotation attached to the line of its version."""
    by_version: dict[int, list[str]] = {}
    for annotation in annotations:
        by_version.setdefault(int(annotation["version"]), []).append(note_line(annotation))
    return [
        replace(line, notes=tuple(by_version[line.version])) if line.version in by_version else line
        for line in lines
    ]
