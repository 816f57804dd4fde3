"""Golden logs: one seeded digital game per ruleset, played to its end by the ruleset's own bot
(as `chronicle simulate` plays one), its whole stream written out as text, one line per event,
as the omniscient viewer would see it (no redaction): the human line and the stored JSON of
each action and fact. A rules change that alters any game shows up here as a diff.

The logs live in tests/golden/. After an intended change, regenerate them and review the diff:

    CHRONICLE_GOLDEN=regenerate .venv/bin/python -m pytest tests/contract/test_golden_logs.py
    git diff tests/golden/
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from uuid import UUID

import pytest

from domain import reading
from domain.game import Game
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import (
    OMNISCIENT,
    PUBLIC,
    Command,
    GameConfig,
    Rejection,
    Ruleset,
    Seat,
    Viewer,
    all_rulesets,
    resolve_options,
)
from tests.contract.twins import ANY_DEFINITIONS

AnyRuleset = Ruleset[Any, Any, Any]
# `any` with a deck, so that its logs as read show what a draw hides.
GOLDEN_OPTIONS = {"any": ANY_DEFINITIONS["card-deck"]}
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REGENERATE = os.environ.get("CHRONICLE_GOLDEN") == "regenerate"
AT = datetime(2026, 1, 1, tzinfo=UTC)
CAP = 5_000


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def golden_game(
    ruleset: AnyRuleset, mode: Literal["digital", "physical"] = "digital"
) -> tuple[GameConfig, list[Any], Game]:
    """The seeded game of `ruleset` and its stream, on the `Game` aggregate the store saves. A
    physical one has the recorder enter each random outcome, chosen by the bot's generator."""
    key = f"golden {ruleset.meta.id} 0" if mode == "digital" else f"golden {ruleset.meta.id} physical"
    meta = ruleset.meta
    options = resolve_options(meta, GOLDEN_OPTIONS.get(meta.id, {}))
    assert not isinstance(options, Rejection)
    game_id = str(UUID(bytes=hashlib.sha256(key.encode()).digest()[:16], version=4))
    seats = tuple(Seat(s, f"Bot {s}") for s in meta.seat_ids[: meta.min_players])
    config = GameConfig(game_id, meta.id, mode, seats, options)
    seed = hashlib.sha256(key.encode()).digest() if mode == "digital" else b""
    rng: Rng = SeededRng(seed, game_id) if mode == "digital" else NoRng()
    game = Game.start(config, commitment(seed) if seed else "", rng, AT)
    bot = random.Random(key)
    for _ in range(CAP):
        if ruleset.outcome(game.state) is not None:
            game.finish(seed.hex(), AT)
            return config, list(game.collect_events()), game
        seats_due = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        seat = seats_due[0] if len(seats_due) == 1 else bot.choice(seats_due)
        if seat is None and mode == "physical":  # the recorder enters what the table drew or rolled
            legal = ruleset.legal_actions(game.state, None)
            command = Command(legal[bot.randrange(len(legal))], None, "recorder")
            facts = game.decide(command, rng)
            assert not isinstance(facts, Rejection), facts
            game.record(command, facts, AT)
            continue
        action = ruleset.bot_choose(game.state, seat, ruleset.legal_actions(game.state, seat), bot.randrange)
        command = Command(action, seat, "recorder")
        facts = game.decide(command, rng)
        assert not isinstance(facts, Rejection), facts
        game.record(command, facts, AT)
    raise AssertionError(f"the golden {meta.id} game did not end within {CAP} actions")


def log_lines(ruleset: AnyRuleset, config: GameConfig, events: list[Any]) -> list[str]:
    codec = ruleset.codec
    lines = []
    for event in events:
        version = f"{event.originator_version:>5}"
        if isinstance(event, Game.Created):
            seats = " ".join(f"{s['id']}={s['name']}" for s in event.seats)
            lines.append(f"{version} created {event.ruleset} v{event.ruleset_version} {event.mode} {seats}")
            lines.append(f"{version}   options {_json(event.options)}")
            lines.append(f"{version}   commitment {event.commitment} ({event.rng_algorithm})")
        elif isinstance(event, Game.ActionRecorded):
            action = ruleset.format_action(codec.decode_action(event.action))
            who = event.seat if event.seat is not None else "table"
            lines.append(f"{version} action #{event.seq} {who}: {action}  {_json(event.action)}")
        elif isinstance(event, Game.FactRecorded):
            text = ruleset.describe(codec.decode_fact(event.fact), config)
            lines.append(f"{version} fact {text}  {_json(event.fact)}")
        elif isinstance(event, Game.Finished):
            lines.append(f"{version} finished {_json(event.outcome)}")
            lines.append(f"{version}   seed {event.server_seed}")
        else:
            raise AssertionError(f"a golden game has no {type(event).__name__}")
    return lines


