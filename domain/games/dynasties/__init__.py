"""Dynasties & Kingdoms (rules version dk-1), the dice-and-poker war game of the Five Dynasties
and Ten Kingdoms: the ruleset object of `shared/rules/dynasties-kingdoms.md`.

Modules: `maps` (the map format, checks M1-M12 and the default map, section 8), `cards` (cards
and the hand evaluator, 4.6-4.7), `tables` (City and Province tables, 3.2-3.3), `options`
(1.2, D1-D25), `state` (2), `actions` (5.3), `events` (5.4, 5.6), `fold` (`evolve`), `rules`
(setup 1, turns 3, victory 6, `decide`), `battle` (4), `legal` (prompts and legal actions),
`view` (5.1 hidden information), `describe`, `notation`, `stats` (statistics hooks) and `bot`.

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

from domain.games.dynasties import bot, describe, fold, legal, notation, rules, stats, view
from domain.games.dynasties.actions import Action
from domain.games.dynasties.events import RANDOM_FACTS, BattleResolved, Fact
from domain.games.dynasties.options import OPTIONS
from domain.games.dynasties.state import SEATS, State
from domain.ruleset import Boundary, Codec, RulesetMeta, register
from domain.ruleset_base import RulesetBase

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


class DynastiesRuleset(
    RulesetBase[State, Action, Fact], modules=(rules, fold, legal, view, describe, notation, stats, bot)
):
    meta = META
    codec: Codec[Action, Fact] = Codec(Action, Fact)

    def boundary(self, fact: Fact) -> Boundary | None:
        if isinstance(fact, RANDOM_FACTS):
            return "random"
        if isinstance(fact, BattleResolved):
            return "reveal"
        return None

    def coordinate_names(self, state: State) -> dict[str, tuple[str, ...]]:
        """The provinces an annotation may name (domain/notes.py): the map's."""
        return {"province": state.map.ids}


RULESET = DynastiesRuleset()
register(RULESET)
