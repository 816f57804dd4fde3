"""The Ruleset protocol (design.md section 2), rejections, prompts, views and the registry.

A ruleset is a set of pure functions over immutable state:

- `setup(config, rng)` gives the facts that open a game (including initial random outcomes);
- `decide(state, command, rng)` validates one recorded action and returns the facts it causes,
  or a `Rejection` (ALL validation lives here);
- `evolve(state, fact)` applies one fact; it never validates and never draws;
- `pending`, `legal_actions`, `view`, `outcome`, `describe` read state.

Optional hooks, looked up with `getattr` so a ruleset adds them when it has something to say:
`check_config(config) -> Rejection | None` (what option values alone cannot check, such as a
custom map), `metrics(state)` and `dice(fact)` (statistics), `resign_outcome(state, seat)`
(how a resignation ranks; domain/endings.py has the default), and
`decide_state(state, command, rng) -> (facts, state) | Rejection`: what `decide` returns
together with the state its facts lead to, for a ruleset whose `decide` already folds them
to reach it (`decider` gives it to callers, or decide-then-fold where a ruleset lacks it).
The state must equal folding the facts with `evolve`: a replay folds them again.
`read_online_log(text, kingdom)` reads a log of the game played online, for the store to import
(domain/online_logs.py, which declares it and finds it).
`setup_choices(options) -> dict` says what a table may pick when it creates a game with these
(resolved) options, beyond the options themselves, as plain JSON data for a New game form: for
Dominion `{"kingdom": {"size", "presets", "piles", "landscapes"}}` (its presets, and every pile
with its cost and types). `setup_choices` below finds it; a ruleset without it offers nothing.
`example_options() -> dict` gives the options a demonstration game plays with when none are
given, for a ruleset whose defaults alone make no game (`example_options` below finds it).

Actions and facts are msgspec Structs tagged by `kind` / `type`, so they cross every boundary
(store, HTTP, CLI) through one codec.

The built-in games fill the protocol from their modules by name (domain/ruleset_base.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Generic, Literal, Protocol, TypeVar

import msgspec
import msgspec.inspect as mi

from domain.rng import Rng

Mode = Literal["digital", "physical"]
Boundary = Literal["random", "reveal"]
Actor = Literal["seat", "recorder", "system"]


class Rejection(msgspec.Struct, frozen=True):
    """Why an action was refused: a stable code, a sentence a player understands, and the rule
    (spec file and section) it rests on."""

    code: str
    message: str
    rule: str

    @property
    def stable_code(self) -> str:
        """`code` in the one style every game answers with, snake_case like `no_worker_moved`:
        a spec's `WRONG_PHASE` reads `wrong_phase`, its `E_BAD_PARAMS` `bad_params`."""
        return (self.code[2:] if self.code.startswith("E_") else self.code).lower()

    @property
    def spec_code(self) -> str | None:
        """The spec's own name of the code, where it differs from `stable_code`."""
        return None if self.stable_code == self.code else self.code


class RejectedError(Exception):
    """A rejection raised across a layer boundary (service to API / CLI)."""

    def __init__(self, rejection: Rejection, status: int = 422) -> None:
        super().__init__(f"{rejection.code}: {rejection.message}")
        self.rejection = rejection
        self.status = status


class Prompt(msgspec.Struct, frozen=True):
    """Who owes what answer now. `seat` None means the table (the recorder) must enter a fact,
    such as an observed die. `kinds` are the action kinds that answer it; `bounds` carries
    the limits of the choice (how many cards, which ids) as data."""

    seat: str | None
    kind: str
    text: str
    kinds: tuple[str, ...]
    bounds: dict[str, Any] = {}


class Viewer(msgspec.Struct, frozen=True):
    """Whose eyes a view is for: `omniscient` (recorder, audit, finished game), `public`, or
    one seat."""

    kind: Literal["omniscient", "public", "seat"]
    seat: str | None = None

    @staticmethod
    def parse(text: str) -> Viewer:
        if text in ("omniscient", "public"):
            return Viewer(text)  # type: ignore[arg-type]
        if text.startswith("player:") and len(text) > len("player:"):
            return Viewer("seat", text.removeprefix("player:"))
        raise ValueError(f"unknown viewer {text!r}: use omniscient, public or player:<seat>")

    def sees_seat(self, seat: str) -> bool:
        return self.kind == "omniscient" or (self.kind == "seat" and self.seat == seat)

    def __str__(self) -> str:
        return f"player:{self.seat}" if self.kind == "seat" else self.kind


