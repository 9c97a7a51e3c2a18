"""What every request passes through: rate limits, CORS, security headers, request ids in
JSON logs (never a token), and the metrics operators alert on."""

from __future__ import annotations

import json
import logging
import time

import pytest

from service_helpers import assert_problem, auth


@pytest.mark.usefixtures("one_rate_window")
def test_rate_limit_per_address_is_shared_by_every_worker(app_factory):
    """Two app instances (two workers, two pods) count against the same Redis window."""
    a = app_factory(rate_limit_per_ip=5).test_client()
    b = app_factory(rate_limit_per_ip=5).test_client()
    statuses = [(a if i % 2 else b).get("/v1/rulesets").status_code for i in range(5)]
    assert statuses == [200] * 5
    over = a.get("/v1/rulesets")
    assert over.status_code == 429
    assert over.mimetype == "application/problem+json"
    assert over.get_json()["code"] == "rate_limited"
    assert 1 <= int(over.headers["Retry-After"]) <= 60
    assert a.get("/healthz").status_code == 200  # probes are never limited


@pytest.mark.usefixtures("one_rate_window")
def test_rate_limit_per_token(app_factory, redis_client):
    app = app_factory(rate_limit_per_token=3)
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1})
    host = created.get_json()["host_token"]
    gid = created.get_json()["game"]["id"]
    for _ in range(3):
        assert client.get(f"/v1/games/{gid}", headers=auth(host)).status_code == 200
    refused = client.get(f"/v1/games/{gid}", headers=auth(host))
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert client.get(f"/v1/games/{gid}").status_code == 200  # another caller is not limited
    # the counters are keyed by a hash of the token, never the token
    assert not [k for k in redis_client.scan_iter("rate:*") if host.encode() in k]


def test_no_limits_by_default(client):
    assert all(client.get("/v1/rulesets").status_code == 200 for _ in range(30))


