"""Word Jam (Walter Obert, daVinci 2004) for 5–12 players: the whole flow of play.

Eight turns. Each turn the engine deals five consonants on the coin cards 1, 2, 3, 3 and the
scimitar (its consonant is forbidden) and reveals a Style card. Turns 1–7: the first player whose
Open Sesame call the engine commits is Alì Babà; his word may be challenged; the others bet
secretly on him or on the thieves; the thieves get a window to submit a word secretly; the engine
declares their words in seat order from Alì Babà's left; the first valid word worth strictly more
is the Chief Thief's (it may be challenged too); the turn is scored with the cave's current
column. Turn 8 is different: secret sides first, then one call, a window for everyone else, and a
single round in which each side's words must keep beating that side's best. Ties for first play up
to three extra turns among the tied players.

The core has no clock: every window is named by :meth:`WordJam.turn_key` and timed by the service
(:meth:`WordJam.turn_seconds`), which plays :meth:`WordJam.default_action` for each seat whose
window ran out. The state is a plain JSON dict; functions return new dicts and share what did not
change.
"""

from __future__ import annotations

import random
from typing import Any

from .. import rng as rngmod
from ..base import (STALE, Action, Event, IllegalMove, InvalidOptions, OutOfTurn, Ruleset, State,
                    Viewer)
from . import lexicon
from . import words as W

TURNS = 8
FINAL_TURN = 8
MAX_EXTRA_TURNS = 3
VOTES_TO_STAND = 3

SIDES, THINK, CHALLENGE, VOTE, BETS, WINDOW, FINISHED = (
    "sides", "think", "challenge", "vote", "bets", "window", "finished")
PHASES = (SIDES, THINK, CHALLENGE, VOTE, BETS, WINDOW, FINISHED)
ALI_BABA, THIEVES = "ali_baba", "thieves"
SIDE_NAMES = (ALI_BABA, THIEVES)
CALL, DECLARATION = "call", "declaration"
RED, YELLOW = "red", "yellow"

#: declaration outcomes (turns 1–7: pass, invalid, not_enough, voided, chief;
#: turn 8: pass, not_counted, voided, counted); ``pending`` while its challenge window is open
OUTCOMES = ("pass", "invalid", "not_enough", "voided", "chief", "not_counted", "counted",
            "pending")

SECONDS_OPTIONS = {
    "think_seconds": (120, "R4: time to find a word before Open Sesame; when it runs out with "
                           "no call the turn scores nothing"),
    "bet_seconds": (15, "time to choose a side secretly (bets; turn 8's sides); no choice "
                        "counts as trusting Alì Babà (R12)"),
    "thief_seconds": (20, "the hourglass: the thieves' window (turn 8: everyone's window) for "
                          "submitting a word secretly (R5)"),
    "challenge_seconds": (10, "R2: time to challenge a revealed word"),
    "vote_seconds": (20, "R2: time to vote on a challenged word; no vote counts as against"),
}
MAX_SECONDS = 86_400


def _clockwise_after(seat: int, n: int) -> list[int]:
    """Every other seat clockwise starting at ``seat``'s left."""
    return [(seat + i) % n for i in range(1, n)]




#: the reason a word fails the game option ``dictionary``
NOT_IN_DICTIONARY = "not_in_dictionary"
_REASON_TEXT = {NOT_IN_DICTIONARY: "the word is not in the lexicon this game plays with (option "
                                   "dictionary)"}


def _word_refusal(reason: str) -> IllegalMove:
    text = _REASON_TEXT.get(reason) or W.REASON_TEXT[reason]
    return IllegalMove(f"word_{reason}", text, reason=reason)


def _with(lst: list, index: int, value: Any) -> list:
    out = list(lst)
    out[index] = value
    return out


