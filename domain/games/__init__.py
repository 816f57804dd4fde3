"""Built-in games. Importing this package registers each ruleset."""

from domain.games import province  # noqa: F401