def test_cors_only_for_allowed_origins(app_factory):
    client = app_factory(cors_origins="https://table.example, https://other.example").test_client()
    ok = client.get("/v1/rulesets", headers={"Origin": "https://table.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "ETag" in ok.headers["Access-Control-Expose-Headers"]
    assert "Origin" in ok.headers.get("Vary", "")
    denied = client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in denied.headers
    pre = client.options("/v1/games", headers={
        "Origin": "https://other.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    assert pre.status_code == 204
    assert "Authorization" in pre.headers["Access-Control-Allow-Headers"]
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    bad = client.options("/v1/games", headers={"Origin": "https://evil.example",
                                                "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in bad.headers


def test_security_headers_on_every_response(client):
    for resp in (client.get("/v1/rulesets"), client.get("/v1/games/nope"), client.get("/healthz")):
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["X-Frame-Options"] == "DENY"
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        assert "default-src 'none'" in resp.headers["Content-Security-Policy"]
        assert resp.headers["Cache-Control"] == "no-store"


def test_request_id_is_echoed_and_in_problems(client):
    resp = client.get("/v1/games/nope", headers={"X-Request-ID": "abc-123"})
    assert resp.headers["X-Request-ID"] == "abc-123"
    assert resp.get_json()["request_id"] == "abc-123"
    fresh = client.get("/v1/rulesets", headers={"X-Request-ID": "x" * 500})
    assert len(fresh.headers["X-Request-ID"]) == 32  # too long: replaced by a fresh id


def test_json_logs_carry_the_request_id_and_never_a_token(client, make_game, caplog):
    from impresario_engine.api.edge import RequestLog
    from impresario_engine.logs import JsonFormatter

    caplog.set_level(logging.INFO, logger="impresario_engine")
    game = make_game(players=2, seed=3)
    client.post(f"{game.url}/moves", json={"type": "bid", "slot": 1, "money": 0},
                headers={**auth(game.tokens[0]), "X-Request-ID": "move-1"})
    client.get(f"{game.url}?spectator={game.host_token}")
    RequestLog.flush_all()
    lines = [line for r in caplog.records if r.name == "impresario_engine.requests"
             for line in JsonFormatter().format(r).splitlines()]
    assert lines
    records = [json.loads(line) for line in lines]
    move = [r for r in records if r["request_id"] == "move-1"]
    assert move and move[0]["status"] == 200 and move[0]["method"] == "POST"
    assert move[0]["path"] == f"{game.url}/moves"
    text = "\n".join(lines)
    for secret in (game.host_token, *game.tokens):
        assert secret not in text


def test_metrics_count_moves_cas_retries_and_live_games(client, make_game):
    game = make_game(players=2, seed=5)
    client.post(f"{game.url}/moves", json={"type": "bid", "slot": 1, "money": 0},
                headers=auth(game.tokens[0]))
    text = client.get("/metrics").get_data(as_text=True)
    assert 'impresario_moves_total{by="seat",ruleset="turandot",type="bid"}' in text
    assert "impresario_cas_retries_total" in text
    live = [line for line in text.splitlines() if line.startswith("impresario_games_live ")]
    assert live and float(live[0].split()[1]) >= 1
    assert "impresario_http_request_seconds_bucket" in text


@pytest.mark.usefixtures("one_rate_window")
def test_trusted_proxy_address_is_the_client_for_rate_limits(app_factory):
    client = app_factory(rate_limit_per_ip=2, trusted_proxies=1).test_client()
    for _ in range(2):
        assert client.get("/v1/rulesets", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 200
    assert client.get("/v1/rulesets", headers={"X-Forwarded-For": "198.51.100.7"}).status_code == 429
    # another client behind the same proxy has its own window
    assert client.get("/v1/rulesets", headers={"X-Forwarded-For": "198.51.100.8"}).status_code == 200


def test_request_metric_tells_problem_codes_apart(client):
    client.get("/v1/games/nope")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'code="game_not_found"' in text


def test_gunicorn_logs_from_a_worker_still_format(gunicorn_server, redis_url, tmp_path):
    """The app tunes the logging module for every log record of its process, gunicorn's
    included: gunicorn's own lines (``[%(process)d]``) must still print, not a logging error."""
    import urllib.request

    with gunicorn_server(redis_url, tmp_path, workers=1, threads=2, LOG_LEVEL="info") as url:
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as resp:
            assert resp.status == 200
    text = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert "Worker exiting" in text, text[-2000:]  # logged by the worker on the way out
    assert "Logging error" not in text and "Traceback" not in text, text[-2000:]


def test_request_metric_keeps_the_rules_reason_of_a_refused_move_to_itself(client, make_game):
    """Which rule refused a sealed bid tells what the bid was: the metric anyone scraping the
    engine reads gets only the refusal's kind; the player gets the code."""
    game = make_game(players=2, seed=5)
    refused = client.post(f"{game.url}/moves", json={"type": "bid", "slot": None, "money": 2},
                          headers=auth(game.tokens[0]))
    assert refused.status_code == 422
    code = refused.get_json()["code"]
    assert code in ("helper_bid_one_money", "maestro_cannot_hire_helper")
    text = client.get("/metrics").get_data(as_text=True)
    assert f'code="{code}"' not in text
    assert 'code="rules_illegal"' in text
    # the table's own refusals keep their codes: they say nothing of a secret
    client.post(f"{game.url}/moves", json={"type": "bid", "money": 2}, headers=auth("nope"))
    assert 'code="invalid_token"' in client.get("/metrics").get_data(as_text=True)


def test_metrics_port_serves_metrics_alone_and_the_api_port_never(app_factory):
    """With METRICS_PORT, /metrics is answered on that port only (what Prometheus scrapes
    inside the cluster) and nothing else is; the API's port (what the ingress forwards) gives
    /metrics a 404 like any unknown path."""
    client = app_factory(metrics_port=9100).test_client()
    api, scrape = "http://engine:8000", "http://engine:9100"
    assert_problem(client.get("/metrics", base_url=api), 404, "not_found")
    assert client.get("/v1/rulesets", base_url=api).status_code == 200
    scraped = client.get("/metrics", base_url=scrape)
    assert scraped.status_code == 200 and b"impresario_http_requests_total" in scraped.data
    for path in ("/v1/rulesets", "/healthz", "/"):
        assert_problem(client.get(path, base_url=scrape), 404, "not_found")


def test_gunicorn_listens_on_the_metrics_port_beside_the_api(gunicorn_server, redis_url,
                                                           tmp_path):
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with gunicorn_server(redis_url, tmp_path, workers=1, threads=2,
                         METRICS_PORT=str(port)) as url:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
            assert resp.status == 200 and b"impresario_games_live" in resp.read()
        with pytest.raises(urllib.error.HTTPError) as hidden:
            urllib.request.urlopen(f"{url}/metrics", timeout=10)
        assert hidden.value.code == 404
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as resp:
            assert resp.status == 200


def test_request_lines_are_written_in_batches_and_none_is_lost(app_factory, engine_log):
    """LOG_BATCH_SECONDS: the lines of requests that end close together reach the log in one
    record (one write), each line whole and in order; the batch is written by the process's
    own thread once its time is up, with no request to push it."""
    client = app_factory(log_batch_seconds=0.5).test_client()
    for i in range(10):
        assert client.get("/v1/rulesets", headers={"X-Request-ID": f"batch-{i}"}).status_code == 200

    def written() -> list[list[str]]:
        return [[json.loads(line)["request_id"] for line in r.json_line.splitlines()]
                for r in engine_log.records if r.name == "impresario_engine.requests"]

    deadline = time.monotonic() + 30
    while not written() and time.monotonic() < deadline:
        time.sleep(0.05)
    batches = [b for b in written() if any(rid.startswith("batch-") for rid in b)]
    assert batches, "the batch was never written"
    assert [rid for b in batches for rid in b] == [f"batch-{i}" for i in range(10)]
    assert len(batches) < 10  # together, not a record per line


def test_players_requests_log_no_credential_and_no_device_code(client, caplog):
    from impresario_engine.api.edge import RequestLog
    from impresario_engine.logs import JsonFormatter

    caplog.set_level(logging.DEBUG, logger="impresario_engine")
    made = client.post("/v1/players", json={"name": "Anna"}).get_json()
    code = client.post("/v1/me/device-codes", headers=auth(made["token"])).get_json()["code"]
    phone = client.post("/v1/players/claim", json={"code": code}).get_json()["token"]
    game = client.post("/v1/games", json={"ruleset": "turandot", "players": 2},
                       headers=auth(phone)).get_json()
    seat = client.post(f"/v1/games/{game['game']['id']}/seats", json={"name": "Anna"},
                       headers=auth(game["host_token"])).get_json()
    resumed = client.post(f"/v1/me/games/{game['game']['id']}/resume",
                          headers=auth(made["token"])).get_json()
    client.get("/v1/me/games", headers=auth(made["token"]))
    client.post("/v1/match", json={"ruleset": "turandot", "players": 4},
                headers=auth(made["token"]))
    client.get("/v1/me", headers=auth("p_" + "x" * 32))  # a wrong credential: 401, logged
    RequestLog.flush_all()
    text = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert "/v1/me/games" in text and "/v1/players/claim" in text
    for secret in (made["token"], phone, code, game["host_token"], seat["token"],
                   resumed["token"], resumed["host_token"], "p_" + "x" * 32):
        assert secret not in text
