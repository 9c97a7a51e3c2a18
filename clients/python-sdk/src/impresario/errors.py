"""The SDK's errors: one hierarchy carrying the HTTP status, the problem's stable ``code``, its
``detail`` and the request id, so callers can branch on ``code`` and quote the request id."""

from __future__ import annotations

from typing import Any


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
    """The service answered with an error status."""


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
    """429: too many requests; ``retry_after`` says when to come back."""


class ServiceUnavailable(APIError):
    """503: storage unavailable or contention; retried automatically."""


class ServerError(APIError):
    """5xx other than 503."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict,
    412: PreconditionFailed, 413: PayloadTooLarge, 415: UnsupportedMediaType, 422: IllegalMove,
    429: RateLimited, 503: ServiceUnavailable,
}


def error_for(status: int, body: Any, headers: dict[str, str]) -> APIError:
    """The error for a response: class by status, fields from the problem JSON."""
    cls = _BY_STATUS.get(status) or (ServerError if status >= 500 else APIError)
    code = detail = request_id = None
    if isinstance(body, dict):
        code = body.get("code")
        detail = body.get("detail")
        request_id = body.get("request_id")
    request_id = request_id or headers.get("X-Request-ID")
    message = f"{status} {code or 'error'}: {detail or body!r}"
    return cls(message, status=status, code=code, detail=detail, request_id=request_id,
               body=body, headers=dict(headers))
