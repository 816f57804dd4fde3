"""Fuzzing the HTTP API from its own OpenAPI document (schemathesis), shared by the suite's
bounded run (tests/api/test_fuzzing.py) and the large one (bench/fuzz.py).

For every operation of `/schema/openapi.json`, schemathesis generates requests that fit the
schema and requests that do not; the driver points most of them at real games (a digital and
a physical game of every ruleset with some actions in, and a finished one) with real tokens
(the seats', the recorder's, the administrator's, another game's, a made-up one), and turns
some action bodies into near-legal ones: a legal action with one field replaced, or a legal
notation with one word changed, so the rulesets see what a careless or hostile client sends.
Every answer must hold:

- no 5xx;
- no Python traceback text in the body;
- a rejected request (4xx) appends no event: the store's head is the same after it.

With `checks` (`ALL_CHECKS`: every check schemathesis has), each answer must also pass those:
its status, media type, headers and body as the document says, a request that breaks the
schema refused, one that fits it accepted, a 405 with `Allow`, and so on. Then the run also
sends, per operation, the first `coverage` requests of schemathesis's coverage phase (each
boundary of each parameter, a missing required header, an undeclared method), as generated.
Aiming never touches the part of a request its generation made invalid, so a request meant to
break the schema still does.

A request that fits the schema may still be refused for the game's state, which a schema cannot
say (`STATE_REFUSALS`): positive_data_acceptance accepts, for those operations only, the status
of that documented refusal, and the answer must then carry one of its codes.

Failures are collected, not raised, so one run reports every one it met, by check.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import hypothesis.strategies as st
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode
from schemathesis.checks import CHECKS, CheckFunction, load_all_checks
from schemathesis.config import ChecksConfig, OperationConfig
from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.result import Ok
from schemathesis.core.transport import Response
from schemathesis.filters import FilterSet
from schemathesis.schemas import APIOperation, BaseSchema

from domain.ruleset import Mode, all_rulesets
from store.app import RECORDER, Chronicle, NewGame
from tests.api.support import play_to_end
from tests.short_games import new_options

TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\.py\", line \d+")
STEPS = 6  # actions played into each seeded game
LEGAL_KEPT = 40  # legal actions kept per game as material for near-legal ones

AnyCase = Case[Any]
Operation = APIOperation[Any, Any, Any, Any]
Send = Callable[[AnyCase], Response]
Head = Callable[[], int]


@dataclass
class SeedGame:
    id: str
    tokens: list[str]  # the seats', the recorder's, then the administrator's
    seats: list[str]
    actions: list[dict[str, Any]]
    notation: list[str]

    @property
    def recorder(self) -> str:
        return self.tokens[-2]


@dataclass
class Figures:
    examples: int = 0
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    server_errors: int = 0
    seconds: float = 0.0
    by_check: dict[str, int] = field(default_factory=dict)  # failures of each schemathesis check

    def by_class(self) -> str:
        classes: dict[str, int] = {}
        for status, n in self.statuses.items():
            classes[f"{status // 100}xx"] = classes.get(f"{status // 100}xx", 0) + n
        return ", ".join(f"{k} {v}" for k, v in sorted(classes.items()))


def seed_games(chronicle: Chronicle, admin_token: str) -> list[SeedGame]:
    """A digital and a physical game of every ruleset with a few actions in (the recorder
    plays the first legal action), and a finished Province game."""
    games = []
    for ruleset in all_rulesets():
        meta = ruleset.meta
        players = [f"Player {i}" for i in range(1, meta.min_players + 1)]
        modes: tuple[Mode, ...] = ("digital", "physical")
        for mode in modes:
            options = new_options(meta.id)
            created = chronicle.create_game(
                NewGame(meta.id, players, mode=mode, options=options, tags=["fuzz"])
            )
            tokens = [*created.seat_tokens.values(), created.recorder_token, admin_token]
            games.append(_played(chronicle, UUID(created.game_id), tokens, list(created.seats)))
    finished = chronicle.create_game(NewGame("province", ["Ann", "Ben"], tags=["fuzz"]))
    play_to_end(chronicle, UUID(finished.game_id))
    tokens = [*finished.seat_tokens.values(), finished.recorder_token, admin_token]
    games.append(SeedGame(finished.game_id, tokens, list(finished.seats), [], []))
    return games


def _played(chronicle: Chronicle, game_id: UUID, tokens: list[str], seats: list[str]) -> SeedGame:
    seen = SeedGame(str(game_id), tokens, seats, [], [])
    for step in range(STEPS + 1):
        prompts = chronicle.prompts(game_id, RECORDER)
        if not prompts:
            break
        seat = prompts[0]["seat"]
        legal = chronicle.legal_actions(game_id, RECORDER, seat)
        seen.actions.extend(legal["actions"][:LEGAL_KEPT])
        seen.notation.extend(legal["notation"][:LEGAL_KEPT])
        if not legal["actions"] or step == STEPS:
            break
        chronicle.record(game_id, legal["actions"][0], RECORDER, seat=seat)
    return seen


# -- generation ---------------------------------------------------------------------------------

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=8,
)
WORDS = st.one_of(
    st.text(max_size=12),
    st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["0", "-1", "99", "A", "B", "C", "Z", "all", "{}", "[]", '{"a": 1}', "x" * 200]),
)


@st.composite
def near_legal_action(draw: st.DrawFn, game: SeedGame) -> dict[str, Any] | str:
    """A legal action or notation of the game with one part changed, dropped or added."""
    as_notation = draw(st.booleans())
    if game.notation and as_notation:
        words = draw(st.sampled_from(game.notation)).split()
        if words:
            at = draw(st.integers(0, len(words)))
            change = draw(st.sampled_from(["replace", "insert", "drop", "keep"]))
            if change == "replace" and at < len(words):
                words[at] = draw(WORDS)
            elif change == "insert":
                words.insert(at, draw(WORDS))
            elif change == "drop" and at < len(words):
                del words[at]
        return " ".join(words)
    if not game.actions:
        return {"kind": draw(st.text(max_size=12))}
    action = dict(draw(st.sampled_from(game.actions)))
    keys = sorted(action)
    change = draw(st.sampled_from(["replace", "drop", "add", "keep"]))
    key = draw(st.sampled_from(keys))
    if change == "replace":
        action[key] = draw(JSON_VALUES)
    elif change == "drop":
        action.pop(key)
    elif change == "add":
        action[draw(st.text(max_size=10))] = draw(JSON_VALUES)
    return action


def _aim(case: AnyCase, data: st.DataObject, games: list[SeedGame]) -> bool:
    """Point a generated request at a real game with a real token, most of the time, and make
    some action bodies near-legal: a generated request is refused for its first flaw, so
    without this the rules would rarely be reached. True if the body was rewritten: it no
    longer is one the generator made to fit (or break) the schema."""
    rewritten = False
    game = data.draw(st.sampled_from(games))
    generated = case.meta
    parts = generated.components if generated is not None else {}
    broken = {where for where, part in parts.items() if part.mode.is_negative}
    path_ok, query_ok = ParameterLocation.PATH not in broken, ParameterLocation.QUERY not in broken
    header_ok, body_ok = ParameterLocation.HEADER not in broken, ParameterLocation.BODY not in broken
    if path_ok and "game_id" in (case.path_parameters or {}) and data.draw(st.integers(0, 9)) < 8:
        case.path_parameters["game_id"] = game.id
    headers = case.headers  # a case-insensitive mapping, edited in place
    choice = data.draw(st.integers(0, 9))
    if choice < 6:
        headers["Authorization"] = f"Bearer {data.draw(st.sampled_from(game.tokens))}"
    elif choice == 6:
        headers["Authorization"] = f"Bearer {data.draw(st.sampled_from(games)).tokens[0]}"
    elif choice == 7:
        headers["Authorization"] = data.draw(
            st.sampled_from(["Bearer made-up-token", "Basic YTpi", "Bearer"])
        )
    if header_ok and "If-Match" in headers and data.draw(st.integers(0, 3)) > 0:
        del headers["If-Match"]
    actions = case.operation.method.upper() == "POST" and case.operation.path.endswith("/actions")
    if actions and body_ok and data.draw(st.integers(0, 2)) > 0:
        body: dict[str, Any] = {"action": data.draw(near_legal_action(game))}
        seat = data.draw(st.sampled_from([None, None, *game.seats, "Z"]))
        if seat is not None:
            body["seat"] = seat
        case.body = body
        rewritten = True
        if data.draw(st.booleans()):
            headers["Authorization"] = f"Bearer {game.recorder}"
    creating = case.operation.method.upper() == "POST" and case.operation.path == "/games"
    if creating and body_ok and isinstance(case.body, dict) and data.draw(st.booleans()):
        # a real ruleset, so the generated options, tags and seeds reach its checks
        meta = data.draw(st.sampled_from([r.meta for r in all_rulesets()]))
        case.body["ruleset"] = meta.id
        rewritten = True
        case.body["players"] = [f"P{i}" for i in range(data.draw(st.integers(1, meta.max_players + 1)))]
        if data.draw(st.booleans()):
            option = data.draw(st.sampled_from(meta.options))
            value = data.draw(st.sampled_from([*(option.choices or ()), option.default]) | JSON_VALUES)
            case.body["options"] = {option.name: value}
    if query_ok and case.operation.path.startswith("/stats") and case.query and "wait" in case.query:
        case.query["wait"] = 0  # the view is not run here: waiting for it only takes time
    return rewritten


# -- refusals for the game's state ----------------------------------------------------------------

# (method, path) -> status -> the problem codes that answer a request fitting the schema when the
# game's (or the server's) state refuses it; RULE stands for any refusal of the rules (a 422
# naming its `rule`). schemathesis already accepts 404 and 409 (no such game, dispute or
# annotation, a stale version, a finished game); these are the others, each a documented problem.
RULE = "(a rule)"
ACTION = {
    # the rules refuse this action in this state (not this seat's turn, not legal now)
    422: {RULE},
    # the text or object is not an action of the game's ruleset, which the path names
    400: {"bad_params", "bad_parameter", "unknown_action", "invalid_payload"}
    | {"seat_required", "unknown_seat", "wrong_seat"},
}
PAST_THE_END = {400: {"invalid_version"}}  # a version after the game's last
FILTERS = {400: {"invalid_filter"}}  # a ruleset, or a variant option, that is not installed
STATE_REFUSALS: dict[tuple[str, str], dict[int, set[str]]] = {
    # the ruleset, its player count and its options are those of an installed ruleset
    ("POST", "/games"): {400: {"unknown_ruleset", "invalid_player_count", "invalid_option"}},
    ("POST", "/games/{game_id}/actions"): ACTION,
    ("POST", "/variations/{variation_id}/actions"): ACTION,
    ("POST", "/games/{game_id}/retractions"): {422: {RULE}, 400: {"seat_required", "unknown_seat"}},
    ("POST", "/games/{game_id}/retractions/{request_id}/approve"): {422: {RULE}},
    ("POST", "/games/{game_id}/retractions/{request_id}/decline"): {422: {RULE}},
    ("POST", "/games/{game_id}/resign"): {422: {RULE}, 400: {"seat_required", "unknown_seat"}},
    ("POST", "/games/{game_id}/abandon"): {422: {RULE}},  # a finished game's record is closed
    ("GET", "/games/{game_id}/export"): {400: {"game_not_finished"}},  # BG Stats takes scores
    ("GET", "/games/{game_id}/state"): PAST_THE_END,
    ("GET", "/games/{game_id}/picture"): PAST_THE_END,
    ("POST", "/games/import/dominion"): {422: {"log_unreadable"}},
    ("POST", "/games/import/bgstats"): {422: {"bgstats_invalid"}},  # the app's three lists
    # an export's events must verify (their hash chain, the rules replaying them)
    ("POST", "/games/import"): {400: {"export_invalid"}},
    ("POST", "/games/{game_id}/disputes"): {400: {"invalid_range"}},  # within the game's versions
    # a version past the end; a coordinate (or an arrow's head) naming what the game does not hold
    ("POST", "/games/{game_id}/annotations"): {400: {"invalid_version", "invalid_coordinate"}},
    ("PATCH", "/games/{game_id}/annotations/{annotation_id}"): {400: {"invalid_coordinate"}},
    # a version past the end, or inside an action (between it and its last fact)
    ("POST", "/games/{game_id}/variations"): {400: {"invalid_version", "not_a_position"}},
    ("GET", "/stats"): FILTERS,
    ("GET", "/stats/tables/{table_id}"): FILTERS,
    ("GET", "/stats/figures"): FILTERS,
    ("GET", "/players/{name}"): FILTERS,  # a player's record narrowed as the statistics are
}


def expect_state_refusals(schema: BaseSchema) -> None:
    """Configure positive_data_acceptance of each operation in `STATE_REFUSALS` to accept its
    state's refusals besides schemathesis's own expected statuses."""
    defaults = list(POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES)
    for (method, path), refusals in STATE_REFUSALS.items():
        statuses = defaults + [str(status) for status in sorted(refusals)]
        only = FilterSet()
        only.include(method=method, path=path)
        checks = ChecksConfig.from_dict({"positive_data_acceptance": {"expected-statuses": statuses}})
        schema.config.operations.operations.append(OperationConfig(filter_set=only, checks=checks))


def _unexplained_refusal(case: AnyCase, response: Response) -> str | None:
    """A state's refusal of a request that fits the schema must carry one of its codes."""
    generated = case.meta
    if generated is None or not generated.generation.mode.is_positive:
        return None
    key = (case.operation.method.upper(), case.operation.path)
    codes = STATE_REFUSALS.get(key, {}).get(response.status_code)
    if codes is None:
        return None
    with suppress(ValueError, AttributeError):
        problem = response.json()
        if problem.get("code") in codes or (RULE in codes and "rule" in problem):
            return None
    return f"refused a request fitting the schema with {response.status_code}, not for the game's state"


