"""What a viewer sees of a Word Jam game (``WordJam.view``): the turn, the cards, the cave,
the words and bets revealed, the history, every player's public facts, and for a seat its own
secret bet, side, word and vote."""

from __future__ import annotations

from typing import Any

from ..base import State, Viewer
from .themes import language_of
from .scoring import score
from .state import (BETS, FINAL_TURN, OVER, SIDES, THINK, TURNS, VOTE, WINDOW, bettors,
                    check_word, coin_list, column, pending, style_view, totals)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    n = state["n"]
    phase = state["phase"]
    final_turn = state["turn"] == FINAL_TURN
    cave = state["opts"]["cave"]
    col = column(state)
    points = totals(state)
    ch = state["challenge"]
    betting = bettors(state) if phase == BETS else []
    window = state["thieves"] or []
    players = []
    for s in range(n):
        players.append({
            "seat": s,
            "total": points[s],
            "sitting_out": s not in state["participants"],
            "no_call": s in state["passed"] if phase == THINK else False,
            "has_side": (state["sides"][s] is not None
                         if final_turn and phase == SIDES else None),
            "has_bet": state["bets"][s] is not None if s in betting else None,
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
        "coins": coin_list(state),
        "forbidden": state["forbidden"],
        "style": None if state["style"] is None else style_view(state["style"]),
        "language": language_of(state["opts"]),
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
        "bets": ([{"seat": s, "side": state["bets"][s]} for s in bettors(state)]
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
        "pending": [{"seat": s, "kinds": k} for s, k in sorted(pending(state).items())],
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
                k: v for k, v in check_word(state, word).items()
                if k in ("value", "valid", "reason")},
            "vote": ch["votes"][viewer] if phase == VOTE else None,
        }
    if phase == OVER:
        out["score"] = score(state)
    return out