OMNISCIENT = Viewer("omniscient")
PUBLIC = Viewer("public")


class VariantOption(msgspec.Struct, frozen=True):
    """One named variant option. `choices` for enumerations; `minimum`/`maximum` for ints."""

    name: str
    default: str | int | bool
    description: str
    choices: tuple[str | int | bool, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


class Seat(msgspec.Struct, frozen=True):
    id: str
    name: str


class GameConfig(msgspec.Struct, frozen=True):
    """Everything a game is created with; stored in its first event."""

    game_id: str
    ruleset: str
    mode: Mode
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    client_seed: str = ""
    # A same-deal game (store/deals.py) draws as the game whose deal it replays: the
    # randomness is keyed by that game's id, not its own (records 4.3).
    deal: str = ""

    @property
    def rng_key(self) -> str:
        """The game id the randomness is keyed by (records 4.3): the deal's, else its own."""
        return self.deal or self.game_id

    @classmethod
    def from_record(cls, game_id: str, record: Mapping[str, Any]) -> GameConfig:
        """The configuration as a game's first event records it (its fields as a mapping:
        the stored event, or the created event as the API serves it)."""
        return cls(
            game_id=game_id,
            ruleset=record["ruleset"],
            mode=record["mode"],
            seats=tuple(Seat(s["id"], s["name"]) for s in record["seats"]),
            options=dict(record["options"]),
            client_seed=record.get("client_seed", ""),
            deal=record.get("deal") or "",
        )

    def seat_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.seats)

    def seat_name(self, seat: str) -> str:
        return next((s.name for s in self.seats if s.id == seat), seat)


class Command(msgspec.Struct, frozen=True):
    """One recorded action and who entered it. `seat` is the seat the action is for (None
    lets the ruleset take the seat that is prompted); `by` is `seat` for a seat's own token,
    `recorder` for the table's recorder, `system` for the engine itself."""

    action: Any
    seat: str | None
    by: Actor


class Outcome(msgspec.Struct, frozen=True):
    """The result of a finished game: scores and ranks per seat (rank 1 is best; equal ranks
    are ties), the winners, and the ruleset's score breakdown."""

    scores: dict[str, int]
    ranks: dict[str, int]
    winners: tuple[str, ...]
    details: dict[str, Any] = {}
    reason: str = ""


class RulesetMeta(msgspec.Struct, frozen=True):
    id: str
    version: str
    title: str
    seat_ids: tuple[str, ...]
    min_players: int
    max_players: int
    options: tuple[VariantOption, ...]
    hidden_information: bool
    chance: bool
    spec: str

    def option(self, name: str) -> VariantOption | None:
        return next((o for o in self.options if o.name == name), None)


S = TypeVar("S")
A = TypeVar("A")
F = TypeVar("F")

Decided = tuple[Sequence[Any], Any]
"""The facts of one accepted action and the state they lead to (`decider`)."""


_PLAIN_LEAVES = (mi.NoneType, mi.BoolType, mi.IntType, mi.StrType)


def encodes_plain(tp: Any) -> bool:
    """Whether every value of type `tp` becomes, through `msgspec.to_builtins`, only strings,
    integers, booleans, None, lists and objects with string keys: no float, no key of another
    type. Whatever this cannot tell (`Any`, a custom or a date type, bytes) counts as not plain."""
    waiting: list[Any] = [mi.type_info(tp)]
    seen: set[int] = set()  # a Struct may hold itself
    while waiting:
        info = waiting.pop()
        if id(info) in seen or isinstance(info, _PLAIN_LEAVES):
            continue
        seen.add(id(info))
        if isinstance(info, mi.LiteralType | mi.EnumType):
            continue  # msgspec takes only text, integers, booleans and None in these
        if isinstance(info, mi.Metadata):
            waiting.append(info.type)
        elif isinstance(info, mi.UnionType | mi.TupleType):
            waiting.extend(info.types if isinstance(info, mi.UnionType) else info.item_types)
        elif isinstance(info, mi.ListType | mi.SetType | mi.FrozenSetType | mi.VarTupleType):
            waiting.append(info.item_type)
        elif isinstance(info, mi.DictType):
            if not isinstance(info.key_type, mi.StrType):
                return False
            waiting.append(info.value_type)
        elif isinstance(info, mi.StructType | mi.TypedDictType | mi.DataclassType | mi.NamedTupleType):
            waiting.extend(field.type for field in info.fields)
        else:
            return False
    return True


