"""Where a game's stored facts first differ from the facts the rules decide (store/audit.py):
a fact missing, one extra, two out of order, or one that differs, named where the rest of the
sequence tells which."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def first_difference(
    expected: Sequence[Any], stored: Sequence[Any], version: int
) -> tuple[int, str, str] | None:
    """The first difference between the facts `expected` and those `stored` from `version`
    on, named as a missing, extra, out-of-order or differing fact where the rest of the
    sequence tells which."""
    for index, fact in enumerate(expected):
        at = version + index
        if index >= len(stored):
            return at, "fact_missing", f"a fact is missing: expected {fact}"
        if stored[index] == fact:
            continue
        rest, kept = expected[index:], stored[index:]
        if (
            len(kept) >= 2
            and len(rest) >= 2
            and kept[0] == rest[1]
            and kept[1] == rest[0]
            and kept[2:] == rest[2:]
        ):
            return at, "fact_order", f"facts out of order: stored {kept[0]} before {kept[1]}"
        if kept == rest[1:]:
            return at, "fact_missing", f"a fact is missing: expected {fact}, stored next is {kept[0]}"
        if kept[1:] == rest:
            return at, "fact_extra", f"an extra fact was stored: {kept[0]}"
        return at, "fact_differs", f"stored {stored[index]}, expected {fact}"
    if len(stored) > len(expected):
        return version + len(expected), "fact_extra", f"an extra fact was stored: {stored[len(expected)]}"
    return None
