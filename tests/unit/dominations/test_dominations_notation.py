"""Table notation of dominations-provinces.md actions: short forms and the JSON fallback
round-trip through `format_action` / `parse_notation`."""

from __future__ import annotations

import pytest

from domain.games.dominations import RULESET
from domain.games.dominations import actions as ac
from domain.ruleset import Rejection
from tests.unit.dominations.scenarios import make

ACTIONS = [
    ac.PlaceTile("hand", "L002", "D(0,0)", 0),
    ac.PlaceTile("hand", "L002", "D(0,0)", 1, {"SCI": 2, "TRA": 3}),
    ac.PlaceTile("province", "P08", "D(0,0)", 0, {}),
    ac.PlaceTile("hand", "L002", "D(0,0)", 0, {}, (), (ac.CityActivation("U(0,0)", "p2", {"GOV": 1}),)),
    ac.BuyConquestCard("TRA"),
    ac.BuyConquestCard(None, {"TRA": 1, "GOV": 1}),
    ac.AttemptConquest("P08"),
    ac.AttemptConquest("P08", use_spy=True),
    ac.AttemptConquest("P08", use_siege=True),
    ac.ResolveConquest(("C33", "C21", "C22"), "ART"),
    ac.ResolveConquest(("C33",)),
    ac.ResolveConquest(()),
    ac.ConquerWithKnowledge("FX1", {"CRA": 4, "REL": 2}, "TRA"),
    ac.SpendInfluence(2),
    ac.CorsairesExchange("ART", "GOV"),
    ac.AcquireMastery("ARC-1", (1, 0), {"ART": 3}),
    ac.BaseEffect("p1", "base_card", "Fishing mastery", knowledge={"CRA": 1}),
    ac.AgeEndBaseScoring((ac.ScoreEntry("p1", "Influence", vp=2),), {"SPY": 3}),
    ac.RecordDraw("R17"),
    ac.EndTurn(),
    ac.BuildCity("D(0,0)", 1, {"CRA": 2}),
    ac.BuildCity("D(0,0)", 2),
    ac.ContributeMonument("M1", "M1-L1", {"CRA": 2}, 1),
    ac.SpyPeek(),
    ac.AbandonConquest(),
    ac.UseSiegeEngines(),
    ac.AttemptConquest("P08", drawn=("4", "2")),
    ac.AttemptConquest("P08", drawn=()),
]

# Every action a player (or the table, for a draw) takes in a turn has a short form; only
# the recorder's declared base-game entries and rare shapes fall back to `kind {json}`.
PLAYER_KINDS = {
    ac.PlaceTile,
    ac.BuyConquestCard,
    ac.AttemptConquest,
    ac.UseSiegeEngines,
    ac.SpendInfluence,
    ac.ResolveConquest,
    ac.AbandonConquest,
    ac.ConquerWithKnowledge,
    ac.CorsairesExchange,
    ac.SpyPeek,
    ac.ContributeMonument,
    ac.BuildCity,
    ac.AcquireMastery,
    ac.EndTurn,
    ac.RecordDraw,
}


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: RULESET.format_action(a))
def test_every_action_round_trips_through_the_notation(action: object) -> None:
    state = make()
    assert RULESET.parse_notation(RULESET.format_action(action), state) == action


def test_every_player_action_kind_has_a_short_form() -> None:
    shown = {type(a) for a in ACTIONS if not RULESET.format_action(a).partition(" ")[2].startswith("{")}
    assert shown >= PLAYER_KINDS
    assert RULESET.format_action(ac.BuildCity("D(0,0)", 1, {"CRA": 2})) == "city D(0,0) 1 CRA:2"
    assert RULESET.parse_notation("mastery ARC-1 1,0 ART:3", make()) == ac.AcquireMastery(
        "ARC-1", (1, 0), {"ART": 3}
    )


def test_short_forms_read_as_the_spec_writes_them() -> None:
    state = make()
    assert RULESET.format_action(ACTIONS[1]) == "place L002 D(0,0) 1 SCI:2,TRA:3"
    assert RULESET.parse_notation("resolve C33,C21,C22 ART", state) == ACTIONS[9]
    assert RULESET.parse_notation("conquer FX1 CRA:4,REL:2 TRA", state) == ACTIONS[12]
    assert RULESET.format_action(ac.PlaceTile("hand", "L002", "D(0,0)", 0)) == "place L002 D(0,0) 0"
    assert isinstance(RULESET.parse_notation("place L002 D(0,0) 0 SCI=2", state), Rejection)
    assert isinstance(RULESET.parse_notation("fly away", state), Rejection)
