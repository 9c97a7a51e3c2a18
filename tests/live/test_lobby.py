"""The list of games (``GET /v1/games``): filters, order, pages, errors, expiry, and the
repairs that keep its Redis lists right (``impresario_engine/table/listing.py``, ``usecases/lobby.py``)."""

from __future__ import annotations

import random
import string
import time

import pytest

from impresario_engine.table import listing as lobby
from impresario_engine.store.lobby import DUE, VERSIONS, list_key

from service_helpers import assert_problem

from .live_helpers import create, seat


def _create(client, ruleset="turandot", players=2, private=False, **options):
    body = create(client, players, None, private, ruleset, **options)
    return body["game"]["id"], body["host_token"]


def _list(client, query=""):
    resp = client.get(f"/v1/games{query}")
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def _all(client, query="", limit=100):
    """Every game of a listing, following ``next``."""
    sep = "&" if query else "?"
    body = _list(client, f"{query}{sep}limit={limit}")
    games = list(body["games"])
    while body["next"]:
        resp = client.get(body["next"])
        assert resp.status_code == 200, resp.get_data(as_text=True)
        body = resp.get_json()
        games += body["games"]
    return games


def test_lists_public_games_by_status_ruleset_and_bots_newest_first(client, clock):
    games = {}
    clock.now += 1
    games["open"], _ = _create(client, move_seconds=60)
    clock.now += 0.5
    seat(client, games["open"], "Anna")
    clock.now += 1
    games["bots"], host = _create(client, "wordjam", 5, think_seconds=30, bot_seconds=5)
    seat(client, games["bots"], "Robo", "wordsmith", host)
    clock.now += 1
    games["playing"], host = _create(client)
    seat(client, games["playing"], "Anna")
    seat(client, games["playing"], "Robo", "greedy", host)
    clock.now += 1
    games["muz"], _ = _create(client, "muzicando", 4, hands=4)
    clock.now += 1
    hidden, hidden_host = _create(client, private=True)
    seat(client, hidden, "Secret", None, hidden_host)

    everything = _all(client)
    assert [g["id"] for g in everything] == [games[k] for k in ("muz", "playing", "bots",
                                                               "open")]  # newest first
    assert hidden not in {g["id"] for g in everything}
    by_id = {g["id"]: g for g in everything}
    first = by_id[games["open"]]
    assert first == {
        "id": games["open"], "ruleset": "turandot", "status": "open", "seats_taken": 1,
        "seats_total": 2, "seats": [{"seat": 0, "name": "Anna", "bot": None, "held": False}],
        "options": {"first_maestro": 0, "move_seconds": 60}, "has_bots": False,
        "created": first["created"], "updated": first["updated"]}
    assert first["updated"] == first["created"] + 0.5  # the join changed it
    assert by_id[games["bots"]]["options"]["think_seconds"] == 30
    assert by_id[games["bots"]]["options"]["bot_seconds"] == 5  # how long its bots think
    assert by_id[games["bots"]]["seats"] == [{"seat": 0, "name": "Robo", "bot": "wordsmith",
                                              "held": False}]
    assert by_id[games["muz"]]["options"] == {"hands": 4, "mode": "team", "auction": True,
                                              "first_dealer": 0}
    assert by_id[games["playing"]]["status"] == "playing"

    def ids(query):
        return [g["id"] for g in _all(client, query)]

    assert ids("?status=open") == [games["muz"], games["bots"], games["open"]]
    assert ids("?status=playing") == [games["playing"]]
    assert ids("?status=finished") == []
    assert ids("?ruleset=wordjam") == [games["bots"]]
    assert ids("?has_bots=true") == [games["playing"], games["bots"]]
    assert ids("?has_bots=false&status=open") == [games["muz"], games["open"]]
    assert ids("?ruleset=turandot&status=open&has_bots=false") == [games["open"]]


