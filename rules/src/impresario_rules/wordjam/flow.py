"""Word Jam's flow: how a turn begins, moves from phase to phase and ends, each step a named
rule of the rulebook (ruling numbers from ``shared/rules/wordjam.md``). The moves
(``moves.py``) lead here; nothing here is a move itself.

Every function takes ``new``, a state the current move owns (or a state to copy), and the list
of events to append to, and returns the state it leads to.
"""

from __future__ import annotations

from typing import Any

from .. import rng as rngmod
from ..base import Event, State
from . import words as W
from .state import (ALI_BABA, BETS, CALL, CHALLENGE, DECLARATION, FINAL_TURN, OVER,
                    MAX_EXTRA_TURNS, RED, SIDES, THIEVES, THINK, WINDOW, YELLOW, bettors,
                    callers, check_word, clockwise_after, coin_list, column, prizes, style_view,
                    totals)


def start_turn(state: State, events: list[Event], turn: int, extra: int,
                participants: list[int]) -> State:
    n = state["n"]
    new = dict(state)
    if state["style"] is not None:
        new["styles_used"] = state["styles_used"] + [state["style"]]
    styles = list(state["styles"])
    new["style"] = styles.pop(0)
    new["styles"] = styles
    dealt, g = rngmod.shuffled(state["rng"], list(W.CONSONANTS))
    new["rng"] = g
    new["coins"] = dealt[:4]
    new["forbidden"] = dealt[4]
    new.update({
        "turn": turn, "extra": extra, "participants": list(participants),
        "phase": SIDES if turn == FINAL_TURN else THINK,
        "attempt": 0, "passed": [], "barred": [],
        "ali": None, "ali_word": None,
        "bets": [None] * n, "bets_revealed": False,
        "sides": [None] * n, "sides_revealed": False,
        "thieves": None, "words": [None] * n, "final": [False] * n,
        "queue": [], "declarations": [], "chief": None,
        "best": {ALI_BABA: None, THIEVES: None} if turn == FINAL_TURN else None,
        "challenge": None,
    })
    red, yellow = prizes(new)
    events.append({
        "type": "turn_started", "turn": turn, "extra_turn": extra,
        "final_turn": turn == FINAL_TURN, "participants": list(participants),
        "coins": coin_list(new), "forbidden": new["forbidden"],
        "style": style_view(new["style"]),
        "column": {"column": column(new) + 1, "red": red, "yellow": yellow},
    })
    return new


def end_turn(state: State, events: list[Event], awards: list[dict[str, Any]],
              called: bool) -> State:
    red, yellow = prizes(state)
    ali_word = state["ali_word"]
    record = {
        "turn": state["turn"], "extra_turn": state["extra"], "column": column(state) + 1,
        "red": red, "yellow": yellow, "called": called,
        "style": state["style"],
        "ali_baba": state["ali"] if called else None,
        "word": ali_word["word"] if called and ali_word else None,
        "value": ali_word["value"] if called and ali_word else None,
        "chief_thief": state["chief"],
        "bets": ([{"seat": s, "side": state["bets"][s]} for s in bettors(state)]
                 if state["bets_revealed"] else None),
        "sides": ([{"seat": s, "side": state["sides"][s]} for s in state["participants"]]
                  if state["sides_revealed"] else None),
        "declarations": [dict(d) for d in state["declarations"]],
        "awards": awards,
    }
    new = dict(state)
    new["history"] = state["history"] + [record]
    # what the rules never reveal is forgotten with the turn: the thieves' words nobody
    # heard, and turn 8's sides when nobody called (R13)
    new["words"] = [None] * state["n"]
    if not state["sides_revealed"]:
        new["sides"] = [None] * state["n"]
    points = totals(new)
    events.append({"type": "turn_scored", "turn": state["turn"],
                   "extra_turn": state["extra"], "called": called,
                   "awards": [dict(a) for a in awards], "totals": points})
    turn = state["turn"]
    if turn < FINAL_TURN:
        return start_turn(new, events, turn + 1, 0, list(range(state["n"])))
    tied = tied_for_first(points)
    if plays_an_extra_turn(tied, state["extra"]):
        events.append({"type": "extra_turn", "extra_turn": state["extra"] + 1,
                       "participants": tied})
        return start_turn(new, events, turn + 1, state["extra"] + 1, tied)
    new["phase"] = OVER
    new["challenge"] = None
    events.append({"type": "game_finished", "winners": tied, "shared": len(tied) > 1,
                   "totals": points})
    return new


