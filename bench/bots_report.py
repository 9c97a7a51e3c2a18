"""The bots' strength, measured: the tournaments of ``docs/bots.md``, played in process with the
SDK's tournament (seats rotated, so no seat order favours a bot), written as Markdown.

``make bots-report`` runs it (``BOT_GAMES`` per tournament, default 1,000) and writes
``docs/bots-report.md`` and its plot ``docs/bots-report.png``; each tournament's games are also written as they end to
``build/bots/<name>.csv``, so stopping it loses none of them.

``--only NAME...`` plays those tournaments alone and puts their sections into the report that
is there already, in place of their old ones (each says the command that played it), leaving
the others, the header and the plot as the last whole run made them: a whole run takes over
an hour.

A seat named ``ismcts`` is OpenSpiel's ISMCTS (``impresario_rules.openspiel.ISMCTS``, the
``openspiel`` extra) with the report's think budget (200 ms without one): an outside measure
of the ``hard`` bots.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from impresario.cli import GameLog, Progress
from impresario.tournament import run_tournament

#: name, ruleset, bots (one per seat), options, the bot under test, what it must reach
TOURNAMENTS: list[tuple[str, str, list[str], dict[str, Any] | None, str, str]] = [
    ("turandot-hard-vs-medium", "turandot", ["hard", "medium", "medium", "medium"], None,
     "hard", "wins >= 45 % (fair share 25 %)"),
    ("turandot-medium-vs-easy", "turandot", ["medium", "easy", "easy", "easy"], None,
     "medium", "wins >= 45 % (fair share 25 %)"),
    ("muzicando-medium-pair-vs-easy-pair", "muzicando", ["medium", "easy", "medium", "easy"],
     {"hands": 4}, "medium", "the pair wins the match more often than not"),
    ("muzicando-hard-pair-vs-medium-pair", "muzicando", ["hard", "medium", "hard", "medium"],
     {"hands": 4}, "hard", "the pair wins >= 60 % of the matches"),
    ("wordjam-medium-vs-easy", "wordjam", ["medium", "easy", "easy", "easy", "easy", "easy"],
     None, "medium", "first place more often than its fair share (1/6)"),
    ("wordjam-hard-vs-medium", "wordjam", ["hard"] + ["medium"] * 5, None, "hard",
     "first place >= 2x its fair share (1/6)"),
    # an outside measure: OpenSpiel's ISMCTS at the same think budget (docs/openspiel.md)
    ("turandot-hard-vs-ismcts", "turandot", ["ismcts", "hard", "hard", "hard"], None, "hard",
     "none, an outside measure (which is stronger, and by how much)"),
    ("wordjam-hard-vs-ismcts", "wordjam", ["ismcts"] + ["hard"] * 5, None, "hard",
     "none, an outside measure (which is stronger, and by how much)"),
    ("muzicando-hard-pair-vs-ismcts-pair", "muzicando", ["ismcts", "hard", "ismcts", "hard"],
     {"hands": 4}, "hard", "none, an outside measure (which is stronger, and by how much)"),
]

#: tournaments played with fewer games than asked: a match of Muzicando's hard bots plays out
#: every candidate to the end of the hand and takes 20 to 50 s here (docs/bots.md); ISMCTS
#: spends its whole budget at every decision through OpenSpiel's Python API (a Turandot game
#: some 3 s, a Word Jam game 10 to 15 s, a Muzicando match 20 s and more), so its tournaments
#: stop at a few dozen to a few hundred games
MAX_GAMES = {"muzicando-hard-pair-vs-medium-pair": 100, "turandot-hard-vs-ismcts": 200,
             "wordjam-hard-vs-ismcts": 100, "muzicando-hard-pair-vs-ismcts-pair": 50}


def seat(entry: str) -> Any:
    """A tournament seat: a level by name, or ``ismcts``, OpenSpiel's ISMCTS, which the
    tournament gives the report's think budget (its own 200 ms without one: it has no other
    bound)."""
    if entry != "ismcts":
        return entry
    from impresario_rules.openspiel import ISMCTS
    return ISMCTS


def stronger(rows: list[dict[str, Any]]) -> str:
    """Which of a tournament's two bots is the stronger by its figures: the one whose 95 %
    interval of the win rate per seat lies wholly above the other's."""
    if len(rows) != 2:
        return ""
    (a, b) = sorted(rows, key=lambda r: -r["win_rate"])
    figures = (f"`{a['bot']}` won {a['win_rate']:.1%} of its seats ({a['ci95'][0]:.1%} – "
               f"{a['ci95'][1]:.1%}), `{b['bot']}` {b['win_rate']:.1%} ({b['ci95'][0]:.1%} – "
               f"{b['ci95'][1]:.1%}); fair share {a['fair_share']:.1%}")
    if a["ci95"][0] > b["ci95"][1]:
        return f"Stronger here: `{a['bot']}`. {figures}: the intervals do not overlap."
    return f"Neither is clearly stronger here: {figures}, and the intervals overlap."


