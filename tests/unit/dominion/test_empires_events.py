"""The Events of Empires (dominion.md 5.5) and the worked examples S1, S6 and S17 (section 9)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from domain.games.dominion import RULESET, bot
from domain.games.dominion.actions import BuyEvent, EndPhase, PayDebt, PlayTreasures, SelectCards, SelectPile
from domain.games.dominion.events import Reshuffled, Shuffled
from domain.games.dominion.state import Player
from domain.ruleset import PUBLIC
from tests.unit.dominion.scenarios import Game, table

KINGDOM = [
    "City Quarter",
    "Smithy",
    "Workshop",
    "Village",
    "Chapel",
    "Cellar",
    "Market",
    "Militia",
    "Moat",
    "Remodel",
]


def _buying(events: list[str], coins: int = 0, buys: int = 1, **kwargs: Any) -> Game:
    return table(kingdom=KINGDOM, landscapes=events, phase="buy", coins=coins, buys=buys, **kwargs)


def _physical(events: list[str], zones: dict[str, dict[str, object]]) -> Game:
    """A physical game in its Buy phase, the table's setup questions answered."""
    game = table(kingdom=KINGDOM, landscapes=events, phase="buy", mode="physical", zones=zones)
    game.state = replace(game.state, status="playing", prompts=(), frames=())
    return game


def _owned(pl: Player) -> Counter[str]:
    return Counter(pl.owned())


# --- S1: debt -------------------------------------------------------------------------------


def _s1(**variants: Any) -> Game:
    game = _buying(
        ["Delve"],
        coins=3,
        turn=9,
        zones={"p1": {"hand": ["Estate", "Estate"], "play": ["Copper"] * 3, "debt": 0}},
        **variants,
    )
    return game


def test_s1_part_a_city_quarter_is_bought_on_debt_and_partly_repaid() -> None:
    game = _s1()
    assert game.pile("City Quarter") == 10
    game.do("p1", "buy City Quarter")
    p1 = game.player("p1")
    assert (game.state.buys, game.state.coins, p1.debt) == (0, 3, 8)
    assert game.pile("City Quarter") == 9 and p1.discard[-1] == "City Quarter"
    game.do("p1", "pay 3")
    assert (game.player("p1").debt, game.state.coins) == (5, 0)
    assert game.refused("p1", "pay 1").code == "cannot_pay"


def test_s1_part_b_debt_blocks_buying_cards_and_events_until_repaid() -> None:
    game = _buying(["Delve"], coins=4, turn=11, zones={"p1": {"hand": ["Estate"], "debt": 5}})
    for action in ("buy Copper", "buy Delve"):
        refused = game.refused("p1", action)
        assert (refused.code, refused.rule) == ("in_debt", "dominion 4.2")
    game.do("p1", "pay 4")
    assert (game.player("p1").debt, game.state.coins) == (1, 0)


def _s1_part_c(**variants: Any) -> Game:
    hand = ["Silver", "Silver", "Copper", "Copper", "Estate"]
    game = _buying(["Delve"], turn=13, zones={"p1": {"hand": hand, "debt": 1}}, **variants)
    for card in ("Silver", "Silver", "Copper"):
        game.do("p1", f"play treasure {card}")
    assert game.state.coins == 5
    game.do("p1", "pay 1")
    assert (game.player("p1").debt, game.state.coins) == (0, 4)
    return game


def test_s1_part_c_paying_off_debt_closes_the_treasure_window() -> None:
    game = _s1_part_c()
    assert game.refused("p1", "play treasure Copper").code == "treasures_closed"
    smithies = game.pile("Smithy")
    game.do("p1", "buy Smithy")
    assert (game.state.coins, game.state.buys, game.pile("Smithy")) == (0, 0, smithies - 1)
    game.do("p1", "end")
    p1 = game.player("p1")
    assert p1.debt == 0
    assert Counter(p1.discard) >= Counter(["Copper", "Estate"])


