"""Reading a game: its events, its state at any version, the open prompts, the legal actions
and the audit. Every answer is redacted for the caller (design.md 5): a seat token sees its own
hidden information, the recorder and the administrator see everything, no token gets the public
view; once the game is over everything is public.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, Response
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream

from api.auth import game_access, open_game, parse_game_id
from api.concern import Concern
from api.dependencies import ChronicleDep, TokenDep
from api.routes.params import ShownVersion, checked_version
from api.schemas import EventList, LegalActions, PromptList, StateView
from domain.reading import StoredEvent
from store.app import Access, Chronicle
from store.audit import AuditReport, audit_game
from store.errors import InvalidRequest
from store.limits import MAX_SEAT

NDJSON = "application/x-ndjson"
route = Concern("reading")
PAGE = 500


def _event_range(start: int | None, end: int | None) -> tuple[int, int | None]:
    """`from`/`to` (both inclusive, versions start at 1) as the store's (gt, lte)."""
    for name, value in (("from", start), ("to", end)):
        if value is not None and value < 1:
            raise InvalidRequest(f"`{name}` is a version; versions start at 1.", code="invalid_version")
    return (start or 1) - 1, end


def _shown(events: list[StoredEvent], hide_retracted: bool) -> list[StoredEvent]:
    """The events to answer with: without the retracted actions and their facts if asked."""
    return [e for e in events if not e.retracted] if hide_retracted else events


def _ndjson_pages(
    chronicle: Chronicle,
    game_id: UUID,
    access: Access,
    first: list[StoredEvent],
    gt: int,
    lte: int | None,
    hide_retracted: bool = False,
) -> Iterator[bytes]:
    """One chunk per page of events, one JSON object per line; later pages are read as the
    client consumes the earlier ones. Paging follows versions, so hiding retracted events
    never ends the stream early."""
    encoder = msgspec.json.Encoder()
    page = first
    while page:
        yield b"".join(encoder.encode(event) + b"\n" for event in _shown(page, hide_retracted))
        gt = page[-1].version
        if len(page) < PAGE or (lte is not None and gt >= lte):
            return
        page = chronicle.read_events(game_id, access, gt=gt, lte=_page_end(gt, lte))


def _wants_ndjson(request: Request[Any, Any, Any]) -> bool:
    try:
        return request.accept.best_match(["application/json", NDJSON]) == NDJSON
    except (OverflowError, ValueError):  # `q=1e999` overflows the float Litestar turns into an int
        raise InvalidRequest(
            "The Accept header's quality values are numbers from 0 to 1.", code="invalid_accept"
        ) from None


def _page_end(gt: int, lte: int | None) -> int:
    return gt + PAGE if lte is None else min(gt + PAGE, lte)


EVENTS = ResponseSpec(EventList, description=f"The events; with `Accept: {NDJSON}` one event per line")


@route.get("/games/{game_id:str}/events", 400, 401, 404, answers={200: EVENTS})
def read_events(
    request: Request[Any, Any, Any],
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    start: Annotated[int | None, checked_version("first version (inclusive)", name="from")] = None,
    end: Annotated[int | None, checked_version("last version (inclusive)", name="to")] = None,
    hide_retracted: Annotated[
        bool,
        QueryParameter(description="leave out the retracted actions and their facts (the corrected line)"),
    ] = False,
) -> Response[Any]:
    """The game's events from `from` to `to` (both inclusive), redacted for the caller. Every
    event carries `retracted`: true for an action a later retraction undid and for its facts."""
    gid = parse_game_id(game_id)
    gt, lte = _event_range(start, end)
    access = game_access(chronicle, gid, token)
    if _wants_ndjson(request):
        first = chronicle.read_events(gid, access, gt=gt, lte=_page_end(gt, lte))
        pages = _ndjson_pages(chronicle, gid, access, first, gt, lte, hide_retracted)
        return Stream(pages, media_type=NDJSON)
    events = chronicle.read_events(gid, access, gt=gt, lte=lte)
    return Response(EventList(_shown(events, hide_retracted)))


@route.get("/games/{game_id:str}/state", 400, 401, 404)
def game_state(
    chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str], at: ShownVersion = None
) -> StateView:
    """The state at version `at` (default the latest), redacted for the caller."""
    gid, access = open_game(chronicle, game_id, token)
    return StateView(**chronicle.view(gid, access, at))


@route.get("/games/{game_id:str}/prompts", 401, 404)
def game_prompts(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> PromptList:
    """Who must answer what now, as the caller may see it (another seat's prompt is shown as
    the step it is); empty once the game is over."""
    gid, access = open_game(chronicle, game_id, token)
    return PromptList(chronicle.prompts(gid, access))


@route.get("/games/{game_id:str}/legal-actions", 400, 401, 403, 404)
def legal_actions(
    chronicle: ChronicleDep,
    token: TokenDep,
    game_id: FromPath[str],
    seat: Annotated[str | None, QueryParameter(max_length=MAX_SEAT)] = None,
) -> LegalActions:
    """The legal actions of a seat now (a seat token: its own seat; the recorder: any seat,
    default the prompted one), as objects and as notation."""
    gid, access = open_game(chronicle, game_id, token)
    return LegalActions(**chronicle.legal_actions(gid, access, seat))


@route.get("/games/{game_id:str}/audit", 401, 403, 404)
def audit(chronicle: ChronicleDep, token: TokenDep, game_id: FromPath[str]) -> AuditReport:
    """Re-decide the whole game from its actions and compare with the stored facts and, with
    the revealed seed, every random outcome. Open once the game is over, or to the
    administrator at any time."""
    gid, access = open_game(chronicle, game_id, token)
    return audit_game(chronicle, gid, access)


ROUTES = [read_events, game_state, game_prompts, legal_actions, audit]
