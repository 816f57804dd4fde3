"""`chronicle replay` as a full-screen app (replay_cli/tui.py): driven by Textual's pilot at
80x24 and 200x50, and once for real in a tmux terminal, on the local store and over a server.

The game is a running digital Dominion game, so that hands are hidden: seat p1 (Ann) must see
her own hand and only the size of Ben's, the public neither hand.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay_cli.local import LocalReader, open_store
from replay_cli.reading import Timeline
from replay_cli.tui import ReplayApp
from tests.cli.conftest import COMMAND, Cli, Server, serving


class Running:
    def __init__(self, cli: Cli, created: dict[str, object]) -> None:
        self.cli = cli
        self.game_id = str(created["game_id"])
        tokens = created["seat_tokens"]
        assert isinstance(tokens, dict)
        self.tokens: dict[str, str] = tokens


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Running:
    cli = Cli(tmp_path_factory.mktemp("tui"))
    created = json.loads(cli.ok("new", "dominion", "--player", "Ann", "--player", "Ben", "--json"))
    running = Running(cli, created)
    cli.ok("record", running.game_id, "end")  # the first player's Action phase ends
    return running


def _hands(game: Running) -> tuple[list[str], list[str]]:
    """Ann's and Ben's hands at the last version, as the omniscient viewer sees them."""
    reader = LocalReader(open_store(game.cli.store), "omniscient")
    try:
        state = reader.snapshot(game.game_id, None).state
    finally:
        reader.close()
    return state["players"]["p1"]["hand"], state["players"]["p2"]["hand"]


def _screen(app: ReplayApp) -> str:
    """The characters on the app's screen (its SVG screenshot, without the markup)."""
    svg = app.export_screenshot()
    return _flat(html.unescape(" ".join(re.findall(r"<text[^>]*>(.*?)</text>", svg))))


def _flat(text: str) -> str:
    """Runs of blanks as one space: a row reads `Ann hand 4 Copper, Estate` however drawn."""
    return re.sub(r"[ \xa0]+", " ", text)


def _timeline(game: Running, viewer: str) -> tuple[LocalReader, Timeline]:
    reader = LocalReader(open_store(game.cli.store), viewer)
    return reader, reader.timeline(game.game_id)


def _hand_text(hand: list[str]) -> str:
    counts: dict[str, int] = {}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    return ", ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items())


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_the_app_steps_searches_and_shows_a_seat_its_own_hand(game: Running, size: tuple[int, int]) -> None:
    def _row(name: str, hand: str) -> str:
        """A player's row: one paragraph below 100 columns (`Ann hand ...`), else a table row."""
        return f"{name} hand {hand}" if size[0] < 100 else f"{name} {hand}"

    reader, timeline = _timeline(game, "p1")
    ann, ben = _hands(game)
    last = timeline.last

    async def drive() -> None:
        app = ReplayApp(timeline, 1, ["p1", "public"], lambda spec: reader_for(spec).timeline(game.game_id))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert app.replay.version == 1
            await pilot.press("end")
            screen = _screen(app)
            assert f"v{last}/{last}" in screen and "as player:p1" in screen
            assert _row("Ann", _hand_text(ann)) in screen
            assert _row("Ben", f"{len(ben)} cards") in screen
            # by action (the default): each step is an action and the facts it caused
            actions = [v for v in range(1, last + 1) if timeline.event(v).type == "action"]
            stops = [v - 1 for v in actions] + [last]
            await pilot.press("home", "right")
            assert app.replay.version == stops[0]  # the setup, all its facts at once
            assert "by action" in _screen(app)
            await pilot.press("right")
            assert app.replay.version == stops[1]
            assert timeline.event(actions[0]).text in _flat(_screen(app))  # the action's line stands
            await pilot.press("left", "left")
            assert app.replay.version == 1
            # e: by event, every version
            await pilot.press("e", "right", "right")
            assert app.replay.version == 3 and "by event" in _screen(app)
            await pilot.press("left")
            assert app.replay.version == 2
            await pilot.press("right_square_bracket")
            assert timeline.event(app.replay.version).type == "action"
            await pilot.press("g", "5", "enter")
            assert app.replay.version == 5
            await pilot.press("slash", *"goes to", "enter")  # an e typed in the search is a letter
            assert "goes to" in timeline.event(app.replay.version).text
            assert app.replay.search == "goes to" and app.replay.by_event
            await pilot.press("m", "home", "apostrophe")
            assert app.replay.bookmarks and app.replay.version == app.replay.bookmarks[0]
            # a click on the move list goes to that event
            await pilot.click("#moves", offset=(6, 1))
            await pilot.pause()
            assert app.replay.version <= 3
            # view as the public: nobody's hand
            await pilot.press("end", "v")
            screen = _screen(app)
            assert "as public" in screen
            assert _row("Ann", f"{len(ann)} cards") in screen
            assert _row("Ben", f"{len(ben)} cards") in screen
            await pilot.press("q")

    readers: list[LocalReader] = []

    def reader_for(spec: str) -> LocalReader:
        opened = LocalReader(open_store(game.cli.store), spec)
        readers.append(opened)
        return opened

    try:
        asyncio.run(drive())
    finally:
        reader.close()
        for opened in readers:
            opened.close()