class Codec(Generic[A, F]):
    """msgspec codecs for a ruleset's tagged unions of actions and facts.

    Decoding goes through a one-field Struct around each union: msgspec caches what it learns
    about a Struct type, not about a bare union, so converting into the union directly costs
    about fifty times as much (100-200 us a fact against 2-4 us)."""

    def __init__(self, action_type: Any, fact_type: Any) -> None:
        self.action_type = action_type
        self.fact_type = fact_type
        self._action_box = msgspec.defstruct("ActionBox", [("value", action_type)])
        self._fact_box = msgspec.defstruct("FactBox", [("value", fact_type)])
        members = getattr(action_type, "__args__", (action_type,))
        self._action_kinds: Mapping[str, type[msgspec.Struct]] = MappingProxyType(
            {m.__struct_config__.tag: m for m in members}
        )
        # Every encoded action and fact is plain JSON (store/chain.py digests it without looking)
        self.plain = encodes_plain(action_type) and encodes_plain(fact_type)

    def decode_action(self, data: object) -> A:
        """Raises msgspec.ValidationError on a malformed or unknown action."""
        try:
            return msgspec.convert({"value": data}, self._action_box).value  # type: ignore[attr-defined,no-any-return]
        except msgspec.ValidationError as error:
            where = str(error).replace(" - at `$.value`", "").replace("`$.value", "`$")
            raise msgspec.ValidationError(where) from None

    def encode(self, value: msgspec.Struct) -> dict[str, Any]:
        out = msgspec.to_builtins(value)
        assert isinstance(out, dict)
        return out

    def decode_fact(self, data: Mapping[str, Any]) -> F:
        return msgspec.convert({"value": data}, self._fact_box).value  # type: ignore[attr-defined,no-any-return]

    def action_kinds(self) -> Mapping[str, type[msgspec.Struct]]:
        """Each action's tag and type (worked out once: every recorded action checks its kind)."""
        return self._action_kinds

    def action_schemas(self) -> dict[str, Any]:
        return {kind: msgspec.json.schema(cls) for kind, cls in self.action_kinds().items()}


