"""Pairs of games that differ only in what one viewer cannot see (design.md 5).

A pair is played in lockstep by the same seeded bot. Game A follows the bot; game B copies A
until a chosen step, then differs where the viewer V cannot see it:
- in a digital game one random draw of B (a shuffle, a deal) comes from another seed;
- from that step on, whenever a seat other than V (or the table, in a physical game) acts, B
  takes another legal action of the same kind when one gives V the same redacted facts (a
  different hidden card discarded, a different card entered for an unseen draw).
The redacted facts are the ruleset's own statement of what V saw happen; the pair ends at the
first action whose redacted facts differ in every choice B has (the difference became visible
to V), or when the game ends (everything is public then).

Until then, every answer V can get about the two games must be byte for byte the same: that is
what `Twin.answers` collects, version by version, from the same functions every read path uses
(domain/reading.py). The store-level tests replay the same pairs through the HTTP API and the
command line.
"""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar
from uuid import UUID

import msgspec

from domain import reading
from domain.game import Game
from domain.games.any.definition import EXAMPLES, definition_json, load_toml
from domain.rng import NoRng, Rng, SeededRng, commitment
from domain.ruleset import (
    OMNISCIENT,
    Actor,
    Command,
    GameConfig,
    Rejection,
    Ruleset,
    Seat,
    Viewer,
    resolve_options,
)

AnyRuleset = Ruleset[Any, Any, Any]
T = TypeVar("T")
AT = datetime(2026, 1, 1, tzinfo=UTC)
ALTERNATIVES = 16  # B's other actions tried per step
MAX_STEPS = 20_000
WINDOW = 40  # steps compared after B first differs from A
IDLE = 250  # steps B may go on without differing before the pair is given up
TRIES = 8  # perturbations of one draw tried before it is spared
# Facts that carry a ruleset's unfinished effects (its continuation) rather than something that
# happened at the table: they are not evidence of what V saw, only answers V gets, so a
# difference in them is a leak, never the end of a pair.
CONTINUATIONS: dict[str, frozenset[str]] = {"dominion": frozenset({"stack_saved"})}


def _any_definitions() -> dict[str, dict[str, Any]]:
    out = {}
    for name, text in EXAMPLES.items():
        found = load_toml(text)
        assert not isinstance(found, Rejection), found
        out[name] = {"title": found.title, "definition": definition_json(found)}
    return out


# Options a game is created with where the defaults alone do not make one: `any` needs a title.
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"any": {"title": "A game night"}}
# A lone seat sees everything a game of `any` hides (its hand, its draws): pairs seat two or more.
FEWEST_SEATS = {"any": 2}
# `any` played with each of its shipped definitions (domain/games/any/definitions).
ANY_DEFINITIONS = _any_definitions()


