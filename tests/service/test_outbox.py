"""The outbox (store/redis_store.py, write.lua): a write of a game that notifies appends one
entry (the game, the first and the last seq of its events) in the same atomic step as the
move; a game that does not notify writes none. On a cluster (``lane.pool`` None: a script
there touches one slot) the entry is staged in the game's own slot and moved right after; a
process that dies in between leaves it staged, and a sender's sweep moves it."""

from __future__ import annotations

import orjson

from impresario_engine.store import GameStore
from impresario_engine.store.connection import Lane
from impresario_engine.store.redis_store import staging_key

OUTBOX = "impresario:outbox"


def _doc(game_id: str, notify: bool) -> dict:
    return {"id": game_id, "seq": 0, "notify": notify}


def _entries(redis_client) -> list[dict[str, str]]:
    return [{k.decode(): v.decode() for k, v in fields.items()}
            for _eid, fields in redis_client.xrange(OUTBOX)]


def _write(store: GameStore, game_id: str, expected, events: int, first: int, notify: bool):
    return store.write(game_id, expected, _doc(game_id, notify),
                       [{"type": "e", "n": i} for i in range(events)], first, 60,
                       notify=notify)


def test_a_write_of_a_game_that_notifies_fills_the_outbox(redis_client):
    redis_client.flushdb()
    store = GameStore(redis_client)
    assert _write(store, "loud", None, 3, 1, True) == (True, 1)
    assert _write(store, "quiet", None, 3, 1, False) == (True, 1)
    assert _write(store, "loud", 1, 2, 4, True) == (True, 2)
    assert _write(store, "loud", 2, 0, 6, True) == (True, 3)  # no events: no entry
    assert _write(store, "loud", 1, 2, 4, True)[0] is False  # a lost compare-and-set: none
    if store.lane.pool is None:  # a cluster: moved right after the write
        assert not redis_client.exists(staging_key("loud"))
    assert _entries(redis_client) == [{"g": "loud", "f": "1", "l": "3"},
                                      {"g": "loud", "f": "4", "l": "5"}]
    assert [seq for seq, _e in store.events("loud", 3, 2)] == [4, 5]


def test_a_cluster_stages_the_entry_in_the_games_slot_and_a_sweep_moves_it(redis_client,
                                                                           monkeypatch):
    redis_client.flushdb()
    store = GameStore(redis_client)
    store.lane = store._write.lane = Lane(None)  # the cluster's path, on this server
    monkeypatch.setattr(store, "move_staged", lambda game_id: 0)  # died before moving it
    assert _write(store, "g1", None, 2, 1, True) == (True, 1)
    assert _write(store, "g2", None, 1, 1, True) == (True, 1)
    assert _entries(redis_client) == []
    assert redis_client.xlen(staging_key("g1")) == 1
    monkeypatch.undo()
    assert store.sweep_staged() == 2
    assert sorted(orjson.dumps(e) for e in _entries(redis_client)) == sorted(
        orjson.dumps(e) for e in [{"g": "g1", "f": "1", "l": "2"}, {"g": "g2", "f": "1",
                                                                     "l": "1"}])
    assert not redis_client.exists(staging_key("g1")) and not redis_client.exists(
        staging_key("g2"))
    # and a write that moves its own entry at once
    assert _write(store, "g1", 1, 1, 3, True) == (True, 2)
    assert _entries(redis_client)[-1] == {"g": "g1", "f": "3", "l": "3"}
    assert not redis_client.exists(staging_key("g1"))


def test_a_game_that_does_not_notify_costs_no_outbox_key(redis_client):
    redis_client.flushdb()
    store = GameStore(redis_client)
    for n in range(3):
        assert _write(store, "plain", n or None, 2, 2 * n + 1, False)[0]
    assert not redis_client.exists(OUTBOX) and not redis_client.exists(staging_key("plain"))
