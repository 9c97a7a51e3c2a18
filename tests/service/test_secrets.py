"""Secrets test: random games over HTTP; everything a seat or a spectator receives (views, legal
actions, move responses, event feeds) is checked against the stored truth in Redis:

- no other seat's sealed bid appears before the reveal (``you.bid`` is one's own; a
  ``bid_committed`` event carries ``bid`` only for its own seat; revealed bids only after the
  reveal), and no other seat's hand (``you`` only for oneself);
- the deck order never appears: no singer still in the deck (``state.deck`` in the stored
  document) appears in any response before its round's table is laid, and neither the deck nor
  the random generator's state does;
- while bidding, every seat's ``face_down`` count (and whether it has bid) is shown to everyone.

``AnswerChecker`` checks the answers of every ruleset so (Word Jam's and Muzicando's with the
checks of tests/games/games_helpers.py), each against the state the game had when it was made.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from games.games_helpers import (Table, check_muzicando_answer, check_muzicando_feed,
                                 check_muzicando_view, check_wordjam_answer, check_wordjam_feed,
                                 check_wordjam_view, wordjam_secret_words)
from impresario_engine.store import GameStore
from impresario_rules import RULESETS
from impresario_rules.base import redact_event
from impresario_rules.turandot.rules import face_down
from service_helpers import auth, random_move, stored

BID_KEYS = {"slot", "money", "bluff"}
FORBIDDEN_KEYS = {"deck", "rng", "_private", "private", "bids_secret", "token", "host"}


def _walk(node: Any, path: tuple = ()):
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,))


def _at(root: Any, path: tuple) -> Any:
    for p in path:
        root = root[p]
    return root


class Observer:
    """Checks every body a viewer receives against the stored state of the game."""

    def __init__(self, redis_client, game_id: str, players: int) -> None:
        self.redis = redis_client
        self.game_id = game_id
        self.players = players
        self.checked = 0
        self.face_down_seen = 0

    def check(self, viewer: int | None, body: Any, what: str) -> None:
        _, doc = stored(self.redis, self.game_id)
        state = doc["state"]
        text = orjson.dumps(body).decode()
        # the deck: none of its singers, before their round's table is laid
        for singer in state["deck"]:
            assert f'"{singer}"' not in text, (what, viewer, singer, "deck card leaked")
        for path, node in _walk(body):
            if isinstance(node, dict):
                # the game's flag ``private``, a player's game's ``host`` (whether they host it)
                leaked = {k for k in FORBIDDEN_KEYS & set(node)
                          if not (k in ("private", "host") and isinstance(node[k], bool))}
                assert not leaked, (what, viewer, path, leaked)
                if BID_KEYS <= set(node) and node.get("type") not in ("bid",):
                    self._check_bid(viewer, body, path, node, state, what)
                if "you" in node and isinstance(node["you"], dict):
                    assert viewer is not None, (what, "a spectator got a 'you'")
                    assert node["you"]["seat"] == viewer, (what, viewer, node["you"])
        if state["phase"] == "bidding":
            self._check_face_down(viewer, body, state, what)
        self.checked += 1

    def _check_bid(self, viewer, body, path, node, state, what) -> None:
        """A bid's content may appear: as the viewer's own ``you.bid`` or own
        ``bid_committed``; as part of a reveal (``reveal`` / ``bids_revealed``)."""
        parent_key = path[-1] if path else None
        if parent_key == "bid" and len(path) >= 2 and path[-2] == "you":
            if state["phase"] == "bidding":
                own = state["bids"][viewer]
                assert own is not None and [node["slot"], node["money"], node["bluff"]] == own
            return
        if parent_key == "bid":
            event = _at(body, path[:-1])
            assert event.get("type") == "bid_committed", (what, path)
            assert event["seat"] == viewer, (what, viewer, event, "another seat's sealed bid")
            return
        if len(path) >= 2 and path[-2] == "reveal":
            return  # the view's last reveal (a finished round)
        if len(path) >= 3 and path[-2] == "bids":
            event = _at(body, path[:-2])
            assert event.get("type") == "bids_revealed", (what, path)
            return
        raise AssertionError(f"{what}: a bid at {path} for viewer {viewer}: {node}")

    def _check_face_down(self, viewer, body, state, what) -> None:
        """Every view in the body shows every seat's face-down count and has_bid."""
        for path, node in _walk(body):
            if isinstance(node, dict) and "players" in node and "phase" in node \
                    and node["phase"] == "bidding" and node.get("version") is not None:
                if node["version"] != stored(self.redis, self.game_id)[0]:
                    continue  # an older view (a replay); its counts are those of its time
                for p in node["players"]:
                    bid = state["bids"][p["seat"]]
                    assert p["face_down"] == face_down(bid), (what, viewer, p, bid)
                    assert p["has_bid"] == (bid is not None)
                    self.face_down_seen += p["face_down"] > 0


