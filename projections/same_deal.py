"""Same-deal games as a statistics table: the tables that played one deal side by side
(`same_deal`), from the rows the store lists (store/deals.py `comparison`)."""

from __future__ import annotations

from typing import Any

from projections.tables import Column, Table
from store.deals import comparison


def comparison_table(app: Any, ruleset: str | None = None) -> Table:
    """`comparison` as a statistics table (`same_deal`), for `chronicle stats` and the API."""
    rows = [r for r in comparison(app) if ruleset is None or r["ruleset"] == ruleset]
    columns = [
        Column("deal", "deal", "text", "the deal: the id of its first game"),
        Column("table", "table", "count", "the table's number among the games of the deal, 1 first"),
        Column("game", "game", "text", "the game's id"),
        Column("players", "players and scores", "text", "each player with the final score, in seat order"),
        Column("winners", "winners", "text", "the game's winners (empty while it runs)"),
        Column("status", "status", "text", "running, finished or abandoned"),
    ]
    return Table(
        "same_deal",
        "Same deal: the tables that played one deal",
        "game",
        columns,
        rows,
        "One row per game of every deal more than one table played.",
    )
