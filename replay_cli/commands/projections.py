"""`chronicle projections`: the views folded from the store (today: `stats`).

- `status`: who runs the views now (one process at a time holds the runner, the others stand
  by), then each generation of each view, its position and games, and how far behind the
  store it is, in events and in seconds (the age of the oldest finished game it has yet to
  count);
- `run`: keep the views live in the foreground (catch up, then follow) until interrupted;
  use it with `chronicle serve --projections external`. Start several for a standby: one runs
  the views, and another takes over when it stops or dies;
- `rebuild NAME`: build a fresh generation of a view from the first event, and switch readers
  to it once it has caught up; the old generation serves until then.

Each game is counted in the same transaction as the view's position: stopping a runner at any
moment and starting it again changes no figure.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import UsageError
from replay_cli.sources import add_store_option
from store.config import display_url, store_url


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(
        subparsers, "projections", "status, run or rebuild the statistics views", __doc__
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    status = actions.add_parser("status", help="each view's generations and positions")
    add_store_option(status)
    status.set_defaults(run=run_status)
    run = actions.add_parser("run", help="keep the views live until interrupted")
    run.add_argument("--poll", type=float, default=0.5, metavar="S", help="seconds between checks (0.5)")
    run.add_argument("--once", action="store_true", help="catch up once and exit")
    add_store_option(run)
    run.set_defaults(run=run_views)
    rebuild = actions.add_parser("rebuild", help="build a view afresh and switch to it when caught up")
    rebuild.add_argument("name", metavar="NAME", help="the view (stats)")
    add_store_option(rebuild)
    rebuild.set_defaults(run=run_rebuild)


def _views() -> tuple[str, ...]:
    from projections.runner import VIEWS

    return VIEWS


def run_status(args: argparse.Namespace) -> int:
    from projections.lease import holder
    from projections.runner import status
    from replay_cli.local import require_store

    require_store(args.store)
    url = store_url(args.store)
    rows = status(url)
    print(runner_line(holder(url)))
    if not rows:
        print("no view has been built yet (chronicle projections run, or chronicle stats)")
        return 0
    for row in rows:
        print(status_line(row))
    return 0


def runner_line(who: str | None) -> str:
    """Who runs the views now, in words."""
    if who is None:
        return "runner: nobody runs the views now (chronicle serve, or chronicle projections run)"
    return f"runner: {who}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def duration(seconds: float) -> str:
    if seconds < 1:
        return "less than a second"
    if seconds < 120:
        return _plural(round(seconds), "second")
    if seconds < 7200:
        return _plural(round(seconds / 60), "minute")
    return _plural(round(seconds / 3600), "hour")


def status_line(row: dict[str, Any]) -> str:
    """One generation's state and lag, in words."""
    # Of the games finished up to the store's head, each is counted, left out (its ruleset could
    # not fold it) or behind the view's position: the three add up to the finished games.
    finished, left_out = row.get("finished"), row.get("left_out") or 0
    counted = (
        f"{_plural(row['games'], 'game')} counted"
        if finished is None
        else f"{row['games']} of {_plural(finished, 'finished game')} counted"
        + (f" ({left_out} left out)" if left_out else "")
    )
    head = (
        f"{row['view']} generation {row['generation']} ({row['state']}): "
        f"{counted}, at position {row['position']} of {row['head']}"
    )
    events, games = row["events_behind"], row["games_behind"]
    if games == 0:
        since = f"; the {_plural(events, 'later event')} finish no game" if events else "; nothing after it"
        return f"{head}: caught up{since}"
    return (
        f"{head}: behind by {_plural(games, 'finished game')} ({_plural(events, 'event')}), "
        f"the oldest waiting {duration(row['lag_seconds'])}"
    )


LEADING = "this process runs the views now"
STANDING_BY = "standing by: another process runs the views (chronicle projections status names it)"


def run_views(args: argparse.Namespace) -> int:
    from projections.runner import ProjectionHost, catch_up

    url = store_url(args.store)
    if args.once:
        for view in _views():
            generation = catch_up(url, view)
            print(f"{view}: generation {generation} is up to date")
        return 0
    host = ProjectionHost(url, poll=args.poll)
    print(f"keeping the views {', '.join(_views())} on {display_url(url)} live (Ctrl-C stops)", flush=True)
    try:
        host.start()
        leading: bool | None = None
        while True:
            if host.leading is not None and host.leading != leading:  # took over, or stands by
                leading = host.leading
                print(LEADING if leading else STANDING_BY, flush=True)
            time.sleep(min(args.poll, 0.5))
    except KeyboardInterrupt:
        return 130
    finally:
        host.stop()


def run_rebuild(args: argparse.Namespace) -> int:
    from projections.runner import rebuild
    from replay_cli.progress import Progress

    if args.name not in _views():
        raise UsageError(f"there is no view {args.name!r} (views: {', '.join(_views())})")
    progress = Progress(1000, f"rebuilding {args.name}")

    def report(position: int, head: int) -> None:
        done = 1000 * position // head if head else 1000
        progress.advance(done - progress.done)

    started = time.monotonic()
    generation = rebuild(store_url(args.store), args.name, on_progress=report)
    progress.finish()
    print(f"{args.name}: generation {generation} built in {time.monotonic() - started:.1f} s and now serves")
    return 0
