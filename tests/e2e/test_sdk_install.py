"""``pip install ./clients/python-sdk`` alone gives a working ``impresario`` command."""

from __future__ import annotations

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sdk_installs_alone_and_its_command_runs(tmp_path, live_server):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(ROOT / "clients" / "python-sdk")],
                   check=True, timeout=300)
    # the engine is not in that environment: the SDK stands alone
    missing = subprocess.run([str(py), "-c", "import impresario_engine"], capture_output=True)
    assert missing.returncode != 0
    out = subprocess.run([str(env_dir / "bin" / "impresario"), "--url", live_server, "tournament",
                          "--games", "2", "--bots", "greedy,random", "--quiet"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "win rate" in out.stdout and "95% CI" in out.stdout
    # --in-process needs the engine, which this environment lacks: a clear message, no traceback
    alone = subprocess.run([str(env_dir / "bin" / "impresario"), "tournament", "--in-process",
                            "--games", "1", "--quiet"], capture_output=True, text=True)
    assert alone.returncode == 1 and "Traceback" not in alone.stderr
    assert "pip install ./services/engine" in alone.stderr
    helped = subprocess.run([str(env_dir / "bin" / "impresario"), "--help"], capture_output=True,
                            text=True)
    assert "play" in helped.stdout and "tournament" in helped.stdout
