"""Playing: a seat's move (and every move that fell due before it: bots whose think time is
over, the defaults of seats whose deadline passed), the defaults that are due now
(``POST /resolve``, a stream, the reaper), and the refusal of a move that arrives too late."""

from __future__ import annotations

from typing import Any

import orjson

from impresario_rules import IllegalMove, MalformedMove, Refusal, Ruleset

from ..table.access import authenticate, token_id
from ..table.clock import FINISHED, OPEN, PLAYING
from ..table.errors import CONFLICT, FORBIDDEN, INVALID, STALE_VERSION, Refused, missing_token
from ..table.record import (advance, apply_move, is_due, lapse_of, note_lapse, overdue,
                            seen_by)
from ..table.views import game_view, game_view_with_facts, numbered
from . import idempotency
from .unit import Answer, Done, Engine, Loaded, Save, load, transact


def prepared(ruleset: Ruleset, body: Any) -> dict[str, Any]:
    """The move in a request's ``body``, checked once by its declaration (``Ruleset.prepare``):
    its fields in their declared order, the defaults of those left out. A type that is missing
    or none of the ruleset's is ``unknown_move_type`` (``move_types``: the ruleset's); a body
    that is no object, or a field missing, unknown or not what it declares, ``invalid_body``
    (``errors``: the field and what is wrong with it)."""
    try:
        return ruleset.prepare(body)
    except MalformedMove as err:
        raise Refused("invalid_body", INVALID, err.message,
                      errors={err.field: [err.problem]}) from None
    except IllegalMove as err:  # unknown_move_type
        raise Refused(err.code, INVALID, err.message, move_types=list(ruleset.move_types),
                      errors={"type": [f"must be one of {', '.join(ruleset.move_types)}"]}
                      ) from None


def act(engine: Engine, game_id: str, token: str | None, action: Any,
        if_match: int | None = None, idempotency_key: str | None = None,
        fingerprint: str = "") -> Answer:
    """One move by the caller's seat (``action``: the request's body, checked by
    :func:`prepared` once the game's ruleset is known and the caller is found to hold a seat),
    then every move that is the engine's to make (bots, passed deadlines). Answers
    ``{"version", "events", "game"}``."""
    if token is None:
        raise missing_token("a move needs the seat's bearer token")
    scope = token_id(token)
    first: dict[str, Any] = {}  # what the first attempt found: the situation the sender saw

    def step(loaded: Loaded):
        caller = authenticate(loaded.doc, token)
        replay = idempotency.replayed(engine, loaded, fingerprint, idempotency_key)
        if replay is not None:
            return Done(replay)
        if caller.seat is None:
            raise Refused("not_a_seat", FORBIDDEN, "only a seated player can make moves; the "
                          "host token is for managing the game")
        move = prepared(loaded.ruleset, action)
        if if_match is not None and if_match != loaded.version:
            raise Refused("stale_version", STALE_VERSION,
                          f"the game is at version {loaded.version}, not {if_match}",
                          version=loaded.version)
        doc = loaded.doc
        if doc["status"] == OPEN:
            raise Refused("game_not_started", CONFLICT, "the game starts when every seat is "
                          "taken")
        if doc["status"] == FINISHED:
            raise Refused("game_finished", CONFLICT, "the game is over")
        ruleset = loaded.ruleset
        seat = caller.seat
        now = engine.clock()
        keep = engine.config.late_move_seconds
        if not first:
            # a lapse a moment ago that changed the seat's situation, played before this
            # request came (by the reaper, another request): a move that does not say what its
            # sender saw may have been decided before it
            noted = None if if_match is not None or ruleset.names_situation(move) else \
                lapse_of(doc, seat, now, keep)
            first.update(state=doc["state"], moves=len(doc["moves"]), noted=noted)
        # moves the engine made since this request arrived (another writer won the race to
        # save them): the sender still means the situation the first attempt found
        fell = [m for m in doc["moves"][first["moves"]:] if m[2] != "seat"]
        found = first["state"] if fell else doc["state"]
        noted = first["noted"]
        events: list[dict[str, Any]] = []
        # what fell due before this move (deadlines, bots' think times) is played first, as it
        # would have been had anyone been looking, and noted for the moves that follow it
        doc = advance(doc, ruleset, events, now)
        if events:
            doc = note_lapse(loaded.doc, doc, ruleset, now, keep)
        if overdue(doc, ruleset, seat, now):  # its default waits behind a bot's search
            refusal = Refused(
                "deadline_passed", CONFLICT, "time ran out before this move arrived: the "
                "engine plays your default move once a bot that is thinking has moved",
                version=loaded.version + (1 if events else 0), default_played=False,
                cause="deadline", **ruleset.situation(doc["state"], seat))
            if not events:
                raise refusal
            return Save(doc, events, refusal=refusal)
        if events or fell or noted:
            # what the sender saw (states never change): before the noted lapse, if any
            seen = noted["seen"] if noted else ruleset.situation(found, seat)
            refusal = late(loaded, doc, ruleset, seat, seen, fell, events, if_match, noted)
            if refusal is not None:
                if not events:
                    raise refusal
                return Save(doc, events, refusal=refusal)
        try:
            new_doc = apply_move(doc, ruleset, seat, move, "seat", events, now, prepared=True)
        except Refusal as err:
            if events:  # the deadlines still count: save them, then report the refusal
                return Save(doc, events, refusal=err)
            raise
        if new_doc is loaded.doc:  # an idempotent re-send: nothing to write
            return Done(Answer({"version": loaded.version, "events": [],
                                "game": game_view(loaded.doc, loaded.version, loaded.rematch,
                                                  caller.viewer, now)}))
        new_doc = seen_by(advance(new_doc, ruleset, events, now), seat, now, keep)
        new_doc["seq"] = loaded.doc["seq"] + len(events)
        first_seq = loaded.doc["seq"] + 1
        view, facts = game_view_with_facts(new_doc, loaded.version + 1, None, caller.viewer, now)
        result = {
            "version": loaded.version + 1,
            "events": [numbered(first_seq + i, e, caller.viewer) for i, e in enumerate(events)],
            "game": view,
        }
        # the answer's JSON, made once: for the client and for the record's digest
        encoded = orjson.dumps(result)
        record = idempotency.move_record(engine, loaded, caller.token_id, idempotency_key,
                                         fingerprint, result, len(new_doc["moves"]),
                                         caller.viewer, facts, encoded)
        return Save(new_doc, events, Answer(result, encoded=encoded), record)

    try:
        return transact(engine, game_id, step, idempotency.record_key(scope, idempotency_key))
    except Refused as err:
        if err.code == "contention" and if_match is not None:
            raise Refused("stale_version", STALE_VERSION,
                          "the game changed while this move was made") from err
        raise


