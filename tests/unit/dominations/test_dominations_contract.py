"""The cheap generic contract checks of tests/contract/test_rulesets.py run on the dominations
ruleset directly (the seeded playouts run in the contract suite itself, 200 digital games)."""

from __future__ import annotations

from domain.games.dominations import RULESET
from tests.contract import test_rulesets as contract


def test_the_meta_options_resolve_to_their_defaults() -> None:
    contract.test_the_meta_options_resolve_to_their_defaults(RULESET)


def test_every_action_kind_round_trips_through_the_notation() -> None:
    contract.test_every_action_kind_round_trips_through_the_notation(RULESET)
