"""Who sees which cards, card by card (dominion.md 6.5 and 8.20), checked against the redaction.

For every card of the base set (1st and 2nd edition) and of Empires whose effect draws, looks
at, reveals, discards, trashes, sets aside, gains or puts back cards (and the Events that do),
a real game plays it and the table below states, for each fact it makes, who sees the cards
it names: `all` (the player, the other seats and the public) or `player` (the player alone;
the others see how many). The table is written from the rules reference, not from the
engine: drawn cards and what one player looks at alone are that player's; what is revealed,
played, trashed or gained is everyone's; of several cards discarded at once the others see
how many and the new top card, unless the rules reveal them first; a card put onto a deck
unrevealed is its player's. The new top card of a discard pile is everyone's (`top`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec
import pytest

from domain.games.dominion import RULESET
from domain.games.dominion import events as ev
from domain.games.dominion.state import State
from domain.ruleset import PUBLIC, Rejection, Viewer
from tests.unit.dominion.scenarios import Game, table

ALL, PLAYER = "all", "player"
FILLERS = (
    "Village",
    "Smithy",
    "Market",
    "Moat",
    "Cellar",
    "Chapel",
    "Witch",
    "Festival",
    "Militia",
    "Library",
)
DECK = ("Copper", "Gold", "Estate", "Silver", "Province", "Duchy", "Copper", "Estate")
P2_HAND = ("Copper", "Copper", "Estate", "Silver", "Duchy")
P2_DECK = ("Gold", "Estate", "Copper", "Silver")
# Facts that name no card moved, looked at or shown: not what this table is about.
QUIET = (ev.Plus, ev.StackSaved, ev.Tokens, ev.AutoResolved, ev.Chose, ev.PhaseChanged, ev.DurationStarted)


@dataclass(frozen=True)
class Case:
    card: str
    sees: dict[str, str]  # `fact type[:source]` -> who sees its cards
    hand: Sequence[str] = ()
    deck: Sequence[str] = DECK
    discard: Sequence[str] = ()
    answers: Sequence[tuple[str, str]] = ()  # (seat, notation), in order
    p2: dict[str, Any] = field(default_factory=dict)
    play: str = ""  # the action that starts it (default: play the card)
    options: dict[str, Any] = field(default_factory=dict)
    kingdom: Sequence[str] = ()  # piles beside the card's own (by pile id)
    phase: str = "action"
    landscapes: Sequence[str] = ()
    supply: dict[str, int] = field(default_factory=dict)

    def start(self) -> Game:
        kingdom = [*self.kingdom] or [self.card]
        kingdom += [c for c in FILLERS if c not in kingdom][: 10 - len(kingdom)]
        options = dict(self.options)
        if self.landscapes:
            options["landscapes"] = self.landscapes
        p2 = {"hand": P2_HAND, "deck": P2_DECK, "discard": ()} | self.p2
        zones = {
            "p1": {"hand": [self.card, *self.hand], "deck": self.deck, "discard": self.discard},
            "p2": p2,
        }
        if self.play:
            zones["p1"]["hand"] = list(self.hand)
        supply: dict[str, int | Sequence[str]] | None = dict(self.supply) or None
        return table(
            kingdom=kingdom, zones=zones, phase=self.phase, actions=2, coins=8, supply=supply, **options
        )


E2 = {"base_edition": 2}
CASES = [
    # --- base set, 1st edition ---------------------------------------------------------------
    Case(
        "Adventurer",
        {"revealed:deck": ALL, "moved:aside": ALL, "discarded:aside": ALL},
        deck=("Estate", "Copper", "Village", "Silver", "Gold"),
    ),
    Case("Bureaucrat", {"gained": ALL, "moved:hand": ALL}),  # revealed and put onto the deck
    Case(
        "Cellar",
        {"discarded:hand": PLAYER, "drew": PLAYER},
        hand=("Copper", "Estate", "Duchy"),
        answers=[("p1", "discard Copper, Estate")],
    ),
    Case(
        "Chapel", {"trashed:hand": ALL}, hand=("Copper", "Estate"), answers=[("p1", "trash Copper, Estate")]
    ),
    Case("Council Room", {"drew": PLAYER}),
    Case("Feast", {"trashed:play": ALL, "gained": ALL}),
    Case("Laboratory", {"drew": PLAYER}),
    Case(
        "Library",
        {"drew": PLAYER, "moved:hand": ALL, "discarded:aside": ALL},
        deck=("Village", "Copper", "Gold", "Estate"),
        answers=[("p1", "choose set_aside")],
    ),
    Case("Market", {"drew": PLAYER}),
    Case("Militia", {"discarded:hand": PLAYER}, answers=[("p2", "discard Copper, Estate")]),
    Case("Mine", {"trashed:hand": ALL, "gained": ALL}, hand=("Silver",)),
    Case("Moat", {"drew": PLAYER}),
    Case("Moneylender", {"trashed:hand": ALL}, hand=("Copper",)),
    Case("Remodel", {"trashed:hand": ALL, "gained": ALL}, hand=("Estate",)),
    Case("Smithy", {"drew": PLAYER}),
    Case("Spy", {"drew": PLAYER, "revealed:deck": ALL, "discarded:deck": ALL}),
    Case(
        "Thief",
        {"revealed:deck": ALL, "trashed:aside": ALL, "gained": ALL, "discarded:aside": ALL},
        answers=[("p1", "select gain Gold")],
    ),
    Case("Village", {"drew": PLAYER}),
    Case("Witch", {"drew": PLAYER, "gained": ALL}),
    # --- base set, 2nd edition ---------------------------------------------------------------
    Case(
        "Artisan",
        {"gained": ALL, "topdecked:hand": PLAYER},
        hand=("Copper", "Estate"),
        answers=[("p1", "gain Silver"), ("p1", "topdeck Estate")],
        options=E2,
    ),
    Case(
        "Bandit",
        {"gained": ALL, "revealed:deck": ALL, "trashed:aside": ALL, "discarded:aside": ALL},
        options=E2,
    ),
    Case(
        "Harbinger",
        {"drew": PLAYER, "topdecked:discard": PLAYER},
        discard=("Gold", "Estate", "Copper"),
        answers=[("p1", "topdeck Gold")],
        options=E2,
    ),
    Case("Merchant", {"drew": PLAYER}, options=E2),
    Case(
        "Poacher",
        {"drew": PLAYER, "discarded:hand": PLAYER},
        hand=("Copper", "Estate"),
        answers=[("p1", "discard Copper, Estate")],
        options=E2,
        supply={"Curse": 0, "Estate": 0},
    ),
    Case(
        "Sentry",
        {"drew": PLAYER, "looked": PLAYER, "trashed:looking": ALL, "topdecked:looking": PLAYER},
        deck=("Copper", "Estate", "Gold", "Silver", "Duchy"),
        answers=[("p1", "trash Estate"), ("p1", "discard nothing")],
        options=E2,
    ),
    Case(
        "Sentry",
        {"drew": PLAYER, "looked": PLAYER, "discarded:looking": PLAYER},
        deck=("Copper", "Estate", "Gold", "Silver"),
        answers=[("p1", "trash nothing"), ("p1", "discard Estate, Gold")],
        options=E2,
    ),
    Case("Vassal", {"discarded:deck": ALL}, options=E2),
    # --- Empires -----------------------------------------------------------------------------
    Case("Archive", {"archive_filled": PLAYER, "archive_taken": PLAYER}),
    Case(
        "Catapult",
        kingdom=("Catapult/Rocks",),
        sees={"trashed:hand": ALL, "discarded:hand": PLAYER},
        hand=("Copper",),
        answers=[("p2", "discard Copper, Estate")],
    ),
    Case("Chariot Race", {"revealed:deck": ALL}),
    Case("City Quarter", {"revealed:hand": ALL, "drew": PLAYER}, hand=("Village",)),
    Case(
        "Forum",
        {"drew": PLAYER, "discarded:hand": PLAYER},
        answers=[("p1", "discard Copper, Estate")],
        deck=("Copper", "Estate", "Gold", "Duchy"),
    ),
    Case(
        "Gladiator",
        kingdom=("Gladiator/Fortune",),
        sees={"revealed:hand": ALL, "trashed:supply": ALL},
        hand=("Copper",),
        answers=[("p2", "reveal nothing")],
    ),
    Case("Groundskeeper", {"drew": PLAYER}),
    Case(
        "Legionary",
        {"revealed:hand": ALL, "discarded:hand": PLAYER, "drew": PLAYER},
        hand=("Gold",),
        answers=[("p1", "reveal Gold"), ("p2", "discard Copper, Estate, Silver")],
    ),
    Case(
        "Patrician",
        {"drew": PLAYER, "revealed:deck": ALL},
        deck=("Copper", "Gold"),
        kingdom=("Patrician/Emporium",),
    ),
    # the Coppers discarded are those of the hand just revealed
    Case("Royal Blacksmith", {"drew": PLAYER, "revealed:hand": ALL, "discarded:hand": ALL}),
    Case(
        "Sacrifice",
        {"trashed:hand": ALL, "drew": PLAYER},
        hand=("Village", "Copper"),
        answers=[("p1", "trash Village")],
    ),
    Case(
        "Settlers",
        {"drew": PLAYER, "moved:discard": ALL},
        discard=("Estate", "Copper"),
        answers=[("p1", "select take Copper")],
        kingdom=("Settlers/Bustling Village",),
    ),
    Case(
        "Bustling Village",
        {"drew": PLAYER, "moved:discard": ALL},
        discard=("Settlers",),
        answers=[("p1", "select take Settlers")],
        kingdom=("Settlers/Bustling Village",),
    ),
    Case(
        "Encampment",
        {"drew": PLAYER, "revealed:hand": ALL},
        hand=("Gold",),
        answers=[("p1", "reveal Gold")],
        kingdom=("Encampment/Plunder",),
    ),
    Case(
        "Small Castle",
        {"trashed:play": ALL, "gained": ALL},
        answers=[("p1", "choose this")],
        kingdom=("Castles",),
    ),
    Case(
        "Temple", {"trashed:hand": ALL}, hand=("Copper", "Estate"), answers=[("p1", "trash Copper, Estate")]
    ),
    Case("Wild Hunt", {"drew": PLAYER}, answers=[("p1", "choose draw")]),
    # the rules read each card discarded (a Victory card, $2 each), so the table sees them (6.5)
    Case(
        "Opulent Castle",
        {"discarded:hand": ALL},
        hand=("Estate", "Duchy"),
        answers=[("p1", "discard Estate, Duchy")],
        kingdom=("Castles",),
    ),
    # Events
    Case(
        "Advance",
        {"trashed:hand": ALL, "gained": ALL},
        hand=("Village",),
        play="buy Advance",
        phase="buy",
        landscapes=("Advance",),
        kingdom=("Village",),
        answers=[("p1", "trash Village")],
    ),
    Case(
        "Ritual",
        {"gained": ALL, "trashed:hand": ALL},
        hand=("Estate",),
        play="buy Ritual",
        phase="buy",
        landscapes=("Ritual",),
        kingdom=("Village",),
    ),
    Case(
        "Salt the Earth",
        {"trashed:supply": ALL},
        play="buy Salt the Earth",
        phase="buy",
        landscapes=("Salt the Earth",),
        kingdom=("Village",),
        answers=[("p1", "gain Estate")],
    ),
    Case(
        "Annex",
        {"reshuffled:discard": PLAYER, "gained": ALL},
        discard=("Gold", "Estate", "Copper"),
        answers=[("p1", "keep Estate, Gold")],
        play="buy Annex",
        phase="buy",
        landscapes=("Annex",),
        kingdom=("Village",),
    ),
]


def _names(fact: ev.Fact) -> list[str]:
    """The cards a fact names (its `top` apart: the new top card of a discard pile)."""
    found = msgspec.to_builtins(fact)
    out: list[str] = []
    for key in ("cards", "card", "hand", "kept"):
        value = found.get(key)
        if isinstance(value, str) and value:
            out.append(value)
        elif isinstance(value, list | tuple):
            out += [c for c in value if isinstance(c, str)]
    return out


def _label(fact: ev.Fact) -> str:
    tag = msgspec.to_builtins(fact)["type"]
    source = getattr(fact, "source", None)
    return f"{tag}:{source}" if isinstance(source, str) and tag not in ("played", "gained") else tag


def _who_sees(fact: ev.Fact) -> str:
    owner = getattr(fact, "player", None)
    other = Viewer("seat", "p2" if owner == "p1" else "p1")
    full = _names(fact)
    assert _names(RULESET.redact(fact, Viewer("seat", str(owner)))) == full, f"its player sees {fact}"
    shown = {str(v): _names(RULESET.redact(fact, v)) for v in (other, PUBLIC)}
    tops = {
        getattr(RULESET.redact(fact, v), "top", None) for v in (other, PUBLIC, Viewer("seat", str(owner)))
    }
    assert len(tops) == 1, f"the new top card of a discard pile is everyone's: {fact}"
    if all(seen == full for seen in shown.values()):
        return ALL
    assert all(seen == [] for seen in shown.values()), f"the others see part of {fact}: {shown}"
    return PLAYER


def _play(case: Case) -> Game:
    game = case.start()
    game.do("p1", case.play or f"play {case.card}")
    for answering, notation in case.answers:
        game.do(answering, notation)
    for _ in range(30):  # the rest of the effect: the first legal answer each time
        pending = [p for p in RULESET.pending(game.state) if p.kind not in ("turn", "phase")]
        if not game.state.prompts or not pending:
            break
        seat = pending[0].seat
        game.do(seat, RULESET.legal_actions(game.state, seat)[0])
    return game


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.card)
def test_each_card_s_facts_show_their_cards_to_whom_the_rules_say(case: Case) -> None:
    game = _play(case)
    found: dict[str, str] = {}
    for fact in game.facts:
        if isinstance(fact, QUIET) or not _names(fact) or isinstance(fact, ev.Played | ev.Bought):
            continue
        label = _label(fact)
        seen = _who_sees(fact)
        assert found.setdefault(label, seen) == seen, f"{label} shown to {found[label]} and to {seen}"
    assert found == case.sees, game.lines()


# --- twins: the same card played on cards the others cannot tell apart --------------------------


@dataclass(frozen=True)
class Twin:
    """A case played twice, on hidden cards that differ (`deck_b`, `hand_b`, `discard_b`) and
    answered alike but for those cards (`answers_b`): a seat that does not own them and the
    public must get the same answers from both at every step (design.md 5)."""

    case: Case
    answers_b: Sequence[tuple[str, str]]
    deck_b: Sequence[str] | None = None
    hand_b: Sequence[str] | None = None
    discard_b: Sequence[str] | None = None


def _b(twin: Twin) -> Case:
    case = twin.case
    return replace(
        case,
        deck=case.deck if twin.deck_b is None else twin.deck_b,
        hand=case.hand if twin.hand_b is None else twin.hand_b,
        discard=case.discard if twin.discard_b is None else twin.discard_b,
        answers=twin.answers_b,
    )


def _seen_by(
    before: State, game: Game, facts: Sequence[ev.Fact], text: str, seat: str, viewer: Viewer
) -> bytes:
    """Everything `viewer` may read after a step: its facts, the action's line (redacted as
    the state it answered), the table's picture and the open prompts."""
    action = RULESET.parse_notation(text, before)
    assert not isinstance(action, Rejection), action
    return msgspec.json.encode(
        [
            [
                msgspec.to_builtins(RULESET.redact(f, viewer))
                for f in facts
                if not isinstance(f, ev.StackSaved)
            ],
            RULESET.format_action(RULESET.redact_action(action, seat, before, viewer)),
            RULESET.view(game.state, viewer),
            [
                msgspec.to_builtins(RULESET.redact_prompt(p, game.state, viewer))
                for p in RULESET.pending(game.state)
            ],
        ]
    )


