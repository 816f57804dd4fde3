"""Running the statistics view on the library's projection machinery.

A view has generations. Each generation is a `StatsView` (its own SQLite file beside the
store, or its own PostgreSQL tables `stats_g<N>_games` / `stats_g<N>_tracking`) filled by a
`ProjectionRunner` from position 0 (catch-up) and then live. A small catalog (`catalog.sqlite3`
beside the view files, or the `chronicle_views` table) says which generation readers use:

- `run` keeps the active generation live (the first one is built, then activated);
- `rebuild` builds a fresh generation while the old one keeps serving, and activates it once
  it has caught up with the store; readers never see a half-built view. Every running host
  follows the catalog to the new generation; the generation before the previous one is dropped.

Each game is counted, and its players' ratings updated, in the same transaction as the view's
position, so stopping a runner at any moment and starting it again counts nothing twice. The
projection follows finishing events only (`GameFinished`): a position P is covered once the
view holds every game that finished at or before P, which is what `covers` and `wait` check
(read-your-writes).

A rebuild (and `catch_up`) fills its generation in the foreground, without the runner's
threads: it pages through the finishing events, folds each game from one query of its rows,
and records up to `BATCH` games, each with its position, per transaction (all of a batch or
none: a rebuild stopped anywhere still counts nothing twice). With many games to count in an
SQLite store file, worker processes fold them, one per core, and the rebuild records them in
the order they finished, as one process would (projections/fold_workers.py). Should another
runner fill the same generation meanwhile (a host finishing a rebuild it thinks abandoned), a
batch that meets a game it counted first is recorded again game by game, each game once.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path
from typing import Any
from urllib.parse import urlparse
from uuid import UUID

from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    Notification,
    ProgrammingError,
    Tracking,
)
from eventsourcing.projection import Projection, ProjectionRunner
from eventsourcing.utils import Environment, EnvType
from psycopg import sql
from psycopg.rows import tuple_row

from domain.events import GameFinished
from projections.fold_workers import FROM_GAMES, folders
from projections.game_stats import GameStatistics, fold_rows, game_statistics, stored_rows
from projections.lease import lease_for
from projections.views import PostgresStatsView, Recorded, SQLiteStatsView, StatsView
from store.app import Chronicle
from store.config import store_env, store_url
from store.postgres import shared_datastore, table_creation_lock

log = logging.getLogger("chronicle.projections")

APP_NAME = Chronicle.name
FINISHED = (GameFinished.TOPIC,)
BATCH = 8  # finished games per transaction of a rebuild
PAGE = 500  # finishing events read at a time by a rebuild
VIEWS = ("stats",)  # the views a host runs; `chronicle projections` names them


class ChronicleFeed(Chronicle):
    """The application a runner subscribes to: the store named by `CHRONICLE_STORE` in the
    runner's environment (a runner constructs its application from an environment)."""

    name = "Chronicle"

    def __init__(self, env: EnvType | None = None) -> None:
        super().__init__((env or {}).get("CHRONICLE_STORE"))


class StatsProjection(Projection[StatsView]):
    """Folds each finished game's stream into its statistics (projections/game_stats.py)."""

    name = "stats"
    topics = FINISHED

    def __init__(self, view: StatsView) -> None:
        super().__init__(view)
        self._app: Chronicle | None = None
        self._attached = threading.Event()

    def attach(self, app: Chronicle) -> None:
        """The application to read game streams from (the runner's own)."""
        self._app = app
        self._attached.set()

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        pass  # only finishing events are subscribed to

    @process_event.register
    def _(self, domain_event: GameFinished, tracking: Tracking) -> None:
        self._attached.wait()
        assert self._app is not None
        stats = count_game(self._app, domain_event.originator_id, tracking.notification_id)
        with suppress(IntegrityError):  # another runner of this generation counted it first
            self.view.record_games([(stats, tracking)])


