""" "Did you mean": the closest words a ruleset knows, for an action typed in notation and refused.

Every game refuses a misspelt word its own way (`buy Silvr` is a pile that does not exist,
`move green tpo` a space with no name, `mvoe green top` no notation at all); the suggestion is
worked out here once for all of them. Each word of the text that the game does not know is
replaced by the closest word it does, when one is close enough; the words it knows are the
words of the legal actions of whoever acts (their own choices, so nothing in them is hidden
from the one who typed the text) and the ruleset's optional `notation_words(state)`, the
public vocabulary of its notation (verbs, card names, spaces). Numbers and ids with digits or
punctuation are left alone: a count or a coordinate is not a spelling.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

from domain.ruleset import Rejection, Ruleset

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SEPARATORS = re.compile(r"[\s,;]+")
_SPLIT = re.compile(r"([\s,;]+)")
# A longer text is no misspelt action but something else pasted: its refusal stays as it is,
# and a rejection stays cheap whatever is sent.
MAX_WORDS = 16
CUTOFF = 0.6  # difflib's own: a swapped pair of letters (`tpo`) still finds `top`


def vocabulary(ruleset: Ruleset[Any, Any, Any], state: Any, seats: Iterable[str | None]) -> set[str]:
    """Every word `seats` may use now: their legal actions' words and the ruleset's own."""
    words: set[str] = set()
    for seat in seats:
        for action in ruleset.legal_actions(state, seat):
            words.update(_SEPARATORS.split(ruleset.format_action(action)))
    extra = getattr(ruleset, "notation_words", None)
    if extra is not None:
        for phrase in extra(state):
            words.update(_SEPARATORS.split(phrase))
    return {w for w in words if _WORD.fullmatch(w)}


def closest(text: str, known: set[str]) -> str | None:
    """`text` with each unknown word replaced by the closest known one (spelt as the game
    writes it), or None when no word was replaced."""
    by_case = {w.casefold(): w for w in known}
    parts = _SPLIT.split(text.strip())
    changed = False
    for i, part in enumerate(parts):
        folded = part.casefold()
        if not _WORD.fullmatch(part) or folded in by_case or folded.removesuffix("s") in by_case:
            continue
        found = difflib.get_close_matches(folded, list(by_case), n=1, cutoff=CUTOFF)
        if found:
            parts[i], changed = by_case[found[0]], True
    return "".join(parts) if changed else None


def with_suggestion(
    rejection: Rejection, ruleset: Ruleset[Any, Any, Any], state: Any, seats: Iterable[str | None], text: str
) -> Rejection:
    """`rejection` of the notation `text`, with "Did you mean ...?" when a word of it is
    unknown and a known one is close."""
    if len(text.split()) > MAX_WORDS:
        return rejection
    suggestion = closest(text, vocabulary(ruleset, state, seats))
    if suggestion is None or suggestion == text.strip():
        return rejection
    message = f"{rejection.message.rstrip()} Did you mean {suggestion!r}?"
    return Rejection(rejection.code, message, rejection.rule)
