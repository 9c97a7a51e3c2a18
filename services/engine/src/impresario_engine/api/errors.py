"""Errors as RFC 9457 problem JSON: ``{type, title, status, code, detail}`` with a stable ``code``.

Every error the service returns goes through :func:`problem`, so clients see one shape. The
rules and the table refuse with a kind, never a status: :data:`STATUS_OF` is the one table that
says which status each kind is (:func:`refusal_response`). :class:`ApiError` is for what only HTTP
knows (a body that is not JSON, a query that does not parse).
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, g

from impresario_rules.base import GAME_OVER, ILLEGAL, NOT_NOW, STALE, Refusal

from ..table.errors import (BUSY, CONFLICT, FORBIDDEN, INVALID, MALFORMED, NOT_FOUND,
                            STALE_VERSION, UNAUTHENTICATED, Refused)

PROBLEM_TYPE = "https://impresario.dev/problems/"

TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    408: "Request Timeout",
    409: "Conflict",
    412: "Precondition Failed",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    428: "Precondition Required",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


#: the status of each kind of refusal, the rules' and the table's: the one place a refusal
#: meets HTTP
STATUS_OF = {
    ILLEGAL: 422, NOT_NOW: 409, STALE: 409, GAME_OVER: 409,
    UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, STALE_VERSION: 412,
    INVALID: 422, MALFORMED: 400, BUSY: 503,
}
#: the WWW-Authenticate challenge of the refusals of a bearer token
CHALLENGES = {"missing_token": "Bearer", "invalid_token": 'Bearer error="invalid_token"'}


class ApiError(Exception):
    """An error the API reports: HTTP status, stable code, human detail, optional extra fields."""

    def __init__(self, status: int, code: str, detail: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra



def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    body = {
        "type": PROBLEM_TYPE + code,
        "title": TITLES.get(status, "Error"),
        "status": status,
        "code": code,
        "detail": detail,
    }
    request_id = getattr(g, "request_id", None)
    if request_id:
        body["request_id"] = request_id
    body.update(extra)
    return body


def problem(status: int, code: str, detail: str, headers: dict[str, str] | None = None,
            **extra: Any) -> Response:
    # marshmallow keys the errors of list items by index (ints): allow non-string keys
    resp = Response(orjson.dumps(problem_body(status, code, detail, **extra),
                                 option=orjson.OPT_NON_STR_KEYS), status=status,
                    mimetype="application/problem+json")
    try:
        g.problem_code = code  # labels the request metric, so alerts can tell codes apart
    except RuntimeError:  # outside a request context
        pass
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def to_response(err: ApiError) -> Response:
    return problem(err.status, err.code, err.detail, err.headers, **err.extra)


def refusal_response(err: Refusal) -> Response:
    """The problem JSON of a refusal of the rules or the table: its kind's status, its code, its
    message and details; a bearer token's challenge, and ``Retry-After`` when it says when."""
    headers = {}
    challenge = CHALLENGES.get(err.code)
    if challenge is not None:
        headers["WWW-Authenticate"] = challenge
    retry_after = getattr(err, "retry_after", None)
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    resp = problem(STATUS_OF[err.kind], err.code, err.message, headers, **err.details)
    try:
        g.problem_code = metric_code(err)
    except RuntimeError:  # outside a request context
        pass
    return resp


def metric_code(err: Refusal) -> str:
    """The request metric's ``code`` label of a refusal: the table's code as it is, but for
    a refusal of the rules only its kind (``rules_illegal``, ``rules_not_now``, ...). Which
    rule refused a move can tell what the move was, and a sealed bid's must reach nobody but
    its player, not even through a counter that moves on a quiet server."""
    return err.code if isinstance(err, Refused) else f"rules_{err.kind}"

