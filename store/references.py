"""The rules references a user can read: every rejection and audit finding names a section of
one of them (`rule`: "province 3.2", "corrections 2b", "records 3"), and `chronicle rules`
and `GET /rulesets/{id}/rules` print that section.

Each game package ships its reference as `rules.md` beside its code, so a game installed from
another package brings its own; the project's own rules live in `domain/records.md` (the
record every game obeys) and `domain/corrections.md` (taking actions back). A reference is
markdown: its `#` line is the title, every `##`, `###` or `####` heading starts a section whose
first word is the section's id as rejections cite it (`### 3.2 Labour phase`, `### D24 ...`). A
section's text runs to the next heading of its level or above, so a section holds its
subsections. A rule that names a reference alone ("province") cites the whole of it.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from domain.ruleset import all_rulesets, get_ruleset

RULES_FILE = "rules.md"
# The project's own references: id -> (package, file).
CORE = {"records": ("domain", "records.md"), "corrections": ("domain", "corrections.md")}
_HEADING = re.compile(r"^(#{2,4}) (\S+) (.+)$")


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    text: str  # the heading line, its body and its subsections


@dataclass(frozen=True)
class Reference:
    id: str
    title: str
    text: str
    sections: dict[str, Section]


def parse(reference_id: str, text: str) -> Reference:
    lines = text.splitlines()
    title = next((line[2:].strip() for line in lines if line.startswith("# ")), reference_id)
    heads = [(i, m) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    sections: dict[str, Section] = {}
    for n, (start, match) in enumerate(heads):
        level = len(match.group(1))
        end = next((i for i, m in heads[n + 1 :] if len(m.group(1)) <= level), len(lines))
        body = "\n".join(lines[start:end]).strip()
        sections[match.group(2)] = Section(match.group(2), match.group(3).strip(), body)
    return Reference(reference_id, title, text.strip(), sections)


def _source(reference_id: str) -> str | None:
    if reference_id in CORE:
        package, name = CORE[reference_id]
    else:
        ruleset = get_ruleset(reference_id)
        if ruleset is None:
            return None
        package = importlib.import_module(type(ruleset).__module__).__package__ or ""
        name = RULES_FILE
    try:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return None


@cache
def reference(reference_id: str) -> Reference | None:
    """The reference `reference_id` (a ruleset id, `records` or `corrections`), if it exists."""
    text = _source(reference_id)
    return None if text is None else parse(reference_id, text)


def reference_ids() -> list[str]:
    """Every reference there is: each installed ruleset's, then the project's own."""
    return [r.meta.id for r in all_rulesets()] + list(CORE)


def resolve(rule: str) -> tuple[Reference, Section | None] | None:
    """The reference and section a rule names ("province 3.2"; "province" for all of it),
    or None when either does not exist."""
    reference_id, _, section_id = rule.strip().partition(" ")
    found = reference(reference_id)
    if found is None:
        return None
    if not section_id:
        return found, None
    section = found.sections.get(section_id.strip())
    return None if section is None else (found, section)
