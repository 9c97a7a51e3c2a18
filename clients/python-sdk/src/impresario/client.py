"""The hand-written layer over the generated operations: a :class:`Client` with retries and
idempotency, and ergonomic handles for a :class:`Game`, a :class:`Seat` and a :class:`Player`.

    client = Client("http://127.0.0.1:8000")
    game = client.create_game("turandot", players=3, seed=7)
    anna = game.join("Anna")
    anna.bid(slot=3, money=1, bluff=True)

    for listed in client.iter_games(status="open", ruleset="turandot"):   # the lobby
        print(listed["id"], listed["seats_taken"], "/", listed["seats_total"])

A player is a person apart from any table, acting with the player's credential: games created
and seats taken as the player are the player's, listed on any device, and resumed anywhere.

    me = client.create_player("Anna")               # keep me.token: it is the player
    game = me.create_game("turandot", players=3)   # the game is Anna's
    seat = game.join("Anna")                        # and so is the seat
    game.add_bot("Robo", "medium"); game.add_bot("Rita", "easy")

    later = Client(url).player(token)               # the same player, elsewhere
    for listed in later.iter_games(status="playing"):
        if listed["your_move"]:
            seat = later.resume(listed["id"])       # a fresh seat token; the old one ends

    seat = me.play_now("turandot", players=4, wait_seconds=30)   # quick match
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

import requests

from ._generated import models
from ._generated import operations as ops
from .errors import Conflict, ImpresarioError, NotFound
from .events import Event, stream_events
from ._transport import DEFAULT_URL as DEFAULT_URL  # the engine_url default, cli.py reads it
from ._transport import Retry, Settings, decode

#: where :meth:`Player.play_now` says how the wait goes (at INFO)
log = logging.getLogger("impresario.player")

def engine_url(url: str | None = None) -> str:
    """The engine's address: ``url`` if given, else ``$IMPRESARIO_URL``, else
    :data:`DEFAULT_URL`."""
    return url or os.environ.get("IMPRESARIO_URL") or DEFAULT_URL


class Client(Settings):
    """A connection to an Impresario engine. Settings live on the instance, never in globals.

    - ``token``: default bearer token for calls that take one (a seat's or the host's).
    - ``timeout``: seconds per HTTP attempt.
    - ``max_retries``: extra attempts after a connection error, a 429 or a 503, with jittered
      exponential backoff (``backoff`` doubled each attempt, at most ``max_backoff`` seconds).
      Every POST and DELETE carries an ``Idempotency-Key`` (the same on each retry), so a
      retried move is never applied twice and a retried leave gets its answer though the
      seat's token no longer works.
    - ``Retry-After`` (of a 429 or a 503) is honoured up to ``max_backoff``: the wait before a
      retry is at least the backoff and at most ``max_backoff``, whatever the header asks;
      ``honour_retry_after=True`` waits the whole ``Retry-After`` instead (a create rate limit
      answers up to 60 s). With ``max_retries=0`` nothing is retried: the
      :class:`~impresario.errors.RateLimited` raised carries ``retry_after``.
    - Each retry logs one WARNING line on the ``impresario.client`` logger (the reason, the
      method and path, the attempt and the wait; never a token); :attr:`throttled` counts the
      429s retried and the seconds waited for them.
    - ``session``: a :class:`requests.Session` of the caller's to send with; :meth:`close`
      (or leaving ``with Client(...) as client:``) closes the session the client made itself,
      never the caller's.
    """

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, *,
                 timeout: float = 10.0, max_retries: int = 3, backoff: float = 0.2,
                 max_backoff: float = 5.0, honour_retry_after: bool = False,
                 session: requests.Session | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(base_url, token, timeout=timeout, max_retries=max_retries,
                         backoff=backoff, max_backoff=max_backoff,
                         honour_retry_after=honour_retry_after, rng=rng)
        self._own_session = session is None
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", "impresario-python/0.1")

    def close(self) -> None:
        """Close the HTTP session if this client made it (a session passed in stays open:
        it is the caller's to close)."""
        if self._own_session:
            self.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- transport (the generated operations call this) --------------------------------------
    def request(self, method: str, path: str, *, json: object = None,
                params: Mapping[str, str | int] | None = None,
                headers: Mapping[str, str] | None = None,
                token: str | None = None, raw: bool = False) -> Any:
        """Send one request (retrying as the class says) and return the decoded JSON of its
        answer (its text with ``raw``; None when it has no body); an error status raises
        :class:`~impresario.errors.APIError`. The generated operations check what comes back
        against the spec's schema; a call of your own gets the JSON as it is."""
        hdrs = self._headers(method, headers, token)
        url = self.base_url + path
        retry = Retry(self, method, path)
        while True:
            try:
                resp = self.session.request(method, url, json=json, params=params, headers=hdrs,
                                            timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                time.sleep(retry.failed(url, exc))
                continue
            wait = retry.answered(resp.status_code, resp.headers, resp.content)
            if wait is None:
                return decode(resp.status_code, resp.content, raw)
            time.sleep(wait)

    # -- rulesets ----------------------------------------------------------------------------
    def rulesets(self) -> list[models.Ruleset]:
        return ops.list_rulesets(self)["rulesets"]

    def paces(self, ruleset: str) -> models.Paces:
        """The paces a table of ``ruleset`` may choose (option ``pace``), what each sets, and
        the pace for a game against bots."""
        return ops.get_paces(self, ruleset)  # type: ignore[arg-type]

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
                    move_seconds: int | None = None, rated: bool | None = None, *,
                    player: "Player | None" = None) -> "Game":
        """A new game: the host's handle (its host token). ``rated``: whether it rates its
        players when it ends (default: a public game is, a private one is not; only a game
        whose every seat is a player's or a bot's is). ``player``: the game is that player's
        (created with its credential; :meth:`Player.create_game
        <impresario.Player.create_game>` says so shorter)."""
        body = game_body(ruleset, players, seed, options, private, move_seconds, rated)
        created = ops.create_game(self, body, token=player.token if player else None)
        game = Game(self, created["game"]["id"], host_token=created["host_token"],
                    view=created["game"], join_token=created["join_token"])
        game.spectator_token = created["spectator_token"]
        game.player = player
        return game

    # -- players -----------------------------------------------------------------------------
    def create_player(self, name: str) -> "Player":
        """Become a player (``POST /v1/players``): an anonymous player named ``name``, whose
        credential (``.token``, shown once) is the player on any device."""
        return Player.create(self, name)

    def claim_player(self, code: str) -> "Player":
        """The player a device code of another device gives, with a credential of this
        device's own (``POST /v1/players/claim``)."""
        return Player.claim(self, code)

    def player(self, token: str, info: models.Player | None = None) -> "Player":
        """The player a credential kept from before stands for (no request until needed)."""
        return Player(self, token, info)

    def profile(self, player_id: str) -> models.Profile:
        """What anyone may see of a player (``GET /v1/players/{id}``): name, ratings per
        ruleset (displayed: μ − 3σ), rated games played, the latest rated results."""
        return ops.get_player(self, player_id)

    def leaderboard(self, ruleset: ops.GetLeaderboardRuleset, limit: int | None = None,
                    cursor: str | None = None) -> models.Leaderboard:
        """One page of a ruleset's leaderboard, best first (``GET /v1/leaderboards/{ruleset}``):
        only players with ``min_games`` rated games or more. Follow ``next`` with
        :meth:`next_leaderboard_page`, or let :meth:`iter_leaderboard` do it."""
        return ops.get_leaderboard(self, ruleset, limit=limit, cursor=cursor)

    def next_leaderboard_page(self, page: models.Leaderboard) -> models.Leaderboard | None:
        """The page after ``page``, or None after the last one."""
        if not page["next"]:
            return None
        return ops.as_leaderboard(self.request("GET", page["next"]))

    def iter_leaderboard(self, ruleset: ops.GetLeaderboardRuleset, page_size: int = 50,
                         max_rows: int | None = None) -> Iterator[models.LeaderRow]:
        """Every row of a ruleset's leaderboard, best first (at most ``max_rows``)."""
        page: models.Leaderboard | None = self.leaderboard(ruleset, page_size)
        count = 0
        while page is not None:
            for row in page["players"]:
                if max_rows is not None and count >= max_rows:
                    return
                count += 1
                yield row
            page = self.next_leaderboard_page(page)

    # -- the lobby ---------------------------------------------------------------------------
    def list_games(self, ruleset: ops.ListGamesRuleset | None = None,
                   status: ops.ListGamesStatus | None = None,
                   has_bots: bool | None = None, limit: int | None = None,
                   cursor: str | None = None) -> models.GameList:
        """One page of public games, newest first: ``{"games": [...], "next": url | None}``.
        ``status``: ``open`` (not started), ``playing`` or ``finished``. Follow ``next`` with
        :meth:`next_page`, or let :meth:`iter_games` do it."""
        return ops.list_games(self, ruleset=ruleset, status=status,
                              has_bots=has_bots_param(has_bots), limit=limit, cursor=cursor)

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


# -- what the sync handles and the async ones (impresario.aio) both build on ----------------
def game_body(ruleset: str, players: int, seed: int | None,
              options: Mapping[str, ops.JSON] | None, private: bool, move_seconds: int | None,
              rated: bool | None) -> dict[str, ops.JSON]:
    """The body of ``POST /v1/games`` for :meth:`Client.create_game`'s arguments."""
    opts = dict(options or {})
    if move_seconds is not None:
        opts["move_seconds"] = move_seconds
    body: dict[str, ops.JSON] = {"ruleset": ruleset, "players": players, "options": opts,
                                 "private": private}
    if seed is not None:
        body["seed"] = seed
    if rated is not None:
        body["rated"] = rated
    return body


def has_bots_param(has_bots: bool | None) -> ops.ListGamesHasBots | None:
    return None if has_bots is None else ("true" if has_bots else "false")


def seat_token(joined: models.Joined, game_id: str, name: str) -> str:
    """The token of a seat just taken (only a bot's seat comes without one)."""
    if joined["token"] is None:
        raise ImpresarioError(f"joining game {game_id} as {name!r} gave no token")
    return joined["token"]


def my_turn(seat: int, view: models.Game) -> bool:
    """Whether ``seat`` must act in ``view``."""
    return any(p["seat"] == seat for p in view["pending"])


def etag(version: int | None) -> str | None:
    """The ``If-Match`` of a game's version."""
    return None if version is None else f'"{version}"'


def bid_body(slot: int | None, money: int, bluff: bool, round: int | None) -> models.BidMove:
    """A sealed bid (naming ``round`` when given; else the seat's move stamps it)."""
    move: models.BidMove = {"type": "bid", "slot": slot, "money": money, "bluff": bluff}
    if round is not None:
        move["round"] = round
    return move


#: the client a handle acts through: a :class:`Client`, or an :class:`impresario.aio.AsyncClient`
ClientT = TypeVar("ClientT")


class GameHandle(Generic[ClientT]):
    """What a game's handle holds, the sync :class:`Game`'s and the async one's."""

    def __init__(self, client: ClientT, game_id: str, host_token: str | None = None,
                 view: models.Game | None = None, join_token: str | None = None) -> None:
        self.client = client
        self.id = game_id
        self.host_token = host_token
        self.spectator_token: str | None = None
        #: a private game's join token (the ``join`` of its join link): seats need it
        self.join_token = join_token
        self.last_view = view

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.id!r})"


