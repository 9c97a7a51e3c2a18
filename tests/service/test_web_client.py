"""The browser table's files (GET / and /web/...), and what the API gives every frontend for it:
the rulesets' bots and catalogue, and a finished game's table after any number of moves."""

from __future__ import annotations

import base64
import hashlib
import random
import re
from pathlib import Path, PurePosixPath

import tomllib

from service_helpers import assert_problem, auth, play_random

WEB = Path(__file__).resolve().parents[2] / "services" / "engine" / "src" / "impresario_engine" / "web"


def test_the_page_is_served_with_a_strict_policy(client):
    resp = client.get("/")
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    csp = resp.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "http" not in csp
    # the one inline script, the import map, is allowed by its hash and nothing else is
    page = resp.get_data(as_text=True)
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.S)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp
    assert resp.headers["X-Frame-Options"] == "DENY"
    assert resp.headers["Cache-Control"] == "no-cache"


def test_files_have_their_types_and_caching(client):
    app_js = client.get("/web/app.js")
    assert app_js.status_code == 200 and app_js.mimetype == "text/javascript"
    assert app_js.headers["Cache-Control"] == "no-cache"
    again = client.get("/web/app.js", headers={"If-None-Match": app_js.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    assert client.get("/web/style.css").mimetype == "text/css"
    vendor = client.get("/web/vendor/preact-10.29.8.module.js")
    assert vendor.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert vendor.mimetype == "text/javascript"


def test_nothing_outside_the_client_folder_is_served(client):
    for path in ("/web/../app.py", "/web/%2e%2e/config.py", "/web/nope.js", "/web/vendor",
                 "/web/../../../../etc/passwd"):
        resp = client.get(path)
        assert resp.status_code == 404, path
        assert resp.mimetype == "application/problem+json"


def test_every_client_file_ships_in_the_package():
    """The package data globs of services/engine/pyproject.toml cover every file of web/."""
    project = tomllib.loads((WEB.parents[2] / "pyproject.toml").read_text())
    globs = project["tool"]["setuptools"]["package-data"]["impresario_engine"]
    files = [p.relative_to(WEB.parent).as_posix() for p in WEB.rglob("*") if p.is_file()]
    assert files
    # as setuptools reads them: "*" never crosses a folder
    missing = [f for f in files if not any(
        len(PurePosixPath(f).parts) == len(PurePosixPath(g).parts) and PurePosixPath(f).match(g)
        for g in globs)]
    assert not missing, missing


def test_the_modules_import_only_what_is_served():
    """Every import of every module names a file of the client or the import map's names."""
    names = {"preact", "preact/hooks", "htm"}
    for module in WEB.rglob("*.js"):
        if module.parent.name == "vendor":
            continue
        for target in re.findall(r'^import .*? from "([^"]+)";', module.read_text(), re.M):
            if target in names:
                continue
            assert (module.parent / target).resolve().is_file(), f"{module.name}: {target}"


def test_rulesets_name_their_bots_and_who_plays_a_seat_left_and_turandot_its_catalogue(client):
    rulesets = {r["name"]: r for r in client.get("/v1/rulesets").get_json()["rulesets"]}
    assert rulesets["turandot"]["bots"] == ["easy", "medium", "hard"]
    assert rulesets["wordjam"]["bots"][:2] == ["easy", "medium"]
    assert rulesets["turandot"]["bot_aliases"] == {"random": "easy", "greedy": "medium"}
    assert rulesets["wordjam"]["bot_aliases"] == {"random": "easy", "wordsmith": "medium"}
    # what a leave button and a create form tell a player
    assert [(rulesets[r]["leave_bot"], rulesets[r]["bot_seconds"])
            for r in ("turandot", "wordjam", "muzicando")] == [
        ("greedy", 0), ("defaults", 20), ("greedy", 0)]
    catalogue = rulesets["turandot"]["catalogue"]
    assert len(catalogue["singers"]) == 36 and len(catalogue["directors"]) == 9
    s04 = next(s for s in catalogue["singers"] if s["id"] == "S04")
    assert set(s04) == {"id", "kind", "category", "sex", "stars", "favourite_role"}
    assert "catalogue" not in rulesets["muzicando"]


def test_replay_steps_rebuild_the_table_after_each_move(client, make_game):
    game = make_game(players=3, seed=21)
    moves = play_random(client, game, random.Random(4))
    final = client.get(game.url).get_json()
    first = client.get(f"{game.url}/replay/0").get_json()
    assert first["step"] == 0 and first["steps"] == len(moves) and first["move"] is None
    assert first["game"]["round"] == 1 and first["game"]["phase"] == "bidding"
    assert first["game"]["status"] == "playing"
    assert all(p["deadline"] is None for p in first["game"]["pending"])
    one = client.get(f"{game.url}/replay/1").get_json()
    assert one["move"]["move"] == moves[0][1] and one["move"]["seat"] == moves[0][0]
    last = client.get(f"{game.url}/replay/{len(moves)}").get_json()
    assert last["game"]["status"] == "finished"
    assert last["game"]["players"] == final["players"] and last["game"]["score"] == final["score"]
    assert "you" not in last["game"]
    seat = client.get(f"{game.url}/replay/1?seat=2").get_json()
    assert seat["seat"] == 2 and seat["game"]["you"]["seat"] == 2
    assert_problem(client.get(f"{game.url}/replay/{len(moves) + 1}"), 404, "step_not_found")
    assert_problem(client.get(f"{game.url}/replay/1?seat=3"), 422, "unknown_seat")


def test_replay_steps_wait_for_the_end_and_respect_privacy(client, make_game):
    game = make_game(players=2, seed=3)
    assert_problem(client.get(f"{game.url}/replay/0"), 409, "game_not_finished")
    created = client.post("/v1/games", json={"ruleset": "turandot", "players": 2, "seed": 1,
                                             "private": True}).get_json()
    url = f"/v1/games/{created['game']['id']}"
    assert_problem(client.get(f"{url}/replay/0"), 403, "private_game")
    assert_problem(client.get(f"{url}/replay/0", headers=auth(created["host_token"])), 409,
                   "game_not_finished")


def test_the_feed_listens_to_every_event_type_the_engine_sends():
    """The table's EventSource gets a named event (``event: bid_committed``) only through a
    listener of that name: its list holds every type the rules declare and the engine writes
    (a type left out would reach the page late, from GET /events, at the next event)."""
    from impresario_rules import RULESETS

    feed = (WEB / "shared" / "feed.js").read_text()
    listed = set(re.findall(r'"([a-z_]+)"', feed.split("export const EVENT_TYPES = [")[1]
                            .split("];")[0]))
    declared = {shape.fields["type"].enum[0] for ruleset in RULESETS.values()
                for shape in ruleset.declarations.events}
    engine = WEB.parent
    written = set()
    for source in [*(engine / "usecases").glob("*.py"), *(engine / "table").glob("*.py")]:
        written.update(re.findall(r'"type": "([a-z_]+)"', source.read_text()))
    assert declared and written >= {"seat_taken", "seat_left", "game_started"}
    assert declared | written <= listed, sorted((declared | written) - listed)


def test_the_rules_are_served_in_each_language_with_their_prompts(client):
    from impresario_rules.texts import LANGUAGES, anchors, rules_text

    for lang in LANGUAGES:
        resp = client.get(f"/web/rules/turandot?lang={lang}")
        assert resp.status_code == 200 and resp.mimetype == "application/json"
        assert resp.headers["Content-Language"] == lang
        assert resp.headers["Cache-Control"] == "no-cache"
        body = resp.get_json()
        assert body["lang"] == lang and body["markdown"] == rules_text("turandot", lang)
        assert body["prompts"]["kinds"]["bid"] in anchors(body["markdown"])
    # no language asked: English, said so
    plain = client.get("/web/rules/wordjam")
    assert plain.status_code == 200 and plain.get_json()["lang"] == "en"
    assert "Open Sesame" in plain.get_json()["markdown"]
    again = client.get("/web/rules/wordjam", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304


def test_unknown_rules_are_a_404_with_a_stable_code(client):
    assert_problem(client.get("/web/rules/chess?lang=it"), 404, "ruleset_not_found")
    assert_problem(client.get("/web/rules/muzicando?lang=es"), 404, "language_not_found")
    assert_problem(client.get("/web/rules/muzicando?lang=../en"), 404, "language_not_found")


def test_the_guided_table_is_served_as_the_rules_package_sets_it(client):
    """``GET /web/guide/<ruleset>?lang=``: the table "Learn to play" creates, the rules
    package's (one fact, one place); Word Jam's words in the reader's language when they can."""
    from impresario_rules.guide import guided_setup

    for ruleset in ("turandot", "wordjam", "muzicando"):
        for lang in ("en", "it", "de", "fr"):
            resp = client.get(f"/web/guide/{ruleset}?lang={lang}")
            assert resp.status_code == 200 and resp.mimetype == "application/json"
            assert resp.get_json() == guided_setup(ruleset, lang)
            assert resp.get_json()["options"]["guided"] is True
    assert client.get("/web/guide/wordjam?lang=it").get_json()["options"]["language"] == "it"
    assert_problem(client.get("/web/guide/chess"), 404, "ruleset_not_found")
    assert_problem(client.get("/web/guide/turandot?lang=xx"), 404, "language_not_found")
