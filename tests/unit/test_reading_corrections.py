"""How the one redaction (domain/reading.py) words and shows corrections and endings: each
retraction request, answer and retraction, a resignation and an abandonment, with the data a
reader gets, the same for every viewer (none of them holds a secret). Also the facts answering
a write and the outcome, as a viewer reads them."""

from __future__ import annotations

import copy
import hashlib
import random
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from domain import reading
from domain.game import Game
from domain.rng import SeededRng, commitment
from domain.ruleset import (
    OMNISCIENT,
    PUBLIC,
    Command,
    GameConfig,
    Rejection,
    Seat,
    Viewer,
    get_ruleset,
    resolve_options,
)

AT = datetime(2026, 1, 1, tzinfo=UTC)
VIEWERS = (OMNISCIENT, PUBLIC, Viewer("seat", "A"), Viewer("seat", "B"))


def started(key: str, actions: int, ruleset_id: str = "province") -> tuple[Game, SeededRng, bytes]:
    """A digital game with `actions` actions played by the bot, Ann and Ben in the first two
    seats (A and B in Province)."""
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {})
    assert not isinstance(options, Rejection)
    game_id = str(UUID(bytes=hashlib.sha256(key.encode()).digest()[:16], version=4))
    first, second = ruleset.meta.seat_ids[:2]
    config = GameConfig(game_id, ruleset_id, "digital", (Seat(first, "Ann"), Seat(second, "Ben")), options)
    seed = hashlib.sha256(key.encode()).digest()
    rng = SeededRng(seed, game_id)
    game = Game.start(config, commitment(seed), rng, AT)
    bot = random.Random(key)
    while len(game.actions) < actions:
        seat = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)[0]
        action = ruleset.bot_choose(game.state, seat, ruleset.legal_actions(game.state, seat), bot.randrange)
        command = Command(action, seat, "seat")
        facts = game.decide(command, rng)
        assert not isinstance(facts, Rejection)
        game.record(command, facts, AT, action_id=f"id-{len(game.actions) + 1}")
    return game, rng, seed


def shown(game: Game, events: list[Any], viewer: Viewer) -> list[tuple[str, str, dict[str, Any], bool]]:
    read = reading.present_all(game, events, viewer)
    assert [(e.version, e.at) for e in read] == [
        (e.originator_version, e.timestamp.isoformat()) for e in events
    ]
    return [(e.type, e.text, e.data, e.retracted) for e in read]


def test_a_request_its_answers_and_the_retraction_read_the_same_for_everyone() -> None:
    game, _, _ = started("corrections", 12)
    before = list(game.collect_events())
    asker = game.actions[-1].seat
    plans = (game.plan_retraction(k, "seat", asker) for k in range(1, 13))
    undo = next(p for p in plans if not isinstance(p, Rejection) and p.needs)  # one that needs approval
    assert not isinstance(undo, Rejection)
    assert asker is not None
    other = "B" if asker == "A" else "A"
    game.request_retraction(undo, asker, "wrong worker", "r1", AT)
    assert game.answer_retraction("r1", other, False, AT) is None
    game.request_retraction(undo, asker, "", "r2", AT)
    assert game.answer_retraction("r2", other, True, AT) is None
    events = list(game.collect_events())
    names = {"A": "Ann", "B": "Ben"}
    numbers = ", ".join(f"#{s}" for s in undo.seqs)
    expected = [
        (
            "retraction_request",
            f"{names[asker]} asks to retract {numbers} (wrong worker); waiting for {names[other]}.",
            {
                "request_id": "r1",
                "seqs": list(undo.seqs),
                "seat": asker,
                "reason": "wrong worker",
                "needs": [other],
            },
            False,
        ),
        (
            "retraction_answer",
            f"{names[other]} declines the retraction.",
            {"request_id": "r1", "seat": other, "approved": False},
            False,
        ),
        (
            "retraction_request",
            f"{names[asker]} asks to retract {numbers}; waiting for {names[other]}.",
            {"request_id": "r2", "seqs": list(undo.seqs), "seat": asker, "reason": "", "needs": [other]},
            False,
        ),
        (
            "retraction_answer",
            f"{names[other]} approves the retraction.",
            {"request_id": "r2", "seat": other, "approved": True},
            False,
        ),
        (
            "retraction",
            f"{names[asker]} retracts {numbers}.",
            {"seqs": list(undo.seqs), "by": "seat", "seat": asker, "reason": "", "approvals": [other]},
            False,
        ),
    ]
    for viewer in VIEWERS:
        assert shown(game, events, viewer) == expected, viewer
    # the retracted actions and their facts are marked as such when the whole stream is read
    whole = reading.present_all(game, [*before, *events], PUBLIC)
    undone = {e.version for e in whole if e.retracted}
    assert undone and all(e.type in ("action", "fact") for e in whole if e.retracted)
    assert {e.data["seq"] for e in whole if e.retracted and e.type == "action"} == set(undo.seqs)


