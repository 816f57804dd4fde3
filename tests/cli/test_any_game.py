"""A game of `any` through the `chronicle` command: created with its title and definition,
entered in its notation, read by the public without the cards drawn in secret, and audited
clean once it ends (every roll and shuffle recomputed from the revealed seed)."""

from __future__ import annotations

import json

from tests.cli.conftest import Cli

DEFINITION = json.dumps({"decks": [{"name": "market", "cards": {"Gold": 2, "Silver": 3}}]})


def test_a_game_of_any_kind_is_recorded_read_and_audited_clean(cli: Cli) -> None:
    refused = cli.fails(1, "new", "any", "--player", "Ann")
    assert "title_required" in refused
    game_id = cli.new_game(
        "any",
        "--player",
        "Ann",
        "--player",
        "Ben",
        "--option",
        "title=Market day",
        "--option",
        f"definition={DEFINITION}",
    )
    out = cli.ok(
        "record", game_id, "roll 2d6", "draw 2 market to Ann", "score Ann +3", "shuffle market", "end turn"
    )
    assert "Ann draws 2 cards from the market deck: " in out
    public = cli.ok("log", game_id, "--as", "public")
    assert "Ann draws 2 cards from the market deck." in public
    assert "Gold" not in public and "Silver" not in public
    cli.ok("record", game_id, "end game")
    audit = cli.ok("audit", game_id)
    assert f"{game_id}  clean" in audit
