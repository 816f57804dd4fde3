"""Dynasties & Kingdoms (rules version dk-1), the dice-and-poker war game of the Five Dynasties
and Ten Kingdoms: the ruleset object of `shared/rules/dynasties-kingdoms.md`.

Modules: `maps` (the map format, checks M1-M12 and the default map, section 8), `cards` (cards
and the hand evaluator, 4.6-4.7), `tables` (City and Province tables, 3.2-3.3), `options`
(1.2, D1-D25), `state` (2), `actions` (5.3), `events` (5.4, 5.6), `fold` (`evolve`), `rules`
(setup 1, turns 3, victory 6, `decide`), `battle` (4), `legal` (prompts and legal actions),
`view` (5.1 hidden information), `describe`, `notation` and `stats` (statistics hooks).

Randomness (records 4): streams `turn-order` (the roll-off, one operation per die), `dice`
(City, Province and city destruction rolls, one operation per roll; a Province roll is one
operation of two dice, first then second) and `deck` (the initial shuffle is n = 0, each
reshuffle or fresh deck the next n). Every random fact carries its stream, n and faces.

Rulings of this package (the spec's own decisions D1-D25 are variant options, see `options`):
- Seats are p1-p6: the default map takes up to 7 players (8.3), the server offers 6 seats.
- `create_game` is the core creation event: the map is the option `map` ("default" or the map
  JSON), checked by `check_config` (MAP_INVALID with the failed check, PLAYER_COUNT); a game
  created with a failing configuration is voided by its first fact (`GameVoided`).
- Digital actions carry no seeds (design.md 4 supersedes DK-RNG-1, spec 5.5); physical
  `reshuffle: {}` / `shuffle: {}` objects are booleans.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain import templates
from domain.games.dynasties import describe as _describe
from domain.games.dynasties import legal, notation, rules, stats, view
from domain.games.dynasties.actions import Action, DiscardAndDraw, EndPhase, MoveArmy
from domain.games.dynasties.events import RANDOM_FACTS, BattleResolved, Fact
from domain.games.dynasties.fold import evolve as _evolve
from domain.games.dynasties.options import OPTIONS
from domain.games.dynasties.state import SEATS, Source, State
from domain.rng import Rng
from domain.ruleset import (
    Boundary,
    Codec,
    Command,
    GameConfig,
    Outcome,
    Prompt,
    Rejection,
    RulesetMeta,
    Viewer,
    register,
)

META = RulesetMeta(
    id="dynasties",
    version="dk-1",
    title="Dynasties & Kingdoms (rules dk-1)",
    seat_ids=SEATS,
    min_players=2,
    max_players=7,  # on the default map; check_config judges a custom one (1.2)
    options=OPTIONS,
    hidden_information=True,
    chance=True,
    spec="dynasties",
)


def _bot_move(state: State, move: MoveArmy) -> int:
    """A score for a move: occupy empty land, attack with an edge, never feed weak attacks."""
    target = state.prov(move.to)
    group = sum(s.count for s in move.from_)
    if target.owner == state.active:
        return -1
    defenders = target.armies + target.rebels
    if defenders == 0:
        return 3 if group <= 2 else 2
    return 2 if group >= defenders + 2 else -1


def _bot_count(state: State, seat: str | None, move: MoveArmy, draw: Callable[[int], int]) -> MoveArmy:
    """The bot reads the move templates (domain/templates.py) like any client: a one-province
    move may send any count from the listed one up to the most its template allows."""
    if len(move.from_) != 1:
        return move
    text = notation.format_action(move)
    for shape in legal.legal_templates(state, seat):
        spans = templates.ranges(shape)
        if len(spans) == 1 and templates.matches(shape, text):
            sent = move.from_[0]
            count = sent.count + draw(spans[0][1] - sent.count + 1)
            return MoveArmy(move.to, (Source(sent.province, count),))
    return move


class DynastiesRuleset:
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def initial(self, config: GameConfig) -> State:
        return rules.initial(config)

    def setup(self, config: GameConfig, state: State, rng: Rng) -> Sequence[Fact]:
        return rules.setup(config, state, rng)

    def check_config(self, config: GameConfig) -> Rejection | None:
        """The map and player-count checks of `create_game` (dynasties-kingdoms.md 5.3)."""
        return rules.check_config(config)

    def decide(self, state: State, command: Command, rng: Rng) -> Sequence[Fact] | Rejection:
        return rules.decide(state, command, rng)

    # what `decide` returns with the state it folded its facts into (domain/ruleset.py `decider`)
    decide_state = staticmethod(rules.decide_state)

    def evolve(self, state: State, fact: Fact) -> State:
        return _evolve(state, fact)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return legal.pending(state)

    def legal_actions(self, state: State, seat: str | None) -> tuple[Action, ...]:
        return legal.legal_actions(state, seat)

    def probe_actions(self, state: State) -> tuple[Action, ...]:
        return legal.probe_actions(state)

    def legal_templates(self, state: State, seat: str | None) -> tuple[str, ...]:
        return legal.legal_templates(state, seat)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def redact(self, fact: Fact, viewer: Viewer) -> Fact:
        return view.redact(fact, viewer)

    def redact_action(self, action: Action, seat: str | None, state: State, viewer: Viewer) -> Action:
        return view.redact_action(action, seat, state, viewer)

    def redact_prompt(self, prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
        return view.redact_prompt(prompt, state, viewer)

    def bot_choose(
        self, state: State, seat: str | None, legal: tuple[Action, ...], draw: Callable[[int], int]
    ) -> Action:
        # Expansion: take empty provinces and fight only with a clear edge, then end the phase;
        # draw round: keep pairs (the automatic rebels' policy); otherwise a random legal choice.
        moves = [a for a in legal if isinstance(a, MoveArmy)]
        if moves:
            scored = [m for m in moves if _bot_move(state, m) > 0]
            if scored and draw(10) < 8:
                best = max(_bot_move(state, m) for m in scored)
                pool = [m for m in scored if _bot_move(state, m) == best]
                return _bot_count(state, seat, pool[draw(len(pool))], draw)
            ends = [a for a in legal if isinstance(a, EndPhase)]
            if ends:
                return ends[0]
        draws = [a for a in legal if isinstance(a, DiscardAndDraw)]
        if draws and state.battle is not None:
            side = state.battle.attacker if draws[0].side == "attacker" else state.battle.defender
            from domain.games.dynasties.battle import rebel_policy

            wanted = set(rebel_policy(side, state))
            for a in draws:
                if set(a.discard) == wanted:
                    return a
        return legal[draw(len(legal))]

    def boundary(self, fact: Fact) -> Boundary | None:
        if isinstance(fact, RANDOM_FACTS):
            return "random"
        if isinstance(fact, BattleResolved):
            return "reveal"
        return None

    def outcome(self, state: State) -> Outcome | None:
        return rules.outcome(state)

    def resign_outcome(self, state: State, seat: str) -> Outcome:
        return rules.resign_outcome(state, seat)

    def describe(self, fact: Fact, config: GameConfig) -> str:
        return _describe.describe(fact, config)

    def notation_words(self, state: State) -> tuple[str, ...]:
        return notation.notation_words(state)

    def coordinate_names(self, state: State) -> dict[str, tuple[str, ...]]:
        """The provinces an annotation may name (domain/notes.py): the map's."""
        return {"province": state.map.ids}

    def parse_notation(self, text: str, state: State) -> Action | Rejection:
        return notation.parse_notation(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    def progress(self, state: State) -> tuple[int, str | None]:
        return rules.progress(state)

    def rounds(self, state: State) -> int:
        return rules.rounds(state)

    def metrics(self, state: State) -> dict[str, dict[str, float]]:
        return stats.metrics(state)

    def dice(self, fact: Fact) -> tuple[stats.Die, ...]:
        return stats.dice(fact)


RULESET = DynastiesRuleset()
register(RULESET)
