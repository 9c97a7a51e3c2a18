"""Hand-written abuse cases against the live service (real gunicorn, real Redis): huge and deeply
nested bodies, wrong content types, hostile names, absurd numbers, other games' tokens, replayed
idempotency keys, bogus Authorization headers, path traversal in ids.

Every answer must be a deliberate refusal or acceptance: never a server error (5xx), never a
hang (every request has a timeout), and every refusal the service makes is problem JSON. Each
test names what it expects; the service stays healthy afterwards.

``make test`` runs a fast subset; ``make fuzz`` (``IMPRESARIO_FUZZ_SCALE`` > 1) runs more
random variants of each family and bigger bodies. The number of cases run is printed.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import threading
import uuid
from typing import Any
from urllib.parse import urlsplit

import pytest

SCALE = float(os.environ.get("IMPRESARIO_FUZZ_SCALE", "1"))
VARIANTS = max(1, int(8 * SCALE))  # random variants per family
CAP = 64 * 1024  # the default MAX_BODY_BYTES
PROBLEM = "application/problem+json"

_lock = threading.Lock()
COUNTS: dict[str, int] = {}


class Live:
    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port

    def raw(self, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | list[tuple[str, Any]] | None = None,
            timeout: float = 20.0) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.putrequest(method, path, skip_accept_encoding=True)
            items = headers.items() if isinstance(headers, dict) else (headers or [])
            names = set()
            for k, v in items:
                conn.putheader(k, v)
                names.add(k.lower())
            if body is not None and "content-length" not in names \
                    and "transfer-encoding" not in names:
                conn.putheader("Content-Length", str(len(body)))
            conn.endheaders()
            if body is not None:
                try:
                    conn.send(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the server answered (413) before reading it all: read the answer
            resp = conn.getresponse()
            data = resp.read()
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, data
        finally:
            conn.close()

    def json(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        hdrs = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        hdrs.update(headers or {})
        data = None if body is None else json.dumps(body).encode()
        status, h, raw = self.raw(method, path, data, hdrs)
        return status, h, (json.loads(raw) if raw and "json" in h.get("content-type", "")
                           else raw)


def check(family: str, status: int, headers: dict[str, str], body: Any,
          allowed: set[int], code: str | None = None, problem: bool = True) -> None:
    """One case: never a server error, a status in ``allowed``, refusals as problem JSON."""
    with _lock:
        COUNTS[family] = COUNTS.get(family, 0) + 1
    shown = body[:300] if isinstance(body, (bytes, str)) else body
    assert status < 500, (family, status, shown)
    assert status in allowed, (family, status, allowed, shown)
    if status >= 400 and problem:
        assert headers.get("content-type", "").startswith(PROBLEM), (family, status, headers)
        parsed = body if isinstance(body, dict) else json.loads(body)
        assert parsed["status"] == status, parsed
        if code is not None:
            assert parsed["code"] == code, (family, parsed)


@pytest.fixture(scope="module")
def live(live_server) -> Live:
    return Live(live_server)


@pytest.fixture(scope="module")
def games(live) -> list[dict[str, Any]]:
    """Two started 3-player games: ids, host tokens and seat tokens."""
    out = []
    for seed in (1, 2):
        status, _, created = live.json("POST", "/v1/games",
                                       {"ruleset": "turandot", "players": 3, "seed": seed})
        assert status == 201, created
        game = {"id": created["game"]["id"], "host": created["host_token"], "tokens": []}
        for i in range(3):
            status, _, joined = live.json("POST", f"/v1/games/{game['id']}/seats",
                                          {"name": f"P{i}"})
            assert status == 201, joined
            game["tokens"].append(joined["token"])
        out.append(game)
    return out


@pytest.fixture(autouse=True)
def still_healthy(live):
    yield
    status, _, _ = live.raw("GET", "/healthz")
    assert status == 200


def _body_paths(games) -> list[str]:
    gid = games[0]["id"]
    return ["/v1/games", f"/v1/games/{gid}/seats", f"/v1/games/{gid}/moves",
            "/v1/rulesets/turandot/score"]


# ------------------------------------------------------------------------------ huge bodies
def test_bodies_over_the_cap_are_413(live, games):
    sizes = [CAP + 1, 2 * CAP, 1024 * 1024] + ([16 * 1024 * 1024] if SCALE > 1 else [])
    token = games[0]["tokens"][0]
    for path in _body_paths(games):
        for size in sizes:
            padding = "x" * size
            body = json.dumps({"ruleset": "turandot", "players": 3, "name": padding}).encode()
            status, h, raw = live.raw("POST", path, body, {
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            check("huge body", status, h, raw, {413}, "body_too_large")


def test_chunked_body_over_the_cap_is_413(live, games):
    """No Content-Length: the cap holds on the bytes as they come."""
    for path in _body_paths(games):
        payload = b'{"name": "' + b"y" * (CAP * 2) + b'"}'
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(c), c)
                          for c in (payload[i:i + 8192] for i in range(0, len(payload), 8192)))
        chunks += b"0\r\n\r\n"
        status, h, raw = live.raw("POST", path, chunks, {
            "Content-Type": "application/json", "Transfer-Encoding": "chunked",
            "Authorization": f"Bearer {games[0]['tokens'][0]}"})  # a move needs it first
        check("chunked huge body", status, h, raw, {413}, "body_too_large")


def test_lying_content_length(live, games):
    """A Content-Length far above the cap with a small body: refused, not waited for."""
    status, h, raw = live.raw("POST", "/v1/games", b'{"ruleset": "turandot"}', {
        "Content-Type": "application/json", "Content-Length": str(10 ** 12)}, timeout=10)
    check("lying content-length", status, h, raw, {413}, "body_too_large")


# ------------------------------------------------------------------------------ nesting
@pytest.mark.parametrize("depth", [1_000, 1_025, 10_000, 32_000, 100_000])
def test_deeply_nested_json(live, games, depth):
    token = games[0]["tokens"][0]
    shapes = {
        "arrays": "[" * depth + "]" * depth,
        "objects": '{"a":' * depth + "1" + "}" * depth,
        "in options": '{"ruleset": "turandot", "players": 3, "options": {"first_maestro": '
                      + "[" * depth + "]" * depth + "}}",
        "in a move": '{"type": "cast", "roles": ' + "[" * depth + "]" * depth + "}",
    }
    for what, text in shapes.items():
        for path in _body_paths(games):
            status, h, raw = live.raw("POST", path, text.encode(), {
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            check(f"nested {what}", status, h, raw, {400, 401, 409, 413, 422})


# ------------------------------------------------------------------------------ content types
@pytest.mark.parametrize("ctype", [None, "text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", "application/xml",
                                   "application/jsonx", "text/json", "application/octet-stream",
                                   "*/*", "application/", ";;;", "application/json\u00e9"])
def test_wrong_content_types_are_415(live, games, ctype):
    body = json.dumps({"ruleset": "turandot", "players": 3, "name": "Zed"}).encode()
    for path in _body_paths(games):
        headers = [] if ctype is None else [("Content-Type", ctype.encode("latin-1"))]
        status, h, raw = live.raw("POST", path, body, headers)
        if path.endswith("/moves"):  # the credentials are looked at first
            check("content type", status, h, raw, {401}, "missing_token")
            headers.append(("Authorization", f"Bearer {games[0]['tokens'][0]}"))
            status, h, raw = live.raw("POST", path, body, headers)
        check("content type", status, h, raw, {415}, "unsupported_media_type")


def test_json_that_is_not_json(live, games):
    token = games[0]["tokens"][0]
    bodies = [b"", b"{", b"\xff\xfe{}", b"\xef\xbb\xbf{}", b'{"a": NaN}', b'{"a": Infinity}',
              b"nul", b'"\\ud800"', b'{"name": "\\udc00"}', b"\x00", b'{"a":1,"a":2}',
              b"[]", b"null", b"123", b'"text"', b"{}" * 1000, b"\xc3\x28",
              b'{"name": "\xed\xa0\x80"}']
    for path in _body_paths(games):
        for body in bodies:
            status, h, raw = live.raw("POST", path, body, {
                "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            check("not json", status, h, raw, {400, 401, 409, 422})


# ------------------------------------------------------------------------------ names
HOSTILE_NAMES_OK = ["Zoë", "李小龍", "🎭🎶", "👩‍👩‍👧‍👦", "אבג", "مرحبا", "e\u0301", "A\u200bB",
                    "\u202eevil", "\ufeffBOM", "x" * 40, "🎭" * 40, " ", "' OR 1=1 --",
                    "<script>alert(1)</script>", "{tag}", "game:{x}", "%00", "../../etc"]
CONTROL_NAMES = ["a\x00b", "a\nb", "tab\t", "\x1b[31mred", "del\x7f", "Anna\n", "\r", "\x00",
                 "\u0085next", "c1\u009b"]


def test_names_are_accepted_or_refused_cleanly(live):
    rng = random.Random(7 if SCALE == 1 else None)
    names = list(HOSTILE_NAMES_OK)
    alphabet = [chr(c) for c in (*range(0x20, 0x7f), *range(0xa0, 0x2fff), *range(0x1f300,
                                                                                  0x1f6ff))]
    for _ in range(VARIANTS * 4):
        names.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 45))))
    for batch in range(0, len(names), 5):
        status, _, created = live.json("POST", "/v1/games", {"ruleset": "turandot",
                                                             "players": 5})
        assert status == 201
        gid = created["game"]["id"]
        for name in names[batch:batch + 5]:
            status, h, body = live.json("POST", f"/v1/games/{gid}/seats", {"name": name})
            check("unicode name", status, h, body, {201, 409, 422})
            if status == 201:
                view = live.json("GET", f"/v1/games/{gid}")[2]
                assert name in [p.get("name") for p in view.get("players", [])] or \
                    view["status"] == "open", view


def test_control_characters_in_names_are_refused(live):
    status, _, created = live.json("POST", "/v1/games", {"ruleset": "turandot", "players": 5})
    gid = created["game"]["id"]
    for name in CONTROL_NAMES + ["", "x" * 41, "🎭" * 41]:
        status, h, body = live.json("POST", f"/v1/games/{gid}/seats", {"name": name})
        check("control name", status, h, body, {422})
    for name in (None, 5, ["a"], {"a": 1}, True):
        status, h, body = live.json("POST", f"/v1/games/{gid}/seats", {"name": name})
        check("name type", status, h, body, {422})


# ------------------------------------------------------------------------------ numbers
ABSURD = [-1, 0, 2 ** 31, 2 ** 63, 2 ** 64, 2 ** 70, 10 ** 30, -(10 ** 30), 1.5, 1e308, -0.0,
          "3", "", None, True, [], {}]


def test_absurd_numbers_in_new_games(live):
    for value in ABSURD:
        for field in ("players", "seed"):
            body = {"ruleset": "turandot", "players": 3, "seed": 7}
            body[field] = value
            status, h, resp = live.json("POST", "/v1/games", body)
            # a number without a fraction is an integer (-0.0 is 0, as JSON Schema counts it)
            valid = (field == "seed" and type(value) in (int, float) and value == int(value)
                     and abs(value) < 2 ** 63)
            ok = {201} if valid else {201, 422} if isinstance(value, bool) else {422}
            check(f"absurd {field}", status, h, resp, ok)
        for option in ("first_maestro", "move_seconds"):
            status, h, resp = live.json("POST", "/v1/games", {
                "ruleset": "turandot", "players": 3, "options": {option: value}})
            check(f"absurd option {option}", status, h, resp, {201, 422})
    for text in (b'{"ruleset":"turandot","players":3,"seed":' + b"9" * 5000 + b"}",
                 b'{"ruleset":"turandot","players":' + b"9" * 5000 + b"}",
                 b'{"ruleset":"turandot","players":3,"seed":1e999}'):
        status, h, raw = live.raw("POST", "/v1/games", text, {"Content-Type": "application/json"})
        check("huge literal", status, h, raw, {400, 422})
    status, h, raw = live.raw("POST", "/v1/games",  # -0.0: the integer 0
                              b'{"ruleset":"turandot","players":3,"seed":-1e-999}',
                              {"Content-Type": "application/json"})
    check("huge literal", status, h, raw, {201})


def test_absurd_numbers_in_moves(live, games):
    game = games[0]
    url = f"/v1/games/{game['id']}/moves"
    invalid = [{"type": "bid", "slot": 3, "money": -5, "bluff": False},
               {"type": "bid", "slot": 10 ** 30, "money": 1, "bluff": False},
               {"type": "bid", "slot": -1, "money": 1, "bluff": False},
               {"type": "bid", "slot": 3, "money": 2 ** 70, "bluff": False},
               {"type": "bid", "slot": 3, "money": 1, "bluff": "yes"},
               {"type": "nominate", "seat": 10 ** 30}, {"type": "nominate", "seat": -1},
               {"type": "fire_director", "director": "x" * 1000}, {"type": 10 ** 30}, {}]
    for move in invalid:  # the schema refuses the shape (422); values are the rules' to judge,
        for token in game["tokens"]:  # in the state of play (here bidding: 409 or 422)
            status, h, body = live.json("POST", url, move, token=token)
            check("invalid move", status, h, body, {409, 422})
    moves = []
    for value in ABSURD:
        moves += [{"type": "bid", "slot": value, "money": 1, "bluff": False},
                  {"type": "bid", "slot": 3, "money": value, "bluff": False},
                  {"type": "bid", "slot": 3, "money": 0, "bluff": value},
                  {"type": "bid", "slot": 3, "money": 0, "bluff": False, "round": value},
                  {"type": "nominate", "seat": value},
                  {"type": "assign_office", "assignments": [{"seat": value, "slot": value}]},
                  {"type": "cast", "roles": [value] * 6},
                  {"type": value}]
    for move in moves:  # a few of these are legal moves: accepted (200) is fine then
        for token in games[1]["tokens"]:
            status, h, body = live.json("POST", f"/v1/games/{games[1]['id']}/moves", move,
                                        token=token)
            check("absurd move", status, h, body, {200, 409, 422})
    for after in ("-1", str(10 ** 30), "1e3", "abc", "", "%00", "9" * 5000):
        status, h, raw = live.raw("GET", f"/v1/games/{game['id']}/events?after={after}")
        check("absurd after", status, h, raw, {200, 400, 414, 422}, problem=status != 414)
    for tag in (b'"99999999999999999999999999"', b'"-1"', b'W/"x"', b"*", b'"' + b"9" * 5000
                + b'"', b'"\xb2"', b"\xb9\xb2", b'"1"' * 1000, b'""', b"W/", b'"0x10"'):
        status, h, raw = live.raw("POST", url, b'{"type": "bid", "slot": 1, "money": 0, '
                                  b'"bluff": false}', [
                                      ("Authorization", f"Bearer {game['tokens'][0]}"),
                                      ("Content-Type", "application/json"), ("If-Match", tag)])
        check("absurd if-match", status, h, raw, {400, 409, 412, 422})
    for last in (b"\xb2", b"\xb9" * 3, b"9" * 5000, b"-1", b"1e3", b"\xff"):
        # Last-Event-ID on the JSON feed (an event stream would stay open: not here)
        status, h, raw = live.raw("GET", f"/v1/games/{game['id']}/events?after=0",
                                  headers=[("Last-Event-ID", last)])
        check("absurd last-event-id", status, h, raw, {200, 400})


def test_absurd_last_event_id_on_a_stream(live, games):
    """Only the status and headers of each event stream are read, then it is dropped."""
    gid = games[0]["id"]
    for last in (b"\xb2", b"\xb9\xb2", b"9" * 5000, b"-1", b"\xff", b" 7 "):
        conn = http.client.HTTPConnection(live.host, live.port, timeout=20)
        try:
            conn.putrequest("GET", f"/v1/games/{gid}/events?after=0")
            conn.putheader("Accept", "text/event-stream")
            conn.putheader("Last-Event-ID", last)
            conn.endheaders()
            resp = conn.getresponse()
            headers = {k.lower(): v for k, v in resp.getheaders()}
            body = resp.read() if resp.status != 200 else b""
            check("absurd last-event-id stream", resp.status, headers, body, {200, 400})
            if resp.status == 200:
                assert headers["content-type"].startswith("text/event-stream"), headers
        finally:
            conn.close()


# ------------------------------------------------------------------------------ tokens
def test_other_games_tokens_are_401(live, games):
    a, b = games
    for token in [*a["tokens"], a["host"]]:
        headers = {"Authorization": f"Bearer {token}"}
        for method, path, body in (
                ("GET", f"/v1/games/{b['id']}/actions", None),
                ("POST", f"/v1/games/{b['id']}/moves", {"type": "bid", "slot": 1, "money": 0,
                                                        "bluff": False}),
                ("GET", f"/v1/games/{b['id']}", None),
                ("GET", f"/v1/games/{b['id']}/events?after=0", None),
                ("GET", f"/v1/games/{b['id']}/guide", None),
                ("GET", f"/v1/games/{b['id']}/places", None),
                ("POST", f"/v1/games/{b['id']}/resolve", None),
                ("POST", f"/v1/games/{b['id']}/seats", {"name": "Intruder", "bot": "random"})):
            status, h, resp = live.json(method, path, body, headers=headers)
            check("foreign token", status, h, resp, {401}, "invalid_token")


def test_bogus_authorization_headers(live, games):
    gid = games[0]["id"]
    real = games[0]["tokens"][0]
    values: list[bytes] = [b"", b"Bearer", b"Bearer ", b"Bearer  \t ", b"Basic dXNlcjpwYXNz",
                           b"bearer " + real.encode() + b" extra", b"Token " + real.encode(),
                           b"Bearer " + b"A" * 257, b"Bearer " + b"A" * 7000,
                           b"Bearer \xff\xfe\xfd", "Bearer ключ".encode(),
                           b"Bearer " + real.encode()[:-1], b"Bearer " + real.encode() + b"=",
                           b"Bearer null", b"Bearer undefined", b"Bearer %00",
                           b"Bearer ../../etc/passwd", b"Digest x=\"y\""]
    rng = random.Random(3 if SCALE == 1 else None)
    for _ in range(VARIANTS):
        values.append(b"Bearer " + bytes(rng.choice(range(0x21, 0x7f)) for _ in range(
            rng.randint(1, 300))))
    for value in values:
        for method, path, body in (("GET", f"/v1/games/{gid}", None),
                                   ("POST", f"/v1/games/{gid}/moves",
                                    b'{"type": "nominate", "seat": 0}')):
            headers = [("Authorization", value)]
            if body is not None:
                headers.append(("Content-Type", "application/json"))
            status, h, raw = live.raw(method, path, body, headers)
            check("bogus authorization", status, h, raw, {200, 401, 409, 422})
    # a header line beyond gunicorn's limit is refused by gunicorn itself (not problem JSON)
    status, h, raw = live.raw("GET", f"/v1/games/{gid}",
                              headers=[("Authorization", b"Bearer " + b"A" * 20000)])
    check("oversized header", status, h, raw, {400, 401, 431}, problem=False)


# ------------------------------------------------------------------------------ idempotency
def test_replayed_idempotency_keys(live, games):
    # creation: same body -> the same game again; another body -> 422
    key = f"k-{uuid.uuid4()}"
    body = {"ruleset": "turandot", "players": 2, "seed": 99}
    first = live.json("POST", "/v1/games", body, headers={"Idempotency-Key": key})
    again = live.json("POST", "/v1/games", body, headers={"Idempotency-Key": key})
    check("idempotency", first[0], first[1], first[2], {201})
    check("idempotency", again[0], again[1], again[2], {201})
    assert again[1].get("idempotent-replayed") == "true"
    assert again[2]["game"]["id"] == first[2]["game"]["id"]
    assert again[2]["host_token"] == first[2]["host_token"]
    other = live.json("POST", "/v1/games", {**body, "seed": 100},
                      headers={"Idempotency-Key": key})
    check("idempotency", *other, {422}, "idempotency_key_reused")

    # a seat: same key and body -> same seat and token; another body -> 422
    gid = first[2]["game"]["id"]
    key = f"j-{uuid.uuid4()}"
    j1 = live.json("POST", f"/v1/games/{gid}/seats", {"name": "Ann"},
                   headers={"Idempotency-Key": key})
    j2 = live.json("POST", f"/v1/games/{gid}/seats", {"name": "Ann"},
                   headers={"Idempotency-Key": key})
    assert j1[0] == j2[0] == 201 and j1[2]["token"] == j2[2]["token"], (j1, j2)
    j3 = live.json("POST", f"/v1/games/{gid}/seats", {"name": "Bob"},
                   headers={"Idempotency-Key": key})
    check("idempotency", *j3, {422}, "idempotency_key_reused")

    # a move in a started game: replayed, and refused with another body
    status, _, created = live.json("POST", "/v1/games", {"ruleset": "turandot", "players": 3})
    game = {"id": created["game"]["id"], "tokens": [
        live.json("POST", f"/v1/games/{created['game']['id']}/seats", {"name": f"S{i}"})[2][
            "token"] for i in range(3)]}
    view = live.json("GET", f"/v1/games/{game['id']}")[2]
    seat = view["pending"][0]["seat"]
    actions = live.json("GET", f"/v1/games/{game['id']}/actions",
                        token=game["tokens"][seat])[2]
    space = actions["moves"][0]
    assert space["type"] == "bid", space
    move = {"type": "bid", "slot": space["slots"][0], "money": 0, "bluff": False}
    key = f"m-{uuid.uuid4()}"
    url = f"/v1/games/{game['id']}/moves"
    m1 = live.json("POST", url, move, token=game["tokens"][seat],
                   headers={"Idempotency-Key": key})
    m2 = live.json("POST", url, move, token=game["tokens"][seat],
                   headers={"Idempotency-Key": key})
    check("idempotency", *m1, {200})
    check("idempotency", *m2, {200})
    assert m2[1].get("idempotent-replayed") == "true" and m2[2] == m1[2]
    m3 = live.json("POST", url, {**move, "bluff": True}, token=game["tokens"][seat],
                   headers={"Idempotency-Key": key})
    check("idempotency", *m3, {422}, "idempotency_key_reused")
    # the same key from another seat is that seat's own key: no replay of someone else's move
    other = (seat + 1) % 3
    m4 = live.json("POST", url, move, token=game["tokens"][other],
                   headers={"Idempotency-Key": key})
    check("idempotency", *m4, {200, 409, 422})
    assert m4[1].get("idempotent-replayed") != "true"

    # keys that are not keys
    for bad in ["", "x" * 201, "\u00a0"]:
        r = live.raw("POST", "/v1/games", json.dumps(body).encode(),
                     [("Content-Type", "application/json"), ("Idempotency-Key",
                                                              bad.encode("latin-1"))])
        check("bad idempotency key", *r, {400}, "invalid_idempotency_key")
    for bad in ["tab\there", "\x7f", "\x00"]:  # gunicorn refuses these header values itself
        r = live.raw("POST", "/v1/games", json.dumps(body).encode(),
                     [("Content-Type", "application/json"), ("Idempotency-Key", bad)])
        check("bad idempotency key", *r, {400}, problem=r[1].get("server") != "gunicorn"
              and "text/html" not in r[1].get("content-type", ""))
    for bad in [b"\xff\xfe", "ключ".encode()]:
        r = live.raw("POST", "/v1/games", json.dumps(body).encode(),
                     [("Content-Type", "application/json"), ("Idempotency-Key", bad)])
        check("non-ascii idempotency key", *r, {201, 400})


def _race(count: int, request) -> list[tuple]:
    """``request()`` from ``count`` threads started together; every answer."""
    results: list[tuple] = []
    threads = [threading.Thread(target=lambda: results.append(request())) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_concurrent_replays_of_one_key(live):
    """Racing retries of one creation: one game, every answer a 201 of it or a 409/503 to retry."""
    key = f"race-{uuid.uuid4()}"
    body = {"ruleset": "turandot", "players": 3, "seed": 5}
    results = _race(12, lambda: live.json("POST", "/v1/games", body,
                                          headers={"Idempotency-Key": key}))
    ids = set()
    for status, h, resp in results:
        check("racing replays", status, h, resp, {201, 409})
        if status == 201:
            ids.add(resp["game"]["id"])
    assert len(ids) == 1, ids


def test_concurrent_joins_with_one_key_take_one_seat(live):
    """Racing retries of one join (one Idempotency-Key, one client): one seat, one token, every
    answer a 201 of that seat or a 409 to retry; the other seats stay free."""
    status, _h, created = live.json("POST", "/v1/games", {"ruleset": "turandot", "players": 4})
    assert status == 201
    gid = created["game"]["id"]
    key = f"join-race-{uuid.uuid4()}"
    results = _race(12, lambda: live.json("POST", f"/v1/games/{gid}/seats", {"name": "Racer"},
                                          headers={"Idempotency-Key": key}))
    answers = set()
    for status, h, resp in results:
        check("racing joins", status, h, resp, {201, 409})
        if status == 201:
            answers.add((resp["seat"], resp["token"]))
    assert len(answers) == 1, answers
    status, _h, view = live.json("GET", f"/v1/games/{gid}")
    assert view["seats_taken"] == 1
    assert [p["name"] for p in view["players"] if p.get("name")] == ["Racer"]


# ------------------------------------------------------------------------------ paths
TRAVERSALS = ["..", "%2e%2e", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
              "....//....//", "%00", "abc%00def", "%ff%fe", "%C0%AE%C0%AE", "{x}", "%7Bx%7D",
              "*", "game:{x}", "a" * 33, "a" * 5000, "%E2%80%AE", "%F0%9F%8E%AD", ";ls",
              "$(id)", "a%0d%0aSet-Cookie:x=1", "\\..\\..\\"]


def test_path_traversal_and_odd_ids(live, games):
    token = games[0]["tokens"][0]
    for gid in TRAVERSALS:
        for method, suffix, body in (("GET", "", None), ("GET", "/actions", None),
                                     ("GET", "/events", None), ("GET", "/score", None),
                                     ("GET", "/replay", None), ("GET", "/guide", None),
                                     ("GET", "/places", None),
                                     ("POST", "/seats", b'{"name": "X"}'),
                                     ("POST", "/moves", b'{"type": "nominate", "seat": 0}'),
                                     ("POST", "/resolve", None)):
            headers = [("Authorization", f"Bearer {token}")]
            if body is not None:
                headers.append(("Content-Type", "application/json"))
            status, h, raw = live.raw(method, f"/v1/games/{gid}{suffix}", body, headers)
            # a request line over gunicorn's limit is refused by gunicorn (414, not JSON)
            check("odd id", status, h, raw, {400, 401, 404, 405, 414},
                  problem=status != 414)
    for path in ("/v1/rulesets/..%2F..", "/v1/rulesets/%00", "/v1/rulesets/" + "x" * 5000,
                 "/../../etc/passwd", "/v1/games/../../../etc/passwd", "//v1//games",
                 "/v1/games/%2F", "/docs/../../etc/passwd", "/v1/rulesets/turandot/../../x",
                 "/v1/rulesets/..%2F../paces", "/v1/rulesets/%00/paces"):
        status, h, raw = live.raw("GET", path)
        check("odd path", status, h, raw, {200, 301, 308, 400, 404, 405, 414}, problem=False)
        assert b"root:" not in raw


def test_methods_not_allowed(live, games):
    gid = games[0]["id"]
    for method in ("PUT", "DELETE", "PATCH", "TRACE", "PROPFIND", "FOO"):
        for path in ("/v1/games", f"/v1/games/{gid}", f"/v1/games/{gid}/moves", "/healthz"):
            status, h, raw = live.raw(method, path)
            check("method", status, h, raw, {400, 405, 501 - 100})


def test_report_case_counts():
    """Runs last in this module: how many abuse cases ran, by family."""
    total = sum(COUNTS.values())
    print(f"abuse cases: {total} in all: {sorted(COUNTS.items())}")
    assert total > 0