#: what a game view has beside the rules' view of its state (the table's own fields,
#: table/views.py), and what a player's and a pending seat's entries have beside theirs
TABLE_FIELDS = {"id", "ruleset", "version", "status", "seats_taken", "seats_total", "last_seq",
                "private", "move_seconds", "bot_seconds", "seeded", "rematch", "pace", "guided",
                "bank_seconds", "bank_refill_seconds", "banks"}
PLAYER_FIELDS = {"name", "bot"}
PENDING_FIELDS = {"deadline"}
VIEW_KEYS = {"id", "ruleset", "version", "status", "players"}


def _json(node: Any) -> Any:
    return orjson.loads(orjson.dumps(node))


def _off_view(view: dict[str, Any], state: dict[str, Any], viewer: int | None) -> str | None:
    """How ``view`` differs from the game view of ``state`` for ``viewer`` (None: it is that
    view): the rules' view of it (``Ruleset.view``), with nothing beside it but the table's
    own fields."""
    rules = _json(RULESETS[view["ruleset"]].view(state, viewer))
    extra = set(view) - set(rules) - TABLE_FIELDS
    if extra:
        return f"fields the rules' view has not: {sorted(extra)}"
    for key, want in rules.items():
        got = view.get(key)
        if key == "players" and isinstance(got, list):
            got = [{k: v for k, v in p.items() if k not in PLAYER_FIELDS} for p in got]
        elif key == "pending" and isinstance(got, list):
            got = [{k: v for k, v in p.items() if k not in PENDING_FIELDS} for p in got]
            if view["status"] == "open":
                want = []  # nobody acts before the start
        if got != want:
            return f"{key}: {got!r} is not {want!r}"
    return None


def _in_one_of(states: list[dict[str, Any]], check: Any) -> None:
    """``check(state)`` passes for one of ``states`` at least (the first one's failure)."""
    failures = []
    for state in states:
        try:
            check(state)
            return
        except AssertionError as failure:
            failures.append(failure)
    raise failures[0]


def _split(node: Any, path: tuple = ()) -> tuple[list, list, Any]:
    """A body's game views and event lists (with their paths), and the rest of it."""
    if isinstance(node, dict) and VIEW_KEYS <= set(node):
        return [(path, node)], [], None
    if isinstance(node, list) and path and path[-1] == "events" and all(
            isinstance(e, dict) and "seq" in e and "type" in e for e in node):
        return [], [(path, node)], None
    views: list = []
    feeds: list = []
    if isinstance(node, dict):
        rest: Any = {}
        for k, v in node.items():
            more_views, more_feeds, rest[k] = _split(v, path + (k,))
            views += more_views
            feeds += more_feeds
        return views, feeds, rest
    if isinstance(node, list):
        rest = []
        for i, v in enumerate(node):
            more_views, more_feeds, part = _split(v, path + (i,))
            views += more_views
            feeds += more_feeds
            rest.append(part)
        return views, feeds, rest
    return [], [], node


def _ruleset_checks(table: Table, viewer: int | None, words: dict) -> tuple | None:
    """The ruleset's checks (tests/games/games_helpers.py) of a view, of a list of events
    and of any other answer, each against one state; None for Turandot (the Observer's)."""
    if table.ruleset == "wordjam":
        return (lambda view, s: check_wordjam_view(table, view, viewer, s, words),
                lambda events: check_wordjam_feed(table, events, viewer, words),
                lambda rest, s, where: check_wordjam_answer(table, rest, viewer, s, words,
                                                            where))
    if table.ruleset == "muzicando":
        return (lambda view, s: check_muzicando_view(table, view, viewer, s),
                lambda events: check_muzicando_feed(table, events, viewer),
                lambda rest, s, where: check_muzicando_answer(table, rest, viewer, s, where))
    return None


