"""Unseen cards at a physical table (dominion.md 6.4): `?` for a card the recorder did not see,
kept as such, resolved when the table sees it, and refused where no assignment of the unseen
cards explains an entry."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion.actions import ObserveCards, SelectCards
from domain.games.dominion.events import GameEnded, Identified, Observed
from domain.games.dominion.state import UNSEEN, State
from domain.games.dominion.stats import per_game
from domain.ruleset import OMNISCIENT, PUBLIC, Command, Rejection, Viewer
from tests.unit.dominion.scenarios import Game, config, table
from tests.unit.dominion.unseen_table import record

KINGDOM = "kingdom Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop"


def _started() -> Game:
    """p1 starts; the table sees p1's cards and none of p2's."""
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    game.do(None, "observe Copper, Copper, Copper, Estate, Estate")
    game.do(None, "observe ?, ?, ?, ?, ?")
    return game


@pytest.mark.parametrize(("seed", "hidden"), [(0, ("p2",)), (1, ("p2",)), (4, ("p1", "p2"))])
def test_a_whole_game_recorded_with_unseen_cards_ends_with_the_scores_of_the_game_played(
    seed: int, hidden: tuple[str, ...]
) -> None:
    recorded = record(seed, hidden)
    truth, table = recorded.truth.state, recorded.table.state
    assert truth.status == table.status == "over"
    assert table.result == truth.result
    entered = [f for f in recorded.table.facts if isinstance(f, Observed)]
    seats = {f.player for f in entered if UNSEEN in f.cards}
    assert seats == set(hidden)
    # Every card of a hidden seat was entered unseen: none by name.
    assert all(set(f.cards) == {UNSEEN} for f in entered if f.player in hidden)
    # The final count scores what each player has, wherever the unseen cards were.
    for p, pl in enumerate(table.players):
        assert Counter(pl.owned()) == Counter(truth.players[p].owned())


def test_unseen_cards_stay_unseen_until_played_and_a_played_card_is_named_from_them() -> None:
    game = _started()
    p2 = game.player("p2")
    assert p2.hand == (UNSEEN,) * 5 and sorted(p2.pool) == ["Copper"] * 7 + ["Estate"] * 3
    for action in ("end", "play treasures Copper, Copper, Copper", "buy Silver", "end"):
        game.do("p1", action)
    game.do(None, "observe Copper, Copper, Copper, Copper, Estate")
    game.do("p2", "end")
    game.do("p2", "play treasures Copper, Copper, Copper, Copper")
    p2 = game.player("p2")
    assert p2.play == ("Copper",) * 4 and p2.hand == (UNSEEN,)
    assert sorted(p2.pool) == ["Copper"] * 3 + ["Estate"] * 3
    assert any(isinstance(f, Identified) and f.cards == ("Copper",) * 4 for f in game.facts)


def test_an_entry_no_assignment_of_the_unseen_cards_explains_is_refused_with_the_rule() -> None:
    game = _started()
    for action in ("end", "play treasures Copper, Copper, Copper", "buy Silver", "end"):
        game.do("p1", action)
    game.do(None, "observe Copper, Copper, Copper, Copper, Estate")
    game.do("p2", "end")
    gold = game.refused("p2", "play treasures Copper, Gold")
    assert gold.code == "not_in_hand" and gold.rule == "dominion 4.2"
    assert "Copper, Estate" in gold.message
    game.do("p2", "play treasures Copper, Copper, Copper, Copper, Copper")
    # Five Coppers of seven are in play: only 2 Coppers and 3 Estates are left unseen.
    sixth = game.refused("p2", "play treasures Copper")
    assert sixth.code == "treasures_closed" or sixth.code == "not_in_hand"
    game.do("p2", "buy Silver")
    game.do("p2", "end")
    rejection = game.refused(None, "observe Copper, Copper, Copper")
    assert rejection.code == "card_not_in_deck" and rejection.rule == "dominion 6.4"
    assert "No Copper" in rejection.message and "unseen" in rejection.message
    game.do(None, "observe Copper, Estate, ?, ?, ?")
    assert sorted(game.player("p2").hand) == [UNSEEN] * 3 + ["Copper", "Estate"]
    assert sorted(game.player("p2").pool) == ["Copper", "Estate", "Estate"]


def test_the_draw_prompt_says_how_many_cards_the_step_takes_and_naming_more_is_refused() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    prompt = RULESET.pending(game.state)[0]
    assert prompt.bounds["max"] == 5 and prompt.bounds["unseen_allowed"] is True
    assert "next 5 cards" in prompt.text
    too_many = game.refused(None, "observe Copper, Copper, Copper, Copper, Estate, Estate")
    assert too_many.code == "too_many_cards" and too_many.rule == "dominion 6.4"
    assert "takes 5 cards" in too_many.message
    game.do(None, "observe Copper, Copper")
    assert RULESET.pending(game.state)[0].bounds["max"] == 3
    # Nobody but the recorder learns how many cards the step takes from a deck.
    public = RULESET.redact_prompt(RULESET.pending(game.state)[0], game.state, PUBLIC)
    assert "max" not in public.bounds and "3" not in public.text


def test_json_null_is_a_card_not_seen() -> None:
    game = Game(config(2, mode="physical"))
    game.do(None, KINGDOM)
    game.do(None, "first p1")
    action = RULESET.codec.decode_action({"kind": "observe_cards", "cards": [None, "Copper", None]})
    game.do(None, action)
    assert game.player("p1").hand == (UNSEEN, "Copper", UNSEEN)


def test_a_hidden_discard_may_be_entered_unseen_but_a_trashed_card_must_be_named() -> None:
    game = _started()
    for action in ("end", "play treasures Copper, Copper, Copper", "buy Silver", "end"):
        game.do("p1", action)
    game.do(None, "observe Copper, Copper, Copper, Copper, Estate")
    state = game.state
    # p2 holds Militia's victim's five unseen cards; p1 plays a Militia (set up directly).
    p1 = replace(state.players[0], hand=("Militia", *state.players[0].hand[1:]))
    game.state = replace(state, players=(p1, state.players[1]), current=0, phase="action", actions=1)
    game.do("p1", "play Militia")
    assert game.prompts() == [("p2", "discard")]  # p2 owns no Moat: not asked to react
    assert game.refused("p2", SelectCards("discard", ("Gold", UNSEEN))).code == "not_a_candidate"
    game.do("p2", SelectCards("discard", (UNSEEN, "Estate")))
    p2 = game.player("p2")
    assert p2.discard[-2:] == (UNSEEN, "Estate") and p2.hand == (UNSEEN,) * 3
    # p2's turn with a Remodel among its unseen cards: the trashed card is seen, so named.
    state = game.state
    p2 = replace(p2, hand=("Remodel", *p2.hand[1:]), pool=p2.pool[1:])
    game.state = replace(state, players=(state.players[0], p2), current=1, phase="action", actions=1)
    game.do("p2", "play Remodel")
    unseen = game.refused("p2", SelectCards("trash", (UNSEEN,)))
    assert unseen.code == "card_must_be_named" and unseen.rule == "dominion 6.5"
    game.do("p2", "trash Estate")
    assert game.state.trash[-1] == "Estate" and game.player("p2").hand == (UNSEEN,) * 1


def test_a_revealed_hand_is_named_by_the_table_first() -> None:
    game = Game(config(2, mode="physical", expansions="base,empires", kingdom="manual"))
    game.do(
        None,
        "kingdom City Quarter, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop",
    )
    game.do(None, "first p1")
    game.do(None, "observe ?, ?, ?, ?, ?")
    game.do(None, "observe ?, ?, ?, ?, ?")
    state = game.state
    p1 = state.players[0]
    # Seven cards unseen (two in hand, five in the deck): five Coppers, an Estate, a Village.
    p1 = replace(p1, hand=("City Quarter", UNSEEN, UNSEEN), pool=("Copper",) * 5 + ("Estate", "Village"))
    game.state = replace(state, players=(p1, state.players[1]))
    game.do("p1", "play City Quarter")
    assert game.prompts() == [(None, "identify")]
    prompt = RULESET.pending(game.state)[0]
    assert prompt.bounds["max"] == 2 and prompt.bounds["unseen_allowed"] is False
    assert game.refused(None, ObserveCards((UNSEEN, "Copper"))).code == "card_must_be_named"
    gold = game.refused(None, "observe Gold, Copper")
    assert gold.code == "card_not_unseen" and gold.rule == "dominion 6.4"
    game.do(None, "observe Village, Copper")
    assert any("reveals" in line and "Village" in line for line in game.lines())
    assert game.prompts() == [(None, "observe")]  # City Quarter draws 1 for the Village
    # Other seats see that the table named unseen cards, not which.
    seen = [RULESET.redact(f, Viewer("seat", "p2")) for f in game.facts if isinstance(f, Identified)]
    assert seen and all(isinstance(f, Identified) and f.cards == () and f.count == 2 for f in seen)


def test_a_game_with_unseen_cards_replays_from_its_facts() -> None:
    recorded = record(2)
    state = RULESET.initial(recorded.table.config)
    for fact in recorded.table.facts:
        state = RULESET.evolve(state, fact)
    assert state == recorded.table.state
    assert isinstance(recorded.table.facts[-1], GameEnded)


def test_statistics_of_a_game_with_unseen_cards_equal_those_of_the_game_played() -> None:
    """Every gain and trash is public, so the cards each player has are known exactly: the
    figures followed turn by turn and the kingdom card table need no "at least"."""
    recorded = record(0)
    truth, table = recorded.truth, recorded.table
    outcome = RULESET.outcome(truth.state)
    assert per_game(table.config, table.facts, outcome) == per_game(truth.config, truth.facts, outcome)
    assert RULESET.metrics(table.state) == RULESET.metrics(truth.state)


def test_views_show_unseen_cards_as_such_and_their_names_only_to_the_recorder_and_the_owner() -> None:
    game = _started()
    omniscient = RULESET.view(game.state, OMNISCIENT)["players"]["p2"]
    assert omniscient["hand"] == [UNSEEN] * 5
    assert sorted(omniscient["unseen"]) == ["Copper"] * 7 + ["Estate"] * 3
    own = RULESET.view(game.state, Viewer("seat", "p2"))["players"]["p2"]
    assert own["hand"] == [UNSEEN] * 5 and "unseen" in own
    other = RULESET.view(game.state, Viewer("seat", "p1"))["players"]["p2"]
    assert other["hand_count"] == 5 and "hand" not in other and "unseen" not in other


def _one_name_per_unseen_card(state: State) -> None:
    for pl in state.players:
        kept = tuple(c for record in pl.lasting for s in record.sets for c in s)
        zones = pl.deck + pl.unknown + pl.hand + pl.discard + kept
        assert zones.count(UNSEEN) == len(pl.pool)
        assert UNSEEN not in pl.play + pl.aside + pl.camp  # cards in sight are named


@pytest.mark.parametrize(
    "options",
    [{"kingdom": "interaction"}, {"kingdom": "advanced_intro", "expansions": "base,empires"}],
)
def test_a_game_with_every_card_of_a_seat_unseen_plays_on_every_legal_answer(options: dict[str, str]) -> None:
    """The bot plays a physical game whose recorder enters `?` for each card p2 draws or sets
    aside; every legal answer listed on the way is accepted, each `?` keeps one name in the
    pool, and the facts replay to the same state."""
    game = Game(config(2, mode="physical", game_id="unseen-fuzz", **options))
    bot = random.Random(7)
    for step in range(3000):
        state = game.state
        if state.status == "over":
            break
        prompt = bot.choice(RULESET.pending(state))
        legal = RULESET.legal_actions(state, prompt.seat)
        hidden = [
            d for d in state.prompts if d.kind == "observe" and d.target == 1 and d.purpose == "observe"
        ]
        if hidden and hidden[0].verb in ("draw", "aside"):
            action: Any = ObserveCards((UNSEEN,) * hidden[0].hi)
        else:
            action = RULESET.bot_choose(state, prompt.seat, legal, bot.randrange)
        if step % 9 == 0:
            for other in legal:
                outcome = RULESET.decide(state, Command(other, prompt.seat, "recorder"), game.rng)
                assert not isinstance(outcome, Rejection), f"legal {other} refused: {outcome}"
        game.do(prompt.seat, action, by="recorder")
        _one_name_per_unseen_card(game.state)
    assert game.state.status == "over"
    assert sum(f.cards.count(UNSEEN) for f in game.facts if isinstance(f, Observed)) > 50
    replayed = RULESET.initial(game.config)
    for fact in game.facts:
        replayed = RULESET.evolve(replayed, fact)
    assert replayed == game.state


TEN = ["Village", "Smithy", "Market", "Moat", "Cellar", "Chapel", "Witch", "Festival", "Militia"]


def _physical(**kwargs: Any) -> Game:
    game = table(**kwargs)
    game.state = replace(game.state, mode="physical")
    return game


def test_archive_sets_aside_cards_only_its_player_looks_at_entered_unseen() -> None:
    game = _physical(
        kingdom=["Archive", *TEN],
        zones={
            "p1": {
                "hand": ["Archive"],
                "deck": [],
                "unknown": ["?"] * 4,
                "pool": ["Copper", "Estate", "Gold", "Silver"],
            }
        },
    )
    game.do("p1", "play Archive")
    prompt = RULESET.pending(game.state)[0]
    assert prompt.kind == "observe" and prompt.bounds["unseen_allowed"] is True
    game.do(None, "observe ?, ?, ?")
    assert game.player("p1").lasting[0].sets == ((UNSEEN,) * 3,)


def test_annex_keeps_cards_of_the_discard_pile_the_table_never_saw() -> None:
    game = _physical(
        kingdom=[*TEN, "Library"],
        landscapes=["Annex"],
        phase="buy",
        coins=0,
        zones={
            "p1": {
                "hand": [],
                "deck": [],
                "unknown": [],
                "discard": ["?", "?", "Gold"],
                "pool": ["Copper", "Estate"],
            }
        },
    )
    game.do("p1", "buy Annex")
    game.do("p1", "keep ?, Gold")
    p1 = game.player("p1")  # the rest shuffled into the deck; Annex gains a Duchy
    assert Counter(p1.discard) == Counter({UNSEEN: 1, "Gold": 1, "Duchy": 1})
    assert len(p1.deck) + len(p1.unknown) == 1
