"""The README's tour of `any`: its definition file is valid, and its `chronicle record 4f1a`
lines play in order on a digital game of that definition, the last one ending the game."""

from __future__ import annotations

import hashlib
import re
import shlex
import tomllib
from pathlib import Path

from domain.games.any.definition import definition_json, parse_definition
from domain.rng import SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, get_ruleset, resolve_options

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def _definition() -> tuple[str, str]:
    """The title and the definition of the README's `game-night.toml`."""
    block = re.search(r"```toml\n(# game-night\.toml.*?)```", README, re.DOTALL)
    assert block is not None, "the README shows game-night.toml"
    data = tomllib.loads(block[1])
    parsed = parse_definition(data)
    assert not isinstance(parsed, Rejection), parsed
    return data["title"], definition_json(parsed)


def test_the_tours_any_lines_play_in_order_and_end_the_game() -> None:
    ruleset = get_ruleset("any")
    assert ruleset is not None
    title, definition = _definition()
    resolved = resolve_options(ruleset.meta, {"title": title, "definition": definition})
    assert not isinstance(resolved, Rejection), resolved
    seats = (Seat("A", "Ann"), Seat("B", "Ben"))
    config = GameConfig("readme-any", "any", "digital", seats, resolved)
    rng = SeededRng(hashlib.sha256(b"readme-any").digest(), config.game_id)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, rng):
        state = ruleset.evolve(state, fact)
    lines = [line for line in README.splitlines() if line.startswith("chronicle record 4f1a ")]
    played = 0
    for line in lines:
        for text in shlex.split(line.partition("#")[0])[3:]:
            action = ruleset.parse_notation(text, state)
            assert not isinstance(action, Rejection), f"{text}: {action}"
            facts = ruleset.decide(state, Command(action, None, "recorder"), rng)
            assert not isinstance(facts, Rejection), f"{text}: {facts}"
            for fact in facts:
                state = ruleset.evolve(state, fact)
            played += 1
    assert played == 9
    outcome = ruleset.outcome(state)
    assert outcome is not None and outcome.winners == ("A",)  # Ann's 8 beat Ben's 5
