"""Arguments that are not UTF-8 text (a name typed in a Latin-1 terminal, a stray byte): one
line naming the argument and exit 2, whatever the command; a file's name may be any bytes
the system allows, and a game log's content must be UTF-8. Python hands such bytes to the
command as lone surrogates (`\\udcff` for the byte 0xff), which is how they are written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Cli

FF = "\udcff"  # the byte 0xff on the command line


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("new", "province", "--player", f"{FF}Ann", "--player", "Bob"), "argument --player: b'\\xffAnn'"),
        ((f"sh{FF}w",), "argument COMMAND: b'sh\\xffw'"),
        (("games", f"--store=sqlite:///{FF}.db"), "argument --store: b'sqlite:///\\xff.db'"),
        (("show", f"{FF}{FF}{FF}{FF}"), "argument GAME: b'\\xff\\xff\\xff\\xff'"),
    ],
)
def test_an_argument_that_is_not_utf8_is_one_line_naming_it_with_exit_2(
    cli: Cli, args: tuple[str, ...], named: str
) -> None:
    message = cli.fails(2, *args)
    assert named in message and "is not UTF-8 text" in message


def test_an_action_that_is_not_utf8_is_refused_before_the_store_is_touched(cli: Cli) -> None:
    game = cli.new_game("province", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    before = cli.ok("log", game)
    message = cli.fails(2, "record", game, f"first A wh{FF}te")
    assert "argument ACTION: b'first A wh\\xffte' is not UTF-8 text (byte 10)" in message
    assert cli.ok("log", game) == before


def test_a_file_name_may_be_any_bytes(cli: Cli) -> None:
    game = cli.new_game("province", "--player", "Ann", "--player", "Bob", "--mode", "physical")
    cli.ok("record", game, "first A white")
    name = f"game{FF}.json"
    cli.ok("export", game, "--out", name)
    assert (cli.home / name).exists()
    elsewhere = Cli(cli.home / "elsewhere")
    elsewhere.home.mkdir()
    elsewhere.new_game("province", "--player", "Cy", "--player", "Di")
    assert f"game      {game}" in elsewhere.ok("import", str(cli.home / name))


def test_a_game_log_that_is_not_utf8_is_refused_with_one_line_naming_the_file(cli: Cli) -> None:
    log = cli.home / f"log{FF}.txt"
    Path(log).write_bytes(b"Turn 1 - Ann\nAnn plays 3 Coppers.\nRen\xe9 buys a Silver.\n")  # Latin-1
    message = cli.fails(2, "import-log", "dominion", str(log))
    assert message.endswith("log\ufffd.txt: not UTF-8 text (byte 37); save the log as UTF-8")
