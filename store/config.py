r"""Where the events live: a store URL mapped onto the eventsourcing library's environment.

`sqlite:///relative/file.db`, `sqlite:////absolute/file.db` or `postgresql://user:pw@host:port/db`
(`?schema=NAME` picks a PostgreSQL schema). `CHRONICLE_STORE` sets it for every command; the
default is an SQLite file in the user's data directory (platformdirs: `~/.local/share/chronicle`
on Linux, `~/Library/Application Support/chronicle` on macOS, `%LOCALAPPDATA%\chronicle` on
Windows), so every command finds the same games from any folder. A URL is printed or logged
only through `display_url`, which masks its password.

The administrator's token comes from `CHRONICLE_ADMIN_TOKEN`, or from the file named by
`CHRONICLE_ADMIN_TOKEN_FILE` (so it need not sit in the environment of every process).

On PostgreSQL each process opens at most `connections` sessions (`?connections=N` in the URL,
else `CHRONICLE_PG_CONNECTIONS`, else `CONNECTIONS`): one pool of N - 1 that everything in the
process shares (store/postgres_pool.py), and one for the projections runner's lease. A process
that opens the store waits up to `CHRONICLE_PG_WAIT` seconds for the database to answer
(store/postgres_ready.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, parse_qsl, unquote, urlencode, urlparse, urlsplit

STORE_FILE = "games.sqlite3"

# Twelve servers and a projections runner hold 78 sessions: within PostgreSQL's default of 100
# (three of them reserved for superusers), with room left for the CLI and an administrator.
CONNECTIONS = 6
# The runner holds one pooled session for its subscription (LISTEN) and a table being created
# holds two (one for the lock, one to create it): three in the pool still leave a request its
# turn, so no thread waits on a connection another thread of the process never gives back.
MIN_CONNECTIONS = 4
WAIT = 60.0  # seconds a process opening the store waits for PostgreSQL to answer
WAIT_KEY = "CHRONICLE_PG_WAIT"


# Seconds a PostgreSQL write waits for the events table's write lock in one attempt; the library
# tries an insert ten times, 0.2 s apart, so a write waits about 12 s in all, then answers 503.
POSTGRES_LOCK_TIMEOUT = "1"


class StoreConfigError(ValueError):
    pass


def default_store() -> str:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_path

    return f"sqlite:///{(user_data_path('chronicle', appauthor=False) / STORE_FILE).as_posix()}"


def store_url(explicit: str | None = None) -> str:
    return explicit or os.environ.get("CHRONICLE_STORE") or default_store()


def store_source(explicit: str | None = None) -> str:
    """Where `store_url(explicit)` came from, in words."""
    if explicit:
        return "--store"
    if os.environ.get("CHRONICLE_STORE"):
        return "CHRONICLE_STORE"
    return "the default, in your data directory"


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite store URL (None for another store)."""
    if urlparse(url).scheme != "sqlite":
        return None
    path = unquote(url[len("sqlite://") :]).removeprefix("/")
    return Path(path) if path else None


