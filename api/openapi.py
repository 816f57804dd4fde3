"""The OpenAPI document as served (`/schema/openapi.json`, and the docs at `/schema`): Litestar's,
made to say what the server really does where Litestar cannot know it.

- Every answer of 400 and above is a problem (`application/problem+json`, api/problems.py):
  Litestar documents its own validation error instead. Every operation may answer 400 (the
  guard's checks of path and query text, api/guard.py), and every write 413 (its body's size)
  and 429 (the write limits).
- A path or query parameter that is text holds no control character and at most
  `MAX_QUERY_TEXT` characters (the guard refuses anything else), and says so.
- A tuple (`prefixItems`, valid 3.1) is described as an array of its length whose items are
  any of its members' kinds: tools that turn a 3.1 schema into an older draft's (schemathesis
  checking an answer) made it the old list form of `items`, which 2020-12 refuses.
- An answer with more than one media type lists each (`ALTERNATIVES`): NDJSON beside JSON,
  CSV beside JSON, server-sent events, the metrics' text; and the answers the handlers build
  as bytes (an export, an evidence bundle) have their schema rather than "a string".
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec
from litestar import Litestar, Request
from litestar.openapi.plugins import JsonRenderPlugin

from api.problems import PROBLEM_MEDIA_TYPE
from store.evidence import Bundle
from store.limits import INT64_MAX, INT64_MIN, MAX_QUERY_TEXT
from store.notes import CONTENT_REQUIRED

Document = dict[str, Any]

WRITES = ("post", "put", "patch", "delete")
METHODS = ("get", *WRITES)
# no C0 control, DEL or C1 control (Unicode category Cc), as store/limits.py's text_problem
NO_CONTROL = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$"
PROBLEM = {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
TEXT = {"type": "string"}
REFS = "#/components/schemas/{name}"

# (method, path) -> status -> media type -> schema: what a handler answers besides, or instead
# of, what its return type tells Litestar.
ALTERNATIVES: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("get", "/games/{game_id}/events"): {"200": {"application/x-ndjson": TEXT}},
    ("get", "/variations/{variation_id}/events"): {"200": {"application/x-ndjson": TEXT}},
    ("get", "/games/{game_id}/export"): {
        "200": {
            # the export (format=json), or a finished game as a BG Stats play (format=bgstats)
            "application/json": {"anyOf": [{"$ref": REFS.format(name="Export")}, {"type": "object"}]},
            "application/x-ndjson": TEXT,
        }
    },
    ("get", "/disputes/{dispute_id}/bundle"): {
        "200": {"application/json": {"$ref": REFS.format(name="Bundle")}}
    },
    ("get", "/games/{game_id}/stats"): {"200": {"text/csv": TEXT}},
    ("get", "/stats/tables/{table_id}"): {"200": {"text/csv": TEXT}},
    ("get", "/games/{game_id}/live"): {"200": {"text/event-stream": TEXT}},
    ("get", "/live"): {"200": {"text/event-stream": TEXT}},
    ("get", "/metrics"): {"200": {"text/plain": TEXT}},
}
JSON_VALUE = "JsonValue"
JSON_VALUE_SCHEMA = {
    "anyOf": [
        {"type": ["null", "boolean", "string"]},
        {"type": "integer", "minimum": INT64_MIN, "maximum": INT64_MAX},
        {"type": "number", "not": {"type": "integer"}},
        {"type": "array", "items": {"$ref": REFS.format(name=JSON_VALUE)}},
        {"type": "object", "additionalProperties": {"$ref": REFS.format(name=JSON_VALUE)}},
    ]
}
# what a body must hold beyond each field's own schema, by component
BODY_RULES: dict[str, dict[str, Any]] = {
    "NewAnnotation": CONTENT_REQUIRED,
    "AnnotationEdit": CONTENT_REQUIRED,
}
# answers whose one media type is in ALTERNATIVES: Litestar's guess is dropped
REPLACED = {("get", "/disputes/{dispute_id}/bundle"), ("get", "/metrics")}


def request_bodies(app: Litestar) -> list[type]:
    """The types the handlers of `app` decode a request body into."""
    bodies: list[type] = []
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            data = handler.parsed_fn_signature.parameters.get("data")
            if data is not None and isinstance(data.annotation, type) and data.annotation not in bodies:
                bodies.append(data.annotation)
    return bodies


def refine(document: Document, bodies: list[type] | None = None) -> Document:
    """A copy of Litestar's `document` that says what the server does (see above), with the
    request `bodies` (and the types they hold) as msgspec describes them."""
    refined = copy.deepcopy(document)
    schemas = refined.setdefault("components", {}).setdefault("schemas", {})
    _, components = msgspec.json.schema_components([Bundle], ref_template=REFS)
    for name, schema in components.items():
        schemas.setdefault(name, schema)
    _, components = msgspec.json.schema_components(bodies or [], ref_template=REFS)
    _bound_integers(components)
    _bound_free_values(components)
    schemas.update(components)
    if bodies:
        schemas[JSON_VALUE] = JSON_VALUE_SCHEMA
    for name, rule in BODY_RULES.items():
        if name in schemas:
            schemas[name].update(copy.deepcopy(rule))
    _loosen_tuples(schemas)
    for path, item in refined.get("paths", {}).items():
        for method in METHODS:
            operation = item.get(method)
            if operation is not None:
                _refine_operation(method, path, operation)
    return refined


def _refine_operation(method: str, path: str, operation: dict[str, Any]) -> None:
    for parameter in operation.get("parameters") or ():
        if parameter.get("in") in ("path", "query"):
            _limit_text(parameter.get("schema") or {})
    responses = operation.setdefault("responses", {})
    for status in ("400", *(("413", "429") if method in WRITES else ())):
        responses.setdefault(status, {"description": "A problem (problem details)"})
    for status, answer in responses.items():
        if status[0] in "45":
            answer["content"] = copy.deepcopy(PROBLEM)
    for status, media in ALTERNATIVES.get((method, path), {}).items():
        answer = responses.setdefault(status, {"description": "OK"})
        content = {} if (method, path) in REPLACED else answer.get("content") or {}
        answer["content"] = content | {name: {"schema": schema} for name, schema in media.items()}


def _bound_integers(node: Any) -> None:
    """Every integer of a body is a signed 64-bit one (api/guard.py refuses any other with
    `number_out_of_range`), where its field says no narrower range."""
    if isinstance(node, list):
        for item in node:
            _bound_integers(item)
    elif isinstance(node, dict):
        kinds = node.get("type")
        if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
            node.setdefault("minimum", INT64_MIN)
            node.setdefault("maximum", INT64_MAX)
        for value in node.values():
            _bound_integers(value)


def _bound_free_values(node: Any) -> None:
    """A free value of a body (a ruleset's fields, an event's) is any JSON whose integers are
    64-bit ones, as api/guard.py holds: `JsonValue`."""
    if isinstance(node, list):
        for item in node:
            _bound_free_values(item)
    elif isinstance(node, dict):
        for key in ("items", "additionalProperties"):
            if node.get(key) == {}:
                node[key] = {"$ref": REFS.format(name=JSON_VALUE)}
        if node.get("type") == "object" and "properties" not in node and "additionalProperties" not in node:
            node["additionalProperties"] = {"$ref": REFS.format(name=JSON_VALUE)}
        for key, schema in (node.get("properties") or {}).items():
            if schema == {}:
                node["properties"][key] = {"$ref": REFS.format(name=JSON_VALUE)}
        for value in node.values():
            _bound_free_values(value)


def _loosen_tuples(node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _loosen_tuples(item)
    elif isinstance(node, dict):
        members = node.pop("prefixItems", None)
        if isinstance(members, list):
            node.update(minItems=len(members), maxItems=len(members), items={"anyOf": members})
        for value in node.values():
            _loosen_tuples(value)


def _limit_text(schema: dict[str, Any]) -> None:
    """A text parameter's schema, or the text alternatives of its `oneOf`/`anyOf`."""
    for alternative in schema.get("oneOf") or schema.get("anyOf") or ():
        _limit_text(alternative)
    kinds = schema.get("type")
    if kinds == "string" or (isinstance(kinds, list) and "string" in kinds):
        schema["maxLength"] = min(schema.get("maxLength", MAX_QUERY_TEXT), MAX_QUERY_TEXT)
        schema.setdefault("pattern", NO_CONTROL)
    if kinds == "array" and isinstance(schema.get("items"), dict):
        _limit_text(schema["items"])


class Refined:
    """`refine`, once per document object (Litestar builds it once and hands it over on each
    request)."""

    def __init__(self) -> None:
        self.source: Document | None = None
        self.document: Document = {}

    def __call__(self, document: Document, app: Litestar) -> Document:
        if document is not self.source:
            self.source, self.document = document, refine(document, request_bodies(app))
        return self.document


class RefinedJsonPlugin(JsonRenderPlugin):
    """`/schema/openapi.json`: the refined document."""

    def __init__(self) -> None:
        super().__init__()
        self.refined = Refined()

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, self.refined(openapi_schema, request.app))
