"""What a client may send: the lengths, counts and ranges every write is held to.

The limits are part of the API (README "Limits"): the HTTP edge enforces them before a
request reaches the service, and the service checks a new game again, so the command line
cannot store what HTTP would refuse. Text a person types (names, tags, reasons, notation)
holds no control characters (Unicode category Cc: C0, DEL and C1); integers stay within the
signed 64-bit range that both stores can hold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

import msgspec

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

MAX_BODY_BYTES = 256 * 1024
# an exported game or a game log: a long digital game exports to a few megabytes
MAX_IMPORT_BYTES = 32 * 1024 * 1024
MAX_JSON_DEPTH = 32
MAX_NAME = 64  # a player's name, a tag
MAX_TAGS = 16
MAX_PLAYERS = 20  # the list (`any` seats up to 20); each ruleset then admits its own range
MAX_RULESET_ID = 64
MAX_CLIENT_SEED = 256
MAX_OPTIONS = 64
MAX_OPTION_NAME = 64
MAX_OPTION_TEXT = 64 * 1024  # a custom map or catalog is JSON text in an option
MAX_NOTATION = 1000
MAX_ACTION_ID = 200
MAX_SEAT = 16
MAX_REASON = 500
MAX_ACTION_FIELDS = 64
MAX_QUERY_TEXT = 1000
MAX_TOKEN = 256

# No control characters: C0, DEL and C1 (the characters of Unicode category Cc).
NO_CONTROL = r"^[^\x00-\x1f\x7f-\x9f]*$"


Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME, pattern=NO_CONTROL)]
RulesetId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_RULESET_ID, pattern=NO_CONTROL)]
ClientSeed = Annotated[str, msgspec.Meta(max_length=MAX_CLIENT_SEED, pattern=NO_CONTROL)]
Notation = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NOTATION, pattern=NO_CONTROL)]
ActionId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ACTION_ID, pattern=NO_CONTROL)]
SeatId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_SEAT, pattern=NO_CONTROL)]
Reason = Annotated[str, msgspec.Meta(max_length=MAX_REASON, pattern=NO_CONTROL)]
Version = Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]
# a version the handler checks against the game's length (`invalid_version`, with the range): the
# OpenAPI document says it starts at 1
VersionAt = Annotated[int, msgspec.Meta(extra_json_schema={"minimum": 1})]
Count = Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]
Players = Annotated[list[Name], msgspec.Meta(max_length=MAX_PLAYERS)]
Tags = Annotated[list[Name], msgspec.Meta(max_length=MAX_TAGS)]
# options_problem's limits, said in the OpenAPI document: a name is text, a value a string (JSON
# text of a custom map may break lines), a 64-bit integer, a number or a boolean
JSON_TEXT = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$"
OPTION_VALUES = {
    "propertyNames": {"maxLength": MAX_OPTION_NAME, "pattern": NO_CONTROL},
    "additionalProperties": {
        "anyOf": [
            {"type": "string", "maxLength": MAX_OPTION_TEXT, "pattern": JSON_TEXT},
            {"type": "integer", "minimum": INT64_MIN, "maximum": INT64_MAX},
            {"type": "number", "not": {"type": "integer"}},
            {"type": "boolean"},
        ]
    },
}
Options = Annotated[dict[str, Any], msgspec.Meta(max_length=MAX_OPTIONS, extra_json_schema=OPTION_VALUES)]
ActionObject = Annotated[
    dict[str, Any],
    msgspec.Meta(max_length=MAX_ACTION_FIELDS, extra_json_schema={"propertyNames": {"pattern": NO_CONTROL}}),
]


_PATTERN_MESSAGE = f"Expected `str` matching regex {NO_CONTROL!r}"


def explain(message: str) -> str:
    """A decoder's message in words: the pattern of `NO_CONTROL` means no control characters."""
    return message.replace(_PATTERN_MESSAGE, "control characters are not allowed")


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # the whole of Unicode category Cc


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


_JSON_WHITESPACE = str.maketrans("", "", "\t\n\r")


def text_problem(what: str, text: str, max_length: int, json_text: bool = False) -> str | None:
    """Why `text` breaks the limits of free text, or None. JSON text (a custom map in an
    option) may also hold the tab and line breaks JSON takes as whitespace."""
    if len(text) > max_length:
        return f"{what} is {len(text)} characters long; at most {max_length} are allowed"
    if has_control(text.translate(_JSON_WHITESPACE) if json_text else text):
        return f"{what} holds a control character"
    return None


