"""Bots never stall a game: tables of bots only, at ``bot_seconds`` 0, each game finished in the
request that takes its last seat, and no bot's move ever changed nothing (the engine then plays
the seat's default and logs "a bot's move changed nothing"; a Word Jam easy bot once stalled
its game that way, a few games in a hundred).

Each game has its own seed and its own secret (reproducible: ``reproducible_bot_secrets``), on
the fake clock, so a failure names a game that fails again the same way. ``make test`` plays
sixty games of each table, ``make test-deep`` ten times as many.
"""

from __future__ import annotations

import pytest

from .games_helpers import get_json, setup_table

TABLES = [("turandot", ["easy"] * 4), ("turandot", ["easy", "medium"]),
          ("muzicando", ["easy"] * 4), ("muzicando", ["medium"] * 3),
          ("wordjam", ["easy"] * 6), ("wordjam", ["medium"] * 5),
          ("wordjam", ["easy", "medium", "easy", "medium", "easy"])]


@pytest.mark.parametrize("games", [pytest.param(60, id="60"),
                                   pytest.param(400, id="400", marks=pytest.mark.deep)])
@pytest.mark.parametrize("ruleset,bots", TABLES, ids=[f"{r}-{'-'.join(b)}" for r, b in TABLES])
def test_tables_of_bots_finish_their_games(client, clock, engine_log, ruleset, bots, games):
    stalled = []
    for seed in range(1, games + 1):
        table = setup_table(client, ruleset, bots, seed, bot_seconds=0)
        view = get_json(client, table.url)
        if view["status"] != "finished":
            stalled.append((seed, view["phase"]))
    assert stalled == []
    assert [r.getMessage() for r in engine_log.records if "changed nothing" in r.getMessage()
            ] == []
