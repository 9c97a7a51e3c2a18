"""Seats coming and going: leaving before and after the start, rematches (seats turned as each
ruleset turns its first player, held seats), and abandoned games finished by the reaper."""

from __future__ import annotations

import pytest

from impresario_engine.usecases import play, reaper
from impresario_engine.usecases.reaper import reap_once

from service_helpers import assert_problem, auth, snapshot

from .live_helpers import create, doc_of, raw_events, seat

HOUR = 3600


def _create(client, ruleset="turandot", players=2, private=False, **options):
    body = create(client, players, 7, private, ruleset, **options)
    return body["game"]["id"], body["host_token"]


def _table(client, ruleset, kinds, **options):
    """A game with a seat per entry of ``kinds`` (None: a player, else a bot), all taken."""
    gid, host = _create(client, ruleset, len(kinds), **options)
    tokens = [seat(client, gid, f"{'Bot' if k else 'P'}{i}", k, host)["token"]
              for i, k in enumerate(kinds)]
    return gid, host, tokens


def _leave(client, gid, seat, token, **headers):
    return client.delete(f"/v1/games/{gid}/seats/{seat}", headers={**auth(token), **headers})


def _view(client, gid, token=None):
    return client.get(f"/v1/games/{gid}", headers=auth(token)).get_json()


class _G:  # what service_helpers.snapshot reads
    def __init__(self, gid, host, tokens):
        self.id, self.host_token, self.tokens = gid, host, [t for t in tokens if t]
        self.url = f"/v1/games/{gid}"


def _play_defaults(client, clock, gid, tokens, limit=3000):
    """The players' seats play the move the engine suggests (``default``) to the end; when
    only the engine's seats must act, the clock runs until they have (their bots think)."""
    for _ in range(limit):
        view = _view(client, gid)
        if view["status"] == "finished":
            return view
        humans = [p["seat"] for p in view["pending"] if tokens[p["seat"]]]
        if not humans:
            clock.advance(30)
            continue
        mover = tokens[humans[0]]
        move = client.get(f"/v1/games/{gid}/actions", headers=auth(mover)).get_json()
        resp = client.post(f"/v1/games/{gid}/moves", json=move["default"],
                           headers={**auth(mover), "If-Match": f'"{view["version"]}"'})
        assert resp.status_code == 200, resp.get_data(as_text=True)
    raise AssertionError("the game does not end")


def _abandon(app, clock, gid):
    """Nobody moves: the reaper finishes the game, at once when nothing has a deadline (it is
    abandoned), else deadline after deadline (Word Jam's windows)."""
    service = app.extensions["impresario"]
    for _ in range(200):
        clock.advance(service.config.abandon_after + 1)
        assert reap_once(service)["errors"] == 0
        if doc_of(service.store.client, gid)["status"] == "finished":
            return
    raise AssertionError("the reaper does not finish the game")


# ------------------------------------------------------------------ leaving before the start
def test_leaving_before_the_start_frees_the_seat_and_its_token(client, clock):
    gid, host = _create(client, players=4)
    tokens = [seat(client, gid, name)["token"] for name in ("Ada", "Bea", "Cy")]
    resp = _leave(client, gid, 1, tokens[1])
    assert resp.status_code == 200, resp.get_data(as_text=True)
    body = resp.get_json()
    assert body["seat"] == 1 and body["game"]["seats_taken"] == 2
    assert "you" not in body["game"]  # a spectator's view now
    assert [p["name"] for p in body["game"]["players"]] == ["Ada", None, "Cy", None]
    assert_problem(client.get(f"/v1/games/{gid}", headers=auth(tokens[1])), 401,
                   "invalid_token")
    assert _view(client, gid, tokens[2])["you"]["seat"] == 2  # nobody else's seat moved
    left = [e for _, e in raw_events(client.application.extensions["impresario_store"].client,
                                     gid) if e["type"] == "seat_left"]
    assert left == [{"type": "seat_left", "seat": 1, "name": "Bea", "bot": None}]
    # Bea may come back under her name; the next two players fill seat 1, then seat 3
    assert seat(client, gid, "Bea")["seat"] == 1
    assert _leave(client, gid, 1, host).status_code == 200  # the host frees any seat
    assert seat(client, gid, "Dan")["seat"] == 1
    last = seat(client, gid, "Eve")
    assert last["seat"] == 3 and last["game"]["status"] == "playing"
    listed = client.get("/v1/games?status=playing").get_json()["games"]
    assert [s["name"] for s in listed[0]["seats"]] == ["Ada", "Dan", "Cy", "Eve"]


