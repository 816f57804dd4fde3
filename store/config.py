"""Where the events live: a store URL mapped onto the eventsourcing library's environment.

`sqlite:///relative/file.db`, `sqlite:////absolute/file.db` or `postgresql://user:pw@host:port/db`
(`?schema=NAME` picks a PostgreSQL schema). `CHRONICLE_STORE` sets it for every command; the
default is an SQLite file under `.chronicle/` in the working directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

DEFAULT_STORE = "sqlite:///.chronicle/games.sqlite3"


class StoreConfigError(ValueError):
    pass


def store_url(explicit: str | None = None) -> str:
    return explicit or os.environ.get("CHRONICLE_STORE") or DEFAULT_STORE


def store_env(url: str) -> dict[str, str]:
    """The library environment for the application named `Chronicle`."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        # sqlite:///games.db is relative, sqlite:////srv/games.db absolute: drop one slash.
        path = unquote(url[len("sqlite://") :]).removeprefix("/")
        if not path:
            raise StoreConfigError(f"no file in store URL {url!r}: use sqlite:///games.db")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "10",
            # a recorder that can subscribe (by polling), for the projections (store/polling.py)
            "APPLICATION_RECORDER_TOPIC": "store.polling:PollingSQLiteApplicationRecorder",
        }
    if parsed.scheme in ("postgresql", "postgres"):
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parsed.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_POOL_SIZE": "5",
            "POSTGRES_MAX_OVERFLOW": "10",
        }
        schema = parse_qs(parsed.query).get("schema")
        if schema:
            env["POSTGRES_SCHEMA"] = schema[0]
        return env
    raise StoreConfigError(f"unknown store {url!r}: use sqlite:///FILE or postgresql://USER@HOST/DB")
