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
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import httpx
import msgspec
import pytest
import websockets.sync.client

from domain.ruleset import get_ruleset
from replay_cli.main import main
from store.app import RECORDER, Chronicle
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


def server_sent(lines: Iterator[str]) -> Iterator[tuple[str, str, str]]:
    """(id, event, data) of each server-sent event."""
    fields: dict[str, str] = {}
    for line in lines:
        if not line:
            if "data" in fields:
                yield fields.get("id", ""), fields.get("event", "message"), fields["data"]
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")


class Follower(threading.Thread):
    """Reads one live stream to its end in the background: each event's (id, type, data)."""

    def __init__(
        self, url: str, headers: dict[str, str] | None = None, stop_after: int | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.url, self.headers, self.stop_after = url, headers or {}, stop_after
        self.events: list[tuple[str, str, str]] = []
        self.ended = False
        self.error: BaseException | None = None
        self.connected = threading.Event()

    def run(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=self.headers, timeout=TIMEOUT) as answer:
                assert answer.status_code == 200, answer.read()
                self.connected.set()
                for event in server_sent(answer.iter_lines()):
                    self.events.append(event)
                    if self.stop_after is not None and event[0] == str(self.stop_after):
                        return  # a dropped connection
            self.ended = True
        except BaseException as error:
            self.error = error
        finally:
            self.connected.set()

    def versions(self) -> list[int]:
        return [int(i) for i, _, _ in self.events]


class SocketFollower(Follower):
    def run(self) -> None:
        try:
            ws_url = self.url.replace("http://", "ws://")
            with websockets.sync.client.connect(ws_url, open_timeout=TIMEOUT) as socket:
                self.connected.set()
                for message in socket:
                    event = msgspec.json.decode(message)
                    self.events.append((str(event["version"]), event["type"], str(message)))
        except websockets.exceptions.ConnectionClosedOK:
            pass
        except BaseException as error:
            self.error = error
        finally:
            self.ended = True
            self.connected.set()


def play(
    app: Chronicle, game_id: str, count: int | None, http: httpx.Client | None = None, token: str = ""
) -> None:
    """Bot moves for whoever is prompted until the game ends or `count` actions are recorded:
    over HTTP with the recorder's `token` when `http` is given, else through `app`."""
    ruleset = get_ruleset("dominations")
    assert ruleset is not None
    bot = random.Random(7)
    recorded = 0
    while count is None or recorded < count:
        game = app.game(UUID(game_id))
        if game.outcome is not None:
            return
        seats = sorted({p.seat for p in ruleset.pending(game.state)}, key=str)
        seat = seats[0] if len(seats) == 1 else bot.choice(seats)
        legal = ruleset.legal_actions(game.state, seat)
        action = ruleset.codec.encode(ruleset.bot_choose(game.state, seat, legal, bot.randrange))
        if http is not None:
            answer = http.post(
                f"/games/{game_id}/actions",
                json={"action": action, "seat": seat},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.text
        else:
            app.record(UUID(game_id), action, RECORDER, seat=seat)
        recorded += 1


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
    summaries = [msgspec.json.decode(d) for _, kind, d in feed.events if kind == "game"]
    assert summaries[-1]["game_id"] == game_id
    assert summaries[-1]["status"] == "finished" and summaries[-1]["version"] == last
    # after the end, watching prints what the log prints
    assert cli("watch", game_id, "--server", server.url) == cli("log", game_id, "--server", server.url)
    assert cli("watch", game_id, "--store", store, "--as", "p1") == cli(
        "log", game_id, "--store", store, "--as", "p1"
    )
