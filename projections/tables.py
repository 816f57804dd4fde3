"""Statistics over many games, as tables with stable ids.

Every table has a stable `id` (`win_rate_by_seat`, `rating`, `dice_chi_square`, ...), every
column a stable `id`, and every row a `key`; one figure is therefore named
`<table id>/<row key>/<column id>` whatever the labels say (`Table.figures`). Labels may be
reworded, ids never are.

The inputs are the finished games' statistics (projections/game_stats.py) in the order they
finished; ratings (openskill's Plackett-Luce model, every seat its own team) are updated game
by game in that order (projections/ratings.py), and read as the view keeps them when the
caller has them. A game package adds its own tables through `stats.tables`.

A game is a win, a draw or a loss for each seat by one definition (domain/standings.py): a tie
for first is a draw for those tied. The player tables (records, head to head, ratings,
decision time) tell players apart within a ruleset (`province/Ann`) unless asked `across`
rulesets (projections/players.py).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, Literal

import msgspec

from domain.ruleset import get_ruleset
from domain.standings import pair_result, seat_result
from projections.game_stats import GameStatistics, stats_module, stats_of_games
from projections.players import ACROSS, player_id, stats_group
from projections.ratings import PlayerRating, ranked, replay
from projections.statmath import chi_square_uniform, wilson_interval

Kind = Literal["text", "count", "number", "ratio", "seconds"]


class Column(msgspec.Struct, frozen=True):
    """One column: `description` defines the figure (what is counted, what is left out)."""

    id: str
    label: str
    kind: Kind = "number"
    description: str = ""


class Table(msgspec.Struct):
    """A table of figures. `description` says what one row is; with each column's own
    definition it makes the table's legend (`legend`), served with the table."""

    id: str
    title: str
    key: str  # the column whose value names a row
    columns: list[Column]
    rows: list[dict[str, Any]]
    description: str = ""

    def legend(self) -> list[str]:
        """The table's description, then every column's label and definition."""
        return [self.description, *(f"{c.label}: {c.description}" for c in self.columns)]

    def figures(self) -> dict[str, Any]:
        """Every figure by its stable id `<table>/<row key>/<column>`."""
        return {
            f"{self.id}/{row[self.key]}/{column.id}": row.get(column.id)
            for row in self.rows
            for column in self.columns
            if column.id != self.key
        }

    def page(self, offset: int, limit: int) -> Table:
        return Table(
            self.id, self.title, self.key, self.columns, self.rows[offset : offset + limit], self.description
        )


def _c(id: str, label: str, kind: Kind, description: str) -> Column:
    return Column(id, label, kind, description)


def games_played(games: Sequence[GameStatistics]) -> Table:
    counts = Counter((g.ruleset, g.mode) for g in games)
    rows = [
        {"ruleset_mode": f"{ruleset}/{mode}", "ruleset": ruleset, "mode": mode, "games": n}
        for (ruleset, mode), n in sorted(counts.items())
    ]
    columns = [
        _c(
            "ruleset_mode",
            "Ruleset/mode",
            "text",
            "the ruleset and the mode (digital or physical) the row counts",
        ),
        _c("ruleset", "Ruleset", "text", "the ruleset's id"),
        _c(
            "mode",
            "Mode",
            "text",
            "digital (the server deals and rolls) or physical (a recorder enters the table's play)",
        ),
        _c(
            "games",
            "Games",
            "count",
            "finished games of that ruleset and mode (an abandoned game is not finished)",
        ),
    ]
    return Table(
        "games_played",
        "Games played",
        "ruleset_mode",
        columns,
        rows,
        "One row per ruleset and mode, over the finished games.",
    )


