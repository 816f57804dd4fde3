"""Resign and abandon (domain/endings.py), through the store on both backends.

A resignation ends the game at once, the resigner last and the others by their current score;
an abandoned game ends with no outcome. Both are events with who and why, reveal the seed, and
leave a record the audit re-decides; a closed game takes no further action.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

import pytest

from domain.endings import ranked_resignation
from domain.events import GameAbandoned, GameFinished, GameResigned
from domain.ruleset import RejectedError
from store.app import ADMIN, RECORDER, Access, Chronicle, NewGame
from store.audit import audit_events, audit_game
from store.errors import Forbidden

ANN, BEN = Access("seat", "A"), Access("seat", "B")
# Ann opens with the Camp (1 VP, province.md E3); Ben moves one worker and ends his turn.
OPENING = ["first A white", "reveal workers2", "move green top", "move green right", "move green left"]
OPENING += ["build camp", "end", "move green top", "end"]


def physical(app: Chronicle) -> UUID:
    game_id = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical")).game_id)
    for move in OPENING:
        app.record(game_id, move, RECORDER)
    return game_id


def digital(app: Chronicle, ruleset: str = "province", players: int = 2) -> UUID:
    seed = hashlib.sha256(f"endings:{ruleset}".encode()).hexdigest()
    names = ["Ann", "Ben", "Cy", "Di"][:players]
    return UUID(app.create_game(NewGame(ruleset, names, server_seed=seed), admin=True).game_id)


def refusal(call: Any) -> str:
    with pytest.raises(RejectedError) as refused:
        call()
    return refused.value.rejection.code


def test_a_seat_resigning_ranks_last_and_the_game_ends_with_who_and_why(app: Chronicle) -> None:
    game_id = physical(app)
    scores = app.game(game_id).ruleset.metrics(app.game(game_id).state)["vp"]  # type: ignore[attr-defined]
    assert scores["A"] > scores["B"]
    ended = app.resign(game_id, ANN, reason="called away")
    game = app.game(game_id)
    assert ended.status == game.status == "finished" and game.resigned == "A"
    assert game.outcome is not None
    assert game.outcome.ranks == {"A": 2, "B": 1} and game.outcome.winners == ("B",)
    assert game.outcome.reason == "resigned" and game.outcome.details["resigned"] == "A"
    stored = app.stored_events(game_id)
    assert isinstance(stored[-2], GameResigned) and isinstance(stored[-1], GameFinished)
    assert (stored[-2].seat, stored[-2].by, stored[-2].reason) == ("A", "seat", "called away")
    shown = app.read_events(game_id, RECORDER)
    assert shown[-2].type == "resigned" and shown[-2].text == "Ann resigns (called away)."
    assert shown[-1].type == "finished" and "Ben won" in shown[-1].text
    assert refusal(lambda: app.record(game_id, "move green top", RECORDER)) == "game_over"
    assert refusal(lambda: app.resign(game_id, BEN)) == "game_over"
    assert app.prompts(game_id, RECORDER) == []
    report = audit_game(app, game_id, RECORDER)
    assert report.clean and report.actions == len(OPENING), report.divergence


def test_the_recorder_resigns_for_a_named_seat_and_a_seat_only_for_itself(app: Chronicle) -> None:
    game_id = physical(app)
    with pytest.raises(Forbidden):
        app.resign(game_id, ANN, seat="B")
    app.resign(game_id, RECORDER, seat="B")
    stored = app.stored_events(game_id)
    assert (stored[-2].seat, stored[-2].by) == ("B", "recorder")
    outcome = app.game(game_id).outcome
    assert outcome is not None and outcome.winners == ("A",) and outcome.ranks == {"A": 1, "B": 2}


def test_an_abandoned_digital_game_has_no_outcome_reveals_its_seed_and_audits_clean(app: Chronicle) -> None:
    game_id = digital(app)
    for _ in range(3):
        seat = app.prompts(game_id, RECORDER)[0]["seat"]
        app.record(game_id, app.legal_actions(game_id, RECORDER, seat)["actions"][0], RECORDER, seat=seat)
    with pytest.raises(Forbidden):
        app.abandon(game_id, ANN)
    ended = app.abandon(game_id, RECORDER, reason="the table broke up")
    game = app.game(game_id)
    assert ended.status == game.status == "abandoned" and ended.outcome is None and game.outcome is None
    last = app.stored_events(game_id)[-1]
    assert isinstance(last, GameAbandoned) and (last.by, last.reason) == ("recorder", "the table broke up")
    assert last.server_seed == hashlib.sha256(b"endings:province").hexdigest()
    assert app.read_events(game_id, ANN)[-1].type == "abandoned"  # everything public now
    assert app.view(game_id, ANN)["view"] == "omniscient"
    assert refusal(lambda: app.record(game_id, "end", RECORDER)) == "game_over"
    assert refusal(lambda: app.abandon(game_id, ADMIN)) == "game_over"
    assert app.legal_actions(game_id, RECORDER, "A")["actions"] == []
    report = audit_game(app, game_id, ANN)  # open to anyone once the game is closed
    assert report.clean and report.random_checked and report.actions == 3, report.divergence


def test_the_audit_recomputes_the_resignation_outcome_and_refuses_events_after_a_close(
    app: Chronicle,
) -> None:
    game_id = physical(app)
    app.resign(game_id, RECORDER, seat="B")
    stored = app.stored_events(game_id)
    finished = stored[-1]
    forged = type(finished)(**{**_fields(finished), "outcome": {**finished.outcome, "winners": ["B"]}})
    report = audit_events([*stored[:-1], forged], None)
    assert report.divergence is not None and report.divergence.code == "outcome_differs"
    abandoned = physical(app)
    app.abandon(abandoned, RECORDER)
    stored = app.stored_events(abandoned)
    extra = type(stored[-2])(**{**_fields(stored[-2]), "originator_version": len(stored) + 1})
    report = audit_events([*stored, extra], None)
    assert report.divergence is not None and report.divergence.code == "after_finish"


def _fields(event: object) -> dict[str, object]:
    """An event's own fields, without the digest the store keeps beside them."""
    return {k: v for k, v in vars(event).items() if k != "chain"}