def late(loaded: Loaded, doc: dict[str, Any], ruleset: Ruleset, seat: int,
         seen: dict[str, Any], fell: list[list[Any]], events: list[dict[str, Any]],
         if_match: int | None, noted: dict[str, Any] | None = None) -> Refused | None:
    """The refusal of a move that arrives after deadlines or bot moves fell due (``doc``: the
    game with them played), or None when the move may still be made. ``noted``: the note of
    such a lapse played a moment before this request (``record.note_lapse``), by whoever.

    ``409 deadline_passed`` when they changed the seat's situation (the turn, round or hand, the
    phase, what the seat must do) or played the seat's own default; ``412 stale_version`` when
    the move came with If-Match (it was based on a version that is no longer the game's, even if
    the seat's situation is the same); ``409 game_finished`` when they ended the game."""
    version = loaded.version + (1 if events else 0)
    if doc["status"] == FINISHED:
        return Refused("game_finished", CONFLICT, "the game ended before this move: the "
                       "deadlines that had passed were played first", version=version)
    own = bool(noted and noted["own"]) or any(
        m[0] == seat and m[2] == "deadline" for m in fell) or any(
        e["type"] == "deadline_passed" and e["seat"] == seat for e in events)
    now = ruleset.situation(doc["state"], seat)
    if own or now != seen:
        what = ", ".join(f"{k} {v}" for k, v in now.items() if k != "pending" and v is not None)
        # what moved the game on: a deadline, or only bots whose think time was over
        timed_out = bool(noted and noted["cause"] == "deadline") or any(
            m[2] == "deadline" for m in fell) or any(
            e["type"] == "deadline_passed" for e in events)
        cause = "time ran out" if timed_out else "a bot moved first"
        return Refused(
            "deadline_passed", CONFLICT,
            f"{cause} before this move arrived: the game moved on to {what}"
            + ("; your default move was played" if own else "")
            + ("; a move sent with If-Match (the version of the view it was decided on) is "
               "judged by that version instead" if noted and not (events or fell) else ""),
            version=version, default_played=own,
            cause="deadline" if timed_out else "bot", **now)
    if if_match is not None and events:
        return Refused("stale_version", STALE_VERSION,
                       f"deadlines passed before this move: the game is now at version "
                       f"{version}, not {if_match}", version=version)
    return None


def settle(engine: Engine, game_id: str, search: bool = False
           ) -> tuple[Loaded, list[dict[str, Any]]]:
    """Apply every due deadline (and the bot moves that follow) now. Returns the game as saved
    and the events that produced (none when nothing was due). Only the reaper passes
    ``search``: a request leaves a searching bot's move, and what fell due after it, to the
    reaper (``record.advance``)."""

    def step(loaded: Loaded):
        now = engine.clock()
        if not is_due(loaded.doc, loaded.ruleset, now, search):
            return Done((loaded, []))
        events: list[dict[str, Any]] = []
        doc = advance(dict(loaded.doc), loaded.ruleset, events, now, search=search)
        doc = note_lapse(loaded.doc, doc, loaded.ruleset, now, engine.config.late_move_seconds)
        return Save(doc, events, (Loaded(loaded.version + 1, doc, None), events))

    return transact(engine, game_id, step)


def resolve(engine: Engine, game_id: str, token: str | None) -> dict[str, Any]:
    """Apply every default that is due now (``POST /resolve``); 409 when nothing is due."""
    if token is None:
        raise missing_token("resolving a game needs the host's or a seat's token")
    loaded = load(engine, game_id)
    caller = authenticate(loaded.doc, token)
    if not (caller.host or caller.seat is not None):
        raise Refused("not_a_player", FORBIDDEN, "only the host or a seated player can resolve")
    status = loaded.doc["status"]
    if status != PLAYING:
        raise Refused("game_not_started" if status == OPEN else "game_finished", CONFLICT,
                      "only a game in play can be resolved")
    after, events = settle(engine, game_id)
    if not events:
        limit = loaded.doc["settings"].get("move_seconds")
        if is_due(after.doc, after.ruleset, engine.clock(), search=True):
            raise Refused("nothing_due", CONFLICT, "a bot is thinking: the engine's background "
                          "player makes its move, then what fell due after it")
        raise Refused("nothing_due", CONFLICT, "no deadline has passed" if limit else
                      "this game has no move deadlines (option move_seconds)")
    first = after.doc["seq"] - len(events) + 1
    return {"version": after.version,
            "events": [numbered(first + i, e, caller.viewer) for i, e in enumerate(events)],
            "game": game_view(after.doc, after.version, after.rematch, caller.viewer,
                              engine.clock())}

