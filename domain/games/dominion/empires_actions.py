"""Empires Action cards (dominion.md 5.3): City Quarter, Catapult, Chariot Race, Encampment,
Engineer, Farmers' Market, Forum, Gladiator, Groundskeeper, Legionary, Patrician, Emporium,
Royal Blacksmith, Sacrifice, Settlers, Bustling Village, Temple and Wild Hunt."""

from __future__ import annotations
