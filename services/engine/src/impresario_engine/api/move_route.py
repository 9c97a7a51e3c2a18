"""A move (``POST /v1/games/<id>/moves``): its one path, in front of Flask's request machinery.

A move is most of what a table sends, and Flask's request context, routing, hooks and response
object cost more than the move itself (docs/performance.md). So this WSGI layer answers every
``POST`` to a game's moves on the API's port itself, whatever the request holds: the checks of
every route of games, in their order and through the same functions (the edge's rate limits,
``api/edge.py``; the credentials first, ``api/credentials.py``; the body, the headers and the
game's id, ``api/http.py``), the use case (``play.act``), and the answer: its problem JSON, when
it is one, from the one problem writer (``api/errors.py``), the failed authentications counted
and throttled, the edge's headers, the metric and the log line as any request's.

Everything else goes to Flask, unchanged. Flask's route of moves (``api/games.py``) is where
the operation is documented, and the spec generated from; it is never asked to answer.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl

import werkzeug.urls  # noqa: F401 - registers the "werkzeug.url_quote" error handler
from werkzeug.datastructures import ImmutableMultiDict
from werkzeug.http import HTTP_STATUS_CODES

from ..config import Config
from ..usecases import play
from ..usecases.unit import Answer, Engine
from .credentials import checked_game_id, credentials_first
from .edge import AUTH_FAILURES, Edge, request_id
from .errors import problem_of
from .http import (EDGE_HEADERS, etag, fingerprint_of, json_of, parse_idempotency_key,
                   parse_if_match, read_body)

_EDGE = list(EDGE_HEADERS.items())

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

#: the operation, as Flask names it (its credentials, its metric)
ENDPOINT = "games.make_move"


def _text(wsgi: str) -> str:
    """A WSGI string (bytes as latin-1) as the text it is (UTF-8), as Flask reads a path."""
    return wsgi if wsgi.isascii() else wsgi.encode("latin-1").decode("utf-8", "replace")


class MoveRoute:
    """The WSGI app that answers moves itself and hands every other request to ``flask``."""

    def __init__(self, flask: WsgiApp, engine: Engine, cfg: Config, edge: Edge,
                 rule: str) -> None:
        """``rule``: the move's route as Flask's URL map has it (``.../<game_id>/moves``),
        which the metrics name too."""
        self.flask = flask
        self.rule = rule
        self.head, _, self.tail = rule.partition("<game_id>")
        self.engine = engine
        self.edge = edge
        self.max_body = cfg.max_body_bytes
        # the port of the metrics answers nothing but /metrics: Flask says so
        self.metrics_port = str(cfg.metrics_port) if cfg.metrics_port else None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ["REQUEST_METHOD"] == "POST" and environ.get("SERVER_PORT") != self.metrics_port:
            path = environ.get("PATH_INFO", "")
            if path.startswith(self.head) and path.endswith(self.tail):
                game_id = path[len(self.head):len(path) - len(self.tail)]
                if game_id and "/" not in game_id:
                    return self.move(_text(game_id), environ, start_response)
        return self.flask(environ, start_response)

    def move(self, game_id: str, environ: dict[str, Any],
             start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        try:
            answer = self.play(game_id, environ)
        except Exception as exc:  # noqa: BLE001 - every error is answered as problem JSON
            return self.refuse(exc, game_id, environ, start_response, started, rid)
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

    def play(self, game_id: str, environ: dict[str, Any]) -> Answer:
        """The move's checks, in the order of every route of games (the rate limits; the
        credentials; the body, its headers and the game's id), then the move."""
        path = _text(environ["PATH_INFO"])
        self.edge.limit("POST", path, environ.get("REMOTE_ADDR") or "unknown",
                        environ.get("HTTP_AUTHORIZATION"))
        query = environ.get("QUERY_STRING", "").encode("latin-1")
        args = ImmutableMultiDict(parse_qsl(query.decode(), keep_blank_values=True,
                                            errors="werkzeug.url_quote")) if query else {}
        token = credentials_first(ENDPOINT, environ.get("HTTP_AUTHORIZATION"), args, False)
        body = json_of(environ, self.max_body)
        key = parse_idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY"))
        if_match = parse_if_match(environ.get("HTTP_IF_MATCH"))
        game_id = checked_game_id(game_id)
        fingerprint = fingerprint_of("POST", path, query,
                                     read_body(environ, self.max_body)) if key else ""
        return play.act(self.engine, game_id, token, body, if_match, key, fingerprint)

    def refuse(self, raised: Exception, game_id: str, environ: dict[str, Any],
               start_response: StartResponse, started: float, rid: str) -> Iterable[bytes]:
        """The problem JSON of what the move ended in, with the edge's headers; a failed
        authentication counted, and past its limit answered 429."""
        found = problem_of(raised, self.max_body)
        if found.metric in AUTH_FAILURES:
            found = self.edge.auth_failed((environ.get("REMOTE_ADDR") or "unknown", game_id)) \
                or found
        out = found.body(rid)
        headers = [("Content-Type", "application/problem+json"),
                   ("Content-Length", str(len(out))), *found.headers.items(),
                   ("X-Request-ID", rid), *_EDGE,
                   *self.edge.cors(environ.get("HTTP_ORIGIN"))]
        start_response(f"{found.status} {HTTP_STATUS_CODES.get(found.status, 'Error').upper()}",
                       headers)
        self.edge.account("POST", self.rule, _text(environ["PATH_INFO"]), found.status,
                          found.metric, time.perf_counter() - started, rid)
        return [out]
