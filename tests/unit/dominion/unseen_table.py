"""A real table, recorded: a seeded bot game refereed digitally is the truth, and the same game
is recorded in physical mode as a table would, entering by name every card the recorder sees
and `?` for every card of the hidden seats it does not see (their draws, their hidden
discards). Both games run in lockstep; every forced choice is asked (`explicit_forced_choices`)
so that both ask the same questions.

`record(seed)` returns both games and the physical game's commands, for the scenario tests and
for the store's audit.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.actions import (
    ChooseFirstPlayer,
    ObserveCards,
    SelectCards,
)
from domain.games.dominion.decisions import HIDDEN_SELECTIONS
from domain.games.dominion.events import FirstPlayerChosen, Observed, Shuffled
from domain.games.dominion.state import RECORDER, UNSEEN
from domain.ruleset import Command, Rejection
from tests.unit.dominion.scenarios import Game, config

OPTIONS: dict[str, Any] = {"kingdom": "first_game", "explicit_forced_choices": True}
MAX_COMMANDS = 3000


@dataclass
class Recorded:
    truth: Game
    table: Game
    commands: list[Command] = field(default_factory=list)  # the physical game's, in order


def _queues(truth: Game) -> dict[str, deque[str]]:
    """Per seat, every card its shuffles put into its deck, top first, in order: the cards the
    table takes from the unseen part of that deck, in order."""
    out: dict[str, deque[str]] = {}
    for fact in truth.facts:
        if isinstance(fact, Shuffled) and fact.order is not None:
            out.setdefault(fact.player, deque()).extend(fact.order)
    return out


def _enter(recorded: Recorded, command: Command) -> None:
    out = RULESET.decide(recorded.table.state, command, recorded.table.rng)
    assert not isinstance(out, Rejection), f"{command.action} refused: {out}"
    for fact in out:
        recorded.table.state = RULESET.evolve(recorded.table.state, fact)
    recorded.table.facts.extend(out)
    recorded.commands.append(command)


def _answer_table(recorded: Recorded, hidden: tuple[str, ...]) -> None:
    """The recorder's entries: each card the engine asks for, by name or as `?`."""
    queues = _queues(recorded.truth)
    while True:
        prompts = [d for d in recorded.table.state.prompts if d.p == RECORDER]
        if not prompts:
            return
        d = prompts[0]
        assert d.kind == "observe" and d.purpose == "observe", d
        seat = recorded.table.state.seats[d.target]
        # The engine enters by itself a card that can only be one name: count every entry.
        start = sum(f.count for f in recorded.table.facts if isinstance(f, Observed) and f.player == seat)
        cards = tuple(list(queues[seat])[start : start + d.hi])
        shown = (UNSEEN,) * len(cards) if seat in hidden and d.verb in ("draw", "aside") else cards
        _enter(recorded, Command(ObserveCards(shown), None, "recorder"))


def _as_entered(recorded: Recorded, command: Command, hidden: tuple[str, ...]) -> Command:
    """A hidden seat's hidden selection as the recorder enters it: `?` for each card it does
    not see (a card it saw named in the hand keeps its name)."""
    action = command.action
    state = recorded.table.state
    if not isinstance(action, SelectCards) or command.seat not in hidden:
        return command
    p = state.index(command.seat)
    d = next((d for d in state.prompts if d.p == p), None)
    if d is None or d.purpose not in HIDDEN_SELECTIONS or d.cards:
        return command
    hand = list(state.players[p].hand)
    shown = []
    for card in action.cards:
        if card in hand:
            hand.remove(card)
            shown.append(card)
        else:
            shown.append(UNSEEN)
    return replace(command, action=replace(action, cards=tuple(shown)))


def record(seed: int, hidden: tuple[str, ...] = ("p2",)) -> Recorded:
    truth = Game(config(2, game_id=f"unseen-{seed}", **OPTIONS))
    table = Game(config(2, mode="physical", game_id=f"unseen-{seed}-table", **OPTIONS))
    recorded = Recorded(truth, table)
    first = next(f for f in truth.facts if isinstance(f, FirstPlayerChosen))
    _enter(recorded, Command(ChooseFirstPlayer(first.player), None, "recorder"))
    _answer_table(recorded, hidden)
    bot = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        state = truth.state
        if state.status == "over":
            break
        prompts = RULESET.pending(state)
        seat = prompts[0].seat
        legal = RULESET.legal_actions(state, seat)
        action = RULESET.bot_choose(state, seat, legal, bot.randrange)
        command = Command(action, seat, "recorder")
        truth.do(seat, action, by="recorder")
        _enter(recorded, _as_entered(recorded, command, hidden))
        _answer_table(recorded, hidden)
        asked = [(p.seat, p.kind) for p in RULESET.pending(recorded.table.state)]
        assert asked == [(p.seat, p.kind) for p in RULESET.pending(truth.state)], (
            f"the table is asked {asked} where the game asks "
            f"{[(p.seat, p.kind) for p in RULESET.pending(truth.state)]}"
        )
    return recorded
