"""Private games: spectators see nothing without the host's spectator link (``?spectator=`` or
the spectator token as a bearer token); seats and the host still see their own views; a public
game says ``private: false`` and shows spectators everything public."""

from __future__ import annotations

import pytest

from .live_helpers import SSE, TestStream, create, seat, setup_game
from service_helpers import assert_problem, auth

READS = ("", "/events", "/actions", "/score", "/replay", "/places")


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
        assert stream.next_block()["event"] == "seat_taken"
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


def test_a_private_game_seats_only_the_host_and_holders_of_its_join_link(client):
    """The spectator link never opens a seat: neither anonymously (the game id is in the
    link) nor with the spectator token as the bearer. The join link does, and it is another
    secret, returned at creation like the spectator link."""
    created = create(client, players=3, seed=5, private=True)
    gid, spectator = created["game"]["id"], created["spectator_token"]
    seats = f"/v1/games/{gid}/seats"
    assert_problem(client.post(seats, json={"name": "Eve"}), 403, "join_link_required")
    assert_problem(client.post(seats, json={"name": "Eve"}, headers=auth(spectator)), 403,
                   "spectator_read_only")
    join = created["join_token"]
    assert join and join != spectator and join != created["host_token"]
    assert created["join_link"] == f"/v1/games/{gid}/seats?join={join}"
    assert_problem(client.post(f"{seats}?spectator={spectator}", json={"name": "Eve"}), 403,
                   "join_link_required")
    assert_problem(client.post(f"{seats}?join={spectator}", json={"name": "Eve"}), 403,
                   "invalid_join_token")
    assert_problem(client.post(f"{seats}?join=", json={"name": "Eve"}), 403,
                   "invalid_join_token")
    # nothing was taken
    view = client.get(created["spectator_link"]).get_json()
    assert view["seats_taken"] == 0
    # the join link seats a player; the host's token seats the host (or a bot)
    anna = client.post(created["join_link"], json={"name": "Anna"})
    assert anna.status_code == 201 and anna.get_json()["seat"] == 0
    host = client.post(seats, json={"name": "Host"}, headers=auth(created["host_token"]))
    assert host.status_code == 201 and host.get_json()["seat"] == 1
    # a seated player's token is not a join link either
    assert_problem(client.post(seats, json={"name": "Bob"},
                               headers=auth(anna.get_json()["token"])), 403,
                   "join_link_required")
    bob = client.post(created["join_link"], json={"name": "Bob"})
    assert bob.status_code == 201 and bob.get_json()["game"]["status"] == "playing"
    # and the spectator token never writes anything
    move = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
    assert_problem(client.post(f"/v1/games/{gid}/moves", json=move, headers=auth(spectator)),
                   403, "not_a_seat")
    assert_problem(client.post(f"/v1/games/{gid}/resolve", headers=auth(spectator)), 403,
                   "not_a_player")


def test_public_games_have_no_join_link(client):
    created = create(client, players=2, seed=1)
    assert created["join_token"] is None and created["join_link"] is None


LISTINGS = ["", "?status=open", "?status=playing", "?status=finished", "?ruleset=turandot",
            "?has_bots=true", "?has_bots=false", "?status=finished&has_bots=false"]


def _listed(client) -> set[str]:
    seen = set()
    for query in LISTINGS:
        path = f"/v1/games{query}{'&' if query else '?'}limit=100"
        while path:
            body = client.get(path).get_json()
            seen |= {g["id"] for g in body["games"]}
            path = body["next"]
    return seen


