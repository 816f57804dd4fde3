"""A save split at its commit, so that one set of steps runs either way: in a thread that waits
for the commit (the command line, the slower routes), or on the server's event loop, which
awaits the commit and serves other requests meanwhile (`POST /games/{id}/actions`).

The steps are a generator. It does everything before the commit (decide, stamp the hash chain,
map the events for the store) and yields a `PendingSave`; the driver commits it and sends back
its notification ids, or throws what the commit raised into the steps: the store's
`IntegrityError` (another write took the version) makes them read the stream again and retry
or refuse, exactly as a plain save that raised it; anything else goes on up. A read of the
store the steps need is yielded too, as a `Read`: the driver sends back what it returned (or
throws what it raised), and on the event loop runs it in a worker thread, so that no request
waits on the store while it holds the loop.

Why on the loop at all: handing each request to a worker thread and back cost more than
deciding and appending its action. The figure that holds it (`bench.http_actions`): the
server records actions at 0.27 of the rate of a bare Litestar handler on the same settings.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from eventsourcing.persistence import StoredEvent

T = TypeVar("T")
Ids = Sequence[int] | None


@dataclass(slots=True)
class PendingSave:
    """One save's events, stamped and mapped for the store, waiting for their commit."""

    processing_event: Any  # the library's ProcessingEvent: the events and their aggregates
    stored: list[StoredEvent]
    heads: dict[UUID, tuple[int, str]]  # each game's last version and digest once committed


@dataclass(slots=True)
class Read:
    """A read of the store the steps wait for."""

    load: Callable[[], Any]


Steps = Generator[PendingSave | Read, Any, T]


def _advance(steps: Steps[T], answer: Any, error: Exception | None) -> tuple[bool, Any]:
    """The steps' next `PendingSave` or `Read` (False, step), or their result (True, result)."""
    try:
        return False, (steps.send(answer) if error is None else steps.throw(error))
    except StopIteration as stop:
        return True, stop.value


def run(steps: Steps[T], commit: Callable[[PendingSave], Ids]) -> T:
    """Drive `steps` with reads and a commit that wait."""
    with closing(steps):
        done, step = _advance(steps, None, None)
        while not done:
            try:
                answer, error = (step.load() if isinstance(step, Read) else commit(step)), None
            except Exception as failed:  # the steps catch what they can answer, and raise the rest
                answer, error = None, failed
            done, step = _advance(steps, answer, error)
        result: T = step
        return result


async def run_async(steps: Steps[T], commit: Callable[[PendingSave], Awaitable[Ids]]) -> T:
    """Drive `steps` with reads run in a worker thread and a commit that is awaited."""
    with closing(steps):
        done, step = _advance(steps, None, None)
        while not done:
            answer: Any = None
            error: Exception | None = None
            try:
                answer = await (asyncio.to_thread(step.load) if isinstance(step, Read) else commit(step))
            except Exception as failed:  # the steps catch what they can answer, and raise the rest
                error = failed
            done, step = _advance(steps, answer, error)
        result: T = step
        return result
