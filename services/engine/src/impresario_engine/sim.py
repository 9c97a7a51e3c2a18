"""Simulation: many seeded random Turandot games played in process, and a report.

Game ``i`` is played with ``players[i % len(players)]`` seats and seed ``seed + i`` (every seat
choosing uniformly among its legal moves, seat 0 the first maestro), so a run is reproducible
from its arguments. The report gives the speed of the rules engine (games and actions per second),
the win rate of each seat per player count (a shared victory counts fractionally: 1/k to each of
the k winners), the average score line by line, and with 2 players how often the dummy wins.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Iterable, TextIO

from impresario_rules.play import play_random_game
from impresario_rules.turandot import TURANDOT
from impresario_rules.turandot.scoring import LINES

PLAYER_COUNTS = (2, 3, 4, 5)


def simulate(games: int, players: Iterable[int] = PLAYER_COUNTS, seed: int = 0,
             progress: bool = True, file: TextIO | None = None) -> dict[str, Any]:
    """Play ``games`` random games and return the report as plain data."""
    counts = tuple(players)
    if games < 1:
        raise ValueError("games must be at least 1")
    if not counts or any(not TURANDOT.min_players <= n <= TURANDOT.max_players for n in counts):
        raise ValueError(f"player counts must be from {TURANDOT.min_players} to "
                         f"{TURANDOT.max_players}")
    per: dict[int, dict[str, Any]] = {}
    for n in counts:
        per.setdefault(n, {"games": 0, "wins": [0.0] * n, "dummy_wins": 0, "shared": 0,
                           "lines": {k: 0 for k in (*LINES, "total")}, "scores": 0})
    bar = _progress(games, progress, file)
    actions = 0
    start = time.perf_counter()
    try:
        for i in range(games):
            n = counts[i % len(counts)]
            state, moves, _ = play_random_game(TURANDOT, n, seed + i)
            actions += len(moves)
            result = TURANDOT.score(state)
            acc = per[n]
            acc["games"] += 1
            winners = result["winners"]
            if result["dummy_wins"]:
                acc["dummy_wins"] += 1
            for w in winners:
                acc["wins"][w] += 1 / len(winners)
            if len(winners) > 1:
                acc["shared"] += 1
            for p in result["players"]:
                for k, v in p["lines"].items():
                    acc["lines"][k] += v
                acc["lines"]["total"] += p["total"]
                acc["scores"] += 1
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - start
    by_players = {}
    for n, acc in sorted(per.items()):
        g = acc["games"]
        if not g:
            continue
        entry: dict[str, Any] = {
            "games": g,
            "win_rate_by_seat": [w / g for w in acc["wins"]],
            "shared_victories": acc["shared"],
            "average_lines": {k: v / acc["scores"] for k, v in acc["lines"].items()},
        }
        if n == 2:
            entry["dummy_win_rate"] = acc["dummy_wins"] / g
        by_players[n] = entry
    return {
        "games": games,
        "players": list(counts),
        "seed": seed,
        "actions": actions,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds else float("inf"),
        "actions_per_second": actions / seconds if seconds else float("inf"),
        "by_players": by_players,
    }


def _progress(total: int, enabled: bool, file: TextIO | None):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=file or sys.stderr, desc="turandot",
                dynamic_ncols=True, leave=False)


def format_report(report: dict[str, Any]) -> str:
    """The report as text, one section per player count."""
    lines = [
        f"Turandot simulation: {report['games']} random games, seeds {report['seed']}.."
        f"{report['seed'] + report['games'] - 1}, players {','.join(map(str, report['players']))}",
        f"{report['games']} games, {report['actions']} actions in {report['seconds']:.2f} s: "
        f"{report['games_per_second']:.1f} games/s, {report['actions_per_second']:.0f} actions/s",
    ]
    width = max(len(k) for k in (*LINES, "total"))
    for n, entry in report["by_players"].items():
        lines.append("")
        lines.append(f"{n} players ({entry['games']} games, "
                     f"{entry['shared_victories']} shared victories)")
        lines.append("  win rate by seat (shared wins counted fractionally):")
        for seat, rate in enumerate(entry["win_rate_by_seat"]):
            lines.append(f"    seat {seat}: {100 * rate:5.1f}%")
        if "dummy_win_rate" in entry:
            lines.append(f"  dummy win rate: {100 * entry['dummy_win_rate']:5.1f}%")
        lines.append("  average score by line:")
        for key, value in entry["average_lines"].items():
            lines.append(f"    {key:<{width}} {value:7.2f}")
    return "\n".join(lines)
