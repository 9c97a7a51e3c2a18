"""Seats coming and going around the rules: a player leaving a seat, and a rematch of a finished
game with the same players.

A game's ``seats`` is a list, one entry per seat number, each ``{"name", "token", "bot"}``
(``token`` the hash of the seat's bearer token). Besides taken seats it may hold:

- a **free** seat (``name`` None): left by a player before the start; the next player who joins
  takes the lowest free seat, so nobody's seat number changes when someone leaves;
- a **held** seat (``"from"``: the hash of a player's token in the finished game, ``"until"``):
  a rematch's seat kept for that player until ``until``; after that, if still unclaimed, it is a
  free seat for anyone (and its player can still claim it until someone else takes it).

Leaving after the start is not resigning (no ruleset has it): the seat stays in the game, played
by the ruleset's ``leave_bot`` (a bot, or the seat's deadline defaults), and its token stops
working.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING, Any

from .api.errors import ApiError
from impresario_rules import RULESETS, Refusal

if TYPE_CHECKING:
    from .service import GameService, Loaded

FREE: dict[str, Any] = {"name": None, "token": None, "bot": None}


# ---------------------------------------------------------------------------- seat states
def claimed(entry: dict[str, Any]) -> bool:
    """A player (with a token) or a bot sits there."""
    return bool(entry.get("token") or entry.get("bot"))


def held(entry: dict[str, Any], now: float) -> bool:
    return not claimed(entry) and entry.get("until", 0) > now


def occupied(entry: dict[str, Any], now: float) -> bool:
    return claimed(entry) or held(entry, now)


def seats_taken(seats: list[dict[str, Any]], now: float) -> int:
    return sum(occupied(s, now) for s in seats)


def free_seat(seats: list[dict[str, Any]], players: int, now: float) -> int | None:
    """The seat the next player to join takes: the lowest free one (None: no seat is free)."""
    for i, entry in enumerate(seats):
        if not occupied(entry, now):
            return i
    return len(seats) if len(seats) < players else None


def put(seats: list[dict[str, Any]], seat: int, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A copy of ``seats`` with ``entry`` at ``seat``; free seats at the end are dropped."""
    out = list(seats)
    if seat == len(out):
        out.append(entry)
    else:
        out[seat] = entry
    while out and out[-1] == FREE:
        out.pop()
    return out


def all_claimed(seats: list[dict[str, Any]], players: int) -> bool:
    return len(seats) == players and all(claimed(s) for s in seats)


# ---------------------------------------------------------------------------- leaving
def leave(svc: "GameService", game_id: str, seat: int, token: str | None,
          idempotency_key: str | None = None, fingerprint: str = "") -> dict[str, Any]:
    """Give a seat back (``DELETE /v1/games/{id}/seats/{seat}``): ``{"seat", "game"}``.

    Before the start, with the seat's token or the host's: the seat is free again (its number
    is kept for the next player who joins) and its token stops working. In play, with the
    seat's own token: the ruleset's ``leave_bot`` plays the seat from now on, and the token
    stops working."""
    from .service import FINISHED, OPEN, SPECTATOR, Caller, Loaded, _Done, token_hash

    if token is None:
        raise ApiError(401, "missing_token", "leaving a seat needs the seat's or the host's "
                       "token", headers={"WWW-Authenticate": "Bearer"})
    scope = token_hash(token)[:16]

    def step(loaded: Loaded):
        # a retry of a leave that worked: the token no longer does, the record answers
        replay = svc._replayed(loaded, fingerprint, idempotency_key)
        if replay is not None:
            return _Done(replay)
        doc = loaded.doc
        caller = svc.authenticate(doc, token)
        seats = doc["seats"]
        if not 0 <= seat < len(seats) or not claimed(seats[seat]):
            raise ApiError(404, "seat_not_found", f"nobody sits at seat {seat}")
        if caller.seat != seat and not caller.host:
            raise ApiError(403, "not_your_seat", "a seat's token can give back only that seat")
        if doc["status"] == FINISHED:
            raise ApiError(409, "game_finished", "the game is over")
        entry = seats[seat]
        ruleset = loaded.ruleset
        if doc["status"] == OPEN:
            new = dict(doc)
            new["seats"] = put(seats, seat, dict(FREE))
            events: list[dict[str, Any]] = [{"type": "seat_left", "seat": seat,
                                             "name": entry["name"], "bot": None}]
        else:
            if caller.seat != seat:
                raise ApiError(403, "seat_only", "once the game has started only the player "
                               "can leave the seat")
            bot = ruleset.leave_bot
            new = dict(doc)
            new["seats"] = put(seats, seat, {"name": entry["name"], "token": None, "bot": bot,
                                             "left": True})
            events = [{"type": "seat_left", "seat": seat, "name": entry["name"], "bot": bot}]
            new = svc._advance(new, ruleset, events)  # the seat's new player may be due now
        new["seq"] = doc["seq"] + len(events)
        viewer = Caller(host=True) if caller.host else SPECTATOR
        result = {"seat": seat, "game": svc.view(
            Loaded(loaded.version + 1, new, None, loaded.rematch), viewer)}
        idem = svc._idem_record(loaded, scope, idempotency_key, fingerprint, 200, result)
        return new, events, result, idem

    return svc._transact(game_id, step, svc._idem_key(scope, idempotency_key))


