"""Markdown tables of a bench run: ``python bench/report.py [bench/results.json]`` (for
docs/performance.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def render(r: dict) -> str:
    m = r["machine"]
    out = [f"Machine: {m['nproc']} CPUs ({m['cpu_model']}), {m['memory_gib']} GiB, Python "
           f"{m['python']}, {m['platform']}; commit {r.get('git', {}).get('commit', '?')}; "
           f"load average at the end {r.get('loadavg_at_end')}; run took {r['elapsed_s']:.0f} s.",
           "", "### Rules core (in process)", "",
           "| players | games/s | actions/s | games per CPU-second | actions per CPU-second | moves per game |",
           "|---:|---:|---:|---:|---:|---:|"]
    for x in r["rules_core"]:
        out.append(f"| {x['players']} | {x['games_per_s']:.0f} | {x['actions_per_s']:.0f} | "
                   f"{x['games_per_cpu_s']:.0f} | {x['actions_per_cpu_s']:.0f} | "
                   f"{x['moves_per_game']:.1f} |")
    beside = r.get("rules_core_beside")
    if beside:
        out += ["", "The same loop through the other games:", "",
                "| game | players | games/s | actions/s | games per CPU-second | "
                "actions per CPU-second | moves per game |",
                "|---|---:|---:|---:|---:|---:|---:|"]
        for x in beside:
            out.append(f"| {x['ruleset']} | {x['players']} | {x['games_per_s']:.1f} | "
                       f"{x['actions_per_s']:.0f} | {x['games_per_cpu_s']:.1f} | "
                       f"{x['actions_per_cpu_s']:.0f} | {x['moves_per_game']:.1f} |")
    marks = r.get("rules_core_marks")
    if marks:
        ratios = r["verdict"]["rules_4p_games_per_s"]  # run.mark_ratios
        out += ["", "Marks measured in the same minutes (bench/rules_core.py): OpenSpiel's "
                "goofspiel through pyspiel (its C++ core), and the contract's floor (a game of "
                "Turandot's length that does only what the contract asks of any ruleset, with "
                "no rule):", "",
                "| mark | players | games per CPU-second | Turandot 4 players ÷ mark | "
                "the target ÷ mark |", "|---|---:|---:|---:|---:|"]
        for m in marks:
            if "games_per_cpu_s" not in m:
                out.append(f"| {m['mark']} | {m['players']} | {m['error']} | - | - |")
                continue
            out.append(f"| {m['mark']} | {m['players']} | {m['games_per_cpu_s']:.0f} | "
                       f"{ratios['over_' + m['mark']]:.2f} | "
                       f"{ratios['target_over_' + m['mark']]:.2f} |")
    out += ["", "### HTTP through gunicorn as shipped (4 workers x 64 threads, embedded Redis)", "",
            "| endpoint | clients | requests/s | bids/s | p50 ms | p99 ms | server CPU ms/req | "
            "Redis CPU ms/req | generator CPU ms/req | errors |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for x in r["http"] + r["generator_ceiling"]:
        def g(k, fmt="{:.2f}"):
            v = x.get(k)
            return "-" if v is None else fmt.format(v)
        out.append(f"| {x['mode']} | {x['clients']} | {x['rps']:.0f} | {g('bid_rps', '{:.0f}')} | "
                   f"{x['p50_ms']:.1f} | {x['p99_ms']:.1f} | {g('server_cpu_ms_per_req')} | "
                   f"{g('redis_cpu_ms_per_req')} | {g('generator_cpu_ms_per_req')} | "
                   f"{x.get('errors', 0)} |")
    out += ["", "| clients | engine moves/s ÷ floor | engine bids/s ÷ floor | engine p99 ÷ floor p99 | "
            "CPU-cost ratio (floor ms/req ÷ engine ms/req) |", "|---:|---:|---:|---:|---:|"]
    for c, x in r["engine_vs_floor"].items():
        out.append(f"| {c} | {x['moves_rps_ratio']:.2f} | {x['bid_rps_ratio']:.2f} | "
                   f"{x['p99_ratio']:.2f} | {x['cpu_capacity_ratio']:.2f} |")
    ins = r.get("instructions", {})
    if "engine" in ins:
        out += ["", f"### Instructions per request in process (valgrind, {ins['requests']} requests "
                "each; no gunicorn, Redis not counted)", "",
                "| request | instructions | ÷ engine move |", "|---|---:|---:|"]
        for mode in ("engine", "engine-no-key", "engine-no-log", "floor"):
            out.append(f"| {mode} | {ins[mode] / 1e6:.2f} M | {ins[mode] / ins['engine']:.2f} |")
    kinds = r.get("instructions_by_type", {})
    if "kinds" in kinds:
        out += ["", f"### Instructions per move, by kind (valgrind, {kinds['requests']} moves of "
                "each kind with an Idempotency-Key; only those requests counted)", "",
                "| move | instructions | floor ÷ move |", "|---|---:|---:|"]
        for kind, x in kinds["kinds"].items():
            out.append(f"| {kind} | {x['instructions'] / 1e6:.2f} M | "
                       f"{x['floor_over_engine']:.2f} |")
        out.append(f"| floor request | {kinds['floor'] / 1e6:.2f} M | 1.00 |")
    elif "error" in ins:
        out += ["", f"(instruction counts unavailable: {ins['error']})"]
    out += ["", "### Storage per finished game (MEMORY USAGE, every POST with an Idempotency-Key)", "",
            "Kept: what a finished game holds for its lifetime (its archived hash). At the finish: "
            "that plus the idempotency records of its moves (kept for FINISHED_IDEMPOTENCY_SECONDS, "
            "default 10 minutes) and of its creation (IDEMPOTENCY_TTL_SECONDS, default a day).", "",
            "| players | kept B | at the finish B | game hash B | events stream B | "
            "idempotency records B (count) | create record B | doc JSON B (stored) | "
            "events (stored B) |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for x in r["storage"]:
        out.append(f"| {x['players']} | {x['total_without_idempotency']:.0f} | {x['total']:.0f} | "
                   f"{x['game_hash']:.0f} | {x['events']:.0f} | {x['idempotency']:.0f} "
                   f"({x['idempotency_records']:.0f}) | {x['create_idempotency']:.0f} | "
                   f"{x['doc_json_bytes']:.0f} ({x.get('doc_stored_bytes', 0):.0f}) | "
                   f"{x['event_count']:.0f} ({x.get('events_stored_bytes', 0):.0f}) |")
    if "lobby" in r:
        out += ["", "### The list of games (in process, through the Flask app)", "",
                "| query | games in Redis | p50 ms | p99 ms | games shown | games read |",
                "|---|---:|---:|---:|---:|---:|"]
        for size, sz in r["lobby"]["sizes"].items():
            for label, q in sz["queries"].items():
                if "page" in q:
                    label = f"page {q['page']} of open games, limit 20"
                out.append(f"| {label} | {int(size):,} | {q['p50_ms']:.2f} | {q['p99_ms']:.2f} "
                           f"| {q['games']} | {q['games_read']} |")
        out += [""] + [f"- {int(size):,} games: the lists take {sz['lobby_bytes_per_game']:.0f} B "
                       f"per game, the summary field {sz['summary_field_bytes_mean']:.0f} B"
                       for size, sz in r["lobby"]["sizes"].items()]
    s = r["scale"]
    out += ["", "### Scale (16 clients)", "",
            f"- 100 live games: {s['bid_rps_100']:.0f} bids/s "
            f"(windows: {', '.join(f'{v:.0f}' for v in s['live_100']['rps_per_window'])} req/s), "
            f"p99 {s['live_100']['p99_ms']:.1f} ms, server CPU {s['live_100']['server_cpu_ms_per_req']:.2f} ms/req",
            f"- 10,000 live games: {s['bid_rps_10000']:.0f} bids/s "
            f"(windows: {', '.join(f'{v:.0f}' for v in s['live_10000']['rps_per_window'])} req/s), "
            f"p99 {s['live_10000']['p99_ms']:.1f} ms, server CPU {s['live_10000']['server_cpu_ms_per_req']:.2f} ms/req",
            f"- ratio {s['ratio']:.2f} (CPU-cost ratio {s['cpu_capacity_ratio']:.2f})",
            "", "### SDK", "",
            f"- run_tournament, bots greedy/random/random/random, one client: "
            f"{r['sdk_tournament']['games_per_s']:.2f} games/s ({r['sdk_tournament']['games']} games)"]
    if "bot_tables" in r:
        b = r["bot_tables"]
        out += ["", "### A human's move beside searching bots", "",
                "| table | human moves | p50 ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|",
                *(f"| {name} | {t['human_moves']} | {t['p50_ms']:.1f} | {t['p99_ms']:.1f} | "
                  f"{t['max_ms']:.1f} |" for name, t in (
                      ("four humans", b["four_humans"]),
                      ("one human, three hard bots", b["three_hard_bots"]))),
                "", f"p99 with three hard bots ÷ without: {b['p99_ratio']}"]
    return "\n".join(out)


def render_profile(p: dict, top: int = 15) -> str:
    if "error" in p:
        return f"(profile unavailable: {p['error']})"
    out = []
    if p.get("groups"):
        out += ["| where (inclusive) | share |", "|---|---:|"]
        out += [f"| {k} | {pct(v)} |" for k, v in p["groups"].items()]
        out.append("")
    out += ["| function (self) | share |", "|---|---:|"]
    out += [f"| `{x['function']}` | {pct(x['share'])} |" for x in p["self"][:top]]
    return "\n".join(out)


if __name__ == "__main__":
    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("results.json"))
    res = json.loads(path.read_text())
    print(render(res))
    for name, prof in res.get("profiles", {}).items():
        print(f"\n#### profile: {name} ({prof.get('samples', '')} samples)\n")
        print(render_profile(prof.get("profile", prof)))