class TwinRng:
    """The game's seeded generator. Once `active`, every draw it had not made before is
    perturbed: a shuffle has two of its items swapped, a die shows another face. A perturbation
    that shows V a difference at once is tried again with other items (up to TRIES times),
    then spared (a die everyone sees, the first player). Keyed by stream and counter, so
    deciding the same action twice draws the same."""

    def __init__(self, seed: bytes, game_id: str) -> None:
        self.base = SeededRng(seed, game_id)
        self.active = False
        self.seen: set[tuple[str, int]] = set()
        self.fresh: set[tuple[str, int]] = set()  # first made while active
        self.spared: set[tuple[str, int]] = set()
        self.tries: dict[tuple[str, int], int] = {}
        self.touched: list[tuple[str, int]] = []

    def fork(self) -> TwinRng:
        twin = copy.copy(self)
        twin.seen, twin.fresh, twin.spared = set(self.seen), set(self.fresh), set(self.spared)
        twin.tries, twin.touched = dict(self.tries), []
        return twin

    def perturbed(self) -> list[tuple[str, int]]:
        return [k for k in dict.fromkeys(self.touched) if self._perturbs(k)]

    def retry(self, keys: list[tuple[str, int]]) -> None:
        """Perturb `keys` another way next time, or spare them once out of tries."""
        for key in keys:
            self.tries[key] = self.tries.get(key, 0) + 1
            if self.tries[key] >= TRIES:
                self.spared.add(key)

    def _perturbs(self, key: tuple[str, int]) -> bool:
        return key in self.fresh and key not in self.spared

    def _touch(self, stream: str, n: int) -> tuple[str, int]:
        key = (stream, n)
        self.touched.append(key)
        if key not in self.seen:
            self.seen.add(key)
            if self.active:
                self.fresh.add(key)
        return key

    def roll(self, stream: str, n: int, faces: int, count: int = 1) -> tuple[int, ...]:
        key = self._touch(stream, n)
        rolled = self.base.roll(stream, n, faces, count)
        if not self._perturbs(key):
            return rolled
        shift = 1 + self.tries.get(key, 0) % max(faces - 1, 1)
        return tuple((value - 1 + shift) % faces + 1 for value in rolled)

    def shuffle(self, stream: str, n: int, items: Sequence[T]) -> tuple[T, ...]:
        key = self._touch(stream, n)
        order = list(self.base.shuffle(stream, n, items))
        if self._perturbs(key) and len(order) > 1:
            i, j = random.Random(f"{stream}|{n}|{self.tries.get(key, 0)}").sample(range(len(order)), 2)
            order[i], order[j] = order[j], order[i]
        return tuple(order)


@dataclass
class Side:
    """One game of the pair: the aggregate that decides and records, and a second one folded
    event by event, as every reader folds a stream."""

    game: Game
    rng: Rng
    events: list[Any] = field(default_factory=list)
    reader: Game | None = None
    finished_at: int | None = None

    def take_events(self) -> list[Any]:
        new = list(self.game.collect_events())
        self.events += new
        return new

    def fork(self) -> Side:
        """A second game identical to this one so far, with its own generator."""
        rng = self.rng.fork() if isinstance(self.rng, TwinRng) else self.rng
        return Side(copy.deepcopy(self.game), rng, list(self.events))


def config_for(ruleset: AnyRuleset, i: int, mode: str, options: dict[str, Any] | None = None) -> GameConfig:
    meta = ruleset.meta
    pick = random.Random(f"twin-seats-{meta.id}-{mode}-{i}")
    resolved = resolve_options(meta, options or DEFAULT_OPTIONS.get(meta.id, {}))
    assert not isinstance(resolved, Rejection), resolved
    check = getattr(ruleset, "check_config", None)
    count = pick.randint(max(meta.min_players, FEWEST_SEATS.get(meta.id, 0)), min(meta.max_players, 4))
    while True:
        config = GameConfig(
            game_id=str(UUID(int=pick.getrandbits(128), version=4)),
            ruleset=meta.id,
            mode="physical" if mode == "physical" else "digital",
            seats=tuple(Seat(s, f"Player {s}") for s in meta.seat_ids[:count]),
            options=resolved,
        )
        if check is None or check(config) is None or count == meta.min_players:
            return config
        count -= 1


def seed_for(config: GameConfig) -> bytes:
    return hashlib.sha256(f"twin-seed-{config.game_id}".encode()).digest()


def start(ruleset: AnyRuleset, config: GameConfig, rng: Rng) -> Side:
    published = commitment(seed_for(config)) if config.mode == "digital" else ""
    side = Side(Game.start(config, published, rng, AT), rng)
    side.take_events()
    return side


def _rng(config: GameConfig) -> Rng:
    return TwinRng(seed_for(config), config.game_id) if config.mode == "digital" else NoRng()