class AnswerChecker:
    """Checks every answer a viewer (a seat, or None: a spectator) receives about one game, of
    any ruleset, against the stored game, at the moment the answer was made. The stored moves
    are replayed from the seed (the states the game went through, kept as it goes on); one
    viewer's answers come in order, so each is of a state between its previous answer's and
    the stored one:

    - a game view is the rules' view of one of those states for the viewer (nothing but the
      table's own fields beside it), and passes the ruleset's checks of a view against it (Word
      Jam: no other seat's bet, side, word or vote before its reveal, no Style card of the deck;
      Muzicando: no card of another hand or of the pile, the viewer's own hand);
    - an event is the stored event as the viewer may see it (``redact_event``), and the lists
      of them pass the ruleset's checks of a feed;
    - the rest (legal moves, a score, a refusal, a listing) passes the ruleset's checks of any
      answer against one of those states: none of their secrets is spelt out in it;
    - and every answer passes the generic checks (no secret field, a ``you`` only the viewer's
      own), a Turandot one the :class:`Observer`'s."""

    def __init__(self, redis_client, game_id: str) -> None:
        self.redis = redis_client
        self.game_id = game_id
        #: the state while the seats were taken, dealt, then after each stored move
        self.states: list[dict[str, Any]] = []
        #: viewer -> the index in ``states`` of the earliest state its last answer can be of
        self.since: dict[int | None, int] = {}
        self.observer: Observer | None = None
        self.checked = 0
        self.views = 0
        self.events = 0

    def _replay(self, doc: dict[str, Any]) -> None:
        ruleset = RULESETS[doc["ruleset"]]
        if not self.states:
            setup, _ = ruleset.setup(doc["players"], dict(doc["options"]), doc["seed"])
            self.states = [setup, ruleset.deal(setup)[0]]
        for seat, move, *_by in doc["moves"][len(self.states) - 2:]:
            self.states.append(ruleset.apply(self.states[-1], seat, move)[0])
        now = self.states[0] if doc["status"] == "open" else self.states[-1]
        assert _json(now) == doc["state"], "the replay is not the stored game"

    def check(self, viewer: int | None, body: Any, what: str) -> None:
        _, doc = stored(self.redis, self.game_id)
        ruleset = doc["ruleset"]
        self._replay(doc)
        if doc["status"] == "open":
            window = [0]
        else:  # newest first
            window = list(range(len(self.states) - 1, self.since.get(viewer, 0) - 1, -1))
        states = [self.states[i] for i in window]
        table = Table(self.game_id, ruleset, "", doc["players"], doc["seed"], doc["options"])
        raw = GameStore(self.redis).events(self.game_id)
        words = wordjam_secret_words(raw) if ruleset == "wordjam" else {}
        checks = _ruleset_checks(table, viewer, words)
        for path, node in _walk(body):
            if isinstance(node, dict):
                leaked = {k for k in FORBIDDEN_KEYS & set(node)
                          if not (k in ("private", "host") and isinstance(node[k], bool))}
                assert not leaked, (what, viewer, path, leaked)
                if isinstance(node.get("you"), dict):
                    assert node["you"]["seat"] == viewer, (what, viewer, path, node["you"])
        views, feeds, rest = _split(body)
        for path, view in views:
            assert view["id"] == self.game_id, (what, path, "a view of another game")
            had = [i for i in window if _off_view(view, self.states[i], viewer) is None]
            assert had, (what, viewer, path, "no view the viewer had since its last answer",
                         _off_view(view, states[0], viewer))
            self.since[viewer] = min(had)
            if checks:
                _in_one_of([self.states[i] for i in had], lambda s: checks[0](view, s))
            self.views += 1
        stream = dict(raw)
        for path, events in feeds:
            for e in events:
                assert e == {"seq": e["seq"], **redact_event(stream[e["seq"]], viewer)}, \
                    (what, viewer, path, e, "not the stored event as the viewer may see it")
            if checks:
                checks[1](events)
            self.events += len(events)
        if checks:
            _in_one_of(states, lambda s: checks[2](rest, s, f"{what} of {viewer}"))
        else:
            self.observer = self.observer or Observer(self.redis, self.game_id, doc["players"])
            self.observer.check(viewer, body, what)
        self.checked += 1


