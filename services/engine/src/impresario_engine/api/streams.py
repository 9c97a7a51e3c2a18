"""Server-sent events for ``GET /v1/games/{id}/events`` with ``Accept: text/event-stream``.

A stream holds one gunicorn thread while it is open. Each worker process admits at most
``max_streams_per_worker`` streams (503 ``too_many_streams`` beyond, with ``Retry-After``); with
``GUNICORN_THREADS`` above that number, the remaining threads always serve ordinary requests, so
open streams can never starve play. Streams end after ``stream_max_seconds`` (clients resume
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

from ..store import StoreUnavailable
from ..table.record import is_due
from ..table.views import numbered
from ..usecases.play import settle
from ..usecases.unit import load
from .errors import ApiError

_lock = threading.Lock()
_open = 0
#: the gunicorn worker serving this process (set by gunicorn_conf.post_worker_init)
WORKER = None


def _stopping() -> bool:
    return WORKER is not None and not getattr(WORKER, "alive", True)


def open_streams() -> int:
    return _open


def wants_stream() -> bool:
    return "text/event-stream" in request.headers.get("Accept", "")


def resume_after(after: int) -> int:
    """``Last-Event-ID`` (the last sequence number the client saw) wins over ``after``."""
    last = request.headers.get("Last-Event-ID", "").strip()
    if last.isascii() and last.isdigit() and len(last) < 17:  # not "²": int() refuses it
        return int(last)
    return after


def _acquire(limit: int) -> None:
    global _open
    with _lock:
        if _open >= limit:
            raise ApiError(503, "too_many_streams",
                           "this worker has no room for another event stream; retry shortly or "
                           "poll GET /events", headers={"Retry-After": "2"})
        _open += 1


def _release() -> None:
    global _open
    with _lock:
        _open -= 1


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


def _ends_seat(view: dict, seat: int | None) -> bool:
    """True for the event after which a seat's stream must stop: its own seat_left."""
    return seat is not None and view["type"] == "seat_left" and view.get("seat") == seat


def _frame(event: dict) -> str:
    return (f"id: {event['seq']}\nevent: {event['type']}\n"
            f"data: {orjson.dumps(event).decode()}\n\n")


def event_stream(ctx, loaded, caller, after: int) -> Response:
    cfg = ctx.config
    game_id = loaded.doc["id"]
    # the client's connection under gunicorn (absent under other servers and in tests' clients)
    sock = request.environ.get("gunicorn.socket")
    _acquire(cfg.max_streams_per_worker)
    released = False

    def release() -> None:
        # once, whichever comes first: the generator's end, or the response's close (a response
        # closed before its body was read, like a HEAD request's, never starts the generator)
        nonlocal released
        if not released:
            released = True
            _release()

    def generate() -> Iterator[str]:
        try:
            yield f"retry: {cfg.stream_retry_ms}\n\n"
            last = after
            started = beat = time.monotonic()
            finished = False
            for seq, event in ctx.store.events(game_id, last):
                view = numbered(seq, event, caller.viewer)
                finished |= view["type"] == "game_finished"
                last = seq
                yield _frame(view)
                if _ends_seat(view, caller.seat):
                    return
            if loaded.doc["status"] == "finished" and last >= loaded.doc["seq"]:
                return
            while not finished:
                now = time.monotonic()
                if now - started >= cfg.stream_max_seconds or _stopping() or client_gone(sock):
                    return
                found = ctx.store.wait_events(game_id, last, cfg.stream_poll_ms)
                for seq, event in found:
                    view = numbered(seq, event, caller.viewer)
                    finished |= view["type"] == "game_finished"
                    last = seq
                    yield _frame(view)
                    if _ends_seat(view, caller.seat):
                        return
                if not found:
                    current = load(ctx, game_id)
                    if is_due(current.doc, current.ruleset, ctx.clock()):
                        settle(ctx, game_id)
                        continue
                    if current.doc["status"] == "finished":
                        # the stream may have been archived before this wait began
                        for seq, event in ctx.store.events(game_id, last):
                            last = seq
                            view = numbered(seq, event, caller.viewer)
                            yield _frame(view)
                            if _ends_seat(view, caller.seat):
                                return
                        return
                if time.monotonic() - beat >= cfg.stream_heartbeat_seconds:
                    beat = time.monotonic()
                    yield ": heartbeat\n\n"
        except StoreUnavailable:
            return  # Redis is away: end the stream; the client resumes with Last-Event-ID
        finally:
            release()

    resp = Response(stream_with_context(generate()), mimetype="text/event-stream")
    resp.call_on_close(release)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
