"""`domain/` holds pure rules: no IO, no clock, no global random, no web framework."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
FORBIDDEN_MODULES = {
    "random",
    "time",
    "os",
    "socket",
    "sqlite3",
    "psycopg",
    "httpx",
    "litestar",
    "redis",
    "subprocess",
    "threading",
    "asyncio",
    "secrets",
}
FORBIDDEN_CALLS = {"now", "utcnow", "today", "urandom", "open", "uuid1", "uuid4"}
# Rules data is read once, when a game package is imported, from the package's own files.
DATA_LOADERS = {"data.py", "maps.py", "cards.py", "tables.py"}


def _modules() -> list[Path]:
    return sorted(DOMAIN.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(DOMAIN)))
def test_a_domain_module_does_no_io_reads_no_clock_and_draws_no_global_random(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names = {(node.module or "").split(".")[0]}
        else:
            names = set()
        assert not names & FORBIDDEN_MODULES, f"{path.name} imports {names & FORBIDDEN_MODULES}"
        if isinstance(node, ast.Call) and path.name not in DATA_LOADERS:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}()"