def game_length(games: Sequence[GameStatistics]) -> Table:
    by_ruleset: dict[str, list[GameStatistics]] = {}
    for g in games:
        by_ruleset.setdefault(g.ruleset, []).append(g)
    rows = []
    for ruleset, group in sorted(by_ruleset.items()):
        turns = [g.turns for g in group]
        rounds = [g.rounds for g in group if g.rounds is not None]
        rows.append(
            {
                "ruleset": ruleset,
                "games": len(group),
                "mean_turns": statistics.fmean(turns),
                "median_turns": statistics.median(turns),
                "min_turns": min(turns),
                "max_turns": max(turns),
                "mean_rounds": statistics.fmean(rounds) if rounds else None,
                "mean_actions": statistics.fmean(g.actions for g in group),
                "mean_minutes": statistics.fmean(g.duration_seconds for g in group) / 60,
            }
        )
    columns = [
        _c("ruleset", "Ruleset", "text", "the ruleset's id"),
        _c("games", "Games", "count", "finished games of the ruleset"),
        _c(
            "mean_turns",
            "Mean turns",
            "number",
            "turns per game, on average: a turn is one player's turn (a round of four players is four)",
        ),
        _c("median_turns", "Median turns", "number", "the median of the turns per game"),
        _c("min_turns", "Fewest turns", "count", "the fewest turns a game took"),
        _c("max_turns", "Most turns", "count", "the most turns a game took"),
        _c(
            "mean_rounds",
            "Mean rounds",
            "number",
            "rounds per game (every player's turn once), on average, where the game counts them "
            "(Dynasties); empty elsewhere",
        ),
        _c(
            "mean_actions",
            "Mean actions",
            "number",
            "actions per game, on average: those recorded for a seat (by its token or by the "
            "recorder for it); the recorder's entries of what the table dealt, drew or rolled "
            "when no seat was asked, and retracted actions, are not counted",
        ),
        _c("mean_minutes", "Mean minutes", "number", "minutes from a game's creation to its end, on average"),
    ]
    return Table(
        "game_length",
        "Game length",
        "ruleset",
        columns,
        rows,
        "One row per ruleset, over its finished games.",
    )


def win_rate_by_seat(games: Sequence[GameStatistics]) -> Table:
    """For each ruleset, player count and seat (in seat order), how often the seat won alone
    (a tie for first is a draw, domain/standings.py). 95% Wilson score interval. Row keys
    read `province/2p/A`."""
    order: list[tuple[str, int, str]] = []
    played: Counter[tuple[str, int, str]] = Counter()
    wins: Counter[tuple[str, int, str]] = Counter()
    draws: Counter[tuple[str, int, str]] = Counter()
    for g in games:
        for seat in g.seats:
            key = (g.ruleset, len(g.seats), seat)
            if key not in played:
                order.append(key)
            played[key] += 1
            result = seat_result(g.winners, seat)
            if result == "win":
                wins[key] += 1
            elif result == "draw":
                draws[key] += 1
    rows = []
    for key in sorted(order, key=lambda k: (k[0], k[1], order.index(k))):
        ruleset, players, seat = key
        low, high = wilson_interval(wins[key], played[key])
        rows.append(
            {
                "ruleset_seat": f"{ruleset}/{players}p/{seat}",
                "ruleset": ruleset,
                "players": players,
                "seat": seat,
                "games": played[key],
                "wins": wins[key],
                "draws": draws[key],
                "win_rate": wins[key] / played[key],
                "ci_low": low,
                "ci_high": high,
            }
        )
    columns = [
        _c("ruleset_seat", "Ruleset/players/seat", "text", "the ruleset, the player count and the seat"),
        _c("ruleset", "Ruleset", "text", "the ruleset's id"),
        _c("players", "Players", "count", "the number of seats in the game"),
        _c("seat", "Seat", "text", "the seat's id, in seat order"),
        _c("games", "Games", "count", "finished games with that seat at that player count"),
        _c("wins", "Wins", "count", "games the seat won alone"),
        _c("draws", "Draws", "count", "games the seat shared first place in, or that nobody won"),
        _c("win_rate", "Win rate", "ratio", "wins / games"),
        _c("ci_low", "95% low", "ratio", "the low end of the win rate's 95% Wilson interval"),
        _c("ci_high", "95% high", "ratio", "the high end of the win rate's 95% Wilson interval"),
    ]
    return Table(
        "win_rate_by_seat",
        "Win rate by seat (95% Wilson interval)",
        "ruleset_seat",
        columns,
        rows,
        "One row per ruleset, player count and seat, over the finished games.",
    )


def _player_columns() -> list[Column]:
    return [
        _c(
            "player_id",
            "Player id",
            "text",
            "the player: the ruleset and the name (the name alone across rulesets)",
        ),
        _c(
            "ruleset",
            "Ruleset",
            "text",
            "the ruleset's id (with the title for a game of any title: any:Azul), or * across rulesets",
        ),
        _c("player", "Player", "text", "the player's name"),
    ]


