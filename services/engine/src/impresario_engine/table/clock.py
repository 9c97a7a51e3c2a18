"""Time at the table: the service's own settings of a game (``move_seconds``, ``bot_seconds``),
when each seat's time to move runs out, when each bot seat moves, and what is due now.

The rules have no clock: they name each seat's window (``Ruleset.turn_key``) and its length
(``Ruleset.turn_seconds``); the table counts from when each seat's turn began (``doc["since"]``).
Every function takes ``now`` or reads no time at all, so a test moves time instead of waiting.
"""

from __future__ import annotations

import random
from typing import Any

from impresario_rules import RULESETS, Ruleset

from .errors import INVALID, Refused

MAX_MOVE_SECONDS = 7 * 86400
MAX_BOT_SECONDS = 3600
#: a bot's think time is drawn in [BOT_PACE[0], BOT_PACE[1]] times its cap: the game's
#: bot_seconds, at most BOT_WINDOW_SHARE of the window the bot must act in
BOT_PACE = (0.2, 1.0)
BOT_WINDOW_SHARE = 0.8
#: a bot that searches (``Ruleset.searching_bots``) thinks at least this long: the request that
#: hands it its turn answers without waiting for the search, which the reaper makes once the
#: time is over (never a request: ``record.advance``); never more than BOT_WINDOW_SHARE of the
#: window it must act in (a Word Jam window may be one second long)
SEARCH_SECONDS = 1.0

#: the options the service itself handles, name -> (lowest, highest) whole seconds; every
#: other option goes to the ruleset
SECONDS_SETTINGS = {"move_seconds": (1, MAX_MOVE_SECONDS), "bot_seconds": (0, MAX_BOT_SECONDS)}

OPEN, PLAYING, FINISHED = "open", "playing", "finished"


def seconds_settings(ruleset: Ruleset) -> dict[str, tuple[int, int]]:
    """The service's own options of a ``ruleset``'s game, with their bounds."""
    return {name: bounds for name, bounds in SECONDS_SETTINGS.items()
            if name != "move_seconds" or ruleset.move_seconds}


def split_options(options: dict[str, Any] | None, ruleset: Ruleset
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the ruleset's options, the service's settings) from a game's options."""
    core = dict(options or {})
    settings: dict[str, Any] = {}
    if not ruleset.move_seconds and "move_seconds" in core:
        raise Refused("unknown_option", INVALID,
                      f"move_seconds does not apply to {ruleset.title}: each of its windows "
                      f"has an option of its own", options=["move_seconds"])
    for name, (low, high) in seconds_settings(ruleset).items():
        seconds = core.pop(name, None)
        if seconds is None:
            continue
        if type(seconds) is not int or not low <= seconds <= high:
            raise Refused(f"invalid_{name}", INVALID,
                          f"{name} must be an integer from {low} to {high}",
                          errors={"options": {name: ["out of range"]}})
        settings[name] = seconds
    return core, settings


def bot_seconds(doc: dict[str, Any]) -> int:
    """The longest a bot of this game thinks before a move (the option, else the ruleset's
    default)."""
    return doc["settings"].get("bot_seconds", RULESETS[doc["ruleset"]].bot_seconds)


def deadlines(doc: dict[str, Any], ruleset: Ruleset, pending: dict[int, list[str]]
              ) -> dict[int, float]:
    """When each pending seat's time runs out (seats without a deadline are left out)."""
    if doc["status"] != PLAYING:
        return {}
    limit = doc["settings"].get("move_seconds")
    if limit is None and type(ruleset).turn_seconds is Ruleset.turn_seconds:
        return {}  # one time for every move (the base's turn_seconds), and the game has none
    state = doc["state"]
    since = doc.get("since", {})
    out = {}
    for s in pending:
        seconds = ruleset.turn_seconds(state, s, limit)
        start = since.get(str(s))
        if seconds and start is not None:
            out[s] = start + seconds
    return out


def bot_times(doc: dict[str, Any], ruleset: Ruleset, pending: dict[int, list[str]]
              ) -> dict[int, tuple[float, float]]:
    """When each pending bot seat moves: ``(time, tie-break)``. A bot thinks for a time drawn
    from the game's secret (never from anything public), at most ``bot_seconds`` and at most a
    share of the window it must act in, counted from when its turn began; the tie-break (equal
    times, as with ``bot_seconds`` 0) is secret too, so no seat wins a race by its number. The
    draw depends only on the secret, the window and the seat: it stays the same however often
    the game is read."""
    if doc["status"] != PLAYING:
        return {}
    seats = doc["seats"]
    bots = [s for s in pending if seats[s].get("bot")]
    if not bots:
        return {}
    secret = doc["secret"]
    pace = bot_seconds(doc)
    state = doc["state"]
    limit = doc["settings"].get("move_seconds")
    since = doc.get("since", {})
    out = {}
    for s in bots:
        start = since.get(str(s), 0.0)
        window = ruleset.turn_key(state, s) or ""  # else the start alone names the turn
        draw = random.Random(f"{secret}:think:{start!r}:{window}:{s}")
        seconds = ruleset.turn_seconds(state, s, limit)
        cap = pace if not seconds else min(pace, BOT_WINDOW_SHARE * seconds)
        delay = cap * draw.uniform(*BOT_PACE) if cap > 0 else 0.0
        if seats[s]["bot"] in ruleset.searching_bots:
            # never longer than the bot's share of its window: it must still move inside it
            delay = max(delay, SEARCH_SECONDS if not seconds
                        else min(SEARCH_SECONDS, BOT_WINDOW_SHARE * seconds))
        out[s] = (start + delay, draw.random())
    return out


def due_moves(doc: dict[str, Any], ruleset: Ruleset, pending: dict[int, list[str]],
              now: float, with_deadlines: bool = True) -> list[tuple[float, float, int]]:
    """What the engine must play now, earliest first: ``(time, tie-break, seat)`` for each bot
    whose think time is over and each human seat whose deadline has passed."""
    if doc["status"] != PLAYING:
        return []
    due = [(t, tie, s) for s, (t, tie) in bot_times(doc, ruleset, pending).items() if t <= now]
    if with_deadlines:
        seats = doc["seats"]
        due += [(t, float(s), s) for s, t in deadlines(doc, ruleset, pending).items()
                if t <= now and not seats[s].get("bot")]
    return sorted(due)


def next_deadline(doc: dict[str, Any], ruleset: Ruleset, pending: dict[int, list[str]]
                  ) -> float | None:
    """The next time the engine has something to play: a deadline or a bot's move."""
    if doc["status"] != PLAYING:
        return None
    times = [*deadlines(doc, ruleset, pending).values(),
             *(t for t, _ in bot_times(doc, ruleset, pending).values())]
    return min(times, default=None)
