"""Variations: a line of play branching from a position of a game, in a stream of its own.

A variation points at (base, version): the base is a game or another variation, and the
version a position of it where no action is half recorded. Its own stream holds only what was
played after that point (actions and their facts, decided by the same rules, and its end), so
the base game's stream stays exactly what happened at the table (design.md 3). Read, it is the
base's events up to that version followed by its own, numbered on from there: the same log,
replay and redaction as any game.

Two purposes share the stream:

- `study`: a what-if line of a finished game. Its randomness comes from a seed derived for it,
  `HMAC-SHA256(key=base seed, msg="chronicle-variation|" + variation id)`, stated in its first
  event: the base's seed was revealed at its end, so anyone can recompute the derivation and
  every outcome the variation drew.
- `game`: "play on from here", a new game starting from the position, with players, tokens and
  a fresh seed sealed behind its commitment until it ends, as any game's.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from typing import Any, Literal
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

Purpose = Literal["study", "game"]
DERIVATION = "HMAC-SHA256(key=base seed, msg='chronicle-variation|' + variation id)"
_NAMESPACE = UUID("5b0e2f4a-8d3c-4a6f-b1e2-7c9d0a4f3e21")


def derive_seed(base_seed: bytes, variation_id: UUID) -> bytes:
    """The seed of a study variation, from its base's (see the module docstring)."""
    return hmac.new(base_seed, f"chronicle-variation|{variation_id}".encode(), hashlib.sha256).digest()


def list_id(game_id: UUID) -> UUID:
    """The id of the stream listing the variations that branch from `game_id`'s lines."""
    return uuid5(_NAMESPACE, f"variations:{game_id}")


class Variation(Aggregate):
    TOPIC = "chronicle:Variation"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:VariationCreated"
        game_id: str  # the game every line of this family starts from
        base_id: str  # that game, or the variation this one branches from
        at: int  # the base's version it branches at
        purpose: str
        ruleset: str
        mode: str
        seed: str  # a study's seed, stated; empty for a game (sealed until its end)
        derivation: str
        commitment: str
        by: str
        players: list[str]  # a played-on game's player names, seat by seat (a study's: its base's)

    class ActionRecorded(Aggregate.Event):
        TOPIC = "chronicle:VariationActionRecorded"
        seq: int
        action: dict[str, Any]
        seat: str | None
        by: str

        def apply(self, aggregate: Variation) -> None:
            aggregate.actions += 1

    class FactRecorded(Aggregate.Event):
        TOPIC = "chronicle:VariationFactRecorded"
        fact: dict[str, Any]

    class Finished(Aggregate.Event):
        TOPIC = "chronicle:VariationFinished"
        outcome: dict[str, Any]
        server_seed: str

        def apply(self, aggregate: Variation) -> None:
            aggregate.finished = True

    def __init__(
        self,
        game_id: str,
        base_id: str,
        at: int,
        purpose: str,
        ruleset: str,
        mode: str,
        seed: str,
        derivation: str,
        commitment: str,
        by: str,
        players: list[str],
    ) -> None:
        self.game_id = game_id
        self.base_id = base_id
        self.at = at
        self.purpose = purpose
        self.ruleset = ruleset
        self.mode = mode
        self.seed = seed
        self.derivation = derivation
        self.commitment = commitment
        self.by = by
        self.players = players
        self.actions = 0
        self.finished = False

    @classmethod
    def branch(
        cls,
        variation_id: UUID,
        *,
        game_id: UUID,
        base_id: UUID,
        at: int,
        purpose: Purpose,
        ruleset: str,
        mode: str,
        seed: str,
        commitment: str,
        by: str,
        players: list[str],
        when: datetime,
    ) -> Variation:
        return cls._create(
            cls.Created,
            id=variation_id,
            timestamp=when,
            game_id=str(game_id),
            base_id=str(base_id),
            at=at,
            purpose=purpose,
            ruleset=ruleset,
            mode=mode,
            seed=seed,
            derivation=DERIVATION if seed else "",
            commitment=commitment,
            by=by,
            players=players,
        )

    def record(
        self,
        seq: int,
        action: dict[str, Any],
        seat: str | None,
        by: str,
        facts: list[dict[str, Any]],
        at: datetime,
    ) -> None:
        self.trigger_event(self.ActionRecorded, timestamp=at, seq=seq, action=action, seat=seat, by=by)
        for fact in facts:
            self.trigger_event(self.FactRecorded, timestamp=at, fact=fact)

    def finish(self, outcome: dict[str, Any], server_seed: str, at: datetime) -> None:
        self.trigger_event(self.Finished, timestamp=at, outcome=outcome, server_seed=server_seed)


class VariationList(Aggregate):
    """Every variation branching from one game's lines (its own and its variations')."""

    TOPIC = "chronicle:VariationList"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:VariationListCreated"
        game_id: str

    class Listed(Aggregate.Event):
        TOPIC = "chronicle:VariationListed"
        variation_id: str

        def apply(self, aggregate: VariationList) -> None:
            aggregate.variations.append(self.variation_id)

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.variations: list[str] = []

    @classmethod
    def open(cls, game_id: UUID, when: datetime) -> VariationList:
        return cls._create(cls.Created, id=list_id(game_id), timestamp=when, game_id=str(game_id))

    def add(self, variation_id: UUID, when: datetime) -> None:
        self.trigger_event(self.Listed, timestamp=when, variation_id=str(variation_id))
