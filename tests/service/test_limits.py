"""The limits that are on by default: games created per client address, failed authentications
per client address (shared by every worker through Redis), and what ``/readyz`` tells anyone.

The suite's fixtures turn the default limits off (tests/suite_helpers.py ``UNLIMITED``); these tests
turn them back on, at their defaults where the default is what is checked."""

from __future__ import annotations

import pytest

from impresario_engine.config import Config
from service_helpers import assert_problem, auth

DEFAULTS = Config()
BODY = {"ruleset": "turandot", "players": 2}


@pytest.mark.usefixtures("one_rate_window")
def test_creation_is_limited_per_address_by_default(app_factory):
    limit = DEFAULTS.rate_limit_create_per_ip
    assert 5 <= limit <= 60  # a few games a minute is normal at a table, hundreds are not
    client = app_factory(rate_limit_create_per_ip=limit).test_client()
    for _ in range(limit):
        assert client.post("/v1/games", json=BODY).status_code == 201
    refused = client.post("/v1/games", json=BODY)
    body = assert_problem(refused, 429, "create_rate_limited")
    assert body["detail"] == f"more than {limit} games created a minute from this address; " \
                             "slow down"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # the limit is on creating games, not on playing them
    assert client.get("/healthz").status_code == 200
    assert client.get("/v1/rulesets").status_code == 200
    # another address has its own budget
    other = client.post("/v1/games", json=BODY, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


@pytest.mark.usefixtures("one_rate_window")
def test_a_forged_forwarded_for_is_ignored_without_trusted_proxies(app_factory):
    assert DEFAULTS.trusted_proxies == 0
    client = app_factory(rate_limit_create_per_ip=2).test_client()
    for i in range(2):
        assert client.post("/v1/games", json=BODY,
                           headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code == 201
    refused = client.post("/v1/games", json=BODY, headers={"X-Forwarded-For": "198.51.100.9"})
    assert_problem(refused, 429, "create_rate_limited")


@pytest.mark.usefixtures("one_rate_window")
def test_failed_authentications_are_throttled_per_address_and_game_across_workers(app_factory):
    """Guessing tokens is throttled: after ``auth_failures_per_ip`` failures in a minute from one
    address on one game, its further failures there get 429 instead of 401. A credential that
    validates is never refused, whoever else guesses from the same address (one NAT, one
    office, one proxy): the player keeps reading and moving. Two apps on one Redis stand for two
    workers (or pods)."""
    limit = DEFAULTS.auth_failures_per_ip
    assert 5 <= limit <= 120
    first = app_factory(auth_failures_per_ip=limit).test_client()
    second = app_factory(auth_failures_per_ip=limit).test_client()
    created = first.post("/v1/games", json={"ruleset": "turandot", "players": 2}).get_json()
    gid = created["game"]["id"]
    url = f"/v1/games/{gid}"
    host = auth(created["host_token"])
    player = first.post(f"{url}/seats", json={"name": "Ana"}).get_json()["token"]
    first.post(f"{url}/seats", json={"name": "Bea"})
    for i in range(limit - 1):
        guess = (first if i % 2 else second).get(url, headers=auth(f"guess-{i}"))
        assert_problem(guess, 401, "invalid_token")
    # the limit-th failure, seen by the second worker, closes the door there
    assert_problem(second.get(url, headers=auth("guess-last")), 401, "invalid_token")
    refused = second.get(url, headers=auth("guess-more"))
    assert_problem(refused, 429, "auth_rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert_problem(second.get(f"{url}?spectator=x"), 429, "auth_rate_limited")
    # the valid credentials from the same address are served as ever, by either worker
    for client in (first, second):
        assert client.get(url, headers=host).status_code == 200
        assert client.get(f"{url}/actions", headers=auth(player)).status_code == 200
    moved = second.post(f"{url}/moves", headers=auth(player),
                        json={"type": "bid", "slot": 1, "money": 0, "bluff": False})
    assert moved.status_code == 200, moved.get_data(as_text=True)
    # the first worker learns it from Redis at its next failure: one more 401, then 429
    assert_problem(first.get(url, headers=auth("guess-again")), 401, "invalid_token")
    assert_problem(first.get(url, headers=auth("guess-more")), 429, "auth_rate_limited")
    # requests without a credential are not refused: the game stays visible
    assert first.get(url).status_code == 200
    # another game from the same address, and this game from another address: 401 as ever
    other = first.post("/v1/games", json=BODY).get_json()["game"]["id"]
    assert_problem(second.get(f"/v1/games/{other}", headers=auth("typo")), 401, "invalid_token")
    elsewhere = second.get(url, headers=auth("typo"), environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert_problem(elsewhere, 401, "invalid_token")


def test_successes_are_not_counted_as_failures(app_factory):
    client = app_factory(auth_failures_per_ip=3).test_client()
    created = client.post("/v1/games", json=BODY).get_json()
    url = f"/v1/games/{created['game']['id']}"
    for _ in range(10):
        assert client.get(url, headers=auth(created["host_token"])).status_code == 200


def test_readyz_keeps_the_redis_details_in_the_logs(app_factory, caplog):
    from impresario_engine.store.embedded import free_port

    port = free_port()
    client = app_factory(redis_url=f"redis://127.0.0.1:{port}/0", redis_timeout=0.5).test_client()
    with caplog.at_level("WARNING", logger="impresario_engine"):
        resp = client.get("/readyz")
    assert_problem(resp, 503, "storage_unavailable")
    text = resp.get_data(as_text=True)
    assert str(port) not in text and "127.0.0.1" not in text and "refused" not in text.lower()
    assert any(str(port) in r.getMessage() for r in caplog.records)


def test_options_is_never_html(app_factory):
    client = app_factory().test_client()
    for headers in ({}, {"Origin": "https://elsewhere.example"}):
        resp = client.options("/v1/games", headers=headers)
        assert resp.status_code == 204, resp.status_code
        assert resp.get_data() == b"" and "Content-Type" not in resp.headers
        assert set(resp.headers["Allow"].replace(" ", "").split(",")) >= {"POST", "OPTIONS"}
        assert "Access-Control-Allow-Origin" not in resp.headers
    allowed = app_factory(cors_origins="https://table.example").test_client().options(
        "/v1/games", headers={"Origin": "https://table.example",
                              "Access-Control-Request-Method": "POST"})
    assert allowed.status_code == 204
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://table.example"
    # an unknown path is a 404 in problem JSON, OPTIONS or not
    assert_problem(client.options("/nowhere"), 404, "not_found")


def test_an_open_game_keeps_its_keys_small(client, redis_client):
    """Every open game nobody joins costs Redis memory until it expires: under 4 KiB (it was
    6.2 KB, two thirds of it the event stream's first node preallocated to 4 KiB; Redis runs
    with ``stream-node-max-bytes 1024``, docs/operations.md)."""
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 4}).get_json()
    gid = created["game"]["id"]
    keys = [f"game:{{{gid}}}", f"game:{{{gid}}}:events"]
    used = sum(redis_client.memory_usage(k) or 0 for k in keys)
    assert 0 < used < 4096, used
