"""Variant options from the command line: `--option KEY=VALUE`, checked against the ruleset.

Values are typed the way a shell user writes them: `true`/`false` are booleans, whole numbers
are ints, anything else is a string. One ruling on top: where the ruleset declares the option
with a string default, the text stays a string, so a choice spelled like a number (Province's
`max_builds_per_turn=1`) means the choice and not the int. The ruleset's own option metadata
then judges the values.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from domain.ruleset import Rejection, Ruleset, RulesetMeta, get_ruleset, resolve_options
from replay_cli.errors import UsageError

_INT = re.compile(r"[+-]?\d+")


def option_value(text: str) -> bool | int | str:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if _INT.fullmatch(text):
        return int(text)
    return text


def parse_options(pairs: Iterable[str], meta: RulesetMeta | None = None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE, not {pair!r}")
        declared = meta.option(key) if meta is not None else None
        keep_text = declared is not None and isinstance(declared.default, str)
        options[key] = value if keep_text else option_value(value)
    return options


def ruleset_named(name: str) -> Ruleset[Any, Any, Any]:
    found = get_ruleset(name)
    if found is None:
        from domain.ruleset import all_rulesets

        known = ", ".join(r.meta.id for r in all_rulesets()) or "none"
        raise UsageError(f"there is no ruleset {name!r} (installed: {known})")
    return found


def check_new_game(ruleset: Ruleset[Any, Any, Any], players: int, options: dict[str, Any]) -> None:
    """What the command line itself got wrong about a new game, as a usage error, before the
    store is touched."""
    meta = ruleset.meta
    if not meta.min_players <= players <= meta.max_players:
        span = (
            str(meta.min_players)
            if meta.min_players == meta.max_players
            else f"{meta.min_players} to {meta.max_players}"
        )
        raise UsageError(f"{meta.title} takes {span} players, not {players}")
    resolved = resolve_options(meta, options)
    if isinstance(resolved, Rejection):
        raise UsageError(f"{resolved.message.rstrip('.')} ({resolved.code})")
