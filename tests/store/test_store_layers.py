"""The store's modules stay layered and small: no import circle among them (imports made
inside a function or under `if TYPE_CHECKING:` count too), none over 500 lines, and the core
(store/core.py and the layers it is made of) imports none of the capabilities built on it."""

from __future__ import annotations

import ast
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "store"
MOST_LINES = 500
# what the core is made of, and what it may use: anything else in store/ builds on it
CORE = "store.core"
CAPABILITIES = frozenset(
    {
        "store.app",
        "store.answering",
        "store.audit",
        "store.bgstats",
        "store.deals",
        "store.dispute_transfer",
        "store.disputes",
        "store.evidence",
        "store.fanout",
        "store.import_ids",
        "store.imports",
        "store.lines",
        "store.live",
        "store.notes",
        "store.simulation",
        "store.simulation_helper",
        "store.simulation_processes",
        "store.stamping",
        "store.stream_transfer",
        "store.studies_transfer",
        "store.transfer",
        "store.variations",
        "store.verdict",
        "store.writer_process",
    }
)


def _modules() -> dict[str, Path]:
    return {f"store.{path.stem}": path for path in sorted(STORE.glob("*.py")) if path.stem != "__init__"}


def _imports(path: Path, known: set[str]) -> set[str]:
    """The store modules `path` imports, wherever in the module the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module if node.level == 0 else f"store.{node.module}"
            if module in known:
                found.add(module)
            # `from store import chain` imports the module store.chain
            found.update(
                f"{module}.{alias.name}" for alias in node.names if f"{module}.{alias.name}" in known
            )
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle once, as the modules along it (depth-first search)."""
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            circle = path[path.index(name) :]
            rotated = min(circle[i:] + circle[:i] for i in range(len(circle)))
            if rotated not in circles:
                circles.append(rotated)
            return
        if name in done:
            return
        for imported in sorted(graph[name]):
            visit(imported, [*path, name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])
    return circles


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    waiting = [start]
    while waiting:
        name = waiting.pop()
        for imported in graph[name] - seen:
            seen.add(imported)
            waiting.append(imported)
    return seen


def test_no_store_module_imports_itself_back_through_others() -> None:
    circles = _circles(_graph())
    assert circles == [], "import circles: " + "; ".join(" -> ".join([*c, c[0]]) for c in circles)


def test_the_circle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_the_import_reader_counts_every_kind_of_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from store import chain\n"
        "import store.errors\n"
        "if TYPE_CHECKING:\n    from store.app import Chronicle\n"
        "def late():\n    from store.notes import annotate\n"
    )
    known = {"store.chain", "store.errors", "store.app", "store.notes", "store.deals"}
    assert _imports(module, known) == {"store.chain", "store.errors", "store.app", "store.notes"}


def test_no_store_module_is_over_500_lines() -> None:
    lines = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in _modules().items()}
    assert {name: n for name, n in lines.items() if n > MOST_LINES} == {}


def test_the_core_imports_none_of_the_capabilities_built_on_it() -> None:
    graph = _graph()
    assert set(graph) >= CAPABILITIES, "a capability named here is gone from store/"
    assert _reached(graph, CORE) & CAPABILITIES == set()
