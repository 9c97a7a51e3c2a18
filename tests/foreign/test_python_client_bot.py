"""A Python client generated from openapi.yaml by openapi-python-client plays every ruleset as a
player.

The client is generated into a temporary folder each run (tests/foreign/generate_python_client.py),
so it is always the spec's; tests/foreign/python_bot.py becomes a player and plays Turandot, Word
Jam and Muzicando to the end on it as that player (the games and its seats are the player's), in
a process of its own, against the engine on the session's Redis with every response held to
openapi.yaml (``contract_server``), then reads the player's games, profile and leaderboards. ``mypy --strict`` checks the bot against the
generated package, and its source may not fall back to raw JSON: if the spec were too loose for
typed models, the bot could not be written this way.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BOT = HERE / "python_bot.py"
sys.path.insert(0, str(HERE))

from generate_python_client import generate  # noqa: E402

FINISHED = re.compile(r"^finished (\w+) (\S+): (\d+) moves \((\d+) built from action spaces\), "
                      r"refusals \[[^\]]*\], winners \[([\d, ]+)\], totals \[([-\d, ]+)\]$", re.M)
MINE = re.compile(r"^mine (\w+) (\S+): (\w+), seat (\d+), host (\w+), rated (\w+), won (\w+)$",
                  re.M)
PROFILE = re.compile(r"^profile (\S+) Pythonista: (\d+) rated games; ratings \[(.*)\]; "
                     r"recent \[(.*)\]$", re.M)
BOARD = re.compile(r"^board (\w+): place (\S+) of (\d+) \(min (\d+) rated games\)$", re.M)

#: what a bot on a generated client never needs: raw dictionaries of API data, their
#: conversions by hand, casts and silenced type errors
RAW = {
    "additional_properties": re.compile(r"additional_properties"),
    "to_dict/from_dict by hand": re.compile(r"\b(to_dict|from_dict)\b"),
    "subscripting by a string key": re.compile(r"\[\s*[\"']"),
    "typing.cast": re.compile(r"\bcast\("),
    "Any": re.compile(r"\bAny\b"),
    "# type: ignore": re.compile(r"type:\s*ignore"),
    "raw JSON or HTTP": re.compile(r"\.json\(\)|\.content\b|^\s*(import|from) (json|httpx|urllib|"
                                   r"requests|http)\b", re.M),
    "getattr": re.compile(r"\bgetattr\("),
}


@pytest.fixture(scope="module")
def generated_client(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("python-client")
    generate(folder)
    return folder


def test_the_bot_reads_the_api_only_through_generated_models():
    source = BOT.read_text(encoding="utf-8")
    found = [f"{what}: line {source[:m.start()].count(chr(10)) + 1}"
             for what, pattern in RAW.items() for m in pattern.finditer(source)]
    assert not found, f"{BOT.name} falls back to untyped API data: {found}"


def test_the_bot_type_checks_strictly_against_the_generated_client(generated_client, tmp_path):
    # the generated package's own modules are the generator's business: imported silently,
    # their types used, their errors not reported; the bot is checked with --strict
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--warn-unreachable",
         "--follow-imports=silent", "--cache-dir", str(tmp_path / "mypy-cache"), str(BOT)],
        env={"MYPYPATH": str(generated_client), "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_generated_python_client_plays_every_ruleset_to_the_end(generated_client,
                                                                  contract_server):
    run = subprocess.run([sys.executable, str(BOT), contract_server, str(generated_client)],
                         capture_output=True, text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    games = {m.group(1): m for m in FINISHED.finditer(run.stdout)}
    assert sorted(games) == ["muzicando", "turandot", "wordjam"], run.stdout
    for ruleset, game in games.items():
        assert int(game.group(3)) > 0, f"{ruleset}: the bot made no move"
        assert game.group(5).strip(), f"{ruleset}: a score without winners"
    players = {"turandot": 4, "wordjam": 5, "muzicando": 4}
    for ruleset, game in games.items():
        assert len(game.group(6).split(",")) == players[ruleset], game.group(0)
    # the Muzicando game is long enough that the bot built moves from its action spaces
    assert int(games["muzicando"].group(4)) > 0
    # each game is the player's, among its finished games (GET /v1/me/games, every page), rated
    mine = {m.group(2): m.groups() for m in MINE.finditer(run.stdout)}
    assert sorted(mine) == sorted(game.group(2) for game in games.values()), run.stdout
    for ruleset, game in games.items():
        seat = players[ruleset] - 1                 # the bots took the seats before
        # (whether `won` is right is tests/sdk/test_player.py's: the engine has it False always)
        assert mine[game.group(2)][:6] == (ruleset, game.group(2), "finished", str(seat),
                                           "True", "True"), run.stdout
        assert mine[game.group(2)][6] in ("True", "False")
    # its profile rates it once in each ruleset, and each leaderboard places it
    (profile,) = PROFILE.finditer(run.stdout)
    assert profile.group(2) == "3"
    assert sorted(re.findall(r"(\w+) -?[\d.]+ \(1\)", profile.group(3))) == sorted(players)
    for ruleset, game in games.items():
        assert f"{ruleset} {game.group(2)} rank " in profile.group(4)
    boards = {m.group(1): m.groups() for m in BOARD.finditer(run.stdout)}
    assert sorted(boards) == sorted(players)
    for ruleset, (_name, place, total, least) in boards.items():
        assert place != "None" and 1 <= int(place) <= int(total) and least == "1", boards
