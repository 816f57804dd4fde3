"""The audit: re-decide a whole game from scratch and compare with what was stored.

A referee's question is "was every move legal, and was every roll honest?". The audit answers
both at once: it rebuilds the configuration from the first event, checks the seed against its
published commitment, re-runs `setup` and then `decide` on every recorded action with the same
rules version and the revealed seed, and compares each derived fact with the stored one.
The first divergence is reported with its version, what differed, and the rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from domain.events import ActionRecorded, ActionsRetracted, FactRecorded, GameCreated, GameFinished
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import Command, GameConfig, Rejection, get_ruleset


class Divergence(msgspec.Struct):
    version: int
    what: str
    rule: str


class AuditReport(msgspec.Struct):
    game_id: str
    clean: bool
    actions: int
    facts: int
    random_checked: bool
    divergence: Divergence | None = None
    retracted: int = 0  # of `actions`, how many a later correction undid


Step = tuple[ActionRecorded, list[FactRecorded]] | ActionsRetracted


def _group(events: Sequence[Any]) -> tuple[list[FactRecorded], list[Step]]:
    """The setup facts, then each action with its facts and each retraction, in order."""
    setup: list[FactRecorded] = []
    steps: list[Step] = []
    for event in events[1:]:
        if isinstance(event, ActionRecorded):
            steps.append((event, []))
        elif isinstance(event, FactRecorded):
            last = steps[-1] if steps else None
            (last[1] if isinstance(last, tuple) else setup).append(event)
        elif isinstance(event, ActionsRetracted):
            steps.append(event)
    return setup, steps


def audit_events(events: Iterable[Any], seed: bytes | None) -> AuditReport:
    """Audit one game's stored events. `seed` is the revealed (or, for an administrator,
    the sealed) server seed of a digital game; without it random outcomes cannot be checked
    and the audit says so."""
    stored = list(events)
    created = stored[0]
    assert isinstance(created, GameCreated)
    game_id = str(created.originator_id)
    ruleset = get_ruleset(created.ruleset)
    report = AuditReport(game_id, True, 0, 0, random_checked=created.mode != "digital" or seed is not None)

    def diverged(version: int, what: str, rule: str) -> AuditReport:
        report.clean = False
        report.divergence = Divergence(version, what, rule)
        return report

    if ruleset is None:
        return diverged(1, f"ruleset {created.ruleset!r} is not installed", "design.md 2")
    if ruleset.meta.version != created.ruleset_version:
        return diverged(
            1,
            f"recorded under {created.ruleset} version {created.ruleset_version}, installed is "
            f"{ruleset.meta.version}",
            "design.md 3",
        )
    config = GameConfig.from_record(game_id, vars(created))
    rng: Rng = NoRng()
    if created.mode == "digital":
        if seed is None:
            return diverged(
                1,
                "the seed is sealed until the game ends; random outcomes cannot be checked",
                "design.md 4.7",
            )
        if commitment(seed) != created.commitment:
            return diverged(1, "the seed does not match the published commitment", "design.md 4.1")
        rng = SeededRng(seed, game_id, created.client_seed)
    codec = ruleset.codec
    setup, steps = _group(stored)
    state = ruleset.initial(config)

    expected = [_as_stored(codec.encode(f)) for f in ruleset.setup(config, state, rng)]
    mismatch = _compare(expected, setup)
    if mismatch is not None:
        return diverged(*mismatch, ruleset.meta.spec)
    for event in setup:
        state = ruleset.evolve(state, codec.decode_fact(event.fact))
        report.facts += 1

    checkpoints: dict[int, Any] = {}
    live: list[int] = []
    for step in steps:
        if isinstance(step, ActionsRetracted):
            # A correction restores the state before its first action; it may only undo the
            # latest live actions (domain/corrections.py, rule 1).
            if not step.seqs or live[-len(step.seqs) :] != sorted(step.seqs):
                return diverged(
                    step.originator_version,
                    f"retraction of {step.seqs} is not of the latest live actions",
                    "corrections 1",
                )
            state = checkpoints[min(step.seqs)]
            del live[-len(step.seqs) :]
            report.retracted += len(step.seqs)
            continue
        action_event, facts = step
        report.actions += 1
        checkpoints[action_event.seq] = state
        live.append(action_event.seq)
        try:
            action = codec.decode_action(action_event.action)
        except msgspec.ValidationError as error:
            return diverged(
                action_event.originator_version, f"stored action cannot be read: {error}", ruleset.meta.spec
            )
        command = Command(action, action_event.seat, action_event.by)  # type: ignore[arg-type]
        decided = ruleset.decide(state, command, rng)
        if isinstance(decided, Rejection):
            return diverged(
                action_event.originator_version,
                f"action #{action_event.seq} ({ruleset.format_action(action)}) is not legal here: "
                f"{decided.code}: {decided.message}",
                decided.rule,
            )
        expected = [_as_stored(codec.encode(f)) for f in decided]
        mismatch = _compare(expected, facts, action_event.originator_version)
        if mismatch is not None:
            return diverged(*mismatch, ruleset.meta.spec)
        for event in facts:
            state = ruleset.evolve(state, codec.decode_fact(event.fact))
            report.facts += 1

    finished = [e for e in stored if isinstance(e, GameFinished)]
    outcome = ruleset.outcome(state)
    if finished:
        if outcome is None:
            return diverged(
                finished[0].originator_version,
                "the game is marked finished but the rules say it is still running",
                ruleset.meta.spec,
            )
        if _as_stored(outcome) != finished[0].outcome:
            return diverged(
                finished[0].originator_version,
                f"stored outcome {finished[0].outcome} differs from "
                f"the recomputed {msgspec.to_builtins(outcome)}",
                ruleset.meta.spec,
            )
        if created.mode == "digital" and seed is not None and finished[0].server_seed != seed.hex():
            return diverged(
                finished[0].originator_version, "the revealed seed is not the game's seed", "design.md 4.7"
            )
    elif outcome is not None:
        return diverged(
            stored[-1].originator_version,
            "the rules say the game is over but it was not closed",
            ruleset.meta.spec,
        )
    return report


def _as_stored(value: Any) -> Any:
    """`value` in the shape the store gives it back: JSON types only (a tuple reads back as
    a list), so a recomputed fact compares equal to its stored copy."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _compare(
    expected: list[dict[str, Any]], stored: list[FactRecorded], after: int = 1
) -> tuple[int, str] | None:
    for index, fact in enumerate(expected):
        if index >= len(stored):
            return (
                after if not stored else stored[-1].originator_version,
                f"a fact is missing: expected {fact}",
            )
        if stored[index].fact != fact:
            return stored[index].originator_version, f"stored {stored[index].fact}, expected {fact}"
    if len(stored) > len(expected):
        extra = stored[len(expected)]
        return extra.originator_version, f"an extra fact was stored: {extra.fact}"
    return None
