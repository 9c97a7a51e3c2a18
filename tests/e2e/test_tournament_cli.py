"""impresario tournament: in process it plays exactly the games it plays over HTTP; --jobs plays
them in parallel with the same result; --out writes JSON or CSV; the progress shows an ETA."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest

from impresario import Client, run_tournament

CLI = [sys.executable, "-m", "impresario.cli"]


@pytest.mark.parametrize("ruleset, bots, games, options", [
    ("turandot", ["greedy", "random", "random"], 4, None),
    ("muzicando", ["greedy", "random", "greedy", "random"], 1, {"hands": 4}),
    ("wordjam", ["wordsmith"] * 5, 1, None),
])
def test_in_process_plays_the_games_http_plays(live_server, ruleset, bots, games, options):
    over_http = run_tournament(Client(live_server), bots, games, seed=3, ruleset=ruleset,
                               options=options)
    here = run_tournament(None, bots, games, seed=3, ruleset=ruleset, options=options,
                          in_process=True)
    assert here["standings"] == over_http["standings"]

    def played(result):  # what the games were, not how long the bots took to think
        return [(r["seed"], r["winners"],
                 [{k: v for k, v in p.items() if k != "think_ms"} for p in r["players"]])
                for r in result["results"]]

    assert played(here) == played(over_http)
    assert all(len(p["think_ms"]) > 0 for r in here["results"] for p in r["players"])
    assert all(r["id"] for r in over_http["results"]) and not any(r["id"] for r in here["results"])


def test_jobs_give_the_same_result_and_out_writes_json_and_csv(live_server, tmp_path):
    def tournament(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, "tournament", "--url", live_server, "--games", "6",
                               "--seed", "4", "--bots", "greedy,random,random", *argv],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "COLUMNS": "200"})

    one = tournament("--out", str(tmp_path / "one.json"))
    two = tournament("--jobs", "2", "--out", str(tmp_path / "two.csv"))
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    assert "ETA" in one.stderr                        # plain progress: standard error is a pipe
    assert "2 job(s)" in two.stdout
    table = lambda out: [line for line in out.splitlines() if line[:1].isdigit() and "  " in line]
    assert table(one.stdout)[1:] == table(two.stdout)[1:]  # the same standings
    written = json.loads((tmp_path / "one.json").read_text())
    assert written["games"] == 6 and len(written["results"]) == 6
    assert [s["bot"] for s in written["standings"]] == ["greedy", "random", "random"]
    rows = list(csv.DictReader((tmp_path / "two.csv").open()))
    assert len(rows) == 6 * 3
    assert {r["bot"] for r in rows} == {"greedy", "random"}
    wins = sum(float(r["won"]) for r in rows)
    assert wins == pytest.approx(6)                   # one victory per game, shared or not
    for game in range(6):
        totals_csv = [int(r["total"]) for r in rows if int(r["game"]) == game]
        assert totals_csv == [p["total"] for p in written["results"][game]["players"]]


def test_out_refuses_other_formats(live_server):
    done = subprocess.run([*CLI, "tournament", "--url", live_server, "--out", "x.txt"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and ".json or .csv" in done.stderr
