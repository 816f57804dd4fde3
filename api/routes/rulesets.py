"""`GET /rulesets` and `GET /rulesets/{id}`: what games the server knows, their variant
options and the JSON Schema of each action kind; `GET /rulesets/{id}/setup`: what a table may
pick besides the options when it creates a game (Dominion's presets and piles, the ruleset's
`setup_choices` hook); `GET /rulesets/{id}/rules[/{section}]` (and
`GET /rules/{reference}[/{section}]` for the project's own `records` and `corrections`): the
rules reference a rejection's `rule` names (store/references.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import msgspec
from litestar import Request
from litestar.params import FromPath

from api.concern import Concern
from api.schemas import RulesetDetail, RulesetList
from domain.ruleset import Rejection, Ruleset, all_rulesets, get_ruleset, resolve_options, setup_choices
from domain.ruleset_info import RulesetInfo
from store.errors import InvalidRequest, ServiceError
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


class SetupChoices(msgspec.Struct):
    """What a table picks from when it creates a game of `ruleset` with `options` (every
    option, defaults filled in): `choices` is the ruleset's own data (empty when it offers
    nothing beyond its options). Dominion's: `{"kingdom": {"size": 10, "presets": [{"name",
    "piles", "landscapes"}], "piles": [{"name", "cost", "debt", "types", "set", "random"}],
    "landscapes": [{"name", "kind", "cost", "debt"}]}}`."""

    ruleset: str
    options: dict[str, Any]
    choices: dict[str, Any]


_INT = re.compile(r"[+-]?[0-9]{1,18}")


def _typed_options(ruleset: Ruleset[Any, Any, Any], given: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """Query text typed as each option is declared: `true`/`false` for a flag, a whole number
    for a number, the text itself for a text option (so a choice spelled like a number stays
    text). What fits no declared option is left as text for `resolve_options` to refuse."""
    typed: dict[str, Any] = {}
    for name, text in given:
        declared = ruleset.meta.option(name)
        value: Any = text
        if declared is not None and isinstance(declared.default, bool):
            value = {"true": True, "false": False}.get(text.lower(), text)
        elif declared is not None and isinstance(declared.default, int) and _INT.fullmatch(text):
            value = int(text)
        typed[name] = value
    return typed


@route.get("/rulesets/{ruleset_id:str}/setup", 400, 404)
def ruleset_setup(ruleset_id: FromPath[str], request: Request[Any, Any, Any]) -> SetupChoices:
    """What a New game form offers besides the variant options, for the options given as query
    parameters (`?expansions=base,empires&base_edition=2`; any not given takes its default):
    Dominion's recommended kingdoms of those sets and that edition, and every pile a table may
    name, with its cost and types. An unknown or ill-typed option is a 400."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset is None:
        raise RulesetNotFound(f"There is no ruleset {ruleset_id!r}.")
    resolved = resolve_options(ruleset.meta, _typed_options(ruleset, request.query_params.items()))
    if isinstance(resolved, Rejection):
        raise InvalidRequest(resolved.message, code=resolved.stable_code)
    return SetupChoices(ruleset.meta.id, resolved, setup_choices(ruleset, resolved))


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


ROUTES = [
    list_rulesets,
    ruleset_detail,
    ruleset_setup,
    ruleset_rules,
    ruleset_rules_section,
    rules,
    rules_section,
]
