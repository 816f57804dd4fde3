"""Every command takes a game, a variation or a dispute by a unique prefix of its id (four
characters or more), on the local store and over a server alike."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.cli.conftest import Cli, Server, serving

ADMIN = "prefix-test-administrator"


@dataclass(frozen=True)
class Reviewed:
    """A finished Dominion game with a study branched from it and a dispute over it."""

    cli: Cli
    game: str
    variation: str
    dispute: str


def _id(pattern: str, text: str) -> str:
    found = re.search(pattern + r"\s+([0-9a-f-]{36})", text)
    assert found is not None, text
    return found[1]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Reviewed:
    cli = Cli(tmp_path_factory.mktemp("prefixes"))
    cli.ok("simulate", "dominion", "--games", "1", "--seed", "short-0")
    game = cli.ok("games").splitlines()[1].split()[0]
    variation = _id("variation", cli.ok("variation", "new", game[:6], "--at", "29"))
    dispute = _id("dispute", cli.ok("dispute", "open", game[:6], "--from", "5", "--to", "9", "--claim", "x"))
    return Reviewed(cli, game, variation, dispute)


def test_a_variation_is_recorded_read_and_audited_by_a_prefix(reviewed: Reviewed) -> None:
    cli, short = reviewed.cli, reviewed.variation[:5]
    assert cli.ok("variation", "record", short, "end").startswith("  30  #8 ")
    assert cli.ok("log", short) == cli.ok("log", reviewed.variation)
    assert cli.ok("audit", short).startswith(f"{reviewed.variation}  clean")
    assert cli.ok("show", short).startswith(f"game {reviewed.variation}  dominion")
    assert "annotation " in cli.ok("annotate", short, "--at", "30", "a study's note")
    played = cli.ok("variation", "new", short, "--at", "29", "--play", "--json")
    assert json.loads(played)["base_id"] == reviewed.variation
    assert reviewed.variation in cli.ok("variation", "list", reviewed.game[:4])


def test_a_dispute_is_ruled_shown_and_exported_by_a_prefix(reviewed: Reviewed) -> None:
    cli, short = reviewed.cli, reviewed.dispute[:4]
    assert "ruling    The record stands." in cli.ok("dispute", "rule", short, "--text", "The record stands.")
    assert cli.ok("dispute", "show", short).startswith(f"dispute   {reviewed.dispute}")
    bundle = json.loads(cli.ok("dispute", "export", short))
    assert bundle["dispute"]["dispute_id"] == reviewed.dispute


def test_a_prefix_too_short_or_naming_nothing_is_one_line(reviewed: Reviewed) -> None:
    cli = reviewed.cli
    too_short = cli.fails(2, "variation", "record", reviewed.variation[:3], "end")
    assert too_short.endswith(
        f"a game or variation id prefix needs at least 4 characters, not {reviewed.variation[:3]!r}"
    )
    assert "no dispute id starts with 'ffffff'" in cli.fails(1, "dispute", "rule", "ffffff", "--text", "t")


@pytest.fixture(scope="module")
def server(reviewed: Reviewed) -> Iterator[Server]:
    with serving(reviewed.cli, {"CHRONICLE_ADMIN_TOKEN": ADMIN}) as running:
        yield running


def test_over_a_server_every_command_takes_a_prefix(reviewed: Reviewed, server: Server) -> None:
    cli, on = reviewed.cli, ("--server", server.url)
    game, variation, dispute = reviewed.game[:6], reviewed.variation[:6], reviewed.dispute[:6]
    made = json.loads(cli.ok("variation", "new", game, "--at", "29", "--json", *on))
    assert made["base_id"] == reviewed.game
    token = f"--token={made['recorder_token']}"
    recorded = cli.ok("variation", "record", made["variation_id"][:6], "end", *on, token)
    assert recorded.startswith("  30  #8 ")
    assert cli.ok("log", variation, *on) == cli.ok("log", reviewed.variation, *on)
    assert cli.ok("audit", variation, *on).startswith(f"{reviewed.variation}  clean")
    assert reviewed.variation in cli.ok("variation", "list", game, *on)
    ruled = cli.ok("dispute", "rule", dispute, "--text", "Upheld.", *on, f"--token={ADMIN}")
    assert "ruling    Upheld." in ruled
    assert cli.ok("dispute", "show", dispute, *on).startswith(f"dispute   {reviewed.dispute}")
    # a finished game is followed from its start to its end, line for line as its log
    watched = cli.ok("watch", game, *on, "--as", "public")
    assert watched == cli.ok("log", reviewed.game, *on, "--as", "public")
