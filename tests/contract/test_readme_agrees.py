"""What README.md says of the games agrees with what the rulesets say of themselves."""

from __future__ import annotations

import re
from pathlib import Path

from domain.ruleset import all_rulesets

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_player_counts_are_the_rulesets_own() -> None:
    rows = {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"^\| `(\w+)` \| [^|]+ \| ([^|]+) \|", README.read_text(), re.MULTILINE)
    }
    for ruleset in all_rulesets():
        meta = ruleset.meta
        if meta.id not in rows:
            continue
        counts = (
            str(meta.min_players)
            if meta.min_players == meta.max_players
            else (f"{meta.min_players}-{meta.max_players}")
        )
        assert rows[meta.id].split()[0] == counts, (meta.id, rows[meta.id])
    assert {"province", "dominion", "dynasties", "dominations"} <= rows.keys()
