"""The contract check every test of the app runs (tests/conftest.py, ``app_factory``) refuses
what openapi.yaml does not allow, with jsonschema-rs answering first: a body that breaks its
schema is still refused, with openapi-core's own message, and one that fits passes."""

from __future__ import annotations

import copy
import json

import pytest
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request, Response



def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _check(spec, path: str, token: str, body: dict) -> None:
    request = Request(EnvironBuilder(path=path, headers=auth(token)).get_environ())
    response = Response(json.dumps(body), status=200, headers={
        "Content-Type": "application/json", "ETag": '"1"'})
    spec.validate_response(WerkzeugOpenAPIRequest(request), WerkzeugOpenAPIResponse(response))


@pytest.mark.parametrize("ruleset", ["turandot", "wordjam", "muzicando"])
def test_a_view_that_breaks_its_schema_is_refused_and_one_that_fits_passes(
        client, openapi_spec, ruleset):
    players = {"turandot": 3, "wordjam": 5, "muzicando": 3}[ruleset]
    created = client.post("/v1/games", json={"ruleset": ruleset, "players": players,
                                             "seed": 1}).get_json()
    gid = created["game"]["id"]
    tokens = [client.post(f"/v1/games/{gid}/seats", json={"name": f"P{i}"}).get_json()["token"]
              for i in range(players)]
    resp = client.get(f"/v1/games/{gid}", headers=auth(tokens[0]))
    view = resp.get_json()
    path = f"/v1/games/{gid}"
    _check(openapi_spec, path, tokens[0], view)  # as served: fits

    broken = []
    extra = copy.deepcopy(view)
    extra["deck"] = [1, 2, 3]  # a property the schema does not have
    broken.append(extra)
    wrong_type = copy.deepcopy(view)
    wrong_type["version"] = "seven"
    broken.append(wrong_type)
    other_game = copy.deepcopy(view)
    other_game["ruleset"] = "muzicando" if ruleset != "muzicando" else "turandot"
    broken.append(other_game)  # a body of one ruleset named as another's
    missing = copy.deepcopy(view)
    del missing["players"]
    broken.append(missing)
    for body in broken:
        with pytest.raises(Exception) as refused:
            _check(openapi_spec, path, tokens[0], body)
        assert "InvalidData" in type(refused.value).__name__ or \
            "Invalid" in repr(refused.value), refused.value
