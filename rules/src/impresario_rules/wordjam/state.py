"""Word Jam's state: its turns and phases, and what can be read off a state (the cave's
column and prizes, the totals, who may call or bet now, who must act, the coin table, the
engine's checks of a word).

A state is a plain JSON dict (see ``WordJam.new_game``); nothing here changes one.
"""

from __future__ import annotations

from typing import Any

from ..base import OVER, SETUP, IllegalMove, State
from . import lexicon
from . import words as W

TURNS = 8
FINAL_TURN = 8
MAX_EXTRA_TURNS = 3
VOTES_TO_STAND = 3

SIDES, THINK, CHALLENGE, VOTE, BETS, WINDOW = (
    "sides", "think", "challenge", "vote", "bets", "window")
PHASES = (SETUP, SIDES, THINK, CHALLENGE, VOTE, BETS, WINDOW, OVER)
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


#: the reason a word fails the game option ``dictionary``
NOT_IN_DICTIONARY = "not_in_dictionary"
_REASON_TEXT = {NOT_IN_DICTIONARY: "the word is not in the lexicon this game plays with (option "
                                   "dictionary)"}


def clockwise_after(seat: int, n: int) -> list[int]:
    """Every other seat clockwise starting at ``seat``'s left."""
    return [(seat + i) % n for i in range(1, n)]


def word_refusal(reason: str) -> IllegalMove:
    """The refusal of a word for ``reason`` (``word_<reason>``)."""
    text = _REASON_TEXT.get(reason) or W.REASON_TEXT[reason]
    return IllegalMove(f"word_{reason}", text, reason=reason)


def replaced(lst: list, index: int, value: Any) -> list:
    """A copy of ``lst`` with ``value`` at ``index``."""
    out = list(lst)
    out[index] = value
    return out


def column(state: State) -> int:
    """The cave column (0-based) the Sesame has uncovered this turn: the turn's own, the
    last one for extra turns (R7)."""
    return min(state["turn"], TURNS) - 1


def prizes(state: State) -> tuple[int, int]:
    """What this turn pays (R1): the highest red and the highest yellow value visible on
    the cave, every column up to the Sesame's. With the default cave (never decreasing)
    that is the current column's."""
    col = column(state)
    cave = state["opts"]["cave"]
    return max(cave["red"][:col + 1]), max(cave["yellow"][:col + 1])


def totals(state: State) -> list[int]:
    out = [0] * state["n"]
    for record in state["history"]:
        for a in record["awards"]:
            out[a["seat"]] += a["points"]
    return out


def callers(state: State) -> list[int]:
    return [s for s in state["participants"]
            if s not in state["barred"] and s not in state["passed"]]


def bettors(state: State) -> list[int]:
    return [s for s in state["participants"] if s != state["ali"]]


def pending(state: State) -> dict[int, list[str]]:
    phase = state["phase"]
    if phase == THINK:
        return {s: ["open_sesame", "no_call"] for s in callers(state)}
    if phase == SIDES:
        return {s: ["choose_side"] for s in state["participants"] if state["sides"][s] is None}
    if phase == CHALLENGE:
        ch = state["challenge"]
        return {s: ["challenge", "no_challenge"] for s in range(state["n"])
                if s != ch["seat"] and s not in ch["answered"]}
    if phase == VOTE:
        return {s: ["vote"] for s, v in enumerate(state["challenge"]["votes"]) if v is None}
    if phase == BETS:
        return {s: ["bet"] for s in bettors(state) if state["bets"][s] is None}
    if phase == WINDOW:
        return {s: ["thief_word", "thief_pass"] for s in state["thieves"]
                if not state["final"][s]}
    return {}


def one_coin(state: State) -> str:
    return state["coins"][0]


def coin_table(state: State) -> dict[str, int]:
    """``{consonant: coins}`` of this turn's coin cards."""
    return {c: v for c, v in zip(state["coins"], W.COIN_VALUES)}


def check_word(state: State, word: str) -> dict[str, Any]:
    """The engine's checks of ``word`` now (letters, forbidden, reuse, the themes)."""
    style = W.style_by_id()[state["style"]]
    result = W.check(word, coin_table(state), state["forbidden"], used=state["used"],
                     theme_check=style["check"], one_coin=one_coin(state))
    if result["valid"] and state["opts"].get("dictionary") and not lexicon.knows(word):
        result["valid"] = False
        result["reason"] = NOT_IN_DICTIONARY
    return result


def coin_list(state: State) -> list[dict[str, Any]]:
    return [{"coins": v, "consonant": c} for c, v in zip(state["coins"], W.COIN_VALUES)]


def style_view(style_id: str) -> dict[str, Any]:
    s = W.style_by_id()[style_id]
    return {"id": s["id"], "name": s["name"], "name_it": s["name_it"],
            "description": s["description"], "dictionary": s["dictionary"],
            "check": s["check"], "proper_nouns": s["proper_nouns"]}
