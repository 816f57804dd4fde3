"""The picture of a game (domain/picture.py) is drawn from the redacted view and nothing else.

For every game: pictures of seeded bot games at every version for every viewer are well formed,
a seat's picture shows its own hidden cards and nobody else's, and across the pairs of games
that differ only in what a viewer cannot see (tests/contract/twins.py) the viewer's picture is
identical wherever its view is.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgspec
import pytest

from domain.picture import Board, Cards, Cycle, Map, Picture, Table, changes, picture_of
from domain.ruleset import OMNISCIENT, PUBLIC, Actor, Command, Rejection, Viewer, all_rulesets
from tests.contract.test_hidden_information import make_pair
from tests.contract.twins import AT, AnyRuleset, _rng, answers, choose, config_for, start

RULESETS = all_rulesets()
PAIRS = 3  # per game and viewer kind: the full proof of the views is test_hidden_information


def _names(config: Any) -> dict[str, str]:
    return {s.id: s.name for s in config.seats}


def _play(ruleset: AnyRuleset, seed: int, steps: int) -> tuple[Any, list[Any]]:
    """A seeded bot game: its config and the aggregate's state after every step."""
    config = config_for(ruleset, seed, "digital")
    side = start(ruleset, config, _rng(config))
    bot = random.Random(seed)
    states = [side.game.state]
    for _ in range(steps):
        if ruleset.outcome(side.game.state) is not None:
            break
        seat = bot.choice(ruleset.pending(side.game.state)).seat
        by: Actor = "seat" if seat is not None else "recorder"
        action = choose(bot, ruleset, side.game.state, seat, ruleset.legal_actions(side.game.state, seat))
        facts = side.game.decide(Command(action, seat, by), side.rng)
        assert not isinstance(facts, Rejection)
        side.game.record(Command(action, seat, by), facts, AT)
        states.append(side.game.state)
    return config, states


