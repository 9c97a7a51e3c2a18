"""The move's own route (api/move_route.py): a move answered in front of Flask is answered as
Flask answers it, byte for byte, headers in their order included; its errors are Flask's.

Two apps play the same seeded game side by side with the same requests: one where moves take
the route, one where every move is handed to Flask (per-address rate limits, far beyond what
the test sends, make the route step aside). Every answer must be the same but for the game's
id."""

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


def test_a_move_in_front_of_flask_is_answered_as_flask_answers_it(app_factory):
    front = app_factory(cors_origins=ORIGIN)
    behind = app_factory(cors_origins=ORIGIN, rate_limit_per_ip=10**9)
    flask_front, flask_behind = _counted(front), _counted(behind)
    a, b = front.test_client(), behind.test_client()
    (gid_a, tokens_a), (gid_b, tokens_b) = _game(a, 11), _game(b, 11)

    def both(n: int, seat: int | None, body: Any, **headers: str) -> tuple[Any, Any]:
        """The same request to each app's game; the answers, the game's id left out."""
        sent = {"X-Request-ID": f"req-{n}", **headers}
        out = []
        for client, gid, tokens in ((a, gid_a, tokens_a), (b, gid_b, tokens_b)):
            extra = auth(tokens[seat]) if seat is not None else {}
            out.append(_answer(client.post(f"/v1/games/{gid}/moves", json=body,
                                           headers={**sent, **extra}), gid))
        assert out[0] == out[1], f"request {n}: {body} {headers}"
        return out[0]

    moves = refusals = 0
    for n in range(400):
        view = a.get(f"/v1/games/{gid_a}").get_json()
        if view["status"] == "finished":
            break
        seat = view["pending"][0]["seat"]
        default = a.get(f"/v1/games/{gid_a}/actions", headers=auth(tokens_a[seat])).get_json()[
            "default"]
        if n % 7 == 3:  # a refusal of the table (another seat's token) before the real move
            status, _, _ = both(n * 10, (seat + 1) % 3, default)
            refusals += status >= 400
        if n % 5 == 1:  # from a browser of an allowed origin
            both(n * 10 + 1, seat, default, Origin=ORIGIN, **{"Idempotency-Key": f"k{n}"})
            status, headers, _ = both(n * 10 + 1, seat, default, Origin=ORIGIN,
                                      **{"Idempotency-Key": f"k{n}"})
            assert ("Idempotent-Replayed", "true") in headers  # the same again, replayed
        else:
            status, headers, _ = both(n * 10 + 2, seat, default,
                                      **({"If-Match": f'"{view["version"]}"'} if n % 2 else {}))
        assert status == 200, headers
        moves += 1
    assert a.get(f"/v1/games/{gid_a}").get_json()["status"] == "finished"
    assert moves > 20 and refusals > 2
    # the errors of the move itself: the rules' and the table's, an unknown game, a bad token
    both(1, 0, {"type": "bid", "slot": 1, "money": 0})  # the game is over
    both(2, None, {"type": "bid", "slot": 1, "money": 0}, Authorization="Bearer nope")
    both(3, None, {"type": "bid"}, Authorization="Basic x")
    both(4, 0, [1, 2])
    both(5, 0, {"type": "bid"}, **{"Idempotency-Key": " bad"})
    # every answer of the front app's successful moves came from the route, none from Flask;
    # the other app's all came from Flask
    assert flask_behind[0] >= moves + refusals + 5
    # Flask's route, in front: the refusals, and the errors but the malformed Authorization
    # (refused by Flask's check of credentials, before any route)
    assert flask_front[0] == refusals + 4


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