class SeatHandle(Generic[ClientT]):
    """What a seat's handle holds, the sync :class:`Seat`'s and the async one's."""

    def __init__(self, client: ClientT, game_id: str, seat: int, token: str,
                 view: models.Game | None = None) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.token = token
        self.last_view = view
        #: the game's host token when this seat's player hosts it (a rematch's host), else None
        self.host_token: str | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(game={self.game_id!r}, seat={self.seat})"


class Game(GameHandle["Client"]):
    """A game seen by its host or a spectator."""

    def __init__(self, client: Client, game_id: str, host_token: str | None = None,
                 view: models.Game | None = None, join_token: str | None = None) -> None:
        super().__init__(client, game_id, host_token, view, join_token)
        #: the player whose game this is (:meth:`Player.create_game
        #: <impresario.Player.create_game>`), else None
        self.player: Player | None = None

    def view(self) -> models.Game:
        self.last_view = ops.get_game(self.client, self.id, token=self.host_token)
        return self.last_view

    def join(self, name: str) -> "Seat":
        """Take the next seat (a private game's with this game's ``join_token``). In a
        player's game (``.player``) the seat is taken with the host token: it is the host's
        own seat, and the player's (listed on any device, resumed with
        :meth:`Player.resume <impresario.Player.resume>`); a seat taken after that one
        is anybody's. To sit at somebody else's game as a player: :meth:`Player.join
        <impresario.Player.join>`."""
        joined = ops.join_game(self.client, self.id, {"name": name}, join=self.join_token,
                               token=self.host_token if self.player is not None else None)
        return Seat(self.client, self.id, joined["seat"], seat_token(joined, self.id, name),
                    view=joined["game"])

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


