"""The gunicorn worker the engine runs under: gunicorn's ``gthread`` worker with a bounded time
to send a request, and problem JSON for the requests gunicorn refuses itself.

gthread hands each connection to a thread as soon as it is readable, and the thread reads the
request with blocking reads that never time out: a client that sends part of a request line
and then nothing holds that thread for good, and a few dozen such clients hold them all
(slowloris). Here a thread gets a connection only once its request has arrived: the request's
head (up to ``HEAD_MAX`` bytes) and a body of announced length up to ``MAX_BODY_BYTES``. Until
then the bytes that come are gathered without blocking, and between them the connection waits
in the worker's poller, holding no thread (as gthread already does for a connection that has
sent nothing yet, for at most ``GUNICORN_KEEPALIVE`` seconds between bytes). A request not
whole within ``REQUEST_READ_SECONDS`` of its first byte is answered 408 ``request_timeout`` and
its connection closed. The reads a thread still makes (a chunked body, or one waiting for
``100-continue``) obey the same deadline: the application sees :class:`RequestTimeout`, which
it answers with 408 too.

Connections go to whichever worker accepts first, so a pod's workers fill unevenly, and one
whose threads are taken by event streams refused streams (503 ``too_many_streams``) while
another had room: 150 of a nominal 192 streams admitted when 224 came at once. Here the workers
of one gunicorn share a small table (in memory the master maps before it forks them) of how
many connections each is serving, and a worker serving ``BALANCE_SLACK`` more than the least
busy one stops accepting until that is no longer so; the others take the new connections.

gunicorn answers the requests it cannot parse itself (414 for a long request line, 431 for too
many or too large headers, 400 for a malformed request, 501 for an unknown transfer coding), in
HTML; here in problem JSON like every other error. TLS is not this worker's business (the
ingress ends it), so an ``is_ssl`` configuration gets gthread's behaviour unchanged.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import re
import socket
import time
import uuid

import orjson
from gunicorn.http import errors as http_errors
from gunicorn.workers import gthread
from werkzeug.exceptions import BadRequest

from .api.errors import PROBLEM_TYPE
from .api.http import EDGE_HEADERS, RequestTimeout


def _seconds(name: str, default: float) -> float:
    raw = os.environ.get(name)
    try:
        return float(raw) if raw else default
    except ValueError as exc:
        raise SystemExit(f"{name} must be a number of seconds, not {raw!r}") from exc


#: seconds a client has to send a whole request, from its first byte (0: gthread's way, no limit)
READ_SECONDS = _seconds("REQUEST_READ_SECONDS", 10.0)
#: largest request head (request line and headers) gathered; beyond it: 431
HEAD_MAX = 32 * 1024
#: the body of announced length gathered before a thread gets the request (larger ones get
#: 413 from the application without being read)
BODY_MAX = int(os.environ.get("MAX_BODY_BYTES") or 64 * 1024)

#: a worker serving this many more connections than the least busy one stops accepting
BALANCE_SLACK = 2
#: slots of the shared table (pid, connections served, last update), one per live worker
_SLOTS = 128
#: mapped by the master (which imports this module to learn its worker class) before it forks
#: the workers, so every worker of one gunicorn sees the same memory
_TABLE = multiprocessing.RawArray(ctypes.c_double, 3 * _SLOTS)
_TABLE_LOCK = multiprocessing.Lock()
#: a slot not updated for this long belongs to a worker that is gone (a live one updates it
#: at least every second: gthread's loop wakes that often)
_STALE = 2.5

_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d{1,12})[ \t]*\r\n", re.IGNORECASE)
# a body that is not simply "Content-Length bytes now": chunked, or awaiting 100-continue
_NO_GATHER = re.compile(rb"\r\n(?:transfer-encoding|expect):", re.IGNORECASE)

#: gunicorn's refusals, as (status, code, title)
_REFUSALS: list[tuple[type, int, str, str]] = [
    (RequestTimeout, 408, "request_timeout", "Request Timeout"),
    (http_errors.LimitRequestLine, 414, "uri_too_long", "URI Too Long"),
    (http_errors.LimitRequestHeaders, 431, "headers_too_large",
     "Request Header Fields Too Large"),
    (http_errors.UnsupportedTransferCoding, 501, "not_implemented", "Not Implemented"),
    (http_errors.ExpectationFailed, 417, "expectation_failed", "Expectation Failed"),
    (http_errors.ForbiddenProxyRequest, 403, "forbidden", "Forbidden"),
]
_CLIENT_ERRORS = (http_errors.ParseException, RequestTimeout)


def problem_bytes(status: int, code: str, title: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response carrying problem JSON, closing the connection."""
    rid = uuid.uuid4().hex
    body = orjson.dumps({"type": PROBLEM_TYPE + code, "title": title, "status": status,
                         "code": code, "detail": detail, "request_id": rid})
    head = [f"HTTP/1.1 {status} {title}", "Connection: close",
            "Content-Type: application/problem+json", f"Content-Length: {len(body)}",
            f"X-Request-ID: {rid}"]
    head += [f"{k}: {v}" for k, v in EDGE_HEADERS.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body


class _TimedSocket:
    """The connection's socket as the request parser sees it: while a request is being read
    (``started`` is set), every read ends by ``started + READ_SECONDS``."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.started: float | None = None
        self.expired = False

    def recv(self, size: int, *flags: int) -> bytes:
        if self.started is None:
            return self._sock.recv(size, *flags)
        remaining = self.started + READ_SECONDS - time.monotonic()
        if remaining <= 0:
            self.expired = True
            raise RequestTimeout()
        self._sock.settimeout(remaining)
        try:
            return self._sock.recv(size, *flags)
        except TimeoutError:
            self.expired = True
            raise RequestTimeout() from None
        finally:
            self._sock.settimeout(None)

    def __getattr__(self, name: str):
        return getattr(self._sock, name)


class Worker(gthread.ThreadWorker):
    """gthread, with requests gathered before they take a thread and connections balanced
    over the workers (see the module's doc)."""

    _slot: int | None = None
    _claimed = False
    _gated = False

    def set_accept_enabled(self, enabled):
        super().set_accept_enabled(enabled and not self._gated)

    def wait_for_and_dispatch_events(self, timeout):
        if not self._claimed:  # in the loop, ready to accept: only now a peer to balance with
            self._claimed = True
            self._slot = _claim_slot(os.getpid())
        if self.alive and self._slot is not None:
            busy = self.nr_conns - len(self.keepalived_conns) - len(self.pending_conns)
            base = 3 * self._slot
            _TABLE[base + 1] = busy
            _TABLE[base + 2] = time.monotonic()
            self._gated = busy > BALANCE_SLACK and busy > _least_busy(self._slot) + BALANCE_SLACK
            self.set_accept_enabled(self.nr_conns < self.worker_connections)
            if self._gated:  # look again soon: the others' load changes without waking us
                timeout = min(timeout, 0.05)
        elif not self.alive and self._slot is not None:  # stopping: no longer a peer
            _TABLE[3 * self._slot] = 0
            self._slot = None
        super().wait_for_and_dispatch_events(timeout)

    def handle(self, conn):
        if READ_SECONDS > 0 and not self.cfg.is_ssl:
            ready = self._gather(conn)
            if ready is not True:
                return ready
        return super().handle(conn)

    def handle_request(self, req, conn):
        timed = getattr(conn, "timed", None)
        req.body = _Body(req)
        try:
            keep = super().handle_request(req, conn)
        finally:
            if timed is not None:
                timed.started = None  # the response is out: what follows is gthread's
        if timed is not None and timed.expired:
            timed.expired = False
            return False  # where the next request starts is unknown: close
        return keep

    def _gather(self, conn):
        """True once the request is here (or must go to the parser); gthread's ``_DEFER`` to
        wait in the poller for more; False when the connection is done with."""
        if not conn.initialized:
            conn.init()  # plain HTTP: only makes the parser
            conn.timed = _TimedSocket(conn.parser.unreader.sock)
            conn.parser.unreader.sock = conn.timed
        timed: _TimedSocket = conn.timed
        reader = conn.parser.unreader
        held = reader.take_buffered()
        closed = False
        need = _needed(held)
        while need is None or len(held) < need:
            try:
                chunk = conn.sock.recv(65536, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            held += chunk
            need = _needed(held)
        if held and timed.started is None:
            timed.started = time.monotonic()
        if need == -1:  # a head larger than HEAD_MAX, whole or still arriving
            self._refuse(conn, 431, "headers_too_large", "Request Header Fields Too Large",
                         f"the request's line and headers exceed {HEAD_MAX} bytes")
            return False
        if need is not None and len(held) >= need:
            reader.unread(held)
            return True
        if closed or not self.alive:
            return False
        if not held:  # readable, yet nothing came: gthread's own wait for the first byte
            conn.data_ready = False
            return gthread._DEFER
        if time.monotonic() - timed.started > READ_SECONDS:
            self._refuse(conn, 408, "request_timeout", "Request Timeout",
                         f"the request did not arrive within {READ_SECONDS:g} s")
            return False
        reader.unread(held)
        return gthread._DEFER

    def murder_pending(self):
        """gthread's: close the connections silent for GUNICORN_KEEPALIVE while waiting for
        (more of) a request; those that began one learn why (408)."""
        now = time.monotonic()
        for conn in self.pending_conns:
            if conn.timeout > now:
                break
            timed = getattr(conn, "timed", None)
            if timed is not None and timed.started is not None:
                timed.started = None
                self._refuse(conn, 408, "request_timeout", "Request Timeout",
                             "the request stopped arriving before it was whole")
        super().murder_pending()

    def _refuse(self, conn, status: int, code: str, title: str, detail: str) -> None:
        self.log.info("refused a request from ip=%s: %s", conn.client[0] if conn.client else "",
                      code)
        try:
            conn.sock.setblocking(False)
            conn.sock.send(problem_bytes(status, code, title, detail))
        except OSError:
            pass

    def handle_error(self, req, client, addr, exc):
        """gunicorn's refusals (and its last-resort 500) as problem JSON, not HTML."""
        if not isinstance(exc, _CLIENT_ERRORS):
            self.log.exception("Error handling request")
            status, code, title, detail = (500, "internal_error", "Internal Server Error",
                                           "an unexpected error occurred")
        else:
            status, code, title = 400, "bad_request", "Bad Request"
            for kind, s, c, t in _REFUSALS:
                if isinstance(exc, kind):
                    status, code, title = s, c, t
                    break
            detail = str(exc) if status != 408 else \
                f"the request did not arrive within {READ_SECONDS:g} s"
            ip = addr[0] if addr else ""
            self.log.warning("Invalid request from ip=%s: %s", ip, code)
        try:
            client.setblocking(False)
            client.send(problem_bytes(status, code, title, detail[:500]))
        except OSError:
            self.log.debug("Failed to send error message.")


class _Body:
    """A request's body as the application reads it (``wsgi.input``): a body gunicorn cannot
    parse (a malformed chunk) is the client's error, 400 ``bad_request`` (werkzeug's
    BadRequest, which the application answers in problem JSON), not the application's 500;
    and since where the next request would start is then unknown, the connection closes."""

    def __init__(self, req) -> None:
        self._req = req
        self._body = req.body

    def _guarded(self, read, *args):
        try:
            return read(*args)
        except http_errors.ParseException as exc:
            self._req.must_close = True
            raise BadRequest(f"the request's body is malformed: {exc}") from None

    def read(self, *args):
        return self._guarded(self._body.read, *args)

    def readline(self, *args):
        return self._guarded(self._body.readline, *args)

    def readlines(self, *args):
        return self._guarded(self._body.readlines, *args)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


def _needed(held: bytes) -> int | None:
    """How many bytes make the request in ``held`` whole: None while its head is not all
    here, -1 when the head is too large."""
    end = held.find(b"\r\n\r\n")
    if end < 0:
        return -1 if len(held) > HEAD_MAX else None
    if end > HEAD_MAX:
        return -1
    head = held[:end + 2]
    if _NO_GATHER.search(head):
        return end + 4
    found = _LENGTH.search(head)
    if found is None:
        return end + 4
    length = int(found.group(1))
    return end + 4 + (length if length <= BODY_MAX else 0)


def _claim_slot(pid: int) -> int | None:
    """A slot of the shared table for this worker: a free one, or one whose worker is gone."""
    now = time.monotonic()
    with _TABLE_LOCK:
        for slot in range(_SLOTS):
            base = 3 * slot
            if _TABLE[base] == 0 or now - _TABLE[base + 2] > _STALE:
                _TABLE[base], _TABLE[base + 1], _TABLE[base + 2] = pid, 0, now
                return slot
    return None  # more workers than slots: this one does not take part in the balance


def _least_busy(own: int) -> float:
    """The fewest connections another live worker is serving (infinity if there is none)."""
    now = time.monotonic()
    least = float("inf")
    table = _TABLE
    for slot in range(_SLOTS):
        base = 3 * slot
        if slot != own and table[base] and now - table[base + 2] <= _STALE:
            least = min(least, table[base + 1])
    return least
