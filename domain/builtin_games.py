"""The games that come with Chronicle, as entry points of the `chronicle.rulesets` group
(the same as `[project.entry-points."chronicle.rulesets"]` in pyproject.toml).

The registry (domain/ruleset.py) loads every entry point of that group the installed
distributions declare, so a game in another package appears by being installed. These are
loaded too when the installed metadata does not list them (a checkout run from source, or an
install made before the games were entry points), so Chronicle always has its own games.
"""

from __future__ import annotations

BUILTIN_RULESETS: dict[str, str] = {
    "any": "domain.games.any:RULESET",
    "dominations": "domain.games.dominations:RULESET",
    "dominion": "domain.games.dominion:RULESET",
    "dynasties": "domain.games.dynasties:RULESET",
    "province": "domain.games.province:RULESET",
}
