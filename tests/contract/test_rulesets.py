"""Contract tests over every registered ruleset (design.md sections 2 and 8), without a store.

Seeded bot playouts run each game to its end. Along the way and at the end they prove:
- every prompted seat has a legal action, `pending` is empty exactly when `outcome` is set;
- every listed legal action is accepted and every probe action not listed is refused
  (on a sample of the states, to keep the suite fast);
- folding all facts from `initial` reproduces the live state;
- facts round-trip through the codec and msgspec JSON unchanged;
- views for seats and the public never show hidden information (for rulesets that name it in
  `SECRETS`), and redaction leaves the omniscient view alone;
- every fact has a one-line description;
- a replay with the same seed and a disturbed global `random` gives identical facts.
Physical-mode playouts have the bot answer the recorder's prompts from `legal_actions`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from domain import templates
from domain.rng import NoRng, Rng, SeededRng
from domain.ruleset import (
    OMNISCIENT,
    PUBLIC,
    Actor,
    Command,
    GameConfig,
    Rejection,
    Ruleset,
    Seat,
    Viewer,
    all_rulesets,
    resolve_options,
)
from store.references import resolve

AnyRuleset = Ruleset[Any, Any, Any]

DIGITAL_PLAYOUTS: dict[str, int] = {"province": 200, "dynasties": 200, "dominations": 200, "dominion": 300}
PHYSICAL_PLAYOUTS: dict[str, int] = {"province": 30}
# Further option sets a ruleset is played with: (name, options, digital playouts, physical ones).
# Dominion with Empires: random kingdoms from both sets with random Events and Landmarks. Debt
# lets uniformly random players reach a dead end the rules allow (every deck trashed down to
# nothing that makes $, every player in debt, so nobody can ever buy again); these playouts
# therefore let the ruleset's own bot make half of the choices (STEER), the rest stay random.
KEPT_IN_2E = (
    "Bureaucrat,Cellar,Chapel,Council Room,Festival,Gardens,Laboratory,Library,Market,Militia,"
    "Moat,Remodel,Smithy,Village,Witch,Workshop"
)
CONFIGURATIONS: list[tuple[str, str, dict[str, Any], int, int]] = [
    ("dominion", "empires", {"expansions": "base,empires"}, 300, 20),
    ("dominion", "empires-separate", {"expansions": "base,empires", "landscapes": "separate"}, 40, 0),
    ("dominion", "five-six", {"expansions": "base,empires", "players_5_6": True}, 20, 0),
    # The 2nd-edition base set (dominion-2e.md): its random kingdoms, its ten new or changed
    # cards alone (the kept ones excluded), and with Empires.
    ("dominion", "second-edition", {"base_edition": 2}, 60, 0),
    ("dominion", "second-edition-new-cards", {"base_edition": 2, "exclude": KEPT_IN_2E}, 60, 4),
    ("dominion", "second-edition-empires", {"base_edition": 2, "expansions": "base,empires"}, 32, 0),
]
STEER = 0.8
DEFAULT_DIGITAL = 200
DEFAULT_PHYSICAL = 20
MAX_ACTIONS = 50_000
SAMPLE_EVERY = 41  # check legal/probe agreement and views on one state in this many
REPLAY_EVERY = 10  # replay one game in this many with the global random disturbed
CHUNKS = 4  # digital playouts are split so that parallel test workers can share them
CODEC_EVERY = 10  # push every fact of one game in this many through the codec one by one


def _province_secrets(state: Any) -> Iterable[str]:
    return state.goals.hidden if state.mode == "digital" else ()


# What a ruleset keeps from players and the public, per state (ids that must not show).
SECRETS: dict[str, Callable[[Any], Iterable[str]]] = {"province": _province_secrets}

RULESETS = all_rulesets()


def _ids(ruleset: AnyRuleset) -> str:
    return ruleset.meta.id


@dataclass
class Playout:
    config: GameConfig
    initial: Any
    state: Any
    facts: list[Any] = field(default_factory=list)
    actions: int = 0


def seed_of(game_id: str) -> bytes:
    return hashlib.sha256(game_id.encode()).digest()


def make_config(
    ruleset: AnyRuleset, i: int, mode: str, chosen: dict[str, Any] | None = None, name: str = ""
) -> GameConfig:
    meta = ruleset.meta
    count = random.Random(f"seats-{i}").randint(meta.min_players, meta.max_players)
    options = resolve_options(meta, chosen or {})
    assert not isinstance(options, Rejection), options
    check = getattr(ruleset, "check_config", None)
    while True:
        config = GameConfig(
            game_id=f"contract-{name}{'-' if name else ''}{i}",
            ruleset=meta.id,
            mode="physical" if mode == "physical" else "digital",
            seats=tuple(Seat(seat, f"Player {seat}") for seat in meta.seat_ids[:count]),
            options=options,
        )
        # A seat count these options do not allow (Dominion's 5-6 players) plays with fewer.
        if check is None or check(config) is None or count == meta.min_players:
            return config
        count -= 1


def choose(bot: random.Random, legal: tuple[Any, ...]) -> Any:
    """A kind first, then an action of that kind: long lists of one kind do not drown the rest."""
    kinds = sorted({type(action).__name__ for action in legal})
    kind = bot.choice(kinds)
    return bot.choice([action for action in legal if type(action).__name__ == kind])


def check_state(
    ruleset: AnyRuleset, playout: Playout, seat: str | None, legal: tuple[Any, ...], rng: Rng
) -> None:
    """Legal actions are exactly the accepted probes; views hide the secrets."""
    state = playout.state
    by: Actor = "seat" if seat is not None else "recorder"
    for action in legal:
        outcome = ruleset.decide(state, Command(action, seat, by), rng)
        assert not isinstance(outcome, Rejection), f"legal {action} refused: {outcome}"
    shapes = templates.of(ruleset, state, seat)
    for shape in shapes:  # every template's fewest and most are accepted
        spans = templates.ranges(shape)
        assert spans and all(low <= high for low, high in spans), shape
        for values in ([low for low, _ in spans], [high for _, high in spans]):
            action = ruleset.parse_notation(templates.fill(shape, values), state)
            assert not isinstance(action, Rejection), f"template {shape} does not read: {action}"
            outcome = ruleset.decide(state, Command(action, seat, by), rng)
            assert not isinstance(outcome, Rejection), f"template {shape} refused: {outcome}"
    for action in ruleset.probe_actions(state):
        if action in legal:
            continue
        outcome = ruleset.decide(state, Command(action, seat, by), rng)
        notation = ruleset.format_action(action)
        covered = any(templates.matches(shape, notation) for shape in shapes)
        assert isinstance(outcome, Rejection) or covered, f"unlisted {action} accepted for {seat}"
        if isinstance(outcome, Rejection):
            # Every refusal cites a section a user can read (`chronicle rules`).
            assert resolve(outcome.rule) is not None, f"{outcome.code} cites {outcome.rule!r}: no such rule"
    secrets = SECRETS.get(ruleset.meta.id)
    hidden = tuple(secrets(state)) if secrets is not None else ()
    viewers = [PUBLIC, *(Viewer("seat", s.id) for s in playout.config.seats)]
    for viewer in viewers:
        text = msgspec.json.encode(ruleset.view(state, viewer)).decode()
        for secret in hidden:
            assert f'"{secret}"' not in text, f"{viewer} sees hidden {secret}"


def play(
    ruleset: AnyRuleset,
    i: int,
    mode: str,
    *,
    sample: bool = True,
    disturb: bool = False,
    options: dict[str, Any] | None = None,
    name: str = "",
    steer: float = 0.0,
) -> Playout:
    config = make_config(ruleset, i, mode, options, name)
    rng: Rng = SeededRng(seed_of(config.game_id), config.game_id) if mode == "digital" else NoRng()
    initial = ruleset.initial(config)
    playout = Playout(config, initial, initial)
    bot = random.Random(i)
    noise = random.Random(-i)

    def apply(facts: Iterable[Any]) -> None:
        for fact in facts:
            playout.facts.append(fact)
            playout.state = ruleset.evolve(playout.state, fact)

    apply(ruleset.setup(config, initial, rng))
    hidden_at_setup = tuple(SECRETS[ruleset.meta.id](playout.state)) if ruleset.meta.id in SECRETS else ()
    for fact in playout.facts:
        text = msgspec.json.encode(ruleset.codec.encode(ruleset.redact(fact, PUBLIC))).decode()
        assert all(f'"{secret}"' not in text for secret in hidden_at_setup), f"{fact} leaks when redacted"
        assert ruleset.redact(fact, OMNISCIENT) == fact
    while ruleset.outcome(playout.state) is None:
        prompts = ruleset.pending(playout.state)
        assert prompts, "nothing is prompted while the game runs"
        seat = bot.choice(prompts).seat
        legal = ruleset.legal_actions(playout.state, seat)
        assert legal, f"the prompted {seat} has no legal action"
        # Prompts for the recorder (physical random inputs) are rare: check each of them.
        if sample and (seat is None or playout.actions % SAMPLE_EVERY == i % SAMPLE_EVERY):
            check_state(ruleset, playout, seat, legal, rng)
        if steer and bot.random() < steer:
            action = ruleset.bot_choose(playout.state, seat, legal, bot.randrange)
        else:
            action = choose(bot, legal)
        if disturb:
            random.seed(noise.random())
            random.random()
        by: Actor = "seat" if seat is not None else "recorder"
        outcome = ruleset.decide(playout.state, Command(action, seat, by), rng)
        assert not isinstance(outcome, Rejection), f"legal {action} refused: {outcome}"
        apply(outcome)
        playout.actions += 1
        assert playout.actions <= MAX_ACTIONS, "the game did not end"
    assert ruleset.pending(playout.state) == ()
    return playout


def check_facts(ruleset: AnyRuleset, playout: Playout, one_by_one: bool) -> None:
    folded = playout.initial
    for fact in playout.facts:
        folded = ruleset.evolve(folded, fact)
    assert folded == playout.state, "folding the facts does not give the live state"
    fact_list = list[ruleset.codec.fact_type]  # type: ignore[name-defined]
    decoded = msgspec.json.decode(msgspec.json.encode(playout.facts), type=fact_list)
    assert decoded == playout.facts
    if one_by_one:
        for fact in playout.facts:
            encoded = msgspec.json.decode(msgspec.json.encode(ruleset.codec.encode(fact)))
            assert ruleset.codec.decode_fact(encoded) == fact
            line = ruleset.describe(fact, playout.config)
            assert isinstance(line, str) and line


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_seeded_digital_playouts_reach_the_end_and_keep_every_contract(
    ruleset: AnyRuleset, chunk: int
) -> None:
    games = DIGITAL_PLAYOUTS.get(ruleset.meta.id, DEFAULT_DIGITAL)
    for i in range(chunk, games, CHUNKS):
        playout = play(ruleset, i, "digital")
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        outcome = ruleset.outcome(playout.state)
        assert outcome is not None and set(outcome.scores) == {s.id for s in playout.config.seats}
        if i % REPLAY_EVERY == 0:
            replay = play(ruleset, i, "digital", sample=False, disturb=True)
            assert replay.facts == playout.facts, f"game {i} is not deterministic"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(
    ("ruleset_id", "name", "options", "digital", "physical"),
    CONFIGURATIONS,
    ids=[f"{r}-{n}" for r, n, *_ in CONFIGURATIONS],
)
def test_seeded_playouts_of_each_further_configuration_keep_every_contract(
    ruleset_id: str, name: str, options: dict[str, Any], digital: int, physical: int, chunk: int
) -> None:
    ruleset = next(r for r in RULESETS if r.meta.id == ruleset_id)
    for i in range(chunk, digital, CHUNKS):
        playout = play(ruleset, i, "digital", options=options, name=name, steer=STEER)
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        assert ruleset.outcome(playout.state) is not None
        if i % REPLAY_EVERY == 0:
            again = play(
                ruleset, i, "digital", sample=False, disturb=True, options=options, name=name, steer=STEER
            )
            assert again.facts == playout.facts, f"game {i} is not deterministic"
    for i in range(chunk, physical, CHUNKS):
        playout = play(ruleset, 10_000 + i, "physical", options=options, name=name, steer=STEER)
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        assert ruleset.outcome(playout.state) is not None


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_physical_playouts_with_the_recorder_entering_random_outcomes(ruleset: AnyRuleset) -> None:
    for i in range(PHYSICAL_PLAYOUTS.get(ruleset.meta.id, DEFAULT_PHYSICAL)):
        playout = play(ruleset, 10_000 + i, "physical")
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        assert ruleset.outcome(playout.state) is not None


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_the_meta_options_resolve_to_their_defaults(ruleset: AnyRuleset) -> None:
    meta = ruleset.meta
    resolved = resolve_options(meta, {})
    assert not isinstance(resolved, Rejection)
    assert resolved == {o.name: o.default for o in meta.options}
    for option in meta.options:
        assert option.choices is None or option.default in option.choices
    assert meta.min_players <= meta.max_players <= len(meta.seat_ids)
    assert ruleset.codec.action_schemas()


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
def test_every_action_kind_round_trips_through_the_notation(ruleset: AnyRuleset) -> None:
    playout = play(ruleset, 0, "digital", sample=False)
    state = ruleset.initial(playout.config)
    for action in ruleset.probe_actions(state):
        assert ruleset.parse_notation(ruleset.format_action(action), state) == action
