"""Correcting and ending a game: retracting its last actions (at once, or once the other
seats approve: domain/corrections.py), answering a retraction request, resigning and
abandoning.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import msgspec
from eventsourcing.persistence import IntegrityError

from domain import reading
from domain.game import Game
from domain.ruleset import RejectedError, Rejection
from store import clock
from store.errors import Forbidden, InvalidRequest, RetractionPending, Unauthorized, VersionConflict
from store.reads import Reads
from store.requests import Access, Ended, Retraction


class Corrections(Reads):
    """The application's corrections and endings."""

    def retract(
        self,
        game_id: UUID,
        access: Access,
        *,
        count: int = 1,
        reason: str = "",
        ask_approval: bool = False,
        seat: str | None = None,
        expected_version: int | None = None,
    ) -> Retraction:
        """Retract the last `count` live actions (domain/corrections.py). The recorder's token
        retracts at once; a seat's retraction that crosses another seat's action, a random
        outcome or a reveal is refused with the rule, or with `ask_approval` left pending
        until every other seat approves."""
        if access.role == "public":
            raise Unauthorized("A retraction needs a seat or recorder token.")
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token acts for seat {access.seat}, not {seat}.", code="wrong_seat")
            seat, by = access.seat, "seat"
        else:
            by = "recorder"
        game = self.game(game_id)
        if seat is not None and seat not in game.config.seat_ids():
            raise InvalidRequest(f"There is no seat {seat!r} in this game.", code="unknown_seat")
        if expected_version is not None and expected_version != game.version:
            # "undo the last K" must undo what the asker saw, not an action recorded since
            raise VersionConflict(
                f"Expected version {expected_version}, but the game is at version {game.version}."
            )
        plan = game.plan_retraction(count, by, seat)
        if isinstance(plan, Rejection):
            raise RejectedError(plan)
        if plan.crossings and not ask_approval:
            raise RejectedError(plan.refusal())
        if plan.crossings:
            # One open request per seat: each is an event, and the other seats must answer it.
            waiting = next((r for r in game.requests.values() if r.seat == seat), None)
            if waiting is not None:
                raise RetractionPending(
                    f"Seat {seat} already waits for an answer to request {waiting.request_id}; "
                    "it lapses when an action is recorded or a seat declines it."
                )
            request_id = uuid4().hex[:12]
            game.request_retraction(plan, seat, reason, request_id, clock.now())
            self._save_correction(game)
            return Retraction(str(game_id), game.version, [], request_id, list(plan.needs))
        game.retract(plan, by, seat, reason, clock.now())
        self._save_correction(game)
        return Retraction(str(game_id), game.version, list(plan.seqs))

    def answer_retraction(self, game_id: UUID, request_id: str, access: Access, approved: bool) -> Retraction:
        """A seat's token approves or declines a pending retraction; the last approval
        carries it out."""
        if access.role != "seat" or access.seat is None:
            raise Forbidden("Only a seat's token answers a retraction request.", code="seat_token_required")
        game = self.game(game_id)
        refused = game.answer_retraction(request_id, access.seat, approved, clock.now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_correction(game)
        still = game.requests.get(request_id)
        if still is not None:
            waiting = [s for s in still.needs if s not in still.approvals]
            return Retraction(str(game_id), game.version, [], request_id, waiting)
        undone = [a.seq for a in game.actions if a.retracted_at == game.version]
        return Retraction(str(game_id), game.version, undone)

    def resign(self, game_id: UUID, access: Access, *, seat: str | None = None, reason: str = "") -> Ended:
        """`seat` resigns: its own token, or the recorder (or an administrator) naming it. The
        game ends at once, ranked as the ruleset ranks a resignation (domain/endings.py)."""
        if access.role == "public":
            raise Unauthorized("Resigning needs the seat's token or the recorder's.")
        if access.role == "seat":
            if seat is not None and seat != access.seat:
                raise Forbidden(f"This token acts for seat {access.seat}, not {seat}.", code="wrong_seat")
            seat = access.seat
        game = self.game(game_id)
        if seat is None:
            raise InvalidRequest("Name the seat that resigns.", code="seat_required")
        if seat not in game.config.seat_ids():
            raise InvalidRequest(f"There is no seat {seat!r} in this game.", code="unknown_seat")
        refused = game.resign(seat, access.role, reason, self.secrets(game_id).server_seed, clock.now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_ending(game)
        return Ended(str(game_id), game.version, game.status, reading.outcome(game))

    def abandon(self, game_id: UUID, access: Access, *, reason: str = "") -> Ended:
        """The recorder or an administrator abandons the game: it ends with no outcome (the
        statistics leave it out), its seed is revealed and the audit still runs."""
        if access.role not in ("recorder", "admin"):
            raise Forbidden(
                "Only the recorder or an administrator abandons a game.", code="recorder_required"
            )
        game = self.game(game_id)
        refused = game.abandon(access.role, reason, self.secrets(game_id).server_seed, clock.now())
        if refused is not None:
            raise RejectedError(refused)
        self._save_ending(game)
        return Ended(str(game_id), game.version, game.status, None)

    def _save_ending(self, game: Game) -> None:
        self._save_or_conflict(game, "The game moved on meanwhile; look again and retry.")

    def pending_retractions(self, game_id: UUID) -> list[dict[str, Any]]:
        return [msgspec.to_builtins(r) for r in self.game(game_id).requests.values()]

    def _save_correction(self, game: Game) -> None:
        self._save_or_conflict(game, "The game moved on while the correction was entered; try again.")

    def _save_or_conflict(self, game: Game, moved_on: str) -> None:
        try:
            self.save(game)
        except IntegrityError:
            raise VersionConflict(moved_on) from None
        self._cache(game)
