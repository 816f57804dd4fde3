"""Seeded bot games played to the end and recorded in the store: the playout behind
`chronicle simulate`, and the games the benchmarks and tests measure.

Game i of seed S is reproducible to the byte: its server seed is `sha256(f"{S}:{i}")`, its id
is derived from the same key (the game id enters every random draw, `chronicle rules records 4.1`, so a fresh
random id would change the dice), and its bot is the ruleset's `bot_choose` (its plain strategy
mixed with random legal choices) drawing from `random.Random(f"{S}:{i}")`.

Every action goes through the recorder's `Chronicle.record`, so the games are ordinary games
in the store: `log`, `replay` and `audit --all` read them like any other.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.ruleset import Outcome, Ruleset, example_options
from store.core import Core
from store.errors import GameNotFound
from store.requests import RECORDER, NewGame

ACTION_CAP = 20_000  # uniformly random Province bots need about 1,000 actions a game


@dataclass(frozen=True)
class Played:
    game_id: UUID
    actions: int
    outcome: Outcome | None
    problem: str | None = None


def game_key(seed: str, index: int) -> str:
    return f"{seed}:{index}"


def game_id_for(ruleset_id: str, seed: str, index: int) -> UUID:
    # The ruleset is part of the id, so one seed can simulate every game into one store.
    digest = hashlib.sha256(f"chronicle simulate {ruleset_id}:{game_key(seed, index)}".encode()).digest()
    return UUID(bytes=digest[:16], version=4)


def already_simulated(app: Core, ruleset_id: str, seed: str, games: int) -> UUID | None:
    """The first of games 0..games-1 of this seed already in the store, if any: running the
    same seed twice into one store would collide with those games."""
    for index in range(games):
        game_id = game_id_for(ruleset_id, seed, index)
        try:
            app.game(game_id)
        except GameNotFound:
            continue
        return game_id
    return None


def play(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    index: int,
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
) -> Played:
    """Game `index` of `seed`, created and played by bots until it ends or `cap` actions."""
    key = game_key(seed, index)
    game_id = game_id_for(ruleset.meta.id, seed, index)
    # No options given: the ruleset's demonstration game (`any` plays its five-dice example).
    options = options or example_options(ruleset)
    new = NewGame(
        ruleset=ruleset.meta.id,
        players=names,
        mode="digital",
        options=options,
        tags=["simulated", f"simulation:{seed}"],
        server_seed=hashlib.sha256(key.encode()).hexdigest(),
    )
    app.create_game(new, admin=True, game_id=game_id)
    bot = random.Random(key)
    actions = 0
    while True:
        # The bot looks at the game as this process saved it (simulated games have no other
        # writer), and `record` decides on the same copy: no store read per action.
        game = app.cached_game(game_id)
        if game.outcome is not None:
            return Played(game_id, actions, game.outcome)
        if actions >= cap:
            return Played(game_id, actions, None, f"did not end within {cap} actions")
        # Several seats may owe an answer at once; the bot answers for one of them at random.
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        if not seats:
            return Played(
                game_id, actions, None, f"nobody is prompted at version {game.version}, yet no outcome"
            )
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(game.state, seat)
        if not legal:
            return Played(
                game_id,
                actions,
                None,
                f"seat {seat} is prompted but has no legal action at version {game.version}",
            )
        choice = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
        app.record(game_id, ruleset.codec.encode(choice), RECORDER, seat=seat)
        actions += 1
