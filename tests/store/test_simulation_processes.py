"""Games simulated in several processes (store/simulation_processes.py) are stored as one
process stores them: the same rows in the same order, bytes and digests included, on both
stores; what fails in a helper process is raised as it was raised there, and only whole games
are stored.

The helpers are fresh processes: they read the clock the test sets (a module function, which
they import). Until a helper has read it, the asking process reads it slowly, so that a helper
surely plays some of the games however slowly it starts."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import pytest

from store import clock
from store.app import ADMIN, Appended, Chronicle
from store.audit import audit_game
from store.simulation import play_all
from store.simulation_processes import play_in, start_helpers
from tests.short_games import players, ruleset_named
from tests.store.simulated import another_store, game_rows

MOMENT = datetime(2026, 3, 1, 12, tzinfo=UTC)
MARK = "CHRONICLE_TEST_HELPER_MARK"  # the file a helper leaves when it reads the clock
GAMES = 8


ASKING = "CHRONICLE_TEST_ASKING_PROCESS"  # the test's own process id, which helpers inherit


def in_a_helper() -> bool:
    return os.getpid() != int(os.environ[ASKING])


def _helper_read_it() -> bool:
    """In a helper: leave the mark. In the asking process, until it is left: wait a little."""
    mark = Path(os.environ[MARK])
    if in_a_helper():
        mark.touch()
        return True
    if not mark.exists():
        time.sleep(0.002)
    return False


def helpers_left() -> list[int]:
    """This process's helper processes still running (or not yet waited for)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"store.simulation_helper" in command:
            found.append(int(entry.name))
    return found


def at_the_moment() -> datetime:
    return MOMENT


def at_the_moment_once_a_helper_plays() -> datetime:
    _helper_read_it()
    return MOMENT


def stopped_in_helpers() -> datetime:
    if _helper_read_it():
        raise ValueError("the clock stopped in a helper")
    return MOMENT


@pytest.fixture(autouse=True)
def mark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "a helper read the clock"
    monkeypatch.setenv(MARK, str(path))
    monkeypatch.setenv(ASKING, str(os.getpid()))
    return path


def sequence(app: Chronicle) -> list[tuple[int, str, int, str]]:
    """Every stored row's position, stream, version and topic, in the store's order."""
    return [
        (n.id, str(n.originator_id), n.originator_version, n.topic)
        for n in app.recorder.select_notifications(1, 10**6)
    ]


@pytest.mark.parametrize("first", [False, True], ids=["helpers started by play_in", "helpers started first"])
def test_games_played_in_several_processes_are_stored_as_one_process_stores_them(
    app: Chronicle, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mark: Path, first: bool
) -> None:
    """Started by `play_in` (fresh interpreters: a store is open), or first, before the store
    opens, as `chronicle simulate` starts them (forked, in a process with no other thread)."""
    ruleset, names = ruleset_named("dominion"), players("dominion")
    monkeypatch.setattr(clock, "now", at_the_moment)
    alone = list(play_all(app, ruleset, "jobs", range(GAMES), names, {}, 5_000, batch=2_000))
    helpers = start_helpers(2) if first else []
    with another_store(store_url, tmp_path) as other:
        heard: list[Appended] = []
        other.listeners.append(heard.extend)
        monkeypatch.setattr(clock, "now", at_the_moment_once_a_helper_plays)
        several = list(
            play_in(3, other, ruleset, "jobs", range(GAMES), names, {}, 5_000, batch=2_000, helpers=helpers)
        )
        assert mark.exists()  # a helper played
        assert several == alone and all(p.outcome is not None for p in alone)
        for played in alone:
            assert game_rows(other, played.game_id) == game_rows(app, played.game_id)
        # the secrets' streams too, in the same places (their sealed bytes are random)
        assert sequence(other) == sequence(app)
        # the listeners hear of every row once, with its position
        assert [(a.position, str(a.originator_id), a.originator_version, a.topic) for a in heard] == sequence(
            other
        )
        assert audit_game(other, alone[-1].game_id, ADMIN).clean
    assert not helpers_left()


def test_a_failure_in_a_helper_is_raised_as_it_was_and_only_whole_games_are_stored(
    app: Chronicle, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset, names = ruleset_named("dominion"), players("dominion")
    monkeypatch.setattr(clock, "now", stopped_in_helpers)
    stored = []
    with pytest.raises(ValueError, match=r"^the clock stopped in a helper$"):
        for played in play_in(2, app, ruleset, "stops", range(GAMES), names, {}, 5_000, batch=1):
            stored.append(played)
    assert not helpers_left()
    # the games given before the failure reached this process are stored, and those being
    # committed then: each whole, and not every game
    rows = app.recorder.select_notifications(1, 10**6)
    games = {UUID(str(n.originator_id)) for n in rows if n.topic == "chronicle:GameCreated"}
    assert {p.game_id for p in stored} <= games and 0 < len(games) < GAMES
    for game_id in games:
        assert app.game(game_id).status == "finished"
        assert audit_game(app, game_id, ADMIN).clean
