"""The stored events of a game stream (design.md section 3).

One stream per game. Its events are the library's own dataclass events with primitive fields
(so the store's JSON transcoder needs no custom types and a golden test pins their bytes):

- `GameCreated`: the configuration, the seed commitment, never the seed;
- `ActionRecorded`: one action as entered at the table or over HTTP, with who entered it;
- `FactRecorded`: one fact a ruleset derived (`decide`) or opened the game with (`setup`);
  an action and its facts are saved together, in one transaction;
- `ActionsRetracted`: a correction: the last live actions it undoes (they stay stored), who
  asked, why, and who approved (domain/corrections.py);
- `RetractionRequested`, `RetractionAnswered`: a retraction waiting for the other seats;
- `GameResigned`: a seat left the game (which seat, who entered it, why); the game's
  `GameFinished` follows at once, ranked as the ruleset ranks a resignation (domain/endings.py);
- `GameAbandoned`: the game ends with no outcome (who, why), revealing the seed;
- `GameFinished`: the outcome, and the revealed seed of a digital game.

They are declared inside the `Game` aggregate, as the library expects, and named here for
everything that reads a stream. Every class carries an explicit `TOPIC`, so moving a module
never orphans stored events.
"""

from __future__ import annotations

from domain.game import Game

GameCreated = Game.Created
ActionRecorded = Game.ActionRecorded
FactRecorded = Game.FactRecorded
ActionsRetracted = Game.Retracted
RetractionRequested = Game.RetractionRequested
RetractionAnswered = Game.RetractionAnswered
GameResigned = Game.Resigned
GameAbandoned = Game.Abandoned
GameFinished = Game.Finished

STREAM_EVENTS = (
    GameCreated,
    ActionRecorded,
    FactRecorded,
    ActionsRetracted,
    RetractionRequested,
    RetractionAnswered,
    GameResigned,
    GameAbandoned,
    GameFinished,
)