def _player_key(g: GameStatistics, name: str, across: bool) -> tuple[str, str, str]:
    """(row key, ruleset column, player column) of a name in a game."""
    ruleset = ACROSS if across else stats_group(g.ruleset, g.options)
    return player_id(ruleset, name, across), ruleset, name


def _player_order(key: tuple[str, str, str]) -> tuple[str, str]:
    return key[1], key[2].casefold()


def player_records(games: Sequence[GameStatistics], across: bool = False) -> Table:
    """Each player's games, wins, losses and draws (domain/standings.py), win rate (95%
    Wilson interval) and scores; a player per ruleset unless `across`."""
    records: dict[tuple[str, str, str], dict[str, Any]] = {}
    for g in games:
        for seat, name in g.seats.items():
            record = records.setdefault(
                _player_key(g, name, across),
                {"games": 0, "wins": 0, "losses": 0, "draws": 0, "scores": []},
            )
            record["games"] += 1
            record[{"win": "wins", "loss": "losses", "draw": "draws"}[seat_result(g.winners, seat)]] += 1
            if seat in g.scores:
                record["scores"].append(g.scores[seat])
    rows = []
    for key in sorted(records, key=_player_order):
        record = records[key]
        scores = record.pop("scores")
        low, high = wilson_interval(record["wins"], record["games"])
        rows.append(
            {"player_id": key[0], "ruleset": key[1], "player": key[2]}
            | record
            | {
                "win_rate": record["wins"] / record["games"],
                "ci_low": low,
                "ci_high": high,
                "mean_score": statistics.fmean(scores) if scores else None,
                "best_score": max(scores) if scores else None,
            }
        )
    columns = [
        *_player_columns(),
        _c("games", "Games", "count", "finished games the player sat in"),
        _c("wins", "Wins", "count", "games the player won alone"),
        _c("losses", "Losses", "count", "games someone else won, or won with others, and the player did not"),
        _c("draws", "Draws", "count", "games the player shared first place in, or that nobody won"),
        _c("win_rate", "Win rate", "ratio", "wins / games"),
        _c("ci_low", "95% low", "ratio", "the low end of the win rate's 95% Wilson interval"),
        _c("ci_high", "95% high", "ratio", "the high end of the win rate's 95% Wilson interval"),
        _c(
            "mean_score",
            "Mean score",
            "number",
            "the player's final score (the ruleset's own: VP, VT), on average",
        ),
        _c("best_score", "Best score", "number", "the player's highest final score"),
    ]
    return Table(
        "player_records",
        "Player records",
        "player_id",
        columns,
        rows,
        "One row per player (a name within a ruleset, or across rulesets when asked), "
        "over the finished games.",
    )


def head_to_head(games: Sequence[GameStatistics], across: bool = False) -> Table:
    """Every ordered pair of players who met in a ruleset (in any, `across`): who finished
    ahead how often (domain/standings.py: a winner is ahead of a seat that did not win, two
    winners draw, else the better rank is ahead). Row keys read `province/Ann vs Ben`."""
    pairs: dict[tuple[str, str, str], list[int]] = {}
    for g in games:
        ruleset = ACROSS if across else stats_group(g.ruleset, g.options)
        for (seat_a, name_a), (seat_b, name_b) in combinations(g.seats.items(), 2):
            if name_a == name_b:
                continue
            sides = ((name_a, name_b, seat_a, seat_b), (name_b, name_a, seat_b, seat_a))
            for me, them, mine, theirs in sides:
                row = pairs.setdefault((ruleset, me, them), [0, 0, 0, 0])
                row[0] += 1
                result = pair_result(g.winners, g.ranks, mine, theirs)
                row[{"win": 1, "loss": 2, "draw": 3}[result]] += 1
    rows = [
        {
            "pair": f"{me} vs {them}" if across else f"{ruleset}/{me} vs {them}",
            "ruleset": ruleset,
            "player": me,
            "opponent": them,
            "games": n,
            "wins": won,
            "losses": lost,
            "draws": drawn,
            "win_rate": won / n,
        }
        for (ruleset, me, them), (n, won, lost, drawn) in sorted(
            pairs.items(), key=lambda p: (p[0][0], p[0][1].casefold(), p[0][2].casefold())
        )
    ]
    columns = [
        _c(
            "pair",
            "Pair",
            "text",
            "the player and the opponent (within a ruleset unless counted across rulesets)",
        ),
        _c(
            "ruleset",
            "Ruleset",
            "text",
            "the ruleset's id (with the title for a game of any title: any:Azul), or * across rulesets",
        ),
        _c("player", "Player", "text", "the player the row counts for"),
        _c("opponent", "Opponent", "text", "the other player"),
        _c("games", "Games", "count", "finished games both sat in"),
        _c(
            "wins",
            "Wins",
            "count",
            "games the player finished ahead: won while the opponent did not, or ranked better",
        ),
        _c("losses", "Losses", "count", "games the opponent finished ahead"),
        _c("draws", "Draws", "count", "games neither finished ahead: both won, or equal ranks"),
        _c("win_rate", "Win rate", "ratio", "wins / games"),
    ]
    return Table(
        "head_to_head",
        "Head to head",
        "pair",
        columns,
        rows,
        "One row per ordered pair of players who met, over the finished games.",
    )


