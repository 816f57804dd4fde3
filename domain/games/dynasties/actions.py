"""Recordable actions of Dynasties & Kingdoms (rules version dk-1): dynasties-kingdoms.md 5.3.

One Struct per action kind, tagged by `kind` with the spec's action names. Rulings:

- `create_game` is the core game-creation event (players are the seats, the map and variants
  are options); there is no action for it.
- The acting player is the command's seat (or, for the recorder, the seat that is prompted),
  so actions carry no `player` field; `roll_turn_order` names the player who rolled.
- Digital mode (records 4): actions never carry seeds. The engine rolls, shuffles and deals
  itself; an outcome field given in a digital action must equal the drawn one
  (`RESULT_MISMATCH`), e.g. `roll_city` with a `value`. Deals, the automatic rebels' draws,
  showdowns and city destruction rolls are derived steps in digital mode.
- Physical mode: the spec's `reshuffle: {}` / `shuffle: {}` objects are the booleans
  `reshuffle` / `shuffle`.
"""

from __future__ import annotations

import msgspec

from domain.games.dynasties.state import Source


class _Action(msgspec.Struct, frozen=True, tag_field="kind", tag=True, forbid_unknown_fields=True):
    pass


class RollTurnOrder(_Action, frozen=True, tag="roll_turn_order"):
    player: str
    value: int | None = None


class PickHomeland(_Action, frozen=True, tag="pick_homeland"):
    province: str


class ShuffleDeck(_Action, frozen=True, tag="shuffle_deck"):
    pass


class RollCity(_Action, frozen=True, tag="roll_city"):
    province: str
    value: int | None = None


class RollProvince(_Action, frozen=True, tag="roll_province"):
    province: str
    first: int | None = None
    second: int | None = None


class MoveArmy(_Action, frozen=True, tag="move_army"):
    to: str
    from_: tuple[Source, ...] = msgspec.field(name="from")


class ChooseRebelController(_Action, frozen=True, tag="choose_rebel_controller"):
    controller: str


class DealBattle(_Action, frozen=True, tag="deal_battle"):
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...]
    reshuffle: bool = False
    shuffle: bool = False


class DiscardAndDraw(_Action, frozen=True, tag="discard_and_draw"):
    side: str
    discard: tuple[str, ...] = ()
    draw: tuple[str, ...] | None = None
    reshuffle: bool = False


class ResolveBattle(_Action, frozen=True, tag="resolve_battle"):
    declared_winner: str | None = None


class RollCityDestruction(_Action, frozen=True, tag="roll_city_destruction"):
    value: int | None = None


class EndPhase(_Action, frozen=True, tag="end_phase"):
    phase: str


Action = (
    RollTurnOrder
    | PickHomeland
    | ShuffleDeck
    | RollCity
    | RollProvince
    | MoveArmy
    | ChooseRebelController
    | DealBattle
    | DiscardAndDraw
    | ResolveBattle
    | RollCityDestruction
    | EndPhase
)