def _observe_all(client, game, tokens, obs: Observer, seen: dict | None = None) -> None:
    """Every viewer's view, legal actions and events. ``seen`` (viewer's token -> the last
    event seq it read): only the events since then, else the whole feed. An event is
    redacted for its reader when it is read, the same each time, and the deck only shrinks:
    what a new event leaks is caught when it is first read (and the whole feeds are read
    again at the end), without reading every event again after every move."""
    viewers: list[tuple[int | None, str | None]] = [(None, None), (None, game.host_token)]
    viewers += [(seat, t) for seat, t in enumerate(tokens)]
    for viewer, token in viewers:
        after = seen.get(token, 0) if seen is not None else 0
        for what in ("", "/actions", f"/events?after={after}"):
            resp = client.get(game.url + what, headers=auth(token))
            assert resp.status_code == 200
            body = resp.get_json()
            obs.check(viewer, body, what or "view")
            if seen is not None and what.startswith("/events"):
                seen[token] = body["last_seq"]


# one game of each size in make test, a second of each in make test-deep
@pytest.mark.parametrize("players,seed", [
    (2, 1), pytest.param(2, 2, marks=pytest.mark.deep), (3, 3),
    pytest.param(3, 4, marks=pytest.mark.deep), (4, 5), pytest.param(4, 6, marks=pytest.mark.deep),
    pytest.param(5, 7, marks=pytest.mark.deep), (5, 8)])
def test_no_secret_reaches_anyone(client, make_game, redis_client, players, seed):
    game = make_game(players=players, seed=seed, first_maestro="random")
    obs = Observer(redis_client, game.id, players)
    rng = random.Random(seed)
    # the deck is secret from the first response on (the create and join answers too)
    obs.check(None, game.created, "create")
    moves = 0
    bidding_views = 0
    seen: dict = {}
    while True:
        _observe_all(client, game, game.tokens, obs, seen)
        view = client.get(game.url).get_json()
        if view["status"] == "finished":
            _observe_all(client, game, game.tokens, obs)  # every whole feed, once more
            break
        bidding_views += view["phase"] == "bidding"
        seat = rng.choice([p["seat"] for p in view["pending"]])
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()
        move = random_move(actions, rng)
        key = f"k{moves}" if rng.random() < 0.3 else None
        headers = auth(game.tokens[seat])
        if key:
            headers["Idempotency-Key"] = key
        resp = client.post(f"{game.url}/moves", json=move, headers=headers)
        assert resp.status_code == 200, resp.get_json()
        obs.check(seat, resp.get_json(), "move")
        if key:  # the replay too
            again = client.post(f"{game.url}/moves", json=move, headers=headers)
            assert again.headers.get("Idempotent-Replayed") == "true"
            obs.check(seat, again.get_json(), "replay")
        moves += 1
    # the checks ran, and saw face-down counts while bidding
    assert obs.checked > moves * (players + 2) * 3
    assert bidding_views >= 7 and obs.face_down_seen > 0


def test_face_down_count_while_bidding(client, make_game):
    """The count of each seat's face-down cards, shown to everyone, spectators included,
    while the bid itself is shown only to its seat."""
    game = make_game(players=3, seed=1, first_maestro=0)
    bids = {1: {"type": "bid", "slot": 2, "money": 2, "bluff": True},
            2: {"type": "bid", "slot": None, "money": 1, "bluff": False}}
    for seat, bid in bids.items():
        assert client.post(f"{game.url}/moves", json=bid,
                           headers=auth(game.tokens[seat])).status_code == 200
    for token in [None, game.host_token, *game.tokens]:
        view = client.get(game.url, headers=auth(token)).get_json()
        assert [p["face_down"] for p in view["players"]] == [0, 4, 1]
        assert [p["has_bid"] for p in view["players"]] == [False, True, True]
        assert [p["seat"] for p in view["pending"]] == [0]
        events = client.get(f"{game.url}/events?after=0", headers=auth(token)).get_json()
        commits = [e for e in events["events"] if e["type"] == "bid_committed"]
        assert [(e["seat"], e["face_down"]) for e in commits] == [(1, 4), (2, 1)]
        for e in commits:
            if token is not None and token == game.tokens[e["seat"]]:
                assert e["bid"] == {k: bids[e["seat"]][k] for k in ("slot", "money", "bluff")}
            else:
                assert "bid" not in e
    you = client.get(game.url, headers=auth(game.tokens[1])).get_json()["you"]
    assert you["bid"] == {"slot": 2, "money": 2, "bluff": True}
    assert you["hand"] == {"numbers": [1, 3, 4], "money": 1, "bluff": False}
    assert client.get(game.url, headers=auth(game.tokens[0])).get_json()["you"]["bid"] is None


