"""What the list of games (``GET /v1/games``) holds: public games by status, ruleset and bot
seats, newest first, a page at a time. This module says what a game's entry and summary are and
how a page's cursor reads; the use cases (``usecases/lobby.py``, ``usecases/reaper.py``) keep the
lists in Redis and page through them.

Where it lives (``store/lobby.py``): one sorted set per (status, ruleset, has bots) of public
games, ordered by creation, in a Redis Cluster slot of its own; each game's ``lobby`` field
(a summary of what the list shows: seats and names, options, times) written by the game's own
compare-and-set, in the game's slot. A Lua script cannot touch both slots on a Cluster, so the
lists are not written in the same step as the game. They stay right this way:

1. **Announce first.** A write that moves a game to another list (creation, a start, a finish,
   a bot seat coming or going) first adds the game's entry to its new list and records the
   version it is writing (``lobby_note.lua``), then writes the game. So the list of every saved
   version of a game holds the game: at worst a game is in a list it no longer belongs to as
   well (the writer lost its compare-and-set, or died before the old entry was dropped).
2. **Check on read.** A page reads each candidate's summary from the game itself (same version
   as the document: one write) and shows it only if the game's status, ruleset, bot seats and
   privacy are the list's. What shows is always the game as saved.
3. **Repair without racing a writer.** An entry in the wrong list is moved (``lobby_fix.lua``)
   only if no version newer than the one read has been announced; otherwise a writer is moving
   it and the repair is skipped. Proof that a game is never missing from the list of its
   current version C: let W <= C be the first version of the run of versions in that list.
   W's writer added the entry before writing W. A later removal from that list needs a read
   version D with announced <= D and a list for D other than C's. Announced >= W then, so
   W <= D; D <= C because versions only grow; and every version from W to C is in C's list,
   so D's list is C's: no removal. (A removal that happened before W's announcement is undone
   by it.)
4. **Expire with the games.** Each game has a due time (its expiry, or when it would count as
   abandoned) in ``lobby:{lobby}:due``. The reaper, and every creation for a couple of entries,
   look at the games that are due: a game that is gone leaves every list; a game in play
   without a move for ``ABANDON_AFTER_SECONDS`` is finished by the reaper (its seats play the
   deadline defaults); any other gets its right due time. A game gone before its due time is a
   creation still on its way and is left alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from typing import Any

from impresario_rules import RULESETS

from ..store.lobby import list_key
from .clock import FINISHED, OPEN, PACE, PLAYING
from .errors import MALFORMED, Refused

STATUSES = (OPEN, PLAYING, FINISHED)
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
#: a cursor is good for this long (a page boundary older than that is stale: start again)
CURSOR_SECONDS = 3600
CURSOR_FORMAT = "1"
_MEMBER = re.compile(r"^\d{16}:[A-Za-z0-9_-]{1,32}$")


def lists(statuses, rulesets=None, bots=(False, True), private: bool = True) -> list[str]:
    """The list keys of these statuses, rulesets (None: every one) and bots, and with
    ``private`` the private games' list of each status."""
    keys = [list_key(s, r, b, False) for s in statuses
            for r in (rulesets if rulesets is not None else sorted(RULESETS)) for b in bots]
    return keys + ([list_key(s, "", False, True) for s in statuses] if private else [])


#: every list a game may be in; the lists of games open or in play (the games-live gauge)
EVERY_LIST = lists(STATUSES)
LIVE_LISTS = lists((OPEN, PLAYING))


# ---------------------------------------------------------------------------- what is listed
def member(game_id: str, created: float) -> str:
    return f"{int(round(created * 1_000_000)):016d}:{game_id}"


def has_bots(seats: list[dict[str, Any]]) -> bool:
    return any(s.get("bot") for s in seats)


def list_of(doc: dict[str, Any]) -> str:
    """The list a game document belongs to."""
    return list_key(doc["status"], doc["ruleset"], has_bots(doc["seats"]),
                    bool(doc["settings"].get("private")))


