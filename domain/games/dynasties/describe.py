"""One log line per fact of Dynasties & Kingdoms (rules version dk-1, dynasties-kingdoms.md 5.6),
with seat names. Redacted facts (hidden cards as "??", shuffles without their order) read
naturally."""

from __future__ import annotations

from domain.games.dynasties import events as E
from domain.games.dynasties.cards import hand_words
from domain.ruleset import GameConfig


def _cards(cards: tuple[str, ...]) -> str:
    return " ".join(cards) if cards else "nothing"


def _how(stream: str | None, n: int | None) -> str:
    return f" ({stream} #{n})" if stream is not None else " (observed)"


def describe(fact: E.Fact, config: GameConfig) -> str:
    name = config.seat_name

    def who(seat: str | None) -> str:
        return name(seat) if seat is not None else "the rebels"

    if isinstance(fact, E.GameVoided):
        return f"The game cannot be played: {fact.code} {fact.message}"
    if isinstance(fact, E.MapWarned):
        return "Map warnings: " + "; ".join(fact.warnings)
    if isinstance(fact, E.TurnOrderRolled):
        return f"{name(fact.player)} rolls {fact.value} for turn order{_how(fact.stream, fact.n)}."
    if isinstance(fact, E.RollOffRegrouped):
        return "Tied players roll again: " + " | ".join(", ".join(map(name, g)) for g in fact.groups) + "."
    if isinstance(fact, E.TurnOrderDecided):
        return f"Turn order: {', '.join(map(name, fact.order))}."
    if isinstance(fact, E.HomelandPicked):
        return f"{name(fact.player)} picks {fact.province} as homeland (4 armies and a city)."
    if isinstance(fact, E.DeckShuffled):
        return f"The deck of {fact.count} cards is shuffled{_how(fact.stream, fact.n)}."
    if isinstance(fact, E.BlocksLifted):
        return f"The blocks of {name(fact.player)} end: {', '.join(fact.provinces)}."
    if isinstance(fact, E.TurnSkipped):
        return f"{name(fact.player)} is eliminated; the turn is skipped."
    if isinstance(fact, E.TurnStarted):
        return f"Round {fact.round}: {name(fact.player)}'s turn begins."
    if isinstance(fact, E.PhaseStarted):
        return f"{name(fact.player)}: {fact.phase} phase."
    if isinstance(fact, E.CityRolled):
        why = " (Build)" if fact.build else ""
        how = _how(fact.stream, fact.n)
        return f"{name(fact.player)} rolls {fact.value} on the City Table for {fact.province}{why}{how}."
    if isinstance(fact, E.ProvinceRolled):
        roll = f"{fact.first}-{fact.second}"
        how = _how(fact.stream, fact.n)
        return f"{name(fact.player)} rolls {roll} for {fact.province}: {fact.name} ({fact.effect}){how}."
    if isinstance(fact, E.VtGained):
        return f"{name(fact.player)} gains {fact.amount} VT ({fact.source})."
    if isinstance(fact, E.ArmiesPlaced):
        lost = f" ({fact.lost} lost to a limit)" if fact.lost else ""
        armies = "army" if fact.count == 1 else "armies"
        return f"{name(fact.player)} gains {fact.count} {armies} in {fact.province}{lost}."
    if isinstance(fact, E.ArmiesDied):
        return f"All {fact.count} armies in {fact.province} die."
    if isinstance(fact, E.ProvinceBlocked):
        return f"{fact.province} is blocked by {name(fact.player)}."
    if isinstance(fact, E.CityBuilt):
        return f"A city is built in {fact.province}."
    if isinstance(fact, E.CityRemoved):
        return f"The city of {fact.province} is destroyed ({fact.reason})."
    if isinstance(fact, E.CityRollPending):
        return f"{fact.province} already has a city: a City Table roll follows."
    if isinstance(fact, E.ArmiesMoved):
        src = ", ".join(f"{s.count} from {s.province}" for s in fact.sources)
        return f"{name(fact.player)} moves {src} into {fact.to} ({fact.result})."
    if isinstance(fact, E.BattleStarted):
        return (
            f"Battle ({fact.context}) in {fact.province}: {who(fact.attacker_player)} with "
            f"{fact.attacker_strength} {'rebels' if fact.attacker_kind == 'rebels' else 'armies'} against "
            f"{who(fact.defender_player)} with {fact.defender_strength} "
            f"{'rebels' if fact.defender_kind == 'rebels' else 'armies'}."
        )
    if isinstance(fact, E.RebelControllerChosen):
        return f"{name(fact.controller)} plays the rebels."
    if isinstance(fact, E.BattleDealt):
        re = " after a reshuffle" if fact.reshuffle is not None else ""
        return f"Dealt{re}: attacker {_cards(fact.attacker_cards)}; defender {_cards(fact.defender_cards)}."
    if isinstance(fact, E.CardsReplaced):
        return f"The {fact.side} discards {_cards(fact.discard)} and draws {_cards(fact.draw)}."
    if isinstance(fact, E.BattleResolved):
        a, d = fact.attacker_hand, fact.defender_hand
        tie = " (tie)" if fact.tie else ""
        return (
            f"Showdown: attacker {_cards(fact.attacker_cards)}, {hand_words(a)}; defender "
            f"{_cards(fact.defender_cards)}, {hand_words(d)}: {fact.winner} wins{tie}."
        )
    if isinstance(fact, E.CityDestructionRolled):
        fate = "destroyed" if fact.destroyed else "stands"
        how = _how(fact.stream, fact.n)
        return f"City destruction roll {fact.value} in {fact.province}: the city {fate}{how}."
    if isinstance(fact, E.ArmiesTrimmed):
        return "Army limit: " + ", ".join(f"{s.province} loses {s.count}" for s in fact.trimmed) + "."
    if isinstance(fact, E.PlayerEliminated):
        return f"{name(fact.player)} has no army left and is eliminated."
    if isinstance(fact, E.GameEnded):
        return f"The game ends ({fact.reason}): {', '.join(map(name, fact.winners)) or 'nobody'} wins."
    return type(fact).__name__  # pragma: no cover