def count_game(app: Chronicle, game_id: UUID, position: int) -> GameStatistics | None:
    """A finished game's statistics, folded from its stored rows; None when it is left out."""
    try:
        rows = stored_rows(app, game_id)
        if rows is None:
            return game_statistics(app.events.get(game_id), position=position)
        return fold_rows(rows, game_id, position=position)
    except Exception:
        # A ruleset this process lacks, or a stream its ruleset cannot fold: skip the game
        # (logged) rather than stop the view on it forever; a rebuild retries it.
        log.exception("game %s left out of the statistics", game_id)
        return None


# -- where generations live -----------------------------------------------------------


def _is_sqlite(url: str) -> bool:
    return urlparse(url).scheme == "sqlite"


def views_dir(url: str) -> Path:
    """SQLite: the directory beside the store file that holds the view files and catalog."""
    path = Path(store_env(url)["SQLITE_DBNAME"])
    directory = path.with_name(path.name + ".views")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def generation_name(view: str, generation: int) -> str:
    return f"{view}_g{generation}"


def view_env(url: str, view: str, generation: int) -> dict[str, str]:
    """The environment of one generation's runner: the store's, plus the view's own file."""
    env = {**store_env(url), "CHRONICLE_STORE": url}
    name = generation_name(view, generation)
    if _is_sqlite(url):
        env[f"{name.upper()}_SQLITE_DBNAME"] = str(views_dir(url) / f"{name}.sqlite3")
    return env


def view_class(url: str) -> type[StatsView]:
    return SQLiteStatsView if _is_sqlite(url) else PostgresStatsView


def open_view(url: str, view: str, generation: int) -> StatsView:
    """A generation's view, for reading (its tables are created if missing)."""
    name = generation_name(view, generation)
    env = Environment(name, view_env(url, view, generation))
    for attempt in range(5):
        factory: InfrastructureFactory[StatsView] = InfrastructureFactory.construct(env)
        try:
            return factory.tracking_recorder(view_class(url))
        except IntegrityError:  # another process created the tables at the same moment
            factory.close()
            if attempt == 4:
                raise
            time.sleep(0.05)
    raise AssertionError("unreachable")


def close_view(view: StatsView) -> None:
    datastore = getattr(view, "datastore", None)
    if datastore is not None:
        with suppress(Exception):
            datastore.close()