def run(games: int, think_ms: float | None, out_dir: Path, only: list[str] | None,
        tables: list[tuple[str, list[dict[str, Any]]]] | None = None, jobs: int = 1,
        sections: dict[str, str] | None = None, note: str = "") -> str:
    """The tournaments' report in Markdown; each one's rows by bot go to ``tables`` too, and
    each one's section (from its heading, ``note`` after the first line) to ``sections``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    lines = [
        "# The bots' strength, measured",
        "",
        f"Produced by `make bots-report BOT_GAMES={games}` ({datetime.date.today().isoformat()}, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {jobs} games at a time; think budget "
        f"{f'{think_ms:g} ms of CPU' if think_ms else 'none: the worlds the bot samples'}). "
        "Every tournament rotates the seats (game g moves every bot g seats on); a shared "
        "victory counts as a fraction of a win. Rating: Elo over every pair of seats of every "
        "game. Think times: CPU milliseconds per decision.",
        "",
    ]
    asked = games
    for name, ruleset, bots, options, under_test, target in TOURNAMENTS:
        if only and name not in only:
            continue
        games = min(asked, MAX_GAMES.get(name, asked))
        log = GameLog(str(out_dir / f"{name}.csv"))
        progress = Progress(games, name)
        try:
            result = run_tournament(None, [seat(b) for b in bots], games, seed=1,
                                    ruleset=ruleset, options=options, in_process=True,
                                    think_ms=think_ms, rotate=True, on_result=log.write,
                                    progress=progress, jobs=jobs)
        finally:
            progress.close()
            log.close()
        first = len(lines)
        lines += [f"## {name}", "",
                  f"{ruleset}, {len(bots)} seats: {', '.join(bots)}; {games} games in "
                  f"{result['seconds']:.0f} s. Target for `{under_test}`: {target}.", ""]
        if note:
            lines += [note, ""]
        lines += ["| bot | seats played | win rate | fair share | 95 % interval | rating "
                  "| decisions | think p50 | think p95 | think max |",
                  "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
        for b in result["by_bot"]:
            lo, hi = b["ci95"]
            lines.append(f"| {b['bot']} | {b['games']} | {b['win_rate']:.1%} | "
                         f"{b['fair_share']:.1%} | {lo:.1%} – {hi:.1%} | {b['rating']:.0f} | "
                         f"{b['decisions']} | {b['think_ms_p50']:.1f} | "
                         f"{b['think_ms_p95']:.1f} | {b['think_ms_max']:.1f} |")
        if tables is not None:
            tables.append((name, list(result["by_bot"])))
        won = sum(1 for r in result["results"] if r["winners"] and all(
            p["bot"] == under_test for p in r["players"] if p["seat"] in r["winners"]))
        lines += ["", f"Games whose winners were all `{under_test}`: {won} of {games} "
                  f"({won / games:.1%}).", ""]
        if "ismcts" in bots:
            lines += [stronger(list(result["by_bot"])), ""]
        if sections is not None:
            sections[name] = "\n".join(lines[first:]) + "\n"
    lines.append(f"All tournaments took {time.perf_counter() - started:.0f} s.")
    return "\n".join(lines) + "\n"


def merge(report: str, sections: dict[str, str]) -> str:
    """``report`` (a whole run's) with ``sections`` in place of its sections of the same
    tournaments, or, for a tournament it has none of, put where ``TOURNAMENTS`` orders it."""
    parts = re.split(r"(?m)^(?=## )", report)
    head, rest = parts[0], parts[1:]
    tail = ""
    if rest and "\nAll tournaments took" in rest[-1]:
        at = rest[-1].index("\nAll tournaments took") + 1
        rest[-1], tail = rest[-1][:at], rest[-1][at:]
    elif not rest and "All tournaments took" in head:
        at = head.index("All tournaments took")
        head, tail = head[:at], head[at:]
    old = {p.split("\n", 1)[0][3:].strip(): p for p in rest}
    order = [t[0] for t in TOURNAMENTS]
    names = [n for n in order if n in old or n in sections] + \
        [n for n in old if n not in order]
    return head + "".join(sections.get(n, old.get(n, "")) for n in names) + tail


def plot(tables: list[tuple[str, list[dict[str, Any]]]], path: Path) -> bool:
    """Each tournament's win rates (95 % intervals, the fair share dashed) and ratings, as a
    PNG. Needs matplotlib (``make bots-report`` installs it); False without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(len(tables), 2, figsize=(10, 2.4 * len(tables)), squeeze=False)
    for row, (name, bots) in zip(axes, tables):
        labels = [b["bot"] for b in bots]
        rates = [b["win_rate"] * 100 for b in bots]
        low = [max(0.0, b["win_rate"] - b["ci95"][0]) * 100 for b in bots]
        high = [max(0.0, b["ci95"][1] - b["win_rate"]) * 100 for b in bots]
        row[0].barh(labels, rates, xerr=[low, high], color="#4a6fa5", capsize=3)
        row[0].axvline(bots[0]["fair_share"] * 100, color="#b04a3f", linestyle="--",
                       label="fair share")
        row[0].set_xlim(0, 100)
        row[0].set_title(f"{name}: win rate, % (95 % interval)", fontsize=9)
        row[0].legend(fontsize=7, loc="lower right")
        row[1].barh(labels, [b["rating"] for b in bots], color="#6a9f58")
        row[1].set_xlim(800, 2200)
        row[1].axvline(1500, color="grey", linewidth=0.8)
        row[1].set_title(f"{name}: Elo rating", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--think-ms", type=float, default=None)
    parser.add_argument("--out", default="docs/bots-report.md")
    parser.add_argument("--only", nargs="*", default=None,
                        help="tournament names: play these alone and put their sections into "
                             "the report there is (--out), in place of their old ones")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="games played at a time, each in its own process (default: every "
                             "core; a think budget is CPU time, so the games do not slow each "
                             "other's bots)")
    args = parser.parse_args()
    unknown = set(args.only or ()) - {t[0] for t in TOURNAMENTS}
    if unknown:
        parser.error(f"no tournament {', '.join(sorted(unknown))}; tournaments: "
                     f"{', '.join(t[0] for t in TOURNAMENTS)}")
    out = Path(args.out)
    tables: list[tuple[str, list[dict[str, Any]]]] = []
    if args.only and out.exists():
        command = "python bench/bots_report.py " + " ".join(
            [f"--games {args.games}"]
            + ([f"--think-ms {args.think_ms:g}"] if args.think_ms is not None else [])
            + [f"--jobs {args.jobs}", "--only", *map(shlex.quote, args.only)])
        note = (f"Played on its own ({datetime.date.today().isoformat()}, "
                f"{platform.python_implementation()} {platform.python_version()}, "
                f"{os.cpu_count()} CPUs, {args.jobs} games at a time; think budget "
                f"{f'{args.think_ms:g} ms of CPU' if args.think_ms else 'none'}) by "
                f"`{command}`, and merged into this report.")
        sections: dict[str, str] = {}
        run(args.games, args.think_ms, Path("build/bots"), args.only, tables, args.jobs,
            sections, note)
        report = merge(out.read_text(encoding="utf-8"), sections)
        out.write_text(report, encoding="utf-8")
        sys.stdout.write("".join(sections.values()))
        return
    report = run(args.games, args.think_ms, Path("build/bots"), args.only, tables, args.jobs)
    png = out.with_suffix(".png")
    if plot(tables, png):
        report += f"\n![Win rates and ratings]({png.name})\n"
    else:
        print("matplotlib is not installed: no plot (make bots-report installs it)",
              file=sys.stderr)
    out.write_text(report, encoding="utf-8")
    sys.stdout.write(report)


if __name__ == "__main__":
    main()
