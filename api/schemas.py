"""The wire shapes of the HTTP API (msgspec Structs; they are the OpenAPI schemas too).

The service's own Structs are reused where they already are the wire shape: `NewGame`,
`CreatedGame`, `Recorded`, `Retraction` (store.app), `StoredEvent` (domain.reading), `RulesetInfo`
(domain.ruleset_info), `GameSummary` (projections.games_index) and `AuditReport` (store.audit).
`StoredEvent` is encoded with its defaults, so every event carries `retracted` (false unless a
later retraction undid it).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.reading import StoredEvent
from domain.ruleset import Ruleset
from domain.ruleset_info import RulesetInfo
from projections.games_index import GameSummary
from store.limits import ActionId, ActionObject, Count, Notation, Reason, SeatId, Version, payload_problem


class Health(msgspec.Struct, omit_defaults=True):
    """`redis` (only with `CHRONICLE_REDIS`): whether this process's live streams hear the
    others through Redis (`up`), or read the store meanwhile (`down`). `projections`: this
    process runs the statistics view (`running`: it holds the runner), waits to take over
    (`standby`: another process runs it), or leaves it to others (`external`). `process`: the
    answering server process's id (several answer on one port with `serve --workers`)."""

    status: Literal["ok"]
    store: Literal["sqlite", "postgresql"]
    projections: Literal["running", "standby", "external"]
    process: int
    redis: Literal["up", "down"] | None = None


class RulesetDetail(RulesetInfo):
    """`GET /rulesets/{id}`: the metadata plus each action kind's JSON Schema."""

    actions: dict[str, Any]

    @classmethod
    def of(cls, ruleset: Ruleset[Any, Any, Any]) -> RulesetDetail:
        return cls(**cls.fields_of(ruleset), actions=ruleset.codec.action_schemas())


class RulesetList(msgspec.Struct):
    rulesets: list[RulesetInfo]


class GameList(msgspec.Struct):
    games: list[GameSummary]
    total: int
    offset: int
    limit: int


class GameDetail(msgspec.Struct):
    game_id: str
    ruleset: str
    mode: str
    seats: dict[str, str]
    options: dict[str, Any]
    tags: list[str]
    commitment: str
    version: int
    status: Literal["running", "finished", "abandoned"]
    prompts: list[dict[str, Any]]
    outcome: dict[str, Any] | None


class ActionRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/actions`: an action as a tagged object (`{"kind": ...}`) or as the
    ruleset's notation text; `seat` is required only where the token and the prompts leave it
    open; `action_id` makes a retry safe (it names one action for one seat: sent again with
    another, a 409 `action_id_reused`); `expected_version` (or `If-Match`) refuses a stale
    write."""

    action: ActionObject | Notation
    seat: SeatId | None = None
    action_id: ActionId | None = None
    expected_version: Version | None = None

    def __post_init__(self) -> None:
        problem = payload_problem(self.action) if isinstance(self.action, dict) else None
        if problem is not None:
            raise ValueError(problem)


class EventList(msgspec.Struct):
    events: list[StoredEvent]


class StateView(msgspec.Struct):
    game_id: str
    version: int
    status: Literal["running", "finished", "abandoned"]
    view: str
    state: dict[str, Any]
    outcome: dict[str, Any] | None


class PromptList(msgspec.Struct):
    prompts: list[dict[str, Any]]


class LegalActions(msgspec.Struct):
    """The legal answers; where listing each would be too long, `templates` in notation with
    ranges `LOW..HIGH` (`move xiangzhou chengdu:1..5`) cover the rest and `complete` is false."""

    version: int
    seat: str | None
    actions: list[dict[str, Any]]
    notation: list[str]
    templates: list[str] = []
    complete: bool = True
    explanations: list[str] = []  # what each listed action means, in a sentence


class RetractionRequest(msgspec.Struct, forbid_unknown_fields=True):
    """`POST /games/{id}/retractions`: retract the last `count` live actions (the most recent
    first). `reason` says why, for the log. A seat token retracts for its own seat; the recorder
    may name the seat that asked (`seat`). A seat's retraction that crosses another seat's
    action, a random outcome or a revealed secret is refused with the rule, unless
    `ask_approval` leaves it pending until every other seat approves."""

    count: Count = 1
    reason: Reason = ""
    ask_approval: bool = False
    seat: SeatId | None = None
    expected_version: Version | None = None  # or If-Match: undo only what the asker saw


class PendingRetraction(msgspec.Struct):
    """A retraction waiting for approval: the actions it would undo (`seqs`), the seat that
    asked, the seats whose approval it needs and those that gave it, and who is still to answer."""

    request_id: str
    seqs: list[int]
    seat: str | None
    reason: str
    needs: list[str]
    approvals: list[str]
    waiting_for: list[str]


class PendingRetractions(msgspec.Struct):
    pending: list[PendingRetraction]
