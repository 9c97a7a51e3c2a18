"""The SDK README's bots, one per ruleset, run as written against the live service, and pass
mypy --strict with the SDK's own types (the package's py.typed marker makes them visible)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[2] / "clients" / "python-sdk" / "README.md").read_text(
    encoding="utf-8")
BOTS = dict(re.findall(r"<!-- bot: (\w+) -->\n```python\n(.*?)```", README, re.S))


def test_the_readme_has_a_bot_for_every_ruleset():
    assert set(BOTS) == {"turandot", "wordjam", "muzicando"}
    for code in BOTS.values():
        assert len(code.strip().splitlines()) <= 50
        assert "def choose(self, view: dict[str, Any], actions: dict[str, Any])" in code


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_each_readme_bot_plays_a_whole_game(ruleset, live_server, tmp_path):
    script = tmp_path / f"{ruleset}_bot.py"
    script.write_text(BOTS[ruleset], encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "IMPRESARIO_URL": live_server})
    assert done.returncode == 0, done.stderr
    assert "winners:" in done.stdout


def test_the_readme_bots_pass_mypy_strict(tmp_path):
    """One mypy run: the three bots pass; a wrong call beside them is caught, so the SDK's
    types really reach the checker (without py.typed they would not: the import is refused)."""
    for ruleset, code in BOTS.items():
        (tmp_path / f"{ruleset}_bot.py").write_text(code, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(
        "from impresario import GreedyBot, Client\n"
        "GreedyBot(1)\n"
        "Client('http://127.0.0.1:8000').create_game(players='four')\n")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           *sorted(str(p.name) for p in tmp_path.glob("*.py"))],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert errors and all(line.startswith("wrong.py:") for line in errors), done.stdout
    assert any("Too many positional arguments" in line for line in errors)
    assert any('incompatible type "str"; expected "int"' in line for line in errors)
