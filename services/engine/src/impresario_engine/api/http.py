"""Small HTTP helpers shared by the blueprints: JSON in and out, bearer tokens, ETags."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import orjson
from flask import Response, current_app, request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge
from werkzeug.http import parse_options_header
from werkzeug.wsgi import get_content_length, get_input_stream

from .errors import ApiError, RequestTimeout  # noqa: F401 - RequestTimeout: the worker's

#: a game's id, as the engine makes them (any other id is 404 ``game_not_found``)
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{1,32}$"
IDEMPOTENCY_KEY_MAX = 200
#: an Idempotency-Key: 1 to 200 visible ASCII characters, spaces allowed inside (a UUID will do)
IDEMPOTENCY_KEY_PATTERN = (r"^[\x21-\x7e]([\x20-\x7e]{0,%d}[\x21-\x7e])?$"
                           % (IDEMPOTENCY_KEY_MAX - 2))
#: If-Match: the game's ETag as sent in the ETag header ("12"), weak (W/"12") or bare (12)
IF_MATCH_PATTERN = r'^(W/)?"[0-9]{1,18}"$|^[0-9]{1,18}$'
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-site",
}
API_CSP = "default-src 'none'; frame-ancestors 'none'"
#: what every API response carries (edge.py adds them to responses made elsewhere)
EDGE_HEADERS = {"Cache-Control": "no-store", **SECURITY_HEADERS,
                "Content-Security-Policy": API_CSP}


class JsonResponse(Response):
    """A JSON response born with the edge headers (adding them one by one afterwards, as
    ``after_request`` must for other responses, costs more than building the response)."""

    edge_headers = True


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``body`` as JSON (``bytes``: already encoded) with the edge's headers and ``headers``."""
    merged = EDGE_HEADERS if not headers else {**EDGE_HEADERS, **headers}
    data = body if type(body) is bytes else orjson.dumps(body)
    return JsonResponse(data, status=status, headers=list(merged.items()),
                        mimetype="application/json")


#: the WSGI environ key under which a request's body is kept once read
BODY = "impresario.body"


def media_type(environ: dict[str, Any]) -> str:
    """The request's media type, as werkzeug reads ``Content-Type`` (lower case, no
    parameters)."""
    raw = environ.get("CONTENT_TYPE") or ""
    if raw == "application/json":  # the usual header, exactly, needs no parsing
        return raw
    return parse_options_header(raw)[0].lower()


def read_body(environ: dict[str, Any], limit: int) -> bytes:
    """The request's body, read once (kept in the environ for whoever asks again): 413 when it
    is larger than ``limit``."""
    raw = environ.get(BODY)
    if raw is not None:
        return raw
    length = environ.get("CONTENT_LENGTH")
    if length and length.isascii() and length.isdigit() and int(length) <= limit:
        # the usual request, read straight from the server's stream (as get_input_stream
        # would, without its wrapper): a body shorter than it says is a client that left
        size = int(length)
        raw = environ["wsgi.input"].read(size) if size else b""
        if len(raw) != size:
            raise ClientDisconnected()
    else:
        raw = get_input_stream(environ, max_content_length=limit).read()
        # a body without Content-Length (chunked) is cut at the cap by werkzeug, silently:
        # anything left beyond it makes the body too large, not a shorter one
        if get_content_length(environ) is None and len(raw) >= limit \
                and environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    environ[BODY] = raw
    return raw


def json_of(environ: dict[str, Any], limit: int) -> Any:
    """The request's JSON body: 415 unless it is JSON, 413 when over ``limit``, 400 when it
    does not parse; every number without a fraction an integer (:func:`integers`)."""
    mimetype = media_type(environ)
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type",
                       f"send the body as application/json, not {mimetype or 'nothing'}")
    raw = read_body(environ, limit)
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "malformed_json", f"the body is not valid JSON: {exc}") from exc
    return integers(body)


def json_body() -> Any:
    """This request's JSON body (:func:`json_of`)."""
    return json_of(request.environ, current_app.config["MAX_CONTENT_LENGTH"])


# JSON has one kind of number, and JSON Schema (so the spec) counts 3.0 as the integer 3: a
# number without a fraction is read as an integer wherever it is, as the spec promises.
def integers(value: Any) -> Any:
    """``value`` with every float without a fraction an int, in one walk (lists and dicts
    changed in place: the body was just parsed and is nobody else's; replacing a value while
    iterating keeps a dict's size). Not recursive: a body may nest 1,000 deep."""
    if type(value) is float:
        return int(value) if value.is_integer() else value
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        for key, inner in item.items() if kind is dict else enumerate(item) if kind is list else ():
            inner_kind = type(inner)
            if inner_kind is float:
                if inner.is_integer():
                    item[key] = int(inner)
            elif inner_kind is dict or inner_kind is list:
                stack.append(inner)
    return value


def bearer_token(longest: int = 256) -> str | None:
    return parse_bearer(request.headers.get("Authorization"), longest)


#: the longest bearer the routes that take a player read: a platform's JWT, claims and all
JWT_MAX = 8192


def parse_bearer(header: str | None, longest: int = 256) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without the header);
    401 ``invalid_token`` when it is of another form or longer than ``longest`` (a game's
    tokens are 32 characters; a platform's JWT, on the players' routes, may be kilobytes)."""
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > longest:
        raise ApiError(401, "invalid_token", "use 'Authorization: Bearer <token>'",
                       headers={"WWW-Authenticate": 'Bearer error="invalid_request"'})
    return token


def parse_if_match(raw: str | None) -> int | None:
    """The version an ``If-Match`` header names (None without it); 400 when malformed."""
    if raw is None:
        return None
    value = raw.strip()
    if not _IF_MATCH.fullmatch(value):  # ASCII digits only: int() would take "²" or "1_0"
        raise ApiError(400, "invalid_if_match", "If-Match must be the game's ETag, e.g. \"12\"")
    return int(value.removeprefix("W/").strip('"'))


def idempotency_key() -> str | None:
    return parse_idempotency_key(request.headers.get("Idempotency-Key"))


def parse_idempotency_key(key: str | None) -> str | None:
    """An ``Idempotency-Key`` header's key (None without it); 400 when malformed."""
    if key is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(key):
        raise ApiError(400, "invalid_idempotency_key",
                       f"Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} visible ASCII "
                       f"characters (spaces allowed between them)")
    return key


def fingerprint() -> str:
    """What makes two requests 'the same' for idempotency: method, path, query and body (a
    join link's ``?join=`` is part of the request: a replay without it is another request)."""
    return fingerprint_of(request.method, request.path, request.query_string,
                          read_body(request.environ, current_app.config["MAX_CONTENT_LENGTH"]))


def fingerprint_of(method: str, path: str, query: bytes, body: bytes) -> str:
    return hashlib.sha256(b"".join((method.encode(), b" ", path.encode(), b"?", query, b"\n",
                                    body))).hexdigest()


def replay_headers(answer: Any) -> dict[str, str]:
    """``Idempotent-Replayed`` on an answer (``usecases.unit.Answer``) given again for its
    Idempotency-Key."""
    return {"Idempotent-Replayed": "true"} if answer.replayed else {}


def etag(version: int) -> str:
    return f'"{version}"'


def engine():
    """The use cases' :class:`~impresario_engine.usecases.unit.Engine` of this app."""
    return current_app.extensions["impresario"]
