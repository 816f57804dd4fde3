"""A game from another package, for the plugin test: Province under another id."""

from __future__ import annotations

import copy

import msgspec

from domain.games.province import RULESET as PROVINCE

RULESET = copy.copy(PROVINCE)
RULESET.meta = msgspec.structs.replace(PROVINCE.meta, id="tinygame", title="Tiny game (a plugin)")
