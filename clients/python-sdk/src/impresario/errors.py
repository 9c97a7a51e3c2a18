"""The SDK's errors: one hierarchy carrying the HTTP status, the problem's stable ``code``, its
``detail`` and the request id, so callers can branch on ``code`` and quote the request id."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from typing import Any

#: the engine's setting (an environment variable) behind each rate limit's 429 code: what its
#: operator raises, or sets to 0 to turn the limit off (docs/operations.md)
OPERATOR_SETTINGS = {
    "create_rate_limited": "RATE_LIMIT_CREATE_PER_IP",
    "rate_limited": "RATE_LIMIT_PER_IP or RATE_LIMIT_PER_TOKEN",
    "auth_rate_limited": "AUTH_FAILURES_PER_IP",
}


def operator_setting(code: str | None) -> str | None:
    """The engine's setting behind a rate limit's ``code`` (:data:`OPERATOR_SETTINGS`)."""
    return OPERATOR_SETTINGS.get(code or "")


def parse_retry_after(value: str | None) -> float | None:
    """A ``Retry-After`` header in seconds (delta-seconds or an HTTP-date, then the seconds
    until that time); None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when.timestamp() - time.time())


class ImpresarioError(Exception):
    """Base of every error the SDK raises."""

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None,
                 detail: str | None = None, request_id: str | None = None,
                 body: Any = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.detail = detail
        self.request_id = request_id
        self.body = body
        self.headers = headers or {}

    def __str__(self) -> str:
        base = super().__str__()
        if self.request_id:
            return f"{base} (request {self.request_id})"
        return base


class APIConnectionError(ImpresarioError):
    """The service could not be reached (after the retries)."""


class APIError(ImpresarioError):
    """The service answered with an error status. ``retry_after``: the seconds its
    ``Retry-After`` header asked to wait (a 429's, a 503's), None without one."""

    retry_after: float | None = None


class BadRequest(APIError):
    """400: malformed JSON or header."""


class Unauthorized(APIError):
    """401: missing or invalid token."""


class Forbidden(APIError):
    """403: the token may not do this."""


class NotFound(APIError):
    """404: no such game or ruleset."""


class Conflict(APIError):
    """409: not your turn, wrong phase, already committed, game over. Re-read before retrying."""


class PreconditionFailed(APIError):
    """412: the game moved on since the ETag sent in If-Match."""


class PayloadTooLarge(APIError):
    """413: the body is over the service's cap."""


class UnsupportedMediaType(APIError):
    """415: the body was not JSON."""


class IllegalMove(APIError):
    """422: the body is invalid, or the rules forbid the move (``code`` names the rule)."""


class RateLimited(APIError):
    """429: too many requests; ``retry_after`` says when to come back (seconds), ``setting``
    which setting of the engine's operator sets the limit (for the codes it knows)."""

    @property
    def setting(self) -> str | None:
        return operator_setting(self.code)


class ServiceUnavailable(APIError):
    """503: storage unavailable or contention; retried automatically."""


class ServerError(APIError):
    """5xx other than 503."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict,
    412: PreconditionFailed, 413: PayloadTooLarge, 415: UnsupportedMediaType, 422: IllegalMove,
    429: RateLimited, 503: ServiceUnavailable,
}


def error_for(status: int, body: Any, headers: Mapping[str, str]) -> APIError:
    """The error for a response: class by status, fields from the problem JSON, ``retry_after``
    from the ``Retry-After`` header (header names in any case)."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIError)
    lower = {k.lower(): v for k, v in headers.items()}
    code = detail = request_id = None
    if isinstance(body, dict):
        code = body.get("code")
        detail = body.get("detail")
        request_id = body.get("request_id")
    request_id = request_id or lower.get("x-request-id")
    message = f"{status} {code or 'error'}: {detail or body!r}"
    retry_after = parse_retry_after(lower.get("retry-after"))
    if retry_after is not None:
        message += f"; retry after {retry_after:g} s"
    if status == 429 and operator_setting(code):
        message += f" (the engine's limit: its operator raises {operator_setting(code)})"
    error = cls(message, status=status, code=code, detail=detail, request_id=request_id,
                body=body, headers=dict(headers))
    error.retry_after = retry_after
    return error
