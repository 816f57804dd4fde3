"""Games are plugins: a ruleset another installed package declares as an entry point of the
`chronicle.rulesets` group appears in `chronicle rulesets` and plays in `simulate`, with no
change to Chronicle; domain/ruleset.py imports no game."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

from tests.cli.conftest import COMMAND

ROOT = Path(__file__).resolve().parents[2]


def test_a_game_installed_as_an_entry_point_is_listed_and_simulated(tmp_path: Path) -> None:
    # What installing a package with this entry point leaves on the path: its metadata.
    dist = tmp_path / "site" / "tinygame-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tinygame\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[chronicle.rulesets]\ntinygame = tests.plugin_example.tinygame:RULESET\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHRONICLE_")}
    path = os.pathsep.join([str(tmp_path / "site"), str(ROOT), env.get("PYTHONPATH", "")])
    env |= {"PYTHONPATH": path, "CHRONICLE_STORE": f"sqlite:///{tmp_path / 'g.sqlite3'}"}

    def chronicle(*args: str) -> str:
        done = subprocess.run([*COMMAND, *args], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    listed = chronicle("rulesets")
    assert "tinygame" in listed and "province" in listed
    assert "simulated 1 tinygame games" in chronicle("simulate", "tinygame", "--games", "1", "--seed", "p")


def test_the_ruleset_registry_imports_no_game() -> None:
    tree = ast.parse((ROOT / "domain" / "ruleset.py").read_text())
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)] + [
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    ]
    assert not [name for name in imported if name.startswith("domain.games")]