# -- the run ------------------------------------------------------------------------------------


def all_checks() -> list[CheckFunction]:
    """Every check schemathesis has (`schemathesis run --checks all`)."""
    load_all_checks()
    return [check for check in CHECKS.get_all() if not isinstance(check, type)]


@dataclass
class Checking:
    """What is checked beyond the three rules above: schemathesis `checks`, run with the
    `transport` a check that sends requests of its own uses (the app, or the server's URL),
    and the first `coverage` coverage-phase requests of each operation and mode."""

    checks: Sequence[CheckFunction] = ()
    transport: dict[str, Any] = field(default_factory=dict)
    coverage: int = 0


def fuzz(
    schema: BaseSchema,
    send: Send,
    head: Head,
    games: list[SeedGame],
    examples: int,
    seed: int | None = None,
    progress: Callable[[str], None] | None = None,
    checking: Checking | None = None,
) -> Figures:
    """Every operation, positive then negative, `examples` generated requests each (and with
    `checking`, its coverage requests first)."""
    checking = checking or Checking()
    expect_state_refusals(schema)
    figures = Figures()
    started = time.perf_counter()
    operations = [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]
    # a live stream of a running game never ends: tests/e2e/test_live_streams.py covers them
    operations = [o for o in operations if not (o.path == "/live" or o.path.endswith("/live"))]
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            if checking.coverage:
                generation = schema.config.generation_for(operation=operation)
                cases = schema.iter_coverage_cases(
                    operation, generation_modes=[mode], generation_config=generation
                )
                for case in itertools.islice(cases, checking.coverage):
                    figures.examples += 1
                    _check(case, send, head, figures, checking)
            _explore(operation, mode, send, head, games, examples, seed, figures, checking)
            if progress is not None:
                progress(f"{operation.method.upper()} {operation.path} {mode.value}: {figures.by_class()}")
    figures.seconds = time.perf_counter() - started
    return figures


