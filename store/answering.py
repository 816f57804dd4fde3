"""Whether the store answers, for `/health`: a read of the store and, on SQLite, a ping of the
server's writer process (store/writer_process.py), each within `ANSWER_WAIT` seconds, else
`StoreNotAnswering` (503 `store_unavailable`, its detail naming what did not answer).

A database that hangs (a PostgreSQL server that stopped answering, a lock held on the events
table, a disk that hangs) used to hang the health check with it, and whoever asked waited on
its own timeout rather than seeing a failure. Here the read runs in a worker thread and the
check waits for it at most `ANSWER_WAIT`. The read itself goes on, and while it does, later
checks wait for that same read rather than start another: a hung database holds one thread,
not one per check.

A writer process waiting its turn for the lock behind another process's long transaction
answers the ping only once it has written: the check then fails too, and says so, since
writes through this server wait meanwhile. A writer silent for longer than its own bound
(`WriterProcess.answer_wait`) is replaced by the writer itself, ping or no ping.
"""

from __future__ import annotations

import asyncio
from weakref import WeakKeyDictionary

from store.core import Core
from store.errors import StoreNotAnswering

ANSWER_WAIT = 2.0  # seconds


class StoreProbe:
    """The health checks of one `Chronicle`, sharing one read of the store at a time."""

    def __init__(self, chronicle: Core) -> None:
        self.chronicle = chronicle
        self._reading: asyncio.Future[int | None] | None = None

    async def check(self, within: float = ANSWER_WAIT) -> None:
        """Return once the store answered a read, and the writer (if one runs) a ping, within
        `within` seconds; else raise `StoreNotAnswering` (or the store's own error)."""
        await asyncio.gather(self._read(within), self._ping(within))

    async def _read(self, within: float) -> None:
        loop = asyncio.get_running_loop()
        reading = self._reading
        if reading is None or reading.done() or reading.get_loop() is not loop:
            reading = self._reading = asyncio.ensure_future(
                asyncio.to_thread(self.chronicle.recorder.max_notification_id)
            )
        try:
            await asyncio.wait_for(asyncio.shield(reading), within)
        except TimeoutError:
            raise StoreNotAnswering(f"The event store did not answer a read within {within:g} s.") from None

    async def _ping(self, within: float) -> None:
        writer = self.chronicle.writer
        if writer is not None and not await writer.answers(within):
            raise StoreNotAnswering(
                f"The event store's writer process did not answer within {within:g} s "
                f"(a writer that answers nothing for {writer.answer_wait:g} s is replaced)."
            )


_PROBES: WeakKeyDictionary[Core, StoreProbe] = WeakKeyDictionary()


def probe(chronicle: Core) -> StoreProbe:
    """The probe of `chronicle` (one for its lifetime)."""
    found = _PROBES.get(chronicle)
    if found is None:
        found = _PROBES[chronicle] = StoreProbe(chronicle)
    return found