def test_pages_follow_next_without_gaps_or_repeats(client, clock):
    made = []
    for _ in range(23):
        clock.now += 0.001
        made.append(_create(client)[0])
    body = _list(client, "?status=open&limit=7")
    seen = [g["id"] for g in body["games"]]
    assert len(seen) == 7 and body["next"].startswith("/v1/games?status=open&limit=7&cursor=")
    for _ in range(3):  # newer games arriving between pages do not shift the pages
        clock.now += 0.001
        _create(client)
    while body["next"]:
        body = client.get(body["next"]).get_json()
        seen += [g["id"] for g in body["games"]]
    assert seen == made[::-1]


def test_a_page_reads_only_about_limit_games(client, app, clock):
    """O(limit): however many games there are, a page looks at limit + 1 of them."""
    for _ in range(120):
        clock.now += 0.001
        _create(client)
    store = app.extensions["impresario"].store
    read: list[int] = []
    original = store.summaries

    def counting(ids):
        read.append(len(ids))
        return original(ids)

    store.summaries = counting
    body = _list(client, "?limit=5")
    assert len(body["games"]) == 5 and body["next"]
    assert sum(read) == 6, read
    read.clear()
    body = client.get(body["next"]).get_json()
    assert len(body["games"]) == 5 and sum(read) == 6, read


@pytest.mark.parametrize("query,code", [
    ("?ruleset=chess", "invalid_filter"), ("?ruleset=", "invalid_filter"),
    ("?status=abandoned", "invalid_filter"), ("?has_bots=yes", "invalid_filter"),
    ("?has_bots=1", "invalid_filter"), ("?limit=0", "invalid_limit"),
    ("?limit=101", "invalid_limit"), ("?limit=ten", "invalid_limit"), ("?limit=%C2%B2", "invalid_limit"),
    ("?cursor=abc", "invalid_cursor"), ("?cursor=", "invalid_cursor"),
    ("?cursor=" + "A" * 201, "invalid_cursor"), ("?cursor=%00%FF", "invalid_cursor"),
])
def test_bad_filters_limits_and_cursors_are_clear_400s(client, query, code):
    body = assert_problem(client.get(f"/v1/games{query}"), 400, code)
    assert body["detail"]


def test_stale_forged_and_foreign_cursors(client, clock):
    for _ in range(3):
        clock.now += 1
        _create(client)
    nxt = _list(client, "?status=open&limit=1")["next"]
    cursor = nxt.split("cursor=")[1]
    # another listing's cursor: refused, not silently misapplied
    assert_problem(client.get(f"/v1/games?status=playing&cursor={cursor}"), 400,
                   "invalid_cursor")
    # forged: a syntactically wrong position, another format, a tampered member
    import base64

    raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    for forged in (raw.replace("|", "/"), "2" + raw[1:], raw[:-3] + "!!!", raw + "|x"):
        token = base64.urlsafe_b64encode(forged.encode()).decode().rstrip("=")
        assert_problem(client.get(f"/v1/games?status=open&cursor={token}"), 400,
                       "invalid_cursor")
    assert client.get(nxt).status_code == 200
    clock.now += lobby.CURSOR_SECONDS + 1
    assert_problem(client.get(nxt), 400, "cursor_expired")
    rng = random.Random(5)
    for _ in range(200):  # whatever a client sends as a cursor: a 400, never a 5xx
        junk = "".join(rng.choice(string.ascii_letters + string.digits + "-_")
                       for _ in range(rng.randrange(1, 120)))
        assert client.get(f"/v1/games?cursor={junk}").status_code in (200, 400)


