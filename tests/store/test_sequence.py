"""The poller's lean read of the store's sequence (store/sequence.py): per game, its latest
version and position after a point, paged exactly as the library's notifications are."""

from __future__ import annotations

from contextlib import closing
from uuid import UUID, uuid4

from eventsourcing.persistence import StoredEvent
from eventsourcing.popo import POPOApplicationRecorder

from store.app import RECORDER, Chronicle, NewGame
from store.fanout import GAME_TOPICS
from store.sequence import Latest, _library, latest_after

OPENING = [
    {"kind": "DetermineFirstPlayer", "first": "A", "face": "white"},
    {"kind": "RevealGoal", "goal": "workers2"},
]


def test_a_page_holds_each_games_last_append_and_pages_as_the_library_does(store_url: str) -> None:
    with closing(Chronicle(store_url)) as app:
        new = NewGame("province", ["Ann", "Ben"], mode="physical")
        first, second = (UUID(app.create_game(new).game_id) for _ in range(2))
        for game_id, action in ((first, OPENING[0]), (second, OPENING[0]), (first, OPENING[1])):
            app.record(game_id, action, RECORDER)
        recorder = app.recorder
        everything = recorder.select_notifications(0, 1000, topics=GAME_TOPICS, inclusive_of_start=False)
        last = {str(n.originator_id): n for n in everything}

        page = latest_after(recorder, 0, 1000, GAME_TOPICS)
        assert page.latest == [  # in the order of each game's last append
            Latest(str(second), last[str(second)].originator_version, last[str(second)].id),
            Latest(str(first), app.game(first).version, last[str(first)].id),
        ]
        assert page.end == everything[-1].id and page.read == len(everything)
        # the secrets' events are in the sequence too, but not of the topics asked for
        assert (recorder.max_notification_id() or 0) > len(everything)

        for start in (0, everything[0].id, everything[3].id, everything[-1].id):
            for limit in (1, 2, 3, 1000):
                assert latest_after(recorder, start, limit, GAME_TOPICS) == _library(
                    recorder, start, limit, GAME_TOPICS
                ), (start, limit)
        assert latest_after(recorder, everything[-1].id, 10, GAME_TOPICS) == ([], None, 0)
        only_created = latest_after(recorder, 0, 1000, ["chronicle:GameCreated"])
        assert [game.version for game in only_created.latest] == [1, 1]


def test_a_store_without_sql_is_read_the_librarys_way() -> None:
    recorder = POPOApplicationRecorder()
    first, second = uuid4(), uuid4()
    game = sorted(GAME_TOPICS)[0]
    recorder.insert_events(
        [
            StoredEvent(first, 1, game, b"{}"),
            StoredEvent(second, 1, game, b"{}"),
            StoredEvent(first, 2, "chronicle:SomethingElse", b"{}"),
            StoredEvent(first, 3, game, b"{}"),
        ]
    )
    assert latest_after(recorder, 0, 10, GAME_TOPICS) == (
        [Latest(str(second), 1, 2), Latest(str(first), 3, 4)],
        4,
        3,
    )
    assert latest_after(recorder, 1, 1, GAME_TOPICS) == ([Latest(str(second), 1, 2)], 2, 1)
    assert latest_after(recorder, 4, 10, GAME_TOPICS) == ([], None, 0)
