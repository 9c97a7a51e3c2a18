"""The SDK README's bots, one per ruleset, run as written against the live service, and pass
mypy --strict with the SDK's own types (the package's py.typed marker makes them visible)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from suite_helpers import in_own_thread

README = (Path(__file__).resolve().parents[2] / "clients" / "python-sdk" / "README.md").read_text(
    encoding="utf-8")
BOTS = dict(re.findall(r"<!-- bot: (\w+) -->\n```python\n(.*?)```", README, re.S))


def test_the_readme_has_a_bot_for_every_ruleset():
    assert set(BOTS) == {"turandot", "wordjam", "muzicando"}
    for code in BOTS.values():
        assert len(code.strip().splitlines()) <= 50
        assert re.search(r"def choose\(self, view: models\.(Turandot|WordJam|Muzicando)Game, "
                         r"actions: models\.Actions\s*\) -> models\.\w+Move:", code)
        assert "type: ignore" not in code and "cast(" not in code and "Any]" not in code


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_each_readme_bot_plays_a_whole_game(ruleset, live_server, tmp_path):
    script = tmp_path / f"{ruleset}_bot.py"
    script.write_text(BOTS[ruleset], encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "IMPRESARIO_URL": live_server})
    assert done.returncode == 0, done.stderr
    assert "winners:" in done.stdout


def test_the_readme_bots_pass_mypy_strict(tmp_path, mypy_strict):
    """One mypy run: the three bots pass; a wrong call beside them is caught, so the SDK's
    types really reach the checker (without py.typed they would not: the import is refused)."""
    for ruleset, code in BOTS.items():
        (tmp_path / f"{ruleset}_bot.py").write_text(code, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(
        "from impresario import GreedyBot, Client\n"
        "GreedyBot(1)\n"
        "Client('http://127.0.0.1:8000').create_game(players='four')\n")
    done = mypy_strict(*sorted(str(p.name) for p in tmp_path.glob("*.py")), cwd=tmp_path)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert errors and all(line.startswith("wrong.py:") for line in errors), done.stdout
    assert any("Too many positional arguments" in line for line in errors)
    assert any('incompatible type "str"; expected "int"' in line for line in errors)


def examples() -> list[tuple[int, str]]:
    """Every other Python block of the README, with its line: the walk-through a reader
    follows, top to bottom."""
    out = []
    for m in re.finditer(r"(<!-- bot: \w+ -->\n)?```python\n(.*?)```", README, re.S):
        if not m.group(1):
            out.append((README.count("\n", 0, m.start()) + 1, m.group(2)))
    return out


def test_the_readme_examples_run_in_order(live_server, capsys):
    """The README's examples, run as written in one session against the service (gunicorn,
    the reaper), its address for `make run`'s: each block goes on from what the ones before
    it made, as a reader's session does. The sample answer of `/actions` is checked against
    its model. Names a block uses without making them are given first: `move`, the move the
    error-handling example sends (to the quick match's seat, whose game is over by then: the
    example's `except Conflict` takes the refusal)."""
    from impresario._generated.operations import as_actions

    session: dict[str, object] = {"__name__": "readme"}
    ran = []

    def read_on() -> None:  # on a thread of its own: the Async example runs its own loop
        for line, code in examples():
            code = code.replace("http://127.0.0.1:8000", live_server)
            if code.lstrip().startswith("{"):  # the sample answer of GET /actions
                assert as_actions(eval(code))["default"] is not None
                continue
            if "seat.move(move" in code:
                session["move"] = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
            exec(compile(code, f"README.md:{line}", "exec"), session)
            ran.append(line)

    in_own_thread(read_on)
    assert len(ran) >= 7, ran
    out = capsys.readouterr().out
    assert "defaulter" in out and "medium" in out  # the tournament's rows
    assert "round_started" in out  # the event stream printed the game
    assert session["my_money"](session["seat"]) is not None  # type: ignore[operator]