def shown(ruleset: AnyRuleset, facts: Sequence[Any], viewer: Viewer) -> bytes:
    """What V saw happen: the redacted facts, without the ruleset's continuation."""
    skip = CONTINUATIONS.get(ruleset.meta.id, frozenset())
    encoded = [ruleset.codec.encode(ruleset.redact(f, viewer)) for f in facts]
    return msgspec.json.encode([f for f in encoded if f.get("type") not in skip])


def choose(
    bot: random.Random, ruleset: AnyRuleset, state: Any, seat: str | None, legal: tuple[Any, ...]
) -> Any:
    """A kind first, then an action of that kind; half the time the ruleset's own bot, so that
    games go somewhere (battles are fought, cards bought, provinces conquered)."""
    if bot.random() < 0.5:
        return ruleset.bot_choose(state, seat, legal, bot.randrange)
    kinds = sorted({type(action).__name__ for action in legal})
    kind = bot.choice(kinds)
    return bot.choice([action for action in legal if type(action).__name__ == kind])


@dataclass
class Pair:
    """A played pair: both games' events, and the last version both show V alike."""

    ruleset: AnyRuleset
    config: GameConfig
    viewer: Viewer
    a: Side
    b: Side
    diverge_from: int  # the step from which B may differ (-1: its setup)
    first: int  # the first version whose stored event differs between A and B
    common: int  # versions first..common are compared (before `first` the games are one)
    differs: bool  # B's hidden state differs from A's within the compared versions


def play_pair(
    ruleset: AnyRuleset, config: GameConfig, viewer: Viewer, seed: int, *, diverge_from: int
) -> Pair:
    """Play A alone up to step `diverge_from`, then A and B in lockstep (module docstring)
    until the difference shows to `viewer`, for at most WINDOW steps. From -1, B's setup
    already differs."""
    bot, other = random.Random(seed), random.Random(-seed)
    if diverge_from < 0:
        a, b = _twin_setups(ruleset, config, viewer)
    else:
        a = start(ruleset, config, _rng(config))
        b = None
    steps, forked, differed = 0, max(diverge_from, 0), None
    visible = b is not None and shown(ruleset, _facts(a), viewer) != shown(ruleset, _facts(b), viewer)
    while not visible and ruleset.outcome(a.game.state) is None:
        if (differed is not None and steps >= differed + WINDOW) or (
            differed is None and steps >= forked + IDLE
        ):
            break
        if b is None and steps >= diverge_from:
            b = a.fork()
            if isinstance(b.rng, TwinRng):
                b.rng.active = True
        prompts = ruleset.pending(a.game.state)
        seat = bot.choice(prompts).seat
        by: Actor = "seat" if seat is not None else "recorder"
        action = choose(bot, ruleset, a.game.state, seat, ruleset.legal_actions(a.game.state, seat))
        facts_a = a.game.decide(Command(action, seat, by), a.rng)
        assert not isinstance(facts_a, Rejection), f"legal {action} refused: {facts_a}"
        picked: tuple[Any, list[Any]] | None = None
        if b is not None:
            picked = _answer_of_b(ruleset, b, viewer, other, Command(action, seat, by), facts_a)
            if picked is None:
                break  # every choice B has shows V something else: the difference is visible now
        moves: list[tuple[Side, Any, list[Any]]] = [(a, action, facts_a)]
        if b is not None and picked is not None:
            moves.append((b, *picked))
        for side, act, facts in moves:
            side.game.record(Command(act, seat, by), facts, AT)
            if ruleset.outcome(side.game.state) is not None:
                side.game.finish(seed_for(config).hex() if config.mode == "digital" else "", AT)
            side.take_events()
        steps += 1
        if differed is None and b is not None and b.game.state != a.game.state:
            differed = steps
        assert steps < MAX_STEPS, "the game did not end"
    if b is None:
        b = a.fork()
    first = next(
        (x.originator_version for x, y in zip(a.events, b.events, strict=False) if _stored(x) != _stored(y)),
        min(len(a.events), len(b.events)) + 1,
    )
    common = _common_prefix(ruleset, a, b)
    if visible:  # the setup itself showed V a difference: compare only what came before it
        common = min(common, _first_shown_difference(ruleset, a, b, viewer) - 1)
    return Pair(ruleset, config, viewer, a, b, diverge_from, first, common, first <= common)


