"""Following a game: its events after a sequence number as one viewer sees them, as they come
(what ``GET /events`` streams). The events stored are given first, then each new one as it is
appended; while nothing comes, the deadlines that have passed are played, like on any other
request that touches the game.

The events end once the game is over and every event was given, right after the viewer's own
``seat_left`` (a seat's events last only as long as its seat: the bot that now plays it never
shows its sealed bids or hand to the player who left), after ``stream_max_seconds``, when the
caller says stop, or when Redis is away (the follower resumes from the last event it got).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from ..store import StoreUnavailable
from ..table.clock import FINISHED
from ..table.record import is_due
from ..table.views import numbered
from .play import settle
from .unit import Engine, Loaded, load


def _ends_seat(view: dict[str, Any], seat: int | None) -> bool:
    """True for the event after which a seat's events must stop: its own seat_left."""
    return seat is not None and view["type"] == "seat_left" and view.get("seat") == seat


def follow(engine: Engine, loaded: Loaded, viewer: Any, seat: int | None, after: int,
           stop: Callable[[], bool]) -> Iterator[dict[str, Any] | None]:
    """The events of ``loaded``'s game after ``after``, as ``viewer`` (the caller, at ``seat``
    or none) sees them, numbered; ``None`` after each wait for new events (every
    ``stream_poll_ms``), so that the caller may send a heartbeat. ``stop()`` is asked before
    each wait (the client has gone, the worker is stopping)."""
    cfg = engine.config
    game_id = loaded.doc["id"]
    last, finished, ended = after, False, False
    # the seat's token as the stream opened (its hash): once the seat's player resumes it on
    # another device, this stream's token has ended, and so does the stream
    held = loaded.doc["seats"][seat].get("token") if seat is not None else None

    def resumed_elsewhere(doc: dict[str, Any]) -> bool:
        """The seat has another token now (a seat left has none: its own seat_left ends the
        stream, after it is given)."""
        now_held = doc["seats"][seat].get("token") if seat is not None else None
        return now_held is not None and now_held != held

    def given(found: list[tuple[int, dict[str, Any]]]) -> Iterator[dict[str, Any]]:
        """``found`` as the viewer sees it, up to the viewer's own seat_left (``ended``)."""
        nonlocal last, finished, ended
        for seq, event in found:
            view = numbered(seq, event, viewer)
            finished |= view["type"] == "game_finished"
            last = seq
            yield view
            if _ends_seat(view, seat):
                ended = True
                return

    try:
        started = time.monotonic()
        yield from given(engine.store.events(game_id, last))
        if ended or loaded.doc["status"] == FINISHED and last >= loaded.doc["seq"]:
            return
        while not finished:
            if time.monotonic() - started >= cfg.stream_max_seconds or stop():
                return
            found = engine.store.wait_events(game_id, last, cfg.stream_poll_ms)
            if found and seat is not None and resumed_elsewhere(load(engine, game_id).doc):
                return
            yield from given(found)
            if ended:
                return
            if not found:
                current = load(engine, game_id)
                if resumed_elsewhere(current.doc):
                    return
                if is_due(current.doc, current.ruleset, engine.clock()):
                    settle(engine, game_id)
                    continue
                if current.doc["status"] == FINISHED:
                    # the stream may have been archived before this wait began
                    yield from given(engine.store.events(game_id, last))
                    return
            yield None
    except StoreUnavailable:
        return  # Redis is away: the follower resumes from the last event it got
