"""Live subscriptions on SQLite: the library's SQLite recorder cannot `subscribe()` (SQLite has
no LISTEN/NOTIFY), so this recorder polls. Its subscription is the library's listen/notify
subscription with a timer in place of the notifications: every `POLL_INTERVAL` seconds it
pulls whatever was recorded since its last position. The store selects it through
`APPLICATION_RECORDER_TOPIC` (store/config.py).

A subscription to some topics (the statistics view follows finished games only) keeps its
place at the head of the sequence it has looked through, not at the last notification it
matched, as the library's does: otherwise every poll scans again every event recorded since
the last finished game, a cost that grows with the table's play until a game ends.

Mutants judged equivalent (bench/mutation.py, group news): the timer thread's name and its
daemon flag, the exit's arguments (the library ignores them), `inclusive_of_start` as None,
`return` for the loop's last `break`, and the head compared with `>=` or from one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription, ShutDown, Subscription
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

    def _pull(self) -> None:
        recorder = self._recorder
        while not self._has_been_stopped:
            self._has_been_notified.clear()
            # The head is read first. Rows are numbered as they are inserted, above every
            # committed one, so none at or below it can become visible later: once the matches
            # after the last position are taken, the head is a safe place to resume from.
            head = recorder.max_notification_id()
            notifications = recorder.select_notifications(
                start=self._last_notification_id or 0,
                limit=self._select_limit,
                topics=self._topics,
                inclusive_of_start=False,
            )
            if notifications:
                try:
                    self._notifications_queue.put(notifications)
                except ShutDown:
                    break
                self._last_notification_id = notifications[-1].id
            if len(notifications) < self._select_limit:
                if head is not None and head > (self._last_notification_id or 0):
                    self._last_notification_id = head
                break

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
