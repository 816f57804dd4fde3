"""Live subscriptions on SQLite: the library's SQLite recorder cannot `subscribe()` (SQLite has
no LISTEN/NOTIFY), so this recorder polls. Its subscription is the library's listen/notify
subscription with a timer in place of the notifications: every `POLL_INTERVAL` seconds it
pulls whatever was recorded since its last position. The store selects it through
`APPLICATION_RECORDER_TOPIC` (store/config.py).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription, Subscription
from eventsourcing.sqlite import SQLiteApplicationRecorder

POLL_INTERVAL = 0.05  # seconds


class PollingSubscription(ListenNotifySubscription[SQLiteApplicationRecorder]):
    def __init__(
        self, recorder: SQLiteApplicationRecorder, gt: int | None = None, topics: Sequence[str] = ()
    ) -> None:
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._stopping = threading.Event()
        self._timer = threading.Thread(target=self._tick, name="sqlite-poll", daemon=True)
        self._timer.start()

    def _tick(self) -> None:
        while not self._stopping.wait(POLL_INTERVAL):
            self._has_been_notified.set()

    def stop(self) -> None:
        self._stopping.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            self._stopping.set()
            self._timer.join()


class PollingSQLiteApplicationRecorder(SQLiteApplicationRecorder):
    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        return PollingSubscription(self, gt=gt, topics=topics)


TOPIC = "store.polling:PollingSQLiteApplicationRecorder"
