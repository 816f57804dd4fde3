"""`chronicle completion bash|zsh|fish`: scripts written from the parser, run in real shells.

Each script must name every subcommand and option of the parser; the bash script is sourced
in a real bash and its function driven through `COMP_WORDS`/`COMP_CWORD`, as bash's
completion calls it; the fish script is asked by fish itself (`complete -C`); the zsh
script's function runs in a real zsh with the completion system's builtins (`compadd`,
`_files`) standing in as functions that print what they are given. CI installs zsh and fish
(.ci/run); a machine without one of them still checks that shell's script text.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from domain.ruleset import all_rulesets
from replay_cli.completion import SHELLS, script
from replay_cli.main import build_parser
from tests.cli.conftest import Cli


@cache
def written(shell: str) -> str:
    return script(build_parser(), shell)


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, (*path, name))


LEVELS = list(commands(build_parser()))


def test_the_command_prints_the_script_this_module_tests(cli: Cli) -> None:
    assert cli.ok("completion", "bash") == written("bash")
    assert "invalid choice: 'tcsh'" in cli.fails(2, "completion", "tcsh")


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_the_bash_and_zsh_scripts_name_every_subcommand_and_option(shell: str) -> None:
    text = written(shell)
    for path, parser in LEVELS:
        options = [name for action in parser._actions for name in action.option_strings]
        assert f"    \"{' '.join(path)}\") echo '{' '.join(options)}' ;;" in text, path
        if path:
            assert f"{path[-1]}" in text.split(f'"{" ".join(path[:-1])}") echo \'', 1)[1].split("'")[0]


def test_the_fish_script_names_every_subcommand_and_option() -> None:
    lines = written("fish").splitlines()
    for path, parser in LEVELS:
        at = f"complete -c chronicle -n '__chronicle_at \\'{' '.join(path)}\\'' "
        here = [line.removeprefix(at) for line in lines if line.startswith(at)]
        for action in parser._actions:
            for name in action.option_strings:
                flag = f"-l {name[2:]} " if name.startswith("--") else f"-s {name[1:]} "
                assert any(flag in line.split(" -d ")[0] + " " for line in here), (path, name)
            if isinstance(action, argparse._SubParsersAction):
                for name in action.choices:
                    assert any(line.startswith(f"-a {name} -d ") for line in here), (path, name)


def bash_completes(*words: str) -> list[str]:
    """What bash offers for the last of `words` (the word under the cursor)."""
    program = (
        'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); '
        'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _chronicle; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    return _run(["bash", "--norc", "-c", program, "bash", _script_file("bash"), *words])


SCRIPTS: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def script_files(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each shell's script in a file, for the shell to source."""
    folder = tmp_path_factory.mktemp("completion")
    for shell in SHELLS:
        (folder / f"chronicle.{shell}").write_text(written(shell))
        SCRIPTS[shell] = str(folder / f"chronicle.{shell}")


def _script_file(shell: str) -> str:
    return SCRIPTS[shell]


def _run(argv: list[str]) -> list[str]:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [line for line in done.stdout.splitlines() if line]


RULESETS = sorted(r.meta.id for r in all_rulesets())


def test_bash_completes_subcommands_options_choices_and_rulesets() -> None:
    assert "export" in bash_completes("chronicle", "")
    assert bash_completes("chronicle", "ex") == ["export"]
    assert bash_completes("chronicle", "export", "abcd", "--f") == ["--format"]
    assert bash_completes("chronicle", "export", "abcd", "--format", "") == ["json", "ndjson", "bgstats"]
    # bash splits `--format=nd` at '=' into three words
    assert bash_completes("chronicle", "export", "abcd", "--format", "=", "nd") == ["ndjson"]
    assert sorted(bash_completes("chronicle", "new", "")) == RULESETS
    assert bash_completes("chronicle", "new", "--mode", "physical", "prov") == ["province"]
    assert bash_completes("chronicle", "new", "province", "--mode", "p") == ["physical"]
    assert bash_completes("chronicle", "rng", "") == ["commit", "roll", "shuffle"]
    assert bash_completes("chronicle", "rng", "roll", "--s") == ["--seed", "--stream"]
    assert "records" in bash_completes("chronicle", "rules", "")
    assert bash_completes("chronicle", "completion", "") == ["bash", "zsh", "fish"]
    # a game id, an action: nothing to guess, and no file names either
    assert bash_completes("chronicle", "record", "abcd", "--seat", "A", "mo") == []


def test_bash_completes_file_names_where_a_file_is_asked_for(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{}")
    assert bash_completes("chronicle", "import", str(tmp_path / "ga")) == [str(tmp_path / "game.json")]
    assert bash_completes("chronicle", "export", "x", "--out", str(tmp_path / "g")) == [
        str(tmp_path / "game.json")
    ]
    assert bash_completes("chronicle", "import-log", "dominion", str(tmp_path / "g")) == [
        str(tmp_path / "game.json")
    ]


def installed(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed here (CI installs it); its script text is checked above")
    return found


def zsh_completes(*words: str) -> list[str]:
    stand_ins = (
        "compdef() { :; }; compset() { :; }; _files() { print -r -- @files; }; "
        'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@"; }; '
    )
    program = stand_ins + 'source "$1"; shift; words=("$@"); CURRENT=${#words}; _chronicle; true'
    return _run([installed("zsh"), "-f", "-c", program, "zsh", _script_file("zsh"), *words])


def test_zsh_completes_subcommands_options_and_choices() -> None:
    assert "export" in zsh_completes("chronicle", "")
    assert zsh_completes("chronicle", "export", "abcd", "--format", "") == ["json", "ndjson", "bgstats"]
    assert zsh_completes("chronicle", "export", "abcd", "--format=n") == ["json", "ndjson", "bgstats"]
    assert sorted(zsh_completes("chronicle", "new", "--mode", "digital", "")) == RULESETS
    assert zsh_completes("chronicle", "rng", "") == ["commit", "roll", "shuffle"]
    assert "--faces" in zsh_completes("chronicle", "rng", "roll", "--")
    assert zsh_completes("chronicle", "import", "") == ["@files"]
    assert zsh_completes("chronicle", "record", "abcd", "") == []


def fish_completes(line: str) -> list[str]:
    program = "source $argv[1]; complete -C $argv[2] | string split -f1 \\t; true"
    return _run([installed("fish"), "--no-config", "-c", program, _script_file("fish"), line])


def test_fish_completes_subcommands_options_and_choices() -> None:
    assert "export" in fish_completes("chronicle ")
    assert fish_completes("chronicle ex") == ["export"]
    assert fish_completes("chronicle export abcd --format ") == ["bgstats", "json", "ndjson"]
    assert sorted(fish_completes("chronicle new ")) == RULESETS
    assert fish_completes("chronicle new province --mode ") == ["digital", "physical"]
    assert fish_completes("chronicle rng ") == ["commit", "roll", "shuffle"]
    assert fish_completes("chronicle rng roll --s") == ["--seed", "--stream"]
    assert fish_completes("chronicle new province ") == []
