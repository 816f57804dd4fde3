"""Each Dominion secret, per viewer (dominion.md 6.5): what a seat's view, a fact, an action's
notation and a prompt show to the public, to the owner, to another seat and to the omniscient
viewer. States are set up directly (zones, open decisions) so that each rule of the view is
pinned by an exact value, not by a playout that happens to reach it."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion import events as ev
from domain.games.dominion.actions import EndPhase, ObserveCards, SelectCards
from domain.games.dominion.state import RECORDER, Decision, Lasting, State
from domain.ruleset import OMNISCIENT, PUBLIC, Prompt, Viewer
from tests.unit.dominion.scenarios import Game, config, table

P1 = Viewer("seat", "p1")
P2 = Viewer("seat", "p2")
VIEWERS = (PUBLIC, P1, P2, OMNISCIENT)


def _zones(**options: Any) -> State:
    game = table(
        zones={
            "p1": {
                "hand": ["Village", "Copper", "Estate"],
                "deck": ["Gold", "Smithy"],
                "unknown": ["?"],
                "discard": ["Silver", "Curse", "Duchy"],
                "play": ["Market"],
                "aside": ["Library"],
                "camp": ["Encampment"],
                "pool": ["Province"],
                "looking": ["Moat", "Cellar"],
                "vp": 3,
                "debt": 2,
                "turns": 4,
            },
        },
        **options,
    )
    archive = Lasting("Archive", 3, links=("Throne Room",), sets=(("Gold", "Witch"),))
    players = list(game.state.players)
    players[0] = replace(players[0], lasting=(archive,))
    return replace(game.state, players=tuple(players))


def _p1(viewer: Viewer, **options: Any) -> dict[str, Any]:
    shown: dict[str, Any] = RULESET.view(_zones(**options), viewer)["players"]["p1"]
    return shown


PUBLIC_P1 = {
    "hand_count": 3,
    "discard_top": "Duchy",
    "in_play": ["Market"],
    "set_aside": ["Library", "Encampment"],
    "vp_tokens": 3,
    "debt": 2,
    "turns": 4,
    "durations": [{"card": "Archive", "links": ["Throne Room"], "turn": 3, "set_sizes": [2]}],
}
OWNER_P1 = PUBLIC_P1 | {
    "durations": [
        {
            "card": "Archive",
            "links": ["Throne Room"],
            "turn": 3,
            "set_sizes": [2],
            "sets": [["Gold", "Witch"]],
        }
    ],
    "hand": ["Copper", "Estate", "Village"],
    "unseen": ["Province"],
    "discard": ["Curse", "Duchy", "Silver"],
    "looking": ["Cellar", "Moat"],
    "deck_count": 3,
    "discard_count": 3,
}


@pytest.mark.parametrize("viewer", [PUBLIC, P2])
def test_another_seat_and_the_public_see_a_player_s_public_zones_only(viewer: Viewer) -> None:
    assert _p1(viewer) == PUBLIC_P1


def test_the_owner_sees_its_hand_its_archive_its_looked_cards_and_its_discard_as_a_set() -> None:
    assert _p1(P1) == OWNER_P1


def test_the_omniscient_viewer_sees_the_deck_in_order_and_the_discard_in_its_order() -> None:
    assert _p1(OMNISCIENT) == OWNER_P1 | {
        "discard": ["Silver", "Curse", "Duchy"],
        "deck": ["Gold", "Smithy"],
        "deck_unknown": ["?"],
    }


@pytest.mark.parametrize("viewer", [PUBLIC, P2])
def test_open_counts_shows_every_deck_and_discard_size_and_no_card(viewer: Viewer) -> None:
    assert _p1(viewer, open_counts=True) == PUBLIC_P1 | {"deck_count": 3, "discard_count": 3}


def test_an_empty_discard_pile_has_no_top_card_and_nothing_unseen_or_looked_at_is_listed() -> None:
    state = table(zones={"p2": {"hand": ["Copper"], "deck": [], "discard": []}}).state
    shown = RULESET.view(state, P2)["players"]["p2"]
    assert shown["discard_top"] is None
    assert shown["deck_count"] == 0 and shown["discard_count"] == 0
    assert "unseen" not in shown and "looking" not in shown
    assert RULESET.view(state, PUBLIC)["players"]["p2"]["durations"] == []


def test_a_finished_game_is_the_omniscient_view_for_everyone() -> None:
    state = replace(_zones(), status="over")
    omniscient = RULESET.view(state, OMNISCIENT)
    for viewer in (PUBLIC, P2):
        assert RULESET.view(state, viewer) == omniscient
    assert omniscient["players"]["p1"]["deck"] == ["Gold", "Smithy"]


def test_the_table_s_public_figures() -> None:
    game = table(phase="buy", coins=5, buys=2, actions=0)
    state = replace(
        game.state,
        pile_vp={"Archive": 4, "Village": 0},
        pile_debt={"Archive": 0, "Copper": 1},
        enchantments=((0, (1, 0)), (1, (1,))),
        gained=("Silver",),
    )
    shown = RULESET.view(state, PUBLIC)
    assert shown["pile_vp"] == {"Archive": 4}
    assert shown["pile_debt"] == {"Copper": 1}
    assert shown["enchanted"] == ["p1", "p2"]
    assert (shown["current"], shown["phase"], shown["actions"], shown["buys"], shown["coins"]) == (
        "p1",
        "buy",
        0,
        2,
        5,
    )
    assert shown["first_player"] == "p1" and shown["gained_this_turn"] == ["Silver"]
    assert shown["supply"]["Province"] == len(state.supply["Province"])
    assert shown["supply_top"]["Province"] == "Province"
    emptied = replace(state, supply=state.supply | {"Province": ()}, status="setup")
    shown = RULESET.view(emptied, PUBLIC)
    assert shown["supply_top"]["Province"] is None and shown["supply"]["Province"] == 0
    assert shown["first_player"] is None and shown["current"] is None


def _with_prompts(*prompts: Decision, **options: Any) -> State:
    return replace(table(**options).state, prompts=prompts)


ARCHIVE = Decision(0, "select", "archive_take", source="Archive", lo=1, hi=1, cards=("Gold", "Witch"))


@pytest.mark.parametrize(
    ("viewer", "cards"), [(PUBLIC, []), (P2, []), (P1, ["Gold", "Witch"]), (OMNISCIENT, ["Gold", "Witch"])]
)
def test_a_private_decision_lists_its_cards_to_its_player_alone(viewer: Viewer, cards: list[str]) -> None:
    (shown,) = RULESET.view(_with_prompts(ARCHIVE), viewer)["decisions"]
    assert shown["seat"] == "p1" and shown["purpose"] == "archive_take"
    assert list(shown.get("cards", ())) == cards


def test_a_decision_of_the_second_seat_is_that_seat_s_to_see() -> None:
    decision = replace(ARCHIVE, p=1)
    assert list(RULESET.view(_with_prompts(decision), P2)["decisions"][0]["cards"]) == ["Gold", "Witch"]
    assert "cards" not in RULESET.view(_with_prompts(decision), P1)["decisions"][0]


def test_a_private_decision_of_the_table_lists_nothing_to_a_seat() -> None:
    """The recorder's own decisions name no seat: even the last seat (index -1) sees none of
    their cards; the omniscient viewer sees them all."""
    decision = replace(ARCHIVE, p=RECORDER)
    (shown,) = RULESET.view(_with_prompts(decision), P2)["decisions"]
    assert shown["seat"] is None and "cards" not in shown
    (whole,) = RULESET.view(_with_prompts(decision), OMNISCIENT)["decisions"]
    assert list(whole["cards"]) == ["Gold", "Witch"]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_a_decision_from_public_cards_lists_them_to_everyone(viewer: Viewer) -> None:
    decision = Decision(1, "select", "thief_trash", source="Thief", lo=1, hi=1, cards=("Gold", "Silver"))
    (shown,) = RULESET.view(_with_prompts(decision), viewer)["decisions"]
    assert shown["seat"] == "p2" and list(shown["cards"]) == ["Gold", "Silver"]


def _stack(*prompts: Decision) -> ev.StackSaved:
    return ev.StackSaved(frames=(), prompts=prompts)


def test_a_saved_stack_keeps_private_cards_for_their_player() -> None:
    public = replace(ARCHIVE, purpose="sentry_trash", p=1, cards=("Copper",))
    mine = ARCHIVE
    stack = _stack(mine, public, Decision(0, "select", "remodel", cards=("Estate",)))
    assert RULESET.redact(stack, OMNISCIENT) is stack
    assert RULESET.redact(stack, P1) == _stack(mine, replace(public, cards=()), stack.prompts[2])
    assert RULESET.redact(stack, P2) == _stack(replace(mine, cards=()), public, stack.prompts[2])
    assert RULESET.redact(stack, PUBLIC) == _stack(
        replace(mine, cards=()), replace(public, cards=()), stack.prompts[2]
    )
    table_ = _stack(replace(ARCHIVE, p=RECORDER))
    assert RULESET.redact(table_, Viewer("seat", "p6")) == _stack(replace(ARCHIVE, p=RECORDER, cards=()))
    plain = _stack(Decision(0, "select", "remodel", cards=("Estate",)))
    assert RULESET.redact(plain, PUBLIC) is plain


def test_a_shuffle_loses_its_order_for_everyone_but_the_omniscient_viewer() -> None:
    shuffled = ev.Shuffled("p1", 2, order=("Gold", "Copper"), stream="deck:p1", n=0)
    for viewer in (PUBLIC, P1, P2):
        assert RULESET.redact(shuffled, viewer) == replace(shuffled, order=None)
    assert RULESET.redact(shuffled, OMNISCIENT) is shuffled
    physical = ev.Shuffled("p1", 2)
    assert RULESET.redact(physical, PUBLIC) is physical


def test_annex_keeps_its_cards_secret_from_everyone_but_their_owner() -> None:
    reshuffled = ev.Reshuffled(
        "p1", "discard", 5, kept=("Gold",), order=("Copper",) * 5, stream="deck:p1", n=1
    )
    assert RULESET.redact(reshuffled, P1) == replace(reshuffled, order=None)
    for viewer in (PUBLIC, P2):
        assert RULESET.redact(reshuffled, viewer) == replace(reshuffled, order=None, kept=())
    assert RULESET.redact(reshuffled, OMNISCIENT) is reshuffled


@pytest.mark.parametrize(
    "fact",
    [
        ev.Drew("p1", ("Gold", "Copper"), 2),
        ev.Observed("p1", ("Gold",), 1),
        ev.ArchiveFilled("p1", ("Gold", "Witch"), 2),
        ev.Topdecked("p1", ("Estate",), 1),
        ev.Identified("p1", "hand", ("Copper",), 1),
        ev.Looked("p1", ("Moat", "Cellar"), 2),
    ],
    ids=lambda f: type(f).__name__,
)
def test_cards_taken_unseen_show_only_their_count_to_others(fact: Any) -> None:
    assert RULESET.redact(fact, P1) is fact and RULESET.redact(fact, OMNISCIENT) is fact
    for viewer in (PUBLIC, P2):
        assert RULESET.redact(fact, viewer) == replace(fact, cards=())


def test_the_card_taken_from_an_archive_is_its_owner_s() -> None:
    taken = ev.ArchiveTaken("p2", "Witch", 0, 1)
    assert RULESET.redact(taken, P2) is taken
    for viewer in (PUBLIC, P1):
        assert RULESET.redact(taken, viewer) == replace(taken, card="")


def test_a_discard_from_the_hand_shows_its_count_and_top_card_unless_it_was_public() -> None:
    hidden = ev.Discarded("p1", ("Estate", "Copper"), "hand", 2, top="Copper")
    shown = ev.Discarded("p1", ("Estate",), "deck", 1, top="Estate", public=True)
    assert RULESET.redact(hidden, P1) is hidden
    for viewer in (PUBLIC, P2):
        assert RULESET.redact(hidden, viewer) == replace(hidden, cards=())
        assert RULESET.redact(shown, viewer) is shown


def test_clean_up_hides_the_discarded_hand_unless_it_was_public() -> None:
    cleaned = ev.CleanedUp("p2", ("Market",), ("Estate", "Curse"), 3, top="Curse")
    public = replace(cleaned, public=True)
    assert RULESET.redact(cleaned, P2) is cleaned
    for viewer in (PUBLIC, P1):
        assert RULESET.redact(cleaned, viewer) == replace(cleaned, hand=())
        assert RULESET.redact(public, viewer) is public


OBSERVE = Decision(RECORDER, "observe", "observe", verb="draw", lo=1, hi=3, target=0)


@pytest.mark.parametrize(("viewer", "hidden"), [(PUBLIC, True), (P2, True), (P1, False), (OMNISCIENT, False)])
def test_the_recorder_s_entry_of_a_seat_s_draw_shows_others_only_how_many(
    viewer: Viewer, hidden: bool
) -> None:
    state = _with_prompts(Decision(1, "react", "react", source="Militia"), OBSERVE, mode="physical")
    entered = ObserveCards(("Gold", None, "Copper"))
    shown = RULESET.redact_action(entered, None, state, viewer)
    assert shown == (ObserveCards(("?", "?", "?")) if hidden else entered)


def test_an_entry_for_the_second_seat_s_deck_is_shown_to_that_seat() -> None:
    state = _with_prompts(replace(OBSERVE, target=1), mode="physical")
    entered = ObserveCards(("Gold",))
    assert RULESET.redact_action(entered, None, state, P2) == entered
    assert RULESET.redact_action(entered, None, state, P1) == ObserveCards(("?",))


def test_an_entry_with_no_open_observation_is_shown_as_it_is() -> None:
    state = _with_prompts(Decision(0, "select", "remodel"), mode="physical")
    entered = ObserveCards(("Gold",))
    assert RULESET.redact_action(entered, None, state, PUBLIC) == entered
    assert RULESET.redact_action(entered, None, table(mode="physical").state, PUBLIC) == entered


def _select(purpose: str, p: int = 1) -> Decision:
    return Decision(p, "select", purpose, lo=0, hi=4)


@pytest.mark.parametrize(
    ("purpose", "shown"),
    [
        ("cellar", ("?", "?", "Copper")),
        ("discard", ("?", "?", "Copper")),
        ("haunted", ("?", "?", "?")),
        ("annex", ("?", "?", "?")),
        ("archive", ("?", "?", "?")),
        ("archive_take", ("?", "?", "?")),
        ("trash", ("Estate", "Curse", "Copper")),
    ],
)
def test_a_hidden_selection_names_to_others_what_its_facts_show(purpose: str, shown: tuple[str, ...]) -> None:
    state = _with_prompts(_select("remodel", 0), _select(purpose))
    chosen = SelectCards("discard", ("Estate", "Curse", "Copper"))
    for viewer in (PUBLIC, P1):
        assert RULESET.redact_action(chosen, "p2", state, viewer) == replace(chosen, cards=shown)
    assert RULESET.redact_action(chosen, "p2", state, P2) == chosen
    assert RULESET.redact_action(chosen, "p2", state, OMNISCIENT) == chosen


def test_a_selection_names_unseen_cards_as_unseen() -> None:
    state = _with_prompts(_select("haunted"), mode="physical")
    chosen = SelectCards("topdeck", (None, "Gold"))
    assert RULESET.redact_action(chosen, "p2", state, PUBLIC) == replace(chosen, cards=("?", "?"))


def test_with_all_discards_public_a_discard_is_named_but_a_topdeck_stays_hidden() -> None:
    chosen = SelectCards("discard", ("Estate", "Copper"))
    discard = _with_prompts(_select("cellar"), all_discards_public=True)
    assert RULESET.redact_action(chosen, "p2", discard, PUBLIC) == chosen
    topdeck = _with_prompts(_select("haunted"), all_discards_public=True)
    assert RULESET.redact_action(chosen, "p2", topdeck, PUBLIC) == replace(chosen, cards=("?", "?"))


def test_a_selection_is_judged_by_its_own_seat_s_decision() -> None:
    """The second seat's Militia discard is hidden; the first seat's Chapel trash beside it is
    not, even though a hidden selection is open at the same time."""
    state = _with_prompts(_select("trash", 0), _select("discard"))
    trashed = SelectCards("trash", ("Estate", "Copper"))
    assert RULESET.redact_action(trashed, "p1", state, P2) == trashed
    assert RULESET.redact_action(trashed, "p1", state, PUBLIC) == trashed


def test_a_selection_with_nothing_to_hide_is_shown_as_it_is() -> None:
    state = _with_prompts(_select("cellar"))
    empty = SelectCards("discard", ())
    assert RULESET.redact_action(empty, "p2", state, PUBLIC) == empty
    chosen = SelectCards("discard", ("Estate",))
    assert RULESET.redact_action(chosen, None, state, PUBLIC) == chosen
    assert RULESET.redact_action(chosen, "p9", state, PUBLIC) == chosen
    assert RULESET.redact_action(chosen, "p2", table().state, PUBLIC) == chosen
    assert RULESET.redact_action(EndPhase(), "p2", state, PUBLIC) == EndPhase()
    asked = _with_prompts(Decision(1, "choose", "discard"))
    assert RULESET.redact_action(chosen, "p2", asked, PUBLIC) == chosen


OBSERVE_PROMPT = Prompt(
    None,
    "observe",
    "Enter the next 3 cards of Ann's deck (draw, ? for a card not seen).",
    ("observe",),
    {"player": "Ann", "min": 1, "max": 3, "verb": "draw", "unseen_allowed": True},
)
IDENTIFY_PROMPT = Prompt(
    None,
    "identify",
    "Name the 2 unseen cards in the hand of Bob the table sees (reveal).",
    ("observe",),
    {"player": "Bob", "min": 2, "max": 2, "verb": "reveal", "zone": "hand"},
)


@pytest.mark.parametrize("viewer", [PUBLIC, P1, P2])
def test_a_table_prompt_tells_nobody_how_many_cards_a_deck_still_hides(viewer: Viewer) -> None:
    state = table(mode="physical").state
    assert RULESET.redact_prompt(OBSERVE_PROMPT, state, viewer) == replace(
        OBSERVE_PROMPT,
        text="Enter the next card(s) of Ann's deck.",
        bounds={"player": "Ann", "verb": "draw", "unseen_allowed": True},
    )
    assert RULESET.redact_prompt(IDENTIFY_PROMPT, state, viewer) == replace(
        IDENTIFY_PROMPT,
        text="Name the unseen cards of Bob the table now sees.",
        bounds={"player": "Bob", "verb": "reveal", "zone": "hand"},
    )


def test_the_recorder_reads_a_table_prompt_whole_and_seats_read_their_own_prompts_whole() -> None:
    state = table(mode="physical").state
    assert RULESET.redact_prompt(OBSERVE_PROMPT, state, OMNISCIENT) is OBSERVE_PROMPT
    select = Prompt("p1", "select", "Trash up to 4 cards (Chapel).", ("select_cards",), {"min": 0, "max": 4})
    assert RULESET.redact_prompt(select, state, PUBLIC) is select
    nameless = replace(OBSERVE_PROMPT, bounds={"min": 1, "max": 1})
    assert RULESET.redact_prompt(nameless, state, PUBLIC).text == "Enter the next card(s) of 's deck."


def test_the_pending_prompts_of_a_physical_deal_are_redacted_for_a_seat() -> None:
    """The prompt the ruleset itself asks, as the API serves it to a seat."""
    game = Game(config(2, mode="physical"))
    game.do(
        None, "kingdom Cellar, Market, Militia, Mine, Moat, Remodel, Smithy, Village, Woodcutter, Workshop"
    )
    game.do(None, "first p1")
    (asked,) = RULESET.pending(game.state)
    assert asked.kind == "observe" and asked.bounds["max"] == 5
    redacted = RULESET.redact_prompt(asked, game.state, P2)
    assert "max" not in redacted.bounds and "min" not in redacted.bounds
    assert redacted.text == "Enter the next card(s) of p1's deck."
