"""`chronicle rng` reproduces the test vectors of design.md section 4."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Cli

SEED = bytes(range(32)).hex()
STREAM = ["--seed", SEED, "--game", "game-1"]


def test_commit_prints_the_commitment_of_the_vector_seed(cli: Cli) -> None:
    assert (
        cli.ok("rng", "commit", "--seed", SEED)
        == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd\n"
    )


@pytest.mark.parametrize(
    ("extra", "faces"),
    [
        (["--n", "0", "--count", "10"], "1 6 3 5 4 1 4 2 5 3"),
        (["--n", "1", "--count", "2"], "6 3"),
        (["--client-seed", "alice", "--n", "0", "--count", "10"], "4 6 4 5 5 4 1 6 1 2"),
    ],
    ids=["ten d6 at n 0", "two d6 at n 1", "ten d6 with client seed alice"],
)
def test_roll_prints_the_faces_of_the_vector(cli: Cli, extra: list[str], faces: str) -> None:
    assert cli.ok("rng", "roll", *STREAM, "--stream", "dice", "--faces", "6", *extra) == faces + "\n"


def test_shuffle_prints_the_deck_of_the_vector(cli: Cli) -> None:
    deck = [f"Copper#{i}" for i in range(7)] + [f"Estate#{i}" for i in range(7, 10)]
    shuffled = cli.ok("rng", "shuffle", *STREAM, "--stream", "deck:p1", "--n", "0", *deck)
    expected = "Copper#2 Copper#4 Copper#5 Copper#1 Estate#9 Estate#8 Copper#0 Copper#6 Estate#7 Copper#3"
    assert shuffled.split() == expected.split()


def test_a_seed_that_is_not_hexadecimal_is_a_usage_error(cli: Cli) -> None:
    assert "hexadecimal" in cli.fails(2, "rng", "commit", "--seed", "not-hex")
