"""The record of a game's play around the rules: a move applied to the game's document (the
moves made and by whom, when each seat's turn began, the windows seats are in, whether the game
is over), and the moves the engine makes for its seats: a bot's when its think time is over, a
seat's default when its deadline has passed.

Who must act in a state is asked of the rules once per state (:func:`who_acts`), however many
steps of a request need it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from impresario_rules import Ruleset
from impresario_rules.base import BotRandom

from .clock import BANKS, FINISHED, PLAYING, drawn_bank, due_moves, new_banks

Doc = dict[str, Any]
Events = list[dict[str, Any]]

_memo = threading.local()
log = logging.getLogger("impresario_engine.table")


def who_acts(ruleset: Ruleset, state: dict[str, Any]) -> dict[int, list[str]]:
    """``ruleset.pending(state)``, asked once per state by this thread (the answers for the
    last two states are kept, a move's before and after; a state is never changed once made,
    so its answer stays right). Read-only."""
    last = getattr(_memo, "last", None)
    if last is not None:
        if last[0] is state:
            return last[1]
        if last[2] is state:
            return last[3]
    pending = ruleset.pending(state)
    _memo.last = (state, pending) + (last[:2] if last is not None else (None, None))
    return pending


def state_after(ruleset: Ruleset, doc: Doc, moves: list[tuple[int, dict[str, Any]]]
                ) -> dict[str, Any]:
    """The game's state after ``moves`` (seat, move), played from its seed: a state changes
    only by its moves (:func:`apply_move`), so this is the state the game had then."""
    state, _ = ruleset.new_game(doc["players"], dict(doc["options"]), doc["seed"])
    for seat, move in moves:
        state, _ = ruleset.apply(state, seat, move)
    return state


def apply_move(doc: Doc, ruleset: Ruleset, seat: int, action: dict[str, Any], by: str,
               events: Events, now: float, prepared: bool = False) -> Doc:
    """``doc`` with one move applied (raises the rules' Refusal; returns ``doc`` itself for a
    move that changes nothing). ``prepared``: ``action`` is a move ``Ruleset.prepare`` made
    (a seat's, checked when its request came), not to be checked again.

    Keeps, for each seat that must act, the time its turn began (for deadlines): a seat that
    was already waiting with the same kinds of move, and did not just act, keeps its time."""
    state = doc["state"]
    before = who_acts(ruleset, state)
    new_state, new_events = (ruleset.play if prepared else ruleset.apply)(state, seat, action)
    if new_state is state:
        return doc
    events.extend(new_events)
    after = who_acts(ruleset, new_state)
    old_since = doc.get("since", {})
    old_keys = doc.get("turn_keys", {})
    since: dict[str, float] = {}
    keys: dict[str, str] = {}
    ended = True  # whether the mover's turn ended with its move (it waits anew, or not at all)
    for s, kinds in after.items():
        key = str(s)
        window = ruleset.turn_key(new_state, s)
        if window is not None:
            keys[key] = window
            same = old_keys.get(key) == window
        else:
            same = s != seat and before.get(s) == kinds
        kept = same and key in old_since
        since[key] = old_since[key] if kept else now
        if s == seat and kept:
            ended = False
    new = dict(doc)
    if keys or old_keys:
        new["turn_keys"] = keys
    if ended and BANKS in doc:
        # the seat's turn ended with this move: its bank pays what the move took beyond the
        # move's own time, and a move of its own earns the refill
        seconds = ruleset.turn_seconds(state, seat, doc["settings"].get("move_seconds"))
        new[BANKS] = {**doc[BANKS], str(seat): drawn_bank(
            doc, seat, seconds, old_since.get(str(seat)), now, by != "deadline")}
    new["state"] = new_state
    new["since"] = since
    new["moves"] = doc["moves"] + [[seat, action, by]]
    if ruleset.is_finished(new_state):
        new["status"] = FINISHED
    return new


def engine_move(doc: Doc, ruleset: Ruleset, seat: int, events: Events, now: float) -> Doc:
    """The move the engine makes for a seat: its bot's (by "bot", drawn from the game's
    secret), or else the seat's deadline default (by "deadline")."""
    state = doc["state"]
    bot = doc["seats"][seat].get("bot")
    if bot:
        rng = BotRandom(doc["secret"], len(doc["moves"]), seat)
        moved = apply_move(doc, ruleset, seat, ruleset.bot_action(state, seat, bot, rng), "bot",
                           events, now)
        if moved is not doc:
            return moved
        # a bot's move that changes nothing leaves the bot due with the same draw: it would be
        # drawn again for ever and the game would stall. The seat's default is played instead,
        # which ends its turn (and if even that changes nothing, :func:`advance` stops)
        log.warning("a bot's move changed nothing: its seat's default is played",
                    extra={"game_id": doc["id"], "seat": seat, "bot": bot})
    return apply_move(doc, ruleset, seat, ruleset.default_action(state, seat),
                      "bot" if bot else "deadline", events, now)


