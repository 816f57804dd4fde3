"""The 13 Events of Empires (dominion.md 5.5), bought with buy_event."""

from __future__ import annotations
