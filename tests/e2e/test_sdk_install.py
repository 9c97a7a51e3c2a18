"""``pip install ./clients/python-sdk`` alone gives a working ``impresario`` command."""

from __future__ import annotations

import ast
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
    helped = subprocess.run([str(env_dir / "bin" / "impresario"), "--help"], capture_output=True,
                            text=True)
    assert "play" in helped.stdout and "tournament" in helped.stdout


class ScriptedPlayer:
    """Plays at the CLI's prompts: slot 1 bids, free slots in order, the first choice offered."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.free: list[int] = []
        self.directors: list[str] = []

    def out(self, line: str) -> None:
        self.lines.append(line)
        if line.startswith("You assign office hires: free slots "):
            self.free = ast.literal_eval(line.split("free slots ", 1)[1])
        if line.startswith("Directors: "):
            self.directors = line.split(": ", 1)[1].split(", ")

    def ask(self, prompt: str) -> str:
        self.lines.append(prompt)
        if prompt.startswith("Your bid"):
            return "1"
        if prompt.startswith("  slot for seat"):
            return str(self.free.pop(0))
        if prompt.startswith("Name a seat"):
            return str(ast.literal_eval(prompt[prompt.index("["):prompt.index("]") + 1])[0])
        if prompt.startswith("Fire which"):
            return self.directors[0]
        return ""  # casting: the best arrangement


def test_cli_play_against_bots_to_the_end(live_server):
    from impresario import cli

    player = ScriptedPlayer()
    args = cli.build_parser().parse_args(["--url", live_server, "play", "turandot", "--bots", "3",
                                          "--seed", "5"])
    assert cli.cmd_play(args, ask=player.ask, out=player.out) == 0
    text = "\n".join(player.lines)
    assert "=== Round 1" in text and "reveal →" in text
    assert "Final score:" in text and "Winners:" in text


@pytest.mark.parametrize("argv", [
    ["play", "muzicando", "--mode", "team", "--hands", "1", "--seed", "4"],
    ["play", "muzicando", "--mode", "individual", "--bots", "2", "--hands", "3", "--seed", "6"],
])
def test_cli_plays_muzicando_team_and_individual_to_the_end(live_server, argv):
    """A human at the numbered menu (always the first listed move) plays a whole match."""
    from impresario import cli

    lines: list[str] = []

    def ask(prompt: str) -> str:
        lines.append(prompt)
        return "1"

    args = cli.build_parser().parse_args(["--url", live_server, *argv])
    assert cli.cmd_play(args, ask=ask, out=lines.append) == 0
    text = "\n".join(lines)
    assert "Your move (1-" in text and "your hand:" in text
    assert "Final score:" in text and "Winners:" in text
    if "team" in argv:
        assert "team 0 (seats [0, 2])" in text
