"""The Castles of Empires (dominion.md 1.7, 5.4)."""

from __future__ import annotations
