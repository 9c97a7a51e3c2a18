"""Word Jam's final score: per player the points of each turn and extra turn, the red and
yellow scores won, and the winners (a tie after the extra turns is a shared victory, R7)."""

from __future__ import annotations

from typing import Any

from ..base import OutOfTurn, State
from .state import OVER, MAX_EXTRA_TURNS, RED, TURNS


def score(state: State) -> dict[str, Any]:
    if state["phase"] != OVER:
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
