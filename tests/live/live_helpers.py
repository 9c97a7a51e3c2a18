"""Helpers of the live-table tests: creating games with options, bot seats and privacy through the
Flask test client, the stored truth in Redis, and reading server-sent events (from the test
client or from a raw socket)."""

from __future__ import annotations

import http.client
import random
import time
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

import orjson

from impresario_engine.store import GameStore
from service_helpers import FakeClock, auth, random_move, stored  # noqa: F401 - FakeClock: used here

SSE = {"Accept": "text/event-stream"}


def create(client, players: int = 4, seed: int | None = 7, private: bool = False,
           ruleset: str = "turandot", **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"ruleset": ruleset, "players": players, "options": options,
                            "private": private}
    if seed is not None:
        body["seed"] = seed
    resp = client.post("/v1/games", json=body)
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()


def seat(client, game_id: str, name: str, bot: str | None = None,
         host_token: str | None = None) -> dict[str, Any]:
    """Take the next seat (a bot's with the host token); returns the join response."""
    body: dict[str, Any] = {"name": name}
    if bot is not None:
        body["bot"] = bot
    resp = client.post(f"/v1/games/{game_id}/seats", json=body, headers=auth(host_token))
    assert resp.status_code == 201, resp.get_data(as_text=True)
    return resp.get_json()


def setup_game(client, kinds: list[str | None], seed: int = 7, private: bool = False,
               **options: Any) -> tuple[dict[str, Any], list[str | None]]:
    """A game with one seat per entry of ``kinds`` (None: a human, else a bot's name), in that
    order. Returns the create response and each seat's token (None for bots)."""
    created = create(client, players=len(kinds), seed=seed, private=private, **options)
    gid = created["game"]["id"]
    tokens: list[str | None] = []
    for i, bot in enumerate(kinds):
        joined = seat(client, gid, f"{'Bot' if bot else 'P'}{i}", bot, created["host_token"])
        assert joined["seat"] == i
        assert (joined["token"] is None) == (bot is not None)
        tokens.append(joined["token"])
    return created, tokens


def raw_events(redis_client, game_id: str) -> list[tuple[int, dict[str, Any]]]:
    """The game's event stream as stored: (seq, event) with every secret (``_private``)."""
    return GameStore(redis_client).events(game_id)  # from the stream, or its archive


def play_humans(client, game_id: str, tokens: list[str | None], rng: random.Random,
                max_moves: int = 400, viewer: str | None = None,
                idle: Callable[[], bool] | None = None,
                after_move: Callable[[int], None] | None = None) -> int:
    """Play the human seats of a game to the end with random legal moves (the bots act inside
    these requests); returns the number of moves made. ``viewer``: the token to read the game
    with (a private game's spectator token). ``idle()``, asked before each move: True when
    nobody moves this time (the caller let the clock run instead); ``after_move(n)`` is called
    after the n-th move."""
    moves = 0
    for _ in range(2 * max_moves):
        view = client.get(f"/v1/games/{game_id}", headers=auth(viewer)).get_json()
        if view["status"] == "finished":
            return moves
        if idle is not None and idle():
            continue
        humans = [p["seat"] for p in view["pending"] if tokens[p["seat"]] is not None]
        assert humans, f"nobody can move but the game is not over: {view['pending']}"
        s = rng.choice(humans)
        actions = client.get(f"/v1/games/{game_id}/actions", headers=auth(tokens[s]))
        move = random_move(actions.get_json(), rng)
        # sent as a player's page sends it: with the version of the view it was chosen from
        resp = client.post(f"/v1/games/{game_id}/moves", json=move,
                           headers={**auth(tokens[s]), "If-Match": f'"{view["version"]}"'})
        assert resp.status_code == 200, (move, resp.get_data(as_text=True))
        moves += 1
        assert moves < max_moves, "the game does not end"
        if after_move is not None:
            after_move(moves)
    raise AssertionError("the game does not end")


# ------------------------------------------------------------------------------------ SSE
def parse_sse(text: str) -> list[dict[str, Any]]:
    """Blocks of an event stream: ``{"id", "event", "data"}`` for events (data decoded),
    ``{"comment": ...}`` for comments (heartbeats), ``{"retry": ms}``."""
    out: list[dict[str, Any]] = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        frame: dict[str, Any] = {}
        data: list[str] = []
        for line in block.split("\n"):
            if line.startswith(":"):
                frame["comment"] = line[1:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
            elif ":" in line:
                name, _, value = line.partition(":")
                frame[name] = value.lstrip(" ")
        if data:
            frame["data"] = orjson.loads("\n".join(data))
        if "retry" in frame:
            frame["retry"] = int(frame["retry"])
        out.append(frame)
    return out


class TestStream:
    """An event stream read through the Flask test client, block by block."""

    __test__ = False  # not a test class

    def __init__(self, client, url: str, headers: dict[str, str] | None = None) -> None:
        self.resp = client.get(url, headers={**SSE, **(headers or {})}, buffered=False)
        self.status = self.resp.status_code
        self._chunks: Iterator[bytes] = iter(self.resp.response) if self.status == 200 else iter(())
        self._buffer = ""
        self.ended = False

    def next_block(self) -> dict[str, Any] | None:
        """The next block, or None once the server closed the stream."""
        while "\n\n" not in self._buffer:
            try:
                chunk = next(self._chunks)
            except StopIteration:
                self.ended = True
                return None
            self._buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, _, self._buffer = self._buffer.partition("\n\n")
        (frame,) = parse_sse(block + "\n\n")
        return frame

    def events(self, count: int) -> list[dict[str, Any]]:
        """The next ``count`` event frames (skipping retry and heartbeat blocks)."""
        out = []
        while len(out) < count:
            frame = self.next_block()
            assert frame is not None, f"the stream ended after {len(out)} of {count} events"
            if "data" in frame:
                out.append(frame)
        return out

    def rest(self) -> list[dict[str, Any]]:
        """Every remaining block until the server closes the stream."""
        out = []
        while (frame := self.next_block()) is not None:
            out.append(frame)
        return out

    def close(self) -> None:
        self.resp.close()


def open_raw_stream(base_url: str, path: str, headers: dict[str, str], timeout: float
                    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    parts = urlsplit(base_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    conn.request("GET", path, headers={**SSE, **headers})
    return conn, conn.getresponse()


def read_blocks(resp: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    """Blocks of a raw (chunked) event stream until the server closes it."""
    lines: list[str] = []
    while True:
        raw = resp.readline()
        if not raw:
            return
        line = raw.decode().rstrip("\r\n")
        if line == "":
            if lines:
                (frame,) = parse_sse("\n".join(lines) + "\n\n")
                yield frame
                lines = []
            continue
        lines.append(line)


def doc_of(redis_client, game_id: str) -> dict[str, Any]:
    return stored(redis_client, game_id)[1]


def until(check: Callable[[], Any], seconds: float = 20.0, why: str = "", log: Any = None,
          every: float = 0.05) -> Any:
    """Poll ``check()`` every ``every`` seconds until it returns something true: that value;
    after ``seconds``, fail saying ``why`` (and what the file ``log`` holds, if given)."""
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"timed out: {why}" + (f"\n{log.read_text(errors='replace')}"
                                                 if log else ""))
