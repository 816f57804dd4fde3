"""Every read path shows a viewer the same of two games that differ only where it cannot see.

The pairs of tests/contract/twins.py (proven indistinguishable on the functions every path
calls) are recorded into a real store, action by action, through the service with the tokens a
table holds; their randomness is injected (the same generators the pair was played with). After
every action, each path answers the viewer about game A and game B, and the answers must be the
same byte for byte (game B's id read as A's): the answer to the write when the viewer made it,
the summary, the listing, the events as JSON and NDJSON, the state at the new versions, the
prompts, the viewer's legal actions, the game's statistics and its export, over the HTTP API;
and in a physical game, a dispute over the game so far (its verdict, a ruling, the listing
and the evidence bundle; a seat opens one too). At the end of each pair the command line
answers too: `log` and `show` on the local store and against a real server process, and
every screen of the replay; and so do that server's live streams (server-sent events from the
start and from half-way, and the WebSocket).

A finished game F whose deal another table S is playing gives S's cards away, so while S runs
F is withheld (store/deals.py), and so is everything made from F: its variations (a study, a
game played on, a study of the study), annotations, review tokens, disputes and their bundles.
Every read and write of any of them, by the public, by S's recorder and seats, by F's reviewer
and by the variations' own tokens, over HTTP and the command line against a server, answers
403 `same_deal_in_play` and stores nothing; F's own table and the administrator still read.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import httpx
import msgspec
import pytest
import websockets.sync.client
from litestar import Litestar
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import TestClient

from api.app import create_app
from domain.game import Game
from domain.rng import Rng
from domain.ruleset import GameConfig, Viewer, get_ruleset
from replay_cli.local import LocalReader
from replay_cli.main import main
from replay_cli.render import event_line, snapshot_lines
from store import clock, variations
from store.app import RECORDER, Access, Chronicle, NewGame
from store.simulation import game_id_for, game_key
from tests.contract.test_hidden_information import make_pair
from tests.contract.twins import AT, Pair
from tests.e2e.support import Server
from tests.short_games import SHORT_SEEDS, plan, players, ruleset_named

ADMIN = "paths-administrator-token"
STEPS = 24  # actions recorded per pair after B first differs from A
# On PostgreSQL the pairs are compared at fewer steps: what a viewer is shown is decided above
# the store, which gives back the events as written, so every path still reads from it at each
# step compared, and the SQLite run follows the games further.
POSTGRES_STEPS = 6
# One digital and one physical pair per game (where the mode hides something), the viewer the
# public in one and a seat in the other.
CASES = [
    ("province", "digital", "public", 0),
    ("province", "digital", "seat", 3),
    ("dominion", "digital", "public", 25),  # the 2nd edition's new cards, a Sentry's look among them
    ("dominion", "physical", "seat", 0),
    ("dynasties", "digital", "seat", 2),
    ("dynasties", "physical", "public", 0),
    ("dominations", "digital", "seat", 2),
    ("dominations", "physical", "public", 0),
    ("any", "digital", "seat", 0),  # a secret draw, and a pass between two seats
    ("any", "physical", "public", 1),
]


class TwinChronicle(Chronicle):
    """The service with each game's generator chosen by the test: the pair's own."""

    name = "Chronicle"  # the library names an application's tables after its class otherwise
    generators: dict[str, Rng] = {}

    def rng_for(self, config: GameConfig, seed: bytes) -> Rng:
        return self.generators[config.game_id]


@dataclass
class Table:
    """One game of the pair as it is stored: its id and the viewer's token."""

    game_id: UUID
    token: str | None
    seat_tokens: dict[str, str]
    recorder_token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both games are recorded at the same instant, so their timestamps cannot differ."""
    monkeypatch.setattr(clock, "now", lambda: AT)


def open_table(app: TwinChronicle, pair: Pair, side: Any, game_id: UUID) -> Table:
    config = pair.config
    app.generators[str(game_id)] = _replayable(side.rng)
    new = NewGame(
        ruleset=config.ruleset,
        players=[s.name for s in config.seats],
        mode=config.mode,
        options=dict(config.options),
        server_seed=bytes(32).hex() if config.mode == "digital" else None,
    )
    created = app.create_game(new, admin=True, game_id=game_id)
    viewer = pair.viewer
    token = created.seat_tokens[viewer.seat] if viewer.kind == "seat" and viewer.seat else None
    return Table(game_id, token, created.seat_tokens, created.recorder_token)


def _replayable(rng: Rng) -> Rng:
    """The generator a side was played with, ready to draw the same again from the start."""
    copy = getattr(rng, "fork", None)
    return copy() if copy is not None else rng


def steps_of(side: Any) -> list[Game.ActionRecorded]:
    return [e for e in side.events if isinstance(e, Game.ActionRecorded)]


def answers(http: TestClient[Litestar], table: Table, versions: range, seat: str | None) -> dict[str, Any]:
    """Every HTTP answer the viewer can get about one game now."""
    gid, headers = table.game_id, table.headers
    out: dict[str, Any] = {
        "detail": http.get(f"/games/{gid}", headers=headers),
        "events": http.get(f"/games/{gid}/events", headers=headers),
        "ndjson": http.get(f"/games/{gid}/events", headers=headers | {"Accept": "application/x-ndjson"}),
        "prompts": http.get(f"/games/{gid}/prompts", headers=headers),
        "state": http.get(f"/games/{gid}/state", headers=headers),
        "picture": http.get(f"/games/{gid}/picture", headers=headers),
        "turns": http.get(f"/games/{gid}/turns", headers=headers),
        "stats": http.get(f"/games/{gid}/stats", headers=headers),
        "export": http.get(f"/games/{gid}/export", headers=headers),
        "listed": http.get("/games", params={"limit": 500}),
    }
    for version in versions:
        out[f"state@{version}"] = http.get(f"/games/{gid}/state", params={"at": version}, headers=headers)
        out[f"picture@{version}"] = http.get(f"/games/{gid}/picture", params={"at": version}, headers=headers)
    if seat is not None:
        out["legal"] = http.get(f"/games/{gid}/legal-actions", headers=headers)
    shown: dict[str, Any] = {}
    for key, response in out.items():
        body = response.text
        if key == "listed":  # this game's own line, without its place in the store's sequence
            line = next(g for g in response.json()["games"] if g["game_id"] == str(gid))
            body = msgspec.json.encode({k: v for k, v in line.items() if k != "position"}).decode()
        shown[key] = (response.status_code, body.replace(str(gid), "GAME"))
    return shown


def dispute_answers(http: TestClient[Litestar], table: Table, last: int) -> dict[str, Any]:
    """A dispute the recorder opens over every version so far, and a ruling, as the viewer
    reads them: listed, shown and bundled as evidence; a seat also opens one of its own. The
    dispute's id and the moments it was opened and ruled on are its own, not the game's."""
    gid, headers = table.game_id, table.headers
    recorder = {"Authorization": f"Bearer {table.recorder_token}"}
    body = {"from": 1, "to": last, "claim": "Was every step of this legal?"}
    opened = http.post(f"/games/{gid}/disputes", json=body, headers=recorder)
    assert opened.status_code == 201, opened.text
    did = opened.json()["dispute_id"]
    ruled = http.post(f"/disputes/{did}/rulings", json={"text": "Looked at it."}, headers=recorder)
    assert ruled.status_code == 201, ruled.text
    out = {
        "listed": http.get(f"/games/{gid}/disputes", headers=headers),
        "shown": http.get(f"/disputes/{did}", headers=headers),
        "bundle": http.get(f"/disputes/{did}/bundle", headers=headers),
    }
    ids = [did]
    if table.token is not None:
        own = out["own"] = http.post(f"/games/{gid}/disputes", json=body, headers=headers)
        ids.append(own.json()["dispute_id"])
    shown: dict[str, Any] = {}
    for key, response in out.items():
        text = re.sub(r'"(opened_at|at)":"[^"]*"', r'"\1":"AT"', response.text).replace(str(gid), "GAME")
        for i, dispute_id in enumerate(ids):
            text = text.replace(dispute_id, f"DISPUTE{i}")
        shown[key] = (response.status_code, text)
    return shown


def record_pair(
    app: TwinChronicle, http: TestClient[Litestar], pair: Pair, steps: int
) -> tuple[Table, Table]:
    """Record both games step by step, comparing every answer after each step."""
    a = open_table(app, pair, pair.a, UUID(pair.config.game_id))
    b = open_table(app, pair, pair.b, uuid4())
    viewer = pair.viewer
    seat = viewer.seat if viewer.kind == "seat" else None
    if app.game(a.game_id).version <= pair.common:
        assert answers(http, a, range(0), seat) == answers(http, b, range(0), seat), "the setups differ"
    recorded = 0
    steps_a = steps_of(pair.a)
    # The version each of A's steps ends at: a step whose facts run past the versions both games
    # show V alike (the game's end, which reveals everything) is not recorded, or every path
    # would rightly tell the games apart.
    ends = [s.originator_version - 1 for s in steps_a[1:]] + [pair.a.events[-1].originator_version]
    for step_a, step_b, end_a in zip(steps_a, steps_of(pair.b), ends, strict=False):
        if end_a > pair.common:
            break
        start = app.game(a.game_id).version + 1
        shown = []
        for table, step in ((a, step_a), (b, step_b)):
            own = seat is not None and step.seat == seat
            access = Access("seat", step.seat) if step.seat is not None else RECORDER
            result = app.record(table.game_id, step.action, access)
            shown.append(
                msgspec.json.encode(result).decode().replace(str(table.game_id), "GAME") if own else ""
            )
        assert shown[0] == shown[1], f"the answer to {viewer}'s own action #{step_a.seq} differs"
        end = app.game(a.game_id).version
        if end > pair.common:
            break
        if end >= pair.first:
            x, y = (
                answers(http, a, range(start, end + 1), seat),
                answers(http, b, range(start, end + 1), seat),
            )
            for key in x:
                assert x[key] == y[key], f"{viewer} tells the games apart by {key} at version {end}"
            recorded += 1
            if recorded >= steps:
                break
    if pair.config.mode == "physical":
        # A verdict recomputes a digital game's draws from its seed, and the pair's draws come
        # from injected generators that no seed gives: it would tell both games apart from
        # their seeds, not from each other. A physical game's verdict reads no seed.
        last = app.game(a.game_id).version
        x, y = dispute_answers(http, a, last), dispute_answers(http, b, last)
        for key in x:
            assert x[key] == y[key], f"{viewer} tells the games apart by their dispute's {key}"
    return a, b


def cli(*args: str) -> str:
    """`chronicle ARGS` run in this process, its output."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    assert status == 0, f"chronicle {' '.join(args)} exited with {status}: {err.getvalue()}"
    return out.getvalue()