LISTED = {"id", "ruleset", "status", "seats_taken", "seats_total", "seats", "options",
          "has_bots", "created", "updated"}


def test_the_list_of_games_shows_nothing_secret(client, make_game, redis_client):
    """At every move of a random game, every listing (each filter) is checked like a
    spectator's view: no deck card, no bid, no hand, no token; and nothing of a private game."""
    game = make_game(players=3, seed=11, first_maestro="random")
    hidden = client.post("/v1/games", json={"ruleset": "turandot", "players": 2,
                                            "private": True}).get_json()
    hidden_seat = client.post(hidden["join_link"], json={"name": "Secret"}).get_json()
    secrets = [game.host_token, *game.tokens, hidden["host_token"], hidden["spectator_token"],
               hidden["join_token"], hidden_seat["token"], hidden["game"]["id"], "Secret"]
    obs = Observer(redis_client, game.id, 3)
    rng = random.Random(11)
    queries = ["", "?status=playing", "?status=open", "?ruleset=turandot&has_bots=false",
               "?status=finished"]
    listed_while_playing = 0
    while True:
        for query in queries:
            body = client.get(f"/v1/games{query}").get_json()
            obs.check(None, body, f"list {query}")
            text = orjson.dumps(body).decode()
            for secret in secrets:
                assert secret not in text, (query, "a secret of the list")
            for item in body["games"]:
                assert set(item) == LISTED, item
                assert {k for s in item["seats"] for k in s} <= {"seat", "name", "bot", "held"}
                listed_while_playing += item["status"] == "playing"
        view = client.get(game.url).get_json()
        if view["status"] == "finished":
            break
        seat = rng.choice([p["seat"] for p in view["pending"]])
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()
        assert client.post(f"{game.url}/moves", json=random_move(actions, rng),
                           headers=auth(game.tokens[seat])).status_code == 200
    assert listed_while_playing > 20
    assert client.get("/v1/games?status=finished").get_json()["games"][0]["id"] == game.id


def test_a_seat_left_during_the_game_gives_away_nothing(client, make_game, redis_client):
    """A player leaves mid-game (the greedy bot takes the seat): the answer to the leave, and
    every view, action list and feed after it, are checked like the others; the answer holds
    no token and not the game's secret (the bots' randomness), and the old token stops."""
    game = make_game(players=3, seed=21, first_maestro="random")
    obs = Observer(redis_client, game.id, 3)
    rng = random.Random(21)
    for _ in range(6):  # a few moves in: hands dealt, bids sealed
        view = client.get(game.url).get_json()
        seat = rng.choice([p["seat"] for p in view["pending"]])
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()
        assert client.post(f"{game.url}/moves", json=random_move(actions, rng),
                           headers=auth(game.tokens[seat])).status_code == 200
    left = client.delete(f"{game.url}/seats/1", headers=auth(game.tokens[1]))
    assert left.status_code == 200
    obs.check(None, left.get_json(), "leave")
    text = left.get_data(as_text=True)
    _, doc = stored(redis_client, game.id)
    for secret in (game.host_token, *game.tokens, doc["secret"]):
        assert secret not in text
    assert client.get(game.url, headers=auth(game.tokens[1])).status_code == 401
    viewers = [(None, None), (None, game.host_token), (0, game.tokens[0]), (2, game.tokens[2])]
    while True:
        for viewer, token in viewers:
            for what in ("", "/actions", "/events?after=0"):
                resp = client.get(game.url + what, headers=auth(token))
                assert resp.status_code == 200
                obs.check(viewer, resp.get_json(), what or "view")
                assert doc["secret"] not in resp.get_data(as_text=True)
        view = client.get(game.url).get_json()
        if view["status"] == "finished":
            break
        seat = rng.choice([p["seat"] for p in view["pending"] if p["seat"] != 1])
        actions = client.get(f"{game.url}/actions", headers=auth(game.tokens[seat])).get_json()
        assert client.post(f"{game.url}/moves", json=random_move(actions, rng),
                           headers=auth(game.tokens[seat])).status_code == 200
    assert any(m[2] == "bot" and m[0] == 1 for m in stored(redis_client, game.id)[1]["moves"])


