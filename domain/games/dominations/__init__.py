"""Dominations: Road to Civilization with its Provinces expansion (Holy Grail Games), the
ruleset object of `shared/rules/dominations-provinces.md`: the Provinces mechanics STRICT, the
base game's unpublished numbers DECLARED, Loci and conquest values DERIVED (section 0.3).

Modules: `data` (catalog, 1.3-1.6), `board` (grid geometry and reference production, 1.6),
`options` (Appendix A), `state` (2), `actions` (4.2), `events` (facts), `fold` (`evolve`),
`rules` (`decide`: the checks in the order of 4 and the dispatch of each action, and the
rulings), `engine` (the fact collector, rejections, drawing), `creation` (`initial`, `setup`:
1.3-1.7, 3, 4.1), `placement` (4.2.1), `conquest` (4.2.2-4.2.9), `building` (4.2.10-4.2.13),
`turns` (4.2.15, 6), `table_inputs` (physical draws and the recorder's entries: 5.4, 6),
`legal` (prompts, legal and probe actions), `explain`, `view` (5.5), `describe`, `notation`,
`stats` (Appendix B) and `bot`.

Seats `p1`..`p4` (2-4 players, 0.6). Digital games shuffle each deck on its own
`hmac-sha256-v1` stream named as the deck (`conquest`, `rebellion`, `land`, `province-I`...;
n = 0 for the setup shuffle, n = k for the k-th discard reshuffle, canonical order = ids sorted).
Physical games record every drawn card through `record_draw`, checked against the pile's known
contents (5.4). Rulings are listed in the docstrings of `rules`, `options` and `legal`.
"""

from __future__ import annotations

from typing import Any

from domain.endings import ranked_resignation
from domain.games.dominations import actions as ac
from domain.games.dominations import bot, describe, explain, fold, legal, notation, rules, view
from domain.games.dominations import events as ev
from domain.games.dominations.options import OPTIONS
from domain.games.dominations.standing import winners
from domain.games.dominations.state import GAME_OVER, SEATS, State
from domain.ruleset import Boundary, Codec, Outcome, RulesetMeta, register
from domain.ruleset_base import RulesetBase

META = RulesetMeta(
    id="dominations",
    version="1",
    title="Dominations: Road to Civilization + Provinces",
    seat_ids=SEATS,
    min_players=2,
    max_players=4,
    options=OPTIONS,
    hidden_information=True,
    chance=True,
    spec="dominations",
)


class DominationsRuleset(
    RulesetBase[State, Any, Any], modules=(rules, fold, legal, view, describe, notation, explain, bot)
):
    meta = META
    codec: Codec[Any, Any] = Codec(ac.Action, ev.Fact)

    def boundary(self, fact: Any) -> Boundary | None:
        if isinstance(
            fact,
            ev.DeckShuffled | ev.ProvincesRevealed | ev.LandDealt | ev.ConquestCardBought | ev.CardRecorded,
        ):
            return "random"
        if isinstance(fact, ev.ConquestAttempted):
            return "random" if fact.drawn or fact.reshuffles or fact.spy_peek else "reveal"
        if isinstance(fact, ev.ConquestAbandoned):
            return "reveal"
        return None

    def outcome(self, state: State) -> Outcome | None:
        if state.step != GAME_OVER or state.winners is None:
            return None
        scores = {p.seat: p.vp for p in state.players}
        ordered = sorted(set(scores.values()), reverse=True)
        ranks = {seat: 1 + ordered.index(v) for seat, v in scores.items()}
        for seat in state.winners:
            ranks[seat] = 1
        for seat in scores:
            if seat not in state.winners and ranks[seat] == 1:
                ranks[seat] = 2
        details = {
            "influence": {p.seat: p.influence for p in state.players},
            "provinces": {p.seat: [c.province_id for c in p.conquered] for p in state.players},
        }
        return Outcome(
            scores=scores, ranks=ranks, winners=state.winners, details=details, reason="age_iii_ended"
        )

    def resign_outcome(self, state: State, seat: str) -> Outcome:
        """`seat` last; the others as the game stands: the winners among them as at the end
        (most VP, the final tie rule), then the rest by VP, equal VP sharing a place."""
        stay = [p for p in state.players if p.seat != seat]
        first = set(winners(stay, str(state.opt("final_tie_rule"))))
        order = {p.seat: (0 if p.seat in first else 1, -p.vp) for p in state.players}
        scores = {p.seat: p.vp for p in state.players}
        details = {"influence": {p.seat: p.influence for p in state.players}}
        return ranked_resignation(scores, seat, order, details)

    def metrics(self, state: State) -> dict[str, dict[str, float]]:
        return {
            "vp": {p.seat: float(p.vp) for p in state.players},
            "influence": {p.seat: float(p.influence) for p in state.players},
            "knowledge": {p.seat: float(sum(p.knowledge)) for p in state.players},
            "provinces": {p.seat: float(len(p.conquered)) for p in state.players},
        }

    def dice(self, fact: Any) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
        return ()  # no dice: all randomness is shuffled decks (5)

    def progress(self, state: State) -> tuple[int, str | None]:
        return (state.turn_no, state.active if not state.awaiting else None)


RULESET = DominationsRuleset()
register(RULESET)
