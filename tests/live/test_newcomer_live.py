"""A newcomer's reads on the service as it is deployed (gunicorn workers, the reaper's loop
beside them: ``live_server``): a guided game's steps (``GET /guide``), whose bots the reaper
plays only once the player has moved; the places of a finished game (``GET /places``); a
ruleset's paces (``GET /rulesets/{r}/paces``). Each tells a reader only what its seat may see,
and refuses what it should with the problem's code, changing nothing."""

from __future__ import annotations

import time

from impresario_rules import PACE_AGAINST_BOTS, RULESETS, guide
from service_helpers import Http, auth, stored
from test_secrets import Observer

from .live_helpers import until

LANGS = ("en", "it", "de", "fr")


def _problem(answer: tuple[int, dict, object], status: int, code: str) -> None:
    got, headers, body = answer
    assert got == status and isinstance(body, dict) and body["code"] == code, (got, body)
    assert headers["content-type"].startswith("application/problem+json"), headers


def _table(http: Http, body: dict, bots: list[str], person: bool = True
           ) -> tuple[str, str, str | None]:
    """A game of ``body``: the person (if any) in seat 0, then the bots; its id, host token and
    seat 0's token."""
    status, _, created = http.request("POST", "/v1/games", body)
    assert status == 201, created
    gid, host = created["game"]["id"], created["host_token"]
    token = None
    if person:
        status, _, joined = http.request("POST", f"/v1/games/{gid}/seats", {"name": "Lia"})
        assert status == 201, joined
        token = joined["token"]
    for i, level in enumerate(bots):
        status, _, joined = http.request("POST", f"/v1/games/{gid}/seats",
                                         {"name": f"Bot{i}", "bot": level}, auth(host))
        assert status == 201, joined
    return gid, host, token


def test_a_guided_game_waits_for_its_player_and_its_steps_tell_only_the_seat(
        live_server, redis_client):
    """The guided Turandot table as the page creates it (its bots think up to a second and
    the reaper plays them): while the player must act, the bots wait, however many reaper
    passes go by; every step, in each language, is the rules' guide of the seat's own view and
    actions and passes every secrets check; a spectator, the host and another game's seat are
    refused it. The whole game: a quarter of a minute."""
    http = Http(live_server)
    setup = guide.guided_setup("turandot")
    body = {k: setup[k] for k in ("ruleset", "players", "seed", "options")}
    gid, host, token = _table(http, body, setup["bots"])
    url = f"/v1/games/{gid}"
    other, _, other_token = _table(http, {"ruleset": "turandot", "players": 2}, [])
    obs = Observer(redis_client, gid, setup["players"])

    def mine():
        status, _, actions = http.request("GET", f"{url}/actions", headers=auth(token))
        assert status == 200, actions
        view = http.request("GET", url, headers=auth(token))[2]
        return (view, actions) if actions["pending"] or view["status"] == "finished" else None

    played, waited = 0, False
    while True:
        view, actions = until(mine, 60, "the player's turn (the reaper plays the bots)")
        for lang in LANGS:
            status, _, step = http.request("GET", f"{url}/guide?lang={lang}", headers=auth(token))
            assert status == 200, step
            obs.check(0, step, "guide")
            assert {k: step[k] for k in ("key", "params", "anchor")} == \
                guide.step("turandot", view, actions)
        if view["status"] == "finished":
            break
        if not waited:  # bots of a second, a reaper every second: three passes, nobody moved
            version = stored(redis_client, gid)[0]
            time.sleep(3)
            assert stored(redis_client, gid)[0] == version
            waited = True
        before = stored(redis_client, gid)[0]
        for reader in ({}, auth(host)):
            _problem(http.request("GET", f"{url}/guide", headers=reader), 403, "not_a_seat")
        _problem(http.request("GET", f"{url}/guide", headers=auth(other_token)),
                 401, "invalid_token")
        _problem(http.request("GET", f"/v1/games/{other}/guide", headers=auth(other_token)),
                 409, "not_guided")
        _problem(http.request("GET", f"{url}/guide?lang=xx", headers=auth(token)),
                 422, "invalid_body")
        assert stored(redis_client, gid)[0] == before  # the refusals changed nothing
        status, _, moved = http.request(
            "POST", f"{url}/moves", actions["default"],
            {**auth(token), "If-Match": f'"{view["version"]}"'})
        assert status == 200, moved
        played += 1
    assert view["status"] == "finished" and waited and obs.checked >= 4 * played


def test_places_and_paces_on_the_deployed_service(live_server, redis_client):
    http = Http(live_server)
    # a game of bots that move inside the requests: finished once its last seat is taken
    gid, _, _ = _table(http, {"ruleset": "turandot", "players": 4, "seed": 11,
                              "options": {"bot_seconds": 0}},
                       ["easy", "medium", "easy", "medium"], person=False)
    status, _, score = http.request("GET", f"/v1/games/{gid}/score")
    assert status == 200, score
    status, _, places = http.request("GET", f"/v1/games/{gid}/places")  # anyone: public
    assert status == 200
    assert places == {"ruleset": "turandot", "places": RULESETS["turandot"].places(score)}

    playing, _, token = _table(http, {"ruleset": "turandot", "players": 3}, ["easy"])
    before = stored(redis_client, playing)[0]
    _problem(http.request("GET", f"/v1/games/{playing}/places", headers=auth(token)),
             409, "game_not_finished")
    _problem(http.request("GET", f"/v1/games/{playing}/places", headers=auth("nope")),
             401, "invalid_token")
    _problem(http.request("GET", "/v1/games/AAAAAAAAAAAA/places"), 404, "game_not_found")
    private, _, _ = _table(http, {"ruleset": "turandot", "players": 2, "private": True},
                           [], person=False)
    _problem(http.request("GET", f"/v1/games/{private}/places"), 403, "private_game")
    assert stored(redis_client, playing)[0] == before

    for name, ruleset in RULESETS.items():
        status, _, paces = http.request("GET", f"/v1/rulesets/{name}/paces")
        assert status == 200
        assert paces == {"ruleset": name, "against_bots": PACE_AGAINST_BOTS,
                         "paces": {k: dict(v) for k, v in ruleset.paces.items()}}
    _problem(http.request("GET", "/v1/rulesets/chess/paces"), 404, "ruleset_not_found")