class Catalog:
    """Which generations of each view exist and which one readers use (state `active`)."""

    TABLE = "chronicle_views"

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = _is_sqlite(url)
        if self.sqlite:
            self.path = views_dir(url) / "catalog.sqlite3"
            self.table = self.TABLE
        else:  # on the process's shared sessions (store/postgres_pool.py)
            self.datastore = shared_datastore(url)
            schema = self.datastore.schema
            self.table = (
                sql.SQL("{0}.{1}").format(sql.Identifier(schema), sql.Identifier(self.TABLE)).as_string(None)
            )
        create = (
            f"CREATE TABLE IF NOT EXISTS {self.table} (view_name TEXT NOT NULL, "
            "generation INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (view_name, generation))"
        )
        if self.sqlite:
            self._execute(create)
        else:  # under the lock every process creates its tables with (store/postgres.py)
            with table_creation_lock(self.datastore) as pg:
                pg.execute(create)

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        if self.sqlite:
            with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as connection:
                connection.execute("BEGIN IMMEDIATE")
                try:
                    yield connection.cursor()
                    connection.execute("COMMIT")
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
        else:
            with (
                self.datastore.get_connection() as pg,
                pg.transaction(),
                pg.cursor(row_factory=tuple_row) as pg_cursor,
            ):
                yield pg_cursor

    def close(self) -> None:
        """Give back the catalog's share of the process's sessions (PostgreSQL)."""
        if not self.sqlite:
            self.datastore.close()

    def _execute(self, statement: str, *params: Any) -> list[tuple[Any, ...]]:
        text = statement if self.sqlite else statement.replace("?", "%s")
        with self._cursor() as cursor:
            cursor.execute(text, params)
            return list(cursor.fetchall()) if cursor.description else []

    def generations(self, view: str) -> list[tuple[int, str]]:
        rows = self._execute(
            f"SELECT generation, state FROM {self.table} WHERE view_name = ? ORDER BY generation", view
        )
        return [(int(g), str(s)) for g, s in rows]

    def active(self, view: str) -> int | None:
        rows = self._execute(
            f"SELECT MAX(generation) FROM {self.table} WHERE view_name = ? AND state = 'active'", view
        )
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    def allocate(self, view: str) -> int:
        for _attempt in range(10):
            rows = self._execute(f"SELECT MAX(generation) FROM {self.table} WHERE view_name = ?", view)
            generation = int(rows[0][0] or 0) + 1
            try:
                self._execute(f"INSERT INTO {self.table} VALUES (?, ?, 'building')", view, generation)
            except (sqlite3.IntegrityError, IntegrityError):
                continue
            return generation
        raise RuntimeError(f"cannot allocate a generation of view {view}")

    def activate(self, view: str, generation: int) -> None:
        """Make `generation` the one readers use, unless it is gone from the catalog or a newer
        one is active already (a later rebuild finished first: readers never go back)."""
        with self._cursor() as cursor:
            mark = "?" if self.sqlite else "%s"
            cursor.execute(
                f"SELECT generation, state FROM {self.table} "
                f"WHERE view_name = {mark} AND generation >= {mark}",
                (view, generation),
            )
            found = {int(g): str(s) for g, s in cursor.fetchall()}
            if found.get(generation) not in ("building", "active") or "active" in (
                s for g, s in found.items() if g > generation
            ):
                return
            cursor.execute(
                f"UPDATE {self.table} SET state = 'retired' WHERE view_name = {mark} AND state = 'active' "
                f"AND generation <> {mark}",
                (view, generation),
            )
            cursor.execute(
                f"UPDATE {self.table} SET state = 'active' WHERE view_name = {mark} AND generation = {mark}",
                (view, generation),
            )

    def forget(self, view: str, generation: int) -> None:
        self._execute(f"DELETE FROM {self.table} WHERE view_name = ? AND generation = ?", view, generation)


def drop_stale(url: str, view: str, catalog: Catalog) -> list[int]:
    """Drop the generations older than the previous active one (readers of the previous one
    may still be finishing a request), and every generation left building below the active
    one: a rebuild stopped before it finished, overtaken by a later one (it can never be
    activated without taking readers back in time)."""
    generations = catalog.generations(view)
    active = catalog.active(view)
    if active is None:
        return []
    retired = [g for g, state in generations if state == "retired"]
    keep = max(retired) if retired else None
    dropped = []
    for generation, _state in generations:
        if generation in (active, keep) or generation > active:
            continue
        if _is_sqlite(url):
            # Its own files go, tables and all: dropping the tables first wrote a file about to
            # be deleted, page by page (0.04 s of a 1.8 s rebuild at 200 games, 0.1 s at 600).
            for suffix in ("", "-wal", "-shm"):
                with suppress(FileNotFoundError):
                    (views_dir(url) / f"{generation_name(view, generation)}.sqlite3{suffix}").unlink()
        else:
            _drop_tables(url, view, generation)
        catalog.forget(view, generation)
        dropped.append(generation)
    return dropped


def _drop_tables(url: str, view: str, generation: int) -> None:
    try:
        stale = open_view(url, view, generation)
    except ProgrammingError:
        # another process (a host that switched, a rebuild) dropped it between the opening's
        # creating its tables and locking them: nothing of it is left to drop
        return
    try:
        stale.drop()
    finally:
        close_view(stale)


def covers(view: StatsView, app: Chronicle, position: int) -> bool:
    """Whether `view` holds every game that finished at or before `position`."""
    tracked = view.max_tracking_id(APP_NAME) or 0
    if tracked >= position:
        return True
    later = app.recorder.select_notifications(
        start=tracked, limit=1, stop=position, topics=FINISHED, inclusive_of_start=False
    )
    return not later


