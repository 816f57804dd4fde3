"""`chronicle audit --all` against the engine re-deciding the same games in memory.

Seeded bot games of 2-player base Dominion are simulated into a temporary SQLite store. Then,
in each round:

- one process, game by game in turns: the audit of every game as `chronicle audit --all
  --jobs 1` runs it on a local store (the store opened, `LocalReader.game_ids`, then
  `LocalReader.audit` per game: read the game's rows, re-decide every action from the seed,
  compare each fact, recompute the hash chain), and the in-memory replay of the same game,
  the baseline: the rules alone re-deciding its actions, read beforehand (`setup`, then
  `decide` and `evolve` for each action);
- with the default jobs (one worker process a core, `--jobs N` to choose): the whole of
  `audit --all` as the command runs it, from opening the store to the last worker gone, the
  workers' start-up included, then the baseline over the same games.

Prints each rate in games per second beside its baseline, and their ratio (aim: 0.5 or
more). On a quiet 2-core machine, `.venv/bin/python -m bench.audit`, two runs: one process
0.34 and 0.32 (111.9 games/s against 331.7 and 348.6), two worker processes 0.56 and 0.57
(194.4 and 195.4 games/s against 344.9 and 345.6). Ten runs on the 2-core machine while
other work kept it loaded (load average 5 to 8): one process 0.28 to 0.32, against 0.23 to
0.29 for the audit before each row was read once
(this bench's one-process part run on it); two worker processes 0.14 to 0.38. The kernel
shares the CPU between sessions (autogroup) before processes, so while other sessions kept
the machine busy the two workers together got no more CPU than one process (their games
took three times their CPU time; two plain CPU loops in two processes did no more work a
second than one loop alone), and each game cost a fifth more CPU in a worker (pages copied
on first touch after the fork): the workers' figure means something only on a machine with
its cores free. Counted in instructions instead (valgrind's callgrind, 30 games), which a
busy machine does not change: the audit 2,542 million before, 1,728 million now, the rules
alone 534 million (a ratio of 0.21 before, 0.31 now).

    .venv/bin/python -m bench.audit [--games N] [--rounds N] [--seed S] [--jobs N]
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


def one_process_seconds(url: str, games: dict[str, Replay]) -> tuple[float, float]:
    """`chronicle audit --all --jobs 1` on the local store (the store opened, its games listed,
    each game audited), and the baseline on the same games, each game audited then replayed
    in turn so that a busy machine weighs on both alike: seconds of each."""
    audited = replayed = 0.0
    started = time.perf_counter()
    reader = LocalReader(Chronicle(url), None)  # as the command opens it: no secret read yet
    ids = reader.game_ids()
    audited += time.perf_counter() - started
    for game_id in ids:
        started = time.perf_counter()
        report = reader.audit(game_id)
        audited += time.perf_counter() - started
        assert report.clean, report
        replayed += replay_seconds(games[game_id])
    started = time.perf_counter()
    reader.close()
    audited += time.perf_counter() - started
    return audited, replayed


def jobs_seconds(url: str, games: dict[str, Replay], jobs: int) -> tuple[float, float]:
    """`chronicle audit --all --jobs N` on the local store, from opening the store to the last
    worker gone (their start-up included), then the baseline on the same games: seconds of
    each."""
    from replay_cli.commands.audit import outcomes

    started = time.perf_counter()
    reader = LocalReader(Chronicle(url), None)
    ids = reader.game_ids()
    found = list(outcomes(reader, ids, jobs))
    reader.close()
    audited = time.perf_counter() - started
    assert len(found) == len(games) and all(clean for _, clean in found), found
    return audited, sum(replay_seconds(games[game_id]) for game_id in ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", default="bench-audit")
    parser.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: one a core; 1: none)"
    )
    args = parser.parse_args()
    jobs = args.jobs
    if jobs is None:
        from replay_cli.workers import default_jobs

        jobs = default_jobs()
    ruleset = get_ruleset("dominion")
    assert ruleset is not None
    one = [0.0, 0.0]
    many = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.sqlite3"
        app = Chronicle(url)
        try:
            played = list(play_all(app, ruleset, args.seed, range(args.games), ["Bot 1", "Bot 2"], {}))
            assert all(p.outcome is not None for p in played)
            games = replays(app, [p.game_id for p in played])
        finally:
            app.close()
        by_id = {str(p.game_id): game for p, game in zip(played, games, strict=True)}
        for _round in range(args.rounds):
            for total, seconds in [
                (one, one_process_seconds(url, by_id)),
                *([(many, jobs_seconds(url, by_id, jobs))] if jobs > 1 else []),
            ]:
                total[0] += seconds[0]
                total[1] += seconds[1]
    actions = sum(len(actions) for _, _, actions in games)
    print(
        f"games: {args.games} two-player bot games of base Dominion, {actions} actions, {args.rounds} rounds"
    )
    audited = args.games * args.rounds
    print(ratio_line("audit --all, one process: games per second", *_rates(audited, one)))
    if jobs > 1:
        print(ratio_line(f"audit --all, {jobs} worker processes: games per second", *_rates(audited, many)))


def _rates(games: int, seconds: list[float]) -> tuple[float, str, float, str]:
    return games / seconds[0], "games/s", games / seconds[1], "0.5 or more"


if __name__ == "__main__":
    main()
