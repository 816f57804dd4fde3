"""Errors the service raises for the edges (HTTP, CLI) to turn into answers.

Each carries a stable `code`, an HTTP status and a sentence; `RejectedError` (in
`domain.ruleset`) carries a ruleset's rejection with the rule it rests on.
"""

from __future__ import annotations

from eventsourcing.persistence import OperationalError


class ServiceError(Exception):
    status = 400
    code = "bad_request"
    title = "Bad request"

    def __init__(self, detail: str, code: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code


class GameNotFound(ServiceError):
    status = 404
    code = "game_not_found"
    title = "No such game"


class VersionConflict(ServiceError):
    status = 409
    code = "version_conflict"
    title = "The game has moved on"


class ActionIdReused(ServiceError):
    """An `action_id` already names another action of the game (another seat or another
    action): answering it with that action's result would hand one client another's answer."""

    status = 409
    code = "action_id_reused"
    title = "This action id names another action"


class Unauthorized(ServiceError):
    status = 401
    code = "token_required"
    title = "A token is required"


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"
    title = "Not allowed with this token"


class InvalidRequest(ServiceError):
    status = 400
    code = "invalid_request"
    title = "The request is not valid"


class SecretsLocked(ServiceError):
    """A game's sealed secrets cannot be decrypted: no key, or another key than they were
    sealed with. A fault of the server's configuration, not of the request."""

    status = 503
    code = "secrets_locked"
    title = "The game's secrets cannot be unsealed"


class SeedSealed(ServiceError):
    status = 403
    code = "seed_sealed"
    title = "The seed is still sealed"


class RetractionPending(ServiceError):
    status = 409
    code = "retraction_already_pending"
    title = "A retraction request is already pending"


class StoreNotAnswering(OperationalError):
    """A part of the store (its database, or the SQLite writer process) did not answer within
    its bound: a 503 `store_unavailable` whose message, written for the caller, says which."""


class StoreUnavailable(ServiceError):
    """The store cannot be opened: its database did not answer in time, or lacks the schema
    and may not create it."""

    status = 503
    code = "store_unavailable"
    title = "The event store is unavailable"
