"""The checks a statistics filter passes before any game is read, so a value nobody could
match (`--since yesterday`, `--variant foo=bar`, a ruleset that is not installed) is an error
naming the accepted forms, never an empty table that looks like an answer.

- `ruleset`: an installed ruleset's id;
- `mode`: `digital` or `physical`;
- `since`, `until`: an ISO 8601 date or time in UTC, as precise as wanted: `2026`, `2026-03`,
  `2026-03-14`, `2026-03-14T09`, `2026-03-14T09:30`, `2026-03-14T09:30:05`;
- `variant NAME=VALUE`: NAME a variant option of the chosen ruleset (of any installed ruleset
  without one), VALUE one it accepts: one of its choices, `true`/`false` for a switch, a whole
  number for a number (text options take any text).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from domain.ruleset import VariantOption, all_rulesets, get_ruleset
from projections.views import Filters

DATE_FORMS = "2026, 2026-03, 2026-03-14, 2026-03-14T09:30 or 2026-03-14T09:30:05"
_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2}(T\d{2}(:\d{2}(:\d{2})?)?)?)?)?")
# The text a prefix stands for, completed to a full timestamp to check it is a real date.
_COMPLETE = "0000-01-01T00:00:00"


class FilterError(ValueError):
    """A filter value no game could match; the message names the accepted forms."""


def check_date(name: str, value: str) -> None:
    if _DATE.fullmatch(value):
        full = value + _COMPLETE[len(value) :]
        try:
            datetime.fromisoformat(full)
        except ValueError:
            pass
        else:
            return
    raise FilterError(f"{name} {value!r} is not a date: use an ISO 8601 date or time in UTC ({DATE_FORMS})")


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _check_value(ruleset: str, option: VariantOption, value: str) -> str | None:
    """Why `value` is no value of `option`, or None."""
    if option.choices is not None:
        accepted = [_option_text(c) for c in option.choices]
        if value.casefold() not in (a.casefold() for a in accepted):
            return f"{ruleset} option {option.name} is one of: {', '.join(accepted)}"
    elif isinstance(option.default, bool):
        if value.casefold() not in ("true", "false"):
            return f"{ruleset} option {option.name} is true or false"
    elif isinstance(option.default, int) and not re.fullmatch(r"-?\d+", value.strip()):
        return f"{ruleset} option {option.name} is a whole number"
    return None


def check_variant(ruleset: str | None, name: str, value: str) -> None:
    chosen = [r for r in all_rulesets() if ruleset is None or r.meta.id == ruleset]
    having = [(r.meta.id, o) for r in chosen if (o := r.meta.option(name)) is not None]
    if not having:
        if ruleset is None:
            raise FilterError(
                f"no installed ruleset has a variant option {name!r} (--variant NAME=VALUE; "
                "`chronicle rulesets ID` lists a ruleset's options)"
            )
        names = ", ".join(o.name for c in chosen for o in c.meta.options) or "none"
        raise FilterError(f"{ruleset} has no variant option {name!r}; its options: {names}")
    problems = [p for rid, option in having if (p := _check_value(rid, option, value)) is not None]
    if len(problems) == len(having):
        raise FilterError(f"{value!r} is no value of variant option {name!r}: {'; '.join(problems)}")


def check_filters(filters: Filters) -> Filters:
    """`filters`, if every value is one a game could have; else FilterError."""
    if filters.ruleset is not None and get_ruleset(filters.ruleset) is None:
        known = ", ".join(r.meta.id for r in all_rulesets())
        raise FilterError(f"there is no ruleset {filters.ruleset!r} (installed: {known})")
    if filters.mode is not None and filters.mode not in ("digital", "physical"):
        raise FilterError(f"mode {filters.mode!r} is digital or physical")
    if filters.since is not None:
        check_date("since", filters.since)
    if filters.until is not None:
        check_date("until", filters.until)
    for name, value in filters.variant.items():
        check_variant(filters.ruleset, name, value)
    return filters
