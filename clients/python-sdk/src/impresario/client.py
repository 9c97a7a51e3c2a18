"""The hand-written layer over the generated operations: a :class:`Client` with retries and
idempotency, and ergonomic handles for a :class:`Game` and a :class:`Seat`.

    client = Client("http://127.0.0.1:8000")
    game = client.create_game("turandot", players=3, seed=7)
    anna = game.join("Anna")
    anna.bid(slot=3, money=1, bluff=True)

    for listed in client.iter_games(status="open", ruleset="turandot"):   # the lobby
        print(listed["id"], listed["seats_taken"], "/", listed["seats_total"])
"""

from __future__ import annotations

import email.utils
import os
import random
import time
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

import requests

from ._generated import models
from ._generated import operations as ops
from .errors import APIConnectionError, Conflict, ImpresarioError, error_for
from .events import Event, stream_events

DEFAULT_URL = "http://127.0.0.1:8000"


def engine_url(url: str | None = None) -> str:
    """The engine's address: ``url`` if given, else ``$IMPRESARIO_URL``, else
    :data:`DEFAULT_URL`."""
    return url or os.environ.get("IMPRESARIO_URL") or DEFAULT_URL
RETRY_STATUSES = (429, 503)


class Client:
    """A connection to an Impresario engine. Settings live on the instance, never in globals.

    - ``token``: default bearer token for calls that take one (a seat's or the host's).
    - ``timeout``: seconds per HTTP attempt.
    - ``max_retries``: extra attempts after a connection error, a 429 or a 503, with jittered
      exponential backoff that honours ``Retry-After``. Every POST and DELETE carries an
      ``Idempotency-Key`` (the same on each retry), so a retried move is never applied twice
      and a retried leave gets its answer though the seat's token no longer works.
    """

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, *,
                 timeout: float = 10.0, max_retries: int = 3, backoff: float = 0.2,
                 max_backoff: float = 5.0, session: requests.Session | None = None,
                 rng: random.Random | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", "impresario-python/0.1")
        self._rng = rng or random.Random()

    # -- transport (the generated operations call this) --------------------------------------
    def request(self, method: str, path: str, *, json: object = None,
                params: Mapping[str, str | int] | None = None,
                headers: Mapping[str, str] | None = None,
                token: str | None = None, raw: bool = False) -> Any:
        """Send one request (retrying as the class says) and return the decoded JSON of its
        answer (its text with ``raw``; None when it has no body); an error status raises
        :class:`~impresario.errors.APIError`. The generated operations check what comes back
        against the spec's schema; a call of your own gets the JSON as it is."""
        hdrs = {"Accept": "application/json, application/problem+json"}
        hdrs.update(headers or {})
        bearer = token or self.token
        if bearer:
            hdrs["Authorization"] = f"Bearer {bearer}"
        if method in ("POST", "DELETE"):
            hdrs.setdefault("Idempotency-Key", uuid.uuid4().hex)
        url = self.base_url + path
        attempt = 0
        while True:
            try:
                resp = self.session.request(method, url, json=json, params=params, headers=hdrs,
                                            timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                if attempt >= self.max_retries:
                    raise APIConnectionError(f"cannot reach {url}: {exc}") from exc
                self._sleep(attempt, None)
                attempt += 1
                continue
            if resp.status_code in RETRY_STATUSES and attempt < self.max_retries:
                self._sleep(attempt, resp.headers.get("Retry-After"))
                attempt += 1
                continue
            if resp.status_code >= 400:
                try:
                    body = resp.json()
                except ValueError:
                    body = resp.text
                raise error_for(resp.status_code, body, dict(resp.headers))
            if raw:
                return resp.text
            if resp.status_code == 204 or not resp.content:
                return None
            return resp.json()

    def _sleep(self, attempt: int, retry_after: str | None) -> None:
        delay = min(self.max_backoff, self.backoff * (2 ** attempt))
        delay = self._rng.uniform(delay / 2, delay)  # jitter: retries of many clients spread out
        if retry_after:
            wait = _parse_retry_after(retry_after)
            if wait is not None:
                delay = max(delay, min(wait, 60.0))
        time.sleep(delay)

    # -- rulesets ----------------------------------------------------------------------------
    def rulesets(self) -> list[models.Ruleset]:
        return ops.list_rulesets(self)["rulesets"]

    def score_cast(self, singers: list[str], director: str | None, stage_elements: int = 0,
                   roles: list[str] | None = None) -> models.CalculatorResult:
        body: dict[str, ops.JSON] = {"singers": list(singers), "director": director,
                                     "stage_elements": stage_elements}
        if roles is not None:
            body["roles"] = list(roles)
        return ops.score_turandot_cast(self, body)

    # -- games -------------------------------------------------------------------------------
    def create_game(self, ruleset: str = "turandot", players: int = 4, seed: int | None = None,
                    options: Mapping[str, ops.JSON] | None = None, private: bool = False,
                    move_seconds: int | None = None) -> "Game":
        options = dict(options or {})
        if move_seconds is not None:
            options["move_seconds"] = move_seconds
        body: dict[str, ops.JSON] = {"ruleset": ruleset, "players": players,
                                     "options": options, "private": private}
        if seed is not None:
            body["seed"] = seed
        created = ops.create_game(self, body)
        game = Game(self, created["game"]["id"], host_token=created["host_token"],
                    view=created["game"], join_token=created["join_token"])
        game.spectator_token = created["spectator_token"]
        return game

    # -- the lobby ---------------------------------------------------------------------------
    def list_games(self, ruleset: ops.ListGamesRuleset | None = None,
                   status: ops.ListGamesStatus | None = None,
                   has_bots: bool | None = None, limit: int | None = None,
                   cursor: str | None = None) -> models.GameList:
        """One page of public games, newest first: ``{"games": [...], "next": url | None}``.
        ``status``: ``open`` (not started), ``playing`` or ``finished``. Follow ``next`` with
        :meth:`next_page`, or let :meth:`iter_games` do it."""
        return ops.list_games(self, ruleset=ruleset, status=status,
                              has_bots=None if has_bots is None else
                              ("true" if has_bots else "false"), limit=limit, cursor=cursor)

    def next_page(self, page: models.GameList) -> models.GameList | None:
        """The page after ``page`` (same filters), or None after the last one."""
        if not page["next"]:
            return None
        return ops.as_game_list(self.request("GET", page["next"]))

    def iter_games(self, ruleset: ops.ListGamesRuleset | None = None,
                   status: ops.ListGamesStatus | None = None,
                   has_bots: bool | None = None, page_size: int = 50,
                   max_games: int | None = None) -> Iterator[models.LobbyGame]:
        """Every public game matching the filters, newest first, page after page (at most
        ``max_games``)."""
        page: models.GameList | None = self.list_games(ruleset, status, has_bots, page_size)
        count = 0
        while page is not None:
            for listed in page["games"]:
                if max_games is not None and count >= max_games:
                    return
                count += 1
                yield listed
            page = self.next_page(page)

    def game(self, game_id: str, host_token: str | None = None,
             join_token: str | None = None) -> "Game":
        """A game by id; ``join_token``: a private game's join link token, to take seats."""
        return Game(self, game_id, host_token=host_token, join_token=join_token)

    def seat(self, game_id: str, seat: int, token: str) -> "Seat":
        return Seat(self, game_id, seat, token)


class Game:
    """A game seen by its host or a spectator."""

    def __init__(self, client: Client, game_id: str, host_token: str | None = None,
                 view: models.Game | None = None, join_token: str | None = None) -> None:
        self.client = client
        self.id = game_id
        self.host_token = host_token
        self.spectator_token: str | None = None
        #: a private game's join token (the ``join`` of its join link): seats need it
        self.join_token = join_token
        self.last_view = view

    def view(self) -> models.Game:
        self.last_view = ops.get_game(self.client, self.id, token=self.host_token)
        return self.last_view

    def join(self, name: str) -> "Seat":
        """Take the next seat (a private game's with this game's ``join_token``)."""
        joined = ops.join_game(self.client, self.id, {"name": name}, join=self.join_token)
        if joined["token"] is None:  # only a bot's seat comes without one
            raise ImpresarioError(f"joining game {self.id} as {name!r} gave no token")
        return Seat(self.client, self.id, joined["seat"], joined["token"], view=joined["game"])

    def events(self, after: int = 0) -> list[models.Event]:
        return ops.get_events(self.client, self.id, after=after, token=self.host_token)["events"]

    def stream(self, after: int = 0, spectator: str | None = None) -> Iterator[Event]:
        """Follow the game's events live (server-sent events, reconnecting) until it ends."""
        return stream_events(self.client, self.id, token=self.host_token, after=after,
                             spectator=spectator)

    def stream_ticket(self) -> models.StreamTicket:
        """A ticket that opens this game's event stream once, as the host (or, without a host
        token, as the client's own token): ``url`` is for a browser's ``EventSource``."""
        return ops.create_stream_ticket(self.client, self.id, token=self.host_token)

    def score(self) -> models.Score:
        return ops.get_score(self.client, self.id, token=self.host_token)

    def add_bot(self, name: str, bot: str = "medium") -> int:
        """As host: a seat played by the engine's bot of this level (``easy``, ``medium``,
        Turandot's ``hard``; the older names ``random``, ``greedy``, ``wordsmith`` still
        work)."""
        joined = ops.join_game(self.client, self.id, {"name": name, "bot": bot},
                               token=self.host_token)
        return joined["seat"]

    def resolve(self) -> models.MoveResult:
        """Play every default that is due (games with ``move_seconds``)."""
        return ops.resolve_game(self.client, self.id, token=self.host_token)

    def replay(self) -> models.Replay:
        """Seed, options and every move of the finished game."""
        return ops.get_replay(self.client, self.id, token=self.host_token)

    def remove_seat(self, seat: int) -> models.Left:
        """As host, before the start: free a seat (a player's or a bot's); its token stops
        working and the next player to join takes it."""
        return ops.leave_seat(self.client, self.id, seat, token=self.host_token)

    def rematch(self, seat: "Seat") -> "Seat":
        """``seat`` asks for a rematch of this finished game: see :meth:`Seat.rematch`."""
        return seat.rematch()


class Seat:
    """One seat of a game, acting with its own token."""

    def __init__(self, client: Client, game_id: str, seat: int, token: str,
                 view: models.Game | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.token = token
        self.last_view = view
        #: the game's host token when this seat's player hosts it (a rematch's host), else None
        self.host_token: str | None = None

    def __repr__(self) -> str:
        return f"Seat(game={self.game_id!r}, seat={self.seat})"

    # -- reading
    def view(self) -> models.Game:
        self.last_view = ops.get_game(self.client, self.game_id, token=self.token)
        return self.last_view

    def actions(self) -> models.Actions:
        return ops.get_actions(self.client, self.game_id, token=self.token)

    def events(self, after: int = 0) -> list[models.Event]:
        return ops.get_events(self.client, self.game_id, after=after, token=self.token)["events"]

    def stream(self, after: int = 0) -> Iterator[Event]:
        """Follow the events this seat may see, live, until the game ends or this seat is left
        (its ``seat_left`` is the last event)."""
        return stream_events(self.client, self.game_id, token=self.token, after=after,
                             seat=self.seat)

    def stream_ticket(self) -> models.StreamTicket:
        """A ticket that opens this seat's own event stream once (its secrets included),
        within ``expires_at``: ``url`` is for a browser's ``EventSource``, which cannot send
        the seat's token."""
        return ops.create_stream_ticket(self.client, self.game_id, token=self.token)

    def score(self) -> models.Score:
        return ops.get_score(self.client, self.game_id, token=self.token)

    def is_my_turn(self, view: models.Game | None = None) -> bool:
        view = view or self.view()
        return any(p["seat"] == self.seat for p in view["pending"])

    def wait_for_turn(self, poll: float = 0.2, timeout: float | None = None) -> models.Game:
        """Block until this seat must act or the game is over; returns the view then."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            view = self.view()
            if view["status"] == "finished" or (view["status"] == "playing"
                                                 and self.is_my_turn(view)):
                return view
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"seat {self.seat} was not asked to act within {timeout}s")
            time.sleep(poll)

    # -- moves
    def move(self, move: models.Move | ops.JSONObject, if_match: int | None = None
             ) -> models.MoveResult:
        """Send ``move`` (a :data:`~impresario._generated.models.Move`, or the same as a plain
        dict: the service checks it); ``if_match``: the game's version it was chosen from."""
        result = ops.make_move(self.client, self.game_id, move,
                               if_match=None if if_match is None else f'"{if_match}"',
                               token=self.token)
        self.last_view = result["game"]
        return result

    def bid(self, slot: int | None, money: int = 0, bluff: bool = False,
            round: int | None = None) -> models.MoveResult:
        """A sealed bid: a slot with money, or ``slot=None`` with one money for a helper.

        The bid names the round of the last view this seat read (or ``round``), so a retry that
        arrives after the round is over is refused (409 ``stale_round``) instead of becoming a
        bid for the next round."""
        move: models.BidMove = {"type": "bid", "slot": slot, "money": money, "bluff": bluff}
        last = self.last_view
        if round is None and last is not None and last["ruleset"] == "turandot" and last["round"]:
            round = last["round"]
        if round is not None:
            move["round"] = round
        return self.move(move)

    def assign_office(self, assignments: dict[int, int]) -> models.MoveResult:
        """As maestro: ``{seat: slot}`` for every seat waiting for an office hire."""
        return self.move({"type": "assign_office",
                          "assignments": [{"seat": s, "slot": p} for s, p in assignments.items()]})

    def nominate(self, seat: int) -> models.MoveResult:
        return self.move({"type": "nominate", "seat": seat})

    def fire_director(self, director: str) -> models.MoveResult:
        return self.move({"type": "fire_director", "director": director})

    def cast(self, roles: list[str] | None = None) -> models.MoveResult:
        """Cast your singers (Turandot, Calaf, Liù, Ping, Pong, Pang); ``None``: the optimum."""
        return self.move({"type": "cast", "roles": roles})

    # -- the table
    def leave(self) -> models.Left:
        """Give the seat back. Before the start it is free again; once the game has started
        the engine plays it from now on (a bot, or the seat's defaults: see the ruleset). Either
        way this seat's token stops working."""
        return ops.leave_seat(self.client, self.game_id, self.seat, token=self.token)

    def rematch(self) -> "Seat":
        """Play this finished game again with the same players: the seat of this player in
        the rematch (created by the first player who asks; asking again gives the same seat
        and token). It starts once every player has asked; ``.game_id`` is the rematch's id.
        The player who hosts the rematch (the finished game's host who sat at it, else the
        first player back) finds its host token in ``.host_token``."""
        answer = ops.request_rematch(self.client, self.game_id, token=self.token)
        seat = Seat(self.client, answer["rematch"], answer["seat"], answer["token"],
                    view=answer["game"])
        seat.host_token = answer.get("host_token")
        return seat

    def safe_move(self, move: models.Move | ops.JSONObject) -> models.MoveResult | None:
        """A move that tolerates having raced someone: on 409, re-read and return None."""
        try:
            return self.move(move)
        except Conflict:
            self.view()
            return None

    def iter_turns(self, poll: float = 0.2) -> Iterator[models.Game]:
        """Yield the view each time this seat must act, until the game is over."""
        while True:
            view = self.wait_for_turn(poll)
            if view["status"] == "finished":
                return
            yield view


def _parse_retry_after(value: str) -> float | None:
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
