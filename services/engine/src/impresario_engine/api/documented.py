"""How an operation's problem-JSON answers are documented in the spec: the statuses it may
answer, each with its description and an example (the codes each status may carry are listed
per operation in ``problems.py``)."""

from __future__ import annotations

from flask_smorest import Blueprint

from . import schemas as s
from .errors import TITLES

PROBLEM = "application/problem+json"


def problems(*statuses: int, blueprint: Blueprint,
             examples: dict[int, tuple[str, str]] | None = None):
    """Document the problem-JSON responses an operation can return (429 always: rate limits
    apply to every /v1 operation when configured); ``examples``: the operation's own example
    (code, detail) for some statuses."""
    target = blueprint
    examples = {**_EXAMPLES, **(examples or {})}

    def wrap(fn):
        documented = fn
        for status in (*statuses, 429):
            headers = ({"Retry-After": {"description": "seconds to wait",
                                        "schema": {"type": "string"}}}
                       if status in (429, 503) else None)
            code, detail = examples[status]
            example = {"type": f"https://impresario.dev/problems/{code}",
                       "title": TITLES[status], "status": status, "code": code,
                       "detail": detail, "request_id": "7f3c2a9e41b54d0c8e2f6a1b9d3c5e70"}
            documented = target.alt_response(status, schema=s.ProblemSchema,
                                             content_type=PROBLEM,
                                             description=_DESCRIPTIONS[status],
                                             headers=headers, example=example)(documented)
        # keep the documentation, not the ten call-through wrappers it came with
        fn._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return fn
    return wrap


_DESCRIPTIONS = {
    400: "Malformed request (bad JSON, bad header)",
    401: "Missing or invalid bearer token",
    403: "The token's role may not do this (a private game: `private_game`, "
         "`join_link_required`, `spectator_read_only`, `invalid_join_token`)",
    404: "No such game or ruleset",
    409: "Conflicts with the state of play (not your turn, wrong phase, already committed, game over)",
    412: "If-Match does not match the game's version",
    413: "Body larger than the configured cap",
    415: "Body is not JSON",
    422: "Body invalid, or a move the rules forbid (the code names the rule)",
    429: "Too many requests from this token or address (`rate_limited`), games created "
         "from this address (`create_rate_limited`), or failed authentications from it "
         "(`auth_rate_limited`)",
    503: "Storage unavailable or too much contention; retry after Retry-After",
}


_EXAMPLES = {
    400: ("malformed_json", "the body is not valid JSON: unexpected end of data"),
    401: ("invalid_token", "the bearer token is not valid for this game"),
    403: ("not_a_seat", "only a seated player can make moves; the host token is for managing "
                        "the game"),
    404: ("game_not_found", "there is no game 'x9'"),
    409: ("not_your_turn", "only the maestro assigns the office hires"),
    412: ("stale_version", "the game is at version 12, not 11"),
    413: ("body_too_large", "the body is larger than 65536 bytes"),
    415: ("unsupported_media_type", "send the body as application/json, not text/plain"),
    422: ("maestro_cannot_hire_helper", "the maestro may not bid for a helper (money-only bid)"),
    429: ("rate_limited", "more than 600 requests a minute from this token; slow down"),
    503: ("storage_unavailable", "the game store is unavailable; try again"),
}
