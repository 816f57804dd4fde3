"""Dominion engine speed: seeded bot games of 2-player base Dominion per second, rules
decisions per second, and the audit time of one such game, all in one process.

Each game is set up with a seeded `SeededRng` and a random kingdom, then played to the end by
the ruleset's own bot (`bot_choose`, Big Money mixed with random legal choices), exactly as
`chronicle simulate` plays it but without the store. A "decision" is one `decide` call (with
`pending` and `legal_actions` to find it, and `evolve` for its facts). The baseline is the
same games' setups alone, to show what the rules cost on top of dealing. The audit time is
`chronicle audit` on one game recorded through the store (a temporary SQLite file): re-decide
every action from the revealed seed and compare the facts. The aim is 50 games per second.
Last, `chronicle simulate` into a temporary SQLite store (each game played in memory and stored
several to a transaction: store/simulation.py) against the engine alone playing the same games
(`play`), taken in turns: simulate's games per second beside the engine's, and their ratio
(aim: 0.5 or more), twice: in one process (`--jobs 1`), and with simulate's default jobs (one
process per core, store/simulation_processes.py). The second times what a user waits for: the
helper processes are started inside the timed part, each round, and a round is as many games
as `chronicle simulate dominion --games 50` plays (`--store-games`).
`--expansions base,empires` plays random kingdoms from both sets, with Events and Landmarks;
`--edition 2` the 2nd-edition base set.

    .venv/bin/python -m bench.engine [--games N] [--seed S] [--expansions base|base,empires] [--edition 1|2]
        [--store-rounds N] [--store-games N]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import tempfile
import time
from typing import Any

from bench.common import ratio_line
from domain.rng import SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, get_ruleset, resolve_options
from replay_cli.commands.simulate import default_jobs

AIM_GAMES_PER_SECOND = 50.0


def _config(ruleset: Any, game_id: str, expansions: str, edition: int = 1) -> GameConfig:
    options = resolve_options(ruleset.meta, {"expansions": expansions, "base_edition": edition})
    assert not isinstance(options, Rejection)
    return GameConfig(game_id, "dominion", "digital", (Seat("p1", "Bot 1"), Seat("p2", "Bot 2")), options)


def play(ruleset: Any, seed: str, index: int, expansions: str, edition: int = 1) -> tuple[int, int]:
    """One bot game; returns (decisions, facts)."""
    key = f"{seed}:{index}"
    config = _config(ruleset, f"bench-{key}", expansions, edition)
    rng = SeededRng(hashlib.sha256(key.encode()).digest(), config.game_id)
    state = ruleset.initial(config)
    setup = ruleset.setup(config, state, rng)
    for fact in setup:
        state = ruleset.evolve(state, fact)
    bot = random.Random(key)
    decisions, facts = 0, len(setup)
    while ruleset.outcome(state) is None:
        seats = sorted({p.seat for p in ruleset.pending(state)}, key=str)
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(state, seat)
        action = ruleset.bot_choose(state, seat, legal, bot.randrange)
        out = ruleset.decide(state, Command(action, seat, "recorder"), rng)
        assert not isinstance(out, Rejection), out
        for fact in out:
            state = ruleset.evolve(state, fact)
        decisions += 1
        facts += len(out)
    return decisions, facts


def setups_only(ruleset: Any, seed: str, games: int, expansions: str, edition: int = 1) -> float:
    started = time.perf_counter()
    for index in range(games):
        key = f"{seed}:{index}"
        config = _config(ruleset, f"bench-{key}", expansions, edition)
        rng = SeededRng(hashlib.sha256(key.encode()).digest(), config.game_id)
        state = ruleset.initial(config)
        for fact in ruleset.setup(config, state, rng):
            state = ruleset.evolve(state, fact)
    return time.perf_counter() - started


def audit_seconds(seed: str, expansions: str, edition: int = 1) -> tuple[float, int]:
    from store.app import ADMIN, Chronicle
    from store.audit import audit_events
    from store.simulation import game_id_for
    from store.simulation import play as simulate_one

    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    with tempfile.TemporaryDirectory() as tmp:
        app = Chronicle(f"sqlite:///{tmp}/bench.sqlite3")
        try:
            options = resolve_options(ruleset.meta, {"expansions": expansions, "base_edition": edition})
            assert not isinstance(options, Rejection)
            played = simulate_one(app, ruleset, seed, 0, ["Bot 1", "Bot 2"], options, 20_000)
            game = app.game(game_id_for(ruleset.meta.id, seed, 0))
            events = app.stored_events(game.id)
            started = time.perf_counter()
            report = audit_events(events, app.seed_for_audit(game, ADMIN))
            seconds = time.perf_counter() - started
            assert report.clean, report
            return seconds, played.actions
        finally:
            app.close()


def simulate_seconds(seed: str, games: int, expansions: str, edition: int, jobs: int) -> tuple[float, int]:
    """`chronicle simulate --jobs JOBS`'s games (store/simulation_processes.py `play_in`: played in
    memory, stored several to a transaction; with `jobs` above 1, played in that many
    processes, started here) into a temporary SQLite store: seconds and actions."""
    from store.app import Chronicle
    from store.simulation_processes import play_in, start_helpers

    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    options = resolve_options(ruleset.meta, {"expansions": expansions, "base_edition": edition})
    assert not isinstance(options, Rejection)
    with tempfile.TemporaryDirectory() as tmp:
        # as `chronicle simulate` does: the helpers started first, while no store is open
        started = time.perf_counter()
        helpers = start_helpers(jobs - 1)
        app = Chronicle(f"sqlite:///{tmp}/bench.sqlite3")
        try:
            names = ["Bot 1", "Bot 2"]
            played = list(
                play_in(jobs, app, ruleset, seed, range(games), names, options, 20_000, helpers=helpers)
            )
            seconds = time.perf_counter() - started
            assert all(p.outcome is not None for p in played), played
            return seconds, sum(p.actions for p in played)
        finally:
            app.close()


def in_memory_seconds(seed: str, games: int, expansions: str, edition: int) -> float:
    """The same games as `simulate_seconds`, played by the engine alone (`play`)."""
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    started = time.perf_counter()
    for index in range(games):
        play(ruleset, seed, index, expansions, edition)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--expansions", default="base", choices=("base", "base,empires"))
    parser.add_argument("--edition", type=int, default=1, choices=(1, 2), help="the base set's edition")
    parser.add_argument(
        "--store-rounds", type=int, default=10, help="rounds of simulate against the engine alone (10)"
    )
    parser.add_argument("--store-games", type=int, default=50, help="games simulated each round (50)")
    args = parser.parse_args()
    ruleset = get_ruleset("dominion")
    assert ruleset is not None, "the dominion ruleset is not registered"
    started = time.perf_counter()
    decisions = facts = 0
    for index in range(args.games):
        d, f = play(ruleset, args.seed, index, args.expansions, args.edition)
        decisions += d
        facts += f
    seconds = time.perf_counter() - started
    baseline = setups_only(ruleset, args.seed, args.games, args.expansions, args.edition)
    games_per_second = args.games / seconds
    sets = f"{args.expansions}, base edition {args.edition}"
    print(f"games: {args.games} two-player bot games ({sets}) in {seconds:.2f} s")
    print(
        f"games per second: {games_per_second:,.1f}; aim {AIM_GAMES_PER_SECOND:.0f}; "
        f"ratio to aim {games_per_second / AIM_GAMES_PER_SECOND:.2f}"
    )
    print(f"decisions per second: {decisions / seconds:,.0f} ({decisions} decisions, {facts} facts)")
    print(
        f"setups alone: {args.games / baseline:,.1f} per second; a whole game costs "
        f"{seconds / baseline:.1f} times its setup"
    )
    audit, actions = audit_seconds(args.seed, args.expansions, args.edition)
    print(f"audit of one game ({actions} actions) through the store: {audit * 1000:.1f} ms")
    # simulate in one process, with the default jobs, and the engine alone taken in turns, so
    # that a busy machine weighs on all alike
    ways = {1: "in one process (--jobs 1)"}
    if default_jobs() > 1:
        ways[default_jobs()] = (
            f"in {default_jobs()} processes (the default --jobs, helpers started each round)"
        )
    simulated = dict.fromkeys(ways, 0.0)
    engine = 0.0
    actions = 0
    for round_ in range(args.store_rounds):
        seed = f"{args.seed}-store-{round_}"
        for jobs in ways:
            seconds, played = simulate_seconds(seed, args.store_games, args.expansions, args.edition, jobs)
            simulated[jobs] += seconds
        actions += played
        engine += in_memory_seconds(seed, args.store_games, args.expansions, args.edition)
    games = args.store_rounds * args.store_games
    print(
        f"simulate through the store (SQLite): {args.store_rounds} rounds of {args.store_games} games, "
        f"{actions} actions; the baseline is the engine alone playing the same games in one process"
    )
    for jobs, words in ways.items():
        rates = (games / simulated[jobs], "games/s", games / engine, "0.5 or more")
        print(ratio_line(f"simulate games per second {words}", *rates))


if __name__ == "__main__":
    main()