def store_env(url: str) -> dict[str, str]:
    """The library environment for the application named `Chronicle`."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        # sqlite:///games.db is relative, sqlite:////srv/games.db absolute: drop one slash.
        path = unquote(url[len("sqlite://") :]).removeprefix("/")
        if not path:
            raise StoreConfigError(f"no file in store URL {display_url(url)!r}: use sqlite:///games.db")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        return {
            # the library's, its writers waiting their turn for the lock (store/sqlite.py)
            "PERSISTENCE_MODULE": "store.sqlite:SQLiteFactory",
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "10",
            # a recorder that can subscribe (by polling), for the projections (store/polling.py),
            # and commits concurrent appends together (store/group_commit.py)
            "APPLICATION_RECORDER_TOPIC": "store.group_commit:GroupCommitSQLiteRecorder",
        }
    if parsed.scheme in ("postgresql", "postgres"):
        env = {
            # the library's, with table creation safe to race (store/postgres.py)
            "PERSISTENCE_MODULE": "store.postgres:PostgresFactory",
            "POSTGRES_DBNAME": parsed.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            # one session kept, up to N - 1 while busy: the lease's is the last (projections/lease.py)
            "POSTGRES_POOL_SIZE": "1",
            "POSTGRES_MAX_OVERFLOW": str(postgres_connections(url) - 2),
            # the library's: a write waits for the events table's write lock (held by another
            # process's commit, or a session that hangs) in its bound, then answers 503
            # `store_unavailable` rather than hang (0 would wait for ever)
            "POSTGRES_LOCK_TIMEOUT": POSTGRES_LOCK_TIMEOUT,
            WAIT_KEY: str(postgres_wait()),
        }
        schema = parse_qs(parsed.query).get("schema")
        if schema:
            env["POSTGRES_SCHEMA"] = schema[0]
        return env
    raise StoreConfigError(
        f"unknown store {display_url(url)!r}: use sqlite:///FILE or postgresql://USER@HOST/DB"
    )


def postgres_connections(url: str) -> int:
    """The most PostgreSQL sessions one process opens on the store at `url`."""
    given = parse_qs(urlparse(url).query).get("connections")
    text, source = (
        (given[0], "?connections=")
        if given
        else (os.environ.get("CHRONICLE_PG_CONNECTIONS"), "CHRONICLE_PG_CONNECTIONS")
    )
    if not text:
        return CONNECTIONS
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < MIN_CONNECTIONS:
        raise StoreConfigError(
            f"{source} takes a number of connections, at least {MIN_CONNECTIONS}, not {text!r}"
        )
    return count


def postgres_wait() -> float:
    """Seconds a process opening a PostgreSQL store waits for it to answer (`CHRONICLE_PG_WAIT`)."""
    text = os.environ.get(WAIT_KEY)
    if not text:
        return WAIT
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise StoreConfigError(f"{WAIT_KEY} takes a number of seconds, 0 or more, not {text!r}")
    return seconds


MASK = "***"


def display_url(url: str) -> str:
    """`url` as it may be printed or logged: a password (in the user part, or a `password`
    query parameter) replaced by `***`."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not even a URL: show only its scheme, if any
        return url.split(":", 1)[0] + ":" + MASK if ":" in url else MASK
    shown = url  # edited in place: rebuilding the URL would change `sqlite:////abs/path`
    if "@" in parts.netloc:
        user, host = parts.netloc.rsplit("@", 1)
        if ":" in user:
            shown = shown.replace(parts.netloc, f"{user.split(':', 1)[0]}:{MASK}@{host}", 1)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if any(name.lower() == "password" for name, _ in pairs):
        masked = [(n, MASK if n.lower() == "password" else v) for n, v in pairs]
        shown = shown.rsplit("?", 1)[0] + "?" + urlencode(masked, safe="*")
    return shown


def redact(text: str, url: str | None) -> str:
    """`text` with the password of `url` (as written, and decoded) masked wherever it occurs."""
    if not url:
        return text
    try:
        parts = urlsplit(url)
        password = parts.password
        query = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return text
    found = [v for n, v in query if n.lower() == "password"]
    for secret in (password, *found):
        if secret:
            for form in {secret, unquote(secret)}:
                text = text.replace(form, MASK)
    return text


def admin_token_from_env() -> str | None:
    """The administrator's token: `CHRONICLE_ADMIN_TOKEN`, else the first line of the file
    named by `CHRONICLE_ADMIN_TOKEN_FILE`, else None (no administrator)."""
    given = os.environ.get("CHRONICLE_ADMIN_TOKEN")
    path = os.environ.get("CHRONICLE_ADMIN_TOKEN_FILE")
    if given and path:
        raise StoreConfigError("set CHRONICLE_ADMIN_TOKEN or CHRONICLE_ADMIN_TOKEN_FILE, not both")
    if given or not path:
        return given or None
    return read_token_file(path, "CHRONICLE_ADMIN_TOKEN_FILE")


def read_token_file(path: str, option: str) -> str:
    """A token kept in a file (its first line, spaces trimmed); one clear error otherwise."""
    try:
        lines = Path(path).read_text().strip().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "not readable text"
        raise StoreConfigError(f"{option}: cannot read {path}: {reason}") from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise StoreConfigError(f"{option}: {path} holds no token")
    return token
