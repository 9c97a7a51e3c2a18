"""``pip install ./rules ./clients/python-sdk`` (the SDK and the rules it plays with, nothing of
the engine) gives a working ``impresario`` command, over HTTP and in process."""

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
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(ROOT / "rules"),
                    str(ROOT / "clients" / "python-sdk")], check=True, timeout=300)
    # neither the engine nor what it runs on is in that environment: the SDK stands alone
    for package in ("impresario_engine", "flask", "redis", "marshmallow"):
        missing = subprocess.run([str(py), "-c", f"import {package}"], capture_output=True)
        assert missing.returncode != 0, package
    out = subprocess.run([str(env_dir / "bin" / "impresario"), "--url", live_server, "tournament",
                          "--games", "2", "--bots", "greedy,random", "--quiet"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "win rate" in out.stdout and "95% CI" in out.stdout
    # --in-process plays on the rules package alone: no server, no engine
    alone = subprocess.run([str(env_dir / "bin" / "impresario"), "tournament", "--in-process",
                            "--games", "3", "--bots", "greedy,random,random"],
                           capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, alone.stderr
    assert "in process" in alone.stdout and "greedy" in alone.stdout
    helped = subprocess.run([str(env_dir / "bin" / "impresario"), "--help"], capture_output=True,
                            text=True)
    assert "play" in helped.stdout and "tournament" in helped.stdout
    # the catalogues are package data; without Babel (the cli extra) the command says so and
    # speaks English
    shipped = subprocess.run([str(py), "-c", "from impresario.i18n import catalogue_path; "
                              "print(all(catalogue_path(lang).is_file() "
                              "for lang in ('it', 'de', 'fr')))"],
                             capture_output=True, text=True)
    assert shipped.stdout.strip() == "True", shipped.stderr
    english = subprocess.run([str(env_dir / "bin" / "impresario"), "lobby", "--lang", "it",
                              "--url", live_server, "--status", "finished", "--no-bots",
                              "--ruleset", "muzicando"],
                             capture_output=True, text=True, timeout=60)
    assert english.returncode == 0, english.stderr
    assert "pip install 'impresario[cli]'" in english.stderr
    assert english.stdout.startswith(("No finished games of muzicando.", "GAME "))
