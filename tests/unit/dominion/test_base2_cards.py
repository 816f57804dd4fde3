"""The 2nd-edition base set (dominion-2e.md): its worked examples E2-1 to E2-7 and a scenario per
decision of each new card, with what the other players see of it."""

from __future__ import annotations

from msgspec.structs import replace

from domain.games.dominion import RULESET
from domain.games.dominion import events as ev
from domain.games.dominion.actions import SelectCards
from domain.games.dominion.state import State
from domain.ruleset import PUBLIC, Viewer
from tests.unit.dominion.scenarios import Game, table

NEW = [
    "Artisan",
    "Bandit",
    "Harbinger",
    "Merchant",
    "Poacher",
    "Sentry",
    "Vassal",
    "Throne Room",
    "Moat",
    "Smithy",
]
P1, P2 = Viewer("seat", "p1"), Viewer("seat", "p2")


def second(**kwargs: object) -> Game:
    kwargs.setdefault("kingdom", NEW)
    return table(base_edition=2, **kwargs)  # type: ignore[arg-type]


def seen(game: Game, viewer: Viewer) -> list[ev.Fact]:
    return [RULESET.redact(f, viewer) for f in game.facts]


def lines_for(game: Game, viewer: Viewer) -> list[str]:
    return game.lines(seen(game, viewer))


# --- worked examples ------------------------------------------------------------------------


def test_e2_1_two_merchants_give_two_coins_on_the_first_silver_and_nothing_on_the_second() -> None:
    game = second(
        zones={
            "p1": {
                "hand": ["Merchant", "Merchant", "Silver", "Silver", "Copper"],
                "deck": ["Estate", "Estate"],
            }
        }
    )
    game.do("p1", "play Merchant")
    game.do("p1", "play Merchant")
    assert sorted(game.player("p1").hand) == ["Copper", "Estate", "Estate", "Silver", "Silver"]
    assert game.state.merchants == 2
    game.do("p1", "end")
    game.do("p1", "play treasure Silver")
    assert game.state.coins == 4
    game.do("p1", "play treasure Silver")
    assert game.state.coins == 6
    game.do("p1", "play treasure Copper")
    assert game.state.coins == 7
    assert "Ann gets +$2 (Merchant)." in game.lines()


def test_e2_2_throne_room_may_play_nothing_in_the_second_edition_only() -> None:
    game = second(zones={"p1": {"hand": ["Throne Room", "Smithy"]}})
    game.do("p1", "play Throne Room")
    game.do("p1", SelectCards("play", ()))
    assert game.player("p1").hand == ("Smithy",)
    assert game.player("p1").play == ("Throne Room",)
    assert game.state.prompts == ()

    first = table(kingdom=NEW, zones={"p1": {"hand": ["Throne Room", "Smithy"]}})
    first.do("p1", "play Throne Room")
    refusal = first.refused("p1", SelectCards("play", ()))
    assert refusal.code == "wrong_count" and "1 card" in refusal.message


def test_e2_3_vassal_plays_the_discarded_action_card_without_using_an_action() -> None:
    game = second(
        zones={"p1": {"hand": ["Vassal"], "deck": ["Smithy", "Copper", "Copper", "Estate", "Gold"]}}
    )
    game.do("p1", "play Vassal")
    assert game.state.coins == 2
    assert game.player("p1").discard[-1] == "Smithy"
    assert game.prompts() == [("p1", "vassal")]
    game.do("p1", "choose play")
    p1 = game.player("p1")
    assert p1.play == ("Vassal", "Smithy")
    assert "Smithy" not in p1.discard
    assert sorted(p1.hand) == ["Copper", "Copper", "Estate"]
    assert game.state.actions == 0  # the one Action went to Vassal; Smithy used none
    assert "Ann plays a Smithy from their discard pile." in game.lines()


def test_e2_4_bandit_trashes_the_silver_and_discards_the_copper() -> None:
    game = second(
        zones={
            "p1": {"hand": ["Bandit"]},
            "p2": {"hand": ["Copper"] * 5, "deck": ["Copper", "Silver", "Estate"]},
        }
    )
    game.do("p1", "play Bandit")
    assert game.player("p1").discard[-1] == "Gold"
    assert game.state.trash == ("Silver",)
    assert game.player("p2").discard[-1] == "Copper"
    assert game.player("p2").deck == ("Estate",)
    assert game.state.prompts == ()


