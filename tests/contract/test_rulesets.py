"""Contract tests over every registered ruleset (design.md sections 2 and 8), without a store.

Seeded bot playouts run each game to its end. Along the way and at the end they prove:
- every prompted seat has a legal action, `pending` is empty exactly when `outcome` is set;
- every listed legal action is accepted and every probe action not listed is refused
  (on a sample of the states, to keep the suite fast);
- folding all facts from `initial` reproduces the live state;
- facts round-trip through the codec and msgspec JSON unchanged;
- every secret a ruleset keeps (`SECRETS`: a hand, a deck's order, a hidden goal) shows in its
  owner's view and the omniscient one and in no other seat's nor the public's, no view shows
  the server seed, and redaction leaves the omniscient view alone (the strong form is
  test_hidden_information.py: games differing only in a secret look the same to the others);
- every fact has a one-line description;
- a replay with the same seed and a disturbed global `random` gives identical facts.
Physical-mode playouts have the bot answer the recorder's prompts from `legal_actions`.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

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
from tests.contract.twins import ANY_DEFINITIONS, DEFAULT_OPTIONS

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
    # 150 random kingdoms with Events and Landmarks a run: each run draws the same ones, and
    # 300 held two workers for minutes
    ("dominion", "empires", {"expansions": "base,empires"}, 150, 20),
    ("dominion", "empires-separate", {"expansions": "base,empires", "landscapes": "separate"}, 40, 0),
    ("dominion", "five-six", {"expansions": "base,empires", "players_5_6": True}, 20, 0),
    # The 2nd-edition base set (dominion-2e.md): its random kingdoms, its ten new or changed
    # cards alone (the kept ones excluded), and with Empires.
    ("dominion", "second-edition", {"base_edition": 2}, 60, 0),
    ("dominion", "second-edition-new-cards", {"base_edition": 2, "exclude": KEPT_IN_2E}, 60, 4),
    ("dominion", "second-edition-empires", {"base_edition": 2, "expansions": "base,empires"}, 32, 0),
]
# `any` with each shipped definition (domain/games/any/definitions): dice sets, a 52-card deck,
# a cooperative game with its loss track.
CONFIGURATIONS += [("any", name, options, 40, 12) for name, options in ANY_DEFINITIONS.items()]
STEER = 0.8
DEFAULT_DIGITAL = 200
DEFAULT_PHYSICAL = 20
MAX_ACTIONS = 50_000
SAMPLE_EVERY = 41  # check legal/probe agreement and views on one state in this many
REPLAY_EVERY = 10  # replay one game in this many with the global random disturbed
CHUNKS = 4  # playouts are split so that parallel test workers can share them
CODEC_EVERY = 10  # push every fact of one game in this many through the codec one by one
# The share of the playouts above a run plays: half in the suite, which keeps it near ten
# minutes on two cores; CHRONICLE_PLAYOUTS=1 (or 10) plays them all (or ten times as many).
SCALE = float(os.environ.get("CHRONICLE_PLAYOUTS", "0.5"))


def scaled(games: int) -> int:
    return max(min(games, CHUNKS), round(games * SCALE))


CANARY = "canary-3b9e"  # a value no game uses: planted where a secret is kept


@dataclass(frozen=True)
class Secret:
    """One thing a game keeps from some viewers: `planted` is the state with the secret's value
    replaced by CANARY; `owner` is the one seat that may see it (None: nobody while the game
    runs). The omniscient view shows every secret, so a plant it does not show is a plant in
    the wrong place, and the check fails rather than passing on nothing."""

    what: str
    owner: str | None
    planted: Any


def _first(items: tuple[str, ...], skip: str | None = None) -> int | None:
    return next((i for i, item in enumerate(items) if item != skip), None)


def _plant(items: tuple[str, ...], at: int) -> tuple[str, ...]:
    return (*items[:at], CANARY, *items[at + 1 :])


def _with_player(state: Any, p: int, **zone: tuple[str, ...]) -> Any:
    players = state.players
    return replace(state, players=(*players[:p], replace(players[p], **zone), *players[p + 1 :]))


def _province_secrets(state: Any) -> Iterator[Secret]:
    """The face-down goal stack of a digital game: its order, from everyone (1.2 step 3)."""
    goals = state.goals
    if state.mode == "digital" and goals.hidden:
        yield Secret(
            "the hidden goals", None, replace(state, goals=replace(goals, hidden=_plant(goals.hidden, 0)))
        )


def _dominion_secrets(state: Any) -> Iterator[Secret]:
    """A hand and what lies under the top of a discard pile are their owner's; nobody sees a
    deck's order, nor a physical game's known top cards (6.5)."""
    for p, player in enumerate(state.players):
        seat = state.seats[p]

        if player.hand:
            yield Secret(f"{seat}'s hand", seat, _with_player(state, p, hand=_plant(player.hand, 0)))
        if len(player.discard) > 1:
            yield Secret(
                f"{seat}'s discard pile", seat, _with_player(state, p, discard=_plant(player.discard, 0))
            )
        if player.deck:
            yield Secret(f"{seat}'s deck order", None, _with_player(state, p, deck=_plant(player.deck, 0)))


def _dynasties_secrets(state: Any) -> Iterator[Secret]:
    """A battle side's cards but the face-up one are its player's until the showdown; the draw
    pile's order is nobody's (5.1)."""
    battle = state.battle
    if battle is not None and battle.result is None:
        for name in ("attacker", "defender"):
            side = getattr(battle, name)
            at = _first(side.cards, skip=side.face_up)
            if at is not None:
                side = replace(side, cards=_plant(side.cards, at))
                planted = replace(state, battle=replace(battle, **{name: side}))
                yield Secret(f"the {name}'s battle hand", side.player, planted)
    if state.draw:
        yield Secret("the draw pile", None, replace(state, draw=_plant(state.draw, 0)))


def _dominations_secrets(state: Any) -> Iterator[Secret]:
    """Land tiles and conquest cards in hand, the cards an attacker must use and its Spy peek
    are their owner's; no draw pile's order is anybody's (5.5)."""
    attack = state.attack
    for p, player in enumerate(state.players):
        if player.land_hand and state.opt("land_hand_visibility") == "private":
            yield Secret(
                f"{player.seat}'s land tiles",
                player.seat,
                _with_player(state, p, land_hand=_plant(player.land_hand, 0)),
            )
        # The attacker's conquest value is summed from its hand, which a canary cannot enter.
        if player.conquest_hand and (attack is None or attack.attacker != player.seat):
            yield Secret(
                f"{player.seat}'s conquest cards",
                player.seat,
                _with_player(state, p, conquest_hand=_plant(player.conquest_hand, 0)),
            )
    if attack is not None and attack.must_use:
        must_use = _plant(attack.must_use, 0)
        yield Secret(
            "the cards the attacker must use",
            attack.attacker,
            replace(state, attack=replace(attack, must_use=must_use)),
        )
    if attack is not None and attack.spy_peek:
        yield Secret(
            "the Spy's peek",
            attack.attacker,
            replace(state, attack=replace(attack, spy_peek=_plant(attack.spy_peek, 0))),
        )
    for deck in ("conquest", "rebellion", "land"):
        pile = getattr(state, deck)
        if pile.draw:
            yield Secret(
                f"the {deck} draw pile",
                None,
                replace(state, **{deck: replace(pile, draw=_plant(pile.draw, 0))}),
            )
    for age, cards in enumerate(state.province_decks):
        if cards:
            decks = (*state.province_decks[:age], _plant(cards, 0), *state.province_decks[age + 1 :])
            yield Secret(f"the province deck of Age {age + 1}", None, replace(state, province_decks=decks))