def test_players_answers_show_nothing_secret(client, redis_client):
    """A rated game of three players, each seat a player's, played at random: at every move
    each player's games, every profile, the leaderboard and a resume's answer are checked like
    the views (no deck card, no other seat's bid or hand), and none holds a credential of
    anyone (the caller's own included, but the resumed seat's new token) or a private game's
    id; a private rated game's result names no game."""
    people = [client.post("/v1/players", json={"name": n}).get_json() for n in ("A", "B", "C")]
    creds = [p["token"] for p in people]
    made = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": 31},
                       headers=auth(creds[0])).get_json()
    gid, host = made["game"]["id"], made["host_token"]
    url = f"/v1/games/{gid}"
    tokens = [client.post(f"{url}/seats", json={"name": "A"}, headers=auth(host)).get_json()["token"]]
    tokens += [client.post(f"{url}/seats", json={"name": n}, headers=auth(c)).get_json()["token"]
               for n, c in (("B", creds[1]), ("C", creds[2]))]
    hidden = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 32,
                                            "private": True, "rated": True},
                         headers=auth(creds[0])).get_json()
    secrets = {host, hidden["host_token"], hidden["spectator_token"], hidden["join_token"],
               hidden["game"]["id"], *creds}
    obs = Observer(redis_client, gid, 3)
    rng = random.Random(31)

    def check_all(viewers_tokens):
        for seat, cred in enumerate(creds):
            mine = client.get("/v1/me/games", headers=auth(cred)).get_json()
            obs.check(seat, mine, "my games")
            for item in mine["games"]:
                assert item["seat"] in (seat, None)
        bodies = [client.get(f"/v1/players/{p['player']['id']}").get_json() for p in people]
        bodies.append(client.get("/v1/leaderboards/turandot").get_json())
        for body in bodies:
            obs.check(None, body, "profile or board")
        for body in bodies:  # what anyone may read
            text = orjson.dumps(body).decode()
            for secret in secrets | set(viewers_tokens):
                assert secret not in text, "a credential or a private game's id"
        for cred in creds:  # a player's own list: their games' ids, nobody's credential
            text = client.get("/v1/me/games", headers=auth(cred)).get_data(as_text=True)
            for secret in (secrets - {hidden["game"]["id"]}) | set(viewers_tokens):
                assert secret not in text, "a credential in a player's games"

    moves = 0
    while True:
        check_all(tokens)
        view = client.get(url).get_json()
        if view["status"] == "finished":
            break
        seat = rng.choice([p["seat"] for p in view["pending"]])
        if moves % 7 == 3:  # the player resumes the seat: a fresh token, the old one ends
            resumed = client.post(f"/v1/me/games/{gid}/resume", headers=auth(creds[seat]))
            assert resumed.status_code == 200
            obs.check(seat, resumed.get_json()["game"], "resume")  # beside its own new token
            text = orjson.dumps(resumed.get_json()).decode()
            assert not any(t in text for t in tokens + [creds[seat]])
            tokens[seat] = resumed.get_json()["token"]
        actions = client.get(f"{url}/actions", headers=auth(tokens[seat])).get_json()
        assert client.post(f"{url}/moves", json=random_move(actions, rng),
                           headers=auth(tokens[seat])).status_code == 200
        moves += 1
    assert all(client.get(f"/v1/players/{p['player']['id']}").get_json()["games"] == 1
               for p in people)
    # the private rated game, played out: its result names no game
    hurl, hhost = f"/v1/games/{hidden['game']['id']}", hidden["host_token"]
    mine = client.post(f"{hurl}/seats", json={"name": "A"}, headers=auth(hhost)).get_json()
    other = client.post(hidden["join_link"], json={"name": "B"},
                        headers=auth(creds[1])).get_json()
    hidden_tokens = [mine["token"], other["token"]]
    while (hv := client.get(hurl, headers=auth(hidden_tokens[0])).get_json())["status"] != "finished":
        seat = hv["pending"][0]["seat"]
        actions = client.get(f"{hurl}/actions", headers=auth(hidden_tokens[seat])).get_json()
        client.post(f"{hurl}/moves", json=random_move(actions, rng),
                    headers=auth(hidden_tokens[seat]))
    profile = client.get(f"/v1/players/{people[0]['player']['id']}").get_json()
    assert profile["games"] == 2 and None in [r["game"] for r in profile["recent"]]
    check_all(tokens + hidden_tokens)


