"""Recorded seeded games (``seeded_games.json``) played again through the HTTP API, every
response compared with the one recorded before the engine was rebuilt in layers: the same
status codes and bodies, byte for byte once what is random by design (game ids, tokens, the
clock) is set aside.

Each game is created with its seed, every seat is taken, and its recorded moves are posted by
their seats. Along the way the digest takes in every move's answer (the mover's view and
events), the actions of the seat that must act next and, every few moves, the view of every
viewer; at the end every viewer's view and event feed, the score, the replay and some of its
steps, and the rulesets' descriptions. ``IMPRESARIO_RECORD_HTTP_GOLDEN=1`` records instead of
checking (only ever from the code the recording should describe). ``GOLDEN_DUMP=FILE`` also
writes every record to FILE, one JSON line each: run it on the old code and the new, and diff,
to see that a change a recording must take in is the only one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from typing import Any

import pytest

import golden

HTTP = golden.HERE / "http_games.json"
RECORDING = os.environ.get("IMPRESARIO_RECORD_HTTP_GOLDEN") == "1"
#: (ruleset, players, seed) of the recorded games played through HTTP
GAMES = [("turandot", 4, 3), ("turandot", 2, 32), ("turandot", 4, 23), ("wordjam", 6, 2),
         ("wordjam", 5, 5), ("muzicando", 4, 1), ("muzicando", 3, 4)]
EVERY = 10
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32}$")


def _spec(ruleset: str, players: int, seed: int) -> dict[str, Any]:
    recorded = json.loads(golden.DATA.read_text(encoding="utf-8"))["games"]
    return next(g for g in recorded if (g["ruleset"], g["players"], g["seed"]) == (
        ruleset, players, seed))


def normal(value: Any, ids: dict[str, str]) -> Any:
    """``value`` with what is random by design named by its place: game ids and tokens as
    ``<id N>``/``<token>``, times as ``<time>``, deadlines as ``<deadline>``."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("created", "updated") and isinstance(v, (int, float)):
                out[k] = "<time>"
            elif k == "deadline" and v is not None:
                out[k] = "<deadline>"
            elif k in ("token", "host_token") and isinstance(v, str):
                out[k] = "<token>"
            else:
                out[k] = normal(v, ids)
        return out
    if isinstance(value, list):
        return [normal(v, ids) for v in value]
    if isinstance(value, str):
        for real, name in ids.items():
            value = value.replace(real, name)
        return value
    return value


class Digest:
    def __init__(self, ids: dict[str, str]) -> None:
        self.ids = ids
        self.value = ""
        self.checkpoints: list[str] = []

    def add(self, what: str, resp) -> Any:
        body = resp.get_json() if resp.is_json or resp.mimetype.endswith("+json") else None
        record = {"what": what, "status": resp.status_code,
                  "body": normal(body, self.ids) if body is not None else None}
        if body is not None and "request_id" in (body if isinstance(body, dict) else {}):
            record["body"].pop("request_id")
        self.value = golden.chain(self.value, record)
        if os.environ.get("GOLDEN_DUMP"):
            with open(os.environ["GOLDEN_DUMP"], "a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, sort_keys=True) + "\n")
        return body

    def mark(self) -> None:
        self.checkpoints.append(self.value[:16])


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def play_over_http(client, ruleset: str, players: int, seed: int) -> dict[str, Any]:
    spec = _spec(ruleset, players, seed)
    ids: dict[str, str] = {}
    digest = Digest(ids)
    created = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                             "seed": seed, "options": spec.get("options", {})})
    game_id = created.get_json()["game"]["id"]
    ids[game_id] = "<id>"
    digest.add("create", created)
    url = f"/v1/games/{game_id}"
    tokens = []
    for i in range(players):
        joined = client.post(f"{url}/seats", json={"name": f"P{i}"})
        tokens.append(joined.get_json()["token"])
        digest.add(f"join {i}", joined)
    viewers = [None, *tokens]
    for i, (seat, move) in enumerate(spec["moves"]):
        answer = client.post(f"{url}/moves", json=move, headers=auth(tokens[seat]))
        assert answer.status_code == 200, answer.get_data(as_text=True)
        game = digest.add(f"move {i}", answer)["game"]
        if game["pending"]:
            nxt = game["pending"][0]["seat"]
            digest.add(f"actions {i}", client.get(f"{url}/actions", headers=auth(tokens[nxt])))
        if i % EVERY == 0:
            for v, token in enumerate(viewers):
                digest.add(f"view {i} {v}", client.get(url, headers=auth(token)))
            digest.mark()
    for v, token in enumerate(viewers):
        digest.add(f"final view {v}", client.get(url, headers=auth(token)))
        digest.add(f"events {v}", client.get(f"{url}/events?after=0", headers=auth(token)))
        digest.add(f"actions {v}", client.get(f"{url}/actions", headers=auth(token)))
    digest.add("score", client.get(f"{url}/score"))
    digest.add("replay", client.get(f"{url}/replay"))
    steps = len(spec["moves"])
    for step in (0, 1, steps // 2, steps):
        digest.add(f"replay step {step}", client.get(f"{url}/replay/{step}"))
        digest.add(f"replay step {step} seat 0", client.get(f"{url}/replay/{step}?seat=0"))
    digest.add("rulesets", client.get("/v1/rulesets"))
    digest.add(f"ruleset {ruleset}", client.get(f"/v1/rulesets/{ruleset}"))
    digest.mark()
    return {"digest": digest.value, "checkpoints": digest.checkpoints}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-seed{g[2]}")
def test_a_seeded_game_answers_over_http_as_recorded(client, game):
    result = play_over_http(client, *game)
    key = "/".join(map(str, game))
    if RECORDING:
        recorded = json.loads(HTTP.read_text()) if HTTP.exists() else {}
        recorded[key] = result
        HTTP.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        return
    expected = json.loads(HTTP.read_text())[key]
    first = next((i for i, (a, b) in enumerate(zip(result["checkpoints"],
                                                   expected["checkpoints"])) if a != b), None)
    assert first is None, f"the answers differ from the recording by move {first * EVERY}"
    assert result["digest"] == expected["digest"], "the final answers differ from the recording"
