"""Schemathesis against the live service (real gunicorn, real Redis), from the committed spec.

Every operation gets generated requests (valid and invalid); a state machine chains
create -> join -> actions/move/events/score, leave and rematch, and the list of games, through
the spec's OpenAPI links, with each seat's token (taken from the join and rematch responses) on
the calls that need one. Every response must be
documented: no server error, a documented status code and content type, a body that matches its
schema, the documented headers, and schema-violating requests rejected. At least 1,000 cases.

``make fuzz`` runs this module bigger: ``IMPRESARIO_FUZZ_SCALE`` multiplies the example counts
(and draws new examples each run instead of the fixed ones), ``IMPRESARIO_FUZZ_MIN_CASES`` is
the number of validated requests the run must reach.
"""

from __future__ import annotations

import os
import random
import threading
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config._phases import InferenceAlgorithm
from schemathesis.specs.openapi.checks import (content_type_conformance,
                                               negative_data_rejection,
                                               response_headers_conformance,
                                               response_schema_conformance,
                                               status_code_conformance)

ROOT = Path(__file__).resolve().parents[2]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance, negative_data_rejection]
SCALE = float(os.environ.get("IMPRESARIO_FUZZ_SCALE", "1"))
DERANDOMIZE = SCALE == 1  # the fixed examples in make test; fresh ones under make fuzz
STATELESS_EXAMPLES = int(90 * SCALE)
STATEFUL_EXAMPLES = int(50 * SCALE)
STATEFUL_STEPS = 12
MIN_CASES = int(os.environ.get("IMPRESARIO_FUZZ_MIN_CASES", "1000"))

schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
# The state machine follows the spec's own links. Links that schemathesis would infer from the
# schemas' shapes are left out: from the list of games they lead into whatever games other
# cases left in the server's Redis, so the same choices meet other responses from one case to
# the next, which hypothesis reports as a flaky strategy.
schema.config.phases.stateful.inference.algorithms = [InferenceAlgorithm.LOCATION_HEADERS]
_counter_lock = threading.Lock()
CASES = {"stateless": 0, "stateful": 0}
STATUSES: dict[str, int] = {}
OPERATIONS: dict[str, int] = {}
REFUSED_BY_GUNICORN: dict[int, int] = {}


def _gunicorn_limit(response) -> bool:
    """gunicorn's own refusal of a request line or header over its limits (414 / 431, an HTML
    page before the app sees the request). Only invalid requests get there (a valid one fits:
    ids are 32 characters, tokens 256); they are counted, not held to the app's contract."""
    ctype = (response.headers.get("content-type") or [""])[0]
    if response.status_code in (414, 431) and ctype.startswith("text/html"):
        with _counter_lock:
            REFUSED_BY_GUNICORN[response.status_code] = \
                REFUSED_BY_GUNICORN.get(response.status_code, 0) + 1
        return True
    return False


def _count(kind: str, label: str) -> None:
    with _counter_lock:
        CASES[kind] += 1
        OPERATIONS[label] = OPERATIONS.get(label, 0) + 1


@pytest.fixture(scope="module")
def base_url(live_server):
    schema.config.update(base_url=live_server)
    return live_server


@pytest.fixture(scope="module")
def session():
    with requests.Session() as s:
        yield s


@schema.parametrize()
@settings(max_examples=STATELESS_EXAMPLES, deadline=None, derandomize=DERANDOMIZE,
          suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.generate])
def test_every_operation(case, base_url, session):
    _count("stateless", case.operation.label)
    response = case.call(base_url=base_url, session=session)
    if not _gunicorn_limit(response):
        case.validate_response(response, checks=CHECKS,
                               transport_kwargs={"base_url": base_url, "session": session})


class _Tables(schema.as_state_machine()):  # type: ignore[misc]
    """Remembers the tokens handed out by joinGame, and sends one on calls that take a token."""

    base_url = ""

    def get_call_kwargs(self, case):
        return {"base_url": self.base_url}

    def setup(self):
        self.tokens: dict[str, list[str]] = {}
        self.rng = random.Random(0)

    def before_call(self, case):
        game_id = (case.path_parameters or {}).get("game_id")
        known = self.tokens.get(game_id)
        if known and case.operation.label.split(" ")[1] != "/v1/games/{game_id}/seats":
            case.headers = dict(case.headers or {})
            case.headers["Authorization"] = f"Bearer {self.rng.choice(known)}"

    def after_call(self, response, case):
        if response.status_code == 201 and case.path.endswith("/seats"):
            body = response.json()
            self.tokens.setdefault(case.path_parameters["game_id"], []).append(body["token"])
        if response.status_code in (200, 201) and case.path.endswith("/rematch"):
            body = response.json()  # a seat of the new game (the links lead there)
            self.tokens.setdefault(body["rematch"], []).append(body["token"])

    def validate_response(self, response, case, **kwargs):
        _count("stateful", case.operation.label)
        label = f"{case.operation.label} {response.status_code}"
        STATUSES[label] = STATUSES.get(label, 0) + 1
        if not _gunicorn_limit(response):
            case.validate_response(response, checks=CHECKS)


def test_stateful_sequences(base_url):
    _Tables.base_url = base_url
    _Tables.run(settings=settings(max_examples=STATEFUL_EXAMPLES,
                                  stateful_step_count=STATEFUL_STEPS, deadline=None,
                                  derandomize=DERANDOMIZE,
                                  suppress_health_check=list(HealthCheck)))


def test_enough_cases_ran():
    """Runs last in this module: the two runs above made at least 1,000 validated requests
    (``IMPRESARIO_FUZZ_MIN_CASES``), every operation of the spec among them."""
    total = CASES["stateless"] + CASES["stateful"]
    print(f"schemathesis: {CASES}, {total} cases in all; per operation: "
          f"{sorted(OPERATIONS.items())}; refused by gunicorn's limits: {REFUSED_BY_GUNICORN}; "
          f"stateful responses: {sorted(STATUSES.items())}")
    assert CASES["stateful"] > 0 and CASES["stateless"] > 0, CASES
    assert total >= MIN_CASES, CASES
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    spec = {f"{m.upper()} {path}" for path, item in schema.raw_schema["paths"].items()
            for m in item if m in methods}
    assert spec <= set(OPERATIONS), sorted(spec - set(OPERATIONS))
