"""The end of ``make bench`` (bench/run.py): the verdict against the targets, and the table."""

from __future__ import annotations

from common import TARGETS


def verdict(r: dict) -> dict:
    four = next(x for x in r["rules_core"] if x["players"] == 4)
    # what a finished game keeps for its lifetime; its idempotency records (and the create
    # record) expire after their windows (FINISHED_IDEMPOTENCY_SECONDS, IDEMPOTENCY_TTL_SECONDS)
    worst_bytes = max(x["total_without_idempotency"] for x in r["storage"])
    ev = r["engine_vs_floor"]
    return {
        "engine_floor_rps_16_64": {"value": [ev["16"]["moves_rps_ratio"], ev["64"]["moves_rps_ratio"]],
                                   "met": min(ev["16"]["moves_rps_ratio"],
                                              ev["64"]["moves_rps_ratio"]) >= 0.8},
        "engine_floor_p99_16_64": {"value": [ev["16"]["p99_ratio"], ev["64"]["p99_ratio"]],
                                   "met": max(ev["16"]["p99_ratio"], ev["64"]["p99_ratio"]) <= 2.0},
        "rules_4p_games_per_s": {"value": four["games_per_s"],
                                 "per_cpu_second": four["games_per_cpu_s"],
                                 **mark_ratios(four, r.get("rules_core_marks", [])),
                                 "met": four["games_per_cpu_s"]
                                 >= TARGETS["rules_4p_games_per_cpu_s"]},
        "bytes_per_finished_game": {"value": worst_bytes, "met": worst_bytes <= 4096},
        "scale_ratio": {"value": r["scale"]["ratio"], "met": r["scale"]["ratio"] >= 0.9},
    }


def mark_ratios(four: dict, marks: list[dict]) -> dict[str, float]:
    """Turandot's 4-player games per CPU-second ÷ each mark measured in the run (``over_<mark>``),
    and the target's own ratio to each (``target_over_<mark>``)."""
    out = {}
    for m in marks:
        if "games_per_cpu_s" in m:
            out[f"over_{m['mark']}"] = round(four["games_per_cpu_s"] / m["games_per_cpu_s"], 3)
            out[f"target_over_{m['mark']}"] = round(
                TARGETS["rules_4p_games_per_cpu_s"] / m["games_per_cpu_s"], 3)
    return out


