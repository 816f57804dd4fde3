"""Short seeded games of every registered ruleset, for the tests that run one path (HTTP, the
command line, a real server) once per game: what works for one game must work for each.

`plan` plays a few actions ahead on the rules alone, from a stored game's state, so a test can
enter them through the path under test; `finished_game` plays a seeded bot game to its end in
the store, as `chronicle simulate` does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.rng import NoRng, Rng
from domain.ruleset import Command, Rejection, Ruleset, all_rulesets
from store.app import Chronicle
from store.simulation import play

AnyRuleset = Ruleset[Any, Any, Any]
RULESETS = all_rulesets()
RULESET_IDS = [r.meta.id for r in RULESETS]
MODES = ("digital", "physical")
# Seeds of `finished_game` whose bot game is among the shortest of its ruleset's first few.
SHORT_SEEDS = {
    "province": "short-8",
    "dominion": "short-0",
    "dynasties": "short-6",
    "dominations": "short-0",
    "any": "short-0",
}
# Options a game needs beyond the defaults: a game of `any` is created with its title.
NEW_OPTIONS: dict[str, dict[str, Any]] = {"any": {"title": "Game night"}}


def ruleset_named(ruleset_id: str) -> AnyRuleset:
    return next(r for r in RULESETS if r.meta.id == ruleset_id)


def new_options(ruleset_id: str) -> dict[str, Any]:
    """The options a short game of the ruleset is created with."""
    return dict(NEW_OPTIONS.get(ruleset_id, {}))


def option_args(ruleset_id: str) -> list[str]:
    """`new_options` as the command line's `--option KEY=VALUE` arguments."""
    return [arg for key, value in new_options(ruleset_id).items() for arg in ("--option", f"{key}={value}")]


def players(ruleset_id: str) -> list[str]:
    """One name per seat, for the fewest players the game takes."""
    meta = ruleset_named(ruleset_id).meta
    return [f"Player {seat}" for seat in meta.seat_ids[: meta.min_players]]


@dataclass(frozen=True)
class Step:
    seat: str | None  # None: the table's (the recorder's own prompt)
    action: Any
    notation: str


def plan(app: Chronicle, game_id: UUID, count: int, seed: str, *, one_seat: bool = False) -> list[Step]:
    """Up to `count` actions from the game's current state, each legal where it is played,
    chosen by the ruleset's seeded bot. With `one_seat`, the plan stops before a state that
    prompts several seats at once (so that a recorder naming no seat is never ambiguous)."""
    game = app.game(game_id)
    ruleset: AnyRuleset = game.ruleset
    rng: Rng = NoRng()
    if game.config.mode == "digital":
        rng = app.rng_for(game.config, bytes.fromhex(app.secrets(game_id).server_seed))
    bot = random.Random(seed)
    state = game.state
    steps: list[Step] = []
    while len(steps) < count and ruleset.outcome(state) is None:
        seats = sorted({p.seat for p in ruleset.pending(state)}, key=str)
        if one_seat and len(seats) != 1:
            break
        seat = bot.choice(seats)
        action = ruleset.bot_choose(state, seat, ruleset.legal_actions(state, seat), bot.randrange)
        facts = ruleset.decide(state, Command(action, seat, "recorder"), rng)
        assert not isinstance(facts, Rejection), facts
        steps.append(Step(seat, action, ruleset.format_action(action)))
        for fact in facts:
            state = ruleset.evolve(state, fact)
    return steps


def finished_game(app: Chronicle, ruleset_id: str) -> UUID:
    """A digital bot game of the ruleset played to its end in the store (server seed fixed)."""
    played = play(app, ruleset_named(ruleset_id), SHORT_SEEDS[ruleset_id], 0, players(ruleset_id), {}, 5_000)
    assert played.outcome is not None, played.problem
    return played.game_id
