"""impresario tournament --ray: the games as Ray tasks, on Ray started here with 2 CPUs, give the
standings and games --jobs 1 gives for the same seed, over HTTP and in process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from impresario import Client, run_tournament

CLI = [sys.executable, "-m", "impresario.cli"]
BOTS = ["medium", "easy", "easy", "random"]


def played(result):
    return [(r["game"], r["seed"], r["winners"],
             [(p["bot"], p["total"], p["lines"]) for p in r["players"]])
            for r in result["results"]]


def test_ray_plays_the_games_jobs_1_plays(live_server, tmp_path, monkeypatch):
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine
    alone = run_tournament(None, BOTS, 8, seed=41, in_process=True)
    done = subprocess.run([*CLI, "tournament", "--in-process", "--ray", "--jobs", "2",
                           "--games", "8", "--seed", "41", "--bots", ",".join(BOTS),
                           "--quiet", "--out", str(tmp_path / "ray.json")],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "8 games in process, on Ray (local)" in done.stdout
    on_ray = json.loads((tmp_path / "ray.json").read_text())
    assert on_ray["standings"] == alone["standings"]
    assert played(on_ray) == played(alone)

    # over HTTP too: each task's process makes its own client of the engine
    streamed = []
    there = run_tournament(Client(live_server), BOTS, 4, seed=42, ray="local", jobs=2,
                           on_result=streamed.append)
    here = run_tournament(Client(live_server), BOTS, 4, seed=42)
    assert there["standings"] == here["standings"] and played(there) == played(here)
    assert sorted(r["game"] for r in streamed) == [0, 1, 2, 3]  # each game as it ended
    assert all(r["id"] for r in there["results"])


def test_ray_without_ray_installed_says_how_to_install_it(tmp_path):
    blocker = tmp_path / "ray.py"
    blocker.write_text("raise ImportError('No module named ray')\n")
    done = subprocess.run([*CLI, "tournament", "--in-process", "--ray", "--games", "1",
                           "--quiet"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}"
                               + os.environ.get("PYTHONPATH", "")})
    assert done.returncode == 2
    assert "pip install 'impresario[ray]'" in done.stderr
