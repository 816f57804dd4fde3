"""A subscription on PostgreSQL hears of every event, even one committed while it was starting
to LISTEN (store/postgres.py `ListeningSubscription`): a projection runner that takes over just
before a quiet spell must not wait for the next write to see the last one."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresSubscription

from store.app import RECORDER, Chronicle, NewGame
from store.postgres import ListeningApplicationRecorder, ListeningSubscription


@pytest.fixture
def app(postgres_url: str) -> Iterator[Chronicle]:
    chronicle = Chronicle(postgres_url)
    yield chronicle
    chronicle.close()


def late_listener(base: type[PostgresSubscription], write: Callable[[], None]) -> type[Any]:
    """`base`, its LISTEN taking effect only after its first read and a write that follows it:
    the window a busy machine opens, held open. (The library's own subscription misses that
    write until the next one, unless another schema of the database happens to wake it: a
    channel is the database's, not the schema's.)"""

    class Late(base):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.pulled = threading.Event()
            super().__init__(*args, **kwargs)

        def _pull(self) -> None:
            super()._pull()
            self.pulled.set()

        def _listen(self) -> None:
            self.pulled.wait()
            write()
            super()._listen()

    return Late


def heard(app: Chronicle, base: type[PostgresSubscription]) -> bool:
    recorder = app.recorder
    assert isinstance(recorder, PostgresApplicationRecorder)

    def write() -> None:
        game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"])).game_id)
        app.resign(game_id, RECORDER, seat="A")

    head = recorder.max_notification_id() or 0
    arrived = threading.Event()
    with late_listener(base, write)(recorder=recorder, gt=head) as subscription:

        def read() -> None:
            for _notification in subscription:
                arrived.set()
                return

        reader = threading.Thread(target=read)
        reader.start()
        arrived.wait(timeout=3)
    reader.join()
    return arrived.is_set()


@pytest.mark.postgres
def test_an_event_written_as_the_subscription_starts_to_listen_arrives(app: Chronicle) -> None:
    assert isinstance(app.recorder, ListeningApplicationRecorder)
    assert heard(app, ListeningSubscription)
