"""Idempotency-Key on POST: same key + same body = the same response again, marked
``Idempotent-Replayed: true``, and nothing happens twice; same key + another body = 422."""

from __future__ import annotations

import pytest

from service_helpers import assert_problem, auth, snapshot

BID = {"type": "bid", "slot": 2, "money": 1, "bluff": True}


def _move(client, game, token, body, key=None):
    headers = auth(token)
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(f"{game.url}/moves", json=body, headers=headers)


def test_move_replayed_with_the_same_key(client, make_game):
    game = make_game(players=3, seed=1)
    first = _move(client, game, game.tokens[1], BID, key="k-1")
    assert first.status_code == 200
    assert "Idempotent-Replayed" not in first.headers
    after_first = snapshot(client, game)
    again = _move(client, game, game.tokens[1], BID, key="k-1")
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["ETag"] == first.headers["ETag"]
    assert snapshot(client, game) == after_first  # no second move, no second event

    # the replay still works after the game moved on
    assert _move(client, game, game.tokens[2], dict(BID, slot=3)).status_code == 200
    later = _move(client, game, game.tokens[1], BID, key="k-1")
    assert later.status_code == 200 and later.get_json() == first.get_json()
    assert later.headers["Idempotent-Replayed"] == "true"


def test_move_key_reused_with_another_body(client, make_game):
    game = make_game(players=3, seed=1)
    assert _move(client, game, game.tokens[1], BID, key="k-2").status_code == 200
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.tokens[1], dict(BID, bluff=False), key="k-2"), 422,
                   "idempotency_key_reused")
    assert snapshot(client, game) == before


def test_move_keys_are_per_token(client, make_game):
    """Another seat using the same key makes its own move; it does not get seat 1's answer."""
    game = make_game(players=3, seed=1)
    mine = _move(client, game, game.tokens[1], BID, key="shared")
    theirs = _move(client, game, game.tokens[2], BID, key="shared")
    assert theirs.status_code == 200
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json()["version"] == mine.get_json()["version"] + 1
    assert theirs.get_json()["game"]["you"]["seat"] == 2


def test_failed_move_is_not_recorded(client, make_game):
    game = make_game(players=3, seed=1, first_maestro=0)
    helper = {"type": "bid", "slot": None, "money": 1, "bluff": False}
    assert_problem(_move(client, game, game.tokens[0], helper, key="k-3"), 422,
                   "maestro_cannot_hire_helper")
    ok = _move(client, game, game.tokens[0], BID, key="k-3")
    assert ok.status_code == 200 and "Idempotent-Replayed" not in ok.headers


def test_invalid_idempotency_key(client, make_game):
    game = make_game(players=3, seed=1)
    before = snapshot(client, game)
    assert_problem(_move(client, game, game.tokens[1], BID, key="x" * 201), 400,
                   "invalid_idempotency_key")
    assert snapshot(client, game) == before


def test_create_game_replayed(client, redis_client):
    body = {"ruleset": "turandot", "players": 3, "seed": 5}
    first = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-1"})
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert len(list(redis_client.scan_iter("game:{*}", _type="hash"))) == 1
    assert_problem(client.post("/v1/games", json=dict(body, players=4),
                               headers={"Idempotency-Key": "create-1"}),
                   422, "idempotency_key_reused")
    assert len(list(redis_client.scan_iter("game:{*}", _type="hash"))) == 1
    # another key: another game
    other = client.post("/v1/games", json=body, headers={"Idempotency-Key": "create-2"})
    assert other.get_json()["game"]["id"] != first.get_json()["game"]["id"]


def test_failed_create_releases_the_key(client):
    bad = {"ruleset": "turandot", "players": 3, "options": {"first_maestro": 7}}
    assert_problem(client.post("/v1/games", json=bad, headers={"Idempotency-Key": "c-3"}), 422,
                   "invalid_first_maestro")
    good = client.post("/v1/games", json={"ruleset": "turandot", "players": 3},
                       headers={"Idempotency-Key": "c-3"})
    assert good.status_code == 201


