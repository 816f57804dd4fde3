"""Built-in games, one package each. Each package registers its ruleset when imported; the
registry finds them through their entry points (domain/builtin_games.py), so this package
imports none of them itself."""