def _steps(case: Case) -> list[tuple[str, str]]:
    return [("p1", case.play or f"play {case.card}"), *case.answers]


TWINS = [
    # Sentry's two cards differ; the discard keeps its count and its top card
    Twin(
        Case(
            "Sentry",
            {},
            deck=("Copper", "Gold", "Estate", "Silver"),
            answers=[("p1", "trash nothing"), ("p1", "discard Gold, Estate")],
            options=E2,
        ),
        deck_b=("Copper", "Silver", "Estate", "Gold"),
        answers_b=[("p1", "trash nothing"), ("p1", "discard Silver, Estate")],
    ),
    Twin(
        Case(
            "Sentry",
            {},
            deck=("Copper", "Gold", "Estate", "Silver"),
            answers=[("p1", "trash nothing"), ("p1", "discard nothing"), ("p1", "topdeck Gold, Estate")],
            options=E2,
        ),
        deck_b=("Copper", "Duchy", "Silver", "Gold"),
        answers_b=[("p1", "trash nothing"), ("p1", "discard nothing"), ("p1", "topdeck Duchy, Silver")],
    ),
    Twin(
        Case(
            "Harbinger",
            {},
            discard=("Gold", "Estate", "Copper"),
            answers=[("p1", "topdeck Gold")],
            options=E2,
        ),
        discard_b=("Silver", "Estate", "Copper"),
        answers_b=[("p1", "topdeck Silver")],
    ),
    Twin(
        Case(
            "Artisan",
            {},
            hand=("Copper", "Estate"),
            answers=[("p1", "gain Silver"), ("p1", "topdeck Estate")],
            options=E2,
        ),
        hand_b=("Copper", "Duchy"),
        answers_b=[("p1", "gain Silver"), ("p1", "topdeck Duchy")],
    ),
    Twin(
        Case(
            "Poacher",
            {},
            hand=("Copper", "Estate", "Gold"),
            answers=[("p1", "discard Gold, Estate")],
            options=E2,
            supply={"Curse": 0, "Estate": 0},
        ),
        hand_b=("Copper", "Estate", "Silver"),
        answers_b=[("p1", "discard Silver, Estate")],
    ),
    Twin(
        Case("Cellar", {}, hand=("Copper", "Estate", "Duchy"), answers=[("p1", "discard Copper, Estate")]),
        hand_b=("Silver", "Estate", "Duchy"),
        answers_b=[("p1", "discard Silver, Estate")],
    ),
]


