"""Variant options of `any` (rules.md section 1): what the table says about its game when it
creates the record. All are plain text or numbers, stored in the game's first event.

- `title` names the game played; a record without one is refused (`title_required`).
- `bgg_id` is the game's BoardGameGeek id, 0 when none is given.
- `definition` holds the declared components and ending as canonical JSON text
  (definition.py); "" is the empty definition (free dice, one score each, highest wins).
- `played_on` is the date a game entered afterwards was played (YYYY-MM-DD), "" when the game
  is recorded as it is played.
"""

from __future__ import annotations

import re
from datetime import date

from domain.ruleset import VariantOption

OPTIONS: tuple[VariantOption, ...] = (
    VariantOption("title", "", "The title of the game played (required)."),
    VariantOption("bgg_id", 0, "The game's BoardGameGeek id (0: none).", minimum=0, maximum=10**9),
    VariantOption(
        "definition",
        "",
        "The declared dice, decks, tracks and ending as JSON text (empty: free dice, one score "
        "per player, highest wins).",
    ),
    VariantOption("played_on", "", "The date the game was played, YYYY-MM-DD (empty: as recorded)."),
)

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def valid_date(text: str) -> bool:
    """Whether `text` is a calendar date written YYYY-MM-DD."""
    if _DATE.fullmatch(text) is None:
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True
