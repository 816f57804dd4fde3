"""Built-in games. Importing this package registers each ruleset."""

from domain.games import (
    dominations,  # noqa: F401
    dominion,  # noqa: F401
    dynasties,  # noqa: F401
    province,  # noqa: F401
)