def test_the_host_takes_a_bot_seat_back(client, clock):
    gid, host = _create(client, players=3)
    seat(client, gid, "Ada")
    seat(client, gid, "Robo", "greedy", host)
    assert client.get("/v1/games?has_bots=true").get_json()["games"][0]["id"] == gid
    resp = _leave(client, gid, 1, host)
    assert resp.status_code == 200
    assert [p["bot"] for p in resp.get_json()["game"]["players"]] == [None, None, None]
    assert client.get("/v1/games?has_bots=true").get_json()["games"] == []
    assert client.get("/v1/games?has_bots=false").get_json()["games"][0]["id"] == gid


def test_leave_errors_change_nothing(client, clock):
    gid, host = _create(client, players=3)
    tokens = [seat(client, gid, n)["token"] for n in ("Ada", "Bea")]
    other, _ = _create(client, players=2)
    stranger = seat(client, other, "Zed")["token"]
    game = _G(gid, host, tokens)
    before = snapshot(client, game)
    assert_problem(_leave(client, gid, 0, tokens[1]), 403, "not_your_seat")
    assert_problem(_leave(client, gid, 0, stranger), 401, "invalid_token")  # another game's
    assert_problem(_leave(client, gid, 0, None), 401, "missing_token")
    assert_problem(_leave(client, gid, 2, host), 404, "seat_not_found")  # free
    assert_problem(_leave(client, gid, 40, tokens[0]), 404, "seat_not_found")
    assert_problem(client.delete(f"/v1/games/{gid}/seats/x", headers=auth(host)), 404,
                   "not_found")
    assert_problem(client.delete(f"/v1/games/nope/seats/0", headers=auth(host)), 404,
                   "game_not_found")
    assert snapshot(client, game) == before
    # once started the host cannot take a player's seat; once over nobody leaves
    third = seat(client, gid, "Cy")["token"]
    game.tokens.append(third)
    before = snapshot(client, game)
    assert_problem(_leave(client, gid, 0, host), 403, "seat_only")
    assert snapshot(client, game) == before


def test_a_retried_leave_gets_the_same_answer(client, clock):
    gid, _host = _create(client, players=3)
    token = seat(client, gid, "Ada")["token"]
    first = _leave(client, gid, 0, token, **{"Idempotency-Key": "leave-1"})
    again = _leave(client, gid, 0, token, **{"Idempotency-Key": "leave-1"})
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert_problem(_leave(client, gid, 0, token), 401, "invalid_token")  # no key: the token


# ------------------------------------------------------------------ leaving a game in play
@pytest.mark.parametrize("ruleset,players,options,player", [
    ("turandot", 3, {}, "greedy"),
    ("muzicando", 4, {"hands": 4}, "greedy"),
    ("wordjam", 5, {}, "defaults"),
])
def test_leaving_a_game_in_play_hands_the_seat_to_the_rulesets_player(
        client, clock, redis_client, ruleset, players, options, player):
    gid, host, tokens = _table(client, ruleset, [None] * players, **options)
    assert_problem(_leave(client, gid, 0, host), 403, "seat_only")
    resp = _leave(client, gid, 0, tokens[0])
    assert resp.status_code == 200, resp.get_data(as_text=True)
    game = resp.get_json()["game"]
    assert game["status"] == "playing" and game["players"][0]["bot"] == player
    assert game["players"][0]["name"] == "P0"
    assert all(p["seat"] != 0 for p in game["pending"]) or player != "greedy"
    assert_problem(client.get(f"/v1/games/{gid}", headers=auth(tokens[0])), 401,
                   "invalid_token")
    assert [e for _, e in raw_events(redis_client, gid) if e["type"] == "seat_left"] == [
        {"type": "seat_left", "seat": 0, "name": "P0", "bot": player}]
    tokens[0] = None
    view = _play_defaults(client, clock, gid, tokens)
    assert view["status"] == "finished"
    by = {b for _seat, _move, b in doc_of(redis_client, gid)["moves"]
          if _seat == 0}
    assert by == {"bot"}  # the seat's every move after leaving was the engine's
    assert_problem(_leave(client, gid, 1, tokens[1]), 409, "game_finished")


