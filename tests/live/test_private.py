"""Private games: spectators see nothing without the host's spectator link (``?spectator=`` or
the spectator token as a bearer token); seats and the host still see their own views; a public
game says ``private: false`` and shows spectators everything public."""

from __future__ import annotations

import pytest

from .live_helpers import SSE, TestStream, create, seat, setup_game
from service_helpers import assert_problem, auth

READS = ("", "/events", "/actions", "/score", "/replay")


def test_private_game_hides_everything_from_spectators_without_the_link(client):
    created, tokens = setup_game(client, [None, "greedy", None], seed=3, private=True)
    gid, spectator = created["game"]["id"], created["spectator_token"]
    assert spectator and created["spectator_link"] == f"/v1/games/{gid}?spectator={spectator}"
    assert created["game"]["private"] is True
    base = f"/v1/games/{gid}"
    for path in READS:
        assert_problem(client.get(base + path), 403, "private_game")
    assert_problem(client.get(base + "/events", headers=SSE), 403, "private_game")
    assert_problem(client.get(base + "/events?spectator=wrong"), 401, "invalid_token")
    assert_problem(client.get(base, headers=auth("wrong")), 401, "invalid_token")

    # with the link, or its token as a bearer token: the spectator's view
    for how in ({"query": f"?spectator={spectator}"}, {"headers": auth(spectator)}):
        q, h = how.get("query", ""), how.get("headers", {})
        view = client.get(base + q, headers=h)
        assert view.status_code == 200
        body = view.get_json()
        assert "you" not in body and body["private"] is True and body["status"] == "playing"
        events = client.get(f"{base}/events{q}", headers=h).get_json()["events"]
        assert events and all("bid" not in e for e in events)
        assert client.get(f"{base}/actions{q}", headers=h).get_json() == {
            "seat": None, "pending": [], "moves": [], "default": None}
        assert_problem(client.get(f"{base}/score{q}", headers=h), 409, "game_not_finished")
        assert_problem(client.get(f"{base}/replay{q}", headers=h), 409, "game_not_finished")
    link = client.get(created["spectator_link"])
    assert link.status_code == 200 and "you" not in link.get_json()
    stream = TestStream(client, f"{base}/events?spectator={spectator}")
    try:
        assert stream.status == 200
        assert stream.next_block() == {"retry": 2000}
        assert stream.next_block()["event"] == "round_started"
    finally:
        stream.close()

    # the seats and the host still see their own views
    for s in (0, 2):
        you = client.get(base, headers=auth(tokens[s])).get_json()["you"]
        assert you["seat"] == s
    host_view = client.get(base, headers=auth(created["host_token"])).get_json()
    assert "you" not in host_view


def test_a_finished_private_game_shows_its_score_and_replay_only_with_the_link(client):
    created, _ = setup_game(client, ["greedy", "random"], seed=4, private=True)
    gid, spectator = created["game"]["id"], created["spectator_token"]
    base = f"/v1/games/{gid}"
    for path in READS:
        assert_problem(client.get(base + path), 403, "private_game")
    for path in READS:
        resp = client.get(f"{base}{path}?spectator={spectator}")
        assert resp.status_code == 200, (path, resp.get_data(as_text=True))
    assert client.get(f"{base}/replay", headers=auth(spectator)).get_json()["bots"] == [
        "greedy", "random"]


@pytest.mark.parametrize("private", [False, None])
def test_public_games_say_so(client, private):
    if private is None:  # the default
        resp = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1})
        created = resp.get_json()
    else:
        created = create(client, players=2, seed=1, private=private)
    assert created["spectator_token"] is None and created["spectator_link"] is None
    gid = created["game"]["id"]
    seat(client, gid, "A")
    seat(client, gid, "B")
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["private"] is False and "you" not in view
    for path in ("/events", "/actions"):
        assert client.get(f"/v1/games/{gid}{path}").status_code == 200
