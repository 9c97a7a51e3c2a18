"""Every answer to ``POST /v1/games/{id}/moves``, the odd requests included, pinned: status,
headers (the set of them) and body, the game's id and the clock's readings left out. A battery of
requests a careless or hostile client sends (no token, a malformed one, a query string, the wrong
media type, a body that is no JSON or too large, malformed headers, an unknown or malformed game
id, a stream ticket, a host's token, a stale If-Match, moves the rules refuse, rate limits, a
guessed token past the limit) is sent to a seeded game in a fixed order, and the answers must be
the ones recorded in ``move_answers.json``. Re-record (after a change meant to change them) with
``IMPRESARIO_RECORD_MOVE_ANSWERS=1``, and read the diff."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from service_helpers import FakeClock, auth

RECORDED = Path(__file__).with_name("move_answers.json")
ORIGIN = "https://table.example"
#: headers whose values change from run to run, compared by their presence only
VARYING = {"Content-Length", "Retry-After"}


def _answer(resp, gid: str) -> dict[str, Any]:
    body = resp.get_data().replace(gid.encode(), b"GID").decode()
    headers = sorted((k, "*" if k in VARYING else v.replace(gid, "GID"))
                     for k, v in resp.headers.items())
    if resp.mimetype in ("application/json", "application/problem+json"):
        body = json.loads(body)
    return {"status": resp.status_code, "headers": [list(h) for h in headers], "body": body}


def _battery(client, gid: str, tokens: list[str], host: str) -> list[tuple[str, Any]]:
    url = f"/v1/games/{gid}/moves"
    bid = {"type": "bid", "slot": 2, "money": 0}
    sent: list[tuple[str, Any]] = []
    n = 0

    def send(what: str, path: str = url, token: str | None = tokens[0], body: Any = bid,
             raw: bytes | None = None, content_type: str = "application/json",
             **headers: str) -> None:
        nonlocal n
        n += 1
        headers = {"X-Request-ID": f"req-{n}", **headers}
        if token is not None:
            headers.update(auth(token))
        data = raw if raw is not None else json.dumps(body).encode()
        resp = client.post(path, data=data, content_type=content_type, headers=headers)
        sent.append((what, _answer(resp, gid)))

    send("no token", token=None)
    send("a malformed Authorization", token=None, Authorization="Basic x")
    send("a token of no seat", token="nope")
    send("the host's token", token=host)
    send("text/plain", content_type="text/plain")
    send("no media type", content_type="")
    send("JSON that does not parse", raw=b'{"type": "bid",')
    send("a body over the cap", raw=b'{"type": "bid", "x": "' + b"x" * 70_000 + b'"}')
    send("a malformed Idempotency-Key", **{"Idempotency-Key": " bad"})
    send("a malformed If-Match", **{"If-Match": "abc"})
    send("a game id no game has", path="/v1/games/nope/moves")
    send("a game id of no possible game", path="/v1/games/" + "x" * 40 + "/moves")
    send("an oversized spectator link", path=url + "?spectator=" + "s" * 300)
    send("a stream ticket", path=url + "?ticket=abc")
    send("a stream ticket beside the token", path=url + "?ticket=" + "t" * 32)
    send("a type no Turandot move has", body={"type": "dance"})
    send("no type", body={"slot": 2})
    send("a field of the wrong type", body={"type": "bid", "slot": "2", "money": 0})
    send("an unknown field", body={"type": "bid", "slot": 2, "money": 0, "colour": "red"})
    send("a list", body=[bid])
    send("a slot no 3-player table has", body={"type": "bid", "slot": 6, "money": 0})
    send("more money than the seat has", body={"type": "bid", "slot": 2, "money": 99})
    send("a stale If-Match", **{"If-Match": '"1"'})
    send("a move, from an allowed origin", Origin=ORIGIN, **{"If-Match": '"4"'})
    send("the same move again, with a key", token=tokens[1], **{"Idempotency-Key": "k1"})
    send("the same request again: replayed", token=tokens[1], **{"Idempotency-Key": "k1"})
    send("the key with another body", token=tokens[1], body={**bid, "slot": 3},
         **{"Idempotency-Key": "k1"})
    send("a query string the move ignores", token=tokens[2], path=url + "?x=1",
         content_type="application/json; charset=utf-8")
    send("a bid in the next phase", token=tokens[0])
    return sent


def _limited(client, gid: str, tokens: list[str]) -> list[tuple[str, Any]]:
    """The first answer past a rate limit, and a guessed token's before and past the limit of
    failed authentications. The limits count per minute of real time: a count that a new
    minute resets is counted again, until the limit answers."""
    out = []
    for i in range(30):
        resp = client.post(f"/v1/games/{gid}/moves", json={"type": "dance"},
                           headers={**auth(tokens[0]), "X-Request-ID": f"lim-{i}"})
        if resp.status_code == 429:
            out.append(("past the rate limit", _answer(resp, gid)))
            break
    else:
        raise AssertionError("the rate limit never answered")
    return out


def _guessed(client, gid: str) -> list[tuple[str, Any]]:
    out = []
    for i in range(30):
        resp = client.post(f"/v1/games/{gid}/moves", json={"type": "bid"},
                           headers={**auth(f"guess{i}"), "X-Request-ID": f"guess-{i}"})
        if i == 0:
            out.append(("a guessed token", _answer(resp, gid)))
        if resp.status_code == 429:
            out.append(("guessed past the limit", _answer(resp, gid)))
            break
    else:
        raise AssertionError("the limit of failed authentications never answered")
    return out


def _game(client, seed: int) -> tuple[str, list[str], str]:
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": seed})
    gid, host = created.get_json()["game"]["id"], created.get_json()["host_token"]
    tokens = [client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).get_json()["token"]
              for i in range(3)]
    return gid, tokens, host


def test_every_answer_to_a_move_is_the_recorded_one(app_factory):
    clock = FakeClock()
    app = app_factory(clock=clock, cors_origins=ORIGIN)
    client = app.test_client()
    gid, tokens, host = _game(client, 21)
    answers = _battery(client, gid, tokens, host)
    answers += _guessed(app_factory(clock=clock, auth_failures_per_ip=3).test_client(), gid)
    limited = app_factory(clock=clock, rate_limit_per_ip=12)
    other = limited.test_client()
    gid2, tokens2, _ = _game(other, 22)
    answers += [(w, json.loads(json.dumps(a).replace(gid2, "GID")))
                for w, a in _limited(other, gid2, tokens2)]
    # what differs from run to run in a game's view: its times
    found = json.loads(re.sub(r'"(created|updated|since|deadline)":[0-9.e+]+', r'"\1":0',
                              json.dumps(answers)))
    if os.environ.get("IMPRESARIO_RECORD_MOVE_ANSWERS"):
        RECORDED.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
    expected = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert [w for w, _ in found] == [w for w, _ in expected]
    for (what, got), (_, want) in zip(found, expected):
        assert got == want, what