# ------------------------------------------------------------------ rematches
def test_a_rematch_turns_the_seats_and_starts_when_every_player_asked(client, app, clock,
                                                                     redis_client):
    gid, host, tokens = _table(client, "turandot", [None, None, "greedy"], first_maestro=1)
    _abandon(app, clock, gid)
    assert _view(client, gid)["rematch"] is None
    first = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0]))
    assert first.status_code == 201, first.get_data(as_text=True)
    body = first.get_json()
    new = body["rematch"]
    assert first.headers["Location"] == f"/v1/games/{new}"
    # everyone one seat anticlockwise: P1 at seat 0, the bot at seat 1 (the first maestro, as
    # first_maestro is 1: the player left of the last first maestro), P0 at seat 2
    assert body["seat"] == 2 and body["game"]["you"]["seat"] == 2
    game = body["game"]
    assert [p["name"] for p in game["players"]] == ["P1", "Bot2", "P0"]
    assert [p["bot"] for p in game["players"]] == [None, "greedy", None]
    assert game["status"] == "open" and game["seats_taken"] == 3
    assert _view(client, gid)["rematch"] == new  # linked from the finished game
    listed = client.get("/v1/games?status=open").get_json()["games"]
    assert listed[0]["id"] == new
    assert [(s["name"], s["held"]) for s in listed[0]["seats"]] == [
        ("P1", True), ("Bot2", False), ("P0", False)]
    again = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0]))
    assert again.status_code == 200 and again.get_json()["token"] == body["token"]
    assert_problem(client.post(f"/v1/games/{new}/moves", json={"type": "bid", "slot": 1},
                               headers=auth(body["token"])), 409, "game_not_started")
    second = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[1]))
    assert second.status_code == 200
    assert second.get_json()["rematch"] == new and second.get_json()["seat"] == 0
    started = second.get_json()["game"]
    assert started["status"] == "playing"
    old_doc, new_doc = doc_of(redis_client, gid), doc_of(redis_client, new)
    assert new_doc["seed"] != old_doc["seed"] and new_doc["options"] == old_doc["options"]
    assert new_doc["rematch_of"] == gid
    # the new tokens play; the old ones are not seats of the rematch
    assert_problem(client.get(f"/v1/games/{new}", headers=auth(tokens[0])), 401,
                   "invalid_token")
    assert _view(client, new, body["token"])["you"]["seat"] == 2
    types = [e["type"] for _, e in raw_events(redis_client, new)]
    assert types.count("seat_held") == 2 and "game_started" in types


@pytest.mark.parametrize("ruleset,players,options,order", [
    ("wordjam", 5, {}, [0, 1, 2, 3, 4]),  # nobody plays first: the same seats
    ("muzicando", 4, {"hands": 4}, [1, 2, 3, 0]),  # the dealer's role to the left; partners
    ("muzicando", 3, {"first_dealer": 2}, [1, 2, 0]),
])
def test_each_ruleset_turns_its_seats(client, app, clock, ruleset, players, options, order):
    gid, _host, tokens = _table(client, ruleset, [None] * players, **options)
    _abandon(app, clock, gid)
    resp = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0]))
    assert resp.status_code == 201, resp.get_data(as_text=True)
    names = [p["name"] for p in resp.get_json()["game"]["players"]]
    assert names == [f"P{i}" for i in order]
    assert resp.get_json()["seat"] == order.index(0)


def test_a_held_seat_goes_to_anyone_once_its_hold_has_run_out(app_factory, redis_client):
    from .live_helpers import FakeClock

    clock = FakeClock()
    app = app_factory(rematch_hold_seconds=30, clock=clock)
    client = app.test_client()
    gid, _host, tokens = _table(client, "turandot", [None, None, None])
    _abandon(app, clock, gid)
    new = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0])).get_json()["rematch"]
    assert_problem(client.post(f"/v1/games/{new}/seats", json={"name": "Zed"}), 409,
                   "game_full")  # P1 and P2 have 30 seconds to come back
    clock.advance(31)
    listed = client.get("/v1/games?status=open").get_json()["games"][0]
    assert listed["seats_taken"] == 1  # the holds have run out
    # P1's old seat 0 goes to a newcomer; P2 still claims seat 1 nobody took
    assert seat(client, new, "Zed")["seat"] == 0
    assert_problem(client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[1])), 409,
                   "rematch_seat_taken")
    claimed = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[2]))
    assert claimed.status_code == 200 and claimed.get_json()["seat"] == 1
    assert claimed.get_json()["game"]["status"] == "playing"


