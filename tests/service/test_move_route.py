"""The move's one path (api/move_route.py): every POST to a game's moves is answered there, in
front of Flask, whatever the request holds (the battery of odd requests and their answers is
pinned in test_move_answers.py); Flask's route of moves only documents the operation. A move
answered there is counted and logged as any request.
"""

from __future__ import annotations

from typing import Any

from impresario_engine.api.edge import RequestLog
from service_helpers import auth

ORIGIN = "https://table.example"


def _counted(app) -> list[int]:
    """How many requests reached the Flask route of moves (``calls[0]``)."""
    calls = [0]
    view = app.view_functions["games.make_move"]

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return view(*args, **kwargs)

    app.view_functions["games.make_move"] = counting
    return calls


def _game(client, seed: int) -> tuple[str, list[str]]:
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": seed})
    gid = created.get_json()["game"]["id"]
    tokens = [client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).get_json()["token"]
              for i in range(3)]
    return gid, tokens


def _answer(resp, gid: str) -> tuple[int, list[tuple[str, str]], bytes]:
    return resp.status_code, list(resp.headers.items()), resp.data.replace(gid.encode(), b"GID")


def test_every_move_is_answered_in_front_of_flask(app_factory):
    """A whole seeded game played with every kind of request a table sends (refusals of the
    table, browsers of an allowed origin, retries with an Idempotency-Key, If-Match, rate
    limits on, a query string, a charset, a bad body, a bad token): Flask's route of moves is
    never asked."""
    app = app_factory(cors_origins=ORIGIN, rate_limit_per_ip=10**9, rate_limit_per_token=10**9)
    asked = _counted(app)
    client = app.test_client()
    gid, tokens = _game(client, 11)
    url = f"/v1/games/{gid}/moves"
    moves = refusals = 0
    for n in range(400):
        view = client.get(f"/v1/games/{gid}").get_json()
        if view["status"] == "finished":
            break
        seat = view["pending"][0]["seat"]
        default = client.get(f"/v1/games/{gid}/actions", headers=auth(tokens[seat])).get_json()[
            "default"]
        if n % 7 == 3:  # a refusal of the table (another seat's token) before the real move
            resp = client.post(url, json=default, headers=auth(tokens[(seat + 1) % 3]))
            refusals += resp.status_code >= 400
        headers = {**auth(tokens[seat]), "X-Request-ID": f"req-{n}"}
        if n % 5 == 1:  # from a browser of an allowed origin, twice with one key
            headers.update({"Origin": ORIGIN, "Idempotency-Key": f"k{n}"})
            client.post(url, json=default, headers=headers)
            resp = client.post(url, json=default, headers=headers)
            assert resp.headers["Idempotent-Replayed"] == "true"
            assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
        elif n % 3 == 2:  # a query string and a charset
            resp = client.post(url + "?from=table", data=_json(default),
                               content_type="application/json; charset=utf-8", headers=headers)
        else:
            if n % 2:
                headers["If-Match"] = f'"{view["version"]}"'
            resp = client.post(url, json=default, headers=headers)
        assert resp.status_code == 200, resp.get_json()
        assert resp.headers["X-Request-ID"] == headers["X-Request-ID"]
        moves += 1
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "finished"
    assert moves > 20 and refusals > 2
    for status, kwargs in [
            (409, {"json": {"type": "bid", "slot": 1, "money": 0}, "headers": auth(tokens[0])}),
            (401, {"json": {"type": "bid"}, "headers": {"Authorization": "Bearer nope"}}),
            (401, {"json": {"type": "bid"}, "headers": {"Authorization": "Basic x"}}),
            (422, {"json": [1, 2], "headers": auth(tokens[0])}),
            (400, {"data": b"{", "content_type": "application/json",
                   "headers": auth(tokens[0])}),
            (415, {"data": b"{}", "content_type": "text/plain", "headers": auth(tokens[0])}),
            (400, {"json": {"type": "bid"},
                   "headers": {**auth(tokens[0]), "Idempotency-Key": " bad"}})]:
        resp = client.post(url, **kwargs)
        assert resp.status_code == status, (kwargs, resp.get_json())
        assert resp.mimetype == "application/problem+json"
    assert asked[0] == 0


def _json(value: Any) -> bytes:
    import json

    return json.dumps(value).encode()


def test_a_move_in_front_of_flask_is_counted_and_logged_as_any_request(client, make_game,
                                                                      caplog):
    game = make_game(players=2, seed=5)

    def moves_answered() -> float:
        text = client.get("/metrics").get_data(as_text=True)
        label = 'impresario_http_requests_total{code="",method="POST",' \
                'route="/v1/games/<game_id>/moves",status="200"} '
        return sum(float(line.split()[-1]) for line in text.splitlines()
                   if line.startswith(label))

    before = moves_answered()
    with caplog.at_level("INFO", logger="impresario_engine.requests"):
        resp = client.post(f"{game.url}/moves", json={"type": "bid", "slot": 1, "money": 0},
                           headers={**auth(game.tokens[0]), "X-Request-ID": "move-1"})
    assert resp.status_code == 200 and resp.headers["X-Request-ID"] == "move-1"
    assert moves_answered() == before + 1
    RequestLog.flush_all()
    lines = [line for r in caplog.records if hasattr(r, "json_line")
             for line in r.json_line.splitlines()]
    assert any('"path":"' + f"{game.url}/moves" + '","status":200' in line
               and '"request_id":"move-1"' in line for line in lines), lines
    assert not any(token in line for line in lines for token in game.tokens)