def test_private_games_never_appear_in_the_list_of_games(client):
    """Open, in play, finished, and their rematch: under no filter is a private game listed
    (nor a token or the spectator link); the public game beside it is, in every state."""
    hidden = create(client, players=2, seed=5, private=True)
    shown = create(client, players=2, seed=5)
    hid, gid = hidden["game"]["id"], shown["game"]["id"]
    secrets = [hidden["host_token"], hidden["spectator_token"], hidden["join_token"],
               shown["host_token"]]

    def check(state: str) -> None:
        listed = _listed(client)
        assert hid not in listed and gid in listed, state
        text = client.get("/v1/games?limit=100").get_data(as_text=True)
        assert not any(s in text for s in secrets if s), state
        assert "spectator" not in text and "private" not in text, state

    check("open")
    tokens = {}
    for game in (hidden, shown):
        g, host = game["game"]["id"], game["host_token"]  # the host seats the players
        tokens[g] = [seat(client, g, "Ada", None, host)["token"],
                     seat(client, g, "Bea", None, host)["token"]]
        secrets += tokens[g]
    check("playing")
    for game_id in (hid, gid):  # both players leave: the bots play the games to the end
        for s in (0, 1):
            assert client.delete(f"/v1/games/{game_id}/seats/{s}",
                                 headers=auth(tokens[game_id][s])).status_code == 200
    check("finished")
    # a private game's rematch is private: not listed, nothing for spectators
    g3 = create(client, players=2, seed=7, private=True)
    gid3 = g3["game"]["id"]
    ada = seat(client, gid3, "Ada", None, g3["host_token"])["token"]
    bea = client.post(g3["join_link"], json={"name": "Bea"}).get_json()["token"]
    assert client.delete(f"/v1/games/{gid3}/seats/1", headers=auth(bea)).status_code == 200
    # Ada plays on against the bot that took Bea's seat, by her defaults
    for _ in range(200):
        view = client.get(f"/v1/games/{gid3}", headers=auth(ada)).get_json()
        if view["status"] == "finished":
            break
        move = client.get(f"/v1/games/{gid3}/actions", headers=auth(ada)).get_json()["default"]
        client.post(f"/v1/games/{gid3}/moves", json=move, headers=auth(ada))
    rematch = client.post(f"/v1/games/{gid3}/rematch", headers=auth(ada))
    assert rematch.status_code == 201
    new = rematch.get_json()["rematch"]
    assert rematch.get_json()["game"]["private"] is True
    assert_problem(client.get(f"/v1/games/{new}"), 403, "private_game")
    listed = _listed(client)
    assert not {hid, gid3, new} & listed and gid in listed


def test_a_replayed_join_still_needs_the_join_link(client):
    """A join's Idempotency-Key replays its seat token only to the same request: the same key
    and body without the join link, or with a wrong one, are another request (422), and no
    token comes back."""
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 3,
                                              "private": True}).get_json()
    gid, link = created["game"]["id"], created["join_link"]
    where = {"REMOTE_ADDR": "10.1.2.3"}
    key = {"Idempotency-Key": "join-once"}
    first = client.post(link, json={"name": "Ada"}, headers=key, environ_base=where)
    assert first.status_code == 201
    token = first.get_json()["token"]
    again = client.post(link, json={"name": "Ada"}, headers=key, environ_base=where)
    assert again.status_code == 201 and again.get_json()["token"] == token
    for query in ("", "?join=wrong"):
        refused = client.post(f"/v1/games/{gid}/seats{query}", json={"name": "Ada"},
                              headers=key, environ_base=where)
        assert_problem(refused, 422, "idempotency_key_reused")
        assert token not in refused.get_data(as_text=True)
    assert client.get(f"/v1/games/{gid}", headers=auth(created["host_token"])
                      ).get_json()["seats_taken"] == 1


def test_a_spectator_link_opens_only_with_the_spectator_token(client):
    """``?spectator=`` is for a private game's spectator token alone: a seat's token or the
    host's in a URL (histories, logs, referrers) is refused everywhere, as is any token on a
    public game; the spectator token works there, and the same tokens as bearer tokens still
    show their own views."""
    created, tokens = setup_game(client, [None, "greedy", None], seed=3, private=True)
    gid, spectator = created["game"]["id"], created["spectator_token"]
    base = f"/v1/games/{gid}"
    for token in (tokens[0], tokens[2], created["host_token"]):
        for path in (*READS, "/replay/0"):
            assert_problem(client.get(f"{base}{path}?spectator={token}"), 401, "invalid_token")
        assert_problem(client.get(f"{base}/events?spectator={token}", headers=SSE), 401,
                       "invalid_token")
    assert "you" in client.get(base, headers=auth(tokens[0])).get_json()  # as a bearer: fine
    assert client.get(f"{base}?spectator={spectator}").status_code == 200
    public, seats = setup_game(client, [None, "greedy"], seed=5)
    pub = f"/v1/games/{public['game']['id']}"
    assert_problem(client.get(f"{pub}?spectator={seats[0]}"), 401, "invalid_token")
    assert_problem(client.get(f"{pub}/actions?spectator={seats[0]}"), 401, "invalid_token")
    assert "you" not in client.get(pub).get_json()