def test_the_recorders_retraction_names_the_table() -> None:
    game, _, _ = started("recorder", 2)
    list(game.collect_events())
    undo = game.plan_retraction(1, "recorder", None)
    assert not isinstance(undo, Rejection)
    game.retract(undo, "recorder", None, "misentered", AT)
    [event] = game.collect_events()
    assert shown(game, [event], PUBLIC) == [
        (
            "retraction",
            f"The table retracts #{undo.seqs[0]} (misentered).",
            {
                "seqs": list(undo.seqs),
                "by": "recorder",
                "seat": None,
                "reason": "misentered",
                "approvals": [],
            },
            False,
        )
    ]


def test_a_resignation_and_an_abandonment_read_as_what_happened() -> None:
    game, _, seed = started("resigned", 2)
    list(game.collect_events())
    assert game.resign("B", "recorder", "left early", seed.hex(), AT) is None
    resigned, finished = game.collect_events()
    for viewer in VIEWERS:
        assert shown(game, [resigned], viewer) == [
            (
                "resigned",
                "Ben resigns (left early), entered by the recorder.",
                {"seat": "B", "by": "recorder", "reason": "left early"},
                False,
            )
        ]
        [(kind, text, data, _)] = shown(game, [finished], viewer)
        assert (kind, text) == ("finished", "The game is over: Ann won.")
        assert data == {"outcome": reading.outcome(game), "server_seed": seed.hex()}
    quiet, _, _ = started("quiet", 1)
    list(quiet.collect_events())
    assert quiet.resign("A", "seat", "", seed.hex(), AT) is None
    alone, _ = quiet.collect_events()
    assert shown(quiet, [alone], PUBLIC)[0][1] == "Ann resigns."

    left, _, seed = started("abandoned", 2)
    list(left.collect_events())
    assert left.abandon("recorder", "the café closed", seed.hex(), AT) is None
    [abandoned] = left.collect_events()
    assert shown(left, [abandoned], PUBLIC) == [
        (
            "abandoned",
            "The game is abandoned (the café closed), by the recorder.",
            {"by": "recorder", "reason": "the café closed", "server_seed": seed.hex()},
            False,
        )
    ]
    assert reading.outcome(left) is None


def test_the_facts_answering_a_write_are_redacted_for_the_viewer() -> None:
    game, rng, _ = started("facts", 1)
    ruleset = game.ruleset
    seat = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)[0]
    action = ruleset.legal_actions(game.state, seat)[0]
    facts = game.decide(Command(action, seat, "seat"), rng)
    assert not isinstance(facts, Rejection) and facts
    for viewer in VIEWERS:
        assert reading.facts(game, facts, viewer) == [
            ruleset.codec.encode(ruleset.redact(f, viewer)) for f in facts
        ]
    assert reading.facts(game, [], PUBLIC) == []


def test_a_stored_digest_is_shown_to_the_omniscient_viewer_alone() -> None:
    game, _, _ = started("digests", 1)
    [created, *_] = game.collect_events()
    assert reading.present(game, created, OMNISCIENT).digest is None  # nothing stored yet
    object.__setattr__(created, "chain", "c0ffee")
    assert reading.present(game, created, OMNISCIENT).digest == "c0ffee"
    assert reading.present(game, created, OMNISCIENT).retracted is False
    for viewer in VIEWERS[1:]:
        assert reading.present(game, created, viewer).digest is None
    object.__setattr__(created, "chain", 7)
    assert reading.present(game, created, OMNISCIENT).digest is None