def test_web_push_notifications_show_nothing_secret(app_factory, redis_client, tmp_path,
                                                    engine_log):
    """A game of three players, each subscribed to Web Push in a language of their own, played
    at random to its end with the channel (``push.deliver``) called after every write: every
    notification the local push service decrypts is checked like the views (no deck card,
    no forbidden key), is one of the catalogue's sentences filled with the game's id, the
    ruleset's title, a time left or a place and nothing else, and holds no credential; no log
    line names a subscription's endpoint path or keys."""
    import re

    from py_vapid import Vapid

    from impresario_engine.table.notices import TEXTS
    from impresario_engine.usecases import push
    from push_service import PushService

    key = Vapid()
    key.generate_keys()
    (tmp_path / "vapid.pem").write_bytes(key.private_pem())
    app = app_factory(vapid_private_key_file=str(tmp_path / "vapid.pem"),
                      vapid_subject="mailto:ops@example.test", push_allow_private=True)
    client, engine = app.test_client(), app.extensions["impresario"]
    people = [client.post("/v1/players", json={"name": n}).get_json() for n in ("A", "B", "C")]
    creds = [p["token"] for p in people]
    with PushService() as service:
        browsers = []
        for lang, cred, name in zip(("en", "it", "fr"), creds, "abc"):
            browser = service.browser(name)
            browsers.append(browser)
            assert client.post("/v1/me/push-subscriptions", headers=auth(cred),
                               json=browser.subscription(lang)).status_code == 201
        made = client.post("/v1/games", headers=auth(creds[0]), json={
            "ruleset": "turandot", "players": 3, "seed": 41,
            "options": {"move_seconds": 86400}}).get_json()
        gid, url = made["game"]["id"], f"/v1/games/{made['game']['id']}"
        tokens = [client.post(f"{url}/seats", json={"name": "A"},
                              headers=auth(made["host_token"])).get_json()["token"]]
        tokens += [client.post(f"{url}/seats", json={"name": n}, headers=auth(c)).get_json()[
            "token"] for n, c in (("B", creds[1]), ("C", creds[2]))]
        obs = Observer(redis_client, gid, 3)
        rng = random.Random(41)
        seq = 0
        while True:
            _v, doc, _i, _r = engine.store.read_game(gid)
            events = engine.store.events(gid, seq)
            seq = doc["seq"]
            push.deliver(engine, gid, doc, events)
            view = client.get(url).get_json()
            if view["status"] == "finished":
                break
            seat = rng.choice([p["seat"] for p in view["pending"]])
            actions = client.get(f"{url}/actions", headers=auth(tokens[seat])).get_json()
            assert client.post(f"{url}/moves", json=random_move(actions, rng),
                               headers=auth(tokens[seat])).status_code == 200
            for received in service.received[obs.checked:]:
                obs.check(None, received["message"], "notification")
    assert service.errors == [] and len(service.received) >= 6
    kinds = {r["message"]["kind"] for r in service.received}
    assert kinds == {"your_move", "game_over"}
    fill = {"game": re.escape(gid), "ruleset": "Turandot", "left": r"[0-9]+ [A-Za-z.]+"
            r"(?: [0-9]+ [A-Za-z.]+)?", "place": "[1-3]", "sides": "3"}
    credentials = [*creds, *tokens, made["host_token"]]
    for received in service.received:
        message = received["message"]
        texts = TEXTS[message["lang"]]
        for part in ("title", "body"):
            sentences = [v for k, v in texts.items() if k.startswith(message["kind"] + ".")]
            assert any(re.fullmatch(re.sub(r"\\\{(\w+)\\\}", lambda m: fill[m.group(1)],
                                           re.escape(s)), message[part])
                       for s in sentences), (part, message)
        text = orjson.dumps(message).decode()
        assert not any(c in text for c in credentials)
    logged = "\n".join(r.getMessage() for r in engine_log.records)
    for browser in browsers:
        sub = browser.subscription()
        assert browser.endpoint.split("/", 3)[-1] not in logged
        assert sub["keys"]["p256dh"] not in logged and sub["keys"]["auth"] not in logged


