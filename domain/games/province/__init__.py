"""Province (Samuel Strick / Laboratory, Kickstarter 2014 edition with 5 goal tokens), the
two-player building microgame: the ruleset object of `shared/rules/province.md`.

Modules: `data` (rules data, section 10), `options` (variants, sections 9 and 10.4), `state`
(2.2), `actions` (7.2, 7.3), `events` (7.4 and the random facts), `fold` (`evolve`), `rules`
(`decide` and friends), `cycle`, `spending`, `lender`, `goals`, `turns`, `scoring`,
`table_inputs` (the rules themselves, 3-8), `legal` (prompts and legal actions), `view`,
`describe`, `notation`, `stats` and `bot`.
"""

from __future__ import annotations

from domain.games.province import bot, describe, fold, legal, notation, rules, stats, view
from domain.games.province.actions import Action
from domain.games.province.data import DATA
from domain.games.province.events import (
    Fact,
    FirstPlayerDetermined,
    GoalOrderDrawn,
    GoalRevealed,
    ShipsTossed,
)
from domain.games.province.options import OPTIONS
from domain.games.province.state import SEATS, State
from domain.ruleset import Boundary, Codec, RulesetMeta, register
from domain.ruleset_base import RulesetBase

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


class ProvinceRuleset(
    RulesetBase[State, Action, Fact], modules=(rules, fold, legal, view, describe, notation, stats, bot)
):
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def boundary(self, fact: Fact) -> Boundary | None:
        # A goal turned face up is hidden information made public, whoever turned it.
        if isinstance(fact, FirstPlayerDetermined | GoalOrderDrawn | ShipsTossed):
            return "random"
        if isinstance(fact, GoalRevealed):
            return "reveal"
        return None

    def coordinate_names(self, state: State) -> dict[str, tuple[str, ...]]:
        """The spaces an annotation may name (domain/notes.py): the board's work cycle."""
        return {"space": state.rules.space_ids}


RULESET = ProvinceRuleset()
register(RULESET)
