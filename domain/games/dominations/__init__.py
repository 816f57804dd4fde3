"""Dominations: Road to Civilization with its Provinces expansion (Holy Grail Games), the
ruleset object of `shared/rules/dominations-provinces.md`: the Provinces mechanics STRICT, the
base game's unpublished numbers DECLARED, Loci and conquest values DERIVED (section 0.3).

Modules: `data` (catalog, 1.3-1.6), `board` (grid geometry and reference production, 1.6),
`options` (Appendix A), `state` (2), `actions` (4.2), `events` (facts), `fold` (`evolve`),
`rules` (`decide`: the checks in the order of 4 and the dispatch of each action, and the
rulings), `engine` (the fact collector, rejections, drawing), `creation` (`initial`, `setup`:
1.3-1.7, 3, 4.1), `placement` (4.2.1), `conquest` (4.2.2-4.2.9), `building` (4.2.10-4.2.13),
`turns` (4.2.15, 6), `table_inputs` (physical draws and the recorder's entries: 5.4, 6),
`legal` (prompts, legal and probe actions), `explain`, `view` (5.5), `describe`, `notation`
and `stats` (Appendix B).

Seats `p1`..`p4` (2-4 players, 0.6). Digital games shuffle each deck on its own
`hmac-sha256-v1` stream named as the deck (`conquest`, `rebellion`, `land`, `province-I`...;
n = 0 for the setup shuffle, n = k for the k-th discard reshuffle, canonical order = ids sorted).
Physical games record every drawn card through `record_draw`, checked against the pile's known
contents (5.4). Rulings are listed in the docstrings of `rules`, `options` and `legal`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.endings import ranked_resignation
from domain.games.dominations import actions as ac
from domain.games.dominations import describe as _describe
from domain.games.dominations import events as ev
from domain.games.dominations import explain, legal, notation, rules, view
from domain.games.dominations.fold import evolve as _evolve
from domain.games.dominations.options import OPTIONS
from domain.games.dominations.standing import winners
from domain.games.dominations.state import GAME_OVER, SEATS, State, conquest_value
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


class DominationsRuleset:
    meta = META
    codec: Codec[Any, Any] = Codec(ac.Action, ev.Fact)

    def initial(self, config: GameConfig) -> State:
        return rules.initial(config)

    def setup(self, config: GameConfig, state: State, rng: Rng) -> Sequence[Any]:
        return rules.setup(config, state, rng)

    def decide(self, state: State, command: Command, rng: Rng) -> Sequence[Any] | Rejection:
        return rules.decide(state, command, rng)

    # what `decide` returns with the state it folded its facts into (domain/ruleset.py `decider`)
    decide_state = staticmethod(rules.decide_state)

    def evolve(self, state: State, fact: Any) -> State:
        return _evolve(state, fact)

    def pending(self, state: State) -> tuple[Prompt, ...]:
        return legal.pending(state)

    def legal_actions(self, state: State, seat: str | None) -> tuple[Any, ...]:
        return legal.legal_actions(state, seat)

    def probe_actions(self, state: State) -> tuple[Any, ...]:
        return legal.probe_actions(state)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def redact(self, fact: Any, viewer: Viewer) -> Any:
        return view.redact(fact, viewer)

    def redact_action(self, action: Any, seat: str | None, state: State, viewer: Viewer) -> Any:
        return view.redact_action(action, seat, state, viewer)

    def redact_prompt(self, prompt: Prompt, state: State, viewer: Viewer) -> Prompt:
        return view.redact_prompt(prompt, state, viewer)

    def bot_choose(
        self, state: State, seat: str | None, legal: tuple[Any, ...], draw: Callable[[int], int]
    ) -> Any:
        # Plain strategy: conquer when the cards suffice, attack when the hand looks strong,
        # buy cards with spare Knowledge now and then, otherwise place the most productive
        # tile; one choice in five is random.
        if draw(5) == 0:
            return legal[draw(len(legal))]

        def first(kind: type) -> list[Any]:
            return [a for a in legal if isinstance(a, kind)]

        for kind in (ac.ResolveConquest, ac.ConquerWithKnowledge):
            options = first(kind)
            if options:
                return options[draw(len(options))]
        if state.attack is not None:
            spend = first(ac.SpendInfluence)
            siege = first(ac.UseSiegeEngines)
            if siege:
                return siege[0]
            if spend:
                return spend[-1]
            buys = first(ac.BuyConquestCard)
            if buys and conquest_value(state) < state.attack.rebellion_value:
                return buys[draw(len(buys))]
            abandon = first(ac.AbandonConquest)
            if abandon:
                return abandon[0]
        attempts = first(ac.AttemptConquest)
        if attempts and state.active is not None:
            strength = sum(state.strength(c) for c in state.player(state.active).conquest_hand)
            if strength >= 6 or (strength >= 3 and draw(3) == 0):
                return attempts[draw(len(attempts))]
        buys = first(ac.BuyConquestCard)
        if buys and draw(2) == 0:
            return buys[draw(len(buys))]
        mastery = first(ac.AcquireMastery)
        if mastery and draw(2) == 0:
            return mastery[draw(len(mastery))]
        places = first(ac.PlaceTile)
        if places:
            return places[draw(len(places))]
        ends = first(ac.EndTurn)
        if ends:
            return ends[0]
        return legal[draw(len(legal))]

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

    def describe(self, fact: Any, config: GameConfig) -> str:
        return _describe.describe(fact, config)

    def notation_words(self, state: State) -> tuple[str, ...]:
        return notation.notation_words(state)

    def parse_notation(self, text: str, state: State) -> Any:
        return notation.parse_notation(text)

    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def explain_action(self, state: State, action: Any) -> str:
        return explain.explain_action(state, action)

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
