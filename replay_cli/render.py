"""Plain-text renderings shared by `show`, `log`, `record` and `replay`.

A view is whatever dict the ruleset's `view` returns, so it is rendered generically: one
`key: value` line per entry, nested mappings indented, short mappings and lists of scalars
kept on one line so that a whole game state fits on a screen.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from replay_cli.reading import EventLine, GameInfo, Snapshot

INLINE_WIDTH = 72
STRIKE, PLAIN = "\x1b[9m", "\x1b[0m"  # SGR 9 (crossed out), SGR 0 (reset)


def scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _inline(value: Any, nested: bool = False) -> str | None:
    """`value` on one line, or None when it is too long for that. Inside a mapping, nested
    mappings are bracketed `(a=1, b=2)` and lists `[x, y]`."""
    if _is_scalar(value):
        return scalar(value)
    if isinstance(value, Mapping):
        parts = []
        for key, item in value.items():
            text = _inline(item, nested=True)
            if text is None:
                return None
            parts.append(f"{key}={text}")
        line = ", ".join(parts)
        line = f"({line})" if nested else line or "-"
    elif isinstance(value, Sequence) and not isinstance(value, str):
        items = [_inline(item, nested=True) for item in value]
        if any(item is None for item in items):
            return None
        line = ", ".join(item for item in items if item is not None)
        line = f"[{line}]" if nested else line or "-"
    else:
        return None
    return line if len(line) <= INLINE_WIDTH else None


def tree_lines(value: Any, indent: int = 0) -> list[str]:
    pad = " " * indent
    if isinstance(value, Mapping):
        lines = []
        for key, item in value.items():
            text = _inline(item)
            if text is not None:
                lines.append(f"{pad}{key}: {text}")
            else:
                lines.append(f"{pad}{key}:")
                lines += tree_lines(item, indent + 2)
        return lines
    if isinstance(value, Sequence) and not isinstance(value, str):
        lines = []
        for item in value:
            text = _inline(item)
            if text is not None:
                lines.append(f"{pad}- {text}")
            else:
                nested = tree_lines(item, indent + 2)
                lines.append(f"{pad}- {nested[0].lstrip()}" if nested else f"{pad}-")
                lines += nested[1:]
        return lines
    return [f"{pad}{scalar(value)}"]


def can_strike(stream: TextIO) -> bool:
    """Whether `stream` is a terminal that may be sent the strikethrough style (not when
    `NO_COLOR` is set or the terminal is dumb)."""
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM", "") != "dumb"


def event_line(event: EventLine, strike: bool = False, width: int | None = None) -> str:
    """`  12  text`, cut to `width`. A retracted event (an action undone by a later
    retraction, or one of its facts) is struck through when `strike` (a terminal), else marked
    `~ 12  ~~text~~`, so that a file or a pipe shows it too (`grep '^~'` finds them all)."""
    number = f"{event.version:>4}"
    if event.retracted and strike:
        head = f"{number}  "
        text = event.text if width is None else event.text[: max(width - len(head), 0)]
        return f"{head}{STRIKE}{text}{PLAIN}"
    marked = f"~{number.removeprefix(' ')}  ~~{event.text}~~"
    line = marked if event.retracted else f"{number}  {event.text}"
    return line if width is None else line[:width]


def prompt_lines(info: GameInfo, prompts: Sequence[Mapping[str, Any]] | None) -> list[str]:
    if prompts is None:
        return []
    if not prompts:
        return ["waiting for: nobody"]
    lines = ["waiting for:"]
    for prompt in prompts:
        kinds = ", ".join(prompt.get("kinds", ()))
        lines.append(
            f"  {info.seat_label(prompt.get('seat'))}: {prompt.get('text', prompt.get('kind'))}"
            + (f"  [{kinds}]" if kinds else "")
        )
    return lines


def outcome_line(info: GameInfo, outcome: Mapping[str, Any]) -> str:
    scores = outcome.get("scores", {})
    shown = ", ".join(f"{info.seats.get(s, s)} {points}" for s, points in scores.items())
    winners = " and ".join(info.seats.get(w, w) for w in outcome.get("winners", ())) or "nobody (a draw)"
    reason = outcome.get("reason")
    return f"outcome: {shown}; {winners} won" + (f" ({reason})" if reason else "")


def heading(info: GameInfo) -> str:
    players = ", ".join(f"{name} ({seat})" for seat, name in info.seats.items())
    return f"game {info.game_id}  {info.ruleset} ({info.mode})  {players}"


def snapshot_lines(snapshot: Snapshot) -> list[str]:
    info = snapshot.info
    lines = [
        heading(info),
        f"version {snapshot.version} of {info.version}  {snapshot.status}  seen as {snapshot.viewer}",
        "",
        *tree_lines(snapshot.state),
    ]
    if snapshot.outcome is not None:
        lines += ["", outcome_line(info, snapshot.outcome)]
    elif snapshot.prompts is not None:
        lines += ["", *prompt_lines(info, snapshot.prompts)]
    return lines
