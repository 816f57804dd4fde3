"""The limits of what a client may send (store/limits.py, api/guard.py): text lengths and
counts, control characters, integers past the signed 64-bit range, deep JSON and large bodies.

Each is a 4xx problem with a stable code, on both stores, and appends nothing: no game is
created and a game's events stay as they were.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from store.app import NewGame
from store.errors import InvalidRequest
from store.limits import (
    INT64_MAX,
    INT64_MIN,
    MAX_BODY_BYTES,
    MAX_IMPORT_BYTES,
    MAX_JSON_DEPTH,
    MAX_NOTATION,
    _problem_at,
    big_integer,
    payload_problem,
    too_deep,
)
from tests.api.support import Api, Game, assert_problem, bearer

BIG = INT64_MAX + 1
NDJSON = "application/x-ndjson"


def head(api: Api) -> int:
    return api.chronicle.recorder.max_notification_id() or 0


def post_raw(api: Api, path: str, body: bytes, token: str | None = None) -> httpx.Response:
    headers = {"content-type": "application/json"} | bearer(token)
    return api.client.post(path, content=body, headers=headers)


@pytest.fixture
def api(module_api: Api) -> Api:
    """One store and server for the module: each test here is refused before anything is
    written, and checks that against the store's head before and after."""
    return module_api


@pytest.fixture
def game(api: Api) -> Game:
    return api.create()


# -- integers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/games/{id}/events", {"to": BIG}),
        ("/games/{id}/events", {"from": BIG}),
        ("/games/{id}/events", {"from": INT64_MIN - 1}),
        ("/games/{id}/state", {"at": BIG}),
        ("/games", {"offset": BIG}),
        ("/stats", {"offset": BIG}),
        ("/stats", {"position": BIG}),
    ],
)
def test_a_query_integer_past_the_signed_64_bit_range_is_number_out_of_range(
    api: Api, game: Game, path: str, params: dict[str, int]
) -> None:
    response = api.get(path.format(id=game.id), game.recorder, **params)

    assert_problem(response, 400, "number_out_of_range")


def test_the_largest_signed_64_bit_version_is_a_valid_query(api: Api, game: Game) -> None:
    response = api.get(f"/games/{game.id}/events", game.recorder, to=INT64_MAX)

    assert response.status_code == 200
    assert len(response.json()["events"]) == api.version(game)


@pytest.mark.parametrize(
    "body",
    [
        {"action": {"kind": "Grind", "count": BIG}},
        {"action": {"kind": "Grind", "count": INT64_MIN - 1}},
        {"action": {"kind": "EndTurn"}, "expected_version": BIG},
        {"action": {"kind": "EndTurn", "x": [[1, 2, 10**40]]}},
    ],
)
def test_a_body_integer_past_the_signed_64_bit_range_is_refused_before_the_rules_see_it(
    api: Api, game: Game, body: dict[str, Any]
) -> None:
    before = head(api)

    response = api.client.post(f"/games/{game.id}/actions", json=body, headers=bearer(game.recorder))

    body_problem = assert_problem(response, 400, "number_out_of_range")
    assert "64-bit" in body_problem["detail"]
    assert head(api) == before


def test_a_huge_integer_literal_is_refused_without_converting_it(api: Api, game: Game) -> None:
    body = b'{"action": {"kind": "EndTurn", "n": ' + b"9" * 100_000 + b"}}"

    response = post_raw(api, f"/games/{game.id}/actions", body, game.recorder)

    assert "100000 digits" in assert_problem(response, 400, "number_out_of_range")["detail"]


def test_a_float_past_the_double_range_is_number_out_of_range(api: Api, game: Game) -> None:
    body = b'{"action": {"kind": "Grind", "count": 1e400}}'

    assert_problem(
        post_raw(api, f"/games/{game.id}/actions", body, game.recorder), 400, "number_out_of_range"
    )