def score_turn(state: State, events: list[Event]) -> State:
    red, yellow = prizes(state)
    awards: list[dict[str, Any]] = []
    if state["turn"] == FINAL_TURN:
        for side, colour, points in ((ALI_BABA, RED, red), (THIEVES, YELLOW, yellow)):
            best = state["best"][side]
            if best is not None:
                awards.append({"seat": best["seat"], "colour": colour, "points": points,
                               "role": f"best_{side}"})
    elif state["chief"] is not None:
        awards.append({"seat": state["chief"], "colour": RED, "points": red,
                       "role": "chief_thief"})
        awards += [{"seat": s, "colour": YELLOW, "points": yellow, "role": "thief"}
                   for s in state["thieves"] if s != state["chief"]]
    else:
        awards.append({"seat": state["ali"], "colour": RED, "points": red,
                       "role": "ali_baba"})
        awards += [{"seat": s, "colour": YELLOW, "points": yellow, "role": "follower"}
                   for s in bettors(state) if state["bets"][s] == ALI_BABA]
    awards.sort(key=lambda a: a["seat"])
    return end_turn(state, events, awards, True)


def open_challenge(state: State, events: list[Event], entry: dict[str, Any],
                    about: str, side: str | None) -> State:
    new = dict(state)
    new["phase"] = CHALLENGE
    new["challenge"] = {
        "word_id": entry["word_id"], "seat": entry["seat"], "word": entry["word"],
        "value": entry["value"], "about": about, "side": side, "challenger": None,
        "answered": [], "votes": [None] * state["n"],
    }
    events.append({"type": "challenge_window", "word_id": entry["word_id"],
                   "seat": entry["seat"], "about": about})
    return new


def word_stands(state: State, events: list[Event]) -> State:
    ch = state["challenge"]
    new = dict(state)
    new["challenge"] = None
    if ch["about"] == CALL:
        if state["turn"] == FINAL_TURN:
            others = clockwise_after(ch["seat"], state["n"])
            return open_window(new, events, others)
        new["phase"] = BETS
        events.append({"type": "betting_opened", "seats": bettors(new),
                       "word_id": ch["word_id"], "value": ch["value"]})
        return new
    decls = list(state["declarations"])
    if state["turn"] == FINAL_TURN:
        decls[-1] = {**decls[-1], "outcome": "counted"}
        new["declarations"] = decls
        best = dict(state["best"])
        best[ch["side"]] = {"seat": ch["seat"], "word": ch["word"], "value": ch["value"]}
        new["best"] = best
        events.append({"type": "word_counted", "seat": ch["seat"], "side": ch["side"],
                       "word": ch["word"], "value": ch["value"]})
        return run_declarations(new, events)
    decls[-1] = {**decls[-1], "outcome": "chief"}
    new["declarations"] = decls
    new["chief"] = ch["seat"]
    new["queue"] = []
    events.append({"type": "chief_thief", "seat": ch["seat"], "word": ch["word"],
                   "value": ch["value"]})
    return score_turn(new, events)


def word_voided(state: State, events: list[Event]) -> State:
    """A challenged word voted down. R6: Alì Babà's call is void, thinking resumes and that
    player may not call again this turn; a thief's declaration is void and the declarations go
    on with the next thief."""
    ch = state["challenge"]
    new = dict(state)
    new["challenge"] = None
    if ch["about"] == CALL:
        events.append({"type": "call_voided", "seat": ch["seat"], "word_id": ch["word_id"]})
        new.update({"phase": THINK, "ali": None, "ali_word": None, "passed": [],
                    "barred": state["barred"] + [ch["seat"]],
                    "attempt": state["attempt"] + 1})
        if not callers(new):
            return nobody_called(new, events)
        return new
    decls = list(state["declarations"])
    decls[-1] = {**decls[-1], "outcome": "voided"}
    new["declarations"] = decls
    events.append({"type": "declaration_voided", "seat": ch["seat"],
                   "word_id": ch["word_id"]})
    return run_declarations(new, events)


def open_window(state: State, events: list[Event], seats: list[int]) -> State:
    new = dict(state)
    new["phase"] = WINDOW
    new["thieves"] = list(seats)
    new["words"] = [None] * state["n"]
    new["final"] = [False] * state["n"]
    events.append({"type": "window_opened", "seats": list(seats),
                   "must_beat": None if state["turn"] == FINAL_TURN
                   else state["ali_word"]["value"]})
    return new