def test_e2_4_bandit_victim_chooses_between_gold_and_silver() -> None:
    game = second(
        zones={"p1": {"hand": ["Bandit"]}, "p2": {"hand": ["Copper"] * 5, "deck": ["Gold", "Silver"]}}
    )
    game.do("p1", "play Bandit")
    assert game.prompts() == [("p2", "bandit")]
    assert sorted(game.legal("p2")) == ["trash Gold", "trash Silver"]
    assert RULESET.pending(game.state)[0].bounds["cards"] == ["Gold", "Silver"]  # revealed: public
    game.do("p2", "trash Silver")
    assert game.state.trash == ("Silver",)
    assert game.player("p2").discard == ("Gold",)


def test_e2_4_a_moat_keeps_the_victim_safe_and_the_attacker_still_gains_a_gold() -> None:
    game = second(
        zones={"p1": {"hand": ["Bandit"]}, "p2": {"hand": ["Moat", "Copper"], "deck": ["Gold", "Silver"]}}
    )
    game.do("p1", "play Bandit")
    assert game.prompts() == [("p2", "react")]
    game.do("p2", "react Moat")
    assert game.player("p1").discard[-1] == "Gold"
    assert game.player("p2").deck == ("Gold", "Silver")
    assert game.state.trash == ()


def test_e2_5_poacher_discards_the_only_card_left_with_two_empty_piles() -> None:
    game = second(zones={"p1": {"hand": ["Poacher"], "deck": ["Estate"]}}, supply={"Moat": 0, "Smithy": 0})
    game.do("p1", "play Poacher")
    p1 = game.player("p1")
    assert p1.hand == () and p1.discard[-1] == "Estate"
    assert (game.state.coins, game.state.actions) == (1, 1)
    assert game.state.prompts == ()


def test_e2_6_sentry_trashes_an_estate_and_puts_the_gold_back_on_top() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Estate", "Gold", "Silver"]}})
    game.do("p1", "play Sentry")
    assert game.player("p1").looking == ("Estate", "Gold")
    assert game.prompts() == [("p1", "sentry_trash")]
    game.do("p1", "trash Estate")
    game.do("p1", "discard nothing")
    p1 = game.player("p1")
    assert p1.deck == ("Gold", "Silver") and p1.looking == ()
    assert game.state.trash == ("Estate",)
    assert game.state.actions == 1


def test_e2_7_artisan_gains_a_duchy_to_hand_and_puts_a_copper_on_the_deck() -> None:
    game = second(zones={"p1": {"hand": ["Artisan", "Copper", "Estate"], "deck": ["Silver"]}})
    game.do("p1", "play Artisan")
    assert "gain Duchy" in game.legal("p1") and "gain Gold" not in game.legal("p1")
    game.do("p1", "gain Duchy")
    assert sorted(game.player("p1").hand) == ["Copper", "Duchy", "Estate"]
    game.do("p1", "topdeck Copper")
    p1 = game.player("p1")
    assert p1.deck == ("Copper", "Silver")
    assert sorted(p1.hand) == ["Duchy", "Estate"]
    # The card put back is its player's to know (6.5).
    assert "Ann puts 1 card onto their deck." in lines_for(game, P2)
    assert "Ann puts a Copper onto their deck." in lines_for(game, P1)


# --- Merchant -------------------------------------------------------------------------------


def test_throne_room_on_merchant_gives_two_coins_on_the_first_silver() -> None:
    game = second(
        zones={"p1": {"hand": ["Throne Room", "Merchant", "Silver", "Silver"], "deck": ["Copper", "Estate"]}}
    )
    game.do("p1", "play Throne Room")
    game.do("p1", "select play Merchant")
    assert game.state.merchants == 2
    game.do("p1", "end")
    game.do("p1", "play treasures Silver, Silver, Copper")
    assert game.state.coins == 2 + 2 + 2 + 1


def test_a_silver_played_before_the_merchant_means_no_bonus() -> None:
    game = second(zones={"p1": {"hand": ["Merchant", "Silver"], "play": ["Silver"], "deck": ["Copper"]}})
    game.do("p1", "play Merchant")
    assert game.state.merchants == 0
    game.do("p1", "end")
    game.do("p1", "play treasure Silver")
    assert game.state.coins == 2