def searches(doc: Doc, ruleset: Ruleset, seat: int | None = None) -> bool:
    """Whether the engine's move for ``seat`` is a search (a bot of ``ruleset.searching_bots``):
    only the reaper's process makes it, never a request's. Without ``seat``: whether any
    seat's is (asked on every move, so one loop over the seats, not a call for each)."""
    searching = ruleset.searching_bots
    if seat is not None:
        return doc["seats"][seat].get("bot") in searching
    for entry in doc["seats"]:
        if entry.get("bot") in searching:
            return True
    return False


def advance(doc: Doc, ruleset: Ruleset, events: Events, now: float,
            with_deadlines: bool = True, search: bool = False) -> Doc:
    """Play every move that is the engine's to make now, in the order they fell due: the bots
    whose think time is over, and the default move of every seat whose deadline has passed,
    until nothing more is due.

    A request (``search`` false) stops at the first due move that is a searching bot's: that
    move, and every one that fell due after it, is the reaper's to play (``search`` true), so a
    search never runs on a player's request and the moves stay in the order they fell due."""
    seats = doc["seats"]
    for _ in range(10_000):  # a game is far shorter; this only guards against a loop
        pending = who_acts(ruleset, doc["state"])
        due = due_moves(doc, ruleset, pending, now, with_deadlines)
        if not due:
            break
        _, _, seat = due[0]
        if not search and searches(doc, ruleset, seat):
            break
        human = not seats[seat].get("bot")
        if human:
            events.append({"type": "deadline_passed", "seat": seat, "kinds": pending[seat]})
        moved = engine_move(doc, ruleset, seat, events, now)
        if moved is doc:  # nothing the engine may play changes the game: no use asking again
            if human:
                events.pop()
            break
        doc = moved
    return doc


def overdue(doc: Doc, ruleset: Ruleset, seat: int, now: float) -> bool:
    """Whether ``seat``'s deadline has passed in ``doc`` as a request left it (:func:`advance`
    without ``search``): its default is still to be played, after a searching bot's move that
    fell due before it, by the reaper."""
    if not searches(doc, ruleset):
        return False  # nothing holds a request's moves back
    pending = who_acts(ruleset, doc["state"])
    return seat in pending and not doc["seats"][seat].get("bot") and any(
        s == seat for _, _, s in due_moves(doc, ruleset, pending, now))


def is_due(doc: Doc, ruleset: Ruleset, now: float, search: bool = False) -> bool:
    """Whether the engine has a move to make in ``doc`` now (a request, ``search`` false:
    one it may make itself, see :func:`advance`)."""
    due = due_moves(doc, ruleset, who_acts(ruleset, doc["state"]), now)
    return bool(due) and (search or not searches(doc, ruleset, due[0][2]))


def start(doc: Doc, ruleset: Ruleset, events: Events, now: float) -> Doc:
    """The game with every seat taken starts: it is dealt (every hidden thing is drawn now,
    from the game's generator, never while its seats were being taken), the seats' turns
    begin now, and the bots whose turn it is play."""
    new = dict(doc)
    new["status"] = PLAYING
    events.append({"type": "game_started"})
    state = doc["state"]
    if not ruleset.is_dealt(state):  # (a game set up by a version that dealt at creation is)
        state, dealt = ruleset.deal(state)
        events.extend(dealt)
    new["state"] = state
    pending = who_acts(ruleset, state)
    new["since"] = {str(s): now for s in pending}
    banks = new_banks(doc)
    if banks is not None:
        new[BANKS] = banks
    # the windows the seats start in (as apply_move keeps them): without them the first move
    # of the game would restart everyone else's window
    keys = {str(s): k for s in pending if (k := ruleset.turn_key(state, s)) is not None}
    if keys:
        new["turn_keys"] = keys
    return advance(new, ruleset, events, now)


