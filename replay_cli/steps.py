"""A replay's steps: by action (the default), an action and everything it caused at once.

A step begins at every event that is not a fact (the game's creation with its setup, an action,
a retraction, a resignation, ...) and takes in the facts that follow it; the game's end is the
doing of the last action, so it joins that action's step. The replay stops where a step ends:
the position after the action and all it caused. Stepping by event (`e`, `--events`) stops at
every version, as the web replay's "every event" does (api/static/viewer.js, `stepsOf`).
"""

from __future__ import annotations

from collections.abc import Sequence

from replay_cli.reading import Timeline

CAUSED = frozenset({"fact", "finished"})


class Steps:
    """The steps of a game whose events (version 1 first) have `types`."""

    def __init__(self, types: Sequence[str]) -> None:
        self.last = len(types)
        self._head: list[int] = []
        head = 1
        for version, kind in enumerate(types, start=1):
            if kind not in CAUSED or version == 1:
                head = version
            self._head.append(head)
        self._stop = [0] * self.last
        end = self.last
        for version in range(self.last, 0, -1):
            self._stop[version - 1] = end
            if self._head[version - 1] == version:
                end = version - 1
        self.stops = sorted(set(self._stop))

    def head(self, version: int) -> int:
        """The version of the event that began `version`'s step (its action)."""
        return self._head[version - 1]

    def stop(self, version: int) -> int:
        """The last version of `version`'s step: where stepping by action shows it."""
        return self._stop[version - 1]

    def next(self, version: int, direction: int) -> int | None:
        """The next step's end after `version` (direction 1), or the one before it (-1); back
        from the first step's end is the game's creation, version 1. None past either end."""
        if direction > 0:
            return next((v for v in self.stops if v > version), None)
        return next((v for v in reversed([1, *self.stops]) if v < version), None)


def steps_of(timeline: Timeline) -> Steps:
    return Steps([timeline.event(version).type for version in range(1, timeline.last + 1)])