def test_merchant_bonuses_do_not_outlive_the_turn() -> None:
    game = second(zones={"p1": {"hand": ["Merchant"], "deck": ["Estate"] * 8}})
    game.do("p1", "play Merchant")
    game.do("p1", "end")
    game.do("p1", "end")
    assert game.state.merchants == 0 and game.state.current == 1


def test_crown_on_silver_pays_merchant_once_in_an_empires_game() -> None:
    kingdom = [
        "Merchant",
        "Crown",
        "Sentry",
        "Vassal",
        "Harbinger",
        "Artisan",
        "Temple",
        "Forum",
        "Villa",
        "Moat",
    ]
    game = second(
        kingdom=kingdom, zones={"p1": {"hand": ["Merchant", "Crown", "Silver"], "deck": ["Estate"]}}
    )
    game.do("p1", "play Merchant")
    game.do("p1", "end")
    game.do("p1", "play treasure Crown")
    game.do("p1", "select play Silver")
    assert game.state.coins == 2 + 1 + 2


# --- Vassal, Harbinger, Poacher, Artisan ----------------------------------------------------


def test_vassal_discards_a_treasure_without_asking_and_may_decline_an_action() -> None:
    game = second(zones={"p1": {"hand": ["Vassal", "Vassal"], "deck": ["Gold", "Smithy"]}}, actions=2)
    game.do("p1", "play Vassal")
    assert game.player("p1").discard == ("Gold",) and game.state.prompts == ()
    game.do("p1", "play Vassal")
    game.do("p1", "choose no")
    assert game.player("p1").discard == ("Gold", "Smithy")
    assert game.state.coins == 4
    # Revealed to everyone: the discarded cards are public.
    assert "Ann discards a Smithy from their deck." in lines_for(game, PUBLIC)


def test_vassal_plays_an_attack_from_the_discard_pile_and_the_reaction_window_opens() -> None:
    game = second(
        zones={
            "p1": {"hand": ["Vassal"], "deck": ["Bandit"]},
            "p2": {"hand": ["Moat"], "deck": ["Gold", "Gold"]},
        }
    )
    game.do("p1", "play Vassal")
    game.do("p1", "choose play")
    assert game.prompts() == [("p2", "react")]
    game.do("p2", "react nothing")
    assert game.state.trash == ("Gold",)  # two Golds: one name, trashed at once


def test_harbinger_puts_a_card_from_the_discard_pile_on_the_deck_unseen_by_others() -> None:
    game = second(zones={"p1": {"hand": ["Harbinger"], "deck": ["Copper"], "discard": ["Gold", "Estate"]}})
    game.do("p1", "play Harbinger")
    assert game.prompts() == [("p1", "harbinger")]
    assert sorted(game.legal("p1")) == ["topdeck Estate", "topdeck Gold", "topdeck nothing"]
    assert game.legal("p2") == []
    game.do("p1", "topdeck Gold")
    p1 = game.player("p1")
    assert p1.deck == ("Gold",) and p1.discard == ("Estate",) and p1.hand == ("Copper",)
    assert game.state.actions == 1
    hidden = [f for f in seen(game, P2) if isinstance(f, ev.Topdecked)]
    assert hidden == [ev.Topdecked("p1", (), 1, "discard", "Estate")]
    action = RULESET.redact_action(SelectCards("topdeck", ("Gold",)), "p1", _before(game, "harbinger"), P2)
    assert action == SelectCards("topdeck", ("?",))
    assert "Ann puts 1 card from their discard pile onto their deck." in lines_for(game, PUBLIC)


def _before(game: Game, purpose: str) -> State:
    """A state with `purpose` open again (the decision as it was asked), for redact_action."""
    state = game.state
    decision = next(f for f in game.facts if isinstance(f, ev.StackSaved) and f.prompts)
    assert decision.prompts[0].purpose == purpose
    return replace(state, prompts=decision.prompts)


def test_harbinger_with_an_empty_discard_pile_asks_nothing() -> None:
    game = second(zones={"p1": {"hand": ["Harbinger"], "deck": ["Copper"], "discard": []}})
    game.do("p1", "play Harbinger")
    assert game.state.prompts == () and game.player("p1").hand == ("Copper",)