def test_webhook_payloads_show_nothing_secret(app_factory, redis_client, monkeypatch):
    """A game's webhook messages (the sender's, usecases/notify.py) carry each event as a
    spectator sees it: checked against the stored game as each move's messages go out."""
    from impresario_engine.usecases import notify, outgoing

    app = app_factory(webhook_allow_private=True, webhook_allow_http_hosts="127.0.0.1",
                      webhook_rate_per_second=100000)
    client = app.test_client()
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 3, "seed": 11,
                                             "options": {"first_maestro": "random"}})
    game_id, host = created.get_json()["game"]["id"], created.get_json()["host_token"]
    hook = client.post(f"/v1/games/{game_id}/webhooks", headers=auth(host),
                       json={"url": "http://127.0.0.1:9/hook"})
    assert hook.status_code == 201, hook.get_json()
    tokens = [client.post(f"/v1/games/{game_id}/seats", json={"name": f"P{i}"}).get_json()
              ["token"] for i in range(3)]
    sent: list[bytes] = []

    def post(url, body, headers, config, resolver=None):
        sent.append(body)
        return outgoing.Outcome(200, None, 1)

    monkeypatch.setattr(outgoing, "post", post)
    sender = notify.Sender(app.extensions["impresario"], name="secrets-test")
    obs = Observer(redis_client, game_id, 3)
    rng = random.Random(11)
    messages = 0
    while True:
        sender.turn(block_ms=None)
        for body in sent:
            obs.check(None, orjson.loads(body), "webhook")
        messages += len(sent)
        sent.clear()
        view = client.get(f"/v1/games/{game_id}").get_json()
        if view["status"] == "finished":
            break
        seat = rng.choice([p["seat"] for p in view["pending"]])
        actions = client.get(f"/v1/games/{game_id}/actions",
                             headers=auth(tokens[seat])).get_json()
        resp = client.post(f"/v1/games/{game_id}/moves", json=random_move(actions, rng),
                           headers=auth(tokens[seat]))
        assert resp.status_code == 200, resp.get_json()
    assert messages == view["last_seq"]  # every event (the creation has none), each once


def test_the_guide_tells_a_seat_nothing_it_cannot_see(client, redis_client):
    """A guided Turandot game (the player and two bots): every step the player's seat is
    answered (``GET /guide``, in each language) passes the checks of every other answer, and is
    the step the rules' guide makes of the seat's own view and actions: nothing else goes in."""
    from impresario_rules import guide

    setup = guide.guided_setup("turandot")
    body = {"ruleset": "turandot", "players": setup["players"], "seed": setup["seed"],
            "options": {**setup["options"], "bot_seconds": 0}}  # the bots move in the request
    created = client.post("/v1/games", json=body).get_json()
    url = f"/v1/games/{created['game']['id']}"
    token = client.post(f"{url}/seats", json={"name": "P"}).get_json()["token"]
    for i, bot in enumerate(setup["bots"]):
        client.post(f"{url}/seats", json={"name": f"Bot{i}", "bot": bot},
                    headers=auth(created["host_token"]))
    obs = Observer(redis_client, created["game"]["id"], setup["players"])
    for i in range(500):
        view = client.get(url, headers=auth(token)).get_json()
        actions = client.get(f"{url}/actions", headers=auth(token)).get_json()
        for lang in ("en", "it", "de", "fr"):
            step = client.get(f"{url}/guide?lang={lang}", headers=auth(token)).get_json()
            obs.check(0, step, "guide")
            assert {k: step[k] for k in ("key", "params", "anchor")} == \
                guide.step("turandot", view, actions)
        if view["status"] == "finished":
            break
        if actions["pending"]:
            resp = client.post(f"{url}/moves", json=actions["default"],
                               headers={**auth(token), "If-Match": f'"{view["version"]}"'})
            assert resp.status_code == 200, resp.get_json()
    assert view["status"] == "finished" and obs.checked > 40
