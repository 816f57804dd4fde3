"""What each viewer reads of Dominations' secret facts and actions (view.py, rules 5.5): the
order of a shuffled deck, a Spy's peek, a bought conquest card and the decks reshuffled on the
way, a card the recorder entered into a hand, each as the owner, the other seat, the public
and the omniscient viewer read it."""

from __future__ import annotations

from domain.games.dominations import actions as ac
from domain.games.dominations import events as ev
from domain.games.dominations import view
from domain.ruleset import OMNISCIENT, PUBLIC, Viewer

OWNER, OTHER = Viewer("seat", "p1"), Viewer("seat", "p2")
RESHUFFLED = ev.Reshuffled("conquest", 1, 3, ("C01", "C02"), 2, "d1g3st")
HIDDEN_RESHUFFLE = ev.Reshuffled("conquest", 1, 3, (), 2, "", redacted=True)


def test_a_shuffled_decks_order_is_the_omniscient_viewers_alone() -> None:
    shuffled = ev.DeckShuffled("rebellion", 0, ("R01", "R02"), 2, "d1g3st")
    hidden = ev.DeckShuffled("rebellion", 0, (), 2, "", redacted=True)
    assert view.redact(shuffled, OMNISCIENT) == shuffled
    for viewer in (OWNER, OTHER, PUBLIC):
        assert view.redact(shuffled, viewer) == hidden
    only_digest = ev.DeckShuffled("rebellion", 0, (), 2, "d1g3st")
    assert view.redact(only_digest, PUBLIC) == hidden
    observed = ev.DeckShuffled("rebellion", 0, (), 2)  # a physical shuffle nobody saw: nothing to hide
    assert view.redact(observed, PUBLIC) == observed


def test_a_spys_peek_is_its_seats() -> None:
    peeked = ev.SpyPeeked("p1", ("R03", "R04"))
    assert view.redact(peeked, OWNER) == peeked
    assert view.redact(peeked, OMNISCIENT) == peeked
    for viewer in (OTHER, PUBLIC):
        assert view.redact(peeked, viewer) == ev.SpyPeeked("p1", (), redacted=True)


def test_a_bought_card_is_its_buyers_and_a_reshuffle_is_no_ones_order() -> None:
    bought = ev.ConquestCardBought("p1", "SCI", "C09", False, (RESHUFFLED,))
    assert view.redact(bought, OWNER) == ev.ConquestCardBought(
        "p1", "SCI", "C09", False, (HIDDEN_RESHUFFLE,), redacted=True
    )
    for viewer in (OTHER, PUBLIC):
        assert view.redact(bought, viewer) == ev.ConquestCardBought(
            "p1", "SCI", None, False, (HIDDEN_RESHUFFLE,), redacted=True
        )
    plain = ev.ConquestCardBought("p1", "SCI", "C09", False)
    assert view.redact(plain, OWNER) == plain
    assert view.redact(bought, OMNISCIENT) == bought


def test_an_attack_shows_its_peek_to_the_attacker_and_hides_every_reshuffles_order() -> None:
    attempt = ev.ConquestAttempted("p1", "FX5", True, ("R22",), (), ("R19",), (RESHUFFLED,), 7, 0)
    assert view.redact(attempt, OWNER) == ev.ConquestAttempted(
        "p1", "FX5", True, ("R22",), (), ("R19",), (HIDDEN_RESHUFFLE,), 7, 0, redacted=True
    )
    for viewer in (OTHER, PUBLIC):
        assert view.redact(attempt, viewer) == ev.ConquestAttempted(
            "p1", "FX5", True, None, (), ("R19",), (HIDDEN_RESHUFFLE,), 7, 0, redacted=True
        )
    quiet = ev.ConquestAttempted("p1", "FX5", False, None, (), ("R19",), (), 7, 0)
    assert view.redact(quiet, PUBLIC) == quiet


def test_a_card_entered_into_a_hand_is_named_to_its_owner_alone() -> None:
    for target in ("hand:p1", "land:p1", "must:p1"):
        entered = ev.CardRecorded("conquest", target, "C07")
        assert view.redact(entered, OWNER) == entered
        for viewer in (OTHER, PUBLIC):
            assert view.redact(entered, viewer) == ev.CardRecorded("conquest", target, "", redacted=True)
    drawn = ev.CardRecorded("rebellion", "attack", "R11")
    assert view.redact(drawn, PUBLIC) == drawn


def test_a_spy_peek_entered_by_the_recorder_is_shown_to_the_attacker_alone() -> None:
    attempt = ac.AttemptConquest("FX5", use_spy=True, spy_peek=("R22", "R23"))
    hidden = ac.AttemptConquest("FX5", use_spy=True, spy_peek=("?", "?"))
    assert view.redact_action(attempt, "p1", None, OWNER) == attempt  # type: ignore[arg-type]
    assert view.redact_action(attempt, "p1", None, OMNISCIENT) == attempt  # type: ignore[arg-type]
    for viewer in (OTHER, PUBLIC):
        assert view.redact_action(attempt, "p1", None, viewer) == hidden  # type: ignore[arg-type]
    assert view.redact_action(attempt, None, None, OWNER) == hidden  # type: ignore[arg-type]