def test_rematch_errors(client, app, clock, redis_client):
    gid, host, tokens = _table(client, "turandot", [None, None])
    assert_problem(client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0])), 409,
                   "game_not_finished")
    _abandon(app, clock, gid)
    other, _ = _create(client)
    stranger = seat(client, other, "Zed")["token"]
    games = sorted(redis_client.scan_iter(match="game:{*}", _type="hash"))
    before = _view(client, gid)
    assert_problem(client.post(f"/v1/games/{gid}/rematch", headers=auth(host)), 403,
                   "not_a_seat")
    assert_problem(client.post(f"/v1/games/{gid}/rematch"), 401, "missing_token")
    assert_problem(client.post(f"/v1/games/{gid}/rematch", headers=auth(stranger)), 401,
                   "invalid_token")
    assert_problem(client.post("/v1/games/nope/rematch", headers=auth(tokens[0])), 404,
                   "game_not_found")
    assert _view(client, gid)["rematch"] is None  # nothing was created
    assert _view(client, gid) == before  # nor changed
    assert sorted(redis_client.scan_iter(match="game:{*}", _type="hash")) == games


def test_a_player_who_left_is_not_in_the_rematch(client, app, clock):
    gid, _host, tokens = _table(client, "turandot", [None, None, None])
    assert _leave(client, gid, 1, tokens[1]).status_code == 200
    _abandon(app, clock, gid)
    assert_problem(client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[1])), 401,
                   "invalid_token")
    body = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0])).get_json()
    # order [1, 2, 0]: seat 0 was P1's, who left: free for anyone
    assert [p["name"] for p in body["game"]["players"]] == [None, "P2", "P0"]
    assert seat(client, body["rematch"], "Newcomer")["seat"] == 0


# ------------------------------------------------------------------ abandoned games
def test_a_game_nobody_moves_in_is_finished_by_the_reaper(client, app, clock, redis_client):
    service = app.extensions["impresario"]
    idle = service.config.abandon_after
    gid, _host, tokens = _table(client, "turandot", [None, None])
    clock.advance(idle - 5)
    assert reap_once(service)["lists"]["abandoned"] == 0
    assert client.post(f"/v1/games/{gid}/moves", json={"type": "bid", "slot": 1},
                       headers=auth(tokens[0])).status_code == 200  # a move: not abandoned
    clock.advance(idle - 5)
    report = reap_once(service)
    assert report["lists"]["abandoned"] == 0 and report["errors"] == 0
    assert _view(client, gid)["status"] == "playing"
    clock.advance(10)
    report = reap_once(service)
    assert report["lists"]["abandoned"] == 1, report
    view = _view(client, gid)
    assert view["status"] == "finished"
    doc = doc_of(redis_client, gid)
    assert doc["abandoned"] is True
    assert {by for _s, _m, by in doc["moves"][1:]} == {"deadline"}
    types = [e["type"] for _, e in raw_events(redis_client, gid)]
    assert types.index("game_abandoned") < types.index("game_finished") == len(types) - 1
    assert client.get(f"/v1/games/{gid}/score").status_code == 200
    assert [g["id"] for g in client.get("/v1/games?status=finished").get_json()["games"]] == [gid]
    assert reap_once(service)["lists"]["abandoned"] == 0


def test_abandon_after_zero_never_finishes_a_game(app_factory):
    from .live_helpers import FakeClock

    clock = FakeClock()
    app = app_factory(abandon_after=0, clock=clock)
    client = app.test_client()
    gid, _host, _tokens = _table(client, "turandot", [None, None])
    clock.advance(365 * 86400)
    report = reap_once(app.extensions["impresario"])
    assert report["lists"]["abandoned"] == 0
    assert _view(client, gid)["status"] == "playing"


def test_a_rematch_that_expired_unplayed_is_replaced(client, app, clock, redis_client):
    gid, _host, tokens = _table(client, "turandot", [None, None])
    _abandon(app, clock, gid)
    first = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[0])).get_json()["rematch"]
    for key in (f"game:{{{first}}}", f"game:{{{first}}}:events"):  # OPEN_GAME_TTL_SECONDS
        redis_client.delete(key)
    again = client.post(f"/v1/games/{gid}/rematch", headers=auth(tokens[1]))
    assert again.status_code == 201, again.get_data(as_text=True)
    second = again.get_json()["rematch"]
    assert second != first and _view(client, gid)["rematch"] == second
    assert client.post(f"/v1/games/{gid}/rematch",
                       headers=auth(tokens[0])).get_json()["game"]["status"] == "playing"


