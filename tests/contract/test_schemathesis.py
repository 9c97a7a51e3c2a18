"""Schemathesis against the live service (real gunicorn, real Redis), from the committed spec.

Every operation gets generated requests (valid and invalid); a state machine chains
create -> join -> actions/move/events/score, leave and rematch, and the list of games, through
the spec's OpenAPI links, with each seat's token (taken from the join and rematch responses) on
the calls that need one. Every check schemathesis has runs on every response (its `--checks all`): no server error, a documented status code and
content type, a body that matches its schema, the documented headers, schema-violating requests
rejected, a missing token or required header refused with 401/4xx, 405 and `Allow` for a method
the spec does not list... and a request the spec says is valid accepted. A valid request the
server refuses must be on ``POSITIVE_REJECTIONS`` below, which names each rule that no schema can
express and why; any other refusal of a valid request fails the run: the spec says what the
server requires, so that a client generated from it never sends what the server refuses. At
least 1,000 cases.

``make fuzz`` runs this module bigger: ``IMPRESARIO_FUZZ_SCALE`` multiplies the example counts
(and draws new examples each run instead of the fixed ones), ``IMPRESARIO_FUZZ_MIN_CASES`` is
the number of validated requests the run must reach.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
from pathlib import Path

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import CHECKS as REGISTRY
from schemathesis.checks import load_all_checks
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi.checks import positive_data_acceptance
from schemathesis.config._phases import InferenceAlgorithm

ROOT = Path(__file__).resolve().parents[2]
SCALE = float(os.environ.get("IMPRESARIO_FUZZ_SCALE", "1"))
DERANDOMIZE = SCALE == 1  # the fixed examples in make test; fresh ones under make fuzz
STATELESS_EXAMPLES = int(90 * SCALE)
STATEFUL_EXAMPLES = int(50 * SCALE)
STATEFUL_STEPS = 12
MIN_CASES = int(os.environ.get("IMPRESARIO_FUZZ_MIN_CASES", "1000"))

# The rules a valid request (by the spec) can still break, each with why the spec does not say
# it. The spec states everything a single value must be on its own: its type, its set (enum),
# range, length and pattern, per ruleset where they differ (the players, the options). What is
# left relates a value to another value of the request, or to the state of a game or of the
# server, which a schema cannot know. (JSON Schema could relate two fields of one request with
# if/then branches, one per value; code generators ignore those, and a client generated from
# the spec would still send the request: such rules are listed here too, and say so.)
# A rule is named by the problem's `code` on an operation ("*": on any operation).
CREATE, MOVES = "POST /v1/games", "POST /v1/games/{game_id}/moves"
SEATS = "POST /v1/games/{game_id}/seats"
_TWO_FIELDS = "a relation between two fields of the request, not a property of either alone"
_STATE = "depends on the state of the game, which the request's schema cannot know"
POSITIVE_REJECTIONS: dict[tuple[str, str], str] = {
    # any operation
    ("*", "idempotency_key_reused"): "an Idempotency-Key the same caller already used with "
    "another body: the server's memory of earlier requests, not the request's shape",
    # the calculators
    ("POST /v1/rulesets/turandot/score", "not_a_permutation"): "`roles` must arrange exactly "
    "the 6 singers of `singers`: " + _TWO_FIELDS,
    ("POST /v1/rulesets/wordjam/value", "invalid_coins"): "the forbidden consonant cannot also "
    "earn coins (`forbidden` among the keys of `coins`): " + _TWO_FIELDS,
    # a new game: the options that depend on the player count or on another option
    (CREATE, "invalid_first_maestro"): "`first_maestro` is a seat of this game, below "
    "`players`: " + _TWO_FIELDS,
    (CREATE, "invalid_first_dealer"): "`first_dealer` is a seat of this game, below `players`: "
    + _TWO_FIELDS,
    (CREATE, "hands_not_multiple"): "an individual Muzicando match is a multiple of `players` "
    "hands: " + _TWO_FIELDS,
    (CREATE, "team_needs_four_players"): "`mode: team` is for 4 players (and 4 players play "
    "the team game unless `mode` says otherwise): " + _TWO_FIELDS,
    (CREATE, "team_game_has_auction"): "the team game (`mode: team`, or 4 players by default) "
    "always has the auction: " + _TWO_FIELDS,
    (CREATE, "team_needs_four_hands"): "a team match (`mode: team`, or 4 players by default) is "
    "at least 4 hands: " + _TWO_FIELDS,
    (CREATE, "auction_needs_four_or_eight"): "the individual game's auction (R11) is for 4 or "
    "8 players: " + _TWO_FIELDS,
    (CREATE, "invalid_bank_seconds"): "a time bank (`bank_seconds`) is drawn on once a move's "
    "`move_seconds` are over, so it needs them: " + _TWO_FIELDS,
    (CREATE, "invalid_bank_refill_seconds"): "`bank_refill_seconds` refills a time bank, so it "
    "needs `bank_seconds`: " + _TWO_FIELDS,
    (CREATE, "invalid_catalogue"): "a catalogue has 6 singers per category and unique ids "
    "that are not a director's name: rules about the list as a whole (uniqueItems compares "
    "whole singers, not their ids)",
    # the list of games: a cursor is opaque
    ("GET /v1/games", "invalid_cursor"): "a cursor is one the listing handed out (the `next` "
    "link of a page with the same filters): the server's memory, not the request's shape",
    ("GET /v1/games", "cursor_expired"): "a cursor is good for an hour after its page: " + _STATE,
    ("GET /v1/me/games", "invalid_cursor"): "a cursor is one the listing handed out: the "
    "server's memory, not the request's shape",
    ("GET /v1/leaderboards/{ruleset}", "invalid_cursor"): "a cursor is one the leaderboard "
    "handed out: the server's memory, not the request's shape",
    # a seat: the name as Unicode sees it, the bots of the game's ruleset
    (SEATS, "name_invisible_characters"): "a name may not hold characters that show nothing "
    "(format, private-use, unassigned code points, separators, blank letters): Unicode's "
    "character properties, which the regular expressions of JSON Schema tools cannot name",
    (SEATS, "name_blank"): "a name of blank characters only: as above, Unicode's properties",
    (SEATS, "name_too_long"): "at most 40 characters once normalised (NFKC can lengthen a "
    "name: ﷺ becomes 18 characters); the spec bounds the name as sent",
    (SEATS, "unknown_bot"): "a bot of another ruleset: the bots a game offers are its "
    "ruleset's (the spec lists every ruleset's), known from the game, not the request",
    (SEATS, "name_taken"): "a name that looks like one already at the table: " + _STATE,
    # a move: valid in shape, judged by the rules in the state of play
    (MOVES, "unknown_move_type"): "a move of another ruleset: the moves a game takes are its "
    "ruleset's (the `Move` union lists every ruleset's), known from the game, not the request",
    (MOVES, "stale_version"): "If-Match names a version the game has left: " + _STATE,
    (MOVES, "slot_out_of_range"): "a game's slots are 1 to players + 1 (the spec gives the "
    "largest table's, 1–6): " + _STATE,
    (MOVES, "empty_bid"): "a bid needs a number card or money (`slot` null with `money` 0 is "
    "empty): " + _TWO_FIELDS,
    (MOVES, "helper_bid_one_money"): "a helper's bid (`slot` null) is exactly one money: "
    + _TWO_FIELDS,
}
for _code in ("not_enough_money", "maestro_cannot_hire_helper", "no_helpers_in_director_round",
              "office_seats_mismatch", "duplicate_slot", "slot_empty", "unknown_seat",
              "cannot_nominate_self", "director_not_in_pile", "not_a_permutation"):
    POSITIVE_REJECTIONS[(MOVES, _code)] = _STATE
# a player's name: the same rules as a seat's (but no table to share it with)
for _code in ("name_invisible_characters", "name_blank", "name_too_long"):
    POSITIVE_REJECTIONS[("POST /v1/players", _code)] = POSITIVE_REJECTIONS[(SEATS, _code)]

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
_KEYS = itertools.count()
#: (operation, status, code) -> how many valid requests were refused for that allowed reason
REJECTED: dict[tuple[str, int, str], int] = {}


def _problem_code(response) -> str:
    try:
        return json.loads(response.content)["code"]
    except (ValueError, KeyError, TypeError):
        return ""


def positive_data_allowed(ctx, response, case):
    """schemathesis' positive_data_acceptance, except for the rules on POSITIVE_REJECTIONS:
    those refusals are counted (and printed by test_enough_cases_ran), any other one fails."""
    try:
        return positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        label = case.operation.label
        code = _problem_code(response)
        if (label, code) not in POSITIVE_REJECTIONS and ("*", code) not in POSITIVE_REJECTIONS:
            raise
        with _counter_lock:
            key = (label, response.status_code, code)
            REJECTED[key] = REJECTED.get(key, 0) + 1
        return None


load_all_checks()
#: every check schemathesis has (`--checks all`), positive_data_acceptance with the allow-list
CHECKS = [positive_data_allowed if check is positive_data_acceptance else check
          for check in REGISTRY.get_all() if not isinstance(check, type)]
assert positive_data_allowed in CHECKS and len(CHECKS) >= 14, CHECKS


#: gunicorn's refusals of a request over its limits, as the engine's worker answers them
GUNICORN_LIMITS = {414: "uri_too_long", 431: "headers_too_large"}


def _gunicorn_limit(response) -> bool:
    """gunicorn's own refusal of a request line or headers over its limits (414 / 431, in
    problem JSON from the engine's worker, ``worker.py``, before the app sees the request).
    Only invalid requests get there (a valid one fits: ids are 32 characters, tokens 256);
    they are counted, not held to the app's contract."""
    ctype = (response.headers.get("content-type") or [""])[0]
    if GUNICORN_LIMITS.get(response.status_code) == _problem_code(response) \
            and ctype.startswith("application/problem+json"):
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
        key = (case.headers or {}).get("Idempotency-Key")
        if key and case.meta is not None and case.meta.generation.mode.is_positive:
            # a fresh key per request: the examples repeat their keys from one sequence to the
            # next, and a replayed response (another sequence's game) would make the sequence
            # behave otherwise when hypothesis runs it again
            case.headers["Idempotency-Key"] = f"{key[:150]}-{next(_KEYS)}"

    def after_call(self, response, case):
        super().after_call(response, case)  # the recorder the stateful checks look back into
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
            case.validate_response(response, checks=CHECKS,
                                   transport_kwargs={"base_url": self.base_url},
                                   recorder=self.recorder)


