"""A game started in memory and not yet stored (`Core.start_game`), and what a game of a deal
takes from the game it replays. A started game is recorded on with no store in between
(`Started.record`, as `Core.record` records on a stored game) and then saved whole
(`Core.save_started`): store/simulation.py plays bot games so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from domain.game import Game
from domain.rng import Rng
from domain.ruleset import Command, Rejection
from store import clock
from store.requests import CreatedGame
from store.secrets import GameSecrets


class Dealt(Protocol):
    """What a same-deal game takes from the game it replays (store/deals.py `DealOf`)."""

    @property
    def first_game(self) -> str: ...

    @property
    def server_seed(self) -> bytes: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def client_seed(self) -> str: ...


def finish_if_over(game: Game, sealed: GameSecrets) -> None:
    """Close the game, revealing its seed, once the rules end it."""
    if game.outcome is None and game.ruleset.outcome(game.state) is not None:
        game.finish(sealed.server_seed, clock.now())


@dataclass(frozen=True)
class Started:
    """A game created in memory and not yet stored: the game, its sealed secrets, its random
    generator, the answer its creation gives, and the deal it replays."""

    game: Game
    sealed: GameSecrets
    rng: Rng
    created: CreatedGame
    dealt: Dealt | None = None

    def record(self, command: Command) -> list[Any] | Rejection:
        """Decide and record `command`, as `Core.record` does on a stored game (the same
        `decide`, the same events, the game finished when the rules end it), with no store in
        between: its facts, or the rejection, which records nothing."""
        game = self.game
        facts = game.decide(command, self.rng)
        if isinstance(facts, Rejection):
            return facts
        game.record(command, facts, clock.now())
        finish_if_over(game, self.sealed)
        return facts