def maybe_close_window(state: State, events: list[Event]) -> State:
    if not all(state["final"][s] for s in state["thieves"]):
        return state
    events.append({"type": "window_closed", "turn": state["turn"]})
    new = dict(state)
    if state["turn"] == FINAL_TURN:
        caller = state["ali"]
        new["sides_revealed"] = True
        events.append({"type": "sides_revealed",
                       "sides": [{"seat": s, "side": state["sides"][s]}
                                 for s in state["participants"]]})
        entry = state["ali_word"]
        side = state["sides"][caller]
        best = dict(state["best"])
        best[side] = {"seat": caller, "word": entry["word"], "value": entry["value"]}
        new["best"] = best
        new["declarations"] = [{"seat": caller, "side": side, "word": entry["word"],
                                "value": entry["value"], "valid": True, "reason": None,
                                "outcome": "counted"}]
        events.append({"type": "word_counted", "seat": caller, "side": side,
                       "word": entry["word"], "value": entry["value"]})
        new["queue"] = clockwise_after(caller, state["n"])
    else:
        new["queue"] = [s for s in clockwise_after(state["ali"], state["n"])
                        if s in state["thieves"]]
        new["declarations"] = []
    return run_declarations(new, events)


def run_declarations(state: State, events: list[Event]) -> State:
    """The declarations, run by the engine (R10: it computes every value), in seat order from
    Alì Babà's left: the first valid word worth strictly more than his is the Chief Thief's
    (its challenge comes when it is declared); in turn 8 a single round in which each side's
    words must keep beating that side's best. A word declared is used (R9)."""
    new = dict(state)
    queue = list(state["queue"])
    decls = list(state["declarations"])
    final = state["turn"] == FINAL_TURN
    while queue:
        seat = queue.pop(0)
        word = state["words"][seat]
        side = state["sides"][seat] if final else THIEVES
        if word is None:
            decls.append({"seat": seat, "side": side, "word": None, "value": None,
                          "valid": None, "reason": None, "outcome": "pass"})
            events.append({"type": "declaration", "seat": seat, "side": side,
                           "outcome": "pass"})
            continue
        result = check_word(new, word)
        if final:
            best = new["best"][side]
            counts = result["valid"] and (best is None or result["value"] > best["value"])
            if not counts:
                # the player does not say a word that would not count: it stays secret
                decls.append({"seat": seat, "side": side, "word": None, "value": None,
                              "valid": None, "reason": None, "outcome": "not_counted"})
                events.append({"type": "declaration", "seat": seat, "side": side,
                               "outcome": "not_counted"})
                continue
        word_id = new["next_word_id"]
        new["next_word_id"] = word_id + 1
        if result["folded"] and result["folded"] not in new["used"]:
            new["used"] = new["used"] + [result["folded"]]  # R9: revealed, so used
        if not result["valid"]:
            outcome = "invalid"
        elif final or result["value"] > state["ali_word"]["value"]:
            outcome = "pending"
        else:
            outcome = "not_enough"
        decl = {"seat": seat, "side": side, "word": word, "value": result["value"],
                "valid": result["valid"], "reason": result["reason"], "outcome": outcome}
        decls.append(decl)
        events.append({"type": "declaration", "seat": seat, "side": side,
                       "outcome": outcome, "word_id": word_id, "word": word,
                       "value": result["value"], "valid": result["valid"],
                       "reason": result["reason"]})
        if outcome == "pending":
            new["queue"] = queue
            new["declarations"] = decls
            entry = {"word_id": word_id, "seat": seat, "word": word,
                     "value": result["value"]}
            return open_challenge(new, events, entry, DECLARATION, side)
    new["queue"] = []
    new["declarations"] = decls
    return score_turn(new, events)


def tied_for_first(points: list[int]) -> list[int]:
    """The seats with the highest total."""
    top = max(points)
    return [s for s, t in enumerate(points) if t == top]


def plays_an_extra_turn(tied: list[int], extra: int) -> bool:
    """R7: players tied for first play an extra turn among themselves (the others sit out but
    still vote on challenges), with the next Style card and the last column; while they are
    still tied, again, at most ``MAX_EXTRA_TURNS`` times; then the victory is shared."""
    return len(tied) > 1 and extra < MAX_EXTRA_TURNS


def nobody_called(new: State, events: list[Event]) -> State:
    """R4, the think window lapses: once no seat may call any more (each said it has nothing,
    by its own move or by the default the engine plays for it when ``think_seconds`` run out,
    or had its call voided, R6) the turn scores nothing; its Style card is still discarded and
    the Sesame still moves. In turn 8 nobody scores either (R13)."""
    events.append({"type": "nobody_called", "turn": new["turn"]})
    return end_turn(new, events, [], False)
