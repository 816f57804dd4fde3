"""The route handlers, one module per concern; `ROUTES` lists them all for `create_app`."""

from __future__ import annotations

from api.routes import games, health, reading, rulesets

ROUTES = [*health.ROUTES, *rulesets.ROUTES, *games.ROUTES, *reading.ROUTES]
