"""Folds over the event log: the game index, statistics, and their runners."""
