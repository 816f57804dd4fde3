"""The SQLite store's polling subscription (store/polling.py): a subscription to some topics
delivers each matching notification once and in order, and keeps its place at the head of
what it looked through, so a poll never scans again the rows it passed over."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import Notification, StoredEvent

from store import polling
from store.app import Chronicle
from store.polling import PollingSubscription

MATCH = "chronicle:GameFinished"
OTHER = "chronicle:FactRecorded"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Chronicle]:
    with closing(Chronicle(f"sqlite:///{tmp_path / 'poll.sqlite3'}")) as chronicle:
        yield chronicle


def append(app: Chronicle, topics: list[str]) -> list[int]:
    stream = uuid4()
    events = [StoredEvent(stream, v, topic, b"{}") for v, topic in enumerate(topics, start=1)]
    ids = app.recorder.insert_events(events)
    assert ids is not None
    return list(ids)


@contextmanager
def subscribed(app: Chronicle, gt: int | None = None) -> Iterator[PollingSubscription]:
    subscription = app.recorder.subscribe(gt=gt, topics=[MATCH])
    assert isinstance(subscription, PollingSubscription)
    with subscription:
        yield subscription


def take(subscription: PollingSubscription, count: int) -> list[Notification]:
    return [next(subscription) for _ in range(count)]


def settled(subscription: PollingSubscription, position: int) -> None:
    deadline = time.monotonic() + 5
    while subscription._last_notification_id != position:
        assert time.monotonic() < deadline, subscription._last_notification_id
        time.sleep(0.01)


def test_a_topic_subscription_keeps_its_place_past_rows_that_do_not_match(app: Chronicle) -> None:
    append(app, [OTHER] * 40)
    with subscribed(app) as subscription:
        settled(subscription, 40)  # nothing matched, yet the 40 rows are behind it
        finished = append(app, [OTHER, OTHER, MATCH, OTHER])
        delivered = take(subscription, 1)
        settled(subscription, finished[-1])

    assert [(n.id, n.topic) for n in delivered] == [(finished[2], MATCH)]


def test_every_match_arrives_once_and_in_order_over_many_polls_and_pages(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(polling, "POLL_INTERVAL", 0.005)
    expected: list[int] = []
    with subscribed(app) as subscription:
        subscription._select_limit = 3  # several pages per poll
        for round_ in range(12):
            topics = [MATCH if (i + round_) % 3 == 0 else OTHER for i in range(2 + round_)]
            ids = append(app, topics)
            expected += [i for i, t in zip(ids, topics, strict=True) if t == MATCH]
            time.sleep(0.003 * (round_ % 3))
        delivered = take(subscription, len(expected))
        settled(subscription, app.recorder.max_notification_id() or 0)

    assert [n.id for n in delivered] == expected
    assert all(n.topic == MATCH for n in delivered)


def test_a_subscription_from_a_position_starts_after_it(app: Chronicle) -> None:
    first = append(app, [MATCH, OTHER, MATCH])
    with subscribed(app, gt=first[0]) as subscription:
        (delivered,) = take(subscription, 1)
    assert delivered.id == first[2] and isinstance(delivered.originator_id, UUID)