#: the service's settings the list shows of a game, when set
SHOWN_SETTINGS = ("move_seconds", "bot_seconds", "bank_seconds", "bank_refill_seconds")


def summary(doc: dict[str, Any], version: int) -> dict[str, Any]:
    """What the list shows of a game, kept in the game's hash by each write (compact keys)."""
    ruleset = RULESETS[doc["ruleset"]]
    options = ruleset.lobby_options(doc["state"], doc["options"])
    for name in SHOWN_SETTINGS:  # the service's settings a joiner cares about
        seconds = doc["settings"].get(name)
        if seconds is not None:
            options[name] = seconds
    pace = doc["settings"].get(PACE)
    if pace is not None:  # the pace the table chose (a joiner wants to know it too)
        options[PACE] = pace
    return {
        "v": version, "id": doc["id"], "r": doc["ruleset"], "s": doc["status"],
        "p": bool(doc["settings"].get("private")), "n": doc["players"],
        "c": doc["created"], "u": doc["updated"], "o": options,
        # per seat: name, bot, until when it is held for a rematch's player (0: not held)
        "seats": [[s.get("name"), s.get("bot"), 0 if s.get("token") else s.get("until", 0)]
                  for s in doc["seats"]],
    }


def summary_list(sm: dict[str, Any]) -> str:
    """The list a game belongs to, by its summary."""
    return list_key(sm["s"], sm["r"], any(bot for _n, bot, _u in sm["seats"]), sm["p"])


def item(sm: dict[str, Any], now: float) -> dict[str, Any]:
    """A listed game, as ``GET /v1/games`` shows it."""
    seats = []
    for i, (name, bot, until) in enumerate(sm["seats"]):
        held = bool(until) and until > now
        if name is not None and (bot or held or not until):
            seats.append({"seat": i, "name": name, "bot": bot, "held": held})
    return {
        "id": sm["id"], "ruleset": sm["r"], "status": sm["s"], "seats_taken": len(seats),
        "seats_total": sm["n"], "seats": seats, "options": sm["o"],
        "has_bots": any(s["bot"] for s in seats), "created": sm["c"], "updated": sm["u"],
    }


# ---------------------------------------------------------------------------- cursors
def _tag(ruleset: str | None, status: str | None, bots: bool | None) -> str:
    raw = f"{ruleset or ''}|{status or ''}|{'' if bots is None else int(bots)}"
    return hashlib.sha256(raw.encode()).hexdigest()[:8]


def encode_cursor(entry: str, ruleset: str | None, status: str | None, bots: bool | None,
                  now: float) -> str:
    raw = f"{CURSOR_FORMAT}|{_tag(ruleset, status, bots)}|{int(now)}|{entry}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, ruleset: str | None, status: str | None, bots: bool | None,
                  now: float) -> str:
    """The member a cursor goes on from; 400 ``invalid_cursor`` for anything this listing did
    not hand out (or handed out for other filters), 400 ``cursor_expired`` once it is stale."""
    bad = Refused("invalid_cursor", MALFORMED, "the cursor is not one this listing handed out: "
                  "follow the `next` link of a page, or start again without a cursor")
    if len(cursor) > 200 or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor):
        raise bad
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    parts = raw.split("|")
    if len(parts) != 4 or parts[0] != CURSOR_FORMAT or not parts[2].isdigit() \
            or not _MEMBER.match(parts[3]):
        raise bad
    if parts[1] != _tag(ruleset, status, bots):
        raise Refused("invalid_cursor", MALFORMED, "the cursor belongs to a listing with other "
                      "filters: keep the filters of the page it came from")
    issued = int(parts[2])
    if not now - CURSOR_SECONDS <= issued <= now + 60:
        raise Refused("cursor_expired", MALFORMED, f"the cursor is stale (more than "
                      f"{CURSOR_SECONDS // 60} minutes old): start again from the first page")
    return parts[3]
