"""`chronicle rules REFERENCE [SECTION]`: the rules a rejection or an audit cites, in the
project's own words.

REFERENCE is a ruleset id (`province`, `dominion`, ...), `records` (the rules of a game's
record) or `corrections` (taking actions back). Without SECTION the whole reference is
printed; `chronicle rules province 3.2` prints one section with its subsections. The rule of a
rejection may be pasted as it is: `chronicle rules "province 3.2"`. `--list` names the
sections; `chronicle rules --list` alone names the references.
"""

from __future__ import annotations

import argparse

from replay_cli.commands import Subparsers, documented_parser
from replay_cli.errors import UsageError


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    parser = documented_parser(subparsers, "rules", "print the rules a rejection cites", __doc__)
    parser.add_argument(
        "reference", nargs="?", metavar="REFERENCE", help="a ruleset id, records or corrections"
    )
    parser.add_argument("section", nargs="?", metavar="SECTION", help="a section, e.g. 3.2")
    parser.add_argument(
        "--list", action="store_true", help="list the sections instead (alone: list the references)"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from store.references import reference, reference_ids

    if args.reference is None:
        if not args.list:
            raise UsageError(
                f"name a rules reference ({', '.join(reference_ids())}); --list alone lists them"
            )
        for listed_id in reference_ids():
            found_reference = reference(listed_id)
            title = found_reference.title if found_reference is not None else ""
            print(f"{listed_id:<12} {title}")
        return 0
    name, _, inline = args.reference.strip().partition(" ")
    section_id = args.section or inline.strip() or None
    found = reference(name)
    if found is None:
        raise UsageError(f"there is no rules reference {name!r} (references: {', '.join(reference_ids())})")
    if args.list:
        for listed in found.sections.values():
            print(f"{listed.id:<8} {listed.title}")
        return 0
    if section_id is None:
        print(found.text)
        return 0
    section = found.sections.get(section_id)
    if section is None:
        raise UsageError(f"{name} has no section {section_id!r} (sections: {', '.join(found.sections)})")
    print(section.text)
    return 0
