"""`GET /rulesets` and `GET /rulesets/{id}`: what games the server knows, their variant
options and the JSON Schema of each action kind; `GET /rulesets/{id}/rules[/{section}]` (and
`GET /rules/{reference}[/{section}]` for the project's own `records` and `corrections`): the
rules reference a rejection's `rule` names (store/references.py)."""

from __future__ import annotations

import msgspec
from litestar.params import FromPath

from api.concern import Concern
from api.schemas import RulesetDetail, RulesetList
from domain.ruleset import all_rulesets, get_ruleset
from domain.ruleset_info import RulesetInfo
from store.errors import ServiceError
from store.references import reference, reference_ids

route = Concern("rulesets", sync_to_thread=False)  # nothing here reads the store


class RulesetNotFound(ServiceError):
    status = 404
    code = "unknown_ruleset"
    title = "No such ruleset"


@route.get("/rulesets")
def list_rulesets() -> RulesetList:
    """Every installed ruleset, with its variant options."""
    return RulesetList([RulesetInfo.of(r) for r in all_rulesets()])


@route.get("/rulesets/{ruleset_id:str}", 404)
def ruleset_detail(ruleset_id: FromPath[str]) -> RulesetDetail:
    """One ruleset: its metadata, variant options and action schemas."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset is None:
        raise RulesetNotFound(f"There is no ruleset {ruleset_id!r}.")
    return RulesetDetail.of(ruleset)


class RulesNotFound(ServiceError):
    status = 404
    code = "unknown_rules"
    title = "No such rules reference or section"


class RulesSection(msgspec.Struct):
    id: str
    title: str


class RulesText(msgspec.Struct):
    """A rules reference, or one section of it (`section` set), as markdown text."""

    reference: str
    title: str
    section: str | None
    text: str
    sections: list[RulesSection]


def _rules(reference_id: str, section_id: str | None) -> RulesText:
    found = reference(reference_id)
    if found is None:
        raise RulesNotFound(
            f"There is no rules reference {reference_id!r} (references: {', '.join(reference_ids())})."
        )
    listing = [RulesSection(s.id, s.title) for s in found.sections.values()]
    if section_id is None:
        return RulesText(found.id, found.title, None, found.text, listing)
    section = found.sections.get(section_id)
    if section is None:
        raise RulesNotFound(f"{reference_id} has no section {section_id!r}.")
    return RulesText(found.id, section.title, section.id, section.text, [])


@route.get("/rulesets/{ruleset_id:str}/rules", 404)
def ruleset_rules(ruleset_id: FromPath[str]) -> RulesText:
    """The ruleset's rules reference, in the project's words, with its list of sections."""
    return _rules(ruleset_id, None)


@route.get("/rulesets/{ruleset_id:str}/rules/{section:str}", 404)
def ruleset_rules_section(ruleset_id: FromPath[str], section: FromPath[str]) -> RulesText:
    """One section of the ruleset's rules reference (with its subsections), as a rejection's
    `rule` cites it: `province 3.2` is `/rulesets/province/rules/3.2`."""
    return _rules(ruleset_id, section)


@route.get("/rules/{reference_id:str}", 404)
def rules(reference_id: FromPath[str]) -> RulesText:
    """Any rules reference: a ruleset's, `records` or `corrections`."""
    return _rules(reference_id, None)


@route.get("/rules/{reference_id:str}/{section:str}", 404)
def rules_section(reference_id: FromPath[str], section: FromPath[str]) -> RulesText:
    """One section of any rules reference: `corrections 2b` is `/rules/corrections/2b`."""
    return _rules(reference_id, section)


ROUTES = [list_rulesets, ruleset_detail, ruleset_rules, ruleset_rules_section, rules, rules_section]
