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
from .guided import is_guided, players_pending, take_guided

MAX_MOVE_SECONDS = 7 * 86400
MAX_BOT_SECONDS = 3600
#: a turn-based game's time bank: at most 14 days (with the longest move, 21 days between two
#: moves, inside the 30 days Redis keeps a game in play without a move: IDLE_TTL_SECONDS),
#: refilled by at most 7 days a move
MAX_BANK_SECONDS = 14 * 86400
MAX_BANK_REFILL_SECONDS = 7 * 86400
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
SECONDS_SETTINGS = {"move_seconds": (1, MAX_MOVE_SECONDS), "bot_seconds": (0, MAX_BOT_SECONDS),
                    "bank_seconds": (1, MAX_BANK_SECONDS),
                    "bank_refill_seconds": (0, MAX_BANK_REFILL_SECONDS)}
#: the settings that only a ruleset with one time for every move has (``Ruleset.move_seconds``):
#: the time per move and the time bank a slow move draws on (a turn-based game)
PER_MOVE_SETTINGS = ("move_seconds", "bank_seconds", "bank_refill_seconds")

OPEN, PLAYING, FINISHED = "open", "playing", "finished"


def seconds_settings(ruleset: Ruleset) -> dict[str, tuple[int, int]]:
    """The service's own options of a ``ruleset``'s game, with their bounds."""
    return {name: bounds for name, bounds in SECONDS_SETTINGS.items()
            if name not in PER_MOVE_SETTINGS or ruleset.move_seconds}


def split_options(options: dict[str, Any] | None, ruleset: Ruleset
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the ruleset's options, the service's settings) from a game's options."""
    core = dict(options or {})
    settings: dict[str, Any] = {}
    if not ruleset.move_seconds:
        for name in PER_MOVE_SETTINGS:
            if name in core:
                raise Refused("unknown_option", INVALID,
                              f"{name} does not apply to {ruleset.title}: its windows are real "
                              f"time, each with an option of its own", options=[name])
    for name, (low, high) in seconds_settings(ruleset).items():
        seconds = core.pop(name, None)
        if seconds is None:
            continue
        if type(seconds) is not int or not low <= seconds <= high:
            raise Refused(f"invalid_{name}", INVALID,
                          f"{name} must be an integer from {low} to {high}",
                          errors={"options": {name: ["out of range"]}})
        settings[name] = seconds
    take_guided(core, settings)
    for name, needs in (("bank_seconds", "move_seconds"), ("bank_refill_seconds", "bank_seconds")):
        if name in settings and needs not in settings:
            raise Refused(f"invalid_{name}", INVALID,
                          f"{name} needs {needs}: a time bank is drawn on once a move's own "
                          f"time (move_seconds) is over",
                          errors={"options": {name: [f"needs {needs}"]}})
    return core, settings


# The pace a table chooses when a game is created (option ``pace``; docs/api.md, docs/rules.md):
# a name for values of the game's timing options, each ruleset's own (``Ruleset.paces``). The
# pace's values go under the options given explicitly (explicit wins), and the game keeps the
# pace in its settings (``settings["pace"]``), which its view and its entry in the list show.
# A game created without a pace is untouched by any of it.
PACE = "pace"


def with_pace(options: dict[str, Any] | None, ruleset: Ruleset
              ) -> tuple[dict[str, Any] | None, str | None]:
    """``options`` with the chosen pace's values under the ones given explicitly, and the pace
    (None, and the options as given, when none is chosen). An unknown pace is refused
    (``invalid_pace``, naming the paces)."""
    if not isinstance(options, dict) or PACE not in options:
        return options, None
    rest = dict(options)
    pace = rest.pop(PACE)
    if pace is None:
        return rest, None
    values = ruleset.paces.get(pace) if isinstance(pace, str) else None
    if values is None:
        names = ", ".join(ruleset.paces)
        raise Refused("invalid_pace", INVALID,
                      f"pace must be one of {names} ({ruleset.title}), not {pace!r}",
                      errors={"options": {PACE: [f"must be one of {names}"]}})
    return {**values, **rest}, pace


# A turn-based game's time bank (options bank_seconds, bank_refill_seconds; docs/api.md): each
# seat has move_seconds for a move, then draws on its bank; when its own move is made, what it
# drew is gone and bank_refill_seconds come back, never above bank_seconds. A seat whose bank
# runs out gets its default move (a default refills nothing). The document keeps each seat's
# bank as it was when the seat's turn began (``doc["banks"]``): its deadline is the turn's
# start, plus move_seconds, plus that bank.
BANKS = "banks"


def new_banks(doc: dict[str, Any]) -> dict[str, float] | None:
    """Each seat's full bank, for a game that starts (None: the game has no time bank)."""
    full = doc["settings"].get("bank_seconds")
    return None if full is None else {str(s): float(full) for s in range(doc["players"])}


def drawn_bank(doc: dict[str, Any], seat: int, seconds: float | None, start: float | None,
               now: float, own: bool) -> float:
    """``seat``'s bank once it moved at ``now`` (its turn began at ``start`` and gave it
    ``seconds`` before the bank): less what the move took beyond ``seconds``, plus the refill
    when the move was its own (not the engine's default)."""
    bank = doc[BANKS][str(seat)]
    if seconds and start is not None:
        bank = max(0.0, bank - max(0.0, now - start - seconds))
    if own:
        settings = doc["settings"]
        bank = min(float(settings["bank_seconds"]),
                   bank + settings.get("bank_refill_seconds", 0))
    return bank


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
    banks = doc.get(BANKS)
    guided = is_guided(doc)
    out = {}
    for s in pending:
        if guided and not doc["seats"][s].get("bot"):
            continue  # a guided game's player has all the time they need
        seconds = ruleset.turn_seconds(state, s, limit)
        start = since.get(str(s))
        if seconds and start is not None:
            out[s] = start + seconds + (banks[str(s)] if banks else 0)
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
    if is_guided(doc) and players_pending(doc, pending):
        return {}  # a guided game's bots wait for the player (table/guided.py)
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
