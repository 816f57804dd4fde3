"""Mutation testing of what trust rests on: does the suite notice when this code is broken?

mutmut (the `mutation` extra: `.venv/bin/pip install -e '.[mutation]'`) changes one thing at a
time in a module (a comparison, a constant, a call's argument, a statement) and runs the tests
that reach the changed function; a mutant the tests let through "survived". This script copies
the repository (its files as they are now) to a scratch directory, runs mutmut there for each
group below with the group's tests, and prints per module: mutants, killed (timeouts count as
killed: the change made the code hang), survived, mutants no test reaches, and the kill rate
with its ratio to the aim of 0.90. Survivors judged equivalent (no behaviour can tell them from
the original) are listed in the module's docstring.

    .venv/bin/python -m bench.mutation [--group audit] [--keep DIR] [--only 'domain.reading.*']

The hidden-information proof runs with fewer pairs here (CHRONICLE_TWIN_PAIRS), so that each
mutant of a redaction module is judged in seconds, and mutants are judged on the SQLite store
only (tests marked `postgres` are left out: the mutated code branches on the store in one place,
`SavePath._commit_async` in store/commits.py, whose PostgreSQL branch those tests judge).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AIM = 0.90
PYTEST_ARGS = ["-p", "no:xdist", "-p", "no:cacheprovider", "-q", "-x", "-m", "not postgres"]
SOURCES = ["domain", "store", "projections", "api", "replay_cli", "bench"]


@dataclass(frozen=True)
class Group:
    name: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]
    only: tuple[str, ...] = ()  # the mutants judged (globs), when not every one of the modules


VIEWS = tuple(f"domain/games/{game}/view.py" for game in ("province", "dominion", "dynasties", "dominations"))
GROUPS = (
    Group(
        "rng",
        ("domain/rng.py",),
        ("tests/unit/test_rng.py", "tests/unit/dynasties/test_dynasties_randomness.py"),
    ),
    Group(
        "corrections",
        ("domain/corrections.py",),
        (
            "tests/unit/test_corrections_policy.py",
            "tests/store/test_corrections.py",
            "tests/api/test_retractions.py",
        ),
    ),
    Group(
        "audit",
        ("store/audit.py", "store/audit_reading.py", "store/fact_differences.py"),
        (
            "tests/store/test_audit_findings.py",
            "tests/store/test_chain.py",
            "tests/store/test_tampering.py",
            "tests/store/test_dominion_empires_audit.py",
            "tests/store/test_dominion_unseen_audit.py",
            "tests/store/test_dominion_second_edition_audit.py",
        ),
    ),
    Group(
        "redaction",
        ("domain/reading.py", *VIEWS),
        (
            "tests/contract/test_golden_logs.py::test_the_seeded_game_reads_for_the_public_and_a_seat_exactly_as_its_golden_log",
            "tests/contract/test_golden_logs.py::test_the_seeded_game_reads_for_the_omniscient_viewer_exactly_as_its_golden_states",
            "tests/unit/test_reading_corrections.py",
            "tests/contract/test_hidden_information.py",
            "tests/unit/province/test_province_interface.py",
            "tests/unit/dominion/test_dominion_interface.py",
            "tests/unit/dominion/test_dominion_unseen.py",
            "tests/unit/dominion/test_dominion_redaction.py",
            "tests/unit/dominion/test_who_sees_each_card.py",
            "tests/unit/dynasties/test_dynasties_interface.py",
            "tests/unit/dominations/test_dominations_redaction.py",
            "tests/unit/dominations/test_dominations_rules.py",
        ),
    ),
    Group(
        "append",
        (
            "store/core.py",
            "store/commits.py",
            "store/reads.py",
            "store/group_commit.py",
            "store/saving.py",
            "store/writer_process.py",
            "store/stamping.py",
        ),
        (
            "tests/store/test_store.py",
            "tests/store/test_record_on_loop.py",
            "tests/store/test_idempotency.py",
            "tests/store/test_group_commit.py",
            "tests/store/test_writer_process.py",
            "tests/store/test_stamping.py",
            "tests/store/test_chain.py",
            "tests/store/test_state_at_version.py",
            "tests/store/test_corrections.py",
            "tests/api/test_recording_actions.py",
        ),
        # the application's append path: recording an action, from reading the game to the
        # commit that holds it (the rest of store/core.py creates the game; store/reads.py
        # reads it, store/corrections.py corrects and ends it)
        (
            *(
                f"store.core.xǁCoreǁ{name}__mutmut_*"
                for name in (
                    "record",
                    "record_async",
                    "_record_steps",
                    "_cached_copy",
                    "heard",
                    "_game_and_secrets",
                    "_replayed",
                    "_check_same_action",
                    "_stored_form",
                    "_command",
                    "_acting_seat",
                    "_recorded",
                    "_finish_if_over",
                )
            ),
            *(
                f"store.commits.xǁSavePathǁ{name}__mutmut_*"
                for name in (
                    "_record",
                    "_stamp",
                    "_keep_heads",
                    "_prepare_save",
                    "_sealed",
                    "_mapped",
                    "_commit",
                    "_commit_async",
                    "_finish_save",
                    "_notify",
                    "_tell",
                    "close",
                    "_cache",
                )
            ),
            *(f"store.reads.xǁReadsǁ{name}__mutmut_*" for name in ("cached_game", "game")),
            "store.core.x__as_stored__mutmut_*",
            "store.reads.x__fold__mutmut_*",
            "store.group_commit.*",
            "store.writer_process.*",
            "store.stamping.*",
            "store.saving.*",
        ),
    ),
    Group(
        "news",
        ("api/rate_limits.py", "store/polling.py", "store/fanout.py", "store/chain.py", "store/sequence.py"),
        (
            "tests/api/test_rate_limits.py",
            "tests/store/test_sequence.py",
            "tests/store/test_polling.py",
            "tests/store/test_fanout_hints.py",
            "tests/store/test_record_on_loop.py",
            "tests/store/test_fast_stored_form.py",
            "tests/store/test_chain.py",
            "tests/store/test_stamping.py",
        ),
        # what every write passes on its way (its limits, the digest's fast form) and the news
        # of it (hints, the polling subscription); the rest of store/fanout.py is the Redis
        # link, judged end to end (tests/e2e/test_fanout_between_servers.py)
        (
            "api.rate_limits.*",
            "store.polling.*",
            "store.fanout.xǁFanoutǁsaved__mutmut_*",
            "store.fanout.xǁFanoutǁ_read_sequence__mutmut_*",
            "store.chain.x_canonical__mutmut_*",
            "store.chain.x__plain__mutmut_*",
            "store.chain.x_iso__mutmut_*",
            "store.chain.x_stamped__mutmut_*",
            "store.chain.x_kept_digest__mutmut_*",
            # the sequence read on SQLite and the library's way (PostgreSQL's by its own tests)
            "store.sequence.x_latest_after__mutmut_*",
            "store.sequence.x__page__mutmut_*",
            "store.sequence.x__sqlite__mutmut_*",
            "store.sequence.x__library__mutmut_*",
        ),
    ),
)


def scratch_copy(into: Path) -> None:
    """The repository's files as they are now (tracked and new, not ignored) under `into`."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def configure(where: Path, group: Group) -> None:
    tests = list(group.tests)
    missing = [t for t in tests if not (where / t.split("::")[0]).exists()]
    if missing:
        sys.exit(f"group {group.name} names tests that do not exist: {', '.join(missing)}")
    config = "\n".join(
        [
            "",
            "[tool.mutmut]",
            f"source_paths = {SOURCES!r}",
            f"only_mutate = {list(group.modules)!r}",
            f"pytest_add_cli_args_test_selection = {tests!r}",
            f"pytest_add_cli_args = {PYTEST_ARGS!r}",
            "",
        ]
    ).replace("'", '"')
    with (where / "pyproject.toml").open("a") as out:
        out.write(config)