# A lapse: moves the engine played because their time came (a deadline's default, a bot whose
# think time was over), whoever's request or loop played them. A move that arrives a moment
# later may have been decided before it, and its request cannot tell: the reaper may have
# played the lapse before the move arrived. So the game notes, for the seconds a move may take
# to arrive (``late_move_seconds``), each human seat whose situation a lapse changed, and the
# situation the seat had before it; a move from that seat meanwhile is judged against that
# situation (``usecases.play``), unless it says what it saw (If-Match, or the round or word it
# is for).
LAPSE = "lapse"


def note_lapse(before: Doc, after: Doc, ruleset: Ruleset, now: float, keep: float) -> Doc:
    """``after`` (``before`` with what fell due played) noting the lapse for ``keep`` seconds:
    for each human seat whose situation it changed, or whose default it played, the situation
    ``before`` (or an earlier note's, still fresh), whether its own default was played, and the
    cause (``deadline`` when any deadline passed, else ``bot``)."""
    played = after["moves"][len(before["moves"]):]
    if not played or keep <= 0:
        return after
    timed_out = {m[0] for m in played if m[2] == "deadline"}
    cause = "deadline" if timed_out else "bot"
    notes = fresh_lapses(after, now, keep)
    old, new = before["state"], after["state"]
    for s, entry in enumerate(after["seats"]):
        if entry.get("bot"):
            continue  # the engine plays it: no move of its own can arrive late
        was = ruleset.situation(old, s)
        own = s in timed_out
        if not own and was == ruleset.situation(new, s):
            continue
        prior = notes.get(str(s))
        notes[str(s)] = {"at": now, "seen": prior["seen"] if prior else was,
                         "own": own or bool(prior and prior["own"]),
                         "cause": "deadline" if prior and prior["cause"] == "deadline"
                         else cause}
    noted = dict(after)
    if notes:
        noted[LAPSE] = notes
    else:
        noted.pop(LAPSE, None)
    return noted


def fresh_lapses(doc: Doc, now: float, keep: float) -> dict[str, dict[str, Any]]:
    """The notes of :func:`note_lapse` made less than ``keep`` seconds before ``now``."""
    return {seat: note for seat, note in doc.get(LAPSE, {}).items() if now - note["at"] <= keep}


def lapse_of(doc: Doc, seat: int, now: float, keep: float) -> dict[str, Any] | None:
    """The fresh note of a lapse that changed ``seat``'s situation, if any."""
    notes = doc.get(LAPSE)
    if not notes:
        return None
    note = notes.get(str(seat))
    return note if note is not None and now - note["at"] <= keep else None


def seen_by(doc: Doc, seat: int, now: float, keep: float) -> Doc:
    """``doc`` without the notes that are stale and without ``seat``'s: its move was made, so
    it answered the situation it is in now."""
    if LAPSE not in doc:
        return doc
    notes = fresh_lapses(doc, now, keep)
    notes.pop(str(seat), None)
    new = dict(doc)
    if notes:
        new[LAPSE] = notes
    else:
        del new[LAPSE]
    return new


def abandon(doc: Doc, ruleset: Ruleset, idle: float, now: float) -> tuple[Doc, Events]:
    """A game in play nobody moved in for ``idle`` seconds, finished: an event
    ``game_abandoned``, then every seat plays what the engine plays for it when its time runs
    out (bot seats their bot) until the game is over."""
    events: Events = [{"type": "game_abandoned", "idle_seconds": int(idle)}]
    new = dict(doc)
    new["abandoned"] = True
    for _ in range(20_000):  # a game is far shorter; this only guards against a loop
        if new["status"] == FINISHED:
            break
        new = engine_move(new, ruleset, min(who_acts(ruleset, new["state"])), events, now)
    return new, events