def command_line_answers(
    store_url: str, server: Server, table: Table, viewer: Viewer, last: int
) -> list[str]:
    """`log` and `show` (local store and server) and every replay screen, as the viewer."""
    gid = str(table.game_id)
    local = "public" if viewer.kind == "public" else str(viewer.seat)
    remote = [f"--token={table.token}"] if table.token else ["--as", "public"]
    out = [
        cli("log", gid, "--store", store_url, "--as", local),
        cli("show", gid, "--store", store_url, "--as", local, "--at", str(last)),
        cli("show", gid, "--store", store_url, "--as", local, "--at", str(last), "--picture"),
        cli("log", gid, "--server", server.url, *remote),
        cli("show", gid, "--server", server.url, *remote),
        *live_answers(server, table, last),
    ]
    reader = LocalReader(Chronicle(store_url), local)
    try:
        timeline = reader.timeline(gid)
        for version in range(1, timeline.last + 1):
            out.append(event_line(timeline.event(version)))
            out.extend(snapshot_lines(timeline.snapshot(version)))
    finally:
        reader.close()
    return [text.replace(gid, "GAME") for text in out]


def live_answers(server: Server, table: Table, last: int) -> list[str]:
    """The live streams up to version `last`, as the viewer follows them on the server."""
    url = f"{server.url}/games/{table.game_id}/live"
    shown = [_server_sent(url, table.headers, last, 0), _server_sent(url, table.headers, last, last // 2)]
    with websockets.sync.client.connect(
        url.replace("http://", "ws://"), additional_headers=table.headers, open_timeout=30
    ) as socket:
        messages: list[str] = []
        while not messages or msgspec.json.decode(messages[-1])["version"] < last:
            messages.append(str(socket.recv(timeout=30)))
    return [*shown, "\n".join(messages)]


def _server_sent(url: str, headers: dict[str, str], last: int, after: int) -> str:
    lines = []
    with httpx.stream("GET", url, params={"after": after}, headers=headers, timeout=30) as answer:
        assert answer.status_code == 200, answer.read()
        for line in answer.iter_lines():
            lines.append(line)
            if line == f"id: {last}":
                break
    return "\n".join(lines)


def test_every_read_path_shows_a_viewer_nothing_of_what_it_cannot_see(store_url: str, tmp_path: Path) -> None:
    tables: list[tuple[Pair, Table, Table, int]] = []
    steps = STEPS if store_url.startswith("sqlite") else POSTGRES_STEPS
    app = TwinChronicle(store_url, admin_token=ADMIN)
    try:
        with TestClient(create_app(app)) as http:
            for ruleset_id, mode, viewer_kind, index in CASES:
                ruleset = get_ruleset(ruleset_id)
                assert ruleset is not None
                pair = make_pair(ruleset, index, mode, viewer_kind)
                assert pair.differs and pair.common >= pair.first, (
                    f"{ruleset_id} {mode}: the pair must differ"
                )
                a, b = record_pair(app, http, pair, steps)
                tables.append((pair, a, b, app.game(a.game_id).version))
    finally:
        app.close()
    server = Server(store_url, tmp_path / "server.log")
    try:
        for pair, a, b, last in tables:
            shown_a = command_line_answers(store_url, server, a, pair.viewer, last)
            shown_b = command_line_answers(store_url, server, b, pair.viewer, last)
            names = [
                "log",
                "show",
                "show --picture",
                "log --server",
                "show --server",
                "live",
                "live after",
                "live socket",
            ]
            for i, (x, y) in enumerate(zip(shown_a, shown_b, strict=True)):
                where = names[i] if i < len(names) else "the replay"
                assert x == y, (
                    f"{pair.config.ruleset}: {pair.viewer} tells the games apart in {where}:\n{x}\n---\n{y}"
                )
    finally:
        server.kill()


@pytest.fixture(autouse=True)
def _generators() -> Iterator[None]:
    TwinChronicle.generators = {}
    yield


# -- a finished game whose deal another table is playing ---------------------------------------

# Dominion hides every hand and deck order: the most a deal gives away (one game keeps the
# test within seconds; the withholding does not depend on the ruleset).
DEAL_RULESETS = ("dominion",)


@dataclass
class DealInPlay:
    """A finished game F, what was made from it before its deal went back into play, and a
    running same-deal game S."""

    first: Table  # F: its recorder's and seats' tokens
    second: Table  # S
    study: dict[str, Any]  # variations of F as branched: ids and tokens
    played_on: dict[str, Any]
    deeper: dict[str, Any]  # a study of the study
    reviewer: str  # a review token of F
    dispute: str
    at: int  # the branching version

    @property
    def lines(self) -> list[str]:
        return [v["variation_id"] for v in (self.study, self.played_on, self.deeper)]


def _ok(response: httpx.Response, status: int = 201) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def finished_with_tokens(app: Chronicle, ruleset_id: str) -> Table:
    """The short bot game `finished_game` plays (tests/short_games.py), with its tokens kept."""
    seed, ruleset = SHORT_SEEDS[ruleset_id], ruleset_named(ruleset_id)
    key = game_key(seed, 0)
    new = NewGame(ruleset_id, players(ruleset_id), server_seed=hashlib.sha256(key.encode()).hexdigest())
    created = app.create_game(new, admin=True, game_id=game_id_for(ruleset_id, seed, 0))
    gid, bot = UUID(created.game_id), random.Random(key)
    while (game := app.game(gid)).outcome is None:
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(game.state, seat)
        choice = ruleset.bot_choose(game.state, seat, legal, bot.randrange)
        app.record(gid, ruleset.codec.encode(choice), RECORDER, seat=seat)
    return Table(gid, None, created.seat_tokens, created.recorder_token)


def _legal(app: Chronicle, line_id: str) -> tuple[str, str]:
    """A legal action on a line, as notation, and the seat it is for."""
    found = variations.line(app, UUID(line_id))
    ruleset = found.game.ruleset
    seat = ruleset.pending(found.game.state)[0].seat
    assert seat is not None
    return ruleset.format_action(ruleset.legal_actions(found.game.state, seat)[0]), seat


def deal_in_play(app: Chronicle, http: TestClient[Litestar], ruleset: str) -> DealInPlay:
    names = players(ruleset)
    first = finished_with_tokens(app, ruleset)
    gid, recorder = first.game_id, {"Authorization": f"Bearer {first.recorder_token}"}
    game = app.game(gid)
    at = game.actions[len(game.actions) // 3].last_version
    # Made while the deal is not in play: anyone may branch, the table annotates and disputes.
    study = _ok(http.post(f"/games/{gid}/variations", json={"at": at}))
    notation, seat = _legal(app, study["variation_id"])
    study_recorder = {"Authorization": f"Bearer {study['recorder_token']}"}
    body = {"action": notation, "seat": seat}
    _ok(http.post(f"/variations/{study['variation_id']}/actions", json=body, headers=study_recorder))
    played_on = _ok(http.post(f"/games/{gid}/variations", json={"at": at, "purpose": "game"}))
    ahead = variations.line(app, UUID(study["variation_id"])).game.version
    deeper = _ok(http.post(f"/games/{study['variation_id']}/variations", json={"at": ahead}))
    note = {"at": at, "text": "the deal turns here", "coordinate": f"seat:{game.config.seats[0].id}"}
    _ok(http.post(f"/games/{gid}/annotations", json=note, headers=recorder))
    _ok(http.post(f"/games/{study['variation_id']}/annotations", json=note, headers=study_recorder))
    reviewer = _ok(http.post(f"/games/{gid}/review-tokens", json={"name": "Rev"}, headers=recorder))
    claim = {"from": 1, "to": at, "claim": "Was the deal fair?"}
    dispute = _ok(http.post(f"/games/{gid}/disputes", json=claim, headers=recorder))["dispute_id"]
    # Another table takes up the deal and plays a few steps.
    made = _ok(http.post("/games", json={"ruleset": ruleset, "players": names, "same_deal_as": str(gid)}))
    second = Table(UUID(made["game_id"]), None, made["seat_tokens"], made["recorder_token"])
    for step in plan(app, second.game_id, 4, f"second-{ruleset}"):
        app.record(second.game_id, step.notation, RECORDER, seat=step.seat)
    assert app.game(second.game_id).outcome is None
    return DealInPlay(first, second, study, played_on, deeper, reviewer["review_token"], dispute, at)


def derived_reads(deal: DealInPlay) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every read path of F and of everything made from F: name -> (path, query)."""
    gid, at = deal.first.game_id, deal.at
    reads: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, path in [
        ("detail", ""),
        ("events", "/events"),
        ("prompts", "/prompts"),
        ("legal actions", "/legal-actions"),
        ("state", "/state"),
        ("picture", "/picture"),
        ("turns", "/turns"),
        ("audit", "/audit"),
        ("stats", "/stats"),
        ("export", "/export"),
        ("disputes", "/disputes"),
        ("annotations", "/annotations"),
        ("variations", "/variations"),
        ("retractions", "/retractions"),
    ]:
        reads[f"F {name}"] = (f"/games/{gid}{path}", {})
    reads["F events from"] = (f"/games/{gid}/events", {"from": at})
    reads["F state at"] = (f"/games/{gid}/state", {"at": at})
    reads["F picture at"] = (f"/games/{gid}/picture", {"at": at})
    reads["F stats csv"] = (f"/games/{gid}/stats", {"format": "csv"})
    reads["F annotations at"] = (f"/games/{gid}/annotations", {"at": at})
    for kind in ("ndjson", "bgstats"):
        reads[f"F export {kind}"] = (f"/games/{gid}/export", {"format": kind})
    reads["F live"] = (f"/games/{gid}/live", {"after": at})
    reads["dispute"] = (f"/disputes/{deal.dispute}", {})
    reads["dispute bundle"] = (f"/disputes/{deal.dispute}/bundle", {})
    for kind, line in zip(("study", "played on", "deeper"), deal.lines, strict=True):
        for name, path in [
            ("", f"/variations/{line}"),
            ("events", f"/variations/{line}/events"),
            ("state", f"/variations/{line}/state"),
            ("picture", f"/variations/{line}/picture"),
            ("legal actions", f"/variations/{line}/legal-actions"),
            ("audit", f"/variations/{line}/audit"),
            ("annotations", f"/games/{line}/annotations"),
            ("variations", f"/games/{line}/variations"),
            ("as a game", f"/games/{line}"),
            ("events as a game", f"/games/{line}/events"),
        ]:
            reads[f"{kind} {name}"] = (path, {})
        reads[f"{kind} state at"] = (f"/variations/{line}/state", {"at": at})
    return reads


def derived_writes(app: Chronicle, deal: DealInPlay) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every write that derives from F: name -> (path, body)."""
    gid, at = deal.first.game_id, deal.at
    study, played_on = deal.study["variation_id"], deal.played_on["variation_id"]
    config = app.game(gid).config
    writes: dict[str, tuple[str, dict[str, Any]]] = {
        "branch a study": (f"/games/{gid}/variations", {"at": at}),
        "play on": (f"/games/{gid}/variations", {"at": at, "purpose": "game"}),
        "branch the study": (f"/games/{study}/variations", {"at": at}),
        "annotate": (f"/games/{gid}/annotations", {"at": at, "text": "what was dealt?"}),
        "annotate the study": (f"/games/{study}/annotations", {"at": at, "text": "what was dealt?"}),
        "hand out a review token": (f"/games/{gid}/review-tokens", {"name": "Spy"}),
        "open a dispute": (f"/games/{gid}/disputes", {"from": 1, "to": at, "claim": "deal?"}),
        "another table": (
            "/games",
            {"ruleset": config.ruleset, "players": [s.name for s in config.seats], "same_deal_as": str(gid)},
        ),
    }
    for name, line in (("record into the study", study), ("record into the game played on", played_on)):
        notation, seat = _legal(app, line)
        writes[name] = (f"/variations/{line}/actions", {"action": notation, "seat": seat})
    return writes


def _bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _code(response: httpx.Response) -> tuple[int, str | None]:
    is_problem = response.headers.get("content-type", "").startswith("application/problem+json")
    return response.status_code, response.json().get("code") if is_problem else None


def strangers_of(deal: DealInPlay, every_seat: bool) -> dict[str, str | None]:
    """Who may not see S's hidden cards, and so none of F's: the public, S's table, F's
    reviewer and the holders of the variations' own tokens; with `every_seat` false, one seat
    of each table stands for its others (a seat's token is judged by its game, not its seat)."""

    def seats(tokens: dict[str, str]) -> list[tuple[str, str]]:
        return list(tokens.items())[: None if every_seat else 1]

    found: dict[str, str | None] = {"the public": None, "S's recorder": deal.second.recorder_token}
    found |= {f"S's seat {seat}": token for seat, token in seats(deal.second.seat_tokens)}
    found["F's reviewer"] = deal.reviewer
    for kind, made in (
        ("study", deal.study),
        ("game played on", deal.played_on),
        ("deeper study", deal.deeper),
    ):
        found[f"the {kind}'s recorder"] = made["recorder_token"]
        found |= {f"the {kind}'s seat {seat}": token for seat, token in seats(made["seat_tokens"])}
    return found


def cli_refused(*args: str) -> str:
    """`chronicle ARGS` refused: its one line on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    assert status == 1, f"chronicle {' '.join(args)} exited with {status}: {out.getvalue()}"
    return err.getvalue()


def assert_withheld(app: Chronicle, http: TestClient[Litestar], deal: DealInPlay, every_seat: bool) -> None:
    """Each stranger gets the game's own refusal on every read and write derived from F, and
    nothing is appended; F's table and the administrator still read."""
    reads = derived_reads(deal)
    withheld = (403, "same_deal_in_play")
    for who, token in strangers_of(deal, every_seat).items():
        headers = _bearer(token)
        for name, (path, query) in reads.items():
            answer = http.get(path, params=query, headers=headers)
            assert _code(answer) == withheld, f"{who} reads {name}: {answer.text}"
        with http.websocket_connect(f"/games/{deal.first.game_id}/live", headers=headers) as socket:
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_text()
            assert closed.value.code == 4403, who
        head = app.recorder.max_notification_id()
        for name, (path, body) in derived_writes(app, deal).items():
            answer = http.post(path, json=body, headers=headers)
            assert _code(answer) == withheld, f"{who} writes {name}: {answer.text}"
        assert app.recorder.max_notification_id() == head, f"{who} wrote something"
    # F's own table still reads F (it was dealt those cards), and the administrator everything
    own = [(deal.first.recorder_token, name) for name in reads if name.startswith(("F ", "dispute"))]
    own += [(token, "F events") for token in deal.first.seat_tokens.values()]
    for token, name in own:
        path, query = reads[name]
        answer = http.get(path, params=query, headers=_bearer(token))
        assert answer.status_code == 200, f"F's table reads {name}: {answer.text}"
    for name, (path, query) in reads.items():
        answer = http.get(path, params=query, headers=_bearer(ADMIN))
        found = 404 if name.endswith("as a game") else 200  # a variation is read on its own paths
        assert answer.status_code == found, f"the administrator reads {name}: {answer.text}"


def test_a_finished_game_s_deal_reaches_no_one_while_another_table_plays_it(
    store_url: str, tmp_path: Path
) -> None:
    app = Chronicle(store_url, admin_token=ADMIN)
    played: list[DealInPlay] = []
    try:
        with TestClient(create_app(app)) as http:
            for ruleset in DEAL_RULESETS:
                played.append(deal_in_play(app, http, ruleset))
                # every seat's token on SQLite; on PostgreSQL, which reads the same tokens
                # back, one seat of each table
                assert_withheld(app, http, played[-1], every_seat=store_url.startswith("sqlite"))
    finally:
        app.close()
    server = Server(store_url, tmp_path / "server.log")
    try:
        for deal in played:
            gid, study = str(deal.first.game_id), deal.study["variation_id"]
            seat = f"--token={next(iter(deal.second.seat_tokens.values()))}"
            for command in (
                ["log", gid],
                ["log", gid, seat],
                ["show", study],
                ["variation", "list", gid],
                ["export", gid, "--out", str(tmp_path / "f.json")],
                ["dispute", "list", gid],
            ):
                said = cli_refused(*command, "--server", server.url)
                assert said.count("\n") == 1 and "(same_deal_in_play)" in said, (command, said)
            assert cli(
                "log", study, "--store", store_url
            )  # the local store's owner reads as the administrator
            # once the other table has finished, the deal is no secret: the same commands read
            ended = httpx.post(
                f"{server.url}/games/{deal.second.game_id}/abandon",
                json={},
                headers=_bearer(deal.second.recorder_token),
            )
            assert ended.status_code in (200, 201), ended.text
            assert cli("log", study, "--server", server.url)
            assert study in cli("variation", "list", gid, "--server", server.url)
    finally:
        server.kill()
