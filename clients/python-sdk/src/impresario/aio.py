"""The SDK on asyncio, over httpx (``pip install "impresario[async]"``): an
:class:`AsyncClient` with :class:`AsyncGame` and :class:`AsyncSeat` handles for bots playing
at many tables at once, and :func:`play_seat` / :func:`play_game` as coroutines.

    async with AsyncClient("http://127.0.0.1:8000") as client:
        game_id, score, seats = await play_game(client, [make_bot("easy", seed=1),
                                                         make_bot("medium", seed=2)], seed=7)

The settings, retries (``Retry-After``, logging, :attr:`~AsyncClient.throttled`), errors
(:mod:`impresario.errors`) and models (:mod:`impresario.models`) are the sync
:class:`~impresario.Client`'s; the operations are generated from the spec
(``_generated/aoperations.py``), as the sync ones are.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx

from ._generated import aoperations as aops
from ._generated import models
from ._generated.operations import (JSON, JSONObject, ListGamesRuleset, ListGamesStatus,
                                   as_event)
from ._transport import DEFAULT_URL, Retry, Settings, decode
from .bots import _QUIET, AnyBot, hook
from .client import (GameHandle, SeatHandle, bid_body, etag, game_body, has_bots_param, my_turn,
                     seat_token, with_round)
from .errors import APIConnectionError, Conflict, PreconditionFailed, error_for
from .events import FINAL, Event, parse_sse

__all__ = ["AsyncClient", "AsyncGame", "AsyncSeat", "stream_events", "take_turn", "play_seat",
           "play_game"]


class AsyncClient(Settings):
    """A connection to an Impresario engine for asyncio: the settings of
    :class:`impresario.Client` (``token``, ``timeout``, ``max_retries``, ``backoff``,
    ``max_backoff``, ``honour_retry_after``, ``rng``), the same retries, idempotency keys,
    errors and log lines. ``http``: an :class:`httpx.AsyncClient` of the caller's to send with;
    :meth:`aclose` (or leaving ``async with AsyncClient(...) as client:``) closes the one the
    client made itself, never the caller's."""

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, *,
                 timeout: float = 10.0, max_retries: int = 3, backoff: float = 0.2,
                 max_backoff: float = 5.0, honour_retry_after: bool = False,
                 http: httpx.AsyncClient | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__(base_url, token, timeout=timeout, max_retries=max_retries,
                         backoff=backoff, max_backoff=max_backoff,
                         honour_retry_after=honour_retry_after, rng=rng)
        self._own_http = http is None
        self.http = http or httpx.AsyncClient(headers={"User-Agent": "impresario-python/0.1"})

    async def aclose(self) -> None:
        """Close the HTTP client if this client made it (one passed in is the caller's)."""
        if self._own_http:
            await self.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def request(self, method: str, path: str, *, json: object = None,
                      params: Mapping[str, str | int] | None = None,
                      headers: Mapping[str, str] | None = None,
                      token: str | None = None, raw: bool = False) -> Any:
        """:meth:`impresario.Client.request`, awaited."""
        hdrs = self._headers(method, headers, token)
        url = self.base_url + path
        retry = Retry(self, method, path)
        while True:
            try:
                resp = await self.http.request(method, url, json=json, params=params,
                                               headers=hdrs, timeout=self.timeout)
            except httpx.TransportError as exc:
                await asyncio.sleep(retry.failed(url, exc))
                continue
            wait = retry.answered(resp.status_code, resp.headers, resp.content)
            if wait is None:
                return decode(resp.status_code, resp.content, raw)
            await asyncio.sleep(wait)

    async def rulesets(self) -> list[models.Ruleset]:
        return (await aops.list_rulesets(self))["rulesets"]

    async def create_game(self, ruleset: str = "turandot", players: int = 4,
                          seed: int | None = None, options: Mapping[str, JSON] | None = None,
                          private: bool = False, move_seconds: int | None = None,
                          rated: bool | None = None) -> AsyncGame:
        """A new game: the host's handle, as :meth:`impresario.Client.create_game` gives."""
        body = game_body(ruleset, players, seed, options, private, move_seconds, rated)
        created = await aops.create_game(self, body)
        game = AsyncGame(self, created["game"]["id"], host_token=created["host_token"],
                         view=created["game"], join_token=created["join_token"])
        game.spectator_token = created["spectator_token"]
        return game

    def game(self, game_id: str, host_token: str | None = None,
             join_token: str | None = None) -> AsyncGame:
        return AsyncGame(self, game_id, host_token=host_token, join_token=join_token)

    def seat(self, game_id: str, seat: int, token: str) -> AsyncSeat:
        return AsyncSeat(self, game_id, seat, token)

    async def list_games(self, ruleset: ListGamesRuleset | None = None,
                         status: ListGamesStatus | None = None, has_bots: bool | None = None,
                         limit: int | None = None, cursor: str | None = None
                         ) -> models.GameList:
        """One page of public games, newest first (:meth:`impresario.Client.list_games`)."""
        return await aops.list_games(self, ruleset=ruleset, status=status,
                                     has_bots=has_bots_param(has_bots), limit=limit,
                                     cursor=cursor)