def test_s1_with_pay_debt_keeps_treasure_window_a_treasure_may_follow_the_payment() -> None:
    game = _s1_part_c(pay_debt_keeps_treasure_window=True)
    game.do("p1", "play treasure Copper")
    assert game.state.coins == 5
    game.do("p1", "buy Smithy")
    assert game.state.coins == 1


def test_a_buy_while_in_debt_is_rejected_citing_the_rule() -> None:
    game = _buying(["Delve"], coins=8, zones={"p1": {"debt": 2}})
    refused = game.refused("p1", "buy Silver")
    assert (refused.code, refused.rule) == ("in_debt", "dominion 4.2")


# --- S6: Tax --------------------------------------------------------------------------------


def test_s6_tax_debt_is_taken_on_buying_not_on_gaining_and_the_event_adds_debt() -> None:
    hand = ["Workshop", "Copper", "Copper", "Copper", "Estate"]
    game = table(kingdom=KINGDOM, landscapes=["Tax"], zones={"p1": {"hand": hand}})
    assert len(game.state.pile_debt) == 17 and set(game.state.pile_debt.values()) == {1}
    game.do("p1", "play Workshop")
    game.do("p1", "gain Silver")
    assert game.state.pile_debt["Silver"] == 1 and game.player("p1").debt == 0
    game.do("p1", "end")
    game.do("p1", "play treasures Copper, Copper, Copper")
    assert game.state.coins == 3
    game.do("p1", "buy Village")
    assert (game.state.coins, game.state.buys, game.player("p1").debt) == (0, 0, 1)
    assert game.state.pile_debt["Village"] == 0 and game.state.pile_debt["Silver"] == 1

    # P2's turn: the Tax Event puts 2 more debt on the Province pile.
    game.state = replace(game.state, current=1, phase="buy", coins=5, buys=1, window=True)
    game.do("p2", "buy Tax")
    assert (game.state.coins, game.state.buys) == (3, 0)
    assert game.prompts() == [("p2", "tax")]
    game.do("p2", SelectPile("Province"))
    assert game.state.pile_debt["Province"] == 3

    # P1's next turn: debt first, then the Province and its 3 debt.
    game.state = replace(game.state, current=0, phase="buy", coins=9, buys=1, window=False)
    assert game.refused("p1", "buy Province").code == "in_debt"
    game.do("p1", "pay 1")
    assert (game.state.coins, game.player("p1").debt) == (8, 0)
    game.do("p1", "buy Province")
    assert (game.state.coins, game.state.buys, game.player("p1").debt) == (0, 0, 3)
    assert game.state.pile_debt["Province"] == 0


def test_tax_may_put_debt_on_an_empty_pile() -> None:
    game = _buying(["Tax"], coins=2, supply={"Moat": 0})
    game.do("p1", "buy Tax")
    assert "select pile Moat" in game.legal("p1") or any("Moat" in a for a in game.legal("p1"))
    game.do("p1", SelectPile("Moat"))
    assert game.state.pile_debt["Moat"] == 3


# --- S17: Conquest and Triumph ----------------------------------------------------------------


def test_s17_part_a_conquest_bought_twice_counts_every_silver_gained_this_turn() -> None:
    game = _buying(["Conquest", "Triumph"], coins=12, buys=2, zones={"p1": {"vp": 0}})
    silvers = game.pile("Silver")
    game.do("p1", "buy Conquest")
    assert (game.state.coins, game.state.buys, game.player("p1").vp) == (6, 1, 2)
    game.do("p1", "buy Conquest")
    assert (game.state.coins, game.state.buys, game.player("p1").vp) == (0, 0, 6)
    assert game.pile("Silver") == silvers - 4


def test_s17_part_b_triumph_counts_the_cards_gained_this_turn() -> None:
    game = _buying(["Conquest", "Triumph"], coins=3, buys=2, zones={"p1": {"vp": 0}})
    game.do("p1", "buy Silver")
    assert (game.state.coins, game.state.buys) == (0, 1)
    game.do("p1", "buy Triumph")
    p1 = game.player("p1")
    assert game.state.gained == ("Silver", "Estate")
    assert (game.state.buys, p1.vp, p1.debt) == (0, 2, 5)


