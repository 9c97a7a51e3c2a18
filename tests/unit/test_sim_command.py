"""The simulation command: ``python -m impresario_engine sim --games N [--players] [--seed]``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from impresario_engine.__main__ import build_parser, main
from impresario_engine.sim import format_report, simulate


def test_sim_command_prints_the_report(capsys):
    assert main(["sim", "--games", "12", "--players", "2,3,5", "--seed", "7", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "12 random games, seeds 7..18, players 2,3,5" in out
    assert re.search(r"[\d.]+ games/s, \d+ actions/s", out)
    for n in (2, 3, 5):
        assert f"{n} players (4 games" in out
    assert "4 players" not in out
    assert out.count("dummy win rate") == 1
    for line in ("stars", "stage_elements", "favourite_roles", "wrong_sex", "director",
                 "puccini", "total"):
        assert re.search(rf"^\s+{line}\s+-?\d+\.\d\d$", out, re.M)
    assert re.search(r"^\s+seat 4:\s+[\d.]+%$", out, re.M)


def test_sim_json_report_is_consistent(capsys):
    assert main(["sim", "--games", "20", "--seed", "3", "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 20 and report["players"] == [2, 3, 4, 5]
    assert report["actions"] > 20 * 7
    by = report["by_players"]
    assert sorted(by) == ["2", "3", "4", "5"]
    for n, entry in by.items():
        assert entry["games"] == 5
        assert len(entry["win_rate_by_seat"]) == int(n)
        total = sum(entry["win_rate_by_seat"]) + entry.get("dummy_win_rate", 0)
        assert total == pytest.approx(1.0)  # every game has a winner (or the dummy wins)
        lines = entry["average_lines"]
        assert lines["total"] == pytest.approx(sum(v for k, v in lines.items() if k != "total"))
        if n != "2":
            assert "dummy_win_rate" not in entry and lines["puccini"] == 0
        else:
            assert lines["puccini"] == pytest.approx(-0.5)  # one of the two players, every game


def test_sim_is_reproducible():
    a = simulate(8, (2, 4), seed=11, progress=False)
    b = simulate(8, (2, 4), seed=11, progress=False)
    for r in (a, b):
        r.pop("seconds"), r.pop("games_per_second"), r.pop("actions_per_second")
    assert a == b
    assert format_report(simulate(3, (3,), seed=1, progress=False))


@pytest.mark.parametrize("argv", [
    ["sim"], ["sim", "--games", "0"], ["sim", "--games", "x"],
    ["sim", "--games", "3", "--players", "1,2"], ["sim", "--games", "3", "--players", "6"],
    ["sim", "--games", "3", "--players", "a"], [], ["nope"],
])
def test_sim_bad_arguments_exit_with_usage(argv, capsys):
    with pytest.raises(SystemExit) as info:
        build_parser().parse_args(argv)
    assert info.value.code == 2


def test_python_dash_m_runs_the_sim_with_a_progress_bar_on_stderr():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "impresario_engine", "sim", "--games", "6", "--players", "2,3"],
        capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "6 random games" in proc.stdout and "games/s" in proc.stdout
    assert "2 players (3 games" in proc.stdout and "3 players (3 games" in proc.stdout
    assert "game" in proc.stderr  # tqdm's bar
    assert "games/s" not in proc.stderr