class AsyncGame(GameHandle[AsyncClient]):
    """A game seen by its host or a spectator (:class:`impresario.Game`, awaited)."""

    async def view(self) -> models.Game:
        self.last_view = await aops.get_game(self.client, self.id, token=self.host_token)
        return self.last_view

    async def join(self, name: str) -> AsyncSeat:
        """Take the next seat (a private game's with this game's ``join_token``)."""
        joined = await aops.join_game(self.client, self.id, {"name": name},
                                      join=self.join_token)
        return AsyncSeat(self.client, self.id, joined["seat"], seat_token(joined, self.id, name),
                         view=joined["game"])

    async def add_bot(self, name: str, bot: str = "medium") -> int:
        """As host: a seat the engine's bot of this level plays."""
        joined = await aops.join_game(self.client, self.id, {"name": name, "bot": bot},
                                      token=self.host_token)
        return joined["seat"]

    async def score(self) -> models.Score:
        return await aops.get_score(self.client, self.id, token=self.host_token)

    async def events(self, after: int = 0) -> list[models.Event]:
        return (await aops.get_events(self.client, self.id, after=after,
                                      token=self.host_token))["events"]

    def stream(self, after: int = 0, spectator: str | None = None) -> AsyncIterator[Event]:
        """Follow the game's events live (server-sent events, reconnecting) until it ends."""
        return stream_events(self.client, self.id, token=self.host_token, after=after,
                             spectator=spectator)

    async def resolve(self) -> models.MoveResult:
        """Play every default that is due (games with ``move_seconds``)."""
        return await aops.resolve_game(self.client, self.id, token=self.host_token)


class AsyncSeat(SeatHandle[AsyncClient]):
    """One seat of a game, acting with its own token (:class:`impresario.Seat`, awaited)."""

    async def view(self) -> models.Game:
        self.last_view = await aops.get_game(self.client, self.game_id, token=self.token)
        return self.last_view

    async def actions(self) -> models.Actions:
        return await aops.get_actions(self.client, self.game_id, token=self.token)

    async def score(self) -> models.Score:
        return await aops.get_score(self.client, self.game_id, token=self.token)

    async def events(self, after: int = 0) -> list[models.Event]:
        return (await aops.get_events(self.client, self.game_id, after=after,
                                      token=self.token))["events"]

    def stream(self, after: int = 0) -> AsyncIterator[Event]:
        """Follow the events this seat may see until the game ends or this seat is left."""
        return stream_events(self.client, self.game_id, token=self.token, after=after,
                             seat=self.seat)

    async def is_my_turn(self, view: models.Game | None = None) -> bool:
        return my_turn(self.seat, view or await self.view())

    async def move(self, move: models.Move | JSONObject, if_match: int | None = None,
                   view: models.Game | None = None) -> models.MoveResult:
        """Send ``move``; ``if_match``: the game's version it was chosen from; a Turandot bid
        without its ``round`` gets that of ``view``, the view it was chosen from, as
        :meth:`impresario.Seat.move` stamps it."""
        result = await aops.make_move(self.client, self.game_id,
                                      with_round(move, view),
                                      if_match=etag(if_match), token=self.token)
        self.last_view = result["game"]
        return result

    async def bid(self, slot: int | None, money: int = 0, bluff: bool = False,
                  round: int | None = None) -> models.MoveResult:
        """A sealed bid naming the round of the last view read (or ``round``), as
        :meth:`impresario.Seat.bid`."""
        return await self.move(bid_body(slot, money, bluff, round), view=self.last_view)

    async def leave(self) -> models.Left:
        """Give the seat back (:meth:`impresario.Seat.leave`)."""
        return await aops.leave_seat(self.client, self.game_id, self.seat, token=self.token)


