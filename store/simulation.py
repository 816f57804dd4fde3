"""Seeded bot games played to the end and recorded in the store: the playout behind
`chronicle simulate`, and the games the benchmarks and tests measure.

Game i of seed S is reproducible to the byte: its server seed is `sha256(f"{S}:{i}")`, its id
is derived from the same key (the game id enters every random draw, `chronicle rules records 4.1`, so a fresh
random id would change the dice), and its bot is the ruleset's `bot_choose` (its plain strategy
mixed with random legal choices) drawing from `random.Random(f"{S}:{i}")`.

Nobody reads a bot game before it ends, so each is played in memory with the rules the store
records with (`Core.start_game`, `Started.record`: the game's own `decide` and `evolve`,
its seeded generator) and stored whole, several games to a transaction (`play_all`): one
commit, not one per action. The stored events, digests included, are those recording the game
one action at a time through `Chronicle.record` gives (`play_each`, which the tests hold it
to), so the games are ordinary games in the store: `log`, `replay` and `audit --all` read them
like any other.

Several processes may play the games (store/simulation_processes.py `play_in`): the helpers
send back each game's rows stamped and mapped, and the asking process stores them in the same
order and transactions, so the store ends the same.

The figures: 30 two-player Dominion bot games simulated in 0.43 s, against 5.0 s when each
action was recorded in its own transaction (12 times as many games a second). `bench.engine`
sets simulate beside the engine alone playing the same games (`.venv/bin/python -m
bench.engine --games 50 --store-rounds 4`: rounds of 50 games, two cores otherwise idle): in
one process a ratio of 0.33 (0.29 before the inserts stopped reading their ids back and the
collector waited longer between passes; the rest is building, digesting and inserting each
event, about 17 ms of CPU a game against the engine's 6); with the default jobs, the helper
started inside each round, 0.50 to 0.52 (store/simulation_processes.py).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.game import Game
from domain.ruleset import Command, Outcome, Rejection, Ruleset, example_options
from store.collector import collector_paused
from store.core import Core
from store.errors import GameNotFound
from store.requests import RECORDER, NewGame
from store.started import Started

ACTION_CAP = 20_000  # uniformly random Province bots need about 1,000 actions a game
# Games are stored together until they hold this many events: a few Dominion games, or one
# long Province game, per commit (SQLite waits for the disk at each).
BATCH_EVENTS = 4_000


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


def new_game(ruleset_id: str, seed: str, index: int, names: list[str], options: dict[str, Any]) -> NewGame:
    """The request that creates game `index` of `seed`, its server seed fixed by the key."""
    return NewGame(
        ruleset=ruleset_id,
        players=names,
        mode="digital",
        options=options,
        tags=["simulated", f"simulation:{seed}"],
        server_seed=hashlib.sha256(game_key(seed, index).encode()).hexdigest(),
    )


def play(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    index: int,
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
) -> Played:
    """Game `index` of `seed`, played by bots in memory until it ends or `cap` actions, then
    stored in one transaction (`play_all`)."""
    (played,) = play_all(app, ruleset, seed, [index], names, options, cap)
    return played


def play_all(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    indexes: Iterable[int],
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
    batch: int = BATCH_EVENTS,
) -> Iterator[Played]:
    """Games `indexes` of `seed`, each played in memory (`played_in_memory`) and stored with
    others in one transaction once they hold `batch` events together, or at the last game;
    each game's `Played` is given once it is stored. store/simulation_processes.py `play_in`
    plays them in several processes and stores them the same.

    Nobody reads a bot game before it ends, so nothing is lost by storing it whole: its
    events, digests included, are those recording it one action at a time gives
    (`play_each`), and its secrets are stored with its first event as when a game is
    created. A game appears to live listeners when it is stored, all of it at once."""
    waiting: list[tuple[Started, Played]] = []
    events = 0
    for index in indexes:
        started, played = played_in_memory(app, ruleset, seed, index, names, options, cap)
        waiting.append((started, played))
        events += started.game.version
        if events >= batch:
            app.save_started(*(s for s, _ in waiting))
            yield from (p for _, p in waiting)
            waiting, events = [], 0
    if waiting:
        app.save_started(*(s for s, _ in waiting))
        yield from (p for _, p in waiting)


def played_in_memory(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    index: int,
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
) -> tuple[Started, Played]:
    """Game `index` of `seed`, created and played by bots with nothing stored: the game as
    `save_started` is to store it, and how its play went."""
    game_id = game_id_for(ruleset.meta.id, seed, index)
    # No options given: the ruleset's demonstration game (`any` plays its five-dice example).
    options = options or example_options(ruleset)
    started = app.start_game(
        new_game(ruleset.meta.id, seed, index, names, options), admin=True, game_id=game_id
    )

    def act(seat: str | None, choice: Any) -> str | None:
        decided = started.record(Command(choice, seat, "recorder"))
        if isinstance(decided, Rejection):
            return f"the bot's {ruleset.format_action(choice)} for seat {seat} was refused: {decided.message}"
        return None

    with collector_paused():
        return started, _bot_game(ruleset, game_key(seed, index), cap, lambda: started.game, act)


def play_each(
    app: Core,
    ruleset: Ruleset[Any, Any, Any],
    seed: str,
    index: int,
    names: list[str],
    options: dict[str, Any],
    cap: int = ACTION_CAP,
) -> Played:
    """Game `index` of `seed` as a table records it: created, then each action recorded
    through `Core.record` in its own transaction. The same game as `play` stores, event for
    event; slower, and the reference that `play` is held to."""
    game_id = game_id_for(ruleset.meta.id, seed, index)
    options = options or example_options(ruleset)
    app.create_game(new_game(ruleset.meta.id, seed, index, names, options), admin=True, game_id=game_id)

    def act(seat: str | None, choice: Any) -> str | None:
        app.record(game_id, ruleset.codec.encode(choice), RECORDER, seat=seat)
        return None

    # The bot looks at the game as this process saved it (simulated games have no other
    # writer), and `record` decides on the same copy: no store read per action.
    return _bot_game(ruleset, game_key(seed, index), cap, lambda: app.cached_game(game_id), act)


def _bot_game(
    ruleset: Ruleset[Any, Any, Any],
    key: str,
    cap: int,
    look: Callable[[], Game],
    act: Callable[[str | None, Any], str | None],
) -> Played:
    """The bot's moves until the game ends or `cap` actions: `look` gives the game as it
    stands, `act` records the bot's choice for a seat (a problem, or None)."""
    bot = random.Random(key)
    actions = 0
    while True:
        game = look()
        if game.outcome is not None:
            return Played(game.id, actions, game.outcome)
        if actions >= cap:
            return Played(game.id, actions, None, f"did not end within {cap} actions")
        # Several seats may owe an answer at once; the bot answers for one of them at random.
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        if not seats:
            return Played(
                game.id, actions, None, f"nobody is prompted at version {game.version}, yet no outcome"
            )
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(game.state, seat)
        if not legal:
            return Played(
                game.id,
                actions,
                None,
                f"seat {seat} is prompted but has no legal action at version {game.version}",
            )
        choice = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
        problem = act(seat, choice)
        if problem is not None:
            return Played(game.id, actions, None, problem)
        actions += 1