def test_join_replayed(client, make_game):
    game = make_game(players=3, seats=1)
    first = client.post(f"{game.url}/seats", json={"name": "Anna"},
                        headers={"Idempotency-Key": "join-1"})
    assert first.status_code == 201 and first.get_json()["seat"] == 1
    assert "Idempotent-Replayed" not in first.headers
    before = snapshot(client, game)
    again = client.post(f"{game.url}/seats", json={"name": "Anna"},
                        headers={"Idempotency-Key": "join-1"})
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert snapshot(client, game) == before  # one seat taken, not two
    assert_problem(client.post(f"{game.url}/seats", json={"name": "Bruno"},
                               headers={"Idempotency-Key": "join-1"}),
                   422, "idempotency_key_reused")
    assert snapshot(client, game) == before
    view = client.get(game.url).get_json()
    assert view["seats_taken"] == 2 and view["status"] == "open"
    # the replayed token works
    token = again.get_json()["token"]
    assert client.get(game.url, headers=auth(token)).get_json()["you"]["seat"] == 1


def test_replay_records_pack_small_and_unpack_whole():
    """A replay record round-trips through the store's codec, and a long one packs small."""
    import orjson

    from impresario_engine.store.codec import pack as _pack, unpack as _unpack

    record = {"fp": "x", "status": 200, "body": {"version": 3}}
    assert _unpack(orjson.dumps(record)) == record  # a hash field may hold plain JSON
    assert _unpack(_pack(record)) == record
    big = {"fp": "y", "status": 200, "body": {"events": [{"seq": i, "type": "hired"}
                                                         for i in range(300)]}}
    assert len(_pack(big)) < len(orjson.dumps(big)) // 3
    assert _unpack(_pack(big)) == big


def test_a_replay_never_hands_a_credential_to_another_client(client, make_game):
    """An Idempotency-Key is no password: another client (another address) sending the same
    key and body gets 409 idempotency_key_taken and no token, whether the first request took
    a seat or created a game; the same client still gets its lost answer back."""
    here, there = {"REMOTE_ADDR": "203.0.113.5"}, {"REMOTE_ADDR": "198.51.100.20"}
    key = {"Idempotency-Key": "join-anna"}
    game = make_game(players=3, seats=1)
    first = client.post(f"{game.url}/seats", json={"name": "Anna"}, headers=key,
                        environ_base=here)
    assert first.status_code == 201
    seated = snapshot(client, game)
    stolen = client.post(f"{game.url}/seats", json={"name": "Anna"}, headers=key,
                         environ_base=there)
    body = assert_problem(stolen, 409, "idempotency_key_taken")
    assert snapshot(client, game) == seated  # nobody was seated
    assert first.get_json()["token"] not in stolen.get_data(as_text=True)
    assert "token" not in body
    again = client.post(f"{game.url}/seats", json={"name": "Anna"}, headers=key,
                        environ_base=here)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json()["token"] == first.get_json()["token"]

    create = {"ruleset": "turandot", "players": 2, "seed": 4}
    key = {"Idempotency-Key": "create-mine"}
    made = client.post("/v1/games", json=create, headers=key, environ_base=here)
    assert made.status_code == 201
    listed = client.get("/v1/games?status=open&limit=100").get_json()["games"]
    taken = client.post("/v1/games", json=create, headers=key, environ_base=there)
    assert_problem(taken, 409, "idempotency_key_taken")
    assert client.get("/v1/games?status=open&limit=100").get_json()["games"] == listed  # no game
    assert made.get_json()["host_token"] not in taken.get_data(as_text=True)
    back = client.post("/v1/games", json=create, headers=key, environ_base=here)
    assert back.status_code == 201 and back.headers["Idempotent-Replayed"] == "true"
    assert back.get_json()["host_token"] == made.get_json()["host_token"]


# --- a move's record keeps what its answer was made of, not the answer (issue 26) ----------