# -- running one generation -----------------------------------------------------------


class GenerationRunner:
    """A `ProjectionRunner` filling one generation of a view, catching up then following."""

    def __init__(self, url: str, view: str, generation: int) -> None:
        self.url = url
        self.view_name = view
        self.generation = generation
        projection_class = type(
            f"StatsProjection_{generation_name(view, generation)}",
            (StatsProjection,),
            {"name": generation_name(view, generation)},
        )
        for attempt in range(5):
            try:
                self.runner: ProjectionRunner[ChronicleFeed, StatsView] = ProjectionRunner(
                    application_class=ChronicleFeed,
                    projection_class=projection_class,
                    view_class=view_class(url),
                    env=view_env(url, view, generation),
                )
                break
            except IntegrityError:  # another process created the view's tables at the same moment
                if attempt == 4:
                    raise
                time.sleep(0.05)
        self.runner.__enter__()
        projection = self.runner.projection
        assert isinstance(projection, StatsProjection)
        projection.attach(self.runner.app)

    @property
    def view(self) -> StatsView:
        return self.runner.view

    @property
    def app(self) -> Chronicle:
        app: Chronicle = self.runner.app
        return app

    def failed(self) -> bool:
        return self.runner.is_interrupted.is_set()

    def check(self) -> None:
        """Raise the processing thread's error, if it stopped on one."""
        if self.failed():
            self.runner.run_forever(timeout=0.001)

    def caught_up(self) -> bool:
        return covers(self.view, self.app, self.app.recorder.max_notification_id() or 0)

    def position(self) -> int:
        return self.view.max_tracking_id(APP_NAME) or 0

    def close(self) -> None:
        try:
            self.runner.__exit__(None, None, None)
        finally:
            close_view(self.view)