def table(r: dict) -> str:
    lines = ["", "== Impresario bench ==",
             f"machine: {r['machine']['nproc']} CPUs, {r['machine']['cpu_model']}, "
             f"{r['machine']['memory_gib']} GiB, Python {r['machine']['python']}", "",
             "rules core (in process)      games/s   actions/s   games/CPU-s  actions/CPU-s"]
    for x in r["rules_core"]:
        lines.append(f"  {x['players']} players               {x['games_per_s']:9.0f} "
                     f"{x['actions_per_s']:11.0f}{x['games_per_cpu_s']:14.0f}"
                     f"{x['actions_per_cpu_s']:15.0f}")
    for x in r.get("rules_core_beside", []):
        lines.append(f"  {x['ruleset']} {x['players']} players{'':<{14 - len(x['ruleset'])}}"
                     f"{x['games_per_s']:9.1f}{x['actions_per_s']:11.0f}"
                     f"{x['games_per_cpu_s']:14.1f}{x['actions_per_cpu_s']:15.0f}")
    ratios = r["verdict"]["rules_4p_games_per_s"]
    for m in r.get("rules_core_marks", []):
        if "games_per_cpu_s" in m:
            name = f"mark: {m['mark']} {m['players']}p"
            lines.append(f"  {name:<27}{m['games_per_s']:9.0f}{m['actions_per_s']:11.0f}"
                         f"{m['games_per_cpu_s']:14.0f}{m['actions_per_cpu_s']:15.0f}"
                         f"   (Turandot 4p / this: {ratios['over_' + m['mark']]:.2f})")
        else:
            lines.append(f"  mark: {m['mark']}: {m['error']}")
    lines += ["", "HTTP (gunicorn as shipped)   clients  req/s  bids/s  p50 ms  p99 ms  "
              "srv CPU ms/req  redis  gen"]
    for x in r["http"] + r["generator_ceiling"]:
        lines.append(f"  {x['mode']:<27}{x['clients']:>6}{x['rps']:>7.0f}"
                     f"{x.get('bid_rps', float('nan')):>8.0f}{x['p50_ms']:>8.1f}{x['p99_ms']:>8.1f}"
                     f"{x.get('server_cpu_ms_per_req', float('nan')):>16.2f}"
                     f"{x.get('redis_cpu_ms_per_req', float('nan')):>7.2f}"
                     f"{x.get('generator_cpu_ms_per_req', float('nan')):>6.2f}")
    lines += ["", "engine / floor               clients  moves/s ratio  bids/s ratio  p99 ratio"
              "  CPU-cost ratio (floor/engine)"]
    for c, x in r["engine_vs_floor"].items():
        lines.append(f"  {'':<27}{c:>6}{x['moves_rps_ratio']:>14.2f}{x['bid_rps_ratio']:>14.2f}"
                     f"{x['p99_ratio']:>11.2f}{x['cpu_capacity_ratio']:>14.2f}")
    ins = r.get("instructions", {})
    if "engine" in ins:
        lines += ["", "instructions per request, in process (valgrind): engine "
                  f"{ins['engine'] / 1e6:.2f} M (no Idempotency-Key {ins['engine-no-key'] / 1e6:.2f} M, "
                  f"no request log {ins['engine-no-log'] / 1e6:.2f} M), floor {ins['floor'] / 1e6:.2f} M "
                  f"-> floor/engine {ins['floor_over_engine']:.2f}"]
    kinds = r.get("instructions_by_type", {})
    if "kinds" in kinds:
        lines += ["", f"instructions per move, by kind (valgrind, {kinds['requests']} each, with "
                  f"an Idempotency-Key; floor {kinds['floor'] / 1e6:.2f} M per request)"]
        for kind, x in kinds["kinds"].items():
            lines.append(f"  {kind:<27}{x['instructions'] / 1e6:>8.2f} M   floor/engine "
                         f"{x['floor_over_engine']:.2f}")
    if "features" in r:
        import features
        lines += features.table(r["features"])
    if "players" in r:
        import players
        lines += players.table(r["players"])
    if "push" in r:
        import push
        lines += push.table(r["push"])
    lines += ["", "storage per finished game    players  at finish B  kept B   hash  "
              "events  idem records"]
    for x in r["storage"]:
        lines.append(f"  {'':<27}{x['players']:>6}{x['total']:>13.0f}"
                     f"{x['total_without_idempotency']:>8.0f}{x['game_hash']:>7.0f}"
                     f"{x['events']:>8.0f}{x['idempotency']:>14.0f}")
    if "lobby" in r:
        import lobby
        lines += lobby.table(r["lobby"])
    s = r["scale"]
    lines += ["", f"scale: {s['bid_rps_100']:.0f} bids/s with 100 live games, "
              f"{s['bid_rps_10000']:.0f} with 10,000 -> ratio {s['ratio']:.2f} "
              f"(CPU-cost ratio {s['cpu_capacity_ratio']:.2f})",
              f"SDK tournament: {r['sdk_tournament']['games_per_s']:.2f} games/s "
              f"(4 bots over HTTP, one client)"]
    if "bot_tables" in r:
        b = r["bot_tables"]
        lines += [f"human moves: p99 {b['four_humans']['p99_ms']:.1f} ms at tables of four "
                  f"humans, {b['three_hard_bots']['p99_ms']:.1f} ms beside three hard bots "
                  f"(ratio {b['p99_ratio']})"]
    lines += ["", "targets:"]
    for k, v in r["verdict"].items():
        val = v["value"]
        val = ", ".join(f"{x:.2f}" for x in val) if isinstance(val, list) else f"{val:.2f}"
        lines.append(f"  {k:<28} {val:>16}  {'met' if v['met'] else 'NOT MET'}")
    return "\n".join(lines)
