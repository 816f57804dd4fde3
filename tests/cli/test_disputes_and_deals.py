"""`chronicle dispute`, `chronicle verify` and `chronicle new --same-deal-as` run for real.

A dispute over a Dynasties battle is opened and ruled on the command line, its evidence bundle
exported, and `chronicle verify` checks it on its own: no store setting, an empty home and
data directory, and (where the system allows it) no network at all; it prints the verdict
`dispute show` printed. A same-deal Province game is played and `chronicle stats` compares
the two tables.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from uuid import UUID

import pytest

from replay_cli.main import main
from store.app import RECORDER, Chronicle, NewGame
from tests.cli.conftest import COMMAND, Cli, serving
from tests.short_games import finished_game, plan
from tests.store.disputed import battle_range, dynasties_with_battle, play_as


def _no_network() -> list[str]:
    """`unshare -n` runs a command in a network namespace of its own, with no interface up."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return []
    probe = subprocess.run([unshare, "-n", "true"], capture_output=True, check=False)
    return [unshare, "-n"] if probe.returncode == 0 else []


def _offline_verify(bundle: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHRONICLE_", "PG", "REDIS"))}
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config")}
    return subprocess.run(
        [*_no_network(), *COMMAND, "verify", str(bundle)],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=120,
    )


def _chronicle(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """A command run in this process (the subprocess is kept for the offline check)."""
    status = main(list(args))
    return status, capsys.readouterr().out


def test_a_dispute_over_a_dynasties_battle_verifies_offline_with_no_store_and_no_server(
    cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = Chronicle(cli.store)
    try:
        game_id = dynasties_with_battle(app)
        first, last = battle_range(app, game_id)
    finally:
        app.close()
    store = ("--store", cli.store)
    status, opened = _chronicle(
        capsys, "dispute", "open", str(game_id)[:8], "--from", str(first), "--to", str(last),
        "--claim", "the rebels' cards were stacked", *store,
    )  # fmt: skip
    assert status == 0
    dispute_id = opened.splitlines()[0].split()[1]
    assert UUID(dispute_id)
    assert "The record holds" in opened and "legal  [dynasties]" in opened
    status, shown = _chronicle(capsys, "dispute", "rule", dispute_id, "--text", "The battle stands.", *store)
    assert status == 0 and "ruling    The battle stands." in shown
    assert dispute_id in _chronicle(capsys, "dispute", "list", str(game_id), *store)[1]

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    bundle = elsewhere / "bundle.json"
    assert _chronicle(capsys, "dispute", "export", dispute_id, "--out", str(bundle), *store)[0] == 0
    done = _offline_verify(bundle, elsewhere)
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = [line for line in shown.splitlines() if line.startswith(("verdict", "  v"))]
    assert (
        verdict
        and [line for line in done.stdout.splitlines() if line.startswith(("verdict", "  v"))] == verdict
    )
    assert "checked   seed matches the commitment" in done.stdout
    assert done.stdout.rstrip().endswith("verified: the bundle holds")
    assert sorted(p.name for p in elsewhere.iterdir()) == ["bundle.json"]  # no store was made

    tampered = json.loads(bundle.read_text())
    dealt = next(e for e in tampered["events"] if e["fields"].get("fact", {}).get("type") == "BattleDealt")
    dealt["fields"]["fact"]["attacker_cards"] = list(reversed(dealt["fields"]["fact"]["attacker_cards"]))
    bundle.write_text(json.dumps(tampered))
    status, out = _chronicle(capsys, "verify", str(bundle))
    assert status == 1
    assert f"DIVERGED (chain) at version {dealt['version']}" in out

    # the game's last event cut off and the chain's head recomputed: the dispute recorded the
    # head it was opened at (printed when it was opened), which the bundle no longer reaches
    head = next(line.split()[1] for line in opened.splitlines() if line.startswith("head"))
    assert _chronicle(capsys, "dispute", "export", dispute_id, "--out", str(bundle), *store)[0] == 0
    cut = json.loads(bundle.read_text())
    assert cut["chain"]["head"] == cut["dispute"]["game_head"] == head
    last = cut["events"].pop()
    digests = [e["fields"]["chain"] for e in cut["events"]]
    cut["chain"]["head"] = digests[-1]
    bundle.write_text(json.dumps(cut))
    status, out = _chronicle(capsys, "verify", str(bundle))
    assert status == 1
    assert f"DIVERGED (events) at version {last['version']}" in out


def test_a_same_deal_province_game_shows_in_the_statistics_beside_the_first(
    cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    app = Chronicle(cli.store)
    try:
        first = finished_game(app, "province")
    finally:
        app.close()
    store = ("--store", cli.store)
    players = ("--player", "Cy", "--player", "Di")
    assert main(["new", "province", *players, "--same-deal-as", str(first), "--seed", "00" * 32, *store]) == 2
    assert "--same-deal-as" in capsys.readouterr().err
    status, out = _chronicle(
        capsys, "new", "province", *players, "--same-deal-as", str(first)[:8], "--json", *store
    )
    assert status == 0
    created = json.loads(out)
    again = UUID(created["game_id"])
    app = Chronicle(cli.store)
    try:
        assert created["commitment"] == app.game(first).commitment
        play_as(app, again, first)
        outcome = app.game(again).outcome
        assert outcome is not None
    finally:
        app.close()
    status, shown = _chronicle(capsys, "stats", "--color", "never", *store)
    assert status == 0
    assert "[same_deal]" in shown
    table = shown[shown.index("[same_deal]") :]
    assert str(first) in table and str(again) in table
    assert f"Cy {outcome.scores['A']}, Di {outcome.scores['B']}" in table
    status, out = _chronicle(capsys, "stats", "--json", "--no-update", *store)
    rows = next(t for t in json.loads(out) if t["id"] == "same_deal")["rows"]
    assert [(r["deal"], r["table"], r["game"]) for r in rows] == [
        (str(first), 1, str(first)),
        (str(first), 2, str(again)),
    ]


def test_a_seat_disputes_a_running_game_on_a_server_and_gets_a_bundle_of_what_it_sees(
    cli: Cli, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = Chronicle(cli.store)
    try:
        created = app.create_game(NewGame("dominion", ["Ann", "Ben"]))
        game_id = UUID(created.game_id)
        codec = app.game(game_id).ruleset.codec
        for step in plan(app, game_id, 4, "server", one_seat=True):
            app.record(game_id, codec.encode(step.action), RECORDER, seat=step.seat)
        version = app.game(game_id).version
        sealed = app.secrets(game_id).server_seed
    finally:
        app.close()
    seat = ("--token", created.seat_tokens["p1"])
    with serving(cli) as server:
        remote = ("--server", server.url)
        status, opened = _chronicle(
            capsys, "dispute", "open", created.game_id[:8], "--from", "1", "--to", str(version),
            "--claim", "Ben's shuffle", *remote, *seat,
        )  # fmt: skip
        assert status == 0 and "The record holds" in opened and "seat:p1" in opened
        dispute_id = opened.splitlines()[0].split()[1]
        assert main(["dispute", "rule", dispute_id, "--text", "no", *remote, *seat]) == 1
        assert "recorder_required" in capsys.readouterr().err
        status, listed = _chronicle(capsys, "dispute", "list", created.game_id, *remote)
        assert status == 0 and dispute_id in listed
        bundle = tmp_path / "bundle.json"
        assert main(["dispute", "export", dispute_id, "--out", str(bundle), *remote, *seat]) == 0
    held = json.loads(bundle.read_text())
    assert held["form"] == "redacted" and held["view"] == "player:p1" and sealed not in bundle.read_text()
    status, out = _chronicle(capsys, "verify", str(bundle))
    assert status == 0
    assert "unchecked the hash chain" in out and out.rstrip().endswith("verified: the bundle holds")
