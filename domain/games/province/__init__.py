"""Province (Samuel Strick / Laboratory, Kickstarter 2014 edition with 5 goal tokens), the
two-player building microgame: the ruleset object of `shared/rules/province.md`.

Modules: `data` (rules data, section 10), `options` (variants, sections 9 and 10.4), `state`
(2.2), `actions` (7.2, 7.3), `events` (7.4 and the random facts), `fold` (`evolve`), `rules`
(`decide` and friends), `cycle`, `spending`, `lender`, `goals`, `turns`, `scoring`,
`table_inputs` (the rules themselves, 3-8), `legal` (prompts and legal actions), `view`,
`describe` and `notation`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.games.province import describe as _describe
from domain.games.province import legal, notation, rules, stats, view
from domain.games.province.actions import Action, Build
from domain.games.province.data import DATA
from domain.games.province.events import (
    Fact,
    FirstPlayerDetermined,
    GoalOrderDrawn,
    GoalRevealed,
    ShipsTossed,
)
from domain.games.province.fold import evolve as _evolve
from domain.games.province.options import OPTIONS
from domain.games.province.state import SEATS, State
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
    id="province",
    version="1",
    title=f"Province (Kickstarter 2014, rules data {DATA.version})",
    seat_ids=SEATS,
    min_players=2,
    max_players=2,
    options=OPTIONS,
    hidden_information=True,
    chance=True,
    spec="province",
)


class ProvinceRuleset:
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def initial(self, config: GameConfig) -> State:
        return rules.initial(config)

    def setup(self, config: GameConfig, state: State, rng: Rng) -> Sequence[Fact]:
        return rules.setup(config, state, rng)

    def decide(self, state: State, command: Command, rng: Rng) -> Sequence[Fact] | Rejection:
        return rules.decide(state, command, rng)

    # what `decide` returns with the state it folded its facts into (domain/ruleset.py `decider`)
    decide_state = staticmethod(rules.decide_state)

    # `evolve`, `progress`, `metrics` and `dice` are the plain functions, without a method's
    # extra call: a rebuild of the statistics calls them for every fact or turn of every game.
    evolve = staticmethod(_evolve)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return legal.pending(state)

    def legal_actions(self, state: State, seat: str | None) -> tuple[Action, ...]:
        return legal.legal_actions(state, seat)

    def probe_actions(self, state: State) -> tuple[Action, ...]:
        return legal.probe_actions(state)

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
        # Builds nine times in ten when it can: random play alone rarely builds, and a game of
        # Province only ends through buildings and goals.
        builds = [a for a in legal if isinstance(a, Build)]
        pool = builds if builds and draw(10) < 9 else legal
        return pool[draw(len(pool))]

    def boundary(self, fact: Fact) -> Boundary | None:
        # A goal turned face up is hidden information made public, whoever turned it.
        if isinstance(fact, FirstPlayerDetermined | GoalOrderDrawn | ShipsTossed):
            return "random"
        if isinstance(fact, GoalRevealed):
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
        """The spaces an annotation may name (domain/notes.py): the board's work cycle."""
        return {"space": state.rules.space_ids}

    def parse_notation(self, text: str, state: State) -> Action | Rejection:
        return notation.parse_notation(text)

    def format_action(self, action: Action) -> str:
        return notation.format_action(action)

    progress = staticmethod(rules.progress)
    metrics = staticmethod(stats.metrics)
    dice = staticmethod(stats.dice)


RULESET = ProvinceRuleset()
register(RULESET)
