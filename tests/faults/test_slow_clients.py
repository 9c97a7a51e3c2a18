"""Slow clients (slowloris) against gunicorn as shipped (the engine's worker, gthread threads):
sockets that send part of a request and then nothing, or a head and part of a body, or connect
and send nothing, never hold the threads that serve everyone else, and are closed with 408
once ``REQUEST_READ_SECONDS`` have passed.

Bounded: 3 x (workers x threads) slow sockets on 127.0.0.1, held for a few seconds; the
module takes about 10 s.
"""

from __future__ import annotations

import json
import re
import socket
import time

from fault_helpers import Gunicorn, request

REDIS_OPTIONS = {"appendonly": False}
WORKERS, THREADS = 2, 4
READ_SECONDS = 3
KEEPALIVE = 2


def _slow_socket(port: int, kind: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if kind == 0:  # part of a request line
        s.sendall(b"GET /healthz HT")
    elif kind == 1:  # a head, and part of the body it announces
        s.sendall(b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 40\r\n\r\n{\"ruleset\": ")
    # kind 2: connected, sends nothing
    return s


def _read_response(s: socket.socket) -> tuple[bytes, bytes]:
    """One whole HTTP response from ``s``: its head, then as many body bytes as its
    Content-Length says, however the server's writes were split into segments (a ``recv()``
    may return the head alone, or part of it). Fails if the server closes before the end."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        assert chunk, f"closed in the middle of the head: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lengths = re.findall(rb"(?im)^content-length:\s*(\d+)\s*$", head)
    assert len(lengths) == 1, head
    while len(body) < int(lengths[0]):
        chunk = s.recv(65536)
        assert chunk, f"closed in the middle of the body: {body!r}"
        body += chunk
    assert len(body) == int(lengths[0]), (head, body)  # nothing past the response
    return head, body


def _probe(url: str) -> float:
    started = time.monotonic()
    status, _, body = request(url, "GET", "/healthz", timeout=5)
    elapsed = time.monotonic() - started
    assert status == 200 and body == {"status": "ok"}, (status, body)
    return elapsed


def test_slow_sockets_leave_healthz_answering(redis_server, fault_dir):
    server = Gunicorn(redis_server.url, fault_dir, workers=WORKERS, threads=THREADS,
                      env={"REQUEST_READ_SECONDS": str(READ_SECONDS),
                           "GUNICORN_KEEPALIVE": str(KEEPALIVE)}).start()
    sockets: list[socket.socket] = []
    try:
        count = 3 * WORKERS * THREADS  # more than every thread of every worker
        for i in range(count):
            sockets.append(_slow_socket(server.port, i % 3))
        time.sleep(0.5)  # every slow socket is in the server's hands
        # each probe, on a fresh connection, answers within a second while they are held
        probes = []
        for _ in range(6):
            probes.append(_probe(server.url))
            time.sleep(0.2)
        assert max(probes) < 1.0, probes
        # the slow ones are closed by the server: 408 problem JSON for those that began a
        # request, a plain close for those that never sent a byte
        answers = []
        for s in sockets:
            s.settimeout(READ_SECONDS + KEEPALIVE + 5)
            data = b""
            try:
                while chunk := s.recv(65536):
                    data += chunk
            except ConnectionResetError:
                pass
            answers.append(data)
        began = [a for i, a in enumerate(answers) if i % 3 != 2]
        assert all(a.startswith(b"HTTP/1.1 408 ") for a in began), began[:2]
        for a in began:
            head, _, body = a.partition(b"\r\n\r\n")
            assert b"Content-Type: application/problem+json" in head
            assert json.loads(body)["code"] == "request_timeout"
        assert all(a == b"" for i, a in enumerate(answers) if i % 3 == 2)
    finally:
        for s in sockets:
            s.close()
        server.stop()


def test_idle_keepalive_connection_is_closed(redis_server, fault_dir):
    server = Gunicorn(redis_server.url, fault_dir, workers=1, threads=2,
                      env={"GUNICORN_KEEPALIVE": str(KEEPALIVE)}).start()
    try:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=KEEPALIVE + 5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        head, body = _read_response(s)
        assert head.startswith(b"HTTP/1.1 200 ")
        assert json.loads(body) == {"status": "ok"}
        started = time.monotonic()
        assert s.recv(65536) == b""  # closed by the server, not by our timeout
        assert time.monotonic() - started < KEEPALIVE + 4
        s.close()
    finally:
        server.stop()


def test_gunicorn_refusals_are_problem_json(redis_server, fault_dir):
    server = Gunicorn(redis_server.url, fault_dir, workers=1, threads=2).start()
    try:
        # 414: a request line over gunicorn's limit (4094 bytes)
        status, headers, body = request(server.url, "GET", "/v1/games/" + "a" * 5000)
        assert status == 414 and headers["content-type"] == "application/problem+json"
        assert body["code"] == "uri_too_long" and body["status"] == 414
        # 431: a header field over gunicorn's limit (8190 bytes)
        status, headers, body = request(server.url, "GET", "/healthz",
                                        headers={"X-Big": "b" * 9000})
        assert status == 431 and headers["content-type"] == "application/problem+json"
        assert body["code"] == "headers_too_large"
        # 431: a head over 32 KiB of headers each within gunicorn's limits (it was answered
        # 200: the worker handed it to a thread as if it were whole)
        many = {f"X-Pad-{i}": "p" * 1000 for i in range(40)}
        status, headers, body = request(server.url, "GET", "/healthz", headers=many)
        assert status == 431 and headers["content-type"] == "application/problem+json"
        assert body["code"] == "headers_too_large" and "32768 bytes" in body["detail"]
        # and at once while such a head is still arriving: it never takes a thread to wait on
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                  + b"".join(b"X-Pad-%d: %s\r\n" % (i, b"p" * 1000) for i in range(34)))
        started = time.monotonic()
        head, _ = _read_response(s)
        assert head.startswith(b"HTTP/1.1 431 ") and time.monotonic() - started < 1.5
        s.close()
        # 400: a body whose chunked encoding is malformed (it was a 500), and the connection
        # closes, since where a next request would begin is unknown
        for path in ("/v1/games", "/v1/games/abcdefghijkl/moves"):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
                      b"Authorization: Bearer " + b"t" * 32 + b"\r\n"
                      b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      b"ZZZ\r\n{}\r\n0\r\n\r\n")
            head, raw = _read_response(s)
            assert head.startswith(b"HTTP/1.1 400 ") and b"Connection: close" in head, head
            assert json.loads(raw)["code"] == "bad_request", raw
            s.close()
        # 404, not 500: a file name with a NUL byte
        status, headers, body = request(server.url, "GET", "/web/%00.js")
        assert status == 404 and body["code"] == "not_found"
        # 400: a malformed request line
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(b"GET\x01 / HTTP/1.1\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        s.close()
        head, _, raw = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400 ")
        assert b"Content-Type: application/problem+json" in head
        assert json.loads(raw)["code"] == "bad_request"
    finally:
        server.stop()


def test_trickled_request_gets_408_at_the_deadline(redis_server, fault_dir):
    server = Gunicorn(redis_server.url, fault_dir, workers=1, threads=2,
                      env={"REQUEST_READ_SECONDS": "2", "GUNICORN_KEEPALIVE": "5"}).start()
    try:
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        started = time.monotonic()
        line = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"z" * 40
        answer = b""
        for byte in line:  # one byte every 0.25 s: never silent for long, never done
            try:
                s.sendall(bytes([byte]))
            except OSError:
                break  # closed by the server between two bytes: its answer is read below
            s.settimeout(0.25)
            try:
                answer = s.recv(65536)
            except TimeoutError:
                continue
            break
        s.settimeout(5)
        try:  # the rest of the answer (it may come in more than one piece), up to the close
            while chunk := s.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
        s.close()
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert json.loads(answer.partition(b"\r\n\r\n")[2])["code"] == "request_timeout"
        assert time.monotonic() - started < 8
    finally:
        server.stop()
