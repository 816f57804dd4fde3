"""How the statistics tell players apart.

A player is a name within one ruleset: "Ann" at Province and "Ann" at Dominion are two
records, two ratings and two rows (`province/Ann`, `dominion/Ann`), since a score or a rating
means nothing across games. A table asked across rulesets (`--across-rulesets`,
`across_rulesets=true`) counts a name as one player wherever it played; its rows are keyed
by the name alone and its ruleset column reads `*`.

A ruleset whose games are of many titles (`any`, which records any tabletop game) says which
title a game is of (its stats module's `title(options)`); each title then counts as a ruleset
of its own, `any:Azul`, so Ann's rating at Azul never mixes with hers at Catan (`stats_group`). A
`/` in a title reads as a division slash (U+2215) in the key, which splits at the first `/`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.ruleset import get_ruleset
from projections.game_stats import stats_module

ACROSS = "*"
SLASH = "\u2215"  # a division slash: a `/` of a title, in a key that splits at `/`

_TITLES: dict[str, Callable[[Mapping[str, Any]], str] | None] = {}


def _title_of(ruleset: str) -> Callable[[Mapping[str, Any]], str] | None:
    if ruleset not in _TITLES:
        found = get_ruleset(ruleset)
        module = stats_module(found) if found is not None else None
        _TITLES[ruleset] = getattr(module, "title", None)
    return _TITLES[ruleset]


def game_title(ruleset: str, options: Mapping[str, Any]) -> str:
    """The title a game of `ruleset` with `options` is of, "" where the ruleset is the title."""
    title = _title_of(ruleset)
    return title(options) if title is not None else ""


def titled(ruleset: str, title: str) -> str:
    """`ruleset:title`, or the ruleset's id alone when `title` is ""."""
    return f"{ruleset}:{title.replace('/', SLASH)}" if title else ruleset


def stats_group(ruleset: str, options: Mapping[str, Any]) -> str:
    """What a game's players are counted within: the ruleset's id, or `ruleset:title`."""
    return titled(ruleset, game_title(ruleset, options))


def player_id(ruleset: str, name: str, across: bool = False) -> str:
    """A player's row key: `ruleset/name` (`ruleset` a `stats_group`), or the name alone across
    rulesets."""
    return name if across else f"{ruleset}/{name}"


def split_player_id(key: str, across: bool = False) -> tuple[str, str]:
    """(ruleset, name) of a row key made by `player_id` (ruleset ids and groups hold no `/`)."""
    if across:
        return ACROSS, key
    ruleset, _, name = key.partition("/")
    return ruleset, name