class WordJam(Ruleset):
    name = "wordjam"
    title = "Word Jam"
    min_players = 5
    max_players = 12

    # ------------------------------------------------------------------ setup
    def parse_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        options = self.known_options(options)
        out: dict[str, Any] = {}
        for key, (default, _) in SECONDS_OPTIONS.items():
            value = options.get(key, default)
            if type(value) is not int or not 1 <= value <= MAX_SECONDS:
                raise InvalidOptions(f"invalid_{key}",
                                     f"{key} must be an integer from 1 to {MAX_SECONDS}")
            out[key] = value
        cave = options.get("cave")
        if cave is None:
            cave = W.default_cave()
        elif (not isinstance(cave, dict) or set(cave) != {"red", "yellow"}
              or not all(isinstance(cave[k], list) and len(cave[k]) == TURNS
                         and all(type(v) is int and 0 <= v <= 99 for v in cave[k])
                         for k in ("red", "yellow"))):
            raise InvalidOptions("invalid_cave", "cave must be {red: [8 integers 0–99], "
                                 "yellow: [8 integers 0–99]}")
        out["cave"] = {"red": list(cave["red"]), "yellow": list(cave["yellow"])}
        flag = options.get("no_visible_objects", False)
        if type(flag) is not bool:
            raise InvalidOptions("invalid_no_visible_objects",
                                 "no_visible_objects must be true or false")
        out["no_visible_objects"] = flag
        dictionary = options.get("dictionary", False)
        if type(dictionary) is not bool:
            raise InvalidOptions("invalid_dictionary", "dictionary must be true or false")
        out["dictionary"] = dictionary
        return out

    def new_game(self, players: int, options: dict[str, Any] | None, seed: int
                 ) -> tuple[State, list[Event]]:
        self.check_players(players)
        opts = self.parse_options(options)
        self.check_seed(seed)
        g = rngmod.seed_state(seed)
        cards = [s["id"] for s in W.styles()
                 if not (opts["no_visible_objects"] and s["visible_objects"])]
        deck, g = rngmod.shuffled(g, cards)
        state: State = {
            "n": players,
            "opts": opts,
            "rng": g,
            "styles": deck,
            "styles_used": [],
            "style": None,
            "turn": 0,
            "extra": 0,
            "participants": list(range(players)),
            "used": [],
            "next_word_id": 1,
            "history": [],
            "last_vote": None,
        }
        events: list[Event] = []
        state = self._start_turn(state, events, 1, 0, list(range(players)))
        return state, events

    # ------------------------------------------------------------------ turn life cycle
    def _start_turn(self, state: State, events: list[Event], turn: int, extra: int,
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
        red, yellow = self.prizes(new)
        events.append({
            "type": "turn_started", "turn": turn, "extra_turn": extra,
            "final_turn": turn == FINAL_TURN, "participants": list(participants),
            "coins": self._coin_list(new), "forbidden": new["forbidden"],
            "style": self._style_view(new["style"]),
            "column": {"column": self.column(new) + 1, "red": red, "yellow": yellow},
        })
        return new

    def column(self, state: State) -> int:
        """The cave column (0-based) the Sesame has uncovered this turn: the turn's own, the
        last one for extra turns (R7)."""
        return min(state["turn"], TURNS) - 1

    def prizes(self, state: State) -> tuple[int, int]:
        """What this turn pays (R1): the highest red and the highest yellow value visible on
        the cave, every column up to the Sesame's. With the default cave (never decreasing)
        that is the current column's."""
        col = self.column(state)
        cave = state["opts"]["cave"]
        return max(cave["red"][:col + 1]), max(cave["yellow"][:col + 1])

    def _end_turn(self, state: State, events: list[Event], awards: list[dict[str, Any]],
                  called: bool) -> State:
        red, yellow = self.prizes(state)
        ali_word = state["ali_word"]
        record = {
            "turn": state["turn"], "extra_turn": state["extra"], "column": self.column(state) + 1,
            "red": red, "yellow": yellow, "called": called,
            "style": state["style"],
            "ali_baba": state["ali"] if called else None,
            "word": ali_word["word"] if called and ali_word else None,
            "value": ali_word["value"] if called and ali_word else None,
            "chief_thief": state["chief"],
            "bets": ([{"seat": s, "side": state["bets"][s]} for s in self._bettors(state)]
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
        totals = self.totals(new)
        events.append({"type": "turn_scored", "turn": state["turn"],
                       "extra_turn": state["extra"], "called": called,
                       "awards": [dict(a) for a in awards], "totals": totals})
        turn = state["turn"]
        if turn < FINAL_TURN:
            return self._start_turn(new, events, turn + 1, 0, list(range(state["n"])))
        top = max(totals)
        tied = [s for s, t in enumerate(totals) if t == top]
        if len(tied) > 1 and state["extra"] < MAX_EXTRA_TURNS:
            events.append({"type": "extra_turn", "extra_turn": state["extra"] + 1,
                           "participants": tied})
            return self._start_turn(new, events, turn + 1, state["extra"] + 1, tied)
        new["phase"] = FINISHED
        new["challenge"] = None
        events.append({"type": "game_finished", "winners": tied, "shared": len(tied) > 1,
                       "totals": totals})
        return new

    def totals(self, state: State) -> list[int]:
        out = [0] * state["n"]
        for record in state["history"]:
            for a in record["awards"]:
                out[a["seat"]] += a["points"]
        return out

    # ------------------------------------------------------------------ queries
    def is_finished(self, state: State) -> bool:
        return state["phase"] == FINISHED

    def _callers(self, state: State) -> list[int]:
        return [s for s in state["participants"]
                if s not in state["barred"] and s not in state["passed"]]

    def _bettors(self, state: State) -> list[int]:
        return [s for s in state["participants"] if s != state["ali"]]

    def situation(self, state: State, seat: int) -> dict[str, Any]:
        """The turn, the phase (a think window's attempt, the word in question) and what the
        seat must do."""
        ch = state["challenge"]
        return {"turn": state["turn"], "extra_turn": state["extra"], "phase": state["phase"],
                "attempt": state["attempt"], "word_id": ch["word_id"] if ch else None,
                "pending": self.pending(state).get(seat, [])}

    def pending(self, state: State) -> dict[int, list[str]]:
        phase = state["phase"]
        if phase == THINK:
            return {s: ["open_sesame", "no_call"] for s in self._callers(state)}
        if phase == SIDES:
            return {s: ["choose_side"] for s in state["participants"] if state["sides"][s] is None}
        if phase == CHALLENGE:
            ch = state["challenge"]
            return {s: ["challenge", "no_challenge"] for s in range(state["n"])
                    if s != ch["seat"] and s not in ch["answered"]}
        if phase == VOTE:
            return {s: ["vote"] for s, v in enumerate(state["challenge"]["votes"]) if v is None}
        if phase == BETS:
            return {s: ["bet"] for s in self._bettors(state) if state["bets"][s] is None}
        if phase == WINDOW:
            return {s: ["thief_word", "thief_pass"] for s in state["thieves"]
                    if not state["final"][s]}
        return {}

    def _one_coin(self, state: State) -> str:
        return state["coins"][0]

    def coin_table(self, state: State) -> dict[str, int]:
        """``{consonant: coins}`` of this turn's coin cards."""
        return {c: v for c, v in zip(state["coins"], W.COIN_VALUES)}

    def check_word(self, state: State, word: str) -> dict[str, Any]:
        """The engine's checks of ``word`` now (letters, forbidden, reuse, the themes)."""
        style = W.style_by_id()[state["style"]]
        result = W.check(word, self.coin_table(state), state["forbidden"], used=state["used"],
                         theme_check=style["check"], one_coin=self._one_coin(state))
        if result["valid"] and state["opts"].get("dictionary") and not lexicon.knows(word):
            result["valid"] = False
            result["reason"] = NOT_IN_DICTIONARY
        return result

    # ------------------------------------------------------------------ time
    def turn_key(self, state: State, seat: int) -> str | None:
        """The window ``seat`` is in: the same key for everyone in one window, so a seat that
        replaces its secret word keeps its deadline (R5) and all the window's deadlines fall
        together."""
        if seat not in self.pending(state):
            return None
        phase = state["phase"]
        if phase == THINK:
            return f"think:{state['turn']}:{state['attempt']}"
        if phase in (CHALLENGE, VOTE):
            return f"{phase}:{state['challenge']['word_id']}"
        return f"{phase}:{state['turn']}"

    def turn_seconds(self, state: State, seat: int, move_seconds: int | None) -> float | None:
        """Word Jam's windows are game options; the service's ``move_seconds`` is not used."""
        opts = state["opts"]
        phase = state["phase"]
        if phase == THINK:
            return opts["think_seconds"]
        if phase in (SIDES, BETS):
            return opts["bet_seconds"]
        if phase == WINDOW:
            return opts["thief_seconds"]
        if phase == CHALLENGE:
            return opts["challenge_seconds"]
        if phase == VOTE:
            return opts["vote_seconds"]
        return None

    # ------------------------------------------------------------------ moves

    def _sitting_out(self, state: State, seat: int) -> None:
        if seat not in state["participants"]:
            raise OutOfTurn("sitting_out", "this extra turn is played by the tied players only; "
                            "you still vote on challenges", participants=state["participants"])

    # -- turn 8: sides
    def _choose_side(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
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
        new["sides"] = _with(state["sides"], seat, side)
        events: list[Event] = [{"type": "side_chosen", "seat": seat,
                                "_private": {str(seat): {"side": side}}}]
        if all(new["sides"][s] is not None for s in new["participants"]):
            new["phase"] = THINK
            events.append({"type": "sides_chosen"})
        return new, events

    # -- Open Sesame
    def _open_sesame(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        word = action["word"]
        if state["phase"] != THINK:
            if state["ali"] is not None:
                raise OutOfTurn("sesame_already_called",
                                f"seat {state['ali']} called Open Sesame first this turn",
                                ali_baba=state["ali"])
            raise OutOfTurn("not_thinking_phase", "Open Sesame is called while the players think")
        self._sitting_out(state, seat)
        if seat in state["barred"]:
            raise IllegalMove("call_barred", "your call was voided this turn: you may not call "
                              "again until the next turn (R6)")
        if seat in state["passed"]:
            raise OutOfTurn("already_passed", "you said you have no call this time")
        result = self.check_word(state, word)
        if not result["valid"]:
            raise _word_refusal(result["reason"])
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
        new = self._open_challenge(new, events, entry, CALL, None)
        return new, events

    def _no_call(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] != THINK:
            if state["ali"] is not None:
                raise OutOfTurn("sesame_already_called",
                                f"seat {state['ali']} called Open Sesame first this turn",
                                ali_baba=state["ali"])
            raise OutOfTurn("not_thinking_phase", "there is no call to give up now")
        self._sitting_out(state, seat)
        if seat in state["passed"] or seat in state["barred"]:
            return state, []
        new = dict(state)
        new["passed"] = state["passed"] + [seat]
        events: list[Event] = [{"type": "no_call", "seat": seat}]
        if not self._callers(new):
            events.append({"type": "nobody_called", "turn": state["turn"]})
            new = self._end_turn(new, events, [], False)
        return new, events

    # -- challenges and votes (R2, R6)
    def _open_challenge(self, state: State, events: list[Event], entry: dict[str, Any],
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

    def _check_word_id(self, state: State, action: Action, required: bool) -> None:
        word_id = action.get("word_id")
        if word_id is None and not required:
            return
        if word_id != state["challenge"]["word_id"]:
            raise OutOfTurn("stale_word_id", f"word {word_id} is not the word in question now",
                            kind=STALE, word_id=state["challenge"]["word_id"])

    def _challenge(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] != CHALLENGE:
            raise OutOfTurn("no_challenge_window", "no word can be challenged now")
        self._check_word_id(state, action, True)
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

    def _no_challenge(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if state["phase"] != CHALLENGE:
            raise OutOfTurn("no_challenge_window", "no word can be challenged now")
        self._check_word_id(state, action, False)
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
            new = self._word_stands(new, events)
        return new, events

    def _vote(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        in_favour = action["in_favour"]
        if state["phase"] != VOTE:
            raise OutOfTurn("not_voting_phase", "there is no vote now")
        self._check_word_id(state, action, False)
        ch = state["challenge"]
        committed = ch["votes"][seat]
        if committed is not None:
            if committed == in_favour:
                return state, []
            raise OutOfTurn("vote_already_cast", "you have already voted on this word")
        votes = _with(ch["votes"], seat, in_favour)
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
                new = self._word_stands(new, events)
            else:
                new = self._word_voided(new, events)
        return new, events

    def _word_stands(self, state: State, events: list[Event]) -> State:
        ch = state["challenge"]
        new = dict(state)
        new["challenge"] = None
        if ch["about"] == CALL:
            if state["turn"] == FINAL_TURN:
                others = _clockwise_after(ch["seat"], state["n"])
                return self._open_window(new, events, others)
            new["phase"] = BETS
            events.append({"type": "betting_opened", "seats": self._bettors(new),
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
            return self._run_declarations(new, events)
        decls[-1] = {**decls[-1], "outcome": "chief"}
        new["declarations"] = decls
        new["chief"] = ch["seat"]
        new["queue"] = []
        events.append({"type": "chief_thief", "seat": ch["seat"], "word": ch["word"],
                       "value": ch["value"]})
        return self._score_turn(new, events)

    def _word_voided(self, state: State, events: list[Event]) -> State:
        ch = state["challenge"]
        new = dict(state)
        new["challenge"] = None
        if ch["about"] == CALL:
            events.append({"type": "call_voided", "seat": ch["seat"], "word_id": ch["word_id"]})
            new.update({"phase": THINK, "ali": None, "ali_word": None, "passed": [],
                        "barred": state["barred"] + [ch["seat"]],
                        "attempt": state["attempt"] + 1})
            if not self._callers(new):
                events.append({"type": "nobody_called", "turn": state["turn"]})
                return self._end_turn(new, events, [], False)
            return new
        decls = list(state["declarations"])
        decls[-1] = {**decls[-1], "outcome": "voided"}
        new["declarations"] = decls
        events.append({"type": "declaration_voided", "seat": ch["seat"],
                       "word_id": ch["word_id"]})
        return self._run_declarations(new, events)

    # -- bets (sealed, R12)
    def _bet(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        side = action["side"]
        if side not in SIDE_NAMES:
            raise IllegalMove("invalid_side", "side must be 'ali_baba' or 'thieves'")
        if state["phase"] != BETS:
            raise OutOfTurn("not_betting_phase", "bets are placed right after Alì Babà's word "
                            "stands")
        self._sitting_out(state, seat)
        if seat == state["ali"]:
            raise OutOfTurn("ali_baba_does_not_bet", "Alì Babà does not bet on himself")
        committed = state["bets"][seat]
        if committed is not None:
            if committed == side:
                return state, []
            raise OutOfTurn("bet_already_placed", "your bet is sealed; it cannot change")
        new = dict(state)
        new["bets"] = _with(state["bets"], seat, side)
        events: list[Event] = [{"type": "bet_placed", "seat": seat,
                                "_private": {str(seat): {"side": side}}}]
        bettors = self._bettors(new)
        if all(new["bets"][s] is not None for s in bettors):
            new["bets_revealed"] = True
            thieves = [s for s in bettors if new["bets"][s] == THIEVES]
            events.append({"type": "bets_revealed",
                           "bets": [{"seat": s, "side": new["bets"][s]} for s in bettors],
                           "thieves": thieves})
            if not thieves:
                return self._score_turn(new, events), events
            new = self._open_window(new, events, thieves)
        return new, events

    # -- the window (R5)
    def _open_window(self, state: State, events: list[Event], seats: list[int]) -> State:
        new = dict(state)
        new["phase"] = WINDOW
        new["thieves"] = list(seats)
        new["words"] = [None] * state["n"]
        new["final"] = [False] * state["n"]
        events.append({"type": "window_opened", "seats": list(seats),
                       "must_beat": None if state["turn"] == FINAL_TURN
                       else state["ali_word"]["value"]})
        return new

    def _window_seat(self, state: State, seat: int) -> None:
        if state["phase"] != WINDOW:
            raise OutOfTurn("no_word_window", "words are submitted in the window after the "
                            "bets (turn 8: after the call)")
        if seat not in state["thieves"]:
            raise OutOfTurn("not_in_window", "only the thieves submit words now (turn 8: "
                            "everyone but the caller)")

    def _thief_word(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        word, final = action["word"], action["final"]
        self._window_seat(state, seat)
        if state["final"][seat]:
            if state["words"][seat] == word and final:
                return state, []
            raise OutOfTurn("already_finished", "your word for this window is final")
        reason = W.letters_reason(word)
        if reason is not None:
            raise _word_refusal(reason)
        if state["words"][seat] == word and not final:
            return state, []
        new = dict(state)
        new["words"] = _with(state["words"], seat, word)
        new["final"] = _with(state["final"], seat, final)
        events: list[Event] = [{"type": "word_submitted", "seat": seat, "final": final,
                                "_private": {str(seat): {"word": word}}}]
        return self._maybe_close_window(new, events), events

    def _thief_pass(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        self._window_seat(state, seat)
        if state["final"][seat]:
            if state["words"][seat] is None:
                return state, []
            raise OutOfTurn("already_finished", "your word for this window is final")
        new = dict(state)
        new["words"] = _with(state["words"], seat, None)
        new["final"] = _with(state["final"], seat, True)
        events: list[Event] = [{"type": "window_passed", "seat": seat}]
        return self._maybe_close_window(new, events), events

    def _maybe_close_window(self, state: State, events: list[Event]) -> State:
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
            new["queue"] = _clockwise_after(caller, state["n"])
        else:
            new["queue"] = [s for s in _clockwise_after(state["ali"], state["n"])
                            if s in state["thieves"]]
            new["declarations"] = []
        return self._run_declarations(new, events)

    # -- declarations (engine-run, R10)
    def _run_declarations(self, state: State, events: list[Event]) -> State:
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
            result = self.check_word(new, word)
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
                return self._open_challenge(new, events, entry, DECLARATION, side)
        new["queue"] = []
        new["declarations"] = decls
        return self._score_turn(new, events)

    # -- scoring
    def _score_turn(self, state: State, events: list[Event]) -> State:
        red, yellow = self.prizes(state)
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
                       for s in self._bettors(state) if state["bets"][s] == ALI_BABA]
        awards.sort(key=lambda a: a["seat"])
        return self._end_turn(state, events, awards, True)

    # ------------------------------------------------------------------ legal moves
    def _valid_list_words(self, state: State) -> list[str]:
        """The lexicon's vocabulary words that pass the engine's checks now."""
        style = W.style_by_id()[state["style"]]
        return [w for w, _ in lexicon.playable(
            lexicon.vocabulary(), self.coin_table(state), state["forbidden"], state["used"],
            style["check"], self._one_coin(state))]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The legal moves of ``seat``. Words are an open set: the word moves listed here are
        the lexicon vocabulary's words that pass the engine's checks (any other word that passes
        them is legal too; with the ``dictionary`` option, any other word the lexicon knows)."""
        kinds = self.pending(state).get(seat)
        if not kinds:
            return []
        kind = kinds[0]
        if kind == "choose_side":
            return [{"type": "choose_side", "side": s} for s in SIDE_NAMES]
        if kind == "open_sesame":
            return ([{"type": "open_sesame", "word": w} for w in self._valid_list_words(state)]
                    + [{"type": "no_call"}])
        if kind == "challenge":
            wid = state["challenge"]["word_id"]
            return [{"type": "challenge", "word_id": wid}, {"type": "no_challenge", "word_id": wid}]
        if kind == "vote":
            wid = state["challenge"]["word_id"]
            return [{"type": "vote", "word_id": wid, "in_favour": b} for b in (True, False)]
        if kind == "bet":
            return [{"type": "bet", "side": s} for s in SIDE_NAMES]
        if kind == "thief_word":
            return ([{"type": "thief_word", "word": w, "final": f}
                     for w in self._valid_list_words(state) for f in (False, True)]
                    + [{"type": "thief_pass"}])
        raise AssertionError(kind)

    def _random_word(self, state: State, rng: random.Random) -> str | None:
        """A random word that passes the engine's checks: from the lexicon, or made up (not
        with the ``dictionary`` option, which refuses words the lexicon does not know)."""
        if rng.random() < 0.5 or state["opts"].get("dictionary"):
            valid = self._valid_list_words(state)
            if valid:
                return rng.choice(valid)
            if state["opts"].get("dictionary"):
                return None
        style = W.style_by_id()[state["style"]]
        allowed = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c != state["forbidden"]]
        for _ in range(20):
            length = 8 if style["check"] == "eight_letters" else rng.randint(3, 12)
            letters = [rng.choice(allowed) for _ in range(length)]
            if style["check"] == "first_letter":
                letters[0] = self._one_coin(state)
            word = "".join(letters)
            if self.check_word(state, word)["valid"]:
                return word
        return None

    def sample_action(self, state: State, seat: int, rng: random.Random) -> Action:
        kinds = self.pending(state).get(seat)
        if not kinds:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        kind = kinds[0]
        if kind == "open_sesame":
            word = self._random_word(state, rng) if rng.random() < 0.6 else None
            return {"type": "open_sesame", "word": word} if word else {"type": "no_call"}
        if kind == "challenge":
            wid = state["challenge"]["word_id"]
            return {"type": "challenge" if rng.random() < 0.1 else "no_challenge",
                    "word_id": wid}
        if kind == "vote":
            return {"type": "vote", "word_id": state["challenge"]["word_id"],
                    "in_favour": rng.random() < 0.6}
        if kind == "thief_word":
            r = rng.random()
            if r < 0.2:
                return {"type": "thief_pass"}
            if r < 0.3:  # anything well formed, possibly invalid by the rules (it is legal)
                word = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
                               for _ in range(rng.randint(3, 10)))
            else:
                word = self._random_word(state, rng) or "A"
            return {"type": "thief_word", "word": word, "final": rng.random() < 0.7}
        return rng.choice(self.legal_actions(state, seat))

    def action_space(self, state: State, seat: int) -> list[dict[str, Any]]:
        kinds = self.pending(state).get(seat)
        if not kinds:
            return []
        kind = kinds[0]
        if kind == "choose_side":
            return [{"type": "choose_side", "sides": list(SIDE_NAMES)}]
        if kind == "open_sesame":
            style = W.style_by_id()[state["style"]]
            return [{"type": "open_sesame", "coins": self._coin_list(state),
                     "forbidden": state["forbidden"], "style": state["style"],
                     "check": style["check"],
                     "first_letter": self._one_coin(state) if style["check"] == "first_letter"
                     else None,
                     "max_length": W.MAX_WORD_CHARS},
                    {"type": "no_call"}]
        if kind == "challenge":
            ch = state["challenge"]
            return [{"type": "challenge", "word_id": ch["word_id"], "word": ch["word"],
                     "value": ch["value"], "author": ch["seat"], "about": ch["about"]},
                    {"type": "no_challenge", "word_id": ch["word_id"]}]
        if kind == "vote":
            ch = state["challenge"]
            return [{"type": "vote", "word_id": ch["word_id"], "word": ch["word"],
                     "author": ch["seat"], "in_favour": [True, False]}]
        if kind == "bet":
            return [{"type": "bet", "sides": list(SIDE_NAMES),
                     "word": state["ali_word"]["word"], "value": state["ali_word"]["value"]}]
        if kind == "thief_word":
            final_turn = state["turn"] == FINAL_TURN
            return [{"type": "thief_word",
                     "must_beat": None if final_turn else state["ali_word"]["value"],
                     "current": state["words"][seat], "final": [False, True],
                     "max_length": W.MAX_WORD_CHARS},
                    {"type": "thief_pass"}]
        raise AssertionError(kind)

    #: bots think like people by default: each call, bet, word and vote comes after a secret
    #: delay of up to 20 seconds (at most 80% of the window); the game option bot_seconds
    #: changes it (0: at once)
    bot_seconds = 20
    # leave_bot stays the base's: a player who leaves a game in play keeps the seat playing
    # its defaults (no call, trust Alì Babà, no challenge, votes against): it stops competing
    # for the prizes, where a bot would go on taking them from the players still at the table

    def rematch_order(self, players: int) -> list[int]:
        """The same seats: the dealer has no role (R8) and nobody plays first."""
        return list(range(players))

    def lobby_options(self, state: State, options: dict[str, Any]) -> dict[str, Any]:
        opts = state["opts"]
        out = super().lobby_options(state, options)
        out.update({k: opts[k] for k in SECONDS_OPTIONS})
        out["no_visible_objects"] = opts["no_visible_objects"]
        out["dictionary"] = opts.get("dictionary", False)
        return out


    def default_action(self, state: State, seat: int) -> Action:
        """When a window's time runs out: sides and bets trust Alì Babà (R12), a thinker makes
        no call (R4), a challenge window lets the word stand, a missing vote is against (R2), a
        seat in the word window keeps its latest word (final) or passes (R5)."""
        kinds = self.pending(state).get(seat)
        if not kinds:
            raise OutOfTurn("not_your_turn", f"seat {seat} has nothing to do now")
        kind = kinds[0]
        if kind == "choose_side":
            return {"type": "choose_side", "side": ALI_BABA}
        if kind == "open_sesame":
            return {"type": "no_call"}
        if kind == "challenge":
            return {"type": "no_challenge", "word_id": state["challenge"]["word_id"]}
        if kind == "vote":
            return {"type": "vote", "word_id": state["challenge"]["word_id"], "in_favour": False}
        if kind == "bet":
            return {"type": "bet", "side": ALI_BABA}
        if kind == "thief_word":
            word = state["words"][seat]
            if word is None:
                return {"type": "thief_pass"}
            return {"type": "thief_word", "word": word, "final": True}
        raise AssertionError(kind)

    # ------------------------------------------------------------------ scoring
    def score(self, state: State) -> dict[str, Any]:
        if state["phase"] != FINISHED:
            raise OutOfTurn("game_not_finished", "the game is not finished yet")
        n = state["n"]
        players = []
        for seat in range(n):
            lines = {f"turn_{t}": 0 for t in range(1, TURNS + 1)}
            lines.update({f"extra_{e}": 0 for e in range(1, MAX_EXTRA_TURNS + 1)})
            red = yellow = 0
            for record in state["history"]:
                key = (f"extra_{record['extra_turn']}" if record["extra_turn"]
                       else f"turn_{record['turn']}")
                for a in record["awards"]:
                    if a["seat"] == seat:
                        lines[key] += a["points"]
                        if a["colour"] == RED:
                            red += 1
                        else:
                            yellow += 1
            players.append({"seat": seat, "lines": lines, "total": sum(lines.values()),
                            "red": red, "yellow": yellow})
        best = max(p["total"] for p in players)
        winners = [p["seat"] for p in players if p["total"] == best]
        return {"players": players, "winners": winners, "shared": len(winners) > 1,
                "extra_turns": max((r["extra_turn"] for r in state["history"]), default=0)}

    # ------------------------------------------------------------------ replays
    def public_moves(self, players: int, options: dict[str, Any] | None, seed: int,
                     moves: list[tuple[int, Action]]) -> list[Action]:
        """The moves as a finished game's replay shows them. A thief's word that was never
        declared (replaced in the window, withdrawn, after the Chief Thief, or not counted in
        turn 8) and a turn-8 side that was never revealed (nobody called) stay secret: the word
        becomes that turn's forbidden consonant (so it is refused at any declaration, as a word
        that was never said), the side ``ali_baba``. Neither changes the game: the rules forget
        both when the turn ends."""
        state, _ = self.new_game(players, options, seed)
        out: list[Action] = []
        hidden: list[tuple[int, int, int, str]] = []  # (move index, turn record, seat, word)
        sides: list[tuple[int, int]] = []  # (move index, turn record) of choose_side moves
        for i, (seat, move) in enumerate(moves):
            out.append(move)
            if move.get("type") == "thief_word":
                hidden.append((i, len(state["history"]), seat, state["forbidden"]))
            elif move.get("type") == "choose_side":
                sides.append((i, len(state["history"])))
            state, _ = self.apply(state, seat, move)
        history = state["history"]
        for i, record, seat, forbidden in hidden:
            said = {d["word"] for d in history[record]["declarations"]
                    if d["seat"] == seat and d["word"] is not None}
            if moves[i][1].get("word") not in said:
                out[i] = {**moves[i][1], "word": forbidden}
        for i, record in sides:
            if history[record]["sides"] is None:
                out[i] = {**moves[i][1], "side": ALI_BABA}
        return out

    # ------------------------------------------------------------------ views
    def _coin_list(self, state: State) -> list[dict[str, Any]]:
        return [{"coins": v, "consonant": c} for c, v in zip(state["coins"], W.COIN_VALUES)]

    @staticmethod
    def _style_view(style_id: str) -> dict[str, Any]:
        s = W.style_by_id()[style_id]
        return {"id": s["id"], "name": s["name"], "name_it": s["name_it"],
                "description": s["description"], "dictionary": s["dictionary"],
                "check": s["check"], "proper_nouns": s["proper_nouns"]}

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        n = state["n"]
        phase = state["phase"]
        final_turn = state["turn"] == FINAL_TURN
        cave = state["opts"]["cave"]
        col = self.column(state)
        totals = self.totals(state)
        ch = state["challenge"]
        bettors = self._bettors(state) if phase == BETS else []
        window = state["thieves"] or []
        players = []
        for s in range(n):
            players.append({
                "seat": s,
                "total": totals[s],
                "sitting_out": s not in state["participants"],
                "no_call": s in state["passed"] if phase == THINK else False,
                "has_side": (state["sides"][s] is not None
                             if final_turn and phase == SIDES else None),
                "has_bet": state["bets"][s] is not None if s in bettors else None,
                "word_final": state["final"][s] if phase == WINDOW and s in window else None,
                "has_voted": ch["votes"][s] is not None if phase == VOTE else None,
            })
        challenge = None
        if ch is not None:
            challenge = {
                "word_id": ch["word_id"], "seat": ch["seat"], "word": ch["word"],
                "value": ch["value"], "about": ch["about"], "side": ch["side"],
                "stage": "vote" if phase == VOTE else "window",
                "challenger": ch["challenger"],
                "answered": list(ch["answered"]),
                "votes_cast": sum(1 for v in ch["votes"] if v is not None),
            }
        ali_word = state["ali_word"]
        out: dict[str, Any] = {
            "turn": state["turn"],
            "extra_turn": state["extra"],
            "final_turn": final_turn,
            "phase": phase,
            "participants": list(state["participants"]),
            "coins": self._coin_list(state),
            "forbidden": state["forbidden"],
            "style": self._style_view(state["style"]),
            "styles_left": len(state["styles"]),
            "styles_used": list(state["styles_used"]),
            "cave": {
                "column": col + 1,
                "columns": [{"column": i + 1, "red": cave["red"][i], "yellow": cave["yellow"][i]}
                            for i in range(col + 1)],
                "total_columns": TURNS,
            },
            "ali_baba": state["ali"],
            "ali_word": None if ali_word is None else {
                "word_id": ali_word["word_id"], "word": ali_word["word"],
                "value": ali_word["value"]},
            "barred": list(state["barred"]),
            "bets": ([{"seat": s, "side": state["bets"][s]} for s in self._bettors(state)]
                     if state["bets_revealed"] else None),
            "sides": ([{"seat": s, "side": state["sides"][s]} for s in state["participants"]]
                      if state["sides_revealed"] else None),
            "window": list(window) if state["thieves"] is not None else None,
            "must_beat": (ali_word["value"] if state["thieves"] is not None and not final_turn
                          and ali_word else None),
            "declarations": [dict(d) for d in state["declarations"]],
            "chief_thief": state["chief"],
            "best": None if state["best"] is None else {
                side: (None if b is None else dict(b)) for side, b in state["best"].items()},
            "challenge": challenge,
            "last_vote": None if state["last_vote"] is None else {
                **state["last_vote"], "votes": [dict(v) for v in state["last_vote"]["votes"]]},
            "used_words": list(state["used"]),
            "history": [{**r, "awards": [dict(a) for a in r["awards"]],
                         "declarations": [dict(d) for d in r["declarations"]],
                         "bets": None if r["bets"] is None else [dict(b) for b in r["bets"]],
                         "sides": None if r["sides"] is None else [dict(b) for b in r["sides"]]}
                        for r in state["history"]],
            "players": players,
            "pending": [{"seat": s, "kinds": k} for s, k in sorted(self.pending(state).items())],
        }
        if viewer is not None and 0 <= viewer < n:
            word = state["words"][viewer] if phase == WINDOW else None
            out["you"] = {
                "seat": viewer,
                "bet": state["bets"][viewer] if phase == BETS else None,
                "side": state["sides"][viewer] if final_turn else None,
                "word": word,
                "word_final": state["final"][viewer] if phase == WINDOW else None,
                "word_check": None if word is None else {
                    k: v for k, v in self.check_word(state, word).items()
                    if k in ("value", "valid", "reason")},
                "vote": ch["votes"][viewer] if phase == VOTE else None,
            }
        if phase == FINISHED:
            out["score"] = self.score(state)
        return out


_HANDLERS = {
    "choose_side": WordJam._choose_side,
    "open_sesame": WordJam._open_sesame,
    "no_call": WordJam._no_call,
    "challenge": WordJam._challenge,
    "no_challenge": WordJam._no_challenge,
    "vote": WordJam._vote,
    "bet": WordJam._bet,
    "thief_word": WordJam._thief_word,
    "thief_pass": WordJam._thief_pass,
}
WordJam.handlers = _HANDLERS


__all__ = ["WordJam", "PHASES", "OUTCOMES"]