def test_harbinger_is_asked_even_with_one_card_in_the_discard_pile() -> None:
    game = second(zones={"p1": {"hand": ["Harbinger"], "deck": ["Copper"], "discard": ["Estate"]}})
    game.do("p1", "play Harbinger")
    assert game.prompts() == [("p1", "harbinger")]
    game.do("p1", "topdeck nothing")
    assert game.player("p1").discard == ("Estate",)


def test_poacher_with_no_empty_pile_discards_nothing() -> None:
    game = second(zones={"p1": {"hand": ["Poacher", "Copper"], "deck": ["Estate"]}})
    game.do("p1", "play Poacher")
    assert game.state.prompts == () and len(game.player("p1").hand) == 2


def test_poacher_counts_a_split_pile_empty_only_when_both_halves_are_gone() -> None:
    kingdom = [
        "Poacher",
        "Catapult/Rocks",
        "Sentry",
        "Vassal",
        "Harbinger",
        "Artisan",
        "Temple",
        "Forum",
        "Villa",
        "Moat",
    ]
    hand = {"p1": {"hand": ["Poacher", "Copper", "Estate", "Silver"], "deck": ["Gold"]}}
    half = second(kingdom=kingdom, zones=hand, supply={"Catapult/Rocks": ["Rocks"], "Moat": 0})
    half.do("p1", "play Poacher")
    prompt = RULESET.pending(half.state)[0]
    assert prompt.bounds["max"] == 1 and prompt.text == "Discard a card per empty Supply pile (Poacher)."
    half.do("p1", "discard Estate")
    both = second(kingdom=kingdom, zones=hand, supply={"Catapult/Rocks": [], "Moat": 0})
    both.do("p1", "play Poacher")
    assert RULESET.pending(both.state)[0].bounds["max"] == 2
    both.do("p1", "discard Copper, Estate")
    assert sorted(both.player("p1").hand) == ["Gold", "Silver"]
    # Who sees what: the count and the new top card only.
    shown = [f for f in seen(both, P2) if isinstance(f, ev.Discarded)]
    assert shown == [ev.Discarded("p1", (), "hand", 2, "Estate")]


def test_artisan_may_put_back_the_card_it_just_gained() -> None:
    game = second(zones={"p1": {"hand": ["Artisan"], "deck": []}})
    game.do("p1", "play Artisan")
    game.do("p1", "gain Silver")
    assert game.player("p1").deck == ("Silver",) and game.player("p1").hand == ()


def test_artisan_asks_which_card_goes_back_when_the_hand_holds_several() -> None:
    game = second(zones={"p1": {"hand": ["Artisan", "Copper"], "deck": []}})
    game.do("p1", "play Artisan")
    game.do("p1", "gain Smithy")
    assert game.prompts() == [("p1", "artisan")]
    assert sorted(game.legal("p1")) == ["topdeck Copper", "topdeck Smithy"]
    game.do("p1", "topdeck Smithy")
    assert game.player("p1").deck == ("Smithy",) and game.player("p1").hand == ("Copper",)


# --- Sentry ---------------------------------------------------------------------------------


def test_sentry_discards_and_orders_what_it_keeps() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Gold", "Silver", "Curse", "Estate"]}})
    game.do("p1", "play Sentry")
    game.do("p1", "trash nothing")
    assert game.prompts() == [("p1", "sentry_discard")]
    game.do("p1", "discard nothing")
    assert game.prompts() == [("p1", "sentry_topdeck")]
    assert sorted(game.legal("p1")) == ["topdeck Gold, Silver", "topdeck Silver, Gold"]
    game.do("p1", "topdeck Gold, Silver")
    assert game.player("p1").deck[:2] == ("Silver", "Gold")  # the last named is on top


def test_sentry_discards_one_card_and_puts_the_other_back_at_once() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Curse", "Gold", "Estate"]}})
    game.do("p1", "play Sentry")
    game.do("p1", "trash nothing")
    game.do("p1", "discard Curse")
    p1 = game.player("p1")
    assert p1.discard == ("Curse",) and p1.deck == ("Gold", "Estate") and game.state.prompts == ()


def test_sentry_asks_the_order_of_two_coppers_as_of_any_two_cards() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Estate", "Copper", "Copper", "Gold"]}})
    game.do("p1", "play Sentry")
    game.do("p1", "trash nothing")
    game.do("p1", "discard nothing")
    assert game.legal("p1") == ["topdeck Copper, Copper"]