def test_triumph_gives_nothing_when_the_estate_pile_is_empty() -> None:
    game = _buying(["Triumph"], supply={"Estate": 0})
    game.do("p1", "buy Triumph")
    assert (game.player("p1").vp, game.player("p1").debt) == (0, 5)


# --- the other Events -------------------------------------------------------------------------


def test_advance_trashes_an_action_card_to_gain_an_action_costing_up_to_6() -> None:
    game = _buying(["Advance"], zones={"p1": {"hand": ["Moat", "Copper"]}})
    game.do("p1", "buy Advance")
    game.do("p1", SelectCards("trash", ("Moat",)))
    assert "Moat" in game.state.trash
    refused = game.refused("p1", SelectPile("Gold"))
    assert refused.code == "not_eligible"
    game.do("p1", SelectPile("Market"))
    assert game.player("p1").discard[-1] == "Market"


def test_advance_gains_nothing_when_no_action_card_is_trashed() -> None:
    game = _buying(["Advance"], zones={"p1": {"hand": ["Moat"]}})
    game.do("p1", "buy Advance")
    game.do("p1", SelectCards("trash", ()))
    assert game.state.prompts == () and game.state.gained == ()


def test_annex_keeps_up_to_five_discards_shuffles_the_rest_into_the_deck_and_gains_a_duchy() -> None:
    discard = ["Copper", "Estate", "Silver", "Gold", "Curse", "Smithy", "Village"]
    game = _buying(["Annex"], zones={"p1": {"deck": ["Market", "Moat"], "discard": discard}})
    shuffles = game.player("p1").shuffles
    game.do("p1", "buy Annex")
    assert game.player("p1").debt == 8
    assert game.refused("p1", SelectCards("keep", ("Copper",) * 2)).code == "not_a_candidate"
    facts = game.do("p1", SelectCards("keep", ("Gold", "Smithy")))
    p1 = game.player("p1")
    assert p1.discard == ("Gold", "Smithy", "Duchy")
    assert Counter(p1.deck) == Counter(["Market", "Moat", "Copper", "Estate", "Silver", "Curse", "Village"])
    assert p1.shuffles == shuffles + 1
    shuffled = next(f for f in facts if isinstance(f, Reshuffled))
    assert shuffled.stream == "deck:p1" and shuffled.n == shuffles
    # The kept cards are the owner's secret, the order nobody's.
    public = RULESET.redact(shuffled, PUBLIC)
    assert isinstance(public, Reshuffled) and public.order is None and public.kept == ()


def test_annex_in_a_physical_game_leaves_the_new_deck_unknown() -> None:
    game = _physical(["Annex"], {"p1": {"deck": ["Moat"], "unknown": [], "discard": ["Copper", "Gold"]}})
    game.do("p1", "buy Annex")
    game.do("p1", SelectCards("keep", ("Gold",)))
    p1 = game.player("p1")
    assert p1.deck == () and p1.unknown == ("Copper", "Moat") and p1.discard == ("Gold", "Duchy")


def test_banquet_gains_two_coppers_and_a_non_victory_card_costing_up_to_5() -> None:
    game = _buying(["Banquet"], coins=3)
    game.do("p1", "buy Banquet")
    assert game.state.gained == ("Copper", "Copper")
    assert game.refused("p1", SelectPile("Duchy")).code == "not_eligible"
    game.do("p1", SelectPile("Market"))
    assert game.player("p1").discard[-3:] == ("Copper", "Copper", "Market")


def test_delve_gives_a_buy_and_a_silver() -> None:
    game = _buying(["Delve"], coins=4)
    game.do("p1", "buy Delve")
    assert (game.state.buys, game.state.coins, game.state.gained) == (1, 2, ("Silver",))
    game.do("p1", "buy Delve")
    assert game.state.gained == ("Silver", "Silver") and game.state.window is False


def test_dominate_gains_a_province_and_9_vp_only_if_it_did() -> None:
    game = _buying(["Dominate"], coins=14)
    game.do("p1", "buy Dominate")
    assert game.player("p1").vp == 9 and game.state.gained == ("Province",)
    empty = _buying(["Dominate"], coins=14, supply={"Province": 0})
    empty.do("p1", "buy Dominate")
    assert empty.player("p1").vp == 0


