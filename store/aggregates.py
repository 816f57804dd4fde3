"""Reading one aggregate of a known kind that may not exist yet: a game's annotations, its
reviewers, its variations' list, a deal."""

from __future__ import annotations

from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

A = TypeVar("A")


def existing(app: Any, aggregate_id: UUID, kind: type[A]) -> A | None:
    """The stored `kind` aggregate `aggregate_id`, or None when there is none."""
    try:
        found: object = app.repository.get(aggregate_id)
    except AggregateNotFoundError:
        return None
    assert isinstance(found, kind)
    return found
