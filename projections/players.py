"""How the statistics tell players apart.

A player is a name within one ruleset: "Ann" at Province and "Ann" at Dominion are two
records, two ratings and two rows (`province/Ann`, `dominion/Ann`), since a score or a rating
means nothing across games. A table asked across rulesets (`--across-rulesets`,
`across_rulesets=true`) counts a name as one player wherever it played; its rows are keyed
by the name alone and its ruleset column reads `*`.
"""

from __future__ import annotations

ACROSS = "*"


def player_id(ruleset: str, name: str, across: bool = False) -> str:
    """A player's row key: `ruleset/name`, or the name alone across rulesets."""
    return name if across else f"{ruleset}/{name}"


def split_player_id(key: str, across: bool = False) -> tuple[str, str]:
    """(ruleset, name) of a row key made by `player_id` (ruleset ids hold no `/`)."""
    if across:
        return ACROSS, key
    ruleset, _, name = key.partition("/")
    return ruleset, name