def _explore(
    operation: Operation,
    mode: GenerationMode,
    send: Send,
    head: Head,
    games: list[SeedGame],
    examples: int,
    seed: int | None,
    figures: Figures,
    checking: Checking,
) -> None:
    strategy = st.tuples(operation.as_strategy(generation_mode=mode), st.data())

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        derandomize=seed is None,
    )
    @given(strategy)
    def explore(pair: tuple[AnyCase, st.DataObject]) -> None:
        case, data = pair
        rewritten = _aim(case, data, games)
        figures.examples += 1
        _check(case, send, head, figures, checking, rewritten)

    if seed is not None:
        explore = hypothesis_seed(seed)(explore)
    with suppress(Unsatisfiable):  # nothing breaks the schema of an operation without parameters
        explore()


def _check(
    case: AnyCase, send: Send, head: Head, figures: Figures, checking: Checking, rewritten: bool = False
) -> None:
    """Send `case` and judge its answer; a `rewritten` body is not judged by whether it fits the
    schema (positive_data_acceptance, a state's refusal)."""
    before = head()
    response = send(case)
    figures.requests += 1
    status = response.status_code
    figures.statuses[status] = figures.statuses.get(status, 0) + 1
    text = response.content.decode("utf-8", "replace") if response.content else ""
    problems = []
    if status >= 500:
        figures.server_errors += 1
        problems.append(f"answered {status}")
    if TRACEBACK.search(text):
        problems.append("a traceback in the body")
    if 400 <= status < 500 and head() != before:
        problems.append(f"a rejected request ({status}) appended events")
    unexplained = _unexplained_refusal(case, response) if checking.checks and not rewritten else None
    if unexplained is not None:
        problems.append(unexplained)
    for check in checking.checks:
        if rewritten and check.__name__ == "positive_data_acceptance":
            continue
        try:
            case.validate_response(response, checks=[check], transport_kwargs=checking.transport)
        except (Failure, FailureGroup) as error:
            failures = error.exceptions if isinstance(error, FailureGroup) else (error,)
            name = getattr(check, "__name__", str(check))
            figures.by_check[name] = figures.by_check.get(name, 0) + len(failures)
            problems.extend(f"{name}: {' '.join(str(f).split())[:300]}" for f in failures)
    if problems:
        figures.failures.append(f"{'; '.join(problems)}: {_describe(case)} -> {text[:300]}")


def _describe(case: AnyCase) -> str:
    body = repr(case.body)[:300] if case.body is not None else ""
    return f"{case.operation.method.upper()} {case.formatted_path} query={case.query} body={body}"