def options_problem(options: Mapping[str, Any]) -> str | None:
    """Why a game's options break the limits, or None. Values are a ruleset's business (it
    checks their type and range); their text is held here, since a custom map is JSON text
    that a ruleset parses, so its nesting counts like the body's."""
    if len(options) > MAX_OPTIONS:
        return f"a game takes at most {MAX_OPTIONS} options, not {len(options)}"
    for name, value in options.items():
        problem = text_problem(f"option name {name[:MAX_OPTION_NAME]!r}", name, MAX_OPTION_NAME)
        if problem is None and isinstance(value, str):
            problem = text_problem(f"option {name!r}", value, MAX_OPTION_TEXT, json_text=True)
            if problem is None and too_deep(value.encode()):
                problem = f"option {name!r} nests deeper than {MAX_JSON_DEPTH} levels"
        elif problem is None and isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
            problem = f"option {name!r} lies outside the signed 64-bit range"
        elif problem is None and not isinstance(value, str | int | float | bool):
            problem = f"option {name!r} takes a string, a number or a boolean"
        if problem is not None:
            return problem
    return None


def payload_problem(value: Any, where: str = "action") -> str | None:
    """Why an action object breaks the limits, or None: every text in it (keys included) is
    free of control characters and at most `MAX_NOTATION` long. The body's nesting and its
    integers were checked before it was decoded (api/guard.py)."""
    if not _breaks_limits(value):  # every action is checked: where a problem lies is worked out only for one
        return None
    return _problem_at(value, where)


def _breaks_limits(value: Any) -> bool:
    if isinstance(value, str):
        return text_problem("", value, MAX_NOTATION) is not None
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and text_problem("", key, MAX_OPTION_NAME) is not None:
                return True
            if not isinstance(item, int) and _breaks_limits(item):
                return True
    elif isinstance(value, list | tuple):
        for item in value:
            if not isinstance(item, int) and _breaks_limits(item):
                return True
    return False


def _problem_at(value: Any, where: str) -> str | None:
    if isinstance(value, str):
        return text_problem(where, value, MAX_NOTATION)
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = text_problem(f"{where} field name", key, MAX_OPTION_NAME) if isinstance(key, str) else None
            problem = name or _problem_at(item, f"{where}.{key}")
            if problem is not None:
                return problem
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            problem = _problem_at(item, f"{where}[{i}]")
            if problem is not None:
                return problem
    return None


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# An integer literal of 19 digits or more, not part of a fraction or an exponent.
_DIGITS_19 = re.compile(rb"[0-9]{19}")
_LONG_INTEGER = re.compile(rb"(?<![\w.+-])-?[0-9]{19,}(?![\w.])")
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def strip_strings(raw: bytes) -> bytes:
    """JSON text without its string literals (each left as `""`)."""
    return _STRING.sub(b'""', raw)


def too_deep(raw: bytes) -> bool:
    """Whether the arrays and objects of JSON text nest deeper than `MAX_JSON_DEPTH`, found
    without decoding it: decoders recurse, so a deep document must be refused before one
    sees it. Text that is not JSON gets some answer; its decoder refuses it afterwards."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_JSON_DEPTH:  # strings only add to the count
        return False
    skeleton = strip_strings(raw)
    if skeleton.count(b"[") + skeleton.count(b"{") <= MAX_JSON_DEPTH:
        return False
    depth = 0
    for byte in skeleton:
        depth += _DEPTH_STEP.get(byte, 0)
        if depth > MAX_JSON_DEPTH:
            return True
    return False


def big_integer(raw: bytes) -> str | None:
    """The first integer literal of JSON text outside the signed 64-bit range, or None."""
    if _DIGITS_19.search(raw) is None:  # no run of digits that long, in a string or not
        return None
    for match in _LONG_INTEGER.finditer(strip_strings(raw)):
        literal = match.group()
        # int() refuses literals of thousands of digits, and none that long is in range
        if len(literal) > 20 or not INT64_MIN <= int(literal) <= INT64_MAX:
            return literal.decode()
    return None
