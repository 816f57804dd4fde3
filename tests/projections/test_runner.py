"""The statistics view on both stores: catch-up from position 0, live following, a restart
from the stored position without double counting, a rebuild that switches only once caught
up, and the ratings the view keeps as games finish."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from uuid import UUID

import msgspec
import pytest
from eventsourcing.persistence import IntegrityError, Tracking
from psycopg.sql import SQL

from projections import fold_workers, game_stats, runner
from projections.game_stats import GameStatistics
from projections.ratings import PlayerRating, replay
from projections.runner import (
    APP_NAME,
    FINISHED,
    Catalog,
    GenerationRunner,
    ProjectionHost,
    StatsReader,
    close_view,
    count_game,
    fill,
    open_view,
    rebuild,
    status,
)
from projections.tables import all_tables, ratings
from projections.views import Filters, PostgresStatsView, SQLiteStatsView, StatsView
from store.app import Chronicle
from store.config import sqlite_file
from tests.projections.support import OPENING, physical_game, resigned_games, simulate


@pytest.fixture
def app(store_url: str) -> Iterator[Chronicle]:
    chronicle = Chronicle(store_url)
    yield chronicle
    chronicle.close()


def head(app: Chronicle) -> int:
    return app.recorder.max_notification_id() or 0


def figures(reader: StatsReader) -> bytes:
    view = reader.view()
    assert view is not None
    return msgspec.json.encode([t.figures() for t in all_tables(view.games())])


def until(condition: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_host_catches_up_then_follows_live_games(app: Chronicle) -> None:
    simulate(app, 2, seed="a")
    host = ProjectionHost(app.url, poll=0.05).start()
    reader = StatsReader(app)
    try:
        assert reader.wait(head(app), timeout=30)
        view = reader.view()
        assert view is not None and view.count() == 2
        simulate(app, 1, seed="b")
        physical_game(app, OPENING)  # running games are not in the view
        assert reader.wait(head(app), timeout=30)
        assert view.count() == 3
        assert reader.position() >= 1
    finally:
        host.stop()
        reader.close()
    assert host.error is None


def test_a_restart_resumes_from_its_position_and_counts_nothing_twice(app: Chronicle) -> None:
    simulate(app, 2, seed="c")
    catalog = Catalog(app.url)
    generation = catalog.allocate("stats")
    runner = GenerationRunner(app.url, "stats", generation)
    until(runner.caught_up)
    first = runner.position()
    runner.close()  # stopped between games
    simulate(app, 1, seed="d")
    runner = GenerationRunner(app.url, "stats", generation)
    try:
        until(runner.caught_up)
        assert runner.position() > first
        assert runner.view.count() == 3
        # processing a game again (a crash after the commit) is refused with its position
        [game] = runner.view.games()[:1]
        with pytest.raises(IntegrityError):
            runner.view.record_game(game, Tracking(APP_NAME, game.position))
        assert runner.view.count() == 3
    finally:
        runner.close()
    catalog.activate("stats", generation)
    reader = StatsReader(app)
    try:
        resumed = figures(reader)
        rebuild(app.url)
        reader._active = (0.0, None)
        assert reader.generation() == generation + 1
        assert figures(reader) == resumed  # a fresh build from 0 gives the same figures
    finally:
        reader.close()


def test_a_rebuild_switches_only_when_caught_up_and_the_host_follows(app: Chronicle) -> None:
    simulate(app, 2, seed="e")
    first = rebuild(app.url)
    host = ProjectionHost(app.url, poll=0.05).start()
    reader = StatsReader(app)
    seen: list[int | None] = []
    try:
        until(lambda: host.runners.get("stats") is not None)

        def watch(position: int, head_position: int) -> None:
            reader._active = (0.0, None)
            seen.append(reader.generation())
            view = reader.view()
            assert view is not None and view.count() == 2  # readers see the whole old view

        second = rebuild(app.url, on_progress=watch)
        assert second == first + 1
        # readers see the whole old view, or the new one once the host, which also finishes a
        # building generation, has caught it up: never one part-way
        assert seen and set(seen) <= {first, second}
        until(lambda: host.runners["stats"].generation == second)
        simulate(app, 1, seed="f")
        reader._active = (0.0, None)
        assert reader.wait(head(app), timeout=30)
        view = reader.view()
        assert view is not None and view.count() == 3
        third = rebuild(app.url)
    finally:
        host.stop()
        reader.close()
    states = dict(Catalog(app.url).generations("stats"))
    assert states == {second: "retired", third: "active"}  # the first was dropped
    [old] = [row for row in status(app.url) if row["generation"] == second]
    assert old["games"] == 3


def test_a_read_waits_for_its_own_write(app: Chronicle) -> None:
    rebuild(app.url)
    reader = StatsReader(app)
    try:
        assert reader.wait(head(app), timeout=1)  # nothing has finished: covered at once
        simulate(app, 1, seed="g")
        assert not reader.wait(head(app), timeout=0.2)  # no runner is running
        host = ProjectionHost(app.url, poll=0.05).start()
        try:
            assert reader.wait(head(app), timeout=30)
        finally:
            host.stop()
    finally:
        reader.close()


def test_status_lists_each_generation_with_its_position(app: Chronicle) -> None:
    simulate(app, 1, seed="h")
    generation = rebuild(app.url)
    [row] = status(app.url)
    assert row == {
        "view": "stats",
        "generation": generation,
        "state": "active",
        "position": row["position"],
        "games": 1,
        "finished": 1,
        "left_out": 0,
        "head": head(app),
        "caught_up": True,
        "events_behind": head(app) - row["position"],
        "games_behind": 0,
        "lag_seconds": 0.0,
    }
    view = open_view(app.url, "stats", generation)
    try:
        assert view.max_tracking_id(APP_NAME) == row["position"]
        [summary] = view.games()
        assert summary.progression == []  # the tables never read it
        whole = view.game(summary.game_id)
        assert whole is not None and whole.progression[-1].metrics["vp"] == whole.scores
        assert view.game("no-such-game") is None
    finally:
        view.datastore.close()  # type: ignore[attr-defined]


def test_status_says_how_far_behind_a_view_is_in_games_events_and_seconds(app: Chronicle) -> None:
    simulate(app, 1, seed="lag1")
    rebuild(app.url)
    physical_game(app, OPENING)  # events after the view's position that finish no game
    [row] = status(app.url)
    assert row["events_behind"] > len(OPENING) and (row["games_behind"], row["caught_up"]) == (0, True)
    before = time.monotonic()
    simulate(app, 2, seed="lag2")
    time.sleep(0.2)
    [row] = status(app.url)
    assert (row["games_behind"], row["caught_up"]) == (2, False)
    assert row["events_behind"] == head(app) - row["position"] > 2
    # the oldest waiting game finished after `before`, and at least 0.2 s ago
    assert 0.2 <= row["lag_seconds"] <= time.monotonic() - before + 1


def stored_and_replayed(view: StatsView) -> tuple[list[PlayerRating], list[PlayerRating]]:
    return view.ratings(), replay(view.games())


def test_ratings_are_kept_as_games_finish_and_equal_a_replay_of_the_games(app: Chronicle) -> None:
    simulate(app, 2, seed="r1", names=("Ann", "Ben"))
    simulate(app, 1, seed="r2", names=("Cy", "Cy"))  # one player in both seats: not rated
    generation = rebuild(app.url)
    view = open_view(app.url, "stats", generation)
    try:
        stored, replayed = stored_and_replayed(view)
        assert [r.player for r in stored] == ["province/Ann", "province/Ben"]
        assert stored == replayed
        host = ProjectionHost(app.url, poll=0.05).start()
        try:
            simulate(app, 1, seed="r3", names=("Ben", "Cy"))
            simulate(app, 1, seed="r4", names=("Dee", "Ann"))
            until(lambda: view.count() == 5)
        finally:
            host.stop()
        stored, replayed = stored_and_replayed(view)
        assert [(r.player, r.games) for r in stored] == [
            ("province/Ann", 3),
            ("province/Ben", 3),
            ("province/Cy", 1),
            ("province/Dee", 1),
        ]
        assert stored == replayed  # the same floats, not merely close ones
        games, read = view.games_and_ratings()
        assert read == stored
        assert ratings(games, read) == ratings(games)
        assert view.games_and_ratings(Filters(player="Ann")) == (view.games(Filters(player="Ann")), None)
        across = Filters(across_rulesets=True)
        assert view.games_and_ratings(across) == (games, None)
    finally:
        close_view(view)


def test_a_generation_without_stored_ratings_fills_them_from_its_games_when_opened(app: Chronicle) -> None:
    simulate(app, 2, seed="r5", names=("Ann", "Ben"))
    generation = rebuild(app.url)
    view = open_view(app.url, "stats", generation)
    try:
        expected = view.ratings()
        assert len(expected) == 2
        with view.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            if isinstance(view, SQLiteStatsView):
                cursor.execute(f"DELETE FROM {view.RATINGS}")
            else:
                assert isinstance(view, PostgresStatsView)
                cursor.execute(SQL("DELETE FROM {0}").format(view.ratings_table))
        assert view.ratings() == []
    finally:
        close_view(view)
    reopened = open_view(app.url, "stats", generation)
    try:
        assert reopened.ratings() == expected
    finally:
        close_view(reopened)


def test_a_rebuild_s_batch_that_meets_games_another_runner_counted_counts_each_game_once(
    app: Chronicle,
) -> None:
    resigned_games(app, 5)
    generation = Catalog(app.url).allocate("stats")
    view = open_view(app.url, "stats", generation)
    try:
        finished = app.recorder.select_notifications(start=0, limit=10, topics=FINISHED)
        assert len(finished) == 5

        def another_runner_counts_two(position: int, head_position: int) -> None:
            # after the rebuild looked at the view's position: its first batch holds them too
            if position == 0:
                view.record_games(
                    [
                        (count_game(app, UUID(str(n.originator_id)), n.id), Tracking(APP_NAME, n.id))
                        for n in finished[:2]
                    ]
                )

        fill(app, view, on_progress=another_runner_counts_two)
        assert view.count() == 5
        assert view.max_tracking_id(APP_NAME) == finished[-1].id
        assert [g.position for g in view.games()] == [n.id for n in finished]
        assert view.ratings() == replay(view.games())  # each game rated once
    finally:
        close_view(view)


def test_games_folded_by_worker_processes_are_recorded_as_one_process_records_them(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sqlite_file(app.url) is None:
        pytest.skip("workers fold the games of an SQLite store file only")
    simulate(app, 3, seed="w1", names=("Ann", "Ben"))
    simulate(app, 1, seed="w2", names=("Ben", "Cy"))
    left_out = resigned_games(app, 3)[1]
    physical_game(app, OPENING)  # still running: not counted

    def fold_rows(rows: list[tuple[str, bytes]], game_id: UUID, position: int = 0) -> GameStatistics:
        if game_id == left_out:
            raise LookupError("a ruleset this process lacks")
        return game_stats.fold_rows(rows, game_id, position=position)

    monkeypatch.setattr(runner, "fold_rows", fold_rows)
    monkeypatch.setattr(fold_workers, "fold_rows", fold_rows)  # the workers are forked after
    monkeypatch.setattr(fold_workers, "_alone", lambda: True)  # other tests' threads may linger
    used: list[int] = []
    fold = fold_workers.Folders.fold

    def counted_fold(self: fold_workers.Folders, games: list[tuple[UUID, int]]) -> object:
        used.append(self.workers)
        return fold(self, games)

    monkeypatch.setattr(fold_workers.Folders, "fold", counted_fold)

    def recorded(workers: int) -> tuple[object, ...]:
        view = open_view(app.url, "stats", rebuild(app.url, workers=workers))
        try:
            games = [view.game(g.game_id) for g in view.games()]
            return games, view.ratings(), view.max_tracking_id(APP_NAME)
        finally:
            close_view(view)

    alone = recorded(1)
    assert used == []
    assert recorded(2) == alone
    assert used == [2]
    games, rated, position = alone
    finished = app.recorder.select_notifications(start=0, limit=20, topics=FINISHED)
    assert len(finished) == 7 and position == finished[-1].id
    assert isinstance(games, list) and len(games) == 6  # all finished games but the one left out
    assert str(left_out) not in {g.game_id for g in games if g is not None}
    assert isinstance(rated, list) and len(rated) == 3


def test_a_worker_process_that_dies_stops_the_rebuild_rather_than_leave_it_waiting(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sqlite_file(app.url) is None:
        pytest.skip("workers fold the games of an SQLite store file only")
    resigned_games(app, 3)

    def killed(rows: list[tuple[str, bytes]], game_id: UUID, position: int = 0) -> GameStatistics:
        os._exit(9)  # as the kernel's out-of-memory killer would leave it

    monkeypatch.setattr(fold_workers, "fold_rows", killed)  # the workers are forked after
    monkeypatch.setattr(fold_workers, "_alone", lambda: True)
    with pytest.raises(BrokenProcessPool):
        rebuild(app.url, workers=2)
    assert Catalog(app.url).active("stats") is None  # nothing half-built serves
