"""Each finding of the audit (store/audit.py) word for word, on games held in memory: the
version, the stable code, the sentence a dispute reads, and the rule it cites, plus the
counts of a clean report. tests/store/test_tampering.py edits real stored rows on both stores;
this file pins down what the audit says about each kind of break, including those a forger
of rows rarely makes (a stream that does not start with its configuration, a renumbered
action, an event after the end)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID, uuid4

import msgspec
import pytest

from domain.events import ActionRecorded, ActionsRetracted, FactRecorded, GameCreated, RetractionRequested
from domain.game import Game
from domain.rng import SeededRng, commitment
from domain.ruleset import Command, GameConfig, Rejection, Seat, get_ruleset, resolve_options
from store.app import ADMIN, ANONYMOUS, RECORDER, Chronicle, NewGame
from store.audit import AuditReport, Divergence, audit_events, audit_game
from store.errors import Forbidden, GameNotFound, SeedSealed

AT = datetime(2026, 1, 1, tzinfo=UTC)
SPEC = "province"
JSON_FIELDS = ("fact", "action", "outcome")


def played(
    mode: Literal["digital", "physical"] = "digital",
    retract_at: int | None = None,
    key: str = "findings",
    ending: Literal["rules", "resign", "abandon"] = "rules",
    client_seed: str = "",
    request_at: int | None = None,
) -> tuple[list[Any], bytes]:
    """A seeded Province game played to its end by the ruleset's bot; with `retract_at`, the
    recorder retracts the action just recorded at each multiple of that count, twice. Its
    events and seed."""
    ruleset = get_ruleset("province")
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {})
    assert not isinstance(options, Rejection)
    game_id = str(UUID(bytes=hashlib.sha256(key.encode()).digest()[:16], version=4))
    table = (Seat("A", "Ann"), Seat("B", "Ben"))
    config = GameConfig(game_id, "province", mode, table, options, client_seed=client_seed)
    seed = hashlib.sha256(key.encode()).digest()
    rng = SeededRng(seed, game_id, client_seed)
    game = Game.start(config, commitment(seed), rng, AT)
    bot = random.Random(key)
    retracted = 0
    while ruleset.outcome(game.state) is None:
        if ending != "rules" and len(game.actions) == 12:
            ended = (
                game.resign("B", "seat", "", seed.hex(), AT)
                if ending == "resign"
                else game.abandon("recorder", "the table left", seed.hex(), AT)
            )
            assert ended is None
            return [as_read_back(e) for e in game.collect_events()], seed
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        seat = bot.choice(seats)
        action = ruleset.bot_choose(game.state, seat, ruleset.legal_actions(game.state, seat), bot.randrange)
        command = Command(action, seat, "recorder")
        facts = game.decide(command, rng)
        assert not isinstance(facts, Rejection), facts
        game.record(command, facts, AT)
        if len(game.actions) == request_at:  # a seat asks to undo, and is declined
            asker = game.actions[-1].seat
            plans = (game.plan_retraction(k, "seat", asker) for k in range(1, request_at + 1))
            asked = next(p for p in plans if not isinstance(p, Rejection) and p.needs)
            assert not isinstance(asked, Rejection)
            game.request_retraction(asked, asker, "", "r1", AT)
            assert game.answer_retraction("r1", asked.needs[0], False, AT) is None
        if retract_at is not None and len(game.actions) % retract_at == 0 and retracted < 2:
            plan = game.plan_retraction(1, "recorder", None)
            assert not isinstance(plan, Rejection)
            game.retract(plan, "recorder", None, "misentered", AT)
            retracted += 1
    game.finish(seed.hex(), AT)
    return [as_read_back(e) for e in game.collect_events()], seed


def as_read_back(event: Any) -> Any:
    """`event` as the store gives it back: its JSON fields hold lists where tuples were."""
    fields = {
        k: msgspec.json.decode(msgspec.json.encode(getattr(event, k)))
        for k in JSON_FIELDS
        if hasattr(event, k)
    }
    return dataclasses.replace(event, **fields)


@pytest.fixture(scope="module")
def game() -> tuple[list[Any], bytes]:
    return played()


def renumbered(events: list[Any]) -> list[Any]:
    return [dataclasses.replace(e, originator_version=i + 1) for i, e in enumerate(events)]


def found(report: AuditReport) -> Divergence:
    assert report.clean is False and report.divergence is not None
    return report.divergence


def test_a_clean_game_counts_its_actions_facts_and_checked_dice(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    report = audit_events(events, None)
    assert report.clean and report.divergence is None
    assert report.game_id == str(events[0].originator_id)
    assert report.actions == sum(isinstance(e, ActionRecorded) for e in events)
    assert report.facts == sum(isinstance(e, FactRecorded) for e in events)
    assert report.random_checked and report.retracted == 0
    assert report.chain is not None and report.chain.intact and report.chain.events == len(events)


def test_retracted_actions_are_counted_and_their_game_stays_clean() -> None:
    events, _ = played(retract_at=3, key="retracted")
    report = audit_events(events, None)
    assert report.clean and report.retracted == 2
    assert report.actions == sum(isinstance(e, ActionRecorded) for e in events)


def test_a_physical_game_needs_no_seed_to_be_checked() -> None:
    events, _ = played("physical", key="physical")
    report = audit_events(events, None)
    assert report.clean and report.random_checked


def test_an_empty_stream_does_not_start_with_its_configuration() -> None:
    report = audit_events([], None)
    assert report.game_id == "" and report.chain is None
    assert found(report) == Divergence(
        1, "the stream does not start with its configuration", "records 3", "stream_start"
    )


def test_a_stream_starting_elsewhere_does_not_start_with_its_configuration(
    game: tuple[list[Any], bytes],
) -> None:
    events, _ = game
    report = audit_events(renumbered(events[1:]), None)
    assert report.game_id == str(events[0].originator_id)
    assert found(report) == Divergence(
        1, "the stream does not start with its configuration", "records 3", "stream_start"
    )


def test_a_missing_version_is_a_gap(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    report = audit_events(events[:4] + events[5:], None)
    assert found(report) == Divergence(
        5, "the event at position 5 carries version 6", "records 3", "version_gap"
    )


def test_an_unknown_ruleset_or_another_version_of_it_is_named(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    unknown = [dataclasses.replace(events[0], ruleset="chess"), *events[1:]]
    assert found(audit_events(unknown, None)) == Divergence(
        1, "ruleset 'chess' is not installed", "records 2", "ruleset_unknown"
    )
    installed = events[0].ruleset_version
    older = [dataclasses.replace(events[0], ruleset_version="0"), *events[1:]]
    assert found(audit_events(older, None)) == Divergence(
        1,
        f"recorded under province version 0, installed is {installed}",
        "records 3",
        "ruleset_version",
    )


def test_a_running_digital_game_without_its_seed_cannot_have_its_dice_checked(
    game: tuple[list[Any], bytes],
) -> None:
    events, seed = game
    running = events[:-1]
    report = audit_events(running, None)
    assert report.random_checked is False
    assert found(report) == Divergence(
        1,
        "the seed is sealed until the game ends; random outcomes cannot be checked",
        "records 4.7",
        "seed_sealed",
    )
    # the administrator's sealed seed opens it: the game ended by the rules but was not closed
    sealed = audit_events(running, seed)
    assert sealed.random_checked
    assert found(sealed) == Divergence(
        len(events), "the rules say the game is over here but it was not closed", SPEC, "finish_missing"
    )


def test_a_seed_that_does_not_match_the_commitment_is_refused(game: tuple[list[Any], bytes]) -> None:
    events, seed = game
    other = bytes(32).hex()
    finished = dataclasses.replace(events[-1], server_seed=other)
    report = audit_events([*events[:-1], finished], None)
    assert found(report) == Divergence(
        len(events),
        "the revealed seed does not match the published commitment",
        "records 4.1",
        "seed_not_committed",
    )
    # the caller's own seed matches: the game is re-decided, and the revealed seed still lies
    assert found(audit_events([*events[:-1], finished], seed)).code == "seed_not_committed"
    assert audit_events([*events[:-1], finished], seed).random_checked
    mismatched = audit_events(events[:-1], bytes(32))
    assert found(mismatched) == Divergence(
        1, "the seed does not match the published commitment", "records 4.1", "seed_not_committed"
    )
    assert mismatched.random_checked is False  # a seed that is not the committed one checks nothing


def test_an_event_after_the_end_is_refused(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    extra = dataclasses.replace(events[-2], originator_version=len(events) + 1)
    assert found(audit_events([*events, extra], None)) == Divergence(
        len(events) + 1,
        "a FactRecorded after the game was closed; a finished record never changes",
        "records 3",
        "after_finish",
    )


def test_the_finish_missing_and_an_edited_outcome_are_named(game: tuple[list[Any], bytes]) -> None:
    events, seed = game
    assert found(audit_events(events[:-1], seed)).version == len(events)
    finished = events[-1]
    edited = dict(finished.outcome, winners=["nobody"])
    report = audit_events([*events[:-1], dataclasses.replace(finished, outcome=edited)], None)
    divergence = found(report)
    assert (divergence.version, divergence.code, divergence.rule) == (len(events), "outcome_differs", SPEC)
    assert divergence.what.startswith(f"stored outcome {edited} differs from the recomputed {{")


def test_a_finish_before_the_rules_end_the_game_is_early(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    first_action = next(i for i, e in enumerate(events) if isinstance(e, ActionRecorded))
    early = [*events[:first_action], dataclasses.replace(events[-1], originator_version=first_action + 1)]
    assert found(audit_events(early, None)) == Divergence(
        first_action + 1,
        "the game is marked finished but the rules say it is still running",
        SPEC,
        "finish_early",
    )


def test_a_renumbered_action_is_named(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    index = next(i for i, e in enumerate(events) if isinstance(e, ActionRecorded))
    tampered = list(events)
    tampered[index] = dataclasses.replace(events[index], seq=2)
    assert found(audit_events(tampered, None)) == Divergence(
        index + 1, "action #2 is the 1th action recorded", "records 3", "action_number"
    )


def test_a_created_event_alone_is_a_game_whose_setup_is_missing() -> None:
    events, _ = played("physical", key="setup")
    assert isinstance(events[0], GameCreated) and isinstance(events[1], FactRecorded)
    divergence = found(audit_events(events[:1], None))
    assert (divergence.version, divergence.code, divergence.rule) == (2, "fact_missing", SPEC)
    assert divergence.what == f"a fact is missing: expected {events[1].fact}"


def test_a_resigned_game_closes_with_the_resignations_outcome() -> None:
    events, seed = played(key="resigned", ending="resign")
    assert audit_events(events, None).clean
    resigned, finished = events[-2], events[-1]
    strange = [*events[:-2], dataclasses.replace(resigned, seat="Z"), finished]
    assert found(audit_events(strange, None)) == Divergence(
        len(events) - 1, "seat 'Z' resigned but has no seat", SPEC, "unreadable"
    )
    edited = dict(finished.outcome, winners=["B"])
    divergence = found(audit_events([*events[:-1], dataclasses.replace(finished, outcome=edited)], None))
    assert (divergence.version, divergence.code) == (len(events), "outcome_differs")
    assert found(audit_events(events[:-1], seed)) == Divergence(
        len(events), "the rules say the game is over here but it was not closed", SPEC, "finish_missing"
    )


def test_an_abandoned_game_is_clean_and_nothing_may_follow_it() -> None:
    events, _ = played(key="abandoned", ending="abandon")
    report = audit_events(events, None)
    assert report.clean and report.random_checked and report.actions == 12
    extra = dataclasses.replace(events[-2], originator_version=len(events) + 1)
    assert found(audit_events([*events, extra], None)) == Divergence(
        len(events) + 1,
        "a FactRecorded after the game was closed; a finished record never changes",
        "records 3",
        "after_finish",
    )


def test_who_may_audit_a_stored_game_and_with_which_seed(app: Chronicle) -> None:
    missing = uuid4()
    with pytest.raises(GameNotFound, match=f"^There is no game {missing}.$"):
        audit_game(app, missing, ADMIN)
    digital = UUID(app.create_game(NewGame("province", ["Ann", "Ben"]), admin=True).game_id)
    physical = UUID(app.create_game(NewGame("province", ["Ann", "Ben"], mode="physical"), admin=True).game_id)

    with pytest.raises(
        SeedSealed, match=r"^The seed stays sealed until the game ends; the audit opens then\.$"
    ):
        audit_game(app, digital, RECORDER)
    with pytest.raises(
        Forbidden, match=r"^The audit opens when the game ends \(or to the administrator\)\.$"
    ) as refused:
        audit_game(app, physical, ANONYMOUS)
    assert refused.value.code == "game_running"
    # the administrator audits a running digital game with its sealed seed, a physical one without
    sealed = audit_game(app, digital, ADMIN)
    assert sealed.clean and sealed.random_checked and sealed.game_id == str(digital)
    assert audit_game(app, physical, ADMIN).clean


def test_the_table_seed_is_part_of_every_draw() -> None:
    events, seed = played(key="with a table seed", client_seed="the table's own words")
    assert audit_events(events, None).clean
    assert found(audit_events(events[:-1], seed)).code == "finish_missing"  # re-decided to its end


def test_a_revealed_seed_that_is_not_hexadecimal_is_not_the_committed_one(
    game: tuple[list[Any], bytes],
) -> None:
    events, _ = game
    garbled = [*events[:-1], dataclasses.replace(events[-1], server_seed="not hex")]
    assert found(audit_events(garbled, None)) == Divergence(
        len(events),
        "the revealed seed does not match the published commitment",
        "records 4.1",
        "seed_not_committed",
    )


def test_an_action_the_rules_cannot_read_is_named(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    index = next(i for i, e in enumerate(events) if isinstance(e, ActionRecorded))
    tampered = list(events)
    tampered[index] = dataclasses.replace(events[index], action={"kind": "castle_the_king"})
    divergence = found(audit_events(tampered, None))
    assert (divergence.version, divergence.code, divergence.rule) == (index + 1, "action_unreadable", SPEC)
    assert divergence.what.startswith("stored action cannot be read: ")


def test_a_declined_request_changes_nothing_and_the_walk_goes_on() -> None:
    events, _ = played(key="declined", request_at=10)
    assert any(isinstance(e, RetractionRequested) for e in events)
    report = audit_events(events, None)
    assert report.clean and report.retracted == 0
    assert report.actions == sum(isinstance(e, ActionRecorded) for e in events)


def test_a_fact_outside_any_action_or_an_unexpected_event_is_named() -> None:
    events, _ = played(retract_at=3, key="outside")
    index = next(i for i, e in enumerate(events) if isinstance(e, ActionsRetracted))
    stray = events[index - 1]
    assert isinstance(stray, FactRecorded)
    inserted = renumbered([*events[: index + 1], stray, *events[index + 1 :]])
    assert found(audit_events(inserted, None)) == Divergence(
        index + 2, f"a fact outside any action: {stray.fact}", SPEC, "fact_extra"
    )
    again = renumbered([*events[: index + 1], events[0], *events[index + 1 :]])
    assert found(audit_events(again, None)) == Divergence(
        index + 2, "an unexpected Created", "records 3", "unreadable"
    )


def test_facts_out_of_order_or_one_too_many_are_named_with_the_facts(game: tuple[list[Any], bytes]) -> None:
    events, _ = game
    # the first action followed by at least two facts
    start = next(
        i
        for i, e in enumerate(events)
        if isinstance(e, ActionRecorded) and all(isinstance(f, FactRecorded) for f in events[i + 1 : i + 3])
    )
    first, second = events[start + 1], events[start + 2]
    assert first.fact != second.fact
    swapped = renumbered([*events[: start + 1], second, first, *events[start + 3 :]])
    assert found(audit_events(swapped, None)) == Divergence(
        start + 2, f"facts out of order: stored {second.fact} before {first.fact}", SPEC, "fact_order"
    )
    doubled = renumbered([*events[: start + 1], second, *events[start + 1 :]])
    assert found(audit_events(doubled, None)) == Divergence(
        start + 2, f"an extra fact was stored: {second.fact}", SPEC, "fact_extra"
    )


def test_a_stream_whose_chain_cannot_be_computed_is_broken_from_its_first_version(
    game: tuple[list[Any], bytes],
) -> None:
    events, _ = game
    index = next(i for i, e in enumerate(events) if isinstance(e, FactRecorded) and i > 3)
    unwritable = list(events)
    unwritable[index] = dataclasses.replace(events[index], fact={"type": "x", "value": {1, 2}})
    report = audit_events(unwritable, None)
    divergence = found(report)
    assert (divergence.version, divergence.code, divergence.rule) == (1, "chain_broken", "records 3.1")
    assert divergence.what.startswith("unreadable: ")
    assert report.chain is not None and not report.chain.intact and report.chain.events == len(events)


def test_a_configuration_that_cannot_be_read_is_named() -> None:
    events, _ = played("physical", key="configuration")
    nameless = [dataclasses.replace(events[0], seats=[{"id": "A"}]), *events[1:]]
    assert found(audit_events(nameless, None)) == Divergence(
        1, "the configuration cannot be read: KeyError('name')", "records 3", "unreadable"
    )
