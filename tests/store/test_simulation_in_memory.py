"""`chronicle simulate` plays a bot game in memory and stores it whole (store/simulation.py
`play_all`): the stored events, digests included, must be byte for byte those that recording it
one action at a time through `Chronicle.record` stores (`play_each`), on both stores, with the
clock ticking between every reading of it; the game is audited clean, its secrets are stored
with it, and the listeners hear of every event once."""

from __future__ import annotations

from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from store import clock
from store.app import ADMIN, Appended, Chronicle
from store.audit import audit_game
from store.simulation import play_all, play_each
from tests.short_games import RULESET_IDS, SHORT_SEEDS, players, ruleset_named
from tests.store.simulated import another_store, game_rows


class Ticking:
    """A clock a second later at every reading, from the same moment after each `restart`:
    both ways must read it alike, in the same order."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        self.moment = datetime(2026, 3, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.moment += timedelta(seconds=1)
        return self.moment


@pytest.fixture(autouse=True)
def ticking(monkeypatch: pytest.MonkeyPatch) -> Ticking:
    ticking = Ticking()
    monkeypatch.setattr(clock, "now", ticking)
    return ticking


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_a_game_played_in_memory_is_stored_as_recording_it_action_by_action_stores_it(
    app: Chronicle, store_url: str, tmp_path: Path, ticking: Ticking, ruleset_id: str
) -> None:
    ruleset, seed, names = ruleset_named(ruleset_id), SHORT_SEEDS[ruleset_id], players(ruleset_id)
    each = play_each(app, ruleset, seed, 0, names, {}, 5_000)
    assert each.outcome is not None, each.problem
    with another_store(store_url, tmp_path) as other:
        heard: list[Appended] = []
        other.listeners.append(heard.extend)
        ticking.restart()
        (whole,) = play_all(other, ruleset, seed, [0], names, {}, 5_000)
        assert (whole.game_id, whole.actions, whole.outcome) == (each.game_id, each.actions, each.outcome)
        stored = game_rows(other, whole.game_id)
        assert stored == game_rows(app, each.game_id)
        assert '"chain":' in stored[-1][2].decode()  # every event carries its digest
        # the listeners hear of the game's every event, once, with its position in the store
        game_events = [(a.originator_version, a.topic) for a in heard if a.originator_id == whole.game_id]
        assert game_events == [(version, topic) for version, topic, _ in stored]
        assert len({a.position for a in heard}) == len(heard)
        # its secrets were stored with it: the audit takes its sealed seed, and finds it clean
        assert other.secrets(whole.game_id).server_seed == app.secrets(each.game_id).server_seed
        report = audit_game(other, whole.game_id, ADMIN)
        assert report.clean and report.random_checked, report.divergence


def test_games_stored_together_are_each_the_game_stored_alone(
    app: Chronicle, tmp_path: Path, ticking: Ticking
) -> None:
    """Several games in one transaction (the batch given in events) are each stored as alone."""
    ruleset, names = ruleset_named("dominion"), players("dominion")
    together = list(play_all(app, ruleset, "batch", range(3), names, {}, 5_000, batch=10**6))
    with closing(Chronicle(f"sqlite:///{tmp_path}/alone.sqlite3")) as alone:
        ticking.restart()
        for index, played in enumerate(together):
            (single,) = play_all(alone, ruleset, "batch", [index], names, {}, 5_000, batch=1)
            assert single == played and played.outcome is not None
            assert game_rows(alone, single.game_id) == game_rows(app, played.game_id)


def test_a_game_cut_at_the_cap_is_stored_as_far_as_it_went(app: Chronicle) -> None:
    """A game that does not end within the cap is stored up to there, still running."""
    (played,) = play_all(app, ruleset_named("province"), "cap", [0], ["Ann", "Ben"], {}, 5)
    assert played.outcome is None and played.problem == "did not end within 5 actions"
    game = app.game(played.game_id)
    assert game.status == "running" and len(game.actions) == 5
    assert audit_game(app, played.game_id, ADMIN).clean
