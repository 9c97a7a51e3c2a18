"""Errors as RFC 9457 problem JSON: ``{type, title, status, code, detail}`` with a stable ``code``.

Every error the service returns goes through :func:`problem`, so clients see one shape.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, g

from impresario_rules.base import FINISHED, ILLEGAL, NOT_NOW, STALE, Refusal

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


#: the status of each kind of the rules' refusals (the one place a refusal meets HTTP)
RULES_STATUS = {ILLEGAL: 422, NOT_NOW: 409, STALE: 409, FINISHED: 409}


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

    @classmethod
    def from_rules(cls, err: Refusal) -> "ApiError":
        return cls(RULES_STATUS[err.kind], err.code, err.message, **err.details)


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