def test_the_app_shows_what_a_step_changed(game: Running) -> None:
    reader, timeline = _timeline(game, "omniscient")
    try:
        app = ReplayApp(timeline, 1)
        changed = [app.replay.changed(v) for v in range(2, timeline.last + 1)]
        assert any(changed)  # a deal or a shuffle changes the picture
        assert app.replay.changed(1) == set()
        # by action the whole setup step is marked: everything from the game's creation on
        setup_end = app.replay.steps.stops[0]
        assert app.replay.changed(setup_end, 1) > app.replay.changed(setup_end)
    finally:
        reader.close()


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True, timeout=20).stdout


def _wait_for(session: str, text: str, timeout: float = 20) -> str:
    deadline = time.monotonic() + timeout
    while True:
        pane = _flat(_tmux("capture-pane", "-t", session, "-p"))
        if text in pane:
            return pane
        assert time.monotonic() < deadline, f"{text!r} never appeared:\n{pane}"
        time.sleep(0.2)


@pytest.fixture
def tmux_session(game: Running) -> Iterator[str]:
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):  # .ci/run installs it: a missing tmux there is a failure
            pytest.fail("tmux is not installed")
        pytest.skip("tmux is not installed")
    session = f"chronicle-replay-{time.monotonic_ns()}"
    yield session
    subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, check=False)


def _run_in_tmux(game: Running, session: str, *args: str) -> None:
    env = " ".join(
        f"{k}='{v}'" for k, v in game.cli.env.items() if k.startswith(("CHRONICLE_", "PYTHON", "PATH"))
    )
    command = f"cd '{game.cli.home}' && env {env} {' '.join(COMMAND)} replay {game.game_id} {' '.join(args)}"
    _tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", command)


def test_the_app_in_a_real_80x24_terminal(game: Running, tmux_session: str) -> None:
    ann, ben = _hands(game)
    reader, timeline = _timeline(game, "p1")
    try:
        first_action = next(v for v in range(1, timeline.last + 1) if timeline.event(v).type == "action")
    finally:
        reader.close()
    _run_in_tmux(game, tmux_session, "--as", "Ann")
    pane = _wait_for(tmux_session, "v1/")
    assert len(pane.rstrip("\n").splitlines()) <= 24
    assert all(len(line) <= 80 for line in pane.splitlines())
    # → steps by action: past the setup's facts at once, to the position the first action found
    _tmux("send-keys", "-t", tmux_session, "Right")
    _wait_for(tmux_session, f"v{first_action - 1}/")
    _tmux("send-keys", "-t", tmux_session, "e", "Right")
    _wait_for(tmux_session, f"v{first_action}/")
    _tmux("send-keys", "-t", tmux_session, "End")
    pane = _wait_for(tmux_session, f"Ben hand {len(ben)} cards")
    assert f"Ann hand {_hand_text(ann)}" in pane
    _tmux("send-keys", "-t", tmux_session, "q")
    deadline = time.monotonic() + 10
    while subprocess.run(["tmux", "has-session", "-t", tmux_session], capture_output=True).returncode == 0:
        assert time.monotonic() < deadline, "q did not quit"
        time.sleep(0.2)


def test_the_app_over_a_server_shows_what_the_token_may_see(game: Running, tmux_session: str) -> None:
    ann, ben = _hands(game)
    token_file = Path(game.cli.home) / "ben-token"
    token_file.write_text(game.tokens["p2"] + "\n")
    with serving(game.cli) as server:
        _check_server(game, tmux_session, server, token_file, ann, ben)


def _check_server(
    game: Running, session: str, server: Server, token_file: Path, ann: list[str], ben: list[str]
) -> None:
    _run_in_tmux(game, session, "--server", server.url, "--token-file", str(token_file))
    _wait_for(session, "v1/")
    _tmux("send-keys", "-t", session, "End")
    pane = _wait_for(session, f"Ann hand {len(ann)} cards")
    assert "player:p2" in pane
    assert f"Ben hand {_hand_text(ben)}" in pane
    _tmux("send-keys", "-t", session, "q")


def test_show_prints_the_picture_a_viewer_may_see(game: Running) -> None:
    ann, ben = _hands(game)
    as_ann = _flat(game.cli.ok("show", game.game_id, "--as", "Ann", "--picture"))
    assert f"Ann hand {_hand_text(ann)}" in as_ann or f"Ann {_hand_text(ann)}" in as_ann
    assert f"{len(ben)} cards" in as_ann and "seen as player:p1" in as_ann
    public = _flat(game.cli.ok("show", game.game_id, "--as", "public", "--picture"))
    assert _hand_text(ann) not in public and _hand_text(ben) not in public
    assert "Supply" in public and "Copper" in public


def test_autoplay_steps_on_by_itself_until_stopped(game: Running) -> None:
    reader, timeline = _timeline(game, "omniscient")

    async def drive() -> None:
        app = ReplayApp(timeline, 1)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("plus", "plus", "p")  # the fastest speed, then play
            await pilot.pause(1.2)
            await pilot.press("p")
            stopped_at = app.replay.version
            assert stopped_at > 1
            await pilot.pause(0.6)
            assert app.replay.version == stopped_at

    try:
        asyncio.run(drive())
    finally:
        reader.close()