def first_shown_difference(twin: Twin, viewer: Viewer) -> str | None:
    """The first step at which `viewer` can tell the twins apart, described; None if none."""
    a, b = twin.case.start(), _b(twin).start()
    assert a.state != b.state
    for (seat, step_a), (_, step_b) in zip(_steps(twin.case), _steps(_b(twin)), strict=True):
        before_a, before_b = a.state, b.state
        facts_a, facts_b = a.do(seat, step_a), b.do(seat, step_b)
        shown_a = _seen_by(before_a, a, facts_a, step_a, seat, viewer)
        shown_b = _seen_by(before_b, b, facts_b, step_b, seat, viewer)
        if shown_a != shown_b:
            return (
                f"{twin.case.card}: {step_a!r} and {step_b!r} show {viewer}\nA: {shown_a!r}\nB: {shown_b!r}"
            )
    assert a.state != b.state  # the difference lasted to the end, out of the viewer's sight
    return None


@pytest.mark.parametrize("twin", TWINS, ids=lambda t: t.case.card)
@pytest.mark.parametrize("viewer", [Viewer("seat", "p2"), PUBLIC], ids=str)
def test_a_card_played_on_hidden_cards_that_differ_looks_the_same_to_the_others(
    twin: Twin, viewer: Viewer
) -> None:
    found = first_shown_difference(twin, viewer)
    assert found is None, found
