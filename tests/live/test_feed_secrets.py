"""The secrets test, extended to the event feed: in random games of humans and bots, public and
private, the JSON feed (``GET /events``) and the live SSE stream of every seat, of a spectator and
of the host are checked after every human move against the stored truth in Redis:

- no other seat's sealed bid: a ``bid_committed`` event carries exactly its public fields, plus
  ``bid`` (the true one) for its own seat only; bids appear otherwise only in ``bids_revealed``;
- never the deck order: no singer still in the deck (``state.deck`` of the stored document at the
  time of reading) appears in anything received, nor the generator's state;
- never a token (host, seats, spectator link), never a private part (``_private``);
- the list of games (``GET /v1/games``) shows a public game and nothing secret of it, and never
  shows a private one.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from .live_helpers import TestStream, doc_of, play_humans, setup_game
from service_helpers import auth

COMMITTED = {"seq", "type", "round", "seat", "face_down"}


class FeedChecker:
    def __init__(self, redis_client, game_id: str, secrets: list[str]) -> None:
        self.redis = redis_client
        self.game_id = game_id
        self.secrets = secrets
        self.checked = 0
        self.own_bids_seen = 0
        self.hidden_bids_seen = 0

    def check(self, viewer: int | None, events: list[dict[str, Any]], what: str) -> None:
        doc = doc_of(self.redis, self.game_id)
        state = doc["state"]
        text = orjson.dumps(events).decode()
        for singer in state["deck"]:
            assert f'"{singer}"' not in text, (what, viewer, singer, "a deck card leaked")
        for secret in self.secrets:
            assert secret not in text, (what, viewer, "a token leaked")
        assert '"_private"' not in text and '"rng"' not in text and '"deck"' not in text
        truth = {}
        for e in events:
            assert "private" not in e, (what, e)
            if e["type"] == "bid_committed":
                if e["seat"] == viewer:
                    assert set(e) == COMMITTED | {"bid"}, (what, e)
                    truth[(e["round"], e["seat"])] = e["bid"]
                    self.own_bids_seen += 1
                else:
                    assert set(e) == COMMITTED, (what, viewer, e, "another seat's sealed bid")
                    self.hidden_bids_seen += 1
            elif e["type"] == "bids_revealed":
                for b in e["bids"]:
                    if (e["round"], b["seat"]) in truth:  # the reveal shows what was committed
                        assert {k: b[k] for k in ("slot", "money", "bluff")} == truth[
                            (e["round"], b["seat"])]
            else:
                assert "bid" not in e and "bids" not in e, (what, e)
        # the viewer's own sealed bid of the round in play is the stored one
        if state["phase"] == "bidding" and viewer is not None:
            mine = [e for e in events if e["type"] == "bid_committed" and e["seat"] == viewer
                    and e["round"] == state["round"]]
            bid = state["bids"][viewer]
            if bid is None:
                assert not mine
            else:
                assert [m["bid"] for m in mine] == [
                    {"slot": bid[0], "money": bid[1], "bluff": bid[2]}]
        self.checked += 1


GAMES = [
    (2, [None, "greedy"], False, 1),
    (3, [None, None, "random"], True, 2),
    (4, [None, "greedy", None, "random"], False, 3),
    (5, [None, None, "greedy", "random", None], True, 4),
    (4, [None, None, None, None], False, 5),
]


@pytest.mark.parametrize("players,kinds,private,seed", GAMES)
def test_feeds_leak_no_secret(app_factory, redis_client, players, kinds, private, seed):
    app = app_factory(stream_poll_ms=20)
    client = app.test_client()
    created, tokens = setup_game(client, kinds, seed=seed, private=private,
                                 first_maestro="random")
    gid = created["game"]["id"]
    url = f"/v1/games/{gid}"
    spectator = created["spectator_token"]
    secrets = [t for t in [created["host_token"], spectator, *tokens] if t]
    checker = FeedChecker(redis_client, gid, secrets)
    # viewers: each human seat, a spectator (the link's token for a private game), the host
    viewers: list[tuple[int | None, str | None]] = [
        (s, t) for s, t in enumerate(tokens) if t is not None]
    viewers += [(None, spectator), (None, created["host_token"])]
    # each viewer's stream is followed by reconnecting with Last-Event-ID after every move (the
    # test client serves one request at a time; the long-lived streams of many viewers at once
    # are the live server's test)
    received: dict[int, list[dict]] = {i: [] for i in range(len(viewers))}
    rng = random.Random(seed)

    def follow(i: int, token: str | None, last: int) -> None:
        headers = auth(token)
        if received[i]:
            headers["Last-Event-ID"] = str(received[i][-1]["seq"])
        stream = TestStream(client, f"{url}/events", headers)
        try:
            assert stream.status == 200
            frames = stream.events(last - len(received[i]))
            if doc_of(redis_client, gid)["status"] == "finished":
                assert stream.rest() == [] and stream.ended, "the stream ends with the game"
        finally:
            stream.close()
        assert [int(f["id"]) for f in frames] == list(range(len(received[i]) + 1, last + 1))
        received[i] += [f["data"] for f in frames]

    def check_all(what: str) -> None:
        last = doc_of(redis_client, gid)["seq"]
        # the list of games: this game (unless private) with nothing secret in it
        listing = client.get("/v1/games?limit=100").get_json()
        text = orjson.dumps(listing).decode()
        for secret in secrets:
            assert secret not in text, (what, "a token in the list of games")
        for singer in doc_of(redis_client, gid)["state"]["deck"]:
            assert f'"{singer}"' not in text, (what, "a deck card in the list of games")
        assert '"bid' not in text and '"hand' not in text and '"_private"' not in text
        assert (gid in {g["id"] for g in listing["games"]}) is not private, what
        for i, (viewer, token) in enumerate(viewers):
            feed = client.get(f"{url}/events", headers=auth(token)).get_json()
            checker.check(viewer, feed["events"], f"{what} json")
            follow(i, token, last)
            checker.check(viewer, received[i], f"{what} sse")
            assert received[i] == feed["events"]

    check_all("start")
    moves = play_humans(client, gid, tokens, rng, viewer=created["host_token"],
                        after_move=lambda n: check_all(f"move {n}"))
    for i, (viewer, token) in enumerate(viewers):
        assert received[i][-1]["type"] == "game_finished"
        # the whole stream at once, from the start: the same, and it ends by itself
        whole = TestStream(client, f"{url}/events", auth(token))
        blocks = whole.rest()
        assert whole.ended and [b["data"] for b in blocks if "data" in b] == received[i]
    assert checker.checked == 2 * (moves + 1) * len(viewers)
    assert checker.own_bids_seen > 0 and checker.hidden_bids_seen > 0