def rebuild(
    url: str | None = None,
    view: str = "stats",
    *,
    poll: float = 0.05,
    on_progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> int:
    """Build a fresh generation from position 0, activate it once it has caught up with the
    store, and drop stale generations. Returns the new generation. `workers` is the number
    of processes folding games (1: this one alone; None: as many as pay, `fill`)."""
    url = store_url(url)
    catalog = Catalog(url)
    generation = catalog.allocate(view)
    # switched to while its runner still holds the generation's tables
    _catch_up(url, view, generation, poll, on_progress, switch=catalog, workers=workers)
    drop_stale(url, view, catalog)
    return generation


def _catch_up(
    url: str,
    view: str,
    generation: int,
    poll: float,
    on_progress: Callable[[int, int], None] | None,
    switch: Catalog | None = None,
    workers: int | None = None,
) -> None:
    """Project the store into `generation` until it has caught up with the store's present;
    with `switch`, make it the view's active generation then. `poll` is kept for callers: a
    foreground fill never waits."""
    del poll
    opened = open_view(url, view, generation)
    app = Chronicle(url)
    try:
        fill(app, opened, on_progress, workers)
        if switch is not None:
            switch.activate(view, generation)
    finally:
        app.close()
        close_view(opened)


def fill(
    app: Chronicle,
    view: StatsView,
    on_progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> None:
    """Count into `view` every game that finished up to the store's present, `BATCH` games
    per transaction, until a look at the head finds none left. Where enough games wait, worker
    processes fold them first (`_fill_in_workers`; `workers` asks for that many, 1 for none)."""
    _fill_in_workers(app, view, on_progress, workers)
    while True:
        head = app.recorder.max_notification_id() or 0
        position = view.max_tracking_id(APP_NAME) or 0
        if on_progress is not None:
            on_progress(position, head)
        finished = app.recorder.select_notifications(
            start=position, limit=PAGE, stop=head, topics=FINISHED, inclusive_of_start=False
        )
        if not finished:
            return
        for start in range(0, len(finished), BATCH):
            _record(
                view,
                [
                    (count_game(app, UUID(str(n.originator_id)), n.id), Tracking(APP_NAME, n.id))
                    for n in finished[start : start + BATCH]
                ],
            )


def _record(view: StatsView, batch: list[tuple[Recorded, Tracking]]) -> None:
    try:
        view.record_games(batch)
    except IntegrityError:  # another runner of this generation counted some first
        for game in batch:
            with suppress(IntegrityError):
                view.record_games([game])


def _fill_in_workers(
    app: Chronicle, view: StatsView, on_progress: Callable[[int, int], None] | None, workers: int | None
) -> None:
    """Count the games that finished up to the present head, folded by worker processes
    (projections/fold_workers.py), when enough of them wait to pay for starting the workers.
    The workers start once the first `FROM_GAMES` games are found, and the rest are searched
    for `FROM_GAMES` at a time (a scan of the store: SQLite has no index of topics) while the
    workers fold the games handed out already."""
    head = app.recorder.max_notification_id() or 0
    position = view.max_tracking_id(APP_NAME) or 0
    first = app.recorder.select_notifications(
        start=position, limit=FROM_GAMES, stop=head, topics=FINISHED, inclusive_of_start=False
    )
    pool = folders(app, len(first), workers) if first else None
    if pool is None:
        return
    try:
        if on_progress is not None:
            on_progress(position, head)
        games = chain(_games(first), _finished_after(app, first[-1].id, head, FROM_GAMES))
        batch: list[tuple[Recorded, Tracking]] = []
        for counted, (game_position, row) in enumerate(pool.fold(games), 1):
            batch.append((row, Tracking(APP_NAME, game_position)))
            if len(batch) == BATCH:
                _record(view, batch)
                batch = []
                if on_progress is not None and counted % PAGE == 0:
                    on_progress(game_position, head)
        if batch:
            _record(view, batch)
    finally:
        pool.close()


def _games(finished: Sequence[Notification]) -> Iterator[tuple[UUID, int]]:
    """The (game, position) of each finishing event."""
    return ((UUID(str(n.originator_id)), n.id) for n in finished)


def _finished_after(app: Chronicle, start: int, head: int, page: int) -> Iterator[tuple[UUID, int]]:
    """Each game that finished after `start` up to `head`, found `page` at a time."""
    while True:
        found = app.recorder.select_notifications(
            start=start, limit=page, stop=head, topics=FINISHED, inclusive_of_start=False
        )
        yield from _games(found)
        if len(found) < page:
            return
        start = found[-1].id


def catch_up(
    url: str | None = None,
    view: str = "stats",
    *,
    poll: float = 0.05,
    on_progress: Callable[[int, int], None] | None = None,
) -> int:
    """Bring the view up to the store's present once, in the foreground (the active
    generation, else the first one, which is then activated). Returns the generation."""
    url = store_url(url)
    catalog = Catalog(url)
    active = catalog.active(view)
    building = [g for g, state in catalog.generations(view) if state == "building"]
    generation = active if active is not None else (max(building) if building else catalog.allocate(view))
    _catch_up(url, view, generation, poll, on_progress)
    if active is None:
        catalog.activate(view, generation)
        drop_stale(url, view, catalog)
    return generation


class ProjectionHost:
    """Keeps the active generation of each view live, in a thread: the server runs one in
    process (unless told the views run elsewhere), `chronicle projections run` in the
    foreground. With no generation yet it builds the first and activates it once caught
    up; when a rebuild activates another generation it follows.

    Of all the hosts on one store, only the one holding the runner's lease runs the views
    (projections/lease.py); the others stand by, asking for it every `poll` seconds, and one
    of them takes over when the holder stops or dies. `role` says in the lease who this is.
    """

    def __init__(
        self,
        url: str | None = None,
        views: tuple[str, ...] = VIEWS,
        poll: float = 0.5,
        role: str = "chronicle projections run",
    ) -> None:
        self.url = store_url(url)
        self.views = views
        self.poll = poll
        self.runners: dict[str, GenerationRunner] = {}
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.catalog = Catalog(self.url)
        self.lease = lease_for(self.url, role)
        self.leading: bool | None = None  # whether this host held the lease at its last poll
        self.error: BaseException | None = None

    def start(self) -> ProjectionHost:
        self._thread = threading.Thread(target=self._loop, name="projections", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join()
        self._close_runners()
        self._release()
        self.catalog.close()

    def run_forever(self) -> None:
        try:
            self._loop()
        finally:
            self._close_runners()
            self._release()
            self.catalog.close()

    def step(self) -> None:
        """One poll: run the views if this host holds (or now takes) the lease."""
        self.leading = self.lease.hold()
        if not self.leading:
            if self.runners:
                log.warning("the projections runner's lease was lost; standing by")
            self._close_runners()
            return
        for view in self.views:
            self._tend(view)

    def _close_runners(self) -> None:
        for runner in self.runners.values():
            with suppress(Exception):
                runner.close()
        self.runners.clear()

    def _release(self) -> None:
        self.leading = False
        with suppress(Exception):
            self.lease.release()

    def _loop(self) -> None:
        while not self._stopping.is_set():
            try:
                self.step()
            except Exception as error:
                self.error = error
                log.exception("projection runner failed; restarting it")
                self._close_runners()
                # Let another host take over while this one recovers (its store may be gone).
                self._release()
            self._stopping.wait(self.poll)

    def _tend(self, view: str) -> None:
        generations = self.catalog.generations(view)
        active = self.catalog.active(view)
        building = [g for g, state in generations if state == "building"]
        target = (
            active if active is not None else (max(building) if building else self.catalog.allocate(view))
        )
        runner = self.runners.get(view)
        if runner is not None and runner.generation != target:
            runner.close()
            runner = None
        if runner is None:
            runner = self.runners[view] = GenerationRunner(self.url, view, target)
        runner.check()
        if active is None and runner.caught_up():
            self.catalog.activate(view, target)
            drop_stale(self.url, view, self.catalog)
        newer = [g for g in building if active is not None and g > active]
        self._resume(view, max(newer) if newer else None)

    def _resume(self, view: str, generation: int | None) -> None:
        """Finish the rebuild of `generation` (a generation newer than the active one, still
        building): its rebuild may have been stopped part-way, and nothing else would ever
        finish it. It is activated once caught up, as the rebuild would have. Should the
        rebuild still be running, both fill the same generation, each game once."""
        key = f"{view} rebuild"
        runner = self.runners.get(key)
        if runner is not None and runner.generation != generation:
            runner.close()
            del self.runners[key]
            runner = None
        if generation is None:
            return
        if runner is None:
            log.warning("resuming the rebuild of %s generation %s", view, generation)
            runner = self.runners[key] = GenerationRunner(self.url, view, generation)
        runner.check()
        if runner.caught_up():
            self.catalog.activate(view, generation)
            runner.close()
            del self.runners[key]
            drop_stale(self.url, view, self.catalog)


# -- reading --------------------------------------------------------------------------


class StatsReader:
    """Reads the active generation of the statistics view; waits for a position on demand."""

    def __init__(self, app: Chronicle, view: str = "stats") -> None:
        self.app = app
        self.url = app.url
        self.view_name = view
        self.catalog = Catalog(self.url)
        self._views: dict[int, StatsView] = {}
        self._lock = threading.Lock()
        self._active: tuple[float, int | None] = (0.0, None)

    def generation(self) -> int | None:
        checked, active = self._active
        if time.monotonic() - checked > 0.25:
            active = self.catalog.active(self.view_name)
            self._active = (time.monotonic(), active)
        return active

    def view(self) -> StatsView | None:
        generation = self.generation()
        if generation is None:
            return None
        with self._lock:
            found = self._views.get(generation)
            if found is None:
                found = self._views[generation] = open_view(self.url, self.view_name, generation)
            return found

    def position(self) -> int:
        view = self.view()
        return 0 if view is None else (view.max_tracking_id(APP_NAME) or 0)

    def covers(self, position: int) -> bool:
        view = self.view()
        return view is not None and covers(view, self.app, position)

    def wait(self, position: int, timeout: float = 5.0) -> bool:
        """Block until the view covers `position` (True) or `timeout` seconds pass (False)."""
        deadline = time.monotonic() + timeout
        delay = 0.01
        while True:
            if self.covers(position):
                return True
            if time.monotonic() >= deadline:
                return False
            self._active = (0.0, None)  # a rebuild may have switched generations meanwhile
            time.sleep(delay)
            delay = min(delay * 2, 0.2)

    def close(self) -> None:
        with self._lock:
            for view in self._views.values():
                close_view(view)
            self._views.clear()
        self.catalog.close()


def finished_games(app: Chronicle, head: int) -> int:
    """The finishing events at or before `head` (each game finishes once), counted up to
    `LAG_COUNT_LIMIT` at a time."""
    total, start = 0, 0
    while True:
        found = app.recorder.select_notifications(
            start=start, limit=LAG_COUNT_LIMIT, stop=head, topics=FINISHED, inclusive_of_start=False
        )
        total += len(found)
        if len(found) < LAG_COUNT_LIMIT:
            return total
        start = found[-1].id


def lag(view: StatsView, app: Chronicle, head: int) -> tuple[int, int, float]:
    """How far `view` is behind the store's `head`: the events after its position, the
    finished games among them it has yet to count, and the seconds the oldest of those has
    waited (0 when none waits). A view advances only on finished games, so events after its
    position that finish no game leave it caught up."""
    tracked = view.max_tracking_id(APP_NAME) or 0
    waiting = app.recorder.select_notifications(
        start=tracked, limit=LAG_COUNT_LIMIT, stop=head, topics=FINISHED, inclusive_of_start=False
    )
    seconds = 0.0
    if waiting:
        oldest: datetime = getattr(app.mapper.to_domain_event(waiting[0]), "timestamp")  # noqa: B009
        if oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=UTC)
        seconds = max(0.0, (datetime.now(UTC) - oldest).total_seconds())
    return max(0, head - tracked), len(waiting), seconds


LAG_COUNT_LIMIT = 10_000  # finished games counted one by one; more reads as "10000"


def status(url: str | None = None, app: Chronicle | None = None) -> list[dict[str, Any]]:
    """Each generation of each view: its state, position and games, whether it is current
    and how far behind (`lag`) (`app`, if given, is an open application on the same store).
    The counts add up: of the `finished` games up to the store's head, `games` are counted,
    `games_behind` come after the view's position, and `left_out` are at or before it but not
    counted (a game its ruleset could not fold, logged when the view reached it)."""
    url = store_url(url if app is None else app.url)
    catalog = Catalog(url)
    reader = app if app is not None else Chronicle(url)
    try:
        head = reader.recorder.max_notification_id() or 0
        finished = finished_games(reader, head)
        found = []
        for view in VIEWS:
            for generation, state in catalog.generations(view):
                opened = open_view(url, view, generation)
                try:
                    events_behind, games_behind, seconds = lag(opened, reader, head)
                    games = opened.count()
                    found.append(
                        {
                            "view": view,
                            "generation": generation,
                            "state": state,
                            "position": opened.max_tracking_id(APP_NAME) or 0,
                            "games": games,
                            "head": head,
                            "finished": finished,
                            "left_out": max(0, finished - games_behind - games),
                            "caught_up": games_behind == 0,
                            "events_behind": events_behind,
                            "games_behind": games_behind,
                            "lag_seconds": seconds,
                        }
                    )
                finally:
                    close_view(opened)
        return found
    finally:
        catalog.close()
        if app is None:
            reader.close()