def test_open_games_expire_and_leave_the_lists(app_factory, redis_client):
    app = app_factory(open_game_ttl=2)
    client = app.test_client()
    gid, _ = _create(client)
    seat(client, gid, "Anna")
    assert 0 < redis_client.pttl(f"game:{{{gid}}}") <= 2000
    assert [g["id"] for g in _all(client)] == [gid]
    # the rest of its time to live, as Redis counts it (two seconds leave the steps above time
    # to run on a busy machine before the game expires under them)
    time.sleep(max(0, redis_client.pttl(f"game:{{{gid}}}")) / 1000 + 0.3)
    assert _all(client) == []  # gone from Redis: never listed
    # the next creation sweeps the expired entry out of the lists
    other, _ = _create(client)
    assert redis_client.zrange(list_key("open", "turandot", False, False), 0, -1) == [
        lobby.member(other, _summary_created(redis_client, other)).encode()]
    assert redis_client.hkeys(VERSIONS) == [other.encode()]
    assert redis_client.zrange(DUE, 0, -1) == [other.encode()]


def _summary_created(redis_client, gid):
    import orjson

    return orjson.loads(redis_client.hget(f"game:{{{gid}}}", "lobby"))["c"]


# ------------------------------------------------------------------ the repairs
def test_an_entry_left_in_a_wrong_list_is_shown_nowhere_and_repaired(client, app, redis_client):
    gid, host = _create(client)
    seat(client, gid, "Anna")
    created = _summary_created(redis_client, gid)
    entry = lobby.member(gid, created)
    wrong = list_key("playing", "turandot", True, False)
    # what a writer that lost its compare-and-set leaves behind: an announced, unwritten move
    redis_client.zadd(wrong, {entry: 0})
    assert _all(client, "?status=playing") == []
    assert redis_client.zscore(wrong, entry) is None  # the reader removed it
    assert [g["id"] for g in _all(client, "?status=open")] == [gid]


def test_a_repair_never_undoes_a_write_on_its_way(client, app, redis_client):
    """A reader that saw version v does not remove the entry a writer of v + 1 announced."""
    gid, host = _create(client)
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    created = _summary_created(redis_client, gid)
    svc = app.extensions["impresario"]
    index, every = svc.store.lobby, lobby.EVERY_LIST
    entry = lobby.member(gid, created)
    playing = list_key("playing", "turandot", False, False)
    opened = list_key("open", "turandot", False, False)
    index.note(gid, version + 1, playing, entry, svc.clock() + 60)  # the writer announces
    # a reader that saw version `version` (open) wants the entry out of `playing`: refused
    assert not index.fix(gid, entry, version, opened, svc.clock() + 60, svc.clock(), every)
    assert redis_client.zscore(playing, entry) == 0
    # a late announcement of an older version (a loser) changes nothing either
    index.note(gid, version, list_key("finished", "turandot", False, False), entry, 0)
    assert redis_client.zscore(list_key("finished", "turandot", False, False), entry) is None
    # once the reader has seen the newer version, the stale entry may go
    assert index.fix(gid, entry, version + 1, opened, svc.clock() + 60, svc.clock(), every)
    assert redis_client.zscore(playing, entry) is None


def test_a_game_gone_before_its_due_time_is_a_creation_on_its_way(app, redis_client):
    svc = app.extensions["impresario"]
    index, every = svc.store.lobby, lobby.EVERY_LIST
    now = svc.clock()
    opened = list_key("open", "turandot", False, False)
    entry = lobby.member("notyet", now)
    index.note("notyet", 1, opened, entry, now + 3600)  # announced, not written yet
    assert not index.fix("notyet", entry, 0, None, 0, now, every)
    assert redis_client.zscore(opened, entry) == 0
    assert index.fix("notyet", "", 0, None, 0, now + 3601, every)  # due and gone: expired
    assert redis_client.zscore(opened, entry) is None
    assert not redis_client.hexists(VERSIONS, "notyet")


def test_listed_games_count_as_live_in_the_metrics(client):
    for private in (False, True):
        gid, host = _create(client, private=private)
        seat(client, gid, "Anna", None, host)
    text = client.get("/metrics").get_data(as_text=True)
    live = [line for line in text.splitlines() if line.startswith("impresario_games_live ")]
    assert float(live[0].split()[1]) == 2
