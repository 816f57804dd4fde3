"""`GET /rulesets` and `GET /rulesets/{id}`: what games the server knows, their variant
options and the JSON Schema of each action kind."""

from __future__ import annotations

from litestar import get
from litestar.params import FromPath

from api.problems import problem_responses
from api.schemas import RulesetDetail, RulesetInfo, RulesetList
from domain.ruleset import all_rulesets, get_ruleset
from store.errors import ServiceError


class RulesetNotFound(ServiceError):
    status = 404
    code = "unknown_ruleset"
    title = "No such ruleset"


@get("/rulesets", sync_to_thread=False, tags=["rulesets"])
def list_rulesets() -> RulesetList:
    """Every installed ruleset, with its variant options."""
    return RulesetList([RulesetInfo.of(r) for r in all_rulesets()])


@get("/rulesets/{ruleset_id:str}", sync_to_thread=False, tags=["rulesets"], responses=problem_responses(404))
def ruleset_detail(ruleset_id: FromPath[str]) -> RulesetDetail:
    """One ruleset: its metadata, variant options and action schemas."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset is None:
        raise RulesetNotFound(f"There is no ruleset {ruleset_id!r}.")
    return RulesetDetail.of(ruleset)


ROUTES = [list_rulesets, ruleset_detail]
