"""`chronicle simulate`: seeded bot games played to the end and recorded in the store.

Game i of seed S is reproducible to the byte: its server seed is `sha256(f"{S}:{i}")`, its id
is derived from the same key (the game id enters every random draw, `chronicle rules records 4.1`, so a fresh
random id would change the dice), and its bot is the ruleset's `bot_choose` (its plain strategy
mixed with random legal choices) drawing from `random.Random(f"{S}:{i}")`. Running the same
seed twice into one store is refused, since those games already exist there.

Each game is played in memory by the rules the store records with, then stored whole, several
games to a transaction: the very events, digests included, that recording it one action at a
time would store (store/simulation.py), so the games are ordinary games in the store: `log`,
`replay` and `audit --all` read them like any other. `--jobs J` plays them in J processes (by
default one per core), this one among them, which stores them in order: the store ends as
with `--jobs 1` (store/simulation_processes.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from typing import Any

from eventsourcing.persistence import IntegrityError

from domain.ruleset import Ruleset
from domain.standings import sole_winner
from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import REFUSED, CliError, UsageError
from replay_cli.local import open_store
from replay_cli.options import check_new_game, parse_options, ruleset_named
from replay_cli.progress import Progress
from replay_cli.sources import add_store_option
from store.simulation import ACTION_CAP, Played, already_simulated
from store.simulation_processes import play_in, start_helpers, stop_helpers


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(subparsers, "simulate", "play seeded bot games into the store", __doc__)
    parser.add_argument("ruleset", metavar="RULESET")
    parser.add_argument("--games", type=int, required=True, metavar="N")
    parser.add_argument(
        "--seed", required=True, metavar="S", help="any text; the same seed plays the same games"
    )
    parser.add_argument(
        "--players", type=int, metavar="K", help="seats per game (default: the fewest allowed)"
    )
    parser.add_argument("--option", dest="options", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--expansions",
        metavar="SETS",
        help="the sets to play with, e.g. base,empires (the ruleset's `expansions` option)",
    )
    parser.add_argument(
        "--max-actions",
        type=int,
        default=ACTION_CAP,
        metavar="M",
        help=f"give up on a game after M actions ({ACTION_CAP})",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=default_jobs(),
        metavar="J",
        help=f"processes playing the games, this one among them (default: the cores, {default_jobs()})",
    )
    add_store_option(parser)
    parser.set_defaults(run=run)


def default_jobs() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_named(args.ruleset)
    players = ruleset.meta.min_players if args.players is None else args.players
    options = parse_options(args.options, ruleset.meta)
    if args.expansions is not None:
        if ruleset.meta.option("expansions") is None:
            raise UsageError(f"{ruleset.meta.id} has no expansions")
        options["expansions"] = args.expansions.replace(" ", "")
    check_new_game(ruleset, players, options)
    if args.games < 1 or args.max_actions < 1 or args.jobs < 1:
        raise UsageError("--games, --max-actions and --jobs take positive numbers")
    names = [f"Bot {seat}" for seat in ruleset.meta.seat_ids[:players]]
    # the helpers first, while no store is open: they may then be forked, in a few milliseconds
    helpers = start_helpers(min(args.jobs, args.games) - 1)
    try:
        app = open_store(args.store, create=True)
    except BaseException:
        stop_helpers(helpers)
        raise
    try:
        taken = already_simulated(app, ruleset.meta.id, args.seed, args.games)
        if taken is not None:
            raise CliError(
                f"seed {args.seed!r} was already simulated in this store (game {taken}); pick another --seed"
            )
        progress = Progress(args.games, "simulating")
        started = time.monotonic()
        played: list[Played] = []
        try:
            games = play_in(
                args.jobs,
                app,
                ruleset,
                args.seed,
                range(args.games),
                names,
                options,
                args.max_actions,
                helpers=helpers,
            )
            for one in games:
                played.append(one)
                progress.advance()
        except IntegrityError:  # another process stored a game of this seed meanwhile
            raise CliError(
                f"seed {args.seed!r} is being simulated into this store by another process; "
                "pick another --seed"
            ) from None
        progress.finish()
        seconds = time.monotonic() - started
    finally:
        stop_helpers(helpers)  # those that played were ended by `play_in`
        app.close()
    for line in summary(ruleset, args.seed, played, names, seconds):
        print(line)
    problems = [p for p in played if p.problem is not None]
    for problem in problems:
        print(f"chronicle: error: game {problem.game_id}: {problem.problem}", file=sys.stderr)
    return REFUSED if problems else 0


def summary(
    ruleset: Ruleset[Any, Any, Any], seed: str, played: list[Played], names: list[str], seconds: float
) -> list[str]:
    actions = sum(p.actions for p in played)
    finished = [p.outcome for p in played if p.outcome is not None]
    # A tie for first is a draw for those tied (domain/standings.py).
    wins: Counter[str] = Counter(w for outcome in finished if (w := sole_winner(outcome.winners)))
    draws = sum(1 for outcome in finished if sole_winner(outcome.winners) is None)
    seats = ruleset.meta.seat_ids[: len(names)]
    per_seat = ", ".join(f"{seat} {wins[seat]}" for seat in seats)
    rate = actions / seconds if seconds > 0 else 0.0
    return [
        f"simulated {len(played)} {ruleset.meta.id} games (seed {seed}): {len(finished)} finished, "
        f"{actions} actions in {seconds:.2f} s ({rate:.0f} actions/s)",
        f"wins per seat: {per_seat}; draws {draws}",
    ]
