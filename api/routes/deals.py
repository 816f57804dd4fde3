"""Same-deal games (store/deals.py): `GET /stats/same-deal` compares the tables that played one
deal, one row per game (the deal's first game, the table's number, the game, its players with
their scores, its winners and status), as `chronicle stats` shows it; `ruleset=` picks one
game. It names outcomes only, never a deal, so it is open to every reader."""

from __future__ import annotations

from typing import Annotated

from litestar.params import QueryParameter

from api.concern import Concern
from api.dependencies import ChronicleDep
from projections.same_deal import comparison_table
from projections.tables import Table

route = Concern("statistics")


@route.get("/stats/same-deal")
def same_deal(
    chronicle: ChronicleDep,
    ruleset: Annotated[str | None, QueryParameter(description="only the deals of this ruleset")] = None,
) -> Table:
    return comparison_table(chronicle, ruleset)


ROUTES = [same_deal]