# ---------------------------------------------------------------------------- rematch
def rematch_token(old_token: str, rematch_id: str) -> str:
    """The rematch seat's token, derived from the finished game's seat token: asking again,
    from any device, gives the same token; nobody without the old token can work it out."""
    mac = hmac.new(old_token.encode("utf-8", "surrogatepass"),
                   b"impresario-rematch\0" + rematch_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def rematch(svc: "GameService", game_id: str, token: str | None
            ) -> tuple[dict[str, Any], bool]:
    """``POST /v1/games/{id}/rematch`` by a seat of a finished game: ``({"rematch", "seat",
    "token", "game"}, created)``. The first request creates the rematch; every request (the
    first included) claims the caller's held seat there, with a token derived from the old."""
    from .service import FINISHED, token_hash

    if token is None:
        raise ApiError(401, "missing_token", "a rematch is asked for with the seat's token",
                       headers={"WWW-Authenticate": "Bearer"})
    old = svc.load(game_id)
    caller = svc.authenticate(old.doc, token)
    if caller.seat is None:
        raise ApiError(403, "not_a_seat", "only a player of the game can ask for a rematch")
    if old.doc["status"] != FINISHED:
        raise ApiError(409, "game_not_finished", "a rematch can be asked for once the game is "
                       "over")
    linked, created, expired = old.rematch, False, None
    for _ in range(3):
        if linked is None:
            linked, created = _link(svc, old, expired)
        try:
            return _claim(svc, linked, token_hash(token), rematch_token(token, linked)), created
        except ApiError as err:
            if err.code != "game_not_found":
                raise
            linked, expired = None, linked  # it expired unplayed: a new one in its place
    raise svc._contention()


def _link(svc: "GameService", old: "Loaded", replaces: str | None) -> tuple[str, bool]:
    """Create a rematch and link it from ``old`` (in place of ``replaces``, an expired one),
    unless another request links one first: (the rematch linked, whether it is ours)."""
    candidate, created_at = _create_rematch(svc, old)
    linked = svc.store.link_rematch(old.doc["id"], candidate, replaces)
    if linked != candidate:  # another player's request linked its rematch first: drop ours
        svc.store.delete_game(candidate)
        svc.lobby.forget(candidate, created_at)
    if linked is None:
        raise ApiError(404, "game_not_found", f"there is no game {old.doc['id']!r}")
    return linked, linked == candidate


def _create_rematch(svc: "GameService", old: "Loaded") -> tuple[str, float]:
    """A new open game like ``old`` (ruleset, options, privacy, a new seed), its seats in the
    ruleset's rematch order: bot seats taken by their bots, the others held for their players."""
    from .service import new_token, token_hash

    doc = old.doc
    ruleset = RULESETS[doc["ruleset"]]
    players = doc["players"]
    seed = secrets.randbits(63)
    try:
        state, setup = ruleset.new_game(players, doc["options"], seed)
    except Refusal as err:  # the options were accepted for the finished game already
        raise ApiError.from_rules(err) from err
    now = svc.clock()
    until = now + svc.config.rematch_hold_seconds
    seats: list[dict[str, Any]] = []
    seating: list[dict[str, Any]] = []
    for new_seat, old_seat in enumerate(ruleset.rematch_order(players)):
        entry = doc["seats"][old_seat]
        if entry.get("left"):  # its player left the finished game: free for anyone
            seats.append(dict(FREE))
        elif entry.get("bot"):
            seats.append({"name": entry["name"], "token": None, "bot": entry["bot"]})
            seating.append({"type": "seat_taken", "seat": new_seat, "name": entry["name"],
                            "bot": entry["bot"]})
        else:
            seats.append({"name": entry["name"], "token": None, "bot": None,
                          "from": entry["token"], "until": until})
            seating.append({"type": "seat_held", "seat": new_seat, "name": entry["name"],
                            "until": until})
    seats = put(seats, len(seats) - 1, seats[-1])  # no free seat at the end
    events = [*setup, {"type": "rematch_of", "game": doc["id"]}, *seating]
    _, new = svc._insert({
        "ruleset": doc["ruleset"], "players": players, "seed": seed, "seeded": False,
        "options": doc["options"], "settings": dict(doc["settings"]),
        # nobody hosts a rematch (its seats come from the finished game) and nobody
        # watches a private one; the finished game's join link opens its free seats
        "host": token_hash(new_token()), "spectator": None, "joiner": doc.get("joiner"),
        "seats": seats, "state": state, "rematch_of": doc["id"]}, events)
    return new["id"], new["created"]


def _claim(svc: "GameService", rematch_id: str, origin: str, token: str) -> dict[str, Any]:
    """The seat held in the rematch for the player whose old token hashes to ``origin``."""
    from .service import Caller, Loaded, _Done, token_hash

    digest = token_hash(token)

    def step(loaded: Loaded):
        doc = loaded.doc
        seat = next((i for i, s in enumerate(doc["seats"]) if s.get("from") == origin), None)
        if seat is None:
            raise ApiError(409, "rematch_seat_taken", "your seat in the rematch is no longer "
                           "held for you: you left it, or its hold ran out and another "
                           "player took it")
        entry = doc["seats"][seat]

        def answer(version: int, new: dict[str, Any]) -> dict[str, Any]:
            return {"rematch": rematch_id, "seat": seat, "token": token,
                    "game": svc.view(Loaded(version, new, None, loaded.rematch),
                                     Caller(seat=seat))}

        if entry.get("token") == digest:  # claimed already: the same answer again
            return _Done(answer(loaded.version, doc))
        new = dict(doc)
        new["seats"] = put(doc["seats"], seat, {
            "name": entry["name"], "token": digest, "bot": None, "from": origin})
        events: list[dict[str, Any]] = [{"type": "seat_taken", "seat": seat,
                                         "name": entry["name"], "bot": None}]
        if all_claimed(new["seats"], doc["players"]):
            new = svc._start(new, loaded.ruleset, events)
        new["seq"] = doc["seq"] + len(events)
        return new, events, answer(loaded.version + 1, new), None

    return svc._transact(rematch_id, step)
