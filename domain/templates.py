"""Templates of legal actions: how a ruleset says "and every count in between" when listing
each legal action would be too long (a move of 1 to 12 armies from each of several provinces).

A template is an action in the ruleset's notation where some numbers are ranges `LOW..HIGH`,
e.g. `move xiangzhou chengdu:1..5 kaifeng:1..3`: every notation made by putting one whole
number of each range in its place is a legal action, and together with the listed actions the
templates cover every legal action. A ruleset offers them with an optional
`legal_templates(state, seat) -> tuple[str, ...]`; the legal-actions answer then says it is
not `complete` on its own. Clients (the command line's `?`, bots) read them with `ranges` and
`fill`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

RANGE = re.compile(r"(-?\d+)\.\.(-?\d+)")


def ranges(template: str) -> list[tuple[int, int]]:
    """The ranges of `template`, in order."""
    return [(int(m.group(1)), int(m.group(2))) for m in RANGE.finditer(template)]


def fill(template: str, values: list[int]) -> str:
    """`template` with its ranges replaced by `values`, one each, in order."""
    found = iter(values)
    return RANGE.sub(lambda _m: str(next(found)), template)


def sample(template: str, draw: Callable[[int], int]) -> str:
    """One instance of `template`, each value uniform in its range (`draw(n)` in [0, n))."""
    return fill(template, [low + draw(high - low + 1) for low, high in ranges(template)])


def matches(template: str, notation: str) -> bool:
    """Whether `notation` is an instance of `template`."""
    parts = RANGE.split(template)
    pattern = ""
    spans = ranges(template)
    for index in range(len(spans)):
        pattern += re.escape(parts[3 * index]) + r"(-?\d+)"
    pattern += re.escape(parts[-1])
    found = re.fullmatch(pattern, notation)
    if found is None:
        return False
    return all(low <= int(v) <= high for v, (low, high) in zip(found.groups(), spans, strict=True))


def of(ruleset: Any, state: Any, seat: str | None) -> tuple[str, ...]:
    """The templates `ruleset` offers for `seat` in `state` (none if it lists every action)."""
    hook = getattr(ruleset, "legal_templates", None)
    return tuple(hook(state, seat)) if hook is not None else ()