def test_stateful_sequences(base_url):
    _Tables.base_url = base_url
    _Tables.run(settings=settings(max_examples=STATEFUL_EXAMPLES,
                                  stateful_step_count=STATEFUL_STEPS, deadline=None,
                                  derandomize=DERANDOMIZE,
                                  suppress_health_check=list(HealthCheck)))


def test_enough_cases_ran():
    """Runs last in this module: the two runs above made at least 1,000 validated requests
    (``IMPRESARIO_FUZZ_MIN_CASES``), every operation of the spec among them. Prints which valid
    requests were refused, by rule (all on POSITIVE_REJECTIONS, or the runs above failed)."""
    total = CASES["stateless"] + CASES["stateful"]
    print(f"schemathesis: {CASES}, {total} cases in all; per operation: "
          f"{sorted(OPERATIONS.items())}; refused by gunicorn's limits: {REFUSED_BY_GUNICORN}; "
          f"stateful responses: {sorted(STATUSES.items())}")
    print("valid requests refused, by rule (operation, status, code: count — why no schema "
          "says it):")
    for (label, status, code), count in sorted(REJECTED.items()):
        reason = POSITIVE_REJECTIONS.get((label, code)) or POSITIVE_REJECTIONS[("*", code)]
        print(f"  {label} {status} {code}: {count} — {reason}")
    assert CASES["stateful"] > 0 and CASES["stateless"] > 0, CASES
    assert total >= MIN_CASES, CASES
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    spec = {f"{m.upper()} {path}" for path, item in schema.raw_schema["paths"].items()
            for m in item if m in methods}
    assert spec <= set(OPERATIONS), sorted(spec - set(OPERATIONS))