def ratings(
    games: Sequence[GameStatistics], stored: Sequence[PlayerRating] | None = None, across: bool = False
) -> Table:
    """openskill Plackett-Luce ratings, updated game by game in finishing order
    (projections/ratings.py); `ordinal` (mu - 3 sigma) orders each ruleset's rows. `stored`:
    the ratings (per ruleset) after exactly `games`, as the view keeps them, instead of
    replaying the games."""
    rows = ranked(replay(games, across) if stored is None or across else stored, across)
    columns = [
        *_player_columns(),
        _c("rank", "Rank", "count", "the player's place in the ruleset by rating"),
        _c("games", "Games", "count", "finished games rated"),
        _c(
            "ordinal",
            "Rating (mu - 3 sigma)",
            "number",
            "the rating, mu - 3 sigma: a skill the player very likely has at least",
        ),
        _c("mu", "mu", "number", "the estimated skill"),
        _c("sigma", "sigma", "number", "the uncertainty of the estimate"),
    ]
    return Table(
        "rating",
        "Ratings (openskill, Plackett-Luce)",
        "player_id",
        columns,
        rows,
        "One row per player, rated by openskill's Plackett-Luce model game by game in finishing order.",
    )


# Decision time, summed per player here and per seat in a game's own activity table.
DECISION_SECONDS = Column(
    "decision_seconds",
    "Decision time (s)",
    "seconds",
    "seconds from the event before each of those actions to the action, summed",
)


def decision_time(games: Sequence[GameStatistics], across: bool = False) -> Table:
    """Actions and the time taken to decide them, per player over all their games (of a
    ruleset, unless `across`)."""
    totals: dict[tuple[str, str, str], list[float]] = {}
    for g in games:
        for a in g.activity:
            row = totals.setdefault(_player_key(g, a.player, across), [0, 0, 0.0])
            row[0] += 1
            row[1] += a.actions
            row[2] += a.decision_seconds
    rows = [
        {
            "player_id": key[0],
            "ruleset": key[1],
            "player": key[2],
            "games": int(n),
            "actions": int(actions),
            "actions_per_game": actions / n,
            "decision_seconds": seconds,
            "seconds_per_action": seconds / actions if actions else None,
        }
        for key, (n, actions, seconds) in sorted(totals.items(), key=lambda item: _player_order(item[0]))
    ]
    columns = [
        *_player_columns(),
        _c("games", "Games", "count", "finished games the player sat in"),
        _c(
            "actions",
            "Actions",
            "count",
            "actions recorded for the player's seat (by its token or by the recorder for it), "
            "retracted ones left out",
        ),
        _c("actions_per_game", "Actions per game", "number", "actions / games"),
        DECISION_SECONDS,
        _c("seconds_per_action", "Seconds per action", "seconds", "decision_seconds / actions"),
    ]
    return Table(
        "decision_time",
        "Actions and decision time per player",
        "player_id",
        columns,
        rows,
        "One row per player, over the finished games.",
    )


def dice_test(counts: Sequence[int]) -> dict[str, Any]:
    """The figures of `DICE_COLUMNS` for dice that came up `counts` times on each face (face 1
    first), tested against fair dice (Pearson chi-square)."""
    statistic, dof, p_value = chi_square_uniform(counts)
    return {
        "rolls": sum(counts),
        "counts": " ".join(map(str, counts)),
        "chi_square": statistic,
        "dof": dof,
        "p_value": p_value,
    }


