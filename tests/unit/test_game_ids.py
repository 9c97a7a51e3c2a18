"""Game ids are URL-safe and never start with "-" or "_", so that a command line never reads one
as an option (``impresario watch <id>``)."""

import re

from impresario_engine.table.access import new_game_id


def test_game_ids_start_with_a_letter_or_digit():
    ids = {new_game_id() for _ in range(5000)}
    assert len(ids) == 5000
    for game_id in ids:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]{11}", game_id), game_id