class Ruleset(Protocol[S, A, F]):
    """The contract every game package satisfies (design.md section 2)."""

    meta: RulesetMeta
    codec: Codec[A, F]

    def initial(self, config: GameConfig) -> S: ...

    def setup(self, config: GameConfig, state: S, rng: Rng) -> Sequence[F]: ...

    def decide(self, state: S, command: Command, rng: Rng) -> Sequence[F] | Rejection: ...

    def evolve(self, state: S, fact: F) -> S: ...

    def pending(self, state: S) -> tuple[Prompt, ...]: ...

    def legal_actions(self, state: S, seat: str | None) -> tuple[A, ...]: ...

    def view(self, state: S, viewer: Viewer) -> dict[str, Any]: ...

    def redact(self, fact: F, viewer: Viewer) -> F:
        """`fact` as `viewer` may see it (design.md 5): what is hidden from the viewer is
        emptied or replaced by the ruleset's placeholder, what is public stays."""
        ...

    def redact_action(self, action: A, seat: str | None, state: S, viewer: Viewer) -> A:
        """`action`, recorded for `seat` against `state`, as `viewer` may see it: a choice among
        hidden cards names no card to another seat (the count stays), an entry of what the
        table saw hides what the viewer did not see. It must tell the viewer no more than the
        redacted facts of the action do."""
        ...

    def redact_prompt(self, prompt: Prompt, state: S, viewer: Viewer) -> Prompt:
        """`prompt` as `viewer` may see it: another seat's prompt is shown as the step it is,
        without the candidates drawn from a zone the viewer cannot see. Which prompts are open
        must itself depend on nothing hidden from the viewer (a "may reveal" is asked whether or
        not the card is held), or no redaction can hide it."""
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def describe(self, fact: F, config: GameConfig) -> str: ...

    def parse_notation(self, text: str, state: S) -> A | Rejection: ...

    def format_action(self, action: A) -> str: ...

    def progress(self, state: S) -> tuple[int, str | None]:
        """(turn number, seat to act or None) for replay jumps and statistics. A turn is one
        player's turn in every game: the number counts the turns started so far."""
        ...

    def boundary(self, fact: F) -> Boundary | None:
        """Whether a fact is a random outcome (a die, a shuffle, a draw) or reveals hidden
        information: a correction may not silently cross either (domain/corrections.py)."""
        ...

    def bot_choose(self, state: S, seat: str | None, legal: tuple[A, ...], draw: Callable[[int], int]) -> A:
        """A simple bot's pick among `legal` (non-empty), for `simulate`: the game's plain
        strategy mixed with random legal choices. `draw(n)` is a uniform integer in [0, n)
        from the caller's seeded generator; the domain never draws itself."""
        ...

    def probe_actions(self, state: S) -> tuple[A, ...]:
        """A finite superset of plausible actions, legal or not, for the contract suite to
        prove that `decide` accepts exactly what `legal_actions` lists."""
        ...