@pytest.mark.parametrize("ruleset", all_rulesets(), ids=lambda r: r.meta.id)
def test_the_seeded_game_of_each_ruleset_replays_exactly_as_its_golden_log(ruleset: AnyRuleset) -> None:
    config, events, _ = golden_game(ruleset)
    compare(GOLDEN / f"{ruleset.meta.id}.log", log_lines(ruleset, config, events), ruleset.meta.id)


def viewer_lines(game: Game, events: list[Any], viewer: Viewer) -> list[str]:
    """The stream as `viewer` reads it through the one redaction (domain/reading.py): each
    event's text line and data, and before each action the prompts as `viewer` sees them."""
    undone = game.retracted_versions()
    lines = []
    for event in events:
        version = f"{event.originator_version:>5}"
        if isinstance(event, Game.ActionRecorded):
            before = game.checkpoints[event.seq]
            asked = reading.prompts_of(game.ruleset, before, viewer)
            seen = hashlib.sha256(_json(game.ruleset.view(before, viewer)).encode()).hexdigest()[:16]
            lines.append(f"{version} state {seen} prompts {_json(asked)}")
        shown = reading.present(game, event, viewer, event.originator_version in undone)
        assert (shown.version, shown.at) == (event.originator_version, event.timestamp.isoformat())
        lines.append(f"{version} {shown.type} {shown.text}  {_json(shown.data)}")
    lines.append(f"  end state {_json(reading.state(game, viewer))}")
    return lines


# A physical Province table has no secret of one viewer (the goals still face down are unknown
# to everyone, the recorder included): its log as read would be the omniscient one again.
READ_GAMES = [
    pytest.param(r, mode, id=f"{r.meta.id}-{mode}")
    for r in all_rulesets()
    for mode in ("digital", "physical")
    if not (mode == "physical" and r.meta.id == "province")
]


@pytest.mark.parametrize(("ruleset", "mode"), READ_GAMES)
@pytest.mark.parametrize("who", ["public", "first-seat"])
def test_the_seeded_game_reads_for_the_public_and_a_seat_exactly_as_its_golden_log(
    ruleset: AnyRuleset, who: str, mode: Literal["digital", "physical"]
) -> None:
    """What the public and one seat are shown of the golden game, digital and physical, every
    line: a change to what a viewer may see shows up as a diff to review, never silently."""
    config, events, game = golden_game(ruleset, mode)
    viewer = PUBLIC if who == "public" else Viewer("seat", config.seats[0].id)
    name = f"{ruleset.meta.id}.{who}.log" if mode == "digital" else f"{ruleset.meta.id}.physical.{who}.log"
    compare(GOLDEN / name, viewer_lines(game, events, viewer), ruleset.meta.id)


def state_lines(game: Game, events: list[Any], viewer: Viewer) -> list[str]:
    """A digest of the state as `viewer` sees it before each action, and the final state."""
    lines = []
    for event in events:
        if isinstance(event, Game.ActionRecorded):
            seen = _json(game.ruleset.view(game.checkpoints[event.seq], viewer))
            lines.append(
                f"{event.originator_version:>5} state {hashlib.sha256(seen.encode()).hexdigest()[:16]}"
            )
    lines.append(f"  end state {_json(reading.state(game, viewer))}")
    return lines


@pytest.mark.parametrize(("ruleset", "mode"), READ_GAMES)
def test_the_seeded_game_reads_for_the_omniscient_viewer_exactly_as_its_golden_states(
    ruleset: AnyRuleset, mode: Literal["digital", "physical"]
) -> None:
    """What the recorder and the audit see of the state at every action (the order of every
    pile included), as digests: the stored facts are the omniscient log already."""
    _, events, game = golden_game(ruleset, mode)
    name = (
        f"{ruleset.meta.id}.omniscient.log"
        if mode == "digital"
        else f"{ruleset.meta.id}.physical.omniscient.log"
    )
    compare(GOLDEN / name, state_lines(game, events, OMNISCIENT), ruleset.meta.id)


def compare(path: Path, lines: list[str], ruleset_id: str) -> None:
    text = "\n".join(lines) + "\n"
    if REGENERATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden log {path}: regenerate with CHRONICLE_GOLDEN=regenerate"
    stored = path.read_text(encoding="utf-8")
    if stored != text:
        diff = difflib.unified_diff(
            stored.splitlines(), text.splitlines(), str(path), "this run", n=1, lineterm=""
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"the {ruleset_id} game no longer replays as {path.name} "
            f"(after an intended change: CHRONICLE_GOLDEN=regenerate, then review git diff):\n{shown}"
        )
