"""Same-deal games (store/deals.py): `GET /stats/same-deal` compares the tables that played one
deal, one row per game (the deal's first game, the table's number, the game, its players with
their scores, its winners and status), as `chronicle stats` shows it; `ruleset=` picks one
game. It names outcomes only, never a deal, so it is open to every reader."""

from __future__ import annotations

from typing import Annotated

from litestar import get
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from projections.same_deal import comparison_table
from projections.tables import Table
from store.app import Chronicle


@get("/stats/same-deal", sync_to_thread=True, tags=["statistics"])
def same_deal(
    chronicle: NamedDependency[Chronicle],
    ruleset: Annotated[str | None, QueryParameter(description="only the deals of this ruleset")] = None,
) -> Table:
    return comparison_table(chronicle, ruleset)


ROUTES = [same_deal]
