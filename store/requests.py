"""What the store's operations are asked and what they answer: a new game and its creation,
the access a token grants, a recorded action, a retraction, an ending, and the news of a save
(`Appended`) the listeners hear. Plain values, shared by the core (store/core.py), its
capabilities and the HTTP and command-line layers."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple
from uuid import UUID

import msgspec

from domain.ruleset import OMNISCIENT, PUBLIC, Mode, Viewer
from store.errors import InvalidRequest
from store.limits import ClientSeed, Options, Players, RulesetId, Tags, explain, options_problem

# what `Core._server_seed` and the deal's lookup read (`invalid_seed`, `invalid_game_id`), for the document
HEX_SEED = "^[0-9a-fA-F]{64}$"
GAME_ID = {"format": "uuid"}


class NewGame(msgspec.Struct, forbid_unknown_fields=True):
    """A request to create a game. Names and tags are 1 to 64 characters, the client seed at
    most 256, none with control characters; at most 16 tags and 64 options (store/limits.py)."""

    ruleset: RulesetId
    players: Players
    mode: Mode = "digital"
    options: Options = {}
    client_seed: ClientSeed = ""
    tags: Tags = []
    # administrators only: fixes the deal for a reproduction (64 hex digits)
    server_seed: (
        Annotated[str, msgspec.Meta(max_length=64, extra_json_schema={"pattern": HEX_SEED})] | None
    ) = None
    # a finished digital game whose deal this game replays (store/deals.py)
    same_deal_as: Annotated[str, msgspec.Meta(max_length=64, extra_json_schema=GAME_ID)] | None = None


class CreatedGame(msgspec.Struct):
    game_id: str
    commitment: str
    version: int
    seat_tokens: dict[str, str]
    recorder_token: str
    seats: dict[str, str]


class Access(msgspec.Struct, frozen=True):
    """What a token grants on one game."""

    role: Literal["admin", "recorder", "seat", "public"]
    seat: str | None = None

    def viewer(self, finished: bool) -> Viewer:
        if finished or self.role in ("admin", "recorder"):
            return OMNISCIENT
        if self.role == "seat":
            return Viewer("seat", self.seat)
        return PUBLIC


RECORDER = Access("recorder")
ADMIN = Access("admin")
ANONYMOUS = Access("public")


class Recorded(msgspec.Struct):
    """The answer to a recorded action (the same answer for a retried `action_id`)."""

    game_id: str
    seq: int
    version: int
    facts: list[dict[str, Any]]
    finished: bool
    replayed: bool = False


class Retraction(msgspec.Struct):
    """The answer to a retraction: the actions it undid, or the request still waiting for
    the seats in `waiting_for`."""

    game_id: str
    version: int
    retracted: list[int]
    request_id: str | None = None
    waiting_for: list[str] = []


class Ended(msgspec.Struct):
    """The answer to a resignation or an abandonment: the closed game's last version, its
    status (`finished` or `abandoned`) and its outcome (none when abandoned)."""

    game_id: str
    version: int
    status: str
    outcome: dict[str, Any] | None


class Appended(NamedTuple):
    """One event a save stored, as the listeners hear of it: its stream, version, topic and
    position in the store's sequence."""

    originator_id: UUID
    originator_version: int
    topic: str
    position: int


def check_limits(new: NewGame) -> None:
    """The limits of a new game hold whoever built it: HTTP decodes the request against them,
    and a `NewGame` built in process (the command line) is checked the same way here."""
    try:
        msgspec.convert(msgspec.to_builtins(new), NewGame)
    except msgspec.ValidationError as error:
        raise InvalidRequest(f"The game cannot be created: {explain(str(error))}.") from None
    problem = options_problem(new.options)
    if problem is not None:
        raise InvalidRequest(f"The game cannot be created: {problem}.")


def access_of(role: str) -> Access:
    """The access of a token the game's secrets know: `recorder` or `seat:<id>`."""
    return RECORDER if role == "recorder" else Access("seat", role.removeprefix("seat:"))