def test_resigning_from_a_three_player_game_ranks_the_others_by_their_score(app: Chronicle) -> None:
    game_id = digital(app, "dominations", 3)
    ended = app.resign(game_id, RECORDER, seat="p2")
    assert ended.outcome is not None and ended.outcome["ranks"]["p2"] == 3
    assert sorted(ended.outcome["ranks"].values()) in ([1, 1, 3], [1, 2, 3])
    assert audit_game(app, game_id, RECORDER).clean


def test_the_default_ranking_puts_the_resigner_last_and_shares_ranks_on_equal_scores() -> None:
    outcome = ranked_resignation({"A": 5, "B": 9, "C": 5, "D": 12}, "D")
    assert outcome.ranks == {"B": 1, "A": 2, "C": 2, "D": 4} and outcome.winners == ("B",)
    tied = ranked_resignation({"A": 3, "B": 3, "C": 0}, "C")
    assert tied.ranks == {"A": 1, "B": 1, "C": 3} and tied.winners == ("A", "B")


def test_a_resignation_recorded_by_score_alone_before_the_game_s_order_still_audits_clean(
    app: Chronicle,
) -> None:
    # Ben resigns a Province game: ranked today with the score broken down (province.md 8.2);
    # a game resigned before carries the score-only outcome, which the audit still accepts.
    game_id = physical(app)
    app.resign(game_id, RECORDER, seat="B")
    stored = app.stored_events(game_id)
    finished = stored[-1]
    assert set(finished.outcome["details"]) == {"scores", "resigned"}
    earlier = {**finished.outcome, "details": {"resigned": "B"}}
    recorded_before = type(finished)(**{**_fields(finished), "outcome": earlier})
    # An event rewritten here carries no digest: the chain is all the audit finds wrong.
    report = audit_events([*stored[:-1], recorded_before], None)
    assert report.divergence is not None and report.divergence.code == "chain_broken"
    forged = type(finished)(**{**_fields(finished), "outcome": {**earlier, "winners": ["B"]}})
    report = audit_events([*stored[:-1], forged], None)
    assert report.divergence is not None and report.divergence.code == "outcome_differs"
