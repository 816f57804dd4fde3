"""The OpenAPI document (`/schema/openapi.json`, api/openapi.py) is valid OpenAPI 3.1, and what
the server answers fits it: each media type an operation answers is listed (JSON, NDJSON, CSV,
the metrics' text, server-sent events), an export and an evidence bundle are the objects they
are, every error is a problem, and a text parameter says it holds no control character."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
import schemathesis
from litestar import Litestar
from litestar.testing import TestClient
from openapi_spec_validator import OpenAPIV31SpecValidator
from schemathesis.python import asgi
from schemathesis.schemas import BaseSchema

from store.app import Chronicle
from tests.api.support import Api, bearer, play_to_end


@pytest.fixture
def document(client: TestClient[Litestar]) -> dict[str, Any]:
    answer = client.get("/schema/openapi.json")
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    return body


@pytest.fixture
def schema(client: TestClient[Litestar]) -> Iterator[BaseSchema]:
    yield schemathesis.openapi.from_asgi("/schema/openapi.json", client.app)
    asgi._shutdown()  # the lifespans schemathesis started stop with the test


def test_the_document_is_valid_openapi_3_1(document: dict[str, Any]) -> None:
    assert document["openapi"].startswith("3.1")
    errors = [f"{list(e.path)}: {e.message}" for e in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []


def media(document: dict[str, Any], method: str, path: str, status: str = "200") -> set[str]:
    return set(document["paths"][path][method]["responses"][status].get("content") or {})


def test_each_operation_lists_every_media_type_it_answers(document: dict[str, Any]) -> None:
    assert media(document, "get", "/games/{game_id}/events") == {"application/json", "application/x-ndjson"}
    assert media(document, "get", "/games/{game_id}/export") == {"application/json", "application/x-ndjson"}
    assert media(document, "get", "/games/{game_id}/stats") == {"application/json", "text/csv"}
    assert media(document, "get", "/stats/tables/{table_id}") == {"application/json", "text/csv"}
    assert media(document, "get", "/metrics") == {"text/plain"}
    assert media(document, "get", "/games/{game_id}/live") == {"text/event-stream"}
    assert media(document, "get", "/live") == {"text/event-stream"}
    bundle = document["paths"]["/disputes/{dispute_id}/bundle"]["get"]["responses"]["200"]["content"]
    assert bundle == {"application/json": {"schema": {"$ref": "#/components/schemas/Bundle"}}}
    assert document["components"]["schemas"]["Bundle"]["type"] == "object"


def test_every_error_answer_is_a_problem_and_every_text_parameter_refuses_control_characters(
    document: dict[str, Any],
) -> None:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert "400" in responses, (method, path)
            for status, answer in responses.items():
                if int(status) >= 400:
                    assert set(answer["content"]) == {"application/problem+json"}, (method, path, status)
            for parameter in operation.get("parameters") or ():
                schema = parameter["schema"]
                if schema.get("type") == "string" and "enum" not in schema:
                    assert schema["pattern"].startswith("^[^\\u0000-\\u001f"), (method, path, parameter)


def test_real_answers_fit_the_document(api: Api, chronicle: Chronicle, schema: BaseSchema) -> None:
    client = api.client
    game = api.create()
    play_to_end(chronicle, UUID(game.id))
    claim = {"from": 1, "to": 3, "claim": "the toss"}
    opened = client.post(f"/games/{game.id}/disputes", json=claim, headers=bearer(game.recorder))
    assert opened.status_code == 201, opened.text
    answers = {
        ("GET", "/metrics"): client.get("/metrics"),
        ("GET", "/games/{game_id}/events"): client.get(
            f"/games/{game.id}/events", headers={"Accept": "application/x-ndjson"}
        ),
        ("GET", "/games/{game_id}/export"): client.get(f"/games/{game.id}/export"),
        ("GET", "/disputes/{dispute_id}/bundle"): client.get(
            f"/disputes/{opened.json()['dispute_id']}/bundle"
        ),
        ("GET", "/games/{game_id}/stats"): client.get(f"/games/{game.id}/stats", params={"format": "csv"}),
        ("GET", "/games/{game_id}/turns"): client.get(f"/games/{game.id}/turns"),
        ("GET", "/games/{game_id}/state"): client.get(f"/games/{game.id}/state", params={"at": 10**6}),
    }
    for (method, path), answer in answers.items():
        assert answer.status_code in (200, 400), answer.text
        schema[path][method].validate_response(answer)  # raises, naming what does not fit
    ndjson = client.get(f"/games/{game.id}/export", params={"format": "ndjson"})
    bgstats = client.get(f"/games/{game.id}/export", params={"format": "bgstats"})
    for answer in (ndjson, bgstats):
        schema["/games/{game_id}/export"]["GET"].validate_response(answer)
    # Litestar adds the charset of a text answer: the metrics named it too, and it came twice
    assert answers["GET", "/metrics"].headers["content-type"].count("charset") == 1


def _parameter(document: dict[str, Any], method: str, path: str, name: str) -> dict[str, Any]:
    for parameter in document["paths"][path][method]["parameters"]:
        if parameter["name"] == name:
            found: dict[str, Any] = parameter["schema"]
            return found
    raise AssertionError(f"{method} {path} has no parameter {name}")


def test_request_schemas_say_what_the_server_refuses(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    bodies = {
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict) and "requestBody" in operation
    }
    assert len(bodies) >= 12
    # every body refuses a field it does not know (forbid_unknown_fields)
    assert {name: schemas[name].get("additionalProperties") for name in bodies} == dict.fromkeys(
        bodies, False
    )
    # an action's notation is text of at least one character, without control characters
    notation = [a for a in schemas["ActionRequest"]["properties"]["action"]["anyOf"] if a["type"] == "string"]
    assert notation[0]["minLength"] == 1 and "pattern" in notation[0]
    # an annotation says something; its glyph and highlight are from their lists; versions start at 1
    for name in ("NewAnnotation", "AnnotationEdit"):
        assert [rule["required"] for rule in schemas[name]["anyOf"]] == [
            ["text"],
            ["glyph"],
            ["highlight"],
            ["to"],
        ]
        assert "!?" in schemas[name]["properties"]["glyph"]["enum"]
        assert re.search(schemas[name]["properties"]["coordinate"]["pattern"], "card:Village")
        assert not re.search(schemas[name]["properties"]["coordinate"]["pattern"], "card: ")
    assert schemas["NewAnnotation"]["properties"]["at"]["minimum"] == 1
    assert schemas["BranchRequest"]["properties"]["at"]["minimum"] == 1
    assert schemas["Export"]["properties"]["format"]["enum"] == ["chronicle-export-v1"]
    # every integer of a body is a signed 64-bit one
    assert schemas["ExportedEvent"]["properties"]["version"]["maximum"] == 2**63 - 1
    free = schemas["ExportedEvent"]["properties"]["fields"]["additionalProperties"]["$ref"]
    integer = [kind for kind in schemas[free.rsplit("/", 1)[1]]["anyOf"] if kind["type"] == "integer"]
    assert integer == [{"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}]
    # the statistics filters' forms
    since = _parameter(document, "get", "/stats", "since")["pattern"]
    assert [bool(re.search(since, text)) for text in ("2026", "2026-03-14T09:30:05", "S", "2026-13")] == [
        True,
        True,
        False,
        False,
    ]
    variant = _parameter(document, "get", "/stats", "variant")["items"]["pattern"]
    assert [bool(re.search(variant, text)) for text in ("map=west", " =x", "", "x")] == [
        True,
        False,
        False,
        False,
    ]
    assert _parameter(document, "get", "/stats", "position")["minimum"] == 0
    assert _parameter(document, "get", "/games/{game_id}/events", "from")["minimum"] == 1
    assert _parameter(document, "get", "/games/{game_id}/state", "at")["minimum"] == 1
    if_match = _parameter(document, "post", "/games/{game_id}/retractions", "If-Match")["pattern"]
    assert [bool(re.search(if_match, text)) for text in ('"12"', 'W/"3"', "*", "null")] == [
        True,
        True,
        True,
        False,
    ]
