"""Plain-text renderings shared by `show`, `log`, `record` and `replay`.

A view is whatever dict the ruleset's `view` returns, so it is rendered generically: one
`key: value` line per entry, nested mappings indented, short mappings and lists of scalars
kept on one line so that a whole game state fits on a screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay_cli.reading import EventLine, GameInfo, Snapshot

INLINE_WIDTH = 72


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


def event_line(event: EventLine) -> str:
    return f"{event.version:>4}  {event.text}"


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