def _twin_setups(ruleset: AnyRuleset, config: GameConfig, viewer: Viewer) -> tuple[Side, Side]:
    """A's setup, and B's with every setup draw perturbed that V does not see (found one draw at
    a time: a draw each of whose perturbations shows V something is spared)."""
    a = start(ruleset, config, _rng(config))
    if not isinstance(a.rng, TwinRng):
        return a, a.fork()
    want = shown(ruleset, _facts(a), viewer)
    keys = sorted(a.rng.seen)
    kept: dict[tuple[str, int], int] = {}
    for index, key in enumerate(keys):
        for attempt in range(TRIES):
            rng = _setup_rng(config, keys, {**kept, key: attempt}, later=keys[index + 1 :])
            if shown(ruleset, _facts(start(ruleset, config, rng)), viewer) == want:
                kept[key] = attempt
                break
    return a, start(ruleset, config, _setup_rng(config, keys, kept, later=[]))


def _setup_rng(
    config: GameConfig,
    keys: list[tuple[str, int]],
    kept: dict[tuple[str, int], int],
    later: list[tuple[str, int]],
) -> TwinRng:
    rng = TwinRng(seed_for(config), config.game_id)
    rng.active, rng.tries = True, dict(kept)
    rng.spared = {k for k in keys if k not in kept} | set(later)
    return rng


def _answer_of_b(
    ruleset: AnyRuleset, b: Side, viewer: Viewer, other: random.Random, command: Command, facts_a: list[Any]
) -> tuple[Any, list[Any]] | None:
    """B's action for the step A took with `command`: another legal action of the same kind when
    the seat is not V's (a hidden choice), else A's own; and, in a digital game, with its
    perturbed draws, sparing those whose outcome V would see. None if no choice shows V what A's
    showed."""
    want = shown(ruleset, facts_a, viewer)
    everything = shown(ruleset, facts_a, OMNISCIENT)
    action, seat = command.action, command.seat
    candidates = [action]
    if not (seat is not None and viewer.sees_seat(seat)):
        kind = type(action)
        others = [x for x in ruleset.legal_actions(b.game.state, seat) if type(x) is kind and x != action]
        other.shuffle(others)
        candidates = [*others[:ALTERNATIVES], action]
    rng = b.rng
    for candidate in candidates:
        while True:
            if isinstance(rng, TwinRng):
                rng.touched = []
            facts_b = b.game.decide(msgspec.structs.replace(command, action=candidate), rng)
            if isinstance(facts_b, Rejection):
                break
            # Another action is a hidden choice only if it changes the game where V cannot see
            # (a declared check that changes nothing, or the order a list was typed in, is not).
            hidden = candidate == action or shown(ruleset, facts_b, OMNISCIENT) != everything
            if hidden and shown(ruleset, facts_b, viewer) == want:
                return candidate, facts_b
            if not isinstance(rng, TwinRng) or not rng.perturbed():
                break
            rng.retry(rng.perturbed())
    return None


def _stored(event: Any) -> bytes:
    return msgspec.json.encode({k: v for k, v in vars(event).items() if k != "timestamp"}, enc_hook=str)


def _facts(side: Side) -> list[Any]:
    ruleset = side.game.ruleset
    return [ruleset.codec.decode_fact(e.fact) for e in side.events if isinstance(e, Game.FactRecorded)]


def _common_prefix(ruleset: AnyRuleset, a: Side, b: Side) -> int:
    """The last version at which V may not tell the games apart. Every step both games
    recorded showed V the same facts (that is how B chose), so this is the end of the shorter
    stream, or the version before the rules end either game (everything is public then)."""
    return min(_open_until(ruleset, a), _open_until(ruleset, b))


