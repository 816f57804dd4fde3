"""Every rule a rejection or an audit cites resolves to a section of a rules reference a user
can read (`chronicle rules`, `GET /rulesets/{id}/rules/{section}`), and every reference
ships in its package.

The citations are collected from the code itself: every call of a rejection constructor
(`Rejection`, a game's `reject`/`rej`, the audit's `_Diverged`) whose rule is written out,
including both branches of a conditional. A game's `reject(code, message, section)` cites
`<ruleset id> <section>`. The contract playouts check the rules of the rejections they meet
(tests/contract/test_rulesets.py), which covers the rules computed at run time.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.ruleset import all_rulesets, resolve_options
from replay_cli.main import build_parser
from store.references import CORE, reference, reference_ids, resolve

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*sorted((ROOT / "domain").rglob("*.py")), *sorted((ROOT / "store").rglob("*.py"))]
GAME_REJECTERS = {"reject", "rej"}  # (code, message, section) within a game package
RULE_POSITION = {"Rejection": 2, "_Diverged": 3}


def _constants(node: ast.expr) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _constants(node.body)
        yield from _constants(node.orelse)


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def citations() -> Iterator[tuple[str, str]]:
    """(where, rule) for every rule written out at a rejection in the code."""
    for path in SOURCES:
        parts = path.relative_to(ROOT).parts
        game = parts[2] if parts[:2] == ("domain", "games") and len(parts) > 3 else None
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node)
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if name in GAME_REJECTERS and game is not None and len(node.args) == 3:
                for section in _constants(node.args[2]):
                    yield where, f"{game} {section}"
            elif name in RULE_POSITION and len(node.args) > RULE_POSITION[name]:
                for rule in _constants(node.args[RULE_POSITION[name]]):
                    yield where, rule


FOUND = sorted(set(citations()))


def test_the_code_cites_many_rules() -> None:
    games = {rule.split()[0] for _, rule in FOUND}
    assert {"province", "dominion", "dynasties", "dominations", "records", "corrections"} <= games
    assert len({rule for _, rule in FOUND}) > 100


@pytest.mark.parametrize(("where", "rule"), FOUND, ids=[f"{w} {r}" for w, r in FOUND])
def test_every_cited_rule_is_a_section_a_user_can_read(where: str, rule: str) -> None:
    assert resolve(rule) is not None, f"{where} cites {rule!r}, which no rules reference holds"


def test_every_ruleset_and_the_project_ship_a_reference_with_a_title() -> None:
    for reference_id in reference_ids():
        found = reference(reference_id)
        assert found is not None, reference_id
        assert found.title and found.sections, reference_id
    assert set(CORE) <= set(reference_ids())


def test_a_ruleset_meta_spec_names_its_reference_and_option_refusals_resolve() -> None:
    for ruleset in all_rulesets():
        assert resolve(ruleset.meta.spec) is not None, ruleset.meta.id
        refused = resolve_options(ruleset.meta, {"no_such_option": 1})
        assert not isinstance(refused, dict) and resolve(refused.rule) is not None


def test_no_rule_or_option_cites_a_file_a_user_does_not_have() -> None:
    for _, rule in FOUND:
        assert ".md" not in rule, rule
    for ruleset in all_rulesets():
        for option in ruleset.meta.options:
            assert ".md" not in option.description, (ruleset.meta.id, option.name)


# A section as an option's text cites it: "7.13:", "(8.1)", "D3:", "1.6, 7.36:", "D6 (house rule)".
_SECTION = re.compile(r"(?<![\w.$])([A-Z]?\d+(?:\.\d+)+|[A-Z]\d+)(?=[:),]| \()")
_RULES_COMMAND = re.compile(r"chronicle rules ['\"]?(\w+) ([\w.]+)")


def test_every_section_an_option_cites_is_one_of_its_rules_reference() -> None:
    cited = 0
    for ruleset in all_rulesets():
        for option in ruleset.meta.options:
            for section in _SECTION.findall(option.description):
                cited += 1
                rule = f"{ruleset.meta.id} {section}"
                assert resolve(rule) is not None, f"option {option.name} cites {rule!r}, which does not exist"
    assert cited > 50


def _helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str]]:
    yield parser.prog, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _helps(sub)


HELPS = list(_helps(build_parser()))


def test_the_command_line_help_cites_only_rules_a_user_can_read() -> None:
    assert len(HELPS) > 20
    cited = []
    for prog, text in HELPS:
        flat = " ".join(text.split())
        assert not re.search(r"\w\.md\b", flat), f"`{prog} --help` names a file a user does not have"
        assert "design" not in flat.lower(), prog
        for named, section in _RULES_COMMAND.findall(flat):
            if section.upper() == "SECTION" or named.upper() in ("ID", "RULESET"):
                continue
            cited.append((prog, f"{named} {section.rstrip('.')}"))
    assert cited, "the help names no section at all"
    for prog, rule in cited:
        assert resolve(rule) is not None, f"`{prog} --help` cites {rule!r}, which does not exist"


def test_a_section_holds_its_subsections_and_stops_at_the_next() -> None:
    found = resolve("province 3")
    assert found is not None and found[1] is not None
    text = found[1].text
    assert text.startswith("## 3 ") and "### 3.2 " in text and "### 3.4 " in text and "## 4 " not in text
    assert resolve("province 99") is None and resolve("nothing 1") is None
