"""`chronicle new any --definition FILE`: a table's declared components read from a file.

The file is TOML or JSON: a name ending `.json`, or text starting with `{`, is JSON; anything
else is TOML. `--definition` also takes the name of a shipped example (`five-dice`,
`card-deck`, `cooperative`): a file that exists is read, else the name must be an example's.
The definition is checked by the game's own `parse_definition` and
stored as its canonical JSON text in the option `definition`, so the game's first event holds
it and every replay and audit reads the same components.

The file's `title` and `bgg_id` are no part of the components: they fill `--title` and
`--bgg-id` when those are absent, and are taken out before the components are checked.

Every failure is one line naming the file: it cannot be read, its TOML or JSON is malformed
(with the line), or the definition is refused (the message names the field).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from domain.games.any.definition import EXAMPLES, definition_json, parse_definition
from domain.ruleset import Rejection
from replay_cli.errors import UsageError


class DeclaredGame(msgspec.Struct, frozen=True):
    """What a definition file gives a new game: the option's canonical text, and the title
    and BoardGameGeek id it names (None where it names none)."""

    definition: str
    title: str | None = None
    bgg_id: int | None = None


def read_definition(given: str) -> DeclaredGame:
    """The definition `given` names: a file, else a shipped example; `UsageError` otherwise."""
    path = Path(given)
    if path.exists() or given not in EXAMPLES:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            why = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            known = ", ".join(sorted(EXAMPLES))
            raise UsageError(
                f"cannot read the definition {given}: {why} (the shipped examples: {known})"
            ) from None
        json_text = path.suffix.lower() == ".json" or text.lstrip().startswith("{")
        return declared(given, _parse(given, text, json_text))
    return declared(given, _parse(given, EXAMPLES[given], False))


def _parse(name: str, text: str, json_text: bool) -> dict[str, Any]:
    if json_text:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise UsageError(
                f"the definition {name} is not valid JSON: {error.msg} (line {error.lineno}, "
                f"column {error.colno})"
            ) from None
        if not isinstance(data, dict):
            raise UsageError(f"the definition {name} is not a JSON object")
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UsageError(f"the definition {name} is not valid TOML: {error}") from None


def declared(name: str, data: dict[str, Any]) -> DeclaredGame:
    """The definition in `data` (parsed from `name`), checked by the game's rules."""
    fields = dict(data)
    title = fields.pop("title", None)
    bgg_id = fields.pop("bgg_id", None)
    if title is not None and (not isinstance(title, str) or not title.strip()):
        raise UsageError(f"the definition {name} is refused: title: a title is text, not {title!r}")
    if bgg_id is not None and (isinstance(bgg_id, bool) or not isinstance(bgg_id, int) or bgg_id < 0):
        raise UsageError(
            f"the definition {name} is refused: bgg_id: a BoardGameGeek id is a whole number >= 0, "
            f"not {bgg_id!r}"
        )
    parsed = parse_definition(fields)
    if isinstance(parsed, Rejection):
        raise UsageError(f"the definition {name} is refused: {parsed.message.rstrip('.')} ({parsed.code})")
    return DeclaredGame(definition_json(parsed), title.strip() if title else None, bgg_id)
