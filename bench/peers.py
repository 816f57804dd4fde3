"""Chronicle's Dominion engine against a peer: Big Money against Big Money, two players, in one run.

The peer is pyminion (the optional `bench` extra: `.venv/bin/pip install -e '.[bench]'`), a
mutable engine whose bots act without validation. Chronicle plays the same strategy through its
rules as any recorded game is played: `pending` says who acts, every action goes through `decide`
(which validates it and folds its facts), from a seeded setup; as the server records an action,
the state `decide` reached is kept (`decide_state`, domain/ruleset.py `decider`) rather than
folded a second time. The two alternate in rounds so that a noisy machine slows both alike;
the figures are games per second, turns per second (both players' turns) and Chronicle's ratio
to the peer (the aim is 1.0). Chronicle's Empires games (Big Money on an Empires kingdom,
Landmarks scoring) and the mixed bot of `chronicle simulate` are printed beside, for reference.

Where Chronicle's time goes in a base game (cProfile): `decide` is seven tenths of it. A plain
turn reaches each state in one step where nothing can trigger (the buy and its gain; the
Clean-up, its draw, a shuffle when the deck runs short and the next turn's start): Clean-up
is then about a quarter (the seeded shuffles a third of that), the Treasures a tenth, the
checks of every action and the buy each under a tenth; `pending`, the bot, the setup and this
loop the rest. Each action is checked in full: the price of a record that replays exactly.
An Empires game takes the same plain steps unless a Landmark or Event in it has an ability
that could trigger.

    .venv/bin/python -m bench.peers [--games N] [--rounds R] [--seed S]
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from domain.games.dominion.actions import Action, BuyCard, EndPhase, PayDebt, PlayTreasures
from domain.games.dominion.data import DATA
from domain.games.dominion.state import State
from domain.rng import SeededRng
from domain.ruleset import Command, GameConfig, Rejection, Seat, decider, get_ruleset, resolve_options

AIM = 1.0
TURN_LIMIT = 200


def big_money(state: State, seat: str) -> Action:
    """Province at $8, Gold at $6, Silver at $3; never an Action. Debt (a Tax token on a pile,
    with Empires) is paid off first."""
    if state.phase == "action":
        return EndPhase()
    me = state.players[state.current]
    treasures = tuple(c for c in me.hand if c in DATA.treasures)
    if treasures and state.window:
        return PlayTreasures(treasures)
    if me.debt and state.coins:
        return PayDebt(min(me.debt, state.coins))
    if me.debt:
        return EndPhase()
    for pile, price in (("Province", 8), ("Gold", 6), ("Silver", 3)):
        if state.coins >= price and state.buys and state.supply.get(pile):
            return BuyCard(pile)
    return EndPhase()


def _config(ruleset: Any, game_id: str, expansions: str) -> GameConfig:
    options = resolve_options(ruleset.meta, {"expansions": expansions})
    assert not isinstance(options, Rejection)
    return GameConfig(game_id, "dominion", "digital", (Seat("p1", "Bot 1"), Seat("p2", "Bot 2")), options)


Chooser = Callable[[Any, State, str, random.Random], Any]


def _big_money(ruleset: Any, state: State, seat: str, bot: random.Random) -> Any:
    if state.prompts:  # nothing asks Big Money a question in a kingdom it never plays; to be safe
        return ruleset.legal_actions(state, seat)[0]
    return big_money(state, seat)


def _simulate_bot(ruleset: Any, state: State, seat: str, bot: random.Random) -> Any:
    return ruleset.bot_choose(state, seat, ruleset.legal_actions(state, seat), bot.randrange)


def chronicle_game(ruleset: Any, key: str, expansions: str, choose: Chooser) -> int:
    """One game through the rules; returns the turns played (both players)."""
    config = _config(ruleset, f"peers-{key}", expansions)
    rng = SeededRng(hashlib.sha256(key.encode()).digest(), config.game_id)
    state = ruleset.initial(config)
    for fact in ruleset.setup(config, state, rng):
        state = ruleset.evolve(state, fact)
    bot = random.Random(key)
    decide = decider(ruleset)
    while ruleset.outcome(state) is None and state.turn <= TURN_LIMIT:
        seat = ruleset.pending(state)[0].seat
        out = decide(state, Command(choose(ruleset, state, seat, bot), seat, "recorder"), rng)
        assert not isinstance(out, Rejection), out
        state = out[1]
    return sum(p.turns for p in state.players)


def pyminion_game(seed: int) -> int:
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions.base import base_set
    from pyminion.game import Game

    random.seed(seed)  # pyminion deals and shuffles with the global generator
    game = Game(players=[BigMoney("p1"), BigMoney("p2")], expansions=[base_set], log_stdout=False)
    game.play()
    return sum(player.turns for player in game.players)


def timed(play: Callable[[int], int], games: int, start: int) -> tuple[float, int]:
    began = time.perf_counter()
    turns = sum(play(start + i) for i in range(games))
    return time.perf_counter() - began, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", default="peers")
    args = parser.parse_args()
    try:
        import pyminion  # noqa: F401
    except ImportError:
        sys.exit("bench.peers needs pyminion: .venv/bin/pip install -e '.[bench]'")
    logging.getLogger().setLevel(logging.WARNING)  # pyminion logs every card at INFO
    ruleset = get_ruleset("dominion")
    assert ruleset is not None

    def ours(expansions: str, choose: Chooser) -> Callable[[int], int]:
        return lambda i: chronicle_game(ruleset, f"{args.seed}:{i}", expansions, choose)

    contenders: dict[str, Callable[[int], int]] = {
        "pyminion 0.4.0, Big Money (base)": pyminion_game,
        "Chronicle, Big Money (base)": ours("base", _big_money),
        "Chronicle, Big Money (base,empires)": ours("base,empires", _big_money),
        "Chronicle, simulate bot (base)": ours("base", _simulate_bot),
    }
    elapsed = dict.fromkeys(contenders, 0.0)
    played = dict.fromkeys(contenders, 0)
    for round_ in range(args.rounds):
        for name, play in contenders.items():
            seconds, turns = timed(play, args.games, round_ * args.games)
            elapsed[name] += seconds
            played[name] += turns
    games = args.games * args.rounds
    peer = games / elapsed["pyminion 0.4.0, Big Money (base)"]
    print(f"{games} two-player games per engine, {args.rounds} alternating rounds")
    for name, seconds in elapsed.items():
        turns = played[name]
        rate = games / seconds
        print(
            f"{name:38} {rate:8.1f} games/s {turns / seconds:9.0f} turns/s "
            f"{turns / games:6.1f} turns/game  ratio to pyminion {rate / peer:.2f} (aim {AIM:.1f})"
        )


if __name__ == "__main__":
    main()
