"""Seats: taking the next free seat (a player, or a bot the host adds), and giving a seat back
(before the start the seat is free again; after it the seat stays in the game, played by the
ruleset's ``leave_bot``: no ruleset lets a player resign)."""

from __future__ import annotations

from typing import Any

from ..table import names
from ..table.access import (HOST, SPECTATOR, Caller, authenticate, client_tag, may_join,
                            new_token, token_hash, token_id)
from ..table.clock import FINISHED, OPEN
from ..table.errors import (CONFLICT, FORBIDDEN, INVALID, NOT_FOUND, UNAUTHENTICATED, Refused,
                            missing_token)
from ..table.record import advance, start
from ..table.seating import FREE, all_claimed, claimed, free_seat, held, occupied, put
from ..table.views import game_view
from . import idempotency, push
from .unit import Answer, Done, Engine, Loaded, Save, transact


def join(engine: Engine, game_id: str, name: str, idempotency_key: str | None = None,
         fingerprint: str = "", token: str | None = None, bot: str | None = None,
         client: str = "", join_token: str | None = None, player: str | None = None
         ) -> Answer:
    """Take the next free seat; answers ``{"seat", "token", "bot", "game"}``. A bot seat is added by the
    host and gets no token: the engine plays it. ``client`` (the caller's address) scopes the
    Idempotency-Key of a request without a token. A private game seats only the host and
    whoever brings its join link's token (``join_token``). A seat taken by a ``player`` (its
    id) belongs to that player (:func:`resume`); the host's own seat belongs to the player
    who created the game, if one did."""
    name = names.normalise(name)
    looks = names.likeness(name)
    seat_token = None if bot else new_token()
    # an Idempotency-Key is the caller's: a seat's or the host's token, a player, or else the
    # address it comes from (a replay hands the seat's token back to that caller only)
    scope = token_id(token) if token is not None else f"player-{player}" if player else "anon"
    who = client_tag(idempotency_key, client) \
        if token is None and player is None and idempotency_key else None

    def step(loaded: Loaded):
        replay = idempotency.replayed(engine, loaded, fingerprint, idempotency_key, who)
        if replay is not None:
            return Done(replay)
        doc = loaded.doc
        caller = authenticate(doc, token) if token is not None else None
        ruleset = loaded.ruleset
        if bot is not None:
            if caller is None or not caller.host:
                raise Refused("host_only", FORBIDDEN if caller else UNAUTHENTICATED,
                              "only the host's token can add a bot seat")
            if bot not in ruleset.bot_names_accepted:
                raise Refused("unknown_bot", INVALID, f"unknown bot {bot!r}; {ruleset.title} "
                              f"bots: {', '.join(ruleset.bot_names_accepted)}")
        may_join(doc, caller, join_token)
        now = engine.clock()
        seat = free_seat(doc["seats"], doc["players"], now)
        if doc["status"] != OPEN or seat is None:
            raise Refused("game_full", CONFLICT, "every seat of this game is taken")
        for taken in doc["seats"]:
            if occupied(taken, now) and names.likeness(taken["name"]) == looks:
                raise Refused("name_taken", CONFLICT, f"a player called {taken['name']!r} is "
                              "already seated, and names that look alike (case, look-alike "
                              "letters) would confuse the table")
        new_doc = dict(doc)
        entry = {"name": name, "token": token_hash(seat_token) if seat_token else None,
                 "bot": bot}
        owner = player
        if caller is not None and caller.host and not bot and not any(
                s.get("host") for s in doc["seats"]):
            entry["host"] = True  # the host's own seat: its player hosts the rematch too
            owner = doc.get("host_player") or None
        if owner is not None and not bot:
            if any(s.get("player") == owner and claimed(s) for s in doc["seats"]):
                raise Refused("player_seated", CONFLICT, "this player has a seat at this game "
                              "already (POST /v1/me/games/{game_id}/resume gives its "
                              "credential on this device)")
            entry["player"] = owner
        new_doc["seats"] = put(doc["seats"], seat, entry)
        if entry.get("player"):  # the player's games first: the seat is then never missing
            engine.store.players.note_game(entry["player"], doc["id"], engine.clock())
            if not doc.get("notify") and push.wanted(engine, entry["player"]):
                new_doc["notify"] = True  # a subscribed player's game: the sender tells them
        events: list[dict[str, Any]] = [{"type": "seat_taken", "seat": seat, "name": name,
                                         "bot": bot}]
        if all_claimed(new_doc["seats"], doc["players"]):
            new_doc = start(new_doc, ruleset, events, now)
        new_doc["seq"] = doc["seq"] + len(events)
        viewer = Caller(seat=seat) if not bot else HOST
        result = {"seat": seat, "token": seat_token, "bot": bot,
                  "game": game_view(new_doc, loaded.version + 1, None, viewer.viewer, now)}
        record = idempotency.record(engine, loaded, scope, idempotency_key, fingerprint, 201,
                                    result, who)
        return Save(new_doc, events, Answer(result), record)

    return transact(engine, game_id, step, idempotency.record_key(scope, idempotency_key))