def dice_columns(chi_square: str) -> list[Column]:
    """The columns of `dice_test`; `chi_square` defines the statistic as the table reports it."""
    return [
        _c("rolls", "Dice", "count", "dice rolled (one roll of two dice counts two)"),
        _c("counts", "Count per face", "text", "how often each face came up, face 1 first"),
        _c("chi_square", "Chi-square", "number", chi_square),
        _c("dof", "df", "count", "degrees of freedom: faces - 1"),
        _c("p_value", "p-value", "ratio", "the chance of a chi-square this large from fair dice"),
    ]


def dice_fairness(games: Sequence[GameStatistics]) -> Table:
    """Every stream's dice over all games, tested against fair dice (Pearson chi-square)."""
    totals: dict[tuple[str, str, int], list[int]] = {}
    for g in games:
        for count in g.dice:
            row = totals.setdefault((g.ruleset, count.stream, count.faces), [0] * count.faces)
            for i, c in enumerate(count.counts):
                row[i] += c
    rows = []
    for (ruleset, stream, faces), counts in sorted(totals.items()):
        test = dice_test(counts)
        rows.append(
            {"stream": f"{ruleset}/{stream}/d{faces}", "ruleset": ruleset, "name": stream, "faces": faces}
            | test
            | {"fair": test["p_value"] >= 0.01}
        )
    columns = [
        _c("stream", "Stream", "text", "the ruleset, the stream and the die size"),
        _c("ruleset", "Ruleset", "text", "the ruleset's id"),
        _c("name", "Name", "text", "the random stream the dice were rolled from (dice, turn-order, ...)"),
        _c("faces", "Faces", "count", "the die's number of faces"),
        *dice_columns("Pearson's chi-square of the counts against a fair die"),
        _c("fair", "Fair at 1%", "text", "yes when the p-value is at least 1%"),
    ]
    return Table(
        "dice_chi_square",
        "Dice fairness per stream (chi-square against fair dice)",
        "stream",
        columns,
        rows,
        "One row per ruleset, random stream and die size, over the finished games "
        "(shuffles and draws are not dice).",
    )


def game_tables(games: Sequence[GameStatistics]) -> list[Table]:
    """The tables each game package adds (`domain/games/<name>/stats.py` `tables`)."""
    found: list[Table] = []
    for ruleset_id in sorted({g.ruleset for g in games}):
        ruleset = get_ruleset(ruleset_id)
        module = stats_module(ruleset) if ruleset is not None else None
        tables = getattr(module, "tables", None)
        if tables is None:
            continue
        records = stats_of_games([g for g in games if g.ruleset == ruleset_id])
        found.extend(msgspec.convert(t, Table) for t in tables(records))
    return found


BUILDERS: dict[str, Callable[..., Table]] = {
    "games_played": games_played,
    "game_length": game_length,
    "win_rate_by_seat": win_rate_by_seat,
    "player_records": player_records,
    "head_to_head": head_to_head,
    "rating": ratings,
    "decision_time": decision_time,
    "dice_chi_square": dice_fairness,
}


# The tables that name players, and so can be asked across rulesets.
PLAYER_TABLES = frozenset({"player_records", "head_to_head", "rating", "decision_time"})


def _build(
    table_id: str, games: Sequence[GameStatistics], stored: Sequence[PlayerRating] | None, across: bool
) -> Table:
    if table_id == "rating":
        return ratings(games, stored, across)
    if table_id in PLAYER_TABLES:
        return BUILDERS[table_id](games, across)
    return BUILDERS[table_id](games)


def all_tables(
    games: Sequence[GameStatistics], stored: Sequence[PlayerRating] | None = None, across: bool = False
) -> list[Table]:
    """Every table over `games`; `stored`: the ratings (per ruleset) after exactly those
    games, if known; `across`: players counted across rulesets."""
    return [_build(table_id, games, stored, across) for table_id in BUILDERS] + game_tables(games)


def table(
    table_id: str,
    games: Sequence[GameStatistics],
    stored: Sequence[PlayerRating] | None = None,
    across: bool = False,
) -> Table | None:
    if table_id in BUILDERS:
        return _build(table_id, games, stored, across)
    return next((t for t in game_tables(games) if t.id == table_id), None)
