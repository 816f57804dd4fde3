"""The subcommands of `chronicle`, one module each, in the order `--help` lists them."""

from __future__ import annotations

import argparse
from typing import Any, Protocol

Subparsers = argparse._SubParsersAction  # the type `add_subparsers` returns


class Command(Protocol):
    def register(self, subparsers: Subparsers[Any]) -> None: ...


def documented_parser(
    subparsers: Subparsers[argparse.ArgumentParser], name: str, help: str, doc: str | None
) -> argparse.ArgumentParser:
    """The parser of a command whose `--help` prints its module's docstring `doc` as written:
    its usage examples and lists keep their lines, which argparse would otherwise refill."""
    return subparsers.add_parser(
        name, help=help, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )


from replay_cli.commands import (  # noqa: E402  (the protocol above is what they satisfy)
    annotate,
    audit,
    completion,
    dispute,
    endings,
    export,
    games,
    import_log,
    info,
    log,
    new,
    projections,
    record,
    replay,
    rng,
    rules,
    rulesets,
    serve,
    show,
    simulate,
    stats,
    variation,
    verify,
    watch,
)

COMMANDS: tuple[Command, ...] = (
    serve,
    new,
    record,
    import_log,
    endings,
    games,
    show,
    log,
    replay,
    watch,
    annotate,
    variation,
    audit,
    dispute,
    verify,
    export,
    simulate,
    stats,
    rulesets,
    rules,
    projections,
    rng,
    info,
    completion,
)