def test_ritual_gains_a_curse_and_trashes_a_card_for_vp_equal_to_its_coin_cost() -> None:
    game = _buying(["Ritual"], coins=4, zones={"p1": {"hand": ["Gold", "Estate"]}})
    game.do("p1", "buy Ritual")
    assert game.state.gained == ("Curse",)
    game.do("p1", SelectCards("trash", ("Gold",)))
    assert game.player("p1").vp == 6 and "Gold" in game.state.trash


def test_ritual_without_a_curse_to_gain_trashes_nothing() -> None:
    game = _buying(["Ritual"], coins=4, zones={"p1": {"hand": ["Gold"]}}, supply={"Curse": 0})
    game.do("p1", "buy Ritual")
    assert game.state.prompts == () and game.player("p1").hand == ("Gold",)


def test_salt_the_earth_gives_1_vp_and_trashes_the_top_of_a_victory_pile() -> None:
    game = _buying(["Salt the Earth"], coins=4)
    provinces = game.pile("Province")
    game.do("p1", "buy Salt the Earth")
    assert game.player("p1").vp == 1
    assert game.refused("p1", SelectPile("Silver")).code == "not_eligible"
    game.do("p1", SelectPile("Province"))
    assert game.pile("Province") == provinces - 1 and game.state.trash[-1] == "Province"
    assert game.state.gained == ()


def test_wedding_gives_1_vp_and_a_gold_for_4_coins_and_3_debt() -> None:
    game = _buying(["Wedding"], coins=4)
    game.do("p1", "buy Wedding")
    p1 = game.player("p1")
    assert (p1.vp, p1.debt, game.state.coins, game.state.gained) == (1, 3, 0, ("Gold",))


def test_windfall_gains_three_golds_only_with_no_deck_and_no_discard_pile() -> None:
    game = _buying(["Windfall"], coins=5, zones={"p1": {"deck": [], "discard": []}})
    game.do("p1", "buy Windfall")
    assert game.state.gained == ("Gold",) * 3
    busy = _buying(["Windfall"], coins=5, zones={"p1": {"deck": ["Copper"], "discard": []}})
    busy.do("p1", "buy Windfall")
    assert busy.state.gained == ()
    few = _buying(["Windfall"], coins=5, zones={"p1": {"deck": [], "discard": []}}, supply={"Gold": 2})
    few.do("p1", "buy Windfall")
    assert few.state.gained == ("Gold",) * 2


# --- Donate -----------------------------------------------------------------------------------


def _donating(**variants: Any) -> Game:
    zones = {
        "p1": {
            "hand": ["Estate"],
            "deck": ["Curse", "Gold", "Silver", "Copper", "Copper", "Copper"],
            "discard": ["Estate", "Smithy"],
            "play": ["Copper"],
        }
    }
    return _buying(["Donate"], zones=zones, **variants)


def test_donate_after_clean_up_trashes_from_deck_discard_and_hand_then_shuffles_and_draws_5() -> None:
    game = _donating()
    game.do("p1", "buy Donate")
    p1 = game.player("p1")
    assert (p1.debt, p1.donates) == (8, 1)
    game.do("p1", "end")
    p1 = game.player("p1")
    assert game.prompts() == [("p1", "donate")] and p1.donates == 0
    assert p1.deck == () and p1.discard == () and len(p1.hand) == 10
    assert game.state.current == 0
    game.do("p1", SelectCards("trash", ("Curse", "Estate", "Estate")))
    p1 = game.player("p1")
    assert len(p1.hand) == 5 and len(p1.deck) == 2 and p1.discard == ()
    assert _owned(p1) == Counter({"Copper": 4, "Gold": 1, "Silver": 1, "Smithy": 1})
    assert Counter(game.state.trash) >= Counter(["Curse", "Estate", "Estate"])
    assert game.state.current == 1
    reshuffles = [f for f in game.facts if isinstance(f, Reshuffled)]
    assert len(reshuffles) == 1 and reshuffles[0].stream == "deck:p1"
    assert not [f for f in game.facts if isinstance(f, Shuffled)]