def _first_shown_difference(ruleset: AnyRuleset, a: Side, b: Side, viewer: Viewer) -> int:
    for x, y in zip(a.events, b.events, strict=False):
        if isinstance(x, Game.FactRecorded) and isinstance(y, Game.FactRecorded):
            fx, fy = ruleset.codec.decode_fact(x.fact), ruleset.codec.decode_fact(y.fact)
            if shown(ruleset, [fx], viewer) != shown(ruleset, [fy], viewer):
                return int(x.originator_version)
    return min(len(a.events), len(b.events)) + 1


def _open_until(ruleset: AnyRuleset, side: Side) -> int:
    state: Any = None
    last = 0
    for event in side.events:
        if isinstance(event, Game.Created):
            state = ruleset.initial(GameConfig.from_record(str(event.originator_id), vars(event)))
        elif isinstance(event, Game.FactRecorded):
            state = ruleset.evolve(state, ruleset.codec.decode_fact(event.fact))
            if ruleset.outcome(state) is not None:
                break
        elif isinstance(event, Game.Finished):
            break
        last = event.originator_version
    return last


def answers(side: Side, viewer: Viewer, first: int, last: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """Every answer `viewer` can get at each version 1..last of one game, from the functions
    every read path uses: the event (its data and text line), the state, the prompts, the
    summary, the legal actions of the viewer's seat and the figures statistics follow."""
    ruleset = side.game.ruleset
    folded: Game | None = None
    metrics: Callable[[Any], Any] | None = getattr(ruleset, "metrics", None)
    for event in side.events[:last]:
        folded = event.mutate(folded)
        assert folded is not None
        if event.originator_version < first:
            continue
        eyes = OMNISCIENT if folded.outcome is not None else viewer
        yield (
            event.originator_version,
            {
                "event": msgspec.to_builtins(reading.present(folded, event, eyes)),
                "state": reading.state(folded, eyes),
                "prompts": reading.prompts(folded, eyes),
                "status": folded.status,
                "legal": reading.legal_actions(folded, viewer.seat) if viewer.kind == "seat" else None,
                "metrics": metrics(folded.state) if metrics is not None else None,
            },
        )


def first_difference(pair: Pair) -> tuple[int, str, Any, Any] | None:
    """The first version and answer at which V could tell A from B, or None."""
    for (version, x), (_, y) in zip(
        answers(pair.a, pair.viewer, pair.first, pair.common),
        answers(pair.b, pair.viewer, pair.first, pair.common),
        strict=True,
    ):
        for key in x:
            if msgspec.json.encode(x[key]) != msgspec.json.encode(y[key]):
                return version, key, x[key], y[key]
    return None


def hidden_differences(pair: Pair) -> set[str]:
    """The kinds of fact (`type` or `type:source`) that differ between A and B at one version
    of the compared part while the viewer is shown them alike: the hidden information the pair
    really put to the test. A fact wrongly shown to the viewer never differs so (the pair ends
    where it would), so a kind the rules keep hidden that no pair differs in is a finding."""
    ruleset = pair.ruleset
    found: set[str] = set()
    for x, y in zip(pair.a.events[: pair.common], pair.b.events[: pair.common], strict=False):
        if not (isinstance(x, Game.FactRecorded) and isinstance(y, Game.FactRecorded)):
            continue
        fx, fy = ruleset.codec.decode_fact(x.fact), ruleset.codec.decode_fact(y.fact)
        if type(fx) is not type(fy) or shown(ruleset, [fx], OMNISCIENT) == shown(ruleset, [fy], OMNISCIENT):
            continue
        if shown(ruleset, [fx], pair.viewer) == shown(ruleset, [fy], pair.viewer):
            kind = x.fact.get("type", type(fx).__name__)
            source = x.fact.get("source")
            found.add(f"{kind}:{source}" if isinstance(source, str) else str(kind))
    return found
