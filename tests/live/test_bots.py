"""Bot seats: the host adds seats the engine plays (``random`` or ``greedy``); bots act inside the
request that makes it their turn, so one human can play a whole game alone, and bot moves appear
in the feed like anyone's."""

from __future__ import annotations

import random

import pytest

from .live_helpers import create, doc_of, raw_events, seat
from service_helpers import assert_problem, auth, random_move, stored


class CountingClient:
    """The human's only way to the server: counts every request."""

    def __init__(self, client, token: str) -> None:
        self.client = client
        self.token = token
        self.requests: list[tuple[str, str]] = []

    def get(self, path: str):
        self.requests.append(("GET", path))
        return self.client.get(path, headers=auth(self.token))

    def post(self, path: str, body):
        self.requests.append(("POST", path))
        return self.client.post(path, json=body, headers=auth(self.token))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_human_plays_a_whole_game_against_three_bots(client, redis_client, seed):
    created = create(client, players=4, seed=seed, first_maestro="random")
    gid, host = created["game"]["id"], created["host_token"]
    human = seat(client, gid, "Human")
    assert human["seat"] == 0 and human["token"]
    bots = {}
    for name, kind in (("Ada", "greedy"), ("Bob", "greedy"), ("Cy", "random")):
        joined = seat(client, gid, name, kind, host)
        assert joined["token"] is None and joined["bot"] == kind
        bots[joined["seat"]] = kind
    # the last join started the game and the bots already played whatever was theirs
    version_at_start = stored(redis_client, gid)[0]
    assert version_at_start == 5, "create, three seats, and the start, each one write"

    me = CountingClient(client, human["token"])
    rng = random.Random(seed)
    moves = 0
    while True:
        actions = me.get(f"/v1/games/{gid}/actions").get_json()
        # the bots never keep the human waiting: it is the human's turn whenever the game is on
        assert actions["pending"], "a bot left the human waiting"
        resp = me.post(f"/v1/games/{gid}/moves", random_move(actions, rng))
        assert resp.status_code == 200, resp.get_data(as_text=True)
        moves += 1
        body = resp.get_json()
        # one write per human move, whatever the bots did inside it
        assert body["version"] == version_at_start + moves
        if body["game"]["status"] == "finished":
            break
        assert moves < 100
    assert len(me.requests) == 2 * moves
    assert {m for m, _ in me.requests} == {"GET", "POST"}

    doc = doc_of(redis_client, gid)
    assert doc["status"] == "finished"
    assert [s["token"] is None for s in doc["seats"]] == [False, True, True, True]
    assert [s["bot"] for s in doc["seats"]] == [None, "greedy", "greedy", "random"]
    by_seat = {s: {m[2] for m in doc["moves"] if m[0] == s} for s in range(4)}
    assert by_seat == {0: {"seat"}, 1: {"bot"}, 2: {"bot"}, 3: {"bot"}}
    assert sum(1 for m in doc["moves"] if m[0] == 0) == moves

    # the bots' moves are in the feed like anyone's: their sealed bids (hidden from the human),
    # their office hires and nominations as maestro, their casts
    feed = client.get(f"/v1/games/{gid}/events", headers=auth(human["token"])).get_json()
    events = feed["events"]
    assert [e["seq"] for e in events] == list(range(1, doc["seq"] + 1))
    for bot_seat in bots:
        commits = [e for e in events if e["type"] == "bid_committed" and e["seat"] == bot_seat]
        assert len(commits) == 7 and all("bid" not in e for e in commits)
        assert any(e["type"] == "cast" and e["seat"] == bot_seat for e in events)
    mine = [e for e in events if e["type"] == "bid_committed" and e["seat"] == 0]
    assert len(mine) == 7 and all("bid" in e for e in mine)
    assert [e for e in events if e["type"] == "seat_taken"] == [
        {"seq": i + 1, "type": "seat_taken", "seat": i, "name": name, "bot": kind}
        for i, (name, kind) in enumerate([("Human", None), ("Ada", "greedy"), ("Bob", "greedy"),
                                          ("Cy", "random")])]
    # round 1's table is laid out once every seat is taken, never before
    assert [e["type"] for e in events[4:6]] == ["game_started", "round_started"]
    assert events[-1]["type"] == "game_finished"
    view = client.get(f"/v1/games/{gid}").get_json()
    assert [p["bot"] for p in view["players"]] == [None, "greedy", "greedy", "random"]


def test_four_bots_play_the_whole_game_inside_the_last_join(client, redis_client):
    created = create(client, players=4, seed=10)
    gid, host = created["game"]["id"], created["host_token"]
    for i, kind in enumerate(["greedy", "random", "greedy"]):
        assert seat(client, gid, f"B{i}", kind, host)["game"]["status"] == "open"
    version = stored(redis_client, gid)[0]
    last = seat(client, gid, "B3", "random", host)
    assert last["game"]["status"] == "finished"
    assert last["game"]["score"]["winners"]
    assert stored(redis_client, gid)[0] == version + 1, "the whole game in one write"
    types = [e["type"] for _, e in raw_events(redis_client, gid)]
    assert types[-1] == "game_finished" and types.count("bid_committed") == 28
    assert {m[2] for m in doc_of(redis_client, gid)["moves"]} == {"bot"}


def test_bot_seat_errors_leave_the_game_unchanged(client, redis_client):
    created = create(client, players=3, seed=11, private=True)
    gid, host = created["game"]["id"], created["host_token"]
    human = client.post(created["join_link"], json={"name": "Human"}).get_json()
    url = f"/v1/games/{gid}/seats"
    before = stored(redis_client, gid), raw_events(redis_client, gid)

    def unchanged():
        assert (stored(redis_client, gid), raw_events(redis_client, gid)) == before

    assert_problem(client.post(url, json={"name": "R", "bot": "greedy"}), 401, "host_only")
    unchanged()
    assert_problem(client.post(url, json={"name": "R", "bot": "greedy"},
                               headers=auth(human["token"])), 403, "host_only")
    unchanged()
    assert_problem(client.post(url, json={"name": "R", "bot": "greedy"},
                               headers=auth(created["spectator_token"])), 403, "host_only")
    unchanged()
    for bad in ("smart", "GREEDY", "dummy"):
        assert_problem(client.post(url, json={"name": "R", "bot": bad}, headers=auth(host)),
                       422, "unknown_bot")
        unchanged()
    assert_problem(client.post(url, json={"name": "R", "bot": "greedy"},
                               headers=auth("forged")), 401, "invalid_token")
    unchanged()
    assert_problem(client.post(url, json={"name": "Human", "bot": "greedy"},
                               headers=auth(host)), 409, "name_taken")
    unchanged()
    # then the host does add bots; the full game refuses one more
    seat(client, gid, "R1", "greedy", host)
    seat(client, gid, "R2", "random", host)
    full = stored(redis_client, gid)
    assert_problem(client.post(url, json={"name": "R3", "bot": "greedy"}, headers=auth(host)),
                   409, "game_full")
    assert stored(redis_client, gid) == full
