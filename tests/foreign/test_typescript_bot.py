"""A TypeScript client generated from openapi.yaml plays every ruleset as a player, every response
validated.

``make ts-bot`` generates the bot's API types from openapi.yaml with openapi-typescript (each
run: they cannot drift from the spec) and compiles clients/typescript-bot with
``tsc --strict --noUncheckedIndexedAccess``; the bot (openapi-fetch) becomes a player and plays
Turandot, Word Jam and Muzicando to the end as that player against the engine on the session's
Redis, whose every response is held to openapi.yaml on the server's side (``contract_server``)
and again on the client's by Ajv, then reads the player's games, profile and leaderboards, and
prints what happened as one JSON line. Its sources may hold no cast, no ``any`` and no type of
their own: if the spec were too loose for the generated types, the bot could not be written.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BOT_DIR = ROOT / "clients" / "typescript-bot"
BOT = ROOT / "build" / "typescript-bot" / "bot.mjs"
PLAYERS = {"turandot": 4, "wordjam": 5, "muzicando": 4}

#: what a client on generated types never needs: casts, escapes from the type checker, and
#: API types written by hand (any type or interface declared in the bot's sources)
UNTYPED = {
    "an `as` cast": re.compile(r"\bas\b"),
    "any": re.compile(r"\bany\b"),
    "a non-null assertion": re.compile(r"[\w)\]]!(?!=)"),
    "a type declared by hand": re.compile(r"^\s*(export\s+)?(declare\s+)?(interface|type)\s+\w+",
                                          re.M),
    "an enum declared by hand": re.compile(r"^\s*(export\s+)?(const\s+)?enum\s+\w+", re.M),
    "a silenced type error": re.compile(r"@ts-(ignore|expect-error|nocheck)"),
}


def _sources() -> list[Path]:
    return sorted(p for p in (BOT_DIR / "src").rglob("*.*ts")
                  if "generated" not in p.relative_to(BOT_DIR).parts)


@pytest.fixture(scope="module")
def compiled_bot(node_tools) -> Path:
    run = subprocess.run(["make", "--no-print-directory", "ts-bot"], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, "the TypeScript bot does not compile against the types " \
        f"generated from openapi.yaml:\n{run.stdout}\n{run.stderr}"
    return BOT


def _play(bot: Path, base_url: str, spec: Path) -> dict:
    run = subprocess.run(["node", str(bot), base_url, str(spec)], capture_output=True,
                         text=True, timeout=240, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_bot_has_no_cast_no_any_and_no_type_of_its_own():
    sources = _sources()
    assert {p.name for p in sources} >= {"bot.mts", "validate.mts"}
    found = []
    for path in sources:
        code = "\n".join(line.split("//")[0] for line in path.read_text().splitlines())
        found += [f"{path.name}:{code[:m.start()].count(chr(10)) + 1}: {what}"
                  for what, pattern in UNTYPED.items() for m in pattern.finditer(code)]
    assert not found, found
    options = json.loads((BOT_DIR / "tsconfig.json").read_text())["compilerOptions"]
    assert options["strict"] is True and options["noUncheckedIndexedAccess"] is True


def test_a_generated_typescript_client_plays_every_ruleset_to_the_end(compiled_bot,
                                                                      contract_server):
    report = _play(compiled_bot, contract_server, ROOT / "openapi.yaml")
    assert report["violations"] == [], "responses that break openapi.yaml:\n" + \
        "\n".join(report["violations"])
    games = {game["ruleset"]: game for game in report["games"]}
    assert sorted(games) == sorted(PLAYERS)
    for ruleset, game in games.items():
        assert game["status"] == "finished", game
        assert game["moves"] > 0 and game["winners"], game
        assert len(game["totals"]) == PLAYERS[ruleset], game
        assert game["last_event"] == "game_finished", game
    assert games["muzicando"]["built"] > 0, "no move was built from an action space"
    # each game is the player's (created and sat at with its credential), finished, rated
    # (whether `won` is right is tests/sdk/test_player.py's: the engine has it False always)
    mine = {game["id"]: game for game in report["mine"]}
    assert sorted(mine) == sorted(game["game_id"] for game in games.values())
    for ruleset, game in games.items():
        listed = mine[game["game_id"]]
        assert {k: v for k, v in listed.items() if k != "won"} == {
            "id": game["game_id"], "ruleset": ruleset, "status": "finished",
            "seat": PLAYERS[ruleset] - 1, "host": True, "rated": True}, listed
        assert listed["won"] in (True, False)
    profile = report["profile"]
    assert (profile["id"], profile["name"], profile["games"]) == \
        (report["player"]["id"], "TypeScripter", 3)
    assert sorted((r["ruleset"], r["games"]) for r in profile["ratings"]) == \
        [(ruleset, 1) for ruleset in sorted(PLAYERS)]
    assert sorted((r["ruleset"], r["game"]) for r in profile["recent"]) == \
        sorted((ruleset, game["game_id"]) for ruleset, game in games.items())
    assert sorted(board["ruleset"] for board in report["boards"]) == sorted(PLAYERS)
    for board in report["boards"]:     # a player is on the boards after one rated game here
        assert board["min_games"] == 1 and 1 <= board["place"] <= board["total"], board
    # every request of the three games was checked: at least two per move
    assert report["checked"] >= 2 * sum(game["moves"] for game in games.values())


def test_the_bot_reports_a_response_the_spec_does_not_allow(compiled_bot, contract_server,
                                                           tmp_path):
    """The client-side check is not vacuous: against a spec whose actions name their seat by a
    string (the engine sends the seat's number), every answer of GET /v1/games/{game_id}/actions
    is reported."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    spec["components"]["schemas"]["Actions"]["properties"]["seat"] = {"type": ["string", "null"]}
    stricter = tmp_path / "openapi.yaml"
    stricter.write_text(yaml.safe_dump(spec, sort_keys=False))
    report = _play(compiled_bot, contract_server, stricter)
    assert report["violations"], "a response with a seat of the wrong type passed"
    assert all(v.startswith("GET /v1/games/{game_id}/actions -> 200: data/seat must be string")
               for v in report["violations"]), report["violations"][:5]