def test_sentry_shuffles_when_the_deck_runs_out_and_looks_at_what_there_is() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Gold"], "discard": []}})
    game.do("p1", "play Sentry")
    assert game.player("p1").looking == ("Gold",)
    game.do("p1", "trash Gold")
    assert game.state.prompts == () and game.state.trash == ("Gold",)


def test_what_sentry_shows_its_player_stays_theirs() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Gold", "Province", "Estate"]}})
    game.do("p1", "play Sentry")
    public = RULESET.view(game.state, PUBLIC)
    assert not public["decisions"][0].get("cards")
    assert list(RULESET.view(game.state, P1)["decisions"][0]["cards"]) == ["Gold", "Province"]
    assert "Gold" not in str(RULESET.view(game.state, P2)["players"]["p1"])
    prompt = RULESET.redact_prompt(RULESET.pending(game.state)[0], game.state, P2)
    assert "Gold" not in str(prompt)
    assert "Ann looks at 2 cards from their deck." in lines_for(game, P2)
    assert "Ann looks at a Gold and a Province from their deck." in lines_for(game, P1)
    game.do("p1", "trash nothing")
    discard = SelectCards("discard", ("Gold", "Province"))
    assert RULESET.redact_action(discard, "p1", game.state, P2) == SelectCards("discard", ("?", "Province"))
    game.do("p1", "discard nothing")
    order = SelectCards("topdeck", ("Province", "Gold"))
    assert RULESET.redact_action(order, "p1", game.state, P2) == SelectCards("topdeck", ("?", "?"))
    assert RULESET.redact_action(order, "p1", game.state, P1) == order
    game.do("p1", order)
    hidden = [f for f in seen(game, P2) if isinstance(f, ev.Topdecked)]
    assert hidden == [ev.Topdecked("p1", (), 2, "looking")]
    assert game.player("p1").deck[:2] == ("Gold", "Province")


# --- physical tables ------------------------------------------------------------------------


def physical(game: Game) -> Game:
    game.state = replace(game.state, mode="physical")
    return game


def test_a_physical_sentry_asks_the_recorder_for_the_two_cards_looked_at() -> None:
    game = physical(
        second(
            zones={
                "p1": {"hand": ["Sentry"], "deck": [], "unknown": ["Copper", "Estate", "Gold"], "discard": []}
            }
        )
    )
    game.do("p1", "play Sentry")
    assert game.prompts() == [(None, "observe")]
    game.do(None, "observe Copper")  # the card drawn: one step for each card the rules take
    game.do(None, "observe Estate")
    assert game.player("p1").hand == ("Copper",)
    assert game.player("p1").looking == ("Estate", "Gold")
    game.do("p1", "trash Estate")
    game.do("p1", "discard nothing")
    assert game.player("p1").deck == ("Gold",)


def test_a_physical_vassal_and_bandit_take_the_cards_the_recorder_enters() -> None:
    game = physical(
        second(
            zones={
                "p1": {
                    "hand": ["Vassal", "Bandit"],
                    "deck": [],
                    "unknown": ["Smithy", "Copper"],
                    "discard": [],
                },
                "p2": {
                    "hand": ["Copper"],
                    "deck": [],
                    "unknown": ["Silver", "Copper", "Estate"],
                    "discard": [],
                },
            },
            actions=2,
        )
    )
    game.do("p1", "play Vassal")
    game.refused(None, "observe Gold")
    game.do(None, "observe Copper")
    assert game.player("p1").discard == ("Copper",)
    game.do("p1", "play Bandit")
    game.do(None, "observe Silver")  # Bandit reveals two cards, named one at a time
    game.do(None, "observe Estate")
    assert game.state.trash == ("Silver",)
    assert game.player("p2").discard == ("Estate",)


def test_bandit_against_only_coppers_trashes_nothing() -> None:
    game = second(
        players=3,
        zones={
            "p1": {"hand": ["Bandit"]},
            "p2": {"hand": ["Copper"], "deck": ["Copper", "Copper", "Estate"]},
            "p3": {"hand": ["Copper"], "deck": ["Estate"], "discard": []},
        },
    )
    game.do("p1", "play Bandit")
    assert game.state.trash == ()
    assert game.player("p2").discard == ("Copper", "Copper")
    assert game.player("p3").discard == ("Estate",) and game.player("p3").deck == ()
    assert "Bob reveals a Copper." in lines_for(game, PUBLIC)