def test_digits_inside_a_string_are_text_not_an_integer(api: Api) -> None:
    response = api.client.post(
        "/games", json={"ruleset": "province", "players": ["Ann", "Ben"], "tags": ["9" * 30]}
    )

    assert response.status_code == 201, response.text


def test_an_if_match_version_past_the_signed_64_bit_range_is_number_out_of_range(
    api: Api, game: Game
) -> None:
    for value in (f'"{BIG}"', "9" * 5000):
        response = api.act(game, {"kind": "EndTurn"}, game.recorder, headers={"If-Match": value})
        assert_problem(response, 400, "number_out_of_range")


# -- nesting and size ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/games", "/games/{id}/actions", "/games/{id}/retractions"])
def test_a_body_nested_a_hundred_thousand_deep_is_json_too_deep(api: Api, game: Game, path: str) -> None:
    before = head(api)

    response = post_raw(api, path.format(id=game.id), b"[" * 100_000 + b"]" * 100_000, game.recorder)

    assert_problem(response, 400, "json_too_deep")
    assert head(api) == before


def test_nesting_is_counted_outside_strings_and_allowed_up_to_the_limit(api: Api, game: Game) -> None:
    inner: Any = 0
    for _ in range(MAX_JSON_DEPTH - 2):
        inner = [inner]
    at_limit = {"action": {"kind": "Grind", "count": inner}}
    too_deep = {"action": {"kind": "Grind", "count": [inner]}}
    brackets_in_text = {"action": "[" * 500}

    assert_problem(api.act(game, at_limit["action"], game.recorder), 400, "invalid_payload")
    assert_problem(api.act(game, too_deep["action"], game.recorder), 400, "json_too_deep")
    response = api.act(game, brackets_in_text["action"], game.recorder)
    assert response.status_code == 400 and response.json()["code"] != "json_too_deep"


def test_a_body_over_the_size_limit_is_body_too_large(api: Api) -> None:
    before = head(api)
    body = b'{"ruleset": "province", "players": ["Ann", "Ben"], "client_seed": "' + b"x" * MAX_BODY_BYTES
    body += b'"}'

    assert_problem(post_raw(api, "/games", body), 413, "body_too_large")
    assert head(api) == before


def test_an_import_may_be_as_large_as_a_long_games_export_and_no_larger(api: Api) -> None:
    """A long digital game exports to megabytes: the import routes read up to
    MAX_IMPORT_BYTES, and their answer to a large body is about its content, not its size."""
    before = head(api)
    padding = b'"' + b"x" * (2 * MAX_BODY_BYTES) + b'"'
    export = b'{"format": "chronicle-export", "padding": ' + padding + b"}"
    log = b'{"log": ' + padding + b"}"
    assert_problem(post_raw(api, "/games/import", export), 400, "invalid_request")
    assert post_raw(api, "/games/import/dominion", log).status_code not in (413, 500)

    oversized = b'{"log": "' + b"x" * MAX_IMPORT_BYTES + b'"}'
    assert_problem(post_raw(api, "/games/import/dominion", oversized), 413, "body_too_large")
    assert_problem(post_raw(api, "/games/import", oversized), 413, "body_too_large")
    assert head(api) == before


# -- text -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"players": ["Ann", "B" * 65]}, "players[1]"),
        ({"players": ["Ann\x00", "Ben"]}, "players[0]"),
        ({"players": ["Ann", "Ben\u0085"]}, "players[1]"),
        ({"players": ["Ann"] * 21}, "players"),
        ({"tags": ["club\nnight"]}, "tags[0]"),
        ({"tags": ["x" * 65]}, "tags[0]"),
        ({"tags": [f"t{i}" for i in range(17)]}, "tags"),
        ({"client_seed": "s" * 257}, "client_seed"),
        ({"client_seed": "seed\x1b[31m"}, "client_seed"),
        ({"ruleset": "p" * 65}, "ruleset"),
        ({"options": {f"o{i}": True for i in range(65)}}, "options"),
    ],
)
def test_a_new_game_outside_the_text_limits_is_refused_and_nothing_is_created(
    api: Api, extra: dict[str, Any], where: str
) -> None:
    before = head(api)
    body = {"ruleset": "province", "players": ["Ann", "Ben"], **extra}

    problem = assert_problem(api.client.post("/games", json=body), 400, "invalid_request")

    assert where in problem["detail"]
    assert head(api) == before


