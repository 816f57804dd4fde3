"""A dispute as a page, at its own stable address `/dispute/{id}`: the claim over a range of a
game's versions, the engine's verdict with each finding's rule linked to the rulebook, the
rulings (with a box to rule, for whoever may), and the evidence bundle as a download.

The page reads the dispute through `GET /disputes/{id}` with the token this browser holds
(the replay page's "View as" box), so what it shows is redacted for that reader like any
client's answer; the server puts nothing in the page but the dispute's id. An id that names
no dispute is the API's 404 problem, as `/view/{id}` answers for an unknown game.
"""

from __future__ import annotations

from uuid import UUID

from litestar import Response, get
from litestar.params import FromPath

from api.dependencies import ChronicleDep
from api.routes.viewer import _page
from store import disputes


@get("/dispute/{dispute_id:str}", include_in_schema=False, sync_to_thread=True)
def dispute_page(chronicle: ChronicleDep, dispute_id: FromPath[str]) -> Response[str]:
    """One dispute's page: its claim, verdict, rulings and evidence bundle."""
    try:
        did = UUID(dispute_id)
    except ValueError:
        raise disputes.DisputeNotFound(f"There is no dispute {dispute_id}.") from None
    game_id = disputes.game_of(chronicle, did)  # an unknown dispute is a 404 problem
    return _page("dispute.html", dispute_id=str(did), game_id=str(game_id))


ROUTES = [dispute_page]