def leave(engine: Engine, game_id: str, seat: int, token: str | None,
          idempotency_key: str | None = None, fingerprint: str = "") -> Answer:
    """Give a seat back (``DELETE /v1/games/{id}/seats/{seat}``): ``{"seat", "game"}``.

    Before the start, with the seat's token or the host's: the seat is free again (its number
    is kept for the next player who joins) and its token stops working; the host may also free
    a seat held for a rematch's player who has not claimed it (and so seat a bot there). In
    play, with the
    seat's own token: the ruleset's ``leave_bot`` plays the seat from now on, and the token
    stops working."""
    if token is None:
        raise missing_token("leaving a seat needs the seat's or the host's token")
    scope = token_id(token)

    def step(loaded: Loaded):
        # a retry of a leave that worked: the token no longer does, the record answers
        replay = idempotency.replayed(engine, loaded, fingerprint, idempotency_key)
        if replay is not None:
            return Done(replay)
        doc = loaded.doc
        caller = authenticate(doc, token)
        seats = doc["seats"]
        # a rematch's seat held for its player: the host may give it to someone else
        release = (caller.host and doc["status"] == OPEN and 0 <= seat < len(seats)
                   and held(seats[seat], engine.clock()))
        if not 0 <= seat < len(seats) or not (claimed(seats[seat]) or release):
            raise Refused("seat_not_found", NOT_FOUND, f"nobody sits at seat {seat}")
        if caller.seat != seat and not caller.host:
            raise Refused("not_your_seat", FORBIDDEN, "a seat's token can give back only that "
                          "seat")
        if doc["status"] == FINISHED:
            raise Refused("game_finished", CONFLICT, "the game is over")
        entry = seats[seat]
        ruleset = loaded.ruleset
        now = engine.clock()
        if doc["status"] == OPEN:
            new = dict(doc)
            new["seats"] = put(seats, seat, dict(FREE))
            events: list[dict[str, Any]] = [{"type": "seat_left", "seat": seat,
                                             "name": entry["name"], "bot": None}]
        else:
            if caller.seat != seat:
                raise Refused("seat_only", FORBIDDEN, "once the game has started only the "
                              "player can leave the seat")
            bot = ruleset.leave_bot
            new = dict(doc)
            # ``left_at``: the moves played when the player left (a replay shows the seat as
            # the player's before that, as the bot's after)
            gone = {"name": entry["name"], "token": None, "bot": bot, "left": True,
                    "left_at": len(doc["moves"])}
            if entry.get("player"):
                gone["player"] = entry["player"]  # rated for the place the seat finishes in
            new["seats"] = put(seats, seat, gone)
            events = [{"type": "seat_left", "seat": seat, "name": entry["name"], "bot": bot}]
            new = advance(new, ruleset, events, now)  # the seat's new player may be due now
        new["seq"] = doc["seq"] + len(events)
        viewer = HOST if caller.host else SPECTATOR
        result = {"seat": seat, "game": game_view(new, loaded.version + 1, loaded.rematch,
                                                  viewer.viewer, now)}
        record = idempotency.record(engine, loaded, scope, idempotency_key, fingerprint, 200,
                                    result)
        return Save(new, events, Answer(result), record)

    return transact(engine, game_id, step, idempotency.record_key(scope, idempotency_key))


def resume(engine: Engine, game_id: str, player: str) -> dict[str, Any]:
    """The player's seat at this game on the caller's device: a fresh seat token (and a fresh
    host token when the player created the game); the tokens given before stop working.
    ``{"seat", "token", "host_token", "game"}``; 404 ``not_seated`` when the player has no seat
    there (nor hosts it), 409 ``seat_left`` when the player left it."""
    def step(loaded: Loaded):
        doc = loaded.doc
        # a seat the player sits at (a rematch's seat still held for them is claimed with
        # the finished game's token: POST /v1/games/{id}/rematch)
        seat = next((i for i, s in enumerate(doc["seats"])
                     if s.get("player") == player and claimed(s)), None)
        hosts = doc.get("host_player") == player
        if seat is None and not hosts:
            raise Refused("not_seated", NOT_FOUND, "this player has no seat at this game")
        if doc["status"] == FINISHED:
            raise Refused("game_finished", CONFLICT, "the game is over: its seats take no new "
                          "credential (its score and replay need none)")
        if seat is not None and doc["seats"][seat].get("left"):
            raise Refused("seat_left", CONFLICT, "this player left the seat: a bot plays it")
        new = dict(doc)
        seat_token = host_token = None
        if seat is not None:
            seat_token = new_token()
            new["seats"] = put(doc["seats"], seat, {**doc["seats"][seat],
                                                     "token": token_hash(seat_token)})
        if hosts:
            host_token = new_token()
            new["host"] = token_hash(host_token)
        viewer = seat if seat is not None else HOST.viewer
        result = {"seat": seat, "token": seat_token, "host_token": host_token,
                  "game": game_view(new, loaded.version + 1, loaded.rematch, viewer,
                                    engine.clock())}
        return Save(new, [], result)

    return transact(engine, game_id, step)
