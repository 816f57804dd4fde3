"""The rules references as pages: `/rulebook` lists them, `/rulebook/{reference}` shows one as
readable HTML with a contents list and an element per section whose `id` is the section's id,
so a refusal's `rule` ("province 3.2") links to `/rulebook/province#3.2`.

The page reads its text from `GET /rules/{reference}` (store/references.py) like any client;
what the server puts in the page is only the reference's id and the list of references, as
escaped attribute values. An unknown reference is a 404 page that says so and links to the
list.
"""

from __future__ import annotations

import msgspec
from litestar import Response, get
from litestar.params import FromPath

from api.routes.viewer import _page
from store.references import reference, reference_ids


def _listing() -> str:
    """Every reference as `[[id, title], ...]` JSON, for the page's list and its header."""
    found = [(ref_id, ref.title if (ref := reference(ref_id)) else ref_id) for ref_id in reference_ids()]
    return msgspec.json.encode(found).decode()


@get("/rulebook", include_in_schema=False, sync_to_thread=False)
def rulebook_index() -> Response[str]:
    """The list of rules references: each game's and the project's own."""
    return _page("rulebook.html", reference="", missing="", references=_listing())


@get("/rulebook/{reference_id:str}", include_in_schema=False, sync_to_thread=False)
def rulebook_page(reference_id: FromPath[str]) -> Response[str]:
    """One rules reference as a page; a 404 page for a reference there is not."""
    missing = reference(reference_id) is None
    page = _page(
        "rulebook.html", reference=reference_id, missing="true" if missing else "", references=_listing()
    )
    if missing:
        page.status_code = 404
    return page


ROUTES = [rulebook_index, rulebook_page]
