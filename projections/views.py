"""The statistics view: one row per finished game (its statistics as a JSON document, plus the
columns the filters use), written in the same transaction as the view's tracking position,
so a game is counted exactly once however often the runner stops and starts again.

Two recorders share the interface: `SQLiteStatsView` (its own SQLite file per generation) and
`PostgresStatsView` (tables named after the generation in the store's database). Both are the
library's tracking recorders (`SQLiteTrackingRecorder`, `PostgresTrackingRecorder`) with one
table more; the SQL is plain enough for either.

Beside the games, a view keeps the players' ratings over all its games (projections/ratings.py),
each player within a ruleset (projections/players.py), updated as each game is recorded, in
the same transaction: a read of the unfiltered tables reads them instead of replaying every
game. A generation built before that ratings table existed fills it once, from its games, when
opened (and drops the table of ratings by name alone that came before it).

A view is derived data, so its commits do not wait for the disk (SQLite `synchronous=NORMAL`
in WAL mode, PostgreSQL `synchronous_commit = off`): a crash or power loss may lose the last
few commits, never half of one, and the runner then projects those games again from the
position that did reach the disk. A full sync per game would cost more than folding it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import msgspec
from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier

from projections.game_stats import GameStatistics, TurnSample
from projections.ratings import PlayerRating, rate, rated_players, replay

_DECODER = msgspec.json.Decoder(GameStatistics)
_ENCODER = msgspec.json.Encoder()


class Filters(msgspec.Struct, frozen=True):
    """What a reader asks for. `since`/`until` bound the finishing date (ISO 8601 prefixes,
    inclusive); `variant` maps option names to values, as text; `player` matches a name,
    case-insensitively. `across_rulesets` picks no games: it asks the player tables to count
    a name as one player in every ruleset (projections/players.py). projections/filters.py
    checks the values a reader gives."""

    ruleset: str | None = None
    mode: str | None = None
    player: str | None = None
    since: str | None = None
    until: str | None = None
    variant: dict[str, str] = {}
    across_rulesets: bool = False

    def sql(self) -> tuple[list[str], list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.ruleset:
            clauses.append("ruleset = {}")
            params.append(self.ruleset)
        if self.mode:
            clauses.append("mode = {}")
            params.append(self.mode)
        if self.since:
            clauses.append("finished_at >= {}")
            params.append(self.since)
        if self.until:
            clauses.append("finished_at < {}")
            params.append(_after(self.until))
        return clauses, params

    def keeps(self, game: GameStatistics) -> bool:
        if self.player:
            wanted = self.player.casefold()
            if not any(name.casefold() == wanted for name in game.seats.values()):
                return False
        for name, value in self.variant.items():
            if name not in game.options or _text(game.options[name]) != value.casefold():
                return False
        return True


NO_FILTERS = Filters()


def _after(until: str) -> str:
    """The smallest text after every timestamp that starts with `until` (a date or a time)."""
    return until + "\uffff"


def _text(value: Any) -> str:
    return str(value).casefold() if not isinstance(value, bool) else ("true" if value else "false")


class GameRow(NamedTuple):
    """A game's row as the view stores it (`columns`), with the statistics the ratings read
    (`stats`, without the progression): what a worker process folding games for a rebuild
    hands back (projections/fold_workers.py), encoded already."""

    stats: GameStatistics
    columns: dict[str, Any]


def game_row(stats: GameStatistics) -> GameRow:
    """The columns of a game's row. The progression (most of the bytes) has a column of its
    own: the tables over many games never read it."""
    bare = msgspec.structs.replace(stats, progression=[])
    columns = {
        "game_id": stats.game_id,
        "position": stats.position,
        "ruleset": stats.ruleset,
        "mode": stats.mode,
        "finished_at": stats.finished_at or "",
        "doc": _ENCODER.encode(bare).decode(),
        "progression": _ENCODER.encode(stats.progression).decode(),
    }
    return GameRow(bare, columns)


Recorded = GameStatistics | GameRow | None
"""A finished game to record: its statistics, its row, or None (left out)."""


class StatsView(TrackingRecorder, ABC):
    """The interface of the statistics view, whatever the database."""

    def record_game(self, stats: GameStatistics, tracking: Tracking) -> None:
        """Store one finished game's statistics and the position, atomically."""
        self.record_games([(stats, tracking)])

    @abstractmethod
    def record_games(self, games: Sequence[tuple[Recorded, Tracking]]) -> None:
        """Store finished games' statistics, each with its position, in one transaction (a
        rebuild's batch): all or none. A game with no statistics (left out: its ruleset could
        not fold it) records its position alone. Positions rise through the batch."""

    @abstractmethod
    def games(self, filters: Filters = NO_FILTERS) -> list[GameStatistics]:
        """The finished games matching `filters`, in the order they finished (without their
        progression, which `game` gives)."""

    @abstractmethod
    def games_and_ratings(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[list[GameStatistics], list[PlayerRating] | None]:
        """`games(filters)` and, without filters, the stored ratings after exactly those games
        (read together, so no game is recorded in between); None with filters."""

    @abstractmethod
    def ratings(self) -> list[PlayerRating]:
        """The stored ratings, each player in order of first rating."""

    @abstractmethod
    def game(self, game_id: str) -> GameStatistics | None: ...

    @abstractmethod
    def count(self) -> int: ...

    @abstractmethod
    def drop(self) -> None:
        """Remove the view's tables (a retired generation)."""

    def _decode(self, rows: Sequence[Any], filters: Filters) -> list[GameStatistics]:
        found = [_DECODER.decode(_as_bytes(row["doc"])) for row in rows]
        return [g for g in found if filters.keeps(g)]

    @staticmethod
    def _rated(stats: GameStatistics, read: Callable[[list[str]], Sequence[Any]]) -> list[PlayerRating]:
        """A recorded game's new ratings; `read(players)` gives the rows of their current
        ratings."""
        players = rated_players(stats)
        if not players:
            return []
        current = {row["player"]: _rating(row) for row in read(players)}
        return rate(current, stats)


def _rating(row: Any) -> PlayerRating:
    return PlayerRating(row["player"], int(row["games"]), float(row["mu"]), float(row["sigma"]))


def _as_bytes(doc: Any) -> bytes:
    return doc.encode() if isinstance(doc, str) else bytes(doc)


_PROGRESSION = msgspec.json.Decoder(list[TurnSample])


def _whole(row: Any) -> GameStatistics:
    stats = _DECODER.decode(_as_bytes(row["doc"]))
    stats.progression = _PROGRESSION.decode(_as_bytes(row["progression"]))
    return stats


class SQLiteStatsView(SQLiteTrackingRecorder, StatsView):
    TABLE = "game_stats"
    RATINGS = "ruleset_ratings"
    OLD_RATINGS = "player_ratings"  # by name alone, across rulesets

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {self.TABLE} (game_id TEXT PRIMARY KEY, position INTEGER NOT NULL, "
            "ruleset TEXT NOT NULL, mode TEXT NOT NULL, finished_at TEXT NOT NULL, doc TEXT NOT NULL, "
            "progression TEXT NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS {self.TABLE}_by_position ON {self.TABLE} (position)",
            f"CREATE TABLE IF NOT EXISTS {self.RATINGS} (player TEXT PRIMARY KEY, appeared INTEGER NOT NULL, "
            "games INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL)",
        ]

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as c:
            # A write first, so no game is recorded between the check and the filling.
            c.execute(f"DELETE FROM {self.RATINGS} WHERE 0")
            c.execute(f"DROP TABLE IF EXISTS {self.OLD_RATINGS}")
            c.execute(f"SELECT EXISTS (SELECT 1 FROM {self.RATINGS})")
            if c.fetchone()[0]:
                return
            c.execute(f"SELECT doc FROM {self.TABLE} ORDER BY position")
            for rating in replay(self._decode(c.fetchall(), NO_FILTERS)):
                self._store_rating(c, rating)

    def record_games(self, games: Sequence[tuple[Recorded, Tracking]]) -> None:
        with self.datastore.get_connection(commit=True) as connection:
            # Not synced to disk at each commit (see the module's docstring); the setting
            # cannot change inside a transaction, and costs nothing when it does not change.
            connection.cursor().execute("PRAGMA synchronous=NORMAL")
            with connection.transaction(commit=True) as c:
                for stats, tracking in games:
                    if stats is not None:
                        self._insert_game(c, stats)
                    self._insert_tracking(c, tracking)

    def _insert_game(self, c: Any, game: GameStatistics | GameRow) -> None:
        row = game if isinstance(game, GameRow) else game_row(game)
        c.execute(
            f"INSERT INTO {self.TABLE} VALUES (:game_id, :position, :ruleset, :mode, :finished_at, "
            ":doc, :progression) ON CONFLICT (game_id) DO NOTHING",
            row.columns,
        )
        if c.sqlite_cursor.rowcount == 1:  # a game already recorded is not rated again
            for rating in self._rated(row.stats, lambda players: self._read_ratings(c, players)):
                self._store_rating(c, rating)

    def _read_ratings(self, c: Any, players: list[str]) -> list[Any]:
        marks = ", ".join("?" * len(players))
        c.execute(f"SELECT player, games, mu, sigma FROM {self.RATINGS} WHERE player IN ({marks})", players)
        return list(c.fetchall())

    def _store_rating(self, c: Any, rating: PlayerRating) -> None:
        c.execute(
            f"INSERT INTO {self.RATINGS} VALUES "
            f"(?, (SELECT COALESCE(MAX(appeared), 0) + 1 FROM {self.RATINGS}), ?, ?, ?) "
            "ON CONFLICT (player) DO UPDATE SET games = excluded.games, mu = excluded.mu, "
            "sigma = excluded.sigma",
            (rating.player, rating.games, rating.mu, rating.sigma),
        )

    def ratings(self) -> list[PlayerRating]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT player, games, mu, sigma FROM {self.RATINGS} ORDER BY appeared")
            return [_rating(row) for row in c.fetchall()]

    def games_and_ratings(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[list[GameStatistics], list[PlayerRating] | None]:
        clauses, params = filters.sql()
        where = (" WHERE " + " AND ".join(c.format("?") for c in clauses)) if clauses else ""
        stored = None
        with self.datastore.transaction(commit=False) as c:  # one snapshot for both
            c.execute(f"SELECT doc FROM {self.TABLE}{where} ORDER BY position", params)
            rows = c.fetchall()
            if filters == NO_FILTERS:
                c.execute(f"SELECT player, games, mu, sigma FROM {self.RATINGS} ORDER BY appeared")
                stored = [_rating(row) for row in c.fetchall()]
        return self._decode(rows, filters), stored

    def games(self, filters: Filters = NO_FILTERS) -> list[GameStatistics]:
        clauses, params = filters.sql()
        where = (" WHERE " + " AND ".join(c.format("?") for c in clauses)) if clauses else ""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM {self.TABLE}{where} ORDER BY position", params)
            rows = c.fetchall()
        return self._decode(rows, filters)

    def game(self, game_id: str) -> GameStatistics | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc, progression FROM {self.TABLE} WHERE game_id = ?", (game_id,))
            row = c.fetchone()
        return None if row is None else _whole(row)

    def count(self) -> int:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT COUNT(*) FROM {self.TABLE}")
            return int(c.fetchone()[0])

    def drop(self) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"DROP TABLE IF EXISTS {self.TABLE}")
            c.execute(f"DROP TABLE IF EXISTS {self.RATINGS}")
            c.execute(f"DROP TABLE IF EXISTS {self.OLD_RATINGS}")
            c.execute("DELETE FROM tracking")


class PostgresStatsView(PostgresTrackingRecorder, StatsView):
    def __init__(self, datastore: PostgresDatastore, *, tracking_table_name: str, **kwargs: Any) -> None:
        super().__init__(datastore, tracking_table_name=tracking_table_name, **kwargs)
        self.table_name = tracking_table_name.removesuffix("_tracking") + "_games"
        self.check_identifier_length(self.table_name)
        self.table = SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier(self.table_name))
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (game_id text PRIMARY KEY, position bigint NOT NULL, "
                "ruleset text NOT NULL, mode text NOT NULL, finished_at text NOT NULL, doc text NOT NULL, "
                "progression text NOT NULL)"
            ).format(self.table)
        )
        self.ratings_table_name = tracking_table_name.removesuffix("_tracking") + "_ruleset_ratings"
        self.check_identifier_length(self.ratings_table_name)
        self.ratings_table = SQL("{0}.{1}").format(
            Identifier(datastore.schema), Identifier(self.ratings_table_name)
        )
        # The ratings by name alone, across rulesets, that came before.
        self.old_ratings_table = SQL("{0}.{1}").format(
            Identifier(datastore.schema),
            Identifier(tracking_table_name.removesuffix("_tracking") + "_ratings"),
        )
        self.all_ratings = SQL("SELECT player, games, mu, sigma FROM {0} ORDER BY appeared").format(
            self.ratings_table
        )
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (player text PRIMARY KEY, appeared bigint NOT NULL, "
                "games bigint NOT NULL, mu double precision NOT NULL, sigma double precision NOT NULL)"
            ).format(self.ratings_table)
        )

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as curs:
            # No game is recorded between the check and the filling.
            curs.execute(SQL("LOCK TABLE {0} IN SHARE ROW EXCLUSIVE MODE").format(self.table))
            curs.execute(SQL("DROP TABLE IF EXISTS {0}").format(self.old_ratings_table))
            curs.execute(SQL("SELECT EXISTS (SELECT 1 FROM {0}) AS rated").format(self.ratings_table))
            row = curs.fetchone()
            if row is not None and row["rated"]:
                return
            curs.execute(SQL("SELECT doc FROM {0} ORDER BY position").format(self.table))
            for rating in replay(self._decode(curs.fetchall(), NO_FILTERS)):
                self._store_rating(curs, rating)

    def record_games(self, games: Sequence[tuple[Recorded, Tracking]]) -> None:
        with self.datastore.transaction(commit=True) as curs:
            # Not waiting for the disk at each commit (see the module's docstring).
            curs.execute("SET LOCAL synchronous_commit TO OFF")
            for stats, tracking in games:
                if stats is not None:
                    self._insert_game(curs, stats)
                self._insert_tracking(curs, tracking)

    def _insert_game(self, curs: Any, game: GameStatistics | GameRow) -> None:
        row = game if isinstance(game, GameRow) else game_row(game)
        curs.execute(
            SQL(
                "INSERT INTO {0} VALUES (%(game_id)s, %(position)s, %(ruleset)s, %(mode)s, "
                "%(finished_at)s, %(doc)s, %(progression)s) ON CONFLICT (game_id) DO NOTHING"
            ).format(self.table),
            row.columns,
        )
        if curs.rowcount == 1:  # a game already recorded is not rated again
            for rating in self._rated(row.stats, lambda players: self._read_ratings(curs, players)):
                self._store_rating(curs, rating)

    def _read_ratings(self, curs: Any, players: list[str]) -> list[Any]:
        curs.execute(
            SQL("SELECT player, games, mu, sigma FROM {0} WHERE player = ANY(%s)").format(self.ratings_table),
            (players,),
        )
        return list(curs.fetchall())

    def _store_rating(self, curs: Any, rating: PlayerRating) -> None:
        curs.execute(
            SQL(
                "INSERT INTO {0} VALUES (%s, (SELECT COALESCE(MAX(appeared), 0) + 1 FROM {0}), %s, %s, %s) "
                "ON CONFLICT (player) DO UPDATE SET games = excluded.games, mu = excluded.mu, "
                "sigma = excluded.sigma"
            ).format(self.ratings_table),
            (rating.player, rating.games, rating.mu, rating.sigma),
        )

    def ratings(self) -> list[PlayerRating]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(self.all_ratings)
            return [_rating(row) for row in curs.fetchall()]

    def games_and_ratings(
        self, filters: Filters = NO_FILTERS
    ) -> tuple[list[GameStatistics], list[PlayerRating] | None]:
        clauses, params = filters.sql()
        where = SQL(" WHERE " + " AND ".join(c.format("%s") for c in clauses)) if clauses else SQL("")
        stored = None
        with self.datastore.transaction(commit=False) as curs:
            # One snapshot for both reads.
            curs.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            curs.execute(SQL("SELECT doc FROM {0}{1} ORDER BY position").format(self.table, where), params)
            rows = curs.fetchall()
            if filters == NO_FILTERS:
                curs.execute(self.all_ratings)
                stored = [_rating(row) for row in curs.fetchall()]
        return self._decode(rows, filters), stored

    def games(self, filters: Filters = NO_FILTERS) -> list[GameStatistics]:
        clauses, params = filters.sql()
        where = SQL(" WHERE " + " AND ".join(c.format("%s") for c in clauses)) if clauses else SQL("")
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT doc FROM {0}{1} ORDER BY position").format(self.table, where), params)
            rows = curs.fetchall()
        return self._decode(rows, filters)

    def game(self, game_id: str) -> GameStatistics | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT doc, progression FROM {0} WHERE game_id = %s").format(self.table), (game_id,)
            )
            row = curs.fetchone()
        return None if row is None else _whole(row)

    def count(self) -> int:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT COUNT(*) AS n FROM {0}").format(self.table))
            row = curs.fetchone()
        return int(row["n"]) if row is not None else 0

    def drop(self) -> None:
        tracking = SQL("{0}.{1}").format(
            Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
        )
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(SQL("DROP TABLE IF EXISTS {0}").format(self.table))
            curs.execute(SQL("DROP TABLE IF EXISTS {0}").format(self.ratings_table))
            curs.execute(SQL("DROP TABLE IF EXISTS {0}").format(self.old_ratings_table))
            curs.execute(SQL("DROP TABLE IF EXISTS {0}").format(tracking))
