"""Server-sent events for ``GET /v1/games/{id}/events`` with ``Accept: text/event-stream``.

A stream holds one gunicorn thread while it is open. Each worker process admits at most
``max_streams_per_worker`` streams (503 ``too_many_streams`` beyond, with ``Retry-After``); with
``GUNICORN_THREADS`` above that number, the remaining threads always serve ordinary requests, so
open streams can never starve play. The slots are fair by construction (:class:`Slots`): streams
without a seat (spectators, spectator links, the host) may take only their share of them
(``spectator_streams_share``), so the rest is always there for the seats' own streams, and
within that share one client address, and one game, take at most a few (429
``too_many_streams``): strangers cannot take a seated player's stream away. Streams end after ``stream_max_seconds`` (clients resume
with ``Last-Event-ID``), send a heartbeat comment every ``stream_heartbeat_seconds``, and close
once the game is over and every event was sent. A client that has gone is noticed within one
wait on Redis (``stream_poll_ms``, a second): under gunicorn the stream looks at its socket
after each wait (a closed connection reads as end-of-file), so its slot is free again at once
rather than at the next heartbeat that would fail to send. While idle, a stream also applies deadlines
that have passed, like any other request that touches the game.

A seat's stream lasts only as long as its seat: it ends right after the viewer's own
``seat_left`` (the one way a seat's token stops working), before any later event is redacted for
that seat, so the bot that now plays it never shows its sealed bids or hand to the player who
left. The client reconnects as it would after any end; its token is refused (401) by then.

A stream opened with a stream ticket (``?ticket=``, ``usecases.tickets``) is the stream of the
token that asked for the ticket, this rule included. Once the game is over, a client that asks
for the stream with every event already seen gets 204 No Content (``games.get_events``), which
stops a browser's EventSource from reconnecting for good.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Iterator

import orjson
from flask import Response, request, stream_with_context

from ..usecases.follow import follow
from .edge import client_address
from .errors import ApiError

#: the gunicorn worker serving this process (set by gunicorn_conf.post_worker_init)
WORKER = None


class Slots:
    """A worker's stream slots: the streams open, those without a seat, and those per client
    address and per game among them. :meth:`take` refuses a stream over any cap (and takes
    nothing); the slot it gives is given back exactly once, by :meth:`give`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.watching = 0
        self.by_address: dict[str, int] = {}
        self.by_game: dict[str, int] = {}

    def take(self, cfg, seat: int | None, address: str, game_id: str
             ) -> tuple[str, str] | None:
        """A slot for a stream of ``seat`` (None: a stream without a seat) from ``address``
        on ``game_id``; what :meth:`give` needs to give it back."""
        with self.lock:
            if self.open >= cfg.max_streams_per_worker:
                raise ApiError(503, "too_many_streams",
                               "this worker has no room for another event stream; retry "
                               "shortly or poll GET /events", headers={"Retry-After": "2"})
            if seat is not None:
                self.open += 1
                return None
            if self.by_address.get(address, 0) >= cfg.spectator_streams_per_address:
                raise ApiError(429, "too_many_streams",
                               f"at most {cfg.spectator_streams_per_address} event streams "
                               "without a seat from one address; close one, or poll GET "
                               "/events", headers={"Retry-After": "5"})
            if self.by_game.get(game_id, 0) >= cfg.spectator_streams_per_game:
                raise ApiError(429, "too_many_streams",
                               f"at most {cfg.spectator_streams_per_game} event streams "
                               "without a seat on one game here; poll GET /events, or retry "
                               "later", headers={"Retry-After": "5"})
            if self.watching >= int(cfg.max_streams_per_worker * cfg.spectator_streams_share):
                raise ApiError(503, "too_many_streams",
                               "this worker keeps its other event streams for the seated "
                               "players; retry shortly or poll GET /events",
                               headers={"Retry-After": "2"})
            self.open += 1
            self.watching += 1
            self.by_address[address] = self.by_address.get(address, 0) + 1
            self.by_game[game_id] = self.by_game.get(game_id, 0) + 1
            return address, game_id

    def give(self, watcher: tuple[str, str] | None) -> None:
        with self.lock:
            self.open -= 1
            if watcher is None:
                return
            address, game_id = watcher
            self.watching -= 1
            for counts, key in ((self.by_address, address), (self.by_game, game_id)):
                counts[key] -= 1
                if not counts[key]:
                    del counts[key]


SLOTS = Slots()


def _stopping() -> bool:
    return WORKER is not None and not getattr(WORKER, "alive", True)


def open_streams() -> int:
    return SLOTS.open


def wants_stream() -> bool:
    return "text/event-stream" in request.headers.get("Accept", "")


def resume_after(after: int) -> int:
    """``Last-Event-ID`` (the last sequence number the client saw) wins over ``after``."""
    last = request.headers.get("Last-Event-ID", "").strip()
    if last.isascii() and last.isdigit() and len(last) < 17:  # not "²": int() refuses it
        return int(last)
    return after


def client_gone(sock) -> bool:
    """True when the peer of ``sock`` has closed the connection (end-of-file, or an error):
    one non-blocking peek, so data the client sent meanwhile is left where it is."""
    if sock is None:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


def _frame(event: dict) -> str:
    return (f"id: {event['seq']}\nevent: {event['type']}\n"
            f"data: {orjson.dumps(event).decode()}\n\n")


def event_stream(ctx, loaded, caller, after: int) -> Response:
    """The caller's events after ``after`` (``usecases.follow``) as server-sent events, in one
    of the worker's stream slots, with a heartbeat comment every ``stream_heartbeat_seconds``."""
    cfg = ctx.config
    # the client's connection under gunicorn (absent under other servers and in tests' clients)
    sock = request.environ.get("gunicorn.socket")
    slot = SLOTS.take(cfg, caller.seat, client_address(), loaded.doc["id"])
    released = False

    def release() -> None:
        # once, whichever comes first: the generator's end, or the response's close (a response
        # closed before its body was read, like a HEAD request's, never starts the generator)
        nonlocal released
        if not released:
            released = True
            SLOTS.give(slot)

    def generate() -> Iterator[str]:
        try:
            yield f"retry: {cfg.stream_retry_ms}\n\n"
            beat = time.monotonic()
            for view in follow(ctx, loaded, caller.viewer, caller.seat, after,
                               stop=lambda: _stopping() or client_gone(sock)):
                if view is not None:
                    yield _frame(view)
                elif time.monotonic() - beat >= cfg.stream_heartbeat_seconds:
                    beat = time.monotonic()
                    yield ": heartbeat\n\n"
        finally:
            release()

    resp = Response(stream_with_context(generate()), mimetype="text/event-stream")
    resp.call_on_close(release)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
