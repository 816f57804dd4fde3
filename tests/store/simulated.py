"""What the tests of simulated games share: a second store to play the same games into, and a
game's stored rows to compare."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from uuid import UUID

from store.app import Chronicle
from tests.api.support import ADMIN_TOKEN
from tests.conftest import postgres_schema


@contextmanager
def another_store(url: str, tmp_path: Path) -> Iterator[Chronicle]:
    """A second, empty store of the same kind as `url`: the same game ids may be played there."""
    if url.startswith("sqlite"):
        with closing(Chronicle(f"sqlite:///{tmp_path}/other.sqlite3", admin_token=ADMIN_TOKEN)) as app:
            yield app
    else:
        with postgres_schema() as other, closing(Chronicle(other, admin_token=ADMIN_TOKEN)) as app:
            yield app


def game_rows(app: Chronicle, game_id: UUID) -> list[tuple[int, str, bytes]]:
    """A game's stored rows: version, topic and stored bytes."""
    return [(r.originator_version, r.topic, r.state) for r in app.recorder.select_events(game_id)]