def _last(event: models.Event, seat: int | None) -> bool:
    """Whether the stream ends after ``event``: the game's end, or the seat's own leave."""
    fields: Mapping[str, Any] = event
    return fields["type"] == FINAL or (seat is not None and fields["type"] == "seat_left"
                                       and fields.get("seat") == seat)


async def stream_events(client: AsyncClient, game_id: str, token: str | None = None,
                        after: int = 0, spectator: str | None = None, max_reconnects: int = 100,
                        read_timeout: float = 60.0, seat: int | None = None
                        ) -> AsyncIterator[Event]:
    """:func:`impresario.events.stream_events` on asyncio: every event after ``after`` until the
    game is finished (or ``seat``'s own ``seat_left``), reconnecting with ``Last-Event-ID``."""
    url = f"{client.base_url}/v1/games/{game_id}/events"
    bearer = token or client.token
    params = {"spectator": spectator} if spectator else None
    last, delay, failures = after, 1.0, 0
    timeout = httpx.Timeout(client.timeout, read=read_timeout)
    while True:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        got = 0
        try:
            async with client.http.stream("GET", url, headers=headers, params=params,
                                          timeout=timeout) as resp:
                if resp.status_code == 204:  # the game is over and nothing is left to send
                    return
                if resp.status_code >= 400:
                    content = await resp.aread()
                    try:
                        body: Any = json.loads(content)
                    except ValueError:
                        body = content.decode("utf-8", "replace")
                    error = error_for(resp.status_code, body, resp.headers)
                    if resp.status_code not in (429, 503) or failures >= max_reconnects:
                        raise error
                    failures += 1
                    await asyncio.sleep(error.retry_after or delay)
                    continue
                failures = 0
                block: list[str] = []
                async for line in resp.aiter_lines():
                    block.append(line)
                    if line:
                        continue
                    for eid, etype, data, retry in parse_sse(iter(block)):
                        delay = delay if retry is None else retry / 1000
                        if eid is None:
                            continue
                        event = as_event(json.loads(data))
                        last, got = int(eid), got + 1
                        yield Event(last, etype or event["type"], event)
                        if _last(event, seat):
                            return
                    block = []
            if not got:  # closed with nothing new: over, if the game is
                view = await aops.get_game(client, game_id, spectator=spectator, token=bearer)
                if view["status"] == "finished" and last >= view["last_seq"]:
                    return
        except httpx.TransportError as exc:
            failures += 1
            if failures > max_reconnects:
                raise APIConnectionError(f"lost the event stream of {game_id}: {exc}") from exc
        await asyncio.sleep(delay)