def setup_choices(ruleset: Ruleset[Any, Any, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The ruleset's `setup_choices` for these resolved options, or nothing to choose (`{}`)."""
    own: Callable[[Mapping[str, Any]], dict[str, Any]] | None = getattr(ruleset, "setup_choices", None)
    return {} if own is None else own(options)


def example_options(ruleset: Ruleset[Any, Any, Any]) -> dict[str, Any]:
    """The options a demonstration game of the ruleset (`chronicle simulate`) plays with when
    none are given: the ruleset's own `example_options()` where its defaults alone make no game
    (a game of `any` needs a title), else none."""
    own: Callable[[], dict[str, Any]] | None = getattr(ruleset, "example_options", None)
    return {} if own is None else own()


def decider(ruleset: Ruleset[Any, Any, Any]) -> Callable[[Any, Command, Rng], Decided | Rejection]:
    """`decide` returning the state its facts lead to as well: the ruleset's own
    `decide_state`, which hands back the state it folded its facts into on the way, or else
    `decide` with the facts then folded by `evolve` (the state is the same either way)."""
    own: Callable[[Any, Command, Rng], Decided | Rejection] | None = getattr(ruleset, "decide_state", None)
    if own is not None:
        return own
    decide, evolve = ruleset.decide, ruleset.evolve

    def decide_then_fold(state: Any, command: Command, rng: Rng) -> Decided | Rejection:
        facts = decide(state, command, rng)
        if isinstance(facts, Rejection):
            return facts
        for fact in facts:
            state = evolve(state, fact)
        return facts, state

    return decide_then_fold


Die = tuple[str, int, tuple[int, ...]]
"""Dice of one random fact: (stream, faces per die, the values rolled, each in 1..faces)."""


class StatisticsHooks(Protocol):
    """Optional methods a ruleset may add for the statistics (projections/game_stats.py);
    a ruleset without them still gets every statistic that does not need them.

    - `metrics(state)`: figures worth following turn by turn, per seat, e.g.
      `{"vp": {"A": 3, "B": 5}, "coins": {...}}`; "vp" is the score progression;
    - `dice(fact)`: every die rolled in a fact (shuffles and draws excluded), for the fairness
      tests;
    - `rounds(state)`: the rounds played so far, for a game whose turns come in rounds (a
      round is every player's turn once; `progress` counts turns, one player's each).

    A game package may also hold a pure `stats` module with `per_game(config, facts, outcome)`
    (its figures of one game, from the facts of the live line) and `tables(games)` (its tables
    over many games): see domain/games/province/stats.py."""

    def metrics(self, state: Any) -> dict[str, dict[str, float]]: ...

    def dice(self, fact: Any) -> tuple[Die, ...]: ...

    def rounds(self, state: Any) -> int: ...


def resolve_options(meta: RulesetMeta, given: Mapping[str, Any]) -> dict[str, Any] | Rejection:
    """Fill defaults and validate the options a game is created with."""
    resolved: dict[str, Any] = {o.name: o.default for o in meta.options}
    for name, value in given.items():
        option = meta.option(name)
        if option is None:
            return Rejection("unknown_option", f"{meta.id} has no variant option {name!r}.", "records 2")
        if type(value) is not type(option.default):
            return Rejection(
                "invalid_option",
                f"Option {name!r} takes a {type(option.default).__name__}, not {value!r}.",
                meta.spec,
            )
        if option.choices is not None and value not in option.choices:
            choices = ", ".join(map(str, option.choices))
            return Rejection("invalid_option", f"Option {name!r} must be one of: {choices}.", meta.spec)
        too_low = option.minimum is not None and isinstance(value, int) and value < option.minimum
        too_high = option.maximum is not None and isinstance(value, int) and value > option.maximum
        if not isinstance(value, bool) and (too_low or too_high):
            return Rejection(
                "invalid_option",
                f"Option {name!r} must lie between {option.minimum} and {option.maximum}.",
                meta.spec,
            )
        resolved[name] = value
    return resolved


_REGISTRY: dict[str, Ruleset[Any, Any, Any]] = {}
PLUGIN_GROUP = "chronicle.rulesets"
_loaded = False
_ALONE: dict[str, Ruleset[Any, Any, Any]] = {}  # games loaded alone (`only_ruleset`)


def register(ruleset: Ruleset[Any, Any, Any]) -> Ruleset[Any, Any, Any]:
    _REGISTRY[ruleset.meta.id] = ruleset
    return ruleset


def get_ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any] | None:
    alone = _ALONE.get(ruleset_id)
    if alone is not None and not _loaded:
        return alone
    _load_plugins()
    return _REGISTRY.get(ruleset_id)


def only_ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any] | None:
    """`get_ruleset`, loading that game alone when its entry point bears its id (as every
    built-in game's does): a process that plays one game (a simulating helper,
    store/simulation_processes.py) starts in half the time without the others."""
    if not _loaded:
        from importlib.metadata import EntryPoint, entry_points

        from domain.builtin_games import BUILTIN_RULESETS

        found = list(entry_points(group=PLUGIN_GROUP, name=ruleset_id))
        if not found and ruleset_id in BUILTIN_RULESETS:
            found = [EntryPoint(ruleset_id, BUILTIN_RULESETS[ruleset_id], PLUGIN_GROUP)]
        if len(found) == 1:
            ruleset = found[0].load()
            if isinstance(getattr(ruleset, "meta", None), RulesetMeta) and ruleset.meta.id == ruleset_id:
                _ALONE[ruleset_id] = ruleset  # `get_ruleset` finds it too, until all are loaded
    return get_ruleset(ruleset_id)


def all_rulesets() -> list[Ruleset[Any, Any, Any]]:
    _load_plugins()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def _load_plugins() -> None:
    """Register every ruleset installed as an entry point of the `chronicle.rulesets` group
    (`name = "package.module:OBJECT"`, the object a Ruleset), and the built-in games
    (domain/builtin_games.py) the installed metadata does not list. Once per process. The flag
    is set only once every game is registered: a server's first requests arrive together on
    several threads, and one that found the flag set while another was still loading would see
    an empty registry. Two threads loading at once register the same objects, which is harmless."""
    global _loaded
    if _loaded:
        return
    from importlib.metadata import EntryPoint, entry_points

    from domain.builtin_games import BUILTIN_RULESETS

    found = list(entry_points(group=PLUGIN_GROUP))
    named = {ep.name for ep in found}
    found += [EntryPoint(n, v, PLUGIN_GROUP) for n, v in BUILTIN_RULESETS.items() if n not in named]
    for entry in found:
        ruleset = entry.load()
        if not isinstance(getattr(ruleset, "meta", None), RulesetMeta):
            raise TypeError(f"entry point {entry.name} = {entry.value} is not a ruleset")
        register(ruleset)
    _loaded = True
