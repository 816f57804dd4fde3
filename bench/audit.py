"""`chronicle audit --all` against the engine re-deciding the same games in memory.

Seeded bot games of 2-player base Dominion are simulated into a temporary SQLite store. Then,
game by game in turns: the audit of every game as `chronicle audit --all` runs it on a local store
(`LocalReader.game_ids`, then `LocalReader.audit` per game: read the game's events, re-decide
every action from the seed, compare each fact, recompute the hash chain), and the in-memory
replay of the same games, the baseline: the rules alone re-deciding each game's actions, read
beforehand (`setup`, then `decide` and `evolve` for each action). Prints each rate in games
per second and the ratio (aim: 0.5 or more).

    .venv/bin/python -m bench.audit [--games N] [--rounds N] [--seed S]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any
from uuid import UUID

from bench.common import ratio_line
from domain.events import ActionRecorded, GameCreated
from domain.rng import SeededRng
from domain.ruleset import Command, GameConfig, Rejection, get_ruleset
from replay_cli.local import LocalReader
from store.app import Chronicle
from store.simulation import play_all

Replay = tuple[GameConfig, bytes, list[Command]]


def replays(app: Chronicle, game_ids: list[UUID]) -> list[Replay]:
    """What the baseline re-decides: each game's configuration, seed and decoded actions."""
    found: list[Replay] = []
    for game_id in game_ids:
        events = app.stored_events(game_id)
        created = events[0]
        assert isinstance(created, GameCreated)
        ruleset = get_ruleset(created.ruleset)
        assert ruleset is not None
        config = GameConfig.from_record(str(game_id), vars(created))
        seed = bytes.fromhex(app.secrets(game_id).server_seed)
        actions = [
            Command(ruleset.codec.decode_action(e.action), e.seat, e.by)  # type: ignore[arg-type]
            for e in events
            if isinstance(e, ActionRecorded)
        ]
        found.append((config, seed, actions))
    return found


def replay_seconds(game: Replay) -> float:
    """The rules alone re-deciding one game's actions: the baseline."""
    config, seed, actions = game
    ruleset: Any = get_ruleset(config.ruleset)
    started = time.perf_counter()
    rng = SeededRng(seed, config.rng_key, config.client_seed)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, rng):
        state = ruleset.evolve(state, fact)
    for command in actions:
        facts = ruleset.decide(state, command, rng)
        assert not isinstance(facts, Rejection), facts
        for fact in facts:
            state = ruleset.evolve(state, fact)
    assert ruleset.outcome(state) is not None
    return time.perf_counter() - started


def audit_all_seconds(app: Chronicle, games: dict[str, Replay]) -> tuple[float, float]:
    """`chronicle audit --all`'s work on the local store, and the baseline's on the same games,
    each game audited then replayed in turn so that a busy machine weighs on both alike:
    seconds of each."""
    reader = LocalReader(app, None)
    audited = replayed = 0.0
    started = time.perf_counter()
    ids = reader.game_ids()
    audited += time.perf_counter() - started
    for game_id in ids:
        started = time.perf_counter()
        report = reader.audit(game_id)
        audited += time.perf_counter() - started
        assert report.clean, report
        replayed += replay_seconds(games[game_id])
    return audited, replayed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", default="bench-audit")
    args = parser.parse_args()
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    with tempfile.TemporaryDirectory() as tmp:
        app = Chronicle(f"sqlite:///{tmp}/bench.sqlite3")
        try:
            played = list(play_all(app, ruleset, args.seed, range(args.games), ["Bot 1", "Bot 2"], {}))
            assert all(p.outcome is not None for p in played)
            games = replays(app, [p.game_id for p in played])
            by_id = {str(p.game_id): game for p, game in zip(played, games, strict=True)}
            audited = replayed = 0.0
            for _round in range(args.rounds):
                seconds = audit_all_seconds(app, by_id)
                audited, replayed = audited + seconds[0], replayed + seconds[1]
        finally:
            app.close()
    actions = sum(len(actions) for _, _, actions in games)
    rounds = args.rounds
    print(f"games: {args.games} two-player bot games of base Dominion, {actions} actions, {rounds} rounds")
    total = args.games * args.rounds
    rates = (total / audited, "games/s", total / replayed, "0.5 or more")
    print(ratio_line("audit --all games per second", *rates))


if __name__ == "__main__":
    main()