def test_a_seat_sees_the_cards_its_sentry_looks_at_and_nobody_else_does() -> None:
    game = second(zones={"p1": {"hand": ["Sentry"], "deck": ["Copper", "Province", "Gold", "Estate"]}})
    game.do("p1", "play Sentry")
    assert RULESET.view(game.state, P1)["players"]["p1"]["looking"] == ["Gold", "Province"]
    assert "looking" not in RULESET.view(game.state, P2)["players"]["p1"]
    assert "looking" not in RULESET.view(game.state, PUBLIC)["players"]["p1"]


# --- what a player looks at alone, at a physical table (6.5) ---------------------------------


def test_an_opponents_sentry_looks_at_two_cards_the_recorder_did_not_see() -> None:
    """The table sees that Sentry looks at two cards, not which: `?` is entered for each, the
    trashed card is named (binding one `?`), the discarded and returned ones may stay unseen."""
    game = physical(
        second(
            zones={
                "p1": {
                    "hand": ["Sentry"],
                    "deck": [],
                    "unknown": ["?", "?", "?", "?"],
                    "pool": ["Copper", "Estate", "Gold", "Silver"],
                    "discard": [],
                }
            }
        )
    )
    game.do("p1", "play Sentry")
    game.do(None, "observe ?")  # the card drawn
    prompt = RULESET.pending(game.state)[0]
    assert prompt.bounds["unseen_allowed"] is True and prompt.bounds["max"] == 2
    assert "look privately; ? for a card not seen" in prompt.text
    game.do(None, "observe ?, ?")
    assert game.player("p1").looking == ("?", "?")
    assert game.refused("p1", "trash ?").code == "card_must_be_named"  # a trashed card is seen
    assert game.refused("p1", "trash Province").code == "not_a_candidate"  # not among p1's cards
    game.do("p1", "trash Estate")
    assert game.state.trash == ("Estate",) and game.player("p1").looking == ("?",)
    assert "Estate" not in game.player("p1").pool
    game.do("p1", "discard nothing")  # the last card goes back at once
    p1 = game.player("p1")
    assert p1.deck == ("?",) and p1.looking == () and sorted(p1.pool) == ["Copper", "Gold", "Silver"]
    assert "Ann looks at 2 cards from their deck." in lines_for(game, P2)


def test_an_opponents_sentry_may_discard_and_put_back_cards_nobody_named() -> None:
    game = physical(
        second(
            zones={
                "p1": {
                    "hand": ["Sentry"],
                    "deck": ["?", "?", "?"],
                    "unknown": [],
                    "pool": ["Copper", "Estate", "Gold"],
                }
            }
        )
    )
    game.do("p1", "play Sentry")  # the deck's top three are known to be there: no entry asked
    assert game.player("p1").looking == ("?", "?")
    game.do("p1", "trash nothing")
    game.do("p1", "discard ?")  # and the other goes back at once
    p1 = game.player("p1")
    assert p1.discard == ("?",) and p1.looking == () and p1.deck == ("?",)
    assert sorted(p1.pool) == ["Copper", "Estate", "Gold"]


def test_library_reads_the_card_it_draws_so_the_recorder_names_it() -> None:
    """Library's draw is read by the rules (is it an Action?): not a private look."""
    game = physical(
        table(
            zones={
                "p1": {
                    "hand": ["Library"],
                    "deck": [],
                    "unknown": ["?"] * 6,
                    "pool": ["Copper", "Copper", "Estate", "Gold", "Silver", "Village"],
                    "discard": [],
                }
            }
        )
    )
    game.do("p1", "play Library")
    assert RULESET.pending(game.state)[0].bounds["unseen_allowed"] is False
    assert game.refused(None, "observe ?").code == "card_must_be_named"
    game.do(None, "observe Copper")


def test_harbinger_puts_back_a_card_of_the_discard_pile_the_table_never_saw() -> None:
    game = physical(
        second(
            zones={
                "p1": {
                    "hand": ["Harbinger"],
                    "deck": ["?"],
                    "unknown": [],
                    "discard": ["Gold", "?"],
                    "pool": ["Copper", "Silver"],
                }
            }
        )
    )
    game.do("p1", "play Harbinger")
    game.do("p1", "topdeck ?")
    assert game.player("p1").deck[0] == "?" and game.player("p1").discard == ("Gold",)