def _keyed_moves(client, game, rng, keys: dict[str, tuple[int, dict, bytes]], every: int,
                 stop=None, prefix: str = "k") -> None:
    """Play ``game`` on with random legal moves, every ``every``-th with an Idempotency-Key
    whose first answer (its bytes) goes to ``keys``; until the end, or ``stop(view)``."""
    from service_helpers import random_move

    n = 0
    while True:
        view = client.get(game.url).get_json()
        if view["status"] == "finished" or (stop and stop(view)):
            return
        seat = rng.choice([p["seat"] for p in view["pending"]])
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()
        move = random_move(actions, rng)
        key = f"{prefix}-{n}" if n % every == 0 else None
        resp = _move(client, game, game.tokens[seat], move, key=key)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        if key:
            keys[key] = (seat, move, resp.get_data())
        n += 1


def _replays_alike(client, game, keys) -> None:
    for key, (seat, move, first) in keys.items():
        again = _move(client, game, game.tokens[seat], move, key=key)
        assert again.status_code == 200, (key, again.get_data(as_text=True))
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.get_data() == first, key  # byte for byte


def test_replayed_moves_answer_byte_for_byte_after_the_game_moved_on_ended_and_was_archived(
        client, make_game, redis_client, caplog):
    """Keys at moves all through a game with deadlines (a move's view shows them); each replay,
    after the game moved on, after a player left (a bot took the seat), after the end (the
    events then come from the archive), is the first answer, byte for byte; nothing logged
    of a difference."""
    import random

    game = make_game(players=4, seed=5, move_seconds=600)
    rng = random.Random(5)
    keys: dict[str, tuple[int, dict, bytes]] = {}
    _keyed_moves(client, game, rng, keys, every=3, stop=lambda v: v["round"] >= 2)
    _replays_alike(client, game, keys)  # the game moved on
    assert client.delete(f"{game.url}/seats/3", headers=auth(game.tokens[3])).status_code == 200
    _keyed_moves(client, game, rng, keys, every=3, prefix="after-leaving")
    assert client.get(game.url).get_json()["status"] == "finished"
    assert redis_client.hexists(f"game:{{{game.id}}}", "events")  # archived
    with caplog.at_level("WARNING", logger="impresario_engine.usecases"):
        _replays_alike(client, game, keys)
    assert not [r for r in caplog.records if "differs" in r.getMessage()]
    assert len(keys) > 10


def test_a_moves_record_is_small_and_holds_no_view(client, make_game, redis_client):
    """The record of a move is its facts (versions, sequence numbers, the table's fields) and a
    digest: a few hundred bytes, none of the seat's cards."""
    game = make_game(players=3, seed=1)
    resp = _move(client, game, game.tokens[1], BID, key="small")
    assert resp.status_code == 200
    records = redis_client.hgetall(f"game:{{{game.id}}}:idem")
    assert len(records) == 1
    (raw,) = records.values()
    assert len(raw) < 1000 < len(resp.get_data())
    hand = resp.get_json()["game"]["you"]["hand"]
    assert b'"hand"' not in raw and b'"numbers"' not in raw, hand


@pytest.mark.parametrize("ruleset, players, options", [
    ("wordjam", 5, {}), ("muzicando", 2, {"hands": 2})])
def test_replayed_moves_of_word_jam_and_muzicando_answer_byte_for_byte(
        client, make_game, ruleset, players, options):
    """The other rulesets' answers are made again alike: each seat plays the default move the
    engine offers it, every other move with a key, and each replay after the game moved on is
    the first answer, byte for byte."""
    game = make_game(players=players, seed=3, ruleset=ruleset, **options)
    keys: dict[str, tuple[int, dict, bytes]] = {}
    for n in range(60):
        view = client.get(game.url).get_json()
        if view["status"] == "finished" or not view["pending"]:
            break
        seat = view["pending"][0]["seat"]
        move = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()[
            "default"]
        key = f"{ruleset}-{n}" if n % 2 == 0 else None
        resp = _move(client, game, game.tokens[seat], move, key=key)
        assert resp.status_code == 200, resp.get_data(as_text=True)
        if key:
            keys[key] = (seat, move, resp.get_data())
    assert len(keys) >= 10
    _replays_alike(client, game, keys)
