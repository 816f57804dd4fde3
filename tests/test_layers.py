"""Chronicle's layers ([tool.importlinter] in pyproject.toml) are enforced: `lint-imports`, which
`make lint` runs, passes on the tree as it is and fails, naming the contract, on a copy of the
tree with one forbidden import added."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("domain", "store", "projections", "api", "replay_cli", "bench")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    """A copy of the source packages (their Python files) and pyproject.toml."""

    def not_python(folder: str, names: list[str]) -> set[str]:
        kept = {n for n in names if n.endswith(".py") or (Path(folder, n).is_dir() and n != "__pycache__")}
        return set(names) - kept

    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=not_python)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    yield tmp_path


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    # run in `where`: lint-imports reads its pyproject.toml and finds the packages there first
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def add_import(module: Path, line: str) -> None:
    module.write_text(module.read_text() + f"\n{line}\n")


def test_the_tree_as_it_is_keeps_every_contract(tree: Path) -> None:
    linted = lint_imports(tree)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    assert "0 broken" in linted.stdout


def test_the_store_importing_a_projection_breaks_the_layers(tree: Path) -> None:
    add_import(tree / "store" / "deals.py", "import projections.tables")
    linted = lint_imports(tree)
    assert linted.returncode != 0
    layers = "Chronicle's layers: domain < store < projections < api | replay_cli < bench"
    assert f"{layers} BROKEN" in linted.stdout
    assert "store is not allowed to import projections" in linted.stdout
    assert "store.deals -> projections.tables" in linted.stdout


def test_the_store_importing_a_game_breaks_its_contract(tree: Path) -> None:
    add_import(tree / "store" / "imports.py", "import domain.games.dominion")
    linted = lint_imports(tree)
    assert linted.returncode != 0
    assert "The store imports no game (it reaches them through the Ruleset protocol) BROKEN" in linted.stdout
    assert "store.imports -> domain.games.dominion" in linted.stdout


def test_a_game_importing_another_game_breaks_their_independence(tree: Path) -> None:
    add_import(tree / "domain" / "games" / "province" / "__init__.py", "import domain.games.dominion.data")
    linted = lint_imports(tree)
    assert linted.returncode != 0
    assert "Each game is independent of the others BROKEN" in linted.stdout
