"""Where a replay steps by action, worked out from a game's events as `GET /events` lists them:
a step begins at every event but a fact or the game's end, and ends before the next one begins
(the position after the action and everything it caused). The tests hold the pages to it."""

from __future__ import annotations

from typing import Any

CAUSED = ("fact", "finished")


def heads(events: list[dict[str, Any]]) -> list[int]:
    """Each version's step head: the version of the action (or other move) that began it."""
    found: list[int] = []
    for event in events:
        if event["type"] not in CAUSED or event["version"] == 1:
            found.append(event["version"])
        else:
            found.append(found[-1])
    return found


def stops(events: list[dict[str, Any]]) -> list[int]:
    """The versions where stepping by action stops, first to last."""
    begun = heads(events)
    return [v for v in range(1, len(events) + 1) if v == len(events) or begun[v] == v + 1]


def stop_of(events: list[dict[str, Any]], version: int) -> int:
    """The end of `version`'s step."""
    return next(v for v in stops(events) if v >= version)