# ------------------------------------------------------------------------------ play loops
async def take_turn(seat: AsyncSeat, bot: AnyBot, view: models.Game | None = None) -> bool:
    """:func:`impresario.bots.take_turn`, awaited: if the seat must act, the bot chooses and the
    move goes with ``If-Match`` the version chosen from; on 412 the bot chooses again from a
    fresh view, on 409 it stops (the caller re-reads). Returns whether it moved."""
    view = view or await seat.view()
    while view["status"] == "playing" and my_turn(seat.seat, view):
        actions = await seat.actions()
        if not actions["moves"]:
            return False
        move = bot.choose(view.copy(), actions)  # each decision its own copy of the view
        try:
            await seat.move(move, if_match=view["version"], view=view)
        except PreconditionFailed:
            sent, view = view["version"], await seat.view()
            if view["version"] == sent:  # refused, yet nothing changed: do not spin
                return False
            continue
        except Conflict:
            return False
        return True
    return False


async def _tell(seat: AsyncSeat, bot: AnyBot, told: int) -> int:
    """Give the bot's ``on_event`` hook (if it has one) the seat's events after ``told``;
    returns the last one's number."""
    seen = hook(bot, "on_event")
    if seen is not None:
        for missed in await seat.events(after=told):
            told = missed["seq"]
            seen(Event(missed["seq"], missed["type"], missed))
    return told


async def _end(seat: AsyncSeat, bot: AnyBot, told: int, final: models.Game | None = None,
               score: models.Score | None = None) -> None:
    """The bot's last events and its ``on_end`` hook with the final view (read if not given)
    and the score."""
    await _tell(seat, bot, told)
    end = hook(bot, "on_end")
    if end is not None:
        end(final or await seat.view(), score or await seat.score())


async def play_seat(seat: AsyncSeat, bot: AnyBot) -> models.Game:
    """Play ``seat`` with ``bot`` until the game is over, following the game's event stream
    (:func:`impresario.bots.play_seat`, awaited, with the bot's hooks: ``on_start``,
    ``on_event`` for every event up to the end, ``on_end``); returns the final view."""
    view = await seat.view()
    start, seen = hook(bot, "on_start"), hook(bot, "on_event")
    if start is not None:
        start(view)
    after = view["last_seq"]
    told = await _tell(seat, bot, 0)
    await take_turn(seat, bot, view)
    async for event in seat.stream(after=after):
        if seen is not None and event.seq > told:
            told = event.seq
            seen(event)
        if event.type in _QUIET:
            continue
        view = await seat.view()
        if view["status"] == "finished":
            break
        while await take_turn(seat, bot, view):
            view = await seat.view()
    final = await seat.view()
    await _end(seat, bot, told, final)
    return final


async def play_game(client: AsyncClient, bots: Sequence[AnyBot], seed: int | None = None,
                    options: dict[str, JSON] | None = None, ruleset: str = "turandot"
                    ) -> tuple[str, models.Score, list[AsyncSeat]]:
    """Create a game for ``len(bots)`` seats, seat the bots and play it to the end; returns the
    game id, the score and the seats. Each bot chooses from its seat's view read just before,
    as :func:`impresario.tournament.play_game` lets it (the same decisions on the same seed),
    with the bots' hooks (``on_start`` once every seat is taken, ``on_event`` with the seat's
    events before each decision, ``on_end``); tables run at once with :func:`asyncio.gather`."""
    game = await client.create_game(ruleset, players=len(bots), seed=seed, options=options)
    seats = [await game.join(f"{bot.name}-{i}") for i, bot in enumerate(bots)]
    for seat, bot in zip(seats, bots):
        start = hook(bot, "on_start")
        if start is not None:
            start(await seat.view())
    told = [0] * len(seats)
    view = await seats[0].view()
    while view["status"] != "finished":
        moved = False
        for pending in view["pending"]:
            seat, bot = seats[pending["seat"]], bots[pending["seat"]]
            told[seat.seat] = await _tell(seat, bot, told[seat.seat])
            moved |= await take_turn(seat, bot, await seat.view())
        view = await seats[0].view()
        if not moved and view["status"] != "finished" and not view["pending"]:
            raise RuntimeError(f"game {game.id} is stuck: nobody has to act")
    score = await seats[0].score()
    for seat, bot in zip(seats, bots):
        await _end(seat, bot, told[seat.seat], score=score)
    return game.id, score, seats