def test_a_hidden_draw_answers_each_viewer_as_it_may_see_it() -> None:
    game, _, _ = started("draws", 1, "dominion")
    own = {"type": "drew", "player": "p1", "cards": ("Copper", "Estate"), "count": 2}
    other = {"type": "drew", "player": "p1", "cards": (), "count": 2}
    drew = game.ruleset.codec.decode_fact(own)
    assert reading.facts(game, [drew], Viewer("seat", "p1")) == [own]
    assert reading.facts(game, [drew], Viewer("seat", "p2")) == [other]
    assert reading.facts(game, [drew], PUBLIC) == [other]
    assert reading.facts(game, [drew], OMNISCIENT) == [own]


def test_the_legal_actions_of_a_seat_list_every_answer_with_its_notation_and_meaning() -> None:
    game, _, seed = started("legal", 3)
    seat = sorted({p.seat for p in game.ruleset.pending(game.state)}, key=str)[0]
    legal = reading.legal_actions(game, seat)
    actions = game.ruleset.legal_actions(game.state, seat)
    assert legal == {
        "version": game.version,
        "seat": seat,
        "actions": [game.ruleset.codec.encode(a) for a in actions],
        "notation": [game.ruleset.format_action(a) for a in actions],
        "templates": [],
        "complete": True,
        "explanations": [reading.explained(game.ruleset, game.state, a) for a in actions],
    }
    assert actions and all(isinstance(e, str) and e for e in legal["explanations"])
    assert game.abandon("recorder", "", seed.hex(), AT) is None
    closed = reading.legal_actions(game, seat)
    assert (closed["actions"], closed["templates"], closed["complete"]) == ([], [], True)
    assert reading.prompts(game, PUBLIC) == []


def test_an_actions_client_id_is_shown_to_the_seat_that_acted_and_the_omniscient_viewer() -> None:
    game, _, _ = started("ids", 6)
    events = [e for e in game.collect_events() if isinstance(e, Game.ActionRecorded)]
    seats = {e.seq: e.seat for e in events}
    assert len(set(seats.values())) == 2  # both seats acted
    for viewer in VIEWERS:
        for event in reading.present_all(game, events, viewer):
            acted = seats[event.data["seq"]]
            own = viewer.kind == "omniscient" or viewer.seat == acted
            assert event.data["action_id"] == (f"id-{event.data['seq']}" if own else None), (viewer, acted)
            assert event.data["seat"] == acted


def test_the_first_and_the_last_event_name_the_deal_and_every_winner() -> None:
    game, _, seed = started("ends", 2)
    created = next(iter(game.collect_events()))
    assert "deal" not in reading.present(game, created, PUBLIC).data
    object.__setattr__(created, "deal", "0f0f")  # a same-deal game names its first game's deal
    assert reading.present(game, created, PUBLIC).data["deal"] == "0f0f"
    assert reading.present(game, created, PUBLIC).text == f"{game.ruleset.meta.title} (digital) for Ann, Ben."
    assert game.resign("B", "seat", "", seed.hex(), AT) is None
    _, finished = game.collect_events()
    assert isinstance(finished, Game.Finished)
    for winners, said in ((["A", "B"], "Ann and Ben won."), ([], "nobody (a draw) won.")):
        shared = with_outcome(finished, dict(finished.outcome, winners=winners))
        assert reading.present(game, shared, PUBLIC).text == f"The game is over: {said}"
    unnamed = with_outcome(finished, {})
    assert reading.present(game, unnamed, PUBLIC).text == "The game is over: nobody (a draw) won."


def with_outcome(event: Any, outcome: dict[str, Any]) -> Any:
    changed = copy.copy(event)
    object.__setattr__(changed, "outcome", outcome)
    return changed
