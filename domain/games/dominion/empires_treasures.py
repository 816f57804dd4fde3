"""Empires Treasures and the cards that bend a turn (dominion.md 5.3): Capital, Charm, Crown,
Fortune, Plunder, Rocks, Archive, Enchantress, Overlord and Villa."""

from __future__ import annotations
