"""Same-deal games on both stores (store/deals.py): a new table gets the finished game's deal
(its setup and every draw of the same stream and counter), its record audits clean, the
statistics compare the tables, and while it runs the deal's other games are withheld from
readers who hold none of their tokens."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.events import FactRecorded
from store import deals, notes, variations
from store.app import ADMIN, RECORDER, Chronicle, NewGame
from store.audit import audit_game
from store.errors import Forbidden, InvalidRequest, Unauthorized
from store.notes import NewAnnotation
from store.variations import BranchRequest
from tests.api.support import ADMIN_TOKEN
from tests.short_games import finished_game, players
from tests.store.disputed import play_as


def _setup_facts(app: Chronicle, game_id: UUID) -> list[dict[str, object]]:
    found = []
    for event in app.stored_events(game_id)[1:]:
        if not isinstance(event, FactRecorded):
            break
        found.append(event.fact)
    return found


def test_a_same_deal_game_is_dealt_as_the_first_and_both_appear_in_the_comparison(app: Chronicle) -> None:
    first = finished_game(app, "province")
    created = app.create_game(NewGame("province", ["Cy", "Di"], same_deal_as=str(first)))
    again = UUID(created.game_id)
    assert created.commitment == app.game(first).commitment
    assert app.game(again).config.deal == str(first)
    assert _setup_facts(app, again) == _setup_facts(app, first) != []
    assert deals.games_of(app, first) == [str(first), str(again)]

    play_as(app, again, first)
    assert audit_game(app, again, ADMIN).clean
    rows = deals.comparison(app)
    assert [r["game"] for r in rows] == [str(first), str(again)]
    assert {r["deal"] for r in rows} == {str(first)}
    outcome = app.game(again).outcome
    assert outcome is not None
    assert rows[1]["players"] == f"Cy {outcome.scores['A']}, Di {outcome.scores['B']}"
    assert rows[0]["players"].startswith("Player A ")

    # a game of the deal lends it too: the third table still plays the first game's deal
    third = app.create_game(NewGame("province", ["Ed", "Flo"], same_deal_as=str(again)))
    assert app.game(UUID(third.game_id)).config.deal == str(first)
    assert deals.games_of(app, first) == [str(first), str(again), third.game_id]


def test_while_a_same_deal_game_runs_the_deal_s_other_games_are_withheld(app: Chronicle) -> None:
    first = finished_game(app, "province")
    assert app.access(first, None).role == "public"  # no deal in play yet
    second = app.create_game(NewGame("province", ["Cy", "Di"], same_deal_as=str(first)))
    played = UUID(second.game_id)  # a second table, still running too
    # a third table, created by the administrator (the deal is in play: see below)
    created = app.create_game(NewGame("province", ["Ed", "Flo"], same_deal_as=str(first)), admin=True)
    running = UUID(created.game_id)
    for other in (first, played):
        for token in (None, created.seat_tokens["A"], created.recorder_token):
            with pytest.raises(Forbidden) as refused:
                app.access(other, token)
            assert refused.value.code == "same_deal_in_play"
    # the other tables' own tokens and the administrator still read their games
    assert app.access(played, second.recorder_token).role == "recorder"
    assert app.access(played, second.seat_tokens["B"]).role == "seat"
    assert app.access(first, ADMIN_TOKEN).role == "admin"
    # two tables play the deal at once: each is withheld from the other (and the public)
    assert app.access(running, created.seat_tokens["A"]).role == "seat"
    with pytest.raises(Forbidden):
        app.access(running, second.seat_tokens["A"])

    app.abandon(played, RECORDER)
    with pytest.raises(Forbidden):
        app.access(first, None)  # the last table still plays the deal
    assert app.access(running, None).role == "public"  # its own events, redacted as ever
    with pytest.raises(Unauthorized):
        app.access(running, "not-a-token")
    app.abandon(running, RECORDER)
    assert app.access(first, None).role == "public"  # the deal is no secret once it is played
    assert app.access(played, None).role == "public"


def test_what_derives_from_a_withheld_game_is_withheld_with_it(app: Chronicle) -> None:
    first = finished_game(app, "province")
    at = app.game(first).actions[2].last_version
    study = variations.branch(app, first, BranchRequest(at), "public")
    played_on = variations.branch(app, first, BranchRequest(at, "game"), "public")
    deeper = variations.branch(app, UUID(study.variation_id), BranchRequest(at), "public")
    notes.annotate_as(app, first, "recorder", NewAnnotation(at, "the goals come out here"))
    reviewer = notes.issue_review_token(app, first, ADMIN_TOKEN, "Rev").review_token
    lines = [first, *(UUID(v.variation_id) for v in (study, played_on, deeper))]
    for line in lines:
        assert app.access(line, None).role == "public"  # no deal in play yet
    second = app.create_game(NewGame("province", ["Cy", "Di"], same_deal_as=str(first)))

    strangers = [
        None,
        second.seat_tokens["A"],
        second.recorder_token,
        reviewer,  # a reviewer of the game reads as the public
        study.recorder_token,  # a variation's own tokens are no tokens of its game
        played_on.seat_tokens["B"],
        deeper.recorder_token,
    ]
    for line in lines:
        for token in strangers:
            with pytest.raises(Forbidden) as refused:
                app.access(line, token)
            assert refused.value.code == "same_deal_in_play", (line, token)
        assert app.access(line, ADMIN_TOKEN).role == "admin"
    with pytest.raises(Forbidden):  # the variation's recorder reads its line through `access`
        variations.line_access(app, UUID(study.variation_id), study.recorder_token)
    with pytest.raises(Forbidden):
        notes.annotations_of(app, first, None)
    with pytest.raises(Forbidden):
        notes.annotate(app, UUID(study.variation_id), study.recorder_token, NewAnnotation(at, "x"))
    # while the deal is in play, only the game's own table or the administrator sets up another
    with pytest.raises(Forbidden) as refused:
        app.create_game(NewGame("province", ["Ed", "Flo"], same_deal_as=str(first)))
    assert refused.value.code == "same_deal_in_play"
    assert len(deals.games_of(app, first)) == 2  # nothing was stored

    app.abandon(UUID(second.game_id), RECORDER)
    for line in lines:
        for token in strangers:
            app.withhold(line, token)
    assert [n.text for n in notes.annotations_of(app, first, None)] == ["the goals come out here"]


def test_a_deal_is_lent_only_by_a_finished_digital_game_of_the_same_ruleset_and_size(app: Chronicle) -> None:
    finished = finished_game(app, "province")
    running = UUID(app.create_game(NewGame("province", ["A", "B"])).game_id)
    physical = UUID(app.create_game(NewGame("province", ["A", "B"], mode="physical")).game_id)
    refusals = [
        (NewGame("province", ["A", "B"], same_deal_as=str(running)), "deal_not_finished"),
        (NewGame("province", ["A", "B"], same_deal_as=str(physical)), "deal_not_digital"),
        (NewGame("dominion", players("dominion"), same_deal_as=str(finished)), "deal_ruleset_differs"),
        (
            NewGame("province", ["A", "B"], same_deal_as=str(finished), options={"mode": "x"}),
            "deal_options_differ",
        ),
        (NewGame("province", ["A", "B"], same_deal_as=str(finished), server_seed="00" * 32), "invalid_seed"),
        (NewGame("province", ["A", "B"], same_deal_as="no-such-game"), "invalid_game_id"),
    ]
    for new, code in refusals:
        with pytest.raises(InvalidRequest) as refused:
            app.create_game(new, admin=True)
        assert refused.value.code == code, new
    assert deals.games_of(app, finished) == []  # nothing was stored


def test_tables_that_join_one_deal_at_once_are_all_stored_and_all_listed(app: Chronicle) -> None:
    """Each join appends to the deal's stream; a table that loses the race is built again."""
    from concurrent.futures import ThreadPoolExecutor

    first = finished_game(app, "province")
    with ThreadPoolExecutor(4) as pool:
        created = list(
            pool.map(
                lambda i: app.create_game(
                    NewGame("province", [f"X{i}", f"Y{i}"], same_deal_as=str(first)), admin=True
                ),
                range(8),
            )
        )
    games = deals.games_of(app, first)
    assert games[0] == str(first)
    assert sorted(games[1:]) == sorted(c.game_id for c in created)
    for made in created:
        assert app.game(UUID(made.game_id)).config.deal == str(first)
