"""How an `any` game ends and ranks (rules.md section 6).

- `highest` / `lowest`: the seats rank on the ending's track, the higher (lower) value first;
  equal values share a rank and the next rank counts the seats ahead (1, 1, 3). A `tiebreak`
  track separates equal values, compared in the same direction; `shared` leaves ties shared;
  `entered` has the table enter the ranks (`end game ranks ...`) when a tie remains.
- `ranks`: the table enters the ranks.
- `cooperative`: everybody wins or everybody loses (`won`); reaching the maximum of the loss
  track loses at once. Every seat ranks 1 either way; the winners are all seats or none.

Entered results (a game recorded afterwards): final scores alone rank as the ending ranks a
track; the winners alone rank 1 and the others 2; scores with winners keep the winners as
given (rank 1) and rank the others by score after them; ranks stand as given. An empty list
of winners says nobody won: every seat ranks 1 and there is no winner.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.games.any.definition import TOTAL, Definition


def competition_ranks(keys: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    """Rank 1 for the smallest key; equal keys share a rank, the next counts those ahead."""
    return {s: 1 + sum(1 for o in keys if keys[o] < keys[s]) for s in keys}


def direction(definition: Definition) -> int:
    """-1 when a higher value ranks first (sort keys are negated), 1 when a lower one does."""
    return 1 if definition.ending.kind == "lowest" else -1


def track_scores(
    definition: Definition, seats: tuple[str, ...], tracks: Mapping[str, Mapping[str, int]]
) -> dict[str, int]:
    """Every seat's value on the ending's per-player track (0 where the ending reads none)."""
    track = definition.score_track()
    if track is TOTAL:  # a scoring sheet: the sum of every row
        return {s: sum(int(values.get(s, 0)) for values in tracks.values()) for s in seats}
    if track is None or track.per != "player":
        track = definition.default_player_track()
    values = tracks.get(track.name, {}) if track is not None else {}
    return {s: int(values.get(s, 0)) for s in seats}


def ranked(
    definition: Definition,
    scores: Mapping[str, int],
    tiebreak: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Ranks from scores in the ending's direction, `tiebreak` values after them."""
    sign = direction(definition)
    keys = {
        s: (sign * v, sign * tiebreak.get(s, 0)) if tiebreak is not None else (sign * v,)
        for s, v in scores.items()
    }
    return competition_ranks(keys)


def winners_of(ranks: Mapping[str, int], seats: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(s for s in seats if ranks[s] == 1)


def ranks_after_winners(
    definition: Definition, scores: Mapping[str, int], winners: tuple[str, ...], seats: tuple[str, ...]
) -> dict[str, int]:
    """The winners rank 1; the others after them by score (all 2 without scores to tell)."""
    ranks = dict.fromkeys(winners, 1)
    others = {s: scores.get(s, 0) for s in seats if s not in winners}
    ranks |= {s: r + 1 for s, r in ranked(definition, others).items()}
    return {s: ranks[s] for s in seats}
