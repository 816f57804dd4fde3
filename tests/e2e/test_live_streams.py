"""Live streams over a real server process: a digital Dominations game played by bots to its
end while spectators follow it (server-sent events as the public and as a seat, a WebSocket,
a stream that drops and resumes, the feed of all games).

The first actions and a retraction are recorded over HTTP (the server hears its own writes);
the rest by another process's application on the same store (the server reads the store's
sequence). Every stream must hold every version once, in order, up to the finishing event,
and then end; the public and the seat must be shown different things while the game runs.
Afterwards `chronicle watch` prints what `chronicle log` prints, locally and over the server.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import httpx
import msgspec
import pytest

from replay_cli.main import main
from store.app import Chronicle
from tests.e2e.cluster import Follower, SocketFollower, play
from tests.e2e.support import Server

OVER_HTTP = 12  # actions recorded through the server before the rest come from elsewhere
TIMEOUT = 120.0


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/games.db"


@pytest.fixture
def server(store: str, tmp_path: Path) -> Iterator[Server]:
    process = Server(store, tmp_path / "server.log")
    try:
        yield process
    finally:
        process.kill()


def cli(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    assert status == 0, f"chronicle {' '.join(args)} exited with {status}: {err.getvalue()}"
    return out.getvalue()


def test_spectators_follow_a_game_live_to_its_end(store: str, server: Server) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    created = http.post("/games", json={"ruleset": "dominations", "players": ["Ann", "Ben"]}).json()
    game_id, recorder, seat_token = (
        created["game_id"],
        created["recorder_token"],
        created["seat_tokens"]["p1"],
    )
    live = f"{server.url}/games/{game_id}/live"
    feed = Follower(f"{server.url}/live")
    followers = {
        "public": Follower(live),
        "seat": Follower(live, {"Authorization": f"Bearer {seat_token}"}),
        "dropped": Follower(live, stop_after=OVER_HTTP),
        "socket": SocketFollower(live),
    }
    for follower in [feed, *followers.values()]:
        follower.start()
        assert follower.connected.wait(TIMEOUT)
    app = Chronicle(store)
    try:
        play(app, game_id, OVER_HTTP, http, recorder)
        undo = http.post(
            f"/games/{game_id}/retractions",
            json={"count": 1},
            headers={"Authorization": f"Bearer {recorder}"},
        )
        assert undo.status_code in (200, 201), undo.text
        resumed_from = followers["dropped"]
        resumed_from.join(TIMEOUT)
        resumed = Follower(live, {"Last-Event-ID": str(resumed_from.versions()[-1])})
        resumed.start()
        play(app, game_id, None)
        last = app.game(UUID(game_id)).version
    finally:
        app.close()
    everyone = [*followers.values(), resumed]
    for follower in everyone:
        follower.join(TIMEOUT)
    for name, follower in [*followers.items(), ("resumed", resumed)]:
        assert follower.error is None, f"{name}: {follower.error!r}"
    for name in ("public", "seat", "socket"):
        follower = followers[name]
        assert follower.ended, f"the {name} stream did not end after the game did"
        assert follower.versions() == list(range(1, last + 1)), f"the {name} stream has gaps or repeats"
        assert follower.events[-1][1] == "finished"
        assert any(kind == "retraction" for _, kind, _ in follower.events)
    assert followers["dropped"].versions() + resumed.versions() == list(range(1, last + 1))
    assert resumed.ended
    public, seat = followers["public"].events, followers["seat"].events
    assert public != seat, "the seat was shown only what the public sees"
    assert [d for _, _, d in followers["socket"].events] == [d for _, _, d in public]
    assert public[-1][2] == seat[-1][2], "the finishing event is public"
    deadline = time.monotonic() + 30  # the feed follows on its own, a little behind maybe
    while True:
        summaries = [msgspec.json.decode(d) for _, kind, d in list(feed.events) if kind == "game"]
        if (summaries and summaries[-1]["version"] == last) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert summaries[-1]["game_id"] == game_id
    assert summaries[-1]["status"] == "finished" and summaries[-1]["version"] == last
    # after the end, watching prints what the log prints
    assert cli("watch", game_id, "--server", server.url) == cli("log", game_id, "--server", server.url)
    assert cli("watch", game_id, "--store", store, "--as", "p1") == cli(
        "log", game_id, "--store", store, "--as", "p1"
    )


def test_a_spectator_who_leaves_is_let_go(server: Server) -> None:
    """A client that closes its stream while the game runs is noticed at once, not at the
    next event: its stream ends and the game is no longer followed (the feed's too)."""
    http = httpx.Client(base_url=server.url, timeout=30)
    game_id = http.post("/games", json={"ruleset": "dominations", "players": ["Ann", "Ben"]}).json()[
        "game_id"
    ]

    def open_streams() -> tuple[float, float]:
        text = http.get("/metrics").text
        figures = dict(line.split(" ", 1) for line in text.splitlines() if line.startswith("chronicle_live_"))
        return float(figures["chronicle_live_subscribers"]), float(figures["chronicle_live_games"])

    with httpx.Client(timeout=30) as client:
        streams = [
            client.stream("GET", f"{server.url}/games/{game_id}/live"),
            client.stream("GET", f"{server.url}/live"),
        ]
        readers = [stream.__enter__().iter_bytes() for stream in streams]  # kept: dropped, one closes
        for reader in readers:
            assert next(reader).startswith(b"retry:")
        deadline = time.monotonic() + 10
        while open_streams() != (2, 1):  # each follows once its first step is read
            assert time.monotonic() < deadline, f"the streams are not followed: {open_streams()}"
            time.sleep(0.05)
        for stream in streams:
            stream.__exit__(None, None, None)
    deadline = time.monotonic() + 10
    while open_streams() != (0, 0):
        assert time.monotonic() < deadline, f"streams still open after their clients left: {open_streams()}"
        time.sleep(0.05)