def test_the_reaper_keeps_its_indexes_tidy(client, app, clock, redis_client, monkeypatch):
    """A game whose deadlines fail to apply waits a minute instead of holding up the others."""
    from impresario_engine.store import StoreUnavailable

    service = app.extensions["impresario"]
    broken, _host, _t = _table(client, "turandot", [None, None], move_seconds=60)
    fine, _host, _t = _table(client, "turandot", [None, None], move_seconds=60)
    def failing(engine, game_id, search=False):
        if game_id == broken:
            raise StoreUnavailable("a timeout, say")
        return play.settle(engine, game_id, search)

    monkeypatch.setattr(reaper, "settle", failing)
    clock.advance(61)
    report = reap_once(service)
    assert report["errors"] == 1 and report["settled"] == 1, report
    assert redis_client.zscore("impresario:deadlines", broken) == clock.now + 60
    assert doc_of(redis_client, fine)["moves"]  # the other game moved on


# ------------------------------------------------------------------ a rematch's host
def _plain_seat(client, gid, name):
    """A seat taken without the host's token (a player who came by the link)."""
    return seat(client, gid, name)["token"]


def test_a_rematch_is_hosted_by_the_host_who_sat_at_the_table(client, app, clock):
    """The host sat at the table (their seat taken with the host token): in the rematch they
    get a host token with their seat, so they can free a seat whose player does not come back
    and seat a bot in it, and the rematch starts without waiting for the hold to run out."""
    gid, host = _create(client, "turandot", 3)
    anna = seat(client, gid, "Anna", None, host)["token"]  # the host's own seat
    bruno = _plain_seat(client, gid, "Bruno")
    _plain_seat(client, gid, "Cleo")
    _abandon(app, clock, gid)
    first = client.post(f"/v1/games/{gid}/rematch", headers=auth(bruno)).get_json()
    assert "host_token" not in first  # Bruno was not the host
    new = first["rematch"]
    hosted = client.post(f"/v1/games/{gid}/rematch", headers=auth(anna))
    assert hosted.status_code == 200, hosted.get_data(as_text=True)
    host_token = hosted.get_json()["host_token"]
    assert host_token and host_token != hosted.get_json()["token"]
    again = client.post(f"/v1/games/{gid}/rematch", headers=auth(anna)).get_json()
    assert again["host_token"] == host_token  # asking again: the same
    # only the host's token seats a bot; Bruno's does not
    assert_problem(client.post(f"/v1/games/{new}/seats", json={"name": "Robo", "bot": "greedy"},
                               headers=auth(first["token"])), 403, "host_only")
    view = _view(client, new, host_token)
    cleo = next(p["seat"] for p in view["players"] if p["name"] == "Cleo")
    assert _leave(client, new, cleo, host_token).status_code == 200  # Cleo does not come back
    added = client.post(f"/v1/games/{new}/seats", json={"name": "Robo", "bot": "greedy"},
                        headers=auth(host_token))
    assert added.status_code == 201, added.get_data(as_text=True)
    assert _view(client, new)["status"] == "playing"


def test_a_rematch_of_a_table_its_host_did_not_sit_at_is_hosted_by_its_first_player(client, app,
                                                                                  clock):
    """A host who set the table up without sitting at it (the API's host, a tournament's):
    the rematch's host is the first of its players to claim a seat."""
    gid, host = _create(client, "turandot", 3)
    bruno = _plain_seat(client, gid, "Bruno")
    cleo = _plain_seat(client, gid, "Cleo")
    seat(client, gid, "Robo", "greedy", host)
    _abandon(app, clock, gid)
    first = client.post(f"/v1/games/{gid}/rematch", headers=auth(cleo)).get_json()
    assert first["host_token"]
    second = client.post(f"/v1/games/{gid}/rematch", headers=auth(bruno)).get_json()
    assert "host_token" not in second
    assert client.post(f"/v1/games/{gid}/rematch", headers=auth(cleo)).get_json()["host_token"] \
        == first["host_token"]
    # and the rematch of the rematch is hosted by Cleo again, who sat there as its host
    new = first["rematch"]
    assert _view(client, new)["status"] == "playing"
    _abandon(app, clock, new)
    later = client.post(f"/v1/games/{new}/rematch", headers=auth(second["token"])).get_json()
    assert "host_token" not in later
    assert client.post(f"/v1/games/{new}/rematch", headers=auth(first["token"])).get_json()[
        "host_token"]
