"""The store's name: a random id the store draws the first time it needs one, kept in a stream
of its own, so that a ruling made here can be told, wherever it travels, from one made in
another store (store/disputes.py). Its stream id is derived (version 5), so no import can take
it (store/import_ids.py).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

_NAMESPACE = UUID("8e1f5c2a-3b7d-4f60-9a14-6d2c0b9e7f35")
IDENTITY_ID = uuid5(_NAMESPACE, "store")


class StoreIdentity(Aggregate):
    TOPIC = "chronicle:StoreIdentity"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:StoreIdentity.Created"
        name: str

    def __init__(self, name: str) -> None:
        self.name = name

    @classmethod
    def draw(cls) -> StoreIdentity:
        return cls._create(cls.Created, id=IDENTITY_ID, name=str(uuid4()))


def store_name(app: Any) -> str:
    """This store's name, drawn and stored on first use (another process drawing it at the same
    moment wins, and both answer its name)."""
    known = vars(app).get("_store_name")
    if isinstance(known, str):
        return known
    try:
        found: Any = app.repository.get(IDENTITY_ID)
    except AggregateNotFoundError:
        found = StoreIdentity.draw()
        try:
            app.save(found)
        except IntegrityError:
            found = app.repository.get(IDENTITY_ID)
    name = str(found.name)
    vars(app)["_store_name"] = name
    return name
