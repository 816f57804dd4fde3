"""The ids an import claims: none that a stream of the store has or would derive.

A game, a variation and a dispute have random ids (version 4 UUIDs, drawn by the store that
made them). Every stream the store keeps beside them has an id derived from its owner's
(`uuid5`, version 5): a game's or a variation's secrets, annotations, reviewers and variation
list, and a same-deal game's deal. Anyone can compute a derived id from a public game id, so an
import that could take one would squat the owner's stream: its annotations, variations,
review tokens or deal would then meet a stream of another kind, for good.

Ruling: an import brings only ids of the random kind, and each of them, with every id the
store derives from it, must be free. A derived id is version 5 and an imported one version 4,
so no import can ever take another stream's derived id, whichever stream and whenever it came;
a few indexed reads per import decide it, however large the store (checking an imported id
against the derived ids of every stream the store holds would read the whole store). The ids
stay as exported rather than being renamed on import: the hash chain and every random outcome
of a game are keyed by its id. A secret key for derived ids would move every derived stream of
every store that exists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any
from uuid import UUID

from domain.notes import annotations_id
from domain.variations import list_id
from store.deals import Deal, deal_id
from store.errors import ServiceError
from store.secrets import secrets_id

RANDOM = 4  # the UUID version of every stream id a store draws


class IdTaken(ServiceError):
    status = 409
    code = "id_taken"
    title = "The store holds or derives one of this import's ids"


def _reviewers_id(owner: UUID) -> UUID:
    from store.notes import reviewers_id  # store.notes reads games through store.variations

    return reviewers_id(owner)


# Every stream the store derives from a game's, a variation's or a dispute's id; a stream kind
# added with a derived id belongs here too.
DERIVATIONS: tuple[tuple[str, Callable[[UUID], UUID]], ...] = (
    ("secrets", secrets_id),
    ("annotations", annotations_id),
    ("variation list", list_id),
    ("reviewers", _reviewers_id),
    ("deal", deal_id),
)


def claimed(owners: Iterable[tuple[UUID, str]]) -> dict[UUID, str]:
    """Every id the import's streams (`owners`: id and what it names) take or derive, each with
    what it is; refused (`id_taken`) when an owner's id is not a random one or two coincide."""
    found: dict[UUID, str] = {}
    for owner, what in owners:
        if owner.version != RANDOM:
            raise IdTaken(
                f"The {what} id {owner} is not a random (version 4) id: ids of other kinds are "
                "reserved for the streams a store derives from its games."
            )
        ids = [(owner, f"the {what}")] + [
            (derive(owner), f"the {name} of {what} {owner}") for name, derive in DERIVATIONS
        ]
        for stream_id, named in ids:
            if stream_id in found:
                raise IdTaken(f"The export names {stream_id} twice ({found[stream_id]}, and {named}).")
            found[stream_id] = named
    return found


def check_free(app: Any, ids: dict[UUID, str]) -> None:
    """Refuse (`id_taken`) when a stream of the store holds one of `ids` already. One stream may
    come before its owner: a game's deal, which a same-deal game imported before the game it
    replays has started (its first event names that game)."""
    for stream_id, named in ids.items():
        held = app.recorder.select_events(stream_id, limit=1)
        if held and not _own_deal(held[0], stream_id):
            raise IdTaken(f"This store already holds a stream with the id of {named} ({stream_id}).")


def _own_deal(first: Any, stream_id: UUID) -> bool:
    if first.topic != Deal.Created.TOPIC:
        return False
    game = json.loads(first.state).get("first_game")
    return isinstance(game, str) and _is_uuid(game) and deal_id(UUID(game)) == stream_id


def _is_uuid(text: str) -> bool:
    try:
        UUID(text)
    except ValueError:
        return False
    return True
