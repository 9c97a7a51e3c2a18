"""Errors as RFC 9457 problem JSON: ``{type, title, status, code, detail}`` with a stable ``code``.

Every error a request ends in becomes a :class:`Problem` in one place, :func:`problem_of` (the
move's own route and Flask's error handlers both ask it), so clients see one shape. The rules
and the table refuse with a kind, never a status: :data:`STATUS_OF` is the one table that says
which status each kind is. :class:`ApiError` is for what only HTTP
knows (a body that is not JSON, a query that does not parse).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import orjson
from flask import Response, g
from werkzeug.exceptions import HTTPException

from impresario_rules.base import GAME_OVER, ILLEGAL, NOT_NOW, STALE, Refusal

from ..store import StoreUnavailable
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



log = logging.getLogger("impresario_engine")

#: the codes of the HTTP errors werkzeug raises (routing, methods, bodies)
HTTP_CODES = {
    400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large",
    415: "unsupported_media_type", 422: "invalid_body",
}


class RequestTimeout(Exception):
    """The client did not send its whole request within ``REQUEST_READ_SECONDS`` (raised by the
    worker's reads, :mod:`impresario_engine.worker`; answered 408 ``request_timeout``)."""


@dataclass
class Problem:
    """A problem JSON answer: its status, stable code, detail, extra fields and headers;
    ``metric``: the code the request's metric is labelled with."""

    status: int
    code: str
    detail: str
    headers: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    metric: str = ""

    def body(self, request_id: str | None) -> bytes:
        """The problem JSON (``request_id``: the request's, when it has one)."""
        body = {"type": PROBLEM_TYPE + self.code, "title": TITLES.get(self.status, "Error"),
                "status": self.status, "code": self.code, "detail": self.detail}
        if request_id:
            body["request_id"] = request_id
        body.update(self.extra)
        # marshmallow keys the errors of list items by index (ints): allow non-string keys
        return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)


def problem_of(err: BaseException, max_body: int) -> Problem:
    """The problem JSON of whatever error a request ends in, every route's and the move's
    (``max_body``: the cap a 413 names): the API's own, a refusal of the rules or the table
    (its kind's status, its code, message and details; a bearer token's challenge, and
    ``Retry-After`` when it says when), a store that is away, a request that came too slowly,
    werkzeug's, anything unexpected (500, logged)."""
    if isinstance(err, ApiError):
        return Problem(err.status, err.code, err.detail, dict(err.headers), dict(err.extra),
                       err.code)
    if isinstance(err, Refusal):
        headers = {}
        challenge = CHALLENGES.get(err.code)
        if challenge is not None:
            headers["WWW-Authenticate"] = challenge
        retry_after = getattr(err, "retry_after", None)
        if retry_after is not None:
            headers["Retry-After"] = str(retry_after)
        return Problem(STATUS_OF[err.kind], err.code, err.message, headers, dict(err.details),
                       metric_code(err))
    if isinstance(err, StoreUnavailable):
        log.warning("redis unavailable: %s", err)
        return Problem(503, "storage_unavailable", "the game store is unavailable; try again",
                       {"Retry-After": "2"}, metric="storage_unavailable")
    if isinstance(err, RequestTimeout):
        # the body did not arrive in time (the worker's deadline); the worker closes the
        # connection after this answer
        return Problem(408, "request_timeout", "the request did not arrive in time",
                       metric="request_timeout")
    if isinstance(err, HTTPException):
        status = err.code or 500
        code = HTTP_CODES.get(status, "http_error")
        detail = err.description or ""
        if status == 413:
            detail = f"the body is larger than {max_body} bytes"
        extra = {}
        data = getattr(err, "data", None)
        if status == 422 and data and "messages" in data:  # webargs (query strings)
            extra["errors"] = data["messages"]
            detail = "invalid query parameters"
        headers = {}
        if status == 405 and getattr(err, "valid_methods", None):
            headers["Allow"] = ", ".join(err.valid_methods)  # type: ignore[attr-defined]
        return Problem(status, code, detail, headers, extra, code)
    log.error("unhandled error", exc_info=err)
    return Problem(500, "internal_error", "an unexpected error occurred",
                   metric="internal_error")


def respond(found: Problem) -> Response:
    """``found`` as Flask's response (its code labels the request's metric)."""
    resp = Response(found.body(getattr(g, "request_id", None)), status=found.status,
                    mimetype="application/problem+json")
    try:
        g.problem_code = found.metric  # labels the request metric, so alerts can tell codes apart
    except RuntimeError:  # outside a request context
        pass
    for k, v in found.headers.items():
        resp.headers[k] = v
    return resp


def problem(status: int, code: str, detail: str, headers: dict[str, str] | None = None,
            **extra: Any) -> Response:
    """A problem JSON response of Flask's."""
    return respond(Problem(status, code, detail, dict(headers or {}), extra, code))


def metric_code(err: Refusal) -> str:
    """The request metric's ``code`` label of a refusal: the table's code as it is, but for
    a refusal of the rules only its kind (``rules_illegal``, ``rules_not_now``, ...). Which
    rule refused a move can tell what the move was, and a sealed bid's must reach nobody but
    its player, not even through a counter that moves on a quiet server."""
    return err.code if isinstance(err, Refused) else f"rules_{err.kind}"
