"""The indistinguishability proof at scale: many more pairs than the suite plays.

For each game, mode and viewer kind, plays `--pairs` pairs of games that differ only in what
the viewer cannot see (tests/contract/twins.py) and compares every answer the viewer can get
at every version. Prints, per line: pairs played, pairs whose hidden state differed, versions
compared, leaks found (the first of each is described), and pairs per second; then the kinds
of fact the pairs differed in out of the viewer's sight (`twins.hidden_differences`), each
with how many pairs did. A fact the rules keep hidden that is wrongly shown never differs so:
its kind is missing from that list (the scripted twins of tests/unit/dominion/
test_who_sees_each_card.py make each private card effect differ on purpose).

    .venv/bin/python -m bench.hidden --pairs 500 [--ruleset dominion] [--offset 1000]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from domain.ruleset import all_rulesets
from tests.contract.test_hidden_information import NOTHING_HIDDEN, make_pair
from tests.contract.twins import first_difference, hidden_differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500, help="pairs per game, mode and viewer kind")
    parser.add_argument("--ruleset", action="append", help="only this game (repeatable)")
    parser.add_argument("--offset", type=int, default=1000, help="first pair number (the suite plays 0..49)")
    args = parser.parse_args()
    leaks = 0
    for ruleset in all_rulesets():
        if not ruleset.meta.hidden_information or (args.ruleset and ruleset.meta.id not in args.ruleset):
            continue
        for mode in ("digital", "physical"):
            if (ruleset.meta.id, mode) in NOTHING_HIDDEN:
                continue
            for viewer_kind in ("public", "seat"):
                start = time.perf_counter()
                differing = versions = found = 0
                first: str | None = None
                kinds: Counter[str] = Counter()
                for i in range(args.offset, args.offset + args.pairs):
                    pair = make_pair(ruleset, i, mode, viewer_kind)
                    difference = first_difference(pair)
                    if difference is not None:
                        found += 1
                        if first is None:
                            version, key, x, y = difference
                            first = f"pair {i} at version {version} ({key}):\n    A: {x}\n    B: {y}"
                    if pair.differs:
                        differing += 1
                        versions += pair.common - pair.first + 1
                        kinds.update(hidden_differences(pair))
                seconds = time.perf_counter() - start
                print(
                    f"{ruleset.meta.id:12} {mode:8} {viewer_kind:6} pairs {args.pairs:5}  "
                    f"differing {differing:5}  versions compared {versions:7}  leaks {found:3}  "
                    f"{args.pairs / seconds:6.1f} pairs/s",
                    flush=True,
                )
                if first is not None:
                    print(f"    first leak: {first}", flush=True)
                print(
                    f"    differed unseen: {', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}",
                    flush=True,
                )
                leaks += found
    if not args.ruleset or "dominion" in args.ruleset:
        leaks += scripted_twins()
    print(f"leaks found: {leaks}")


def scripted_twins() -> int:
    """Dominion's scripted twins: each private card effect played on hidden cards that differ."""
    from domain.ruleset import PUBLIC, Viewer
    from tests.unit.dominion.test_who_sees_each_card import TWINS, first_shown_difference

    found = [
        d for twin in TWINS for v in (Viewer("seat", "p2"), PUBLIC) if (d := first_shown_difference(twin, v))
    ]
    print(f"dominion     scripted twins {len(TWINS) * 2:3}  leaks {len(found):3}", flush=True)
    if found:
        print(f"    first leak: {found[0]}", flush=True)
    return len(found)


if __name__ == "__main__":
    main()
