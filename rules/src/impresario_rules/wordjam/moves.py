"""Word Jam's moves, one function each (``(state, seat, move) -> (state, events)``): choose a
side, call Open Sesame or give up calling, challenge a word or let it stand, vote, bet, submit a
word in the window or pass. Each checks what the move's declaration cannot (the phase, the seat,
the rules' own limits) and hands on to the flow (``flow.py``)."""

from __future__ import annotations

from ..base import STALE, Action, Event, IllegalMove, OutOfTurn, State
from . import words as W
from .flow import (maybe_close_window, nobody_called, open_challenge, open_window, score_turn,
                   word_stands, word_voided)
from .state import (BETS, CALL, CHALLENGE, SIDES, SIDE_NAMES, THIEVES, THINK, VOTE,
                    VOTES_TO_STAND, WINDOW, bettors, callers, check_word, replaced,
                    word_refusal)


def sitting_out(state: State, seat: int) -> None:
    if seat not in state["participants"]:
        raise OutOfTurn("sitting_out", "this extra turn is played by the tied players only; "
                        "you still vote on challenges", participants=state["participants"])


def choose_side(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    side = action["side"]
    if side not in SIDE_NAMES:
        raise IllegalMove("invalid_side", "side must be 'ali_baba' or 'thieves'")
    if state["phase"] != SIDES:
        raise OutOfTurn("not_choosing_sides", "sides are chosen at the start of turn 8 only")
    committed = state["sides"][seat]
    if committed is not None:
        if committed == side:
            return state, []
        raise OutOfTurn("side_already_chosen", "you have already chosen your side")
    new = dict(state)
    new["sides"] = replaced(state["sides"], seat, side)
    events: list[Event] = [{"type": "side_chosen", "seat": seat,
                            "_private": {str(seat): {"side": side}}}]
    if all(new["sides"][s] is not None for s in new["participants"]):
        new["phase"] = THINK
        events.append({"type": "sides_chosen"})
    return new, events


def open_sesame(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """Open Sesame with a word. R3: the first call the engine commits wins, later ones are
    refused; a word that fails the engine's own checks (R2) is refused and does not make its
    caller Alì Babà; a seat whose call was voided may not call again this turn (R6)."""
    word = action["word"]
    if state["phase"] != THINK:
        if state["ali"] is not None:
            raise OutOfTurn("sesame_already_called",
                            f"seat {state['ali']} called Open Sesame first this turn",
                            ali_baba=state["ali"])
        raise OutOfTurn("not_thinking_phase", "Open Sesame is called while the players think")
    sitting_out(state, seat)
    if seat in state["barred"]:
        raise IllegalMove("call_barred", "your call was voided this turn: you may not call "
                          "again until the next turn (R6)")
    if seat in state["passed"]:
        raise OutOfTurn("already_passed", "you said you have no call this time")
    result = check_word(state, word)
    if not result["valid"]:
        raise word_refusal(result["reason"])
    word_id = state["next_word_id"]
    entry = {"word_id": word_id, "seat": seat, "word": word, "folded": result["folded"],
             "value": result["value"]}
    new = dict(state)
    new["ali"] = seat
    new["ali_word"] = entry
    new["used"] = state["used"] + [result["folded"]]
    new["next_word_id"] = word_id + 1
    events: list[Event] = [{"type": "sesame_called", "turn": state["turn"], "seat": seat,
                            "word_id": word_id, "word": word, "value": result["value"]}]
    new = open_challenge(new, events, entry, CALL, None)
    return new, events


def no_call(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] != THINK:
        if state["ali"] is not None:
            raise OutOfTurn("sesame_already_called",
                            f"seat {state['ali']} called Open Sesame first this turn",
                            ali_baba=state["ali"])
        raise OutOfTurn("not_thinking_phase", "there is no call to give up now")
    sitting_out(state, seat)
    if seat in state["passed"] or seat in state["barred"]:
        return state, []
    new = dict(state)
    new["passed"] = state["passed"] + [seat]
    events: list[Event] = [{"type": "no_call", "seat": seat}]
    if not callers(new):
        new = nobody_called(new, events)
    return new, events


def check_word_id(state: State, action: Action, required: bool) -> None:
    word_id = action.get("word_id")
    if word_id is None and not required:
        return
    if word_id != state["challenge"]["word_id"]:
        raise OutOfTurn("stale_word_id", f"word {word_id} is not the word in question now",
                        kind=STALE, word_id=state["challenge"]["word_id"])


def challenge(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] != CHALLENGE:
        raise OutOfTurn("no_challenge_window", "no word can be challenged now")
    check_word_id(state, action, True)
    ch = state["challenge"]
    if seat == ch["seat"]:
        raise IllegalMove("own_word", "you cannot challenge your own word")
    if seat in ch["answered"]:
        raise OutOfTurn("already_answered", "you let this word stand already")
    new = dict(state)
    new["phase"] = VOTE
    new["challenge"] = {**ch, "challenger": seat}
    return new, [{"type": "word_challenged", "word_id": ch["word_id"], "seat": seat,
                  "author": ch["seat"]}]


def no_challenge(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    if state["phase"] != CHALLENGE:
        raise OutOfTurn("no_challenge_window", "no word can be challenged now")
    check_word_id(state, action, False)
    ch = state["challenge"]
    if seat == ch["seat"]:
        raise IllegalMove("own_word", "the author of a word takes no part in its challenge "
                          "window")
    if seat in ch["answered"]:
        return state, []
    new = dict(state)
    new["challenge"] = {**ch, "answered": ch["answered"] + [seat]}
    events: list[Event] = [{"type": "no_challenge", "word_id": ch["word_id"], "seat": seat}]
    if len(new["challenge"]["answered"]) == state["n"] - 1:
        events.append({"type": "word_stands", "word_id": ch["word_id"], "seat": ch["seat"],
                       "challenged": False})
        new = word_stands(new, events)
    return new, events


def vote(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A vote on a challenged word, the author's too (R2): the word stands with at least
    ``VOTES_TO_STAND`` votes in favour; a missing vote counts as against (its default)."""
    in_favour = action["in_favour"]
    if state["phase"] != VOTE:
        raise OutOfTurn("not_voting_phase", "there is no vote now")
    check_word_id(state, action, False)
    ch = state["challenge"]
    committed = ch["votes"][seat]
    if committed is not None:
        if committed == in_favour:
            return state, []
        raise OutOfTurn("vote_already_cast", "you have already voted on this word")
    votes = replaced(ch["votes"], seat, in_favour)
    new = dict(state)
    new["challenge"] = {**ch, "votes": votes}
    events: list[Event] = [{"type": "vote_cast", "word_id": ch["word_id"], "seat": seat,
                            "_private": {str(seat): {"in_favour": in_favour}}}]
    if all(v is not None for v in votes):
        count = sum(1 for v in votes if v)
        stands = count >= VOTES_TO_STAND
        result = {"word_id": ch["word_id"], "seat": ch["seat"], "word": ch["word"],
                  "about": ch["about"], "challenger": ch["challenger"], "in_favour": count,
                  "votes": [{"seat": s, "in_favour": v} for s, v in enumerate(votes)],
                  "stands": stands}
        new["last_vote"] = result
        events.append({"type": "vote_result", **{k: v for k, v in result.items()
                                                  if k != "votes"},
                       "votes": [dict(v) for v in result["votes"]]})
        if stands:
            events.append({"type": "word_stands", "word_id": ch["word_id"],
                           "seat": ch["seat"], "challenged": True})
            new = word_stands(new, events)
        else:
            new = word_voided(new, events)
    return new, events


def bet(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    side = action["side"]
    if side not in SIDE_NAMES:
        raise IllegalMove("invalid_side", "side must be 'ali_baba' or 'thieves'")
    if state["phase"] != BETS:
        raise OutOfTurn("not_betting_phase", "bets are placed right after Alì Babà's word "
                        "stands")
    sitting_out(state, seat)
    if seat == state["ali"]:
        raise OutOfTurn("ali_baba_does_not_bet", "Alì Babà does not bet on himself")
    committed = state["bets"][seat]
    if committed is not None:
        if committed == side:
            return state, []
        raise OutOfTurn("bet_already_placed", "your bet is sealed; it cannot change")
    new = dict(state)
    new["bets"] = replaced(state["bets"], seat, side)
    events: list[Event] = [{"type": "bet_placed", "seat": seat,
                            "_private": {str(seat): {"side": side}}}]
    betting = bettors(new)
    if all(new["bets"][s] is not None for s in betting):
        new["bets_revealed"] = True
        thieves = [s for s in betting if new["bets"][s] == THIEVES]
        events.append({"type": "bets_revealed",
                       "bets": [{"seat": s, "side": new["bets"][s]} for s in betting],
                       "thieves": thieves})
        if not thieves:
            return score_turn(new, events), events
        new = open_window(new, events, thieves)
    return new, events


def window_seat(state: State, seat: int) -> None:
    if state["phase"] != WINDOW:
        raise OutOfTurn("no_word_window", "words are submitted in the window after the "
                        "bets (turn 8: after the call)")
    if seat not in state["thieves"]:
        raise OutOfTurn("not_in_window", "only the thieves submit words now (turn 8: "
                        "everyone but the caller)")


def thief_word(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A word submitted secretly in the window. R5: a later submission replaces an earlier one
    until the window closes (``final`` closes it for this seat); no submission is a pass."""
    word, final = action["word"], action["final"]
    window_seat(state, seat)
    if state["final"][seat]:
        if state["words"][seat] == word and final:
            return state, []
        raise OutOfTurn("already_finished", "your word for this window is final")
    reason = W.letters_reason(word)
    if reason is not None:
        raise word_refusal(reason)
    if state["words"][seat] == word and not final:
        return state, []
    new = dict(state)
    new["words"] = replaced(state["words"], seat, word)
    new["final"] = replaced(state["final"], seat, final)
    events: list[Event] = [{"type": "word_submitted", "seat": seat, "final": final,
                            "_private": {str(seat): {"word": word}}}]
    return maybe_close_window(new, events), events


def thief_pass(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    window_seat(state, seat)
    if state["final"][seat]:
        if state["words"][seat] is None:
            return state, []
        raise OutOfTurn("already_finished", "your word for this window is final")
    new = dict(state)
    new["words"] = replaced(state["words"], seat, None)
    new["final"] = replaced(state["final"], seat, True)
    events: list[Event] = [{"type": "window_passed", "seat": seat}]
    return maybe_close_window(new, events), events


#: the function of each move type
HANDLERS = {
    "choose_side": choose_side,
    "open_sesame": open_sesame,
    "no_call": no_call,
    "challenge": challenge,
    "no_challenge": no_challenge,
    "vote": vote,
    "bet": bet,
    "thief_word": thief_word,
    "thief_pass": thief_pass,
}