def _text(picture: Picture) -> str:
    return msgspec.json.encode(picture).decode()


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.meta.id)
def test_every_viewer_gets_a_well_formed_picture_at_every_step(ruleset: AnyRuleset) -> None:
    config, states = _play(ruleset, 1, 150)
    names = _names(config)
    viewers = [OMNISCIENT, PUBLIC, *(Viewer("seat", s.id) for s in config.seats)]
    before: Picture | None = None
    changed_somewhere = False
    for state in states[:: max(1, len(states) // 30)]:
        for viewer in viewers:
            picture = picture_of(ruleset.meta.id, ruleset.view(state, viewer), names)
            assert picture.ruleset == ruleset.meta.id
            assert picture.headline
            assert set(picture.seats) == {s.id for s in config.seats}
            for section in picture.sections:
                if isinstance(section, Table):
                    assert len({r.key for r in section.rows}) == len(section.rows), section.id
                    assert all(len(r.cells) == len(section.columns) for r in section.rows), section.id
                else:
                    _well_drawn(section, picture)
            # a picture is JSON both viewers draw
            assert msgspec.json.decode(msgspec.json.encode(picture), type=Picture) == picture
        omniscient = picture_of(ruleset.meta.id, ruleset.view(state, OMNISCIENT), names)
        changed_somewhere |= bool(changes(before, omniscient))
        before = omniscient
    assert changed_somewhere


@pytest.mark.parametrize("viewer_kind", ["public", "seat"])
@pytest.mark.parametrize(
    "ruleset", [r for r in RULESETS if r.meta.hidden_information], ids=lambda r: r.meta.id
)
def test_a_viewer_sees_one_picture_of_games_it_cannot_tell_apart(
    ruleset: AnyRuleset, viewer_kind: str
) -> None:
    compared, differing = 0, 0
    for i in range(PAIRS):
        pair = make_pair(ruleset, i, "digital", viewer_kind)
        differing += pair.differs
        names = _names(pair.config)
        for (version, x), (_, y) in zip(
            answers(pair.a, pair.viewer, pair.first, pair.common),
            answers(pair.b, pair.viewer, pair.first, pair.common),
            strict=True,
        ):
            assert x["state"] == y["state"]  # the views' own proof, restated
            px = picture_of(ruleset.meta.id, x["state"], names)
            py = picture_of(ruleset.meta.id, y["state"], names)
            assert _text(px) == _text(py), f"{pair.config.game_id} v{version}"
            compared += 1
    assert compared > 0 and differing > 0


def _well_drawn(section: Board | Cards | Cycle | Map, picture: Picture) -> None:
    """A drawn section's parts have keys unique in it, a map's borders join its regions, and
    the tables it replaces are in the picture (so the table view shows what it drew)."""
    if isinstance(section, Board):
        keys = [t.key for t in section.tiles]
    elif isinstance(section, Cards):
        keys = [z.key for z in section.zones]
        for zone in section.zones:
            assert len({c.key for c in zone.cards}) == len(zone.cards), (section.id, zone.key)
            assert zone.backs >= 0 and (zone.size is None or zone.size >= 0)
    elif isinstance(section, Cycle):
        keys = [s.key for s in section.spaces]
    else:
        keys = [n.key for n in section.nodes]
        assert all(a in keys and b in keys for a, b in section.edges), section.id
    assert len(set(keys)) == len(keys), section.id
    tables = {t.id for t in picture.sections if isinstance(t, Table)}
    assert set(getattr(section, "replaces", ())) <= tables, section.id


def _seat_row(picture: Picture, seat: str) -> tuple[str, ...]:
    table = next(s for s in picture.sections if isinstance(s, Table) and s.id == "players")
    return next(r for r in table.rows if r.key == seat).cells


def _seat_cards(picture: Picture, seat: str) -> Cards:
    return next(s for s in picture.sections if isinstance(s, Cards) and s.seat == seat)


def test_dominion_shows_a_seat_its_own_hand_and_only_the_size_of_others() -> None:
    ruleset = next(r for r in RULESETS if r.meta.id == "dominion")
    config, states = _play(ruleset, 2, 40)
    state = states[-1]
    names = _names(config)
    me, other = config.seats[0].id, config.seats[1].id
    view = ruleset.view(state, Viewer("seat", me))
    picture = picture_of("dominion", view, names)
    hand = view["players"][me]["hand"]
    assert hand and all(card in _seat_row(picture, me)[1] for card in hand)
    assert _seat_row(picture, other)[1] == f"{view['players'][other]['hand_count']} cards"
    public = picture_of("dominion", ruleset.view(state, PUBLIC), names)
    for seat in (me, other):
        assert _seat_row(public, seat)[1].endswith(" cards")
    # drawn as cards: my hand face up, the other's only as many backs
    mine, theirs = (
        next(z for z in s.zones if z.key == "hand")
        for s in (_seat_cards(picture, me), _seat_cards(picture, other))
    )
    assert [c.name for c in mine.cards] == hand and mine.backs == 0
    assert theirs.cards == () and theirs.backs == view["players"][other]["hand_count"]
    # the omniscient picture lists the other hand, so the public one really leaves it out
    everything = picture_of("dominion", ruleset.view(state, OMNISCIENT), names)
    assert _seat_row(everything, other)[1] != _seat_row(public, other)[1]


def test_dominations_hides_other_players_hands() -> None:
    ruleset = next(r for r in RULESETS if r.meta.id == "dominations")
    config, states = _play(ruleset, 3, 30)
    names = _names(config)
    me = config.seats[0].id
    picture = picture_of("dominations", ruleset.view(states[-1], Viewer("seat", me)), names)
    for seat in (s.id for s in config.seats):
        land = _seat_row(picture, seat)[4]
        assert land.endswith("hidden") == (seat != me), (seat, land)


def test_province_marks_the_first_builder_and_the_goal_row() -> None:
    ruleset = next(r for r in RULESETS if r.meta.id == "province")
    config, states = _play(ruleset, 4, 60)
    names = _names(config)
    view = ruleset.view(states[-1], PUBLIC)
    picture = picture_of("province", view, names)
    for seat, player in view["players"].items():
        for building in player["first"]:
            assert f"{building}*" in _seat_row(picture, seat)[3]
    facts = dict(picture.facts)
    assert facts["Goals face down"] == str(view["goals"]["hidden_count"])
    assert "Face-down order" not in facts  # only the omniscient view lists the face-down goals
    omniscient = dict(picture_of("province", ruleset.view(states[-1], OMNISCIENT), names).facts)
    assert ("Face-down order" in omniscient) == bool(
        ruleset.view(states[-1], OMNISCIENT)["goals"].get("hidden")
    )


def test_a_picture_draws_nothing_but_its_view() -> None:
    """Two different states with one view give one picture: the painter reads the view only."""
    ruleset = next(r for r in RULESETS if r.meta.id == "dominion")
    config, states = _play(ruleset, 5, 30)
    view = ruleset.view(states[-1], PUBLIC)
    copied = msgspec.json.decode(msgspec.json.encode(view))
    assert picture_of("dominion", view, _names(config)) == picture_of("dominion", copied, _names(config))


def test_changes_name_the_cells_a_step_changed() -> None:
    ruleset = next(r for r in RULESETS if r.meta.id == "province")
    config, states = _play(ruleset, 6, 10)
    names = _names(config)
    pictures = [picture_of("province", ruleset.view(s, PUBLIC), names) for s in states]
    assert changes(None, pictures[0]) == set()
    assert changes(pictures[0], pictures[0]) == set()
    found = {key for a, b in itertools.pairwise(pictures) for key in changes(a, b)}
    assert any(key.startswith("players/") for key in found)
    assert any(key.startswith("board/") for key in found)


def test_dominion_deck_and_discard_sizes_follow_the_table_rule_and_never_show_cards() -> None:
    """dominion.md 6.5: a seat counts its own deck and discard; another seat's sizes are shown
    only under `open_counts` (8.20). Whatever the rule, nobody but the owner is shown a card of
    those piles beyond the discard pile's top card, which is public."""
    from tests.unit.dominion.scenarios import table

    ruleset = next(r for r in RULESETS if r.meta.id == "dominion")
    names = {"p1": "Ann", "p2": "Ben"}
    zones = {
        "p2": {
            "hand": ["Copper"],
            "deck": ["Witch", "Mine", "Gold"],
            "discard": ["Moat", "Smithy", "Market", "Village"],
        }
    }
    secret = ("Witch", "Mine", "Gold", "Moat", "Smithy", "Market")  # "Village" is the discard's top
    deck, discard, top = 3, 4, 5  # the players table's columns
    for open_counts in (False, True):
        state = table(zones=zones, open_counts=open_counts).state
        for viewer in (PUBLIC, Viewer("seat", "p1")):
            picture = picture_of("dominion", ruleset.view(state, viewer), names)
            row = _seat_row(picture, "p2")
            shown = (row[deck], row[discard])
            assert shown == (("3", "4") if open_counts else ("?", "?")), (viewer, open_counts)
            assert row[top] == "Village"
            players = next(s for s in picture.sections if isinstance(s, Table) and s.id == "players")
            drawn = " ".join(" ".join(r.cells) for r in players.rows)  # the supply names cards too
            assert not [card for card in secret if card in drawn], (viewer, open_counts)
        own = picture_of("dominion", ruleset.view(state, Viewer("seat", "p2")), names)
        assert (_seat_row(own, "p2")[deck], _seat_row(own, "p2")[discard]) == ("3", "4")
