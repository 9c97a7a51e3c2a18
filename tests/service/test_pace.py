"""The pace a table chooses when a game is created (option ``pace``; docs/api.md, docs/rules.md
"Paces"): each pace sets the game's timing options as documented, the options given explicitly
win, an unknown pace is refused and writes nothing, and the view and the list of games show it.
The expected values are the documented table, read from docs/rules.md, apart from the rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service_helpers import FakeClock, assert_problem, keys_written, stored

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
GAMES = {"Word Jam": "wordjam", "Turandot": "turandot", "Muzicando": "muzicando"}


def _documented() -> dict[str, dict[str, dict[str, int]]]:
    """docs/rules.md, "Paces": what each pace sets, per ruleset, read from the table's rows
    (``| Word Jam | `relaxed` | `think_seconds` 240, … |``)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for line in DOCS.read_text().splitlines():
        row = re.fullmatch(r"\| (Word Jam|Turandot|Muzicando) \| `(\w+)` \| (.*) \|", line)
        if row:
            values = {k: int(v) for k, v in re.findall(r"`(\w+_seconds)` (\d+)", row[3])}
            out.setdefault(GAMES[row[1]], {})[row[2]] = values
    return out


#: docs/rules.md, "Paces": what each pace sets, per ruleset
DOCUMENTED = _documented()
PLAYERS = {"wordjam": 5, "turandot": 4, "muzicando": 3}
SERVICE = ("move_seconds", "bot_seconds")
CASES = [(r, p) for r, paces in DOCUMENTED.items() for p in paces]


def _create(client, ruleset: str, options: dict):
    return client.post("/v1/games", json={"ruleset": ruleset, "players": PLAYERS[ruleset],
                                          "seed": 3, "options": options})


def _listed(client, game_id: str) -> dict:
    games = client.get("/v1/games?status=open&limit=100").get_json()["games"]
    return next(g for g in games if g["id"] == game_id)


@pytest.mark.parametrize("ruleset, pace", CASES, ids=[f"{r}-{p}" for r, p in CASES])
def test_each_pace_sets_the_documented_options_and_is_shown(client, redis_client, ruleset,
                                                             pace):
    created = _create(client, ruleset, {"pace": pace})
    assert created.status_code == 201, created.get_data(as_text=True)
    game = created.get_json()["game"]
    _, doc = stored(redis_client, game["id"])
    expected = DOCUMENTED[ruleset][pace]
    rules_part = {k: v for k, v in expected.items() if k not in SERVICE}
    assert {k: doc["options"][k] for k in rules_part} == rules_part
    assert "pace" not in doc["options"]
    assert {k: doc["settings"][k] for k in expected if k in SERVICE} == {
        k: v for k, v in expected.items() if k in SERVICE}
    assert doc["settings"]["pace"] == pace
    for view in (game, client.get(f"/v1/games/{game['id']}").get_json()):
        assert view["pace"] == pace
        assert view["bot_seconds"] == expected["bot_seconds"]
        if "move_seconds" in expected:
            assert view["move_seconds"] == expected["move_seconds"]
    listed = _listed(client, game["id"])["options"]
    assert listed["pace"] == pace
    assert {k: listed[k] for k in expected} == expected


def test_a_relaxed_word_jam_gives_each_window_its_time(app_factory):
    """The pace's windows are the game's: once every seat is taken, the first call's window
    runs out 240 s after the deal."""
    clock = FakeClock()
    client = app_factory(clock=clock).test_client()
    gid = _create(client, "wordjam", {"pace": "relaxed"}).get_json()["game"]["id"]
    for i in range(5):
        client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"})
    view = client.get(f"/v1/games/{gid}").get_json()
    assert view["status"] == "playing"
    deadlines = [p["deadline"] for p in view["pending"]]
    assert len(deadlines) == 5 and deadlines == pytest.approx([clock.now + 240] * 5)


@pytest.mark.parametrize("ruleset, options, expected", [
    ("wordjam", {"pace": "relaxed", "bet_seconds": 12, "bot_seconds": 3},
     {"think_seconds": 240, "bet_seconds": 12, "vote_seconds": 45, "bot_seconds": 3}),
    ("wordjam", {"challenge_seconds": 7, "pace": "fast"},
     {"challenge_seconds": 7, "think_seconds": 60, "bot_seconds": 8}),
    ("turandot", {"pace": "relaxed", "move_seconds": 60, "bot_seconds": 4},
     {"move_seconds": 60, "bot_seconds": 4}),
    ("turandot", {"pace": "relaxed", "move_seconds": None}, {"move_seconds": None,
                                                             "bot_seconds": 0}),
    ("muzicando", {"pace": "fast", "bot_seconds": 4, "hands": 3},
     {"move_seconds": 30, "bot_seconds": 4}),
])
def test_the_options_given_explicitly_win_over_the_pace(client, ruleset, options, expected):
    created = _create(client, ruleset, options)
    assert created.status_code == 201, created.get_data(as_text=True)
    view = client.get(f"/v1/games/{created.get_json()['game']['id']}").get_json()
    assert view["pace"] == options["pace"]
    listed = _listed(client, view["id"])["options"]
    for name, value in expected.items():
        if name in SERVICE:
            assert view[name] == value, name
        assert listed.get(name) == value, name


@pytest.mark.parametrize("pace", ["slow", "Relaxed", "", 3, ["relaxed"], {"x": 1}])
@pytest.mark.parametrize("ruleset", sorted(DOCUMENTED))
def test_an_unknown_pace_is_refused_and_writes_nothing(client, redis_client, ruleset, pace):
    redis_client.flushdb()
    problem = assert_problem(_create(client, ruleset, {"pace": pace}), 422, "invalid_pace")
    for name in ("relaxed", "normal", "fast"):
        assert name in problem["detail"], problem
    assert problem["errors"] == {"options": {"pace": ["must be one of relaxed, normal, fast"]}}
    assert keys_written(redis_client) == []


def test_a_game_without_a_pace_shows_none(client):
    game = _create(client, "wordjam", {}).get_json()["game"]
    assert "pace" not in game
    assert "pace" not in _listed(client, game["id"])["options"]
    assert game["bot_seconds"] == 20


def test_a_null_pace_is_no_pace(client):
    game = _create(client, "turandot", {"pace": None}).get_json()["game"]
    assert "pace" not in game and game["move_seconds"] is None and game["bot_seconds"] == 0


def test_the_documented_table_has_every_ruleset_s_three_paces():
    from impresario_rules import RULESETS

    assert {r: list(p) for r, p in DOCUMENTED.items()} == {
        r: ["relaxed", "normal", "fast"] for r in RULESETS}


@pytest.mark.parametrize("ruleset", sorted(DOCUMENTED))
def test_the_paces_are_served(client, ruleset):
    body = client.get(f"/v1/rulesets/{ruleset}/paces").get_json()
    assert body == {"ruleset": ruleset, "paces": DOCUMENTED[ruleset], "against_bots": "relaxed"}
    assert list(body["paces"]) == ["relaxed", "normal", "fast"]


def test_the_paces_of_no_ruleset(client):
    assert_problem(client.get("/v1/rulesets/chess/paces"), 404, "ruleset_not_found")