class Seat(SeatHandle["Client"]):
    """One seat of a game, acting with its own token."""

    # -- reading
    def view(self) -> models.Game:
        self.last_view = ops.get_game(self.client, self.game_id, token=self.token)
        return self.last_view

    def actions(self) -> models.Actions:
        return ops.get_actions(self.client, self.game_id, token=self.token)

    def guide(self, lang: ops.GetGuideLang = "en") -> models.Guide:
        """This seat's step in a guided game (``GET /v1/games/{id}/guide``): what to do now and
        why, in ``lang``, with the rules section behind it (``anchor``)."""
        return ops.get_guide(self.client, self.game_id, lang=lang, token=self.token)

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
        return my_turn(self.seat, view or self.view())

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
    def move(self, move: models.Move | ops.JSONObject, if_match: int | None = None,
             view: models.Game | None = None) -> models.MoveResult:
        """Send ``move`` (a :data:`~impresario._generated.models.Move`, or the same as a plain
        dict: the service checks it); ``if_match``: the game's version it was chosen from.

        ``view``: the view the move was chosen from; what the engine needs to place the move
        is filled from it: a Turandot bid without its ``round`` gets the view's
        (:func:`with_round`), so a late retry is refused (409 ``stale_round``) instead of
        landing in the next round (:meth:`bid` names the round of the last view this seat
        read). The other rulesets' moves need nothing more. Without ``view`` the move is sent
        as it is: the seat's last view may be older than what the move was chosen from."""
        result = ops.make_move(self.client, self.game_id,
                               with_round(move, view),
                               if_match=etag(if_match),
                               token=self.token)
        self.last_view = result["game"]
        return result

    def bid(self, slot: int | None, money: int = 0, bluff: bool = False,
            round: int | None = None) -> models.MoveResult:
        """A sealed bid: a slot with money, or ``slot=None`` with one money for a helper.

        The bid names the round of the last view this seat read (or ``round``), so a retry that
        arrives after the round is over is refused (409 ``stale_round``) instead of becoming a
        bid for the next round."""
        return self.move(bid_body(slot, money, bluff, round), view=self.last_view)

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