def _any_secrets(state: Any) -> Iterator[Secret]:
    """A hand is its seat's; a draw pile's order and contents are nobody's (any 7)."""
    for seat, hand in state.hands.items():
        if hand.cards:
            planted = replace(hand, cards=_plant(hand.cards, 0))
            yield Secret(f"{seat}'s hand", seat, replace(state, hands={**state.hands, seat: planted}))
    for name, deck in state.decks.items():
        if deck.pile:
            planted_deck = replace(deck, pile=_plant(deck.pile, 0))
            yield Secret(f"the {name} pile", None, replace(state, decks={**state.decks, name: planted_deck}))


# What each ruleset keeps from players and the public, in a running game's state.
SECRETS: dict[str, Callable[[Any], Iterable[Secret]]] = {
    "province": _province_secrets,
    "dominion": _dominion_secrets,
    "dynasties": _dynasties_secrets,
    "dominations": _dominations_secrets,
    "any": _any_secrets,
}
# Secret ids a game's setup deals, which its redacted setup facts must not show to the public.
SETUP_IDS: dict[str, Callable[[Any], Iterable[str]]] = {
    "province": lambda state: state.goals.hidden if state.mode == "digital" else ()
}

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
    options = resolve_options(meta, chosen if chosen is not None else DEFAULT_OPTIONS.get(meta.id, {}))
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
    viewers = [PUBLIC, *(Viewer("seat", s.id) for s in playout.config.seats)]
    seed = seed_of(playout.config.game_id).hex() if playout.config.mode == "digital" else None
    for viewer in viewers:
        text = msgspec.json.encode(ruleset.view(state, viewer)).decode()
        assert seed is None or seed not in text, f"{viewer} sees the server seed"
    # One secret in every other sampled state, in turn, keeps the cost bounded; the playouts
    # still reach each kind many times.
    secrets = list(SECRETS[ruleset.meta.id](state)) if playout.actions % 2 == 0 else []
    if secrets:
        secret = secrets[playout.actions // 2 % len(secrets)]
        for viewer in [*viewers, OMNISCIENT]:
            text = msgspec.json.encode(ruleset.view(secret.planted, viewer)).decode()
            sees = viewer.kind == "omniscient" or (viewer.kind == "seat" and viewer.seat == secret.owner)
            assert (CANARY in text) == sees, f"{viewer} {'does not see' if sees else 'sees'} {secret.what}"
            assert seed is None or seed not in text, f"{viewer} sees the server seed"


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
    hidden_at_setup = tuple(SETUP_IDS[ruleset.meta.id](playout.state)) if ruleset.meta.id in SETUP_IDS else ()
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
    games = scaled(DIGITAL_PLAYOUTS.get(ruleset.meta.id, DEFAULT_DIGITAL))
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
    for i in range(chunk, scaled(digital), CHUNKS):
        playout = play(ruleset, i, "digital", options=options, name=name, steer=STEER)
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        assert ruleset.outcome(playout.state) is not None
        if i % REPLAY_EVERY == 0:
            again = play(
                ruleset, i, "digital", sample=False, disturb=True, options=options, name=name, steer=STEER
            )
            assert again.facts == playout.facts, f"game {i} is not deterministic"
    for i in range(chunk, scaled(physical), CHUNKS):
        playout = play(ruleset, 10_000 + i, "physical", options=options, name=name, steer=STEER)
        check_facts(ruleset, playout, one_by_one=i % CODEC_EVERY == 0)
        assert ruleset.outcome(playout.state) is not None


@pytest.mark.parametrize("ruleset", RULESETS, ids=_ids)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_physical_playouts_with_the_recorder_entering_random_outcomes(
    ruleset: AnyRuleset, chunk: int
) -> None:
    for i in range(chunk, scaled(PHYSICAL_PLAYOUTS.get(ruleset.meta.id, DEFAULT_PHYSICAL)), CHUNKS):
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