def test_a_control_character_is_named_as_such(api: Api) -> None:
    body = {"ruleset": "province", "players": ["Ann", "Ben"], "tags": ["a\tb"]}

    problem = assert_problem(api.client.post("/games", json=body), 400, "invalid_request")

    assert "tags[0]: control characters are not allowed" in problem["detail"]


def test_names_and_tags_at_the_limit_and_in_any_script_are_accepted(api: Api) -> None:
    body = {
        "ruleset": "province",
        "players": ["Ä" * 64, "王小明"],
        "tags": [f"t{i}" for i in range(16)],
        "client_seed": "s" * 256,
    }

    response = api.client.post("/games", json=body)

    assert response.status_code == 201, response.text
    assert response.json()["seats"] == {"A": "Ä" * 64, "B": "王小明"}


def test_an_option_whose_json_text_nests_too_deep_is_refused(api: Api) -> None:
    before = head(api)
    deep = "[" * 5000 + "]" * 5000
    body = {"ruleset": "dominations", "players": ["Ann", "Ben"], "options": {"knowledge_cap": deep}}

    problem = assert_problem(api.client.post("/games", json=body), 400, "invalid_request")

    assert "nests deeper" in problem["detail"]
    assert head(api) == before


def test_an_option_of_pretty_printed_json_keeps_its_line_breaks_but_no_other_control_character(
    api: Api,
) -> None:
    pretty = '{\n\t"SCI": 3,\r\n\t"ART": 2\n}'
    body = {"ruleset": "dominations", "players": ["Ann", "Ben"], "options": {"knowledge_cap": pretty}}
    refused = {**body, "options": {"knowledge_cap": pretty + "\x00"}}

    assert api.client.post("/games", json=body).status_code == 201
    problem = assert_problem(api.client.post("/games", json=refused), 400, "invalid_request")
    assert "control character" in problem["detail"]


def test_a_game_built_in_process_is_held_to_the_same_limits(api: Api) -> None:
    before = head(api)
    for new in (
        NewGame("province", ["Ann\x00", "Ben"]),
        NewGame("province", ["Ann", "Ben"], tags=["x" * 65]),
        NewGame("province", ["Ann", "Ben"], options={"x\x00": True}),
    ):
        with pytest.raises(InvalidRequest):
            api.chronicle.create_game(new)
    assert head(api) == before


@pytest.mark.parametrize(
    "body",
    [
        {"action": "end\x00"},
        {"action": "e" * 1001},
        {"action": ""},
        {"action": {"kind": "EndTurn\x07"}},
        {"action": {"kind": "MoveWorker", "piece": "green\u009b", "from": "top"}},
        {"action": {"kind": "EndTurn", "\x00": 1}},
        {"action": {"kind": "EndTurn"}, "seat": "A" * 17},
        {"action": {"kind": "EndTurn"}, "action_id": "id\r\n"},
        {"action": {"kind": "EndTurn", **{f"f{i}": i for i in range(64)}}},
    ],
)
def test_an_action_outside_the_text_limits_is_refused_and_appends_nothing(
    api: Api, game: Game, body: dict[str, Any]
) -> None:
    before = head(api)

    response = api.client.post(f"/games/{game.id}/actions", json=body, headers=bearer(game.recorder))

    assert_problem(response, 400, "invalid_request")
    assert head(api) == before


