"""A newcomer's review of a finished Dominion game with the `chronicle` command, on each store:
annotate it at three versions, read the notes in the log, branch a variation at one of them,
play it on, check its randomness, and start a new game from a position of the variation."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import httpx
import pytest

from replay_cli.main import main
from tests.cli.conftest import Cli, serving


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def _fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    status = main(list(args))
    error = capsys.readouterr().err.strip()
    assert status != 0 and error.startswith("chronicle: error: ") and "\n" not in error, error
    return error


def test_a_newcomer_annotates_a_finished_dominion_game_branches_a_variation_and_plays_it_on(
    store_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ("--store", store_url)
    _run(capsys, "simulate", "dominion", "--games", "1", "--seed", "short-0", *store)
    listed = _run(capsys, "games", *store)
    game = re.search(r"^([0-9a-f-]{36})\s+dominion", listed, re.M)
    assert game is not None and "finished" in listed
    prefix = game[1][:8]

    # three annotations, at three versions, one of them on a card
    first = _run(
        capsys, "annotate", prefix, "--at", "17", "Silver on turn 1 is standard", "--glyph", "!", *store
    )
    assert re.match(
        r"annotation [0-9a-f]{12} at version 17: ! Silver on turn 1 is standard \(recorder\)", first
    )
    _run(capsys, "annotate", prefix, "--at", "29", "Chapel would thin the deck", "--glyph", "?!", *store)
    _run(capsys, "annotate", prefix, "--at", "21", "--on", "card:Estate", "--highlight", "red", *store)
    arrow = _run(
        capsys, "annotate", prefix, "--at", "21", "--on", "card:Estate", "--arrow-to", "card:Gold", *store
    )
    assert arrow.rstrip().endswith("[card:Estate -> card:Gold] (recorder)")
    arrow_id = arrow.split()[1]
    _run(capsys, "annotate", prefix, "--delete", arrow_id, *store)
    assert "(invalid_glyph)" in _fails(capsys, "annotate", prefix, "--at", "21", "--glyph", "?!?", *store)
    log = _run(capsys, "log", prefix, *store).splitlines()
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    screen = _run(capsys, "replay", prefix, "--at", "29", "--events", *store).splitlines()  # 29's own line
    assert screen[2].startswith("  29  ") and screen[3].endswith("?! Chapel would thin the deck (recorder)")
    under = {
        log[i - 1].split()[0]: line.strip() for i, line in enumerate(log) if line.startswith("        note ")
    }
    assert set(under) == {"17", "21", "29"}
    assert under["29"].endswith("?! Chapel would thin the deck (recorder)")
    assert under["21"].endswith("[card:Estate] (red) (recorder)")

    # a variation at version 29, played on by the same rules with a seed derived for it
    made = _run(capsys, "variation", "new", prefix, "--at", "29", *store)
    variation = re.search(r"^variation\s+([0-9a-f-]{36})", made, re.M)
    assert variation is not None and re.search(r"^seed\s+[0-9a-f]{64}$", made, re.M)
    assert "derived as  HMAC-SHA256(key=base seed" in made
    vid = variation[1]
    played = _run(capsys, "variation", "record", vid, "end", "end", "end", "end", *store).splitlines()
    assert played[0].startswith("  30  #8 ") and any("draws" in line for line in played)
    refused = _fails(capsys, "variation", "record", vid, "buy Province", *store)
    assert "rejected" in refused
    assert f"{vid}  study" in _run(capsys, "variation", "list", prefix, *store)
    _run(capsys, "annotate", vid, "--at", "31", "the cleanup came from the derived seed", *store)
    line = _run(capsys, "log", vid, *store)
    assert "note " in line and "the cleanup came from the derived seed (recorder)" in line
    assert line.splitlines()[16] == log[16]  # the game's lines up to the branch, then the variation's
    assert f"{vid}  clean" in _run(capsys, "audit", vid, *store)
    assert "version 29 of" in _run(capsys, "show", vid, "--at", "29", *store)

    # play on from a position of the variation: a new game with its own tokens and sealed seed
    version = int(line.splitlines()[-1].split()[0])
    new = _run(
        capsys,
        "variation",
        "new",
        vid,
        "--at",
        str(version),
        "--play",
        "--player",
        "Ann",
        "--player",
        "Bo",
        *store,
    )
    game_on = re.search(r"^new game\s+([0-9a-f-]{36})", new, re.M)
    assert game_on is not None and "seed  " not in new and "p1 (Ann)" in new
    on = _run(capsys, "variation", "record", game_on[1], "end", *store)
    assert on.startswith(f"{version + 1:>4}  #")
    assert "Ann" in _run(capsys, "show", game_on[1], *store)

    # the annotations and the study travel with the game into another store
    path = tmp_path / "game.json"
    _run(capsys, "export", prefix, "--out", str(path), *store)
    other = ("--store", f"sqlite:///{tmp_path}/other.sqlite3")
    _run(capsys, "new", "province", "--player", "Ann", "--player", "Bo", *other)  # makes the store
    assert f"variation {vid}  recorder " in _run(capsys, "import", str(path), *other)
    assert _run(capsys, "log", vid, *other) == line


def test_annotations_and_a_variation_over_a_real_server_follow_each_token(
    cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    with serving(cli) as server:
        created = httpx.post(
            f"{server.url}/games", json={"ruleset": "province", "players": ["Ann", "Bob"]}
        ).json()
        game, seats, recorder = created["game_id"], created["seat_tokens"], created["recorder_token"]
        on = ("--server", server.url)
        _run(
            capsys, "annotate", game, "--at", "1", "my opening", "--glyph", "!", *on, f"--token={seats['A']}"
        )
        handed = _run(capsys, "annotate", game, "--review-token", "Coach", *on, f"--token={recorder}")
        coach = handed.split(": ")[1].strip()
        _run(capsys, "annotate", game, "--at", "2", "coach's view", *on, f"--token={coach}")
        assert "(recorder_required)" in _fails(
            capsys, "annotate", game, "--review-token", "Eve", *on, f"--token={coach}"
        )
        as_ann = _run(capsys, "log", game, *on, f"--token={seats['A']}")
        assert "! my opening (seat:A)" in as_ann and "coach's view" not in as_ann
        assert "note " not in _run(capsys, "log", game, *on)
        ended = httpx.post(
            f"{server.url}/games/{game}/abandon", json={}, headers={"authorization": f"Bearer {recorder}"}
        )
        assert ended.status_code == 200, ended.text
        public = _run(capsys, "log", game, *on)
        assert "! my opening (seat:A)" in public and "coach's view (reviewer:Coach)" in public

        made = json.loads(
            _run(capsys, "variation", "new", game, "--at", str(created["version"]), "--json", *on)
        )
        vid = made["variation_id"]
        state = httpx.get(f"{server.url}/variations/{vid}/state").json()
        seat = state["prompts"][0]["seat"]
        token = (f"--token={made['recorder_token']}",)
        played = _run(capsys, "variation", "record", vid, "move green top", "--seat", seat, *on, *token)
        assert played.startswith(f"{created['version'] + 1:>4}  #")
        assert f"{vid}  study" in _run(capsys, "variation", "list", game, *on)
        # a variation reads over the server like a game: log, show, audit
        remote = _run(capsys, "log", vid, *on).splitlines()
        events = [x for x in _run(capsys, "log", game, *on).splitlines() if not x.startswith("        note ")]
        assert remote[: created["version"]] == events[: created["version"]]  # the game's notes stay with it
        assert remote[-len(played.splitlines()) :] == played.splitlines()
        last = int(remote[-1].split()[0])
        assert f"{vid}  province (digital)  Ann (A), Bob (B)\nversion {last} of {last}" in _run(
            capsys, "show", vid, *on
        )
        assert f"{vid}  clean" in _run(capsys, "audit", vid, *on)
        assert "(token_required)" in _fails(capsys, "variation", "record", vid, "end", *on)
