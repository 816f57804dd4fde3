"""The store's clock: the moment every event it writes is stamped with (UTC).

One function in one place, so that the core's writes read the same clock and a test fixes it
by replacing `store.clock.now`."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)