def test_a_retraction_reason_with_a_control_character_is_refused(api: Api, game: Game) -> None:
    seat = api.active_seat(game)
    api.ok(game, {"kind": "MoveWorker", "piece": "green", "from": "top"}, game.seat(seat))
    before = head(api)

    response = api.client.post(
        f"/games/{game.id}/retractions", json={"reason": "oops\x00"}, headers=bearer(game.recorder)
    )

    assert_problem(response, 400, "invalid_request")
    assert head(api) == before


@pytest.mark.parametrize(
    "path",
    [
        "/games?player=Ann%00",
        "/games?tag=club%00night",
        "/stats?player=%00",
        "/stats?since=2026%00",
        "/stats?variant=a%3Db%00",
        "/stats/figures?until=%1b",
        "/games/{id}/legal-actions?seat=A%00",
        "/games?player=" + "a" * 1001,
    ],
)
def test_a_query_text_with_a_control_character_or_too_long_is_refused(
    api: Api, game: Game, path: str
) -> None:
    response = api.client.get(path.format(id=game.id), headers=bearer(game.recorder))

    assert_problem(response, 400, "invalid_request")


def test_a_path_parameter_with_a_control_character_is_refused(api: Api, game: Game) -> None:
    response = api.client.post(f"/games/{game.id}/retractions/abc%00/approve", headers=bearer(game.seat("A")))

    assert_problem(response, 400, "invalid_request")


def test_a_request_with_too_many_query_parameters_is_refused(api: Api) -> None:
    query = "&".join(f"variant=o{i}%3Dx" for i in range(65))

    assert_problem(api.client.get(f"/stats?{query}"), 400, "invalid_request")


def test_an_overlong_bearer_token_is_an_invalid_token(api: Api, game: Game) -> None:
    assert_problem(api.get(f"/games/{game.id}", "t" * 257), 401, "invalid_token")


def test_an_accept_header_whose_quality_overflows_is_invalid_accept(api: Api, game: Game) -> None:
    response = api.client.get(f"/games/{game.id}/events", headers={"accept": f"{NDJSON};q=1e999"})

    assert_problem(response, 400, "invalid_accept")
    assert api.client.get(f"/games/{game.id}/events", headers={"accept": NDJSON}).status_code == 200


@pytest.mark.parametrize(
    ("raw", "deep"),
    [
        (b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH, False),
        (b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1), True),
        (b'{"a":' * (MAX_JSON_DEPTH + 1) + b"1" + b"}" * (MAX_JSON_DEPTH + 1), True),
        (b'["' + b"[" * 500 + b'"]', False),  # brackets in a string nest nothing
        (b"[" + b"[]," * (MAX_JSON_DEPTH * 3) + b"[]]", False),  # many, side by side
    ],
)
def test_nesting_is_measured_outside_strings(raw: bytes, deep: bool) -> None:
    assert too_deep(raw) is deep


@pytest.mark.parametrize(
    ("raw", "found"),
    [
        (b'{"n":9223372036854775807}', None),
        (b'{"n":9223372036854775808}', "9223372036854775808"),
        (b'{"n":-9223372036854775809}', "-9223372036854775809"),
        (b'{"n":"92233720368547758089"}', None),  # digits in a string are text
        (b'{"n":1.92233720368547758089}', None),  # a fraction's digits are no integer
        (b'{"n":1e92233720368547758089}', None),
        (b'{"n":"' + b"1" * 30 + b'","m":' + b"2" * 25 + b"}", "2" * 25),
    ],
)
def test_an_integer_outside_64_bits_is_found_only_outside_strings_and_fractions(
    raw: bytes, found: str | None
) -> None:
    assert big_integer(raw) == found


_TEXT = st.text(st.sampled_from("ab\x00\x1f\x7f\u0085é"), max_size=4) | st.just("x" * (MAX_NOTATION + 1))
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=8,
)


@given(_VALUES)
def test_an_action_is_let_through_at_once_exactly_when_no_text_in_it_breaks_the_limits(value: Any) -> None:
    """Every action is checked; the walk that names where a text breaks the limits runs only
    when the quick check finds one."""
    assert payload_problem(value) == _problem_at(value, "action")
