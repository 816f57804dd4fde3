"""The 21 Landmarks of Empires (dominion.md 5.6)."""

from __future__ import annotations
