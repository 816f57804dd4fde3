"""A save split at its commit, so that one set of steps runs either way: in a thread that waits
for the commit (the command line, the slower routes), or on the server's event loop, which
awaits the commit and serves other requests meanwhile (`POST /games/{id}/actions`).

The steps are a generator. It does everything before the commit (read, decide, stamp the hash
chain, map the events for the store) and yields a `PendingSave`; the driver commits it and
sends back its notification ids, or throws the store's `IntegrityError` (another write took the
version) into the steps, which read the stream again and retry or refuse, exactly as a plain
save that raised it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import IntegrityError, StoredEvent

T = TypeVar("T")
Ids = Sequence[int] | None


@dataclass(slots=True)
class PendingSave:
    """One save's events, stamped and mapped for the store, waiting for their commit."""

    processing_event: Any  # the library's ProcessingEvent: the events and their aggregates
    stored: list[StoredEvent]
    heads: dict[UUID, tuple[int, str]]  # each game's last version and digest once committed


Steps = Generator[PendingSave, Ids, T]


def run(steps: Steps[T], commit: Callable[[PendingSave], Ids]) -> T:
    """Drive `steps` with a commit that waits."""
    ids: Ids = None
    clash: IntegrityError | None = None
    with closing(steps):
        while True:
            try:
                pending = steps.send(ids) if clash is None else steps.throw(clash)
            except StopIteration as stop:
                result: T = stop.value
                return result
            try:
                ids, clash = commit(pending), None
            except IntegrityError as error:
                ids, clash = None, error


async def run_async(steps: Steps[T], commit: Callable[[PendingSave], Awaitable[Ids]]) -> T:
    """Drive `steps` with a commit that is awaited."""
    ids: Ids = None
    clash: IntegrityError | None = None
    with closing(steps):
        while True:
            try:
                pending = steps.send(ids) if clash is None else steps.throw(clash)
            except StopIteration as stop:
                result: T = stop.value
                return result
            try:
                ids, clash = await commit(pending), None
            except IntegrityError as error:
                ids, clash = None, error
