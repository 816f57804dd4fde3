"""Every notation example in README.md is run: each example of the games table is accepted by
its ruleset at some point of a seeded game at the table, and the tour's `chronicle record`
lines are played in order, the one the README shows refused refused with that code.

A game reaches each example by its bot's choices, steered towards the actions named in
`STEER` where the example needs a particular card in play (a physical table enters what it
drew, so the driver may choose which land tile was dealt).
"""

from __future__ import annotations

import hashlib
import random
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import Actor, Command, GameConfig, Rejection, Seat, get_ruleset, resolve_options
from tests.contract.twins import ANY_DEFINITIONS

README = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")

# ruleset -> the tables that play it: (mode, options, actions to prefer when legal)
SCENARIOS: dict[str, list[tuple[str, dict[str, Any], tuple[str, ...]]]] = {
    "province": [("digital", {}, ())],
    "dominion": [
        ("digital", {"kingdom": "first_game"}, ()),
        ("digital", {"expansions": "base,empires", "kingdom": "basic_intro"}, ()),
    ],
    "dynasties": [("physical", {}, ())],
    "dominations": [("physical", {}, ("draw L002", "place L002 D(0,0) 0 TRA:2,SCI:2"))],
    "any": [("digital", ANY_DEFINITIONS["five-dice"], ()), ("digital", {"title": "Game night"}, ())],
}
STEPS = 1500
GAMES = 4  # seeded games per scenario, until every example was accepted


def examples(ruleset: str) -> list[str]:
    row = next(line for line in README.splitlines() if line.startswith(f"| `{ruleset}` |"))
    return re.findall(r"`([^`]+)`", row.rsplit("|", 2)[1])


def accepted_somewhere(ruleset_id: str, wanted: list[str]) -> set[str]:
    """The examples of `wanted` that the rules accept in some state of the scenarios' games."""
    ruleset = get_ruleset(ruleset_id)
    assert ruleset is not None
    found: set[str] = set()
    plays = [(s, g) for s in enumerate(SCENARIOS[ruleset_id]) for g in range(GAMES)]
    for (index, (mode, options, steer)), game in plays:
        if found >= set(wanted):
            break
        resolved = resolve_options(ruleset.meta, options)
        assert not isinstance(resolved, Rejection), resolved
        seats = tuple(Seat(s, s) for s in ruleset.meta.seat_ids[: ruleset.meta.min_players])
        config = GameConfig(f"readme-{ruleset_id}-{index}-{game}", ruleset_id, mode, seats, resolved)  # type: ignore[arg-type]
        seed = hashlib.sha256(config.game_id.encode()).digest()
        rng: Rng = SeededRng(seed, config.game_id) if mode == "digital" else NoRng()
        state = ruleset.initial(config)
        for fact in ruleset.setup(config, state, rng):
            state = ruleset.evolve(state, fact)
        bot = random.Random(f"{index}-{game}")
        for _ in range(STEPS):
            if ruleset.outcome(state) is not None or found >= set(wanted):
                break
            prompts = ruleset.pending(state)
            for text in set(wanted) - found:
                action = ruleset.parse_notation(text, state)
                if isinstance(action, Rejection):
                    continue
                for seat in {p.seat for p in prompts}:
                    by: Actor = "seat" if seat is not None else "recorder"
                    if not isinstance(ruleset.decide(state, Command(action, seat, by), rng), Rejection):
                        found.add(text)
            seat = prompts[0].seat
            legal = ruleset.legal_actions(state, seat)
            preferred = [a for a in legal if ruleset.format_action(a) in steer]
            action = preferred[0] if preferred else ruleset.bot_choose(state, seat, legal, bot.randrange)
            by = "seat" if seat is not None else "recorder"
            facts = ruleset.decide(state, Command(action, seat, by), rng)
            assert not isinstance(facts, Rejection), facts
            for fact in facts:
                state = ruleset.evolve(state, fact)
    return found


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_every_notation_example_of_the_games_table_is_accepted_at_the_table(ruleset: str) -> None:
    wanted = examples(ruleset)
    assert len(wanted) >= 3
    missing = set(wanted) - accepted_somewhere(ruleset, wanted)
    assert not missing, f"README examples of {ruleset} never accepted: {sorted(missing)}"


def test_the_tours_record_lines_play_in_order_and_the_refused_one_is_refused() -> None:
    ruleset = get_ruleset("province")
    assert ruleset is not None
    config = GameConfig("readme-tour", "province", "physical", (Seat("A", "Ann"), Seat("B", "Ben")), {})
    resolved = resolve_options(ruleset.meta, {})
    assert not isinstance(resolved, Rejection)
    config = GameConfig(config.game_id, "province", "physical", config.seats, resolved)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, NoRng()):
        state = ruleset.evolve(state, fact)
    lines = [line for line in README.splitlines() if line.startswith("chronicle record 75c6 ")]
    played = refused = 0
    for line in lines:
        command, _, comment = line.partition("#")
        words = shlex.split(command)[3:]
        if not words or words[0] in ("undo", "?"):
            continue
        for text in words:
            action = ruleset.parse_notation(text, state)
            assert not isinstance(action, Rejection), f"{text}: {action}"
            facts = ruleset.decide(state, Command(action, None, "recorder"), NoRng())
            if "refused" in comment:
                assert isinstance(facts, Rejection) and f"({facts.code})" in comment, (text, facts)
                refused += 1
                continue
            assert not isinstance(facts, Rejection), f"{text}: {facts}"
            for fact in facts:
                state = ruleset.evolve(state, fact)
            played += 1
    assert (played, refused) == (7, 2)


def test_the_tour_never_ends_a_game_twice() -> None:
    """A game ends once: the tour's game, once resigned, is neither abandoned nor resigned again."""
    ending = [
        line.split()[1] for line in README.splitlines() if re.match(r"chronicle (resign|abandon) 75c6 ", line)
    ]
    assert len(ending) <= 1, ending
