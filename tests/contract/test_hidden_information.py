"""Hidden information stays hidden: proof by indistinguishability, for every ruleset.

For each game, in each mode where it hides something, and for the public and for a seat, pairs
of seeded games that differ only in what that viewer cannot see (tests/contract/twins.py) must
give the viewer byte-identical answers at every version until the difference shows in the
facts the viewer is allowed to see: every event with its text line, the state, the prompts, the
summary, the viewer's legal actions and the statistics' figures. A failure names the version,
the answer and both values.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from domain.ruleset import PUBLIC, Viewer, all_rulesets
from tests.contract.twins import (
    ANY_DEFINITIONS,
    AnyRuleset,
    Pair,
    config_for,
    first_difference,
    play_pair,
)

# Pairs per game and viewer kind: 50, shared between the modes where both hide something.
# CHRONICLE_TWIN_PAIRS plays fewer (bench/mutation.py judges each mutant of a view with it).
PAIRS = {"digital": 30, "physical": 20}
if os.environ.get("CHRONICLE_TWIN_PAIRS"):
    PAIRS = dict.fromkeys(PAIRS, int(os.environ["CHRONICLE_TWIN_PAIRS"]))
# B differs from a step drawn below about the length of a bot game, so that pairs reach the
# middle and the end of games too.
DIVERGE_WITHIN = {"dominion": 550, "dynasties": 300, "dominations": 160, "any": 20}
RULESETS = [r for r in all_rulesets() if r.meta.hidden_information]
# Where a mode hides nothing from a viewer kind, no pair can differ: Province's physical table
# turns every goal face up itself.
NOTHING_HIDDEN = {("province", "physical")}
# Games that hide only what their setup deals: Province's face-down goal order.
SETUP_ONLY = {"province"}
# Dominion's 2nd-edition base set (dominion-2e.md) in one pair of three, and in another its ten
# new or changed cards alone (every card kept unchanged excluded): Sentry's and Harbinger's
# private looks, Artisan's card put back, Bandit's and Vassal's public reveals.
KEPT_IN_2E = (
    "Bureaucrat,Cellar,Chapel,Council Room,Festival,Gardens,Laboratory,Library,Market,Militia,"
    "Moat,Remodel,Smithy,Village,Witch,Workshop"
)


def options_for(ruleset: AnyRuleset, i: int) -> dict[str, Any]:
    if ruleset.meta.id == "any":  # the definitions with decks, which hide something
        return ANY_DEFINITIONS["card-deck" if i % 2 == 0 else "cooperative"]
    if ruleset.meta.id != "dominion" or i % 3 == 0:
        return {}
    if i % 3 == 1:
        return {"base_edition": 2, "exclude": KEPT_IN_2E}
    return {"base_edition": 2}


def make_pair(ruleset: AnyRuleset, i: int, mode: str, viewer_kind: str) -> Pair:
    """Pair i: B differs from its setup in every other pair, else from a random step."""
    config = config_for(ruleset, i, mode, options_for(ruleset, i))
    pick = random.Random(f"twin-{ruleset.meta.id}-{mode}-{viewer_kind}-{i}")
    seat = pick.choice(config.seats).id
    viewer = PUBLIC if viewer_kind == "public" else Viewer("seat", seat)
    setup = i % 2 == 0 or ruleset.meta.id in SETUP_ONLY
    diverge_from = -1 if setup else pick.randrange(DIVERGE_WITHIN.get(ruleset.meta.id, 200))
    return play_pair(ruleset, config, viewer, i, diverge_from=diverge_from)


def _describe(pair: Pair, found: tuple[int, str, Any, Any]) -> str:
    version, key, x, y = found
    return (
        f"{pair.config.ruleset} {pair.config.mode} game {pair.config.game_id} (B differs from step "
        f"{pair.diverge_from}) shows {pair.viewer} a difference at version {version} in its {key}:\n"
        f"A: {x}\nB: {y}"
    )


@pytest.mark.parametrize("viewer_kind", ["public", "seat"])
@pytest.mark.parametrize("mode", ["digital", "physical"])
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.meta.id)
def test_games_that_differ_only_in_what_a_viewer_cannot_see_look_the_same_to_it(
    ruleset: AnyRuleset, mode: str, viewer_kind: str
) -> None:
    if (ruleset.meta.id, mode) in NOTHING_HIDDEN:
        pytest.skip(f"{ruleset.meta.id} hides nothing in {mode} mode")
    pairs = PAIRS[mode] if (ruleset.meta.id, "physical") not in NOTHING_HIDDEN else sum(PAIRS.values())
    differing, versions, looks = 0, 0, 0
    for i in range(pairs):
        pair = make_pair(ruleset, i, mode, viewer_kind)
        found = first_difference(pair)
        assert found is None, _describe(pair, found)
        if pair.differs:
            differing += 1
            versions += pair.common
            looks += private_looks(pair)
    # The proof is only as good as its pairs: most must really differ out of the viewer's sight.
    assert differing >= pairs // 2, f"only {differing} of {pairs} pairs differed in hidden information"
    # Digital pairs reach them; physical pairs mostly end early, at a card the table enters.
    if ruleset.meta.id == "dominion" and mode == "digital" and pairs >= PAIRS_FOR_LOOKS:
        assert looks, "no pair compared what Sentry or Harbinger shows only its player"


PAIRS_FOR_LOOKS = 20  # enough pairs for some to reach a Sentry or Harbinger (fewer: not judged)


def private_looks(pair: Pair) -> int:
    """1 if the compared part of the pair holds a private look of the 2nd edition (Sentry's
    cards, a card put back from the discard pile or the cards looked at)."""
    facts = [f for e in pair.a.events[: pair.common] if (f := getattr(e, "fact", None)) is not None]
    kinds = {(f.get("type"), f.get("source")) for f in facts if isinstance(f, dict)}
    return int(
        ("looked", None) in kinds or ("topdecked", "discard") in kinds or ("topdecked", "looking") in kinds
    )
