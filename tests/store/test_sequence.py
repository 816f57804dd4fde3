"""The poller's lean read of the store's sequence (store/sequence.py): per game, its latest
version and position after a point, paged exactly as the library's notifications are."""

from __future__ import annotations

from contextlib import closing
from uuid import UUID

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