def results(where: Path) -> dict[str, dict[str, int]]:
    """Counts of each status per module, from `mutmut results --all true`."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("mutmut")), "results", "--all", "true"],
        cwd=where,
        capture_output=True,
        text=True,
        check=True,
    )
    counts: dict[str, dict[str, int]] = {}
    for line in done.stdout.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name or "__mutmut_" not in name or status == "not checked":
            continue  # (not checked: left out by --only)
        module = name.split(".x")[0] if ".x" in name else name.rsplit(".", 1)[0]
        bucket = counts.setdefault(module, {})
        bucket[status] = bucket.get(status, 0) + 1
    return counts


def survivors(where: Path) -> list[str]:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("mutmut")), "results"], cwd=where, capture_output=True, text=True
    )
    return [line.split(": ")[0].strip() for line in done.stdout.splitlines() if line.endswith(": survived")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group", action="append", choices=[g.name for g in GROUPS], help="only this group")
    parser.add_argument("--keep", type=Path, help="run in this directory and keep it (to read survivors)")
    parser.add_argument("--show-survivors", action="store_true", help="print the name of every survivor")
    parser.add_argument(
        "--only",
        metavar="GLOB",
        action="append",
        help="only the mutants whose name matches, e.g. 'domain.reading.*' (repeatable; for a group's own)",
    )
    args = parser.parse_args()
    if shutil.which("mutmut", path=str(Path(sys.executable).parent)) is None:
        sys.exit("bench.mutation needs mutmut: .venv/bin/pip install -e '.[mutation]'")
    env = os.environ | {"CHRONICLE_TWIN_PAIRS": os.environ.get("CHRONICLE_TWIN_PAIRS", "6")}
    print(
        f"{'module':42} {'mutants':>8} {'killed':>7} {'survived':>9} {'untested':>9} {'kill rate':>10}  ratio"
    )
    worst = 1.0
    for group in GROUPS:
        if args.group and group.name not in args.group:
            continue
        base = args.keep or Path(tempfile.mkdtemp(prefix=f"mutation-{group.name}-"))
        where = base / group.name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        scratch_copy(where)
        configure(where, group)
        start = time.perf_counter()
        run = subprocess.run(
            [str(Path(sys.executable).with_name("mutmut")), "run", *(args.only or group.only)],
            cwd=where,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if run.returncode != 0:
            print(f"{group.name}: mutmut failed ({run.returncode}):\n{run.stderr[-2000:]}")
            continue
        for module, counts in sorted(results(where).items()):
            killed = counts.get("killed", 0) + counts.get("timeout", 0)
            survived = counts.get("survived", 0)
            untested = counts.get("no tests", 0)
            total = sum(counts.values())
            rate = killed / total if total else 1.0
            worst = min(worst, rate)
            figures = " ".join(f"{n:>9}" for n in (total, killed, survived, untested))
            print(f"{module:42} {figures} {rate:9.3f}  {rate / AIM:.2f} of aim")
        if args.show_survivors:
            for name in survivors(where):
                print(f"    survived: {name}")
        print(f"  ({group.name}: {time.perf_counter() - start:.0f} s)", flush=True)
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"lowest kill rate {worst:.3f} (aim {AIM})")


if __name__ == "__main__":
    main()