def test_two_donates_resolve_one_after_the_other() -> None:
    game = _donating()
    game.do("p1", "buy Donate")
    players = game.state.players
    game.state = replace(game.state, players=(replace(players[0], donates=2), players[1]))
    game.do("p1", "end")
    game.do("p1", SelectCards("trash", ("Curse",)))
    assert game.player("p1").donates == 0 and game.state.current == 0
    assert len(game.player("p1").hand) == 9
    game.do("p1", SelectCards("trash", ("Estate",)))
    assert game.state.current == 1 and len(game.player("p1").hand) == 5


def test_with_donate_start_of_next_turn_donate_resolves_when_the_next_turn_starts() -> None:
    game = _donating(donate_start_of_next_turn=True)
    game.do("p1", "buy Donate")
    game.do("p1", "end")
    assert game.state.current == 1 and game.player("p1").donates == 1 and game.state.prompts == ()
    game.do("p2", "end")
    game.do("p2", "end")
    assert game.state.current == 0 and game.prompts() == [("p1", "donate")]
    assert game.player("p1").donates == 0 and len(game.player("p1").hand) == 10
    game.do("p1", SelectCards("trash", ("Curse",)))
    p1 = game.player("p1")
    assert len(p1.hand) == 5 and game.state.phase == "action" and game.state.current == 0


def test_donate_in_a_physical_game_leaves_the_new_deck_unknown() -> None:
    zones = {"p1": {"hand": ["Estate"], "unknown": ["Copper", "Gold"], "deck": [], "discard": ["Curse"]}}
    game = _physical(["Donate"], zones)  # type: ignore[arg-type]
    game.do("p1", "buy Donate")
    game.do("p1", "end")
    # Clean-up draws from a deck the table must name first.
    while game.prompts() and game.prompts()[0][0] is None:
        game.do(None, "observe " + game.player("p1").unknown[0], by="recorder")
    game.do("p1", SelectCards("trash", ("Curse",)))
    while game.prompts() and game.prompts()[0][0] is None:
        game.do(None, "observe " + game.player("p1").unknown[0], by="recorder")
    p1 = game.player("p1")
    assert "Curse" in game.state.trash and len(p1.hand) == 3 and p1.donates == 0


def test_every_event_has_a_log_line() -> None:
    game = _donating()
    game.do("p1", "buy Donate")
    game.do("p1", "end")
    game.do("p1", SelectCards("trash", ()))
    lines = game.lines()
    assert any("into their hand (Donate)" in line for line in lines)
    assert any("shuffles their hand" in line for line in lines)


# --- the bot ----------------------------------------------------------------------------------


def _bot(game: Game, k: int = 0) -> object:
    """The bot's choice for p1, its random draws all k (modulo the range)."""

    def draw(n: int) -> int:
        return k % n

    return bot.choose(game.state, RULESET.legal_actions(game.state, "p1"), draw)


def test_the_bot_plays_its_treasures_then_pays_off_as_much_debt_as_it_can_before_buying() -> None:
    game = _buying(["Delve"], zones={"p1": {"hand": ["Gold", "Copper"], "debt": 2}})
    assert _bot(game) == PlayTreasures(("Copper", "Gold"))
    game.do("p1", "play treasures Copper, Gold")
    assert _bot(game) == PayDebt(2)
    game.do("p1", "pay 2")
    assert _bot(game) == BuyEvent("Delve")


def test_the_bot_never_buys_in_debt_and_ends_the_phase_when_it_cannot_pay() -> None:
    game = _buying(["Delve"], zones={"p1": {"hand": [], "debt": 3}})
    assert _bot(game) == EndPhase()


def test_the_bot_answers_tax_even_when_piles_are_empty() -> None:
    game = _buying(["Tax"], coins=2, supply={"Moat": 0})
    game.do("p1", "buy Tax")
    for k in range(10):
        assert isinstance(_bot(game, k), SelectPile)