#: seconds :meth:`Player.play_now` waits beyond the queue's own wait before it gives up
PLAY_NOW_GRACE = 30.0
#: seconds between the progress lines :meth:`Player.play_now` logs while it waits
PLAY_NOW_REPORT_EVERY = 10.0


class Player:
    """A player, acting with its credential ``token`` (a player credential, ``p_…``, or a
    trusted platform's JWT). The credential is the player: keep it as a password is kept, and
    never put it in a URL or a log line (``repr`` leaves it out).

    ``info`` is the player as last read (``id``, ``name``, ``kind``, ``created``); ``id`` and
    ``name`` read it from the engine (``GET /v1/me``) the first time they are needed."""

    def __init__(self, client: Client, token: str, info: models.Player | None = None) -> None:
        self.client = client
        self.token = token
        self.info = info

    def __repr__(self) -> str:
        if self.info is None:
            return "Player(unread)"
        return f"Player(id={self.info['id']!r}, name={self.info['name']!r})"

    # -- becoming one ---------------------------------------------------------------------
    @classmethod
    def create(cls, client: Client, name: str) -> Player:
        """A new anonymous player named ``name`` (``POST /v1/players``): its credential,
        ``.token``, is shown once."""
        made = ops.create_player(client, {"name": name})
        return cls(client, made["token"], made["player"])

    @classmethod
    def claim(cls, client: Client, code: str) -> Player:
        """The player a device code gives (:meth:`device_code` on the other device), with a
        credential of this device's own; the code is used up (401 ``invalid_device_code``
        when unknown, used or expired)."""
        made = ops.claim_device_code(client, {"code": code})
        return cls(client, made["token"], made["player"])

    # -- who ------------------------------------------------------------------------------
    def me(self) -> models.Player:
        """The player as the engine has it now (``GET /v1/me``); 401 ``invalid_player_token``
        when the credential no longer is a player's (removed, or another engine's)."""
        self.info = ops.get_me(self.client, token=self.token)["player"]
        return self.info

    @property
    def id(self) -> str:
        return (self.info or self.me())["id"]

    @property
    def name(self) -> str:
        return (self.info or self.me())["name"]

    def rename(self, name: str) -> models.Player:
        """The player's display name, as profiles and leaderboards show it (``PATCH
        /v1/me``); the tables the player sat at keep the names they sat under."""
        self.info = ops.rename_me(self.client, {"name": name}, token=self.token)["player"]
        return self.info

    def device_code(self) -> models.DeviceCode:
        """A code (10 characters) that gives this player to another device once, within ten
        minutes: :meth:`claim` there (``impresario claim CODE``). This device keeps its
        credential."""
        return ops.create_device_code(self.client, token=self.token)

    def delete(self) -> None:
        """Remove the player (``DELETE /v1/me``): name, credentials on every device, list of
        games and ratings. Games in play go on; their seats can no longer be resumed."""
        ops.delete_me(self.client, token=self.token)

    # -- games ----------------------------------------------------------------------------
    def create_game(self, ruleset: str = "turandot", players: int = 4, seed: int | None = None,
                    options: Mapping[str, ops.JSON] | None = None, private: bool = False,
                    move_seconds: int | None = None, rated: bool | None = None) -> Game:
        """A game of the player's (``POST /v1/games`` with the player's bearer): the host's
        handle, as :meth:`Client.create_game <impresario.Client.create_game>` gives it. The
        seat its ``join`` takes (with the host token) is the player's too. ``rated``: whether
        the game rates its players when it ends (default: a public game is rated, a private
        one is not; a game is rated only if every seat is a player's or a bot's)."""
        return self.client.create_game(ruleset, players, seed, options, private, move_seconds,
                                       rated, player=self)

    def join(self, game_id: str, name: str, join_token: str | None = None) -> Seat:
        """Take the next seat of a game as this player (``POST /v1/games/{id}/seats`` with the
        player's bearer): the seat is the player's, listed on any device, and :meth:`resume`
        gives its token elsewhere. ``join_token``: a private game's join link token. A player
        sits at a game once (409 ``player_seated``: :meth:`resume` it instead)."""
        joined = ops.join_game(self.client, game_id, {"name": name}, join=join_token,
                               token=self.token)
        if joined["token"] is None:
            raise ImpresarioError(f"joining game {game_id} as a player gave no seat token")
        return Seat(self.client, game_id, joined["seat"], joined["token"], view=joined["game"])

    def list_games(self, status: ops.ListMyGamesStatus | None = None, limit: int | None = None,
                   cursor: str | None = None) -> models.MyGames:
        """One page of the player's games (created, or sat at), newest first: ``{"games":
        [...], "next": url | None}``; each says whether it waits for the player's move
        (``your_move``) and until when (``deadline``). Follow ``next`` with :meth:`next_page`,
        or let :meth:`iter_games` do it."""
        return ops.list_my_games(self.client, status=status, limit=limit, cursor=cursor,
                                 token=self.token)

    def next_page(self, page: models.MyGames) -> models.MyGames | None:
        """The page after ``page`` (same filter), or None after the last one."""
        if not page["next"]:
            return None
        return ops.as_my_games(self.client.request("GET", page["next"], token=self.token))

    def iter_games(self, status: ops.ListMyGamesStatus | None = None, page_size: int = 50,
                   max_games: int | None = None) -> Iterator[models.MyGame]:
        """Every game of the player's (``status``: only those), newest first, page after page
        (at most ``max_games``)."""
        page: models.MyGames | None = self.list_games(status, page_size)
        count = 0
        while page is not None:
            for listed in page["games"]:
                if max_games is not None and count >= max_games:
                    return
                count += 1
                yield listed
            page = self.next_page(page)

    def resume(self, game_id: str) -> Seat:
        """The player's seat at ``game_id`` on this device (``POST
        /v1/me/games/{id}/resume``): a :class:`~impresario.Seat` with a fresh token; every
        token of the seat given before, on any device, stops working. When the player created
        the game the seat's ``host_token`` is a fresh host token too (the old one ends).

        Refused: 404 ``not_seated`` (no seat of the player's there), 409 ``seat_left`` (the
        player left it: a bot plays it) or ``game_finished`` (its score and replay need no
        token). A game the player hosts without sitting at it has no seat to resume:
        :meth:`resume_host`."""
        answer = self.resume_game(game_id)
        if answer["seat"] is None or answer["token"] is None:
            raise ImpresarioError(f"the player hosts game {game_id} without a seat there: "
                                  "Player.resume_host gives the host's handle")
        seat = Seat(self.client, game_id, answer["seat"], answer["token"], view=answer["game"])
        seat.host_token = answer["host_token"]
        return seat

    def resume_host(self, game_id: str) -> Game:
        """The host's handle of a game the player created, with a fresh host token (the old
        one ends; so does the token of the player's seat there, if any: :meth:`resume` gives
        both)."""
        answer = self.resume_game(game_id)
        if answer["host_token"] is None:
            raise ImpresarioError(f"the player did not create game {game_id}: it has no host "
                                  "token for the player")
        game = Game(self.client, game_id, host_token=answer["host_token"], view=answer["game"])
        game.player = self
        return game

    def resume_game(self, game_id: str) -> models.Resumed:
        """``POST /v1/me/games/{id}/resume`` as it answers: ``seat``, ``token``,
        ``host_token`` and the seat's view."""
        return ops.resume_game(self.client, game_id, token=self.token)

    # -- quick match ----------------------------------------------------------------------
    def match(self, ruleset: str, players: int, wait_seconds: int | None = None
              ) -> models.Match:
        """Join the quick-match queue of ``ruleset`` for tables of ``players`` (``POST
        /v1/match``; a player in another queue moves to this one): tables of players with near
        ratings; once the longest waiter has waited ``wait_seconds`` (the engine's default,
        60, if None) bots of a near level fill the empty seats."""
        body: dict[str, ops.JSON] = {"ruleset": ruleset, "players": players}
        if wait_seconds is not None:
            body["wait_seconds"] = wait_seconds
        return ops.join_match(self.client, body, token=self.token)

    def match_status(self) -> models.Match | None:
        """The player's quick match (``GET /v1/match``): ``waiting`` or ``seated`` (with
        ``game`` and ``seat``); None when the player is in no queue."""
        try:
            return ops.get_match(self.client, token=self.token)
        except NotFound as err:
            if err.code == "not_waiting":
                return None
            raise

    def leave_match(self) -> bool:
        """Stop waiting (``DELETE /v1/match``); False when the player was in no queue
        (seated already, or never queued)."""
        try:
            ops.leave_match(self.client, token=self.token)
        except Conflict as err:
            if err.code == "not_waiting":
                return False
            raise
        return True

    def play_now(self, ruleset: str, players: int, wait_seconds: int | None = None, *,
                 timeout: float | None = None, poll: float = 1.0) -> Seat:
        """Quick match, to the seat: join the queue (:meth:`match`), ask until the player is
        seated (people of near ratings, or bots once ``wait_seconds`` are over), then
        :meth:`resume` the seat: the :class:`~impresario.Seat` to play (a quick-match game is
        public and rated, with 60 seconds a move where the ruleset has one time per move).

        Bounded: after ``timeout`` seconds (default: the queue's wait plus
        :data:`PLAY_NOW_GRACE`) the player leaves the queue and :class:`TimeoutError` is
        raised; so it is on any exception (Ctrl-C too). Progress goes to the
        ``impresario.player`` logger at INFO (the queue joined, every
        :data:`PLAY_NOW_REPORT_EVERY` seconds of waiting, the seat)."""
        first = self.match(ruleset, players, wait_seconds)
        limit = timeout if timeout is not None else first["wait_seconds"] + PLAY_NOW_GRACE
        log.info("waiting for a %s table of %d (bots fill the empty seats after %d s)",
                 ruleset, players, first["wait_seconds"])
        match: models.Match | None = first
        started = reported = time.monotonic()
        try:
            while match is not None and match["status"] != "seated":
                now = time.monotonic()
                if now - started >= limit:
                    break
                if now - reported >= PLAY_NOW_REPORT_EVERY:
                    reported = now
                    window = match["window"]
                    log.info("still waiting for a %s table of %d: %.0f s%s", ruleset, players,
                             now - started, "" if window is None else
                             f", players within {window:.0f} rating points")
                time.sleep(min(poll, max(0.0, limit - (now - started))))
                match = self.match_status()
            if match is not None and match["status"] != "seated" and not self.leave_match():
                match = self.match_status()  # seated between the last look and the leave
        except BaseException:  # Ctrl-C, the engine gone: out of the queue, if it answers
            try:
                self.leave_match()
            except ImpresarioError:
                pass
            raise
        if match is not None and match["status"] != "seated":
            raise TimeoutError(f"not seated at a {ruleset} table of {players} within "
                               f"{limit:.0f} s: left the queue")
        if match is None or match["game"] is None or match["seat"] is None:
            raise ImpresarioError("the player left the quick-match queue elsewhere (DELETE "
                                  "/v1/match) before being seated")
        log.info("seated at %s game %s, seat %d", ruleset, match["game"], match["seat"])
        return self.resume(match["game"])

    # -- ratings --------------------------------------------------------------------------
    def profile(self) -> models.Profile:
        """What anyone may see of the player (``GET /v1/players/{id}``): ratings per ruleset,
        rated games played, the latest rated results."""
        return self.client.profile(self.id)


def with_round(move: models.Move | ops.JSONObject, view: models.Game | None
               ) -> models.Move | ops.JSONObject:
    """``move`` as the engine needs it from a seat that chose it on ``view``: a Turandot bid
    without a ``round`` gets the view's round, so it never lands in a later round; any other
    move as it is."""
    if view is None or view["ruleset"] != "turandot" or not view["round"] \
            or not isinstance(move, Mapping) or move.get("type") != "bid" or "round" in move:
        return move
    fields: Mapping[str, Any] = move
    return {**fields, "round": view["round"]}

