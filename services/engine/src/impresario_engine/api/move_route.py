"""A move (``POST /v1/games/<id>/moves``) answered without Flask's request machinery.

A move is most of what a table sends, and Flask's request context, routing, hooks and response
object cost more than the move itself (docs/performance.md). This WSGI layer sits in front of
the app and answers a move that needs nothing else from it: the same checks in the same order,
the same use case (``play.act``), the same answer, headers, metric and log line, through the
functions the Flask route and the edge use too (api/http.py, api/edge.py).

Everything else goes to Flask, unchanged. A move goes there too, before anything is played,
whenever Flask would have something to say about it: a query string (spectator links, stream
tickets), a body that is not exactly ``application/json`` with a ``Content-Length`` within the
limit, a missing or malformed token, ``Idempotency-Key`` or ``If-Match``, a body that is not
JSON or a game id that cannot be one, the metrics port, or per-address or per-token rate limits
(off unless configured). The body read so far is handed on with the request.

Once the move is played, an error it ends in (a refusal of the rules or the table, a store that
is away, anything unexpected) is answered by the Flask route as well, from what this layer
raised (:data:`RAISED`): one place renders problems, counts failed authentications and labels
the metric with the problem's code.
"""

from __future__ import annotations

import io
import re
import time
from typing import Any, Callable, Iterable

import orjson

from ..config import Config
from ..usecases import play
from ..usecases.unit import Engine
from .edge import Edge, request_id
from .errors import ApiError
from .http import (EDGE_HEADERS, GAME_ID_PATTERN, etag, fingerprint_of, integers,
                   parse_bearer, parse_idempotency_key, parse_if_match)

#: the WSGI environ key under which an error of a move played here reaches the Flask route
RAISED = "impresario.move_raised"
_EDGE = list(EDGE_HEADERS.items())

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class MoveRoute:
    """The WSGI app that answers moves itself and hands every other request to ``flask``."""

    def __init__(self, flask: WsgiApp, engine: Engine, cfg: Config, edge: Edge,
                 rule: str) -> None:
        """``rule``: the move's route as Flask's URL map has it (``.../<game_id>/moves``),
        which the metrics name too."""
        self.flask = flask
        self.rule = rule
        head, _, tail = rule.partition("<game_id>")
        self.path = re.compile(re.escape(head) + "(" + GAME_ID_PATTERN.strip("^$") + ")"
                               + re.escape(tail))
        self.engine = engine
        self.edge = edge
        self.max_body = cfg.max_body_bytes
        # what sends every move to Flask: its port for metrics, limits counted per request
        self.metrics_port = str(cfg.metrics_port) if cfg.metrics_port else None
        self.limited = bool(cfg.rate_limit_per_ip or cfg.rate_limit_per_token)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] != "POST" or environ.get("QUERY_STRING") \
                or self.limited or environ.get("CONTENT_TYPE") != "application/json":
            return self.flask(environ, start_response)
        found = self.path.fullmatch(environ.get("PATH_INFO", ""))
        if found is None or environ.get("SERVER_PORT") == self.metrics_port:
            return self.flask(environ, start_response)
        return self.move(found.group(1), environ, start_response)

    def move(self, game_id: str, environ: dict[str, Any],
             start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        length = environ.get("CONTENT_LENGTH") or ""
        size = int(length) if length.isdigit() else -1
        if not 0 <= size <= self.max_body:
            return self.flask(environ, start_response)
        raw = b""
        try:
            raw = environ["wsgi.input"].read(size)
            if len(raw) != size:
                raise ValueError("the body is shorter than its Content-Length")
            token = parse_bearer(environ.get("HTTP_AUTHORIZATION"))
            if token is None:
                raise ValueError("no token")
            key = parse_idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY"))
            if_match = parse_if_match(environ.get("HTTP_IF_MATCH"))
            body = integers(orjson.loads(raw))
        except (ApiError, ValueError):  # orjson's JSONDecodeError is a ValueError
            return self._to_flask(environ, start_response, raw)
        except Exception as exc:  # noqa: BLE001 - the worker's RequestTimeout: Flask answers
            return self._to_flask(environ, start_response, raw, exc)
        try:
            answer = play.act(self.engine, game_id, token, body, if_match, key,
                              fingerprint_of("POST", environ["PATH_INFO"], b"", raw)
                              if key else "")
        except Exception as exc:  # noqa: BLE001 - every error is answered by the Flask route
            return self._to_flask(environ, start_response, raw, exc)
        rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        headers = list(_EDGE)
        if answer.replayed:
            headers.append(("Idempotent-Replayed", "true"))
        out = answer.json()
        headers += [("ETag", etag(answer.body["version"])), ("Content-Type", "application/json"),
                    ("Content-Length", str(len(out))), ("X-Request-ID", rid)]
        headers += self.edge.cors(environ.get("HTTP_ORIGIN"))
        start_response("200 OK", headers)
        self.edge.account("POST", self.rule, environ["PATH_INFO"], 200, "",
                          time.perf_counter() - started, rid)
        return [out]

    def _to_flask(self, environ: dict[str, Any], start_response: StartResponse, raw: bytes,
                  raised: BaseException | None = None) -> Iterable[bytes]:
        """The request handed to Flask with the body read so far (and what the move raised,
        for the route to answer)."""
        environ["wsgi.input"] = io.BytesIO(raw)
        if raised is not None:
            environ[RAISED] = raised
        return self.flask(environ, start_response)
