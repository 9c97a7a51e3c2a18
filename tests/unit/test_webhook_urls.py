"""Where a webhook may go (usecases/outgoing.py): the URL's form, every address its name
resolves to (a resolver patched here: names that resolve to loopback, metadata, private or
mapped addresses), and a send connects to the address that was checked, naming the host in
its Host header; a redirect is a failure, never followed."""

from __future__ import annotations

import http.server
import socket
import threading
import time

import pytest

from impresario_engine.config import Config
from impresario_engine.usecases import outgoing
from impresario_engine.usecases.outgoing import (UrlRefused, address_refused, check_url, checked,
                                                 post)

STRICT = Config()
LOCAL = Config(webhook_allow_private=True, webhook_allow_http_hosts="127.0.0.1,hooks.test")


def resolver_of(*addresses: str):
    calls = []

    def resolve(host, port, type=0):  # noqa: A002 - getaddrinfo's own name
        calls.append(host)
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                 (a, port)) for a in addresses]

    resolve.calls = calls
    return resolve


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "240.0.0.1", "255.255.255.255", "::1", "::",
    "fe80::1", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe", "2002:7f00:1::1", "198.18.0.1"])
def test_non_public_addresses_are_refused(address):
    import ipaddress

    assert address_refused(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c",
                                     "::ffff:93.184.215.14"])
def test_public_addresses_pass(address):
    import ipaddress

    assert address_refused(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("url", [
    "http://example.com/x", "ftp://example.com/x", "https://user:pw@example.com/x",
    "https:///x", "https://example.com/a b", "https://example.com:99999/x", "", "x" * 3000,
    "https://example.com/x#frag", "javascript:alert(1)"])
def test_urls_of_the_wrong_form_are_refused(url):
    with pytest.raises(UrlRefused):
        checked(url, STRICT, resolver_of("93.184.215.14"))


@pytest.mark.parametrize("addresses", [
    ("127.0.0.1",), ("169.254.169.254",), ("::1",), ("::ffff:10.0.0.1",),
    ("93.184.215.14", "10.0.0.1"),  # one bad address among good ones is enough
])
def test_a_name_that_resolves_to_a_private_address_is_refused(addresses):
    with pytest.raises(UrlRefused) as refused:
        checked("https://hooks.example.com/in", STRICT, resolver_of(*addresses))
    assert refused.value.code == "webhook_url_refused"


def test_literal_addresses_and_localhost_are_refused():
    for url in ("https://127.0.0.1/x", "https://[::1]/x", "https://169.254.169.254/x",
                "https://[::ffff:127.0.0.1]/x"):
        with pytest.raises(UrlRefused):
            checked(url, STRICT)
    with pytest.raises(UrlRefused):
        checked("https://localhost/x", STRICT)  # the machine's own resolver


def test_a_public_name_passes():
    assert checked("https://hooks.example.com/in", STRICT,
                   resolver_of("93.184.215.14")).host == "hooks.example.com"


@pytest.fixture
def receiver():
    got = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            got.append((self.path, self.headers.get("Host"),
                        self.rfile.read(int(self.headers["Content-Length"]))))
            moved = self.path.startswith("/moved")
            self.send_response(302 if moved else 204)
            if moved:
                self.send_header("Location", "http://169.254.169.254/latest/meta-data")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], got
    server.shutdown()


def test_a_send_goes_to_the_checked_address_with_the_names_host(receiver):
    port, got = receiver
    resolve = resolver_of("127.0.0.1")
    outcome = post(f"http://hooks.test:{port}/in?x=1", b'{"a":1}', {"webhook-id": "m"},
                   LOCAL, resolve)
    assert outcome.delivered and outcome.status == 204, outcome
    assert resolve.calls == ["hooks.test"]  # resolved once, and that address connected to
    assert got == [("/in?x=1", f"hooks.test:{port}", b'{"a":1}')]


def test_a_send_is_checked_again(receiver):
    port, got = receiver
    # registered while allowed; the operator's allowance gone, the send is refused
    outcome = post(f"http://hooks.test:{port}/in", b"{}", {}, Config(
        webhook_allow_http_hosts="hooks.test"), resolver_of("127.0.0.1"))
    assert not outcome.delivered and outcome.status is None
    assert outcome.error.startswith("refused: ") and "loopback" in outcome.error
    assert got == []


def test_a_redirect_is_not_followed(receiver):
    port, got = receiver
    outcome = post(f"http://127.0.0.1:{port}/moved", b"{}", {}, LOCAL)
    assert not outcome.delivered and outcome.status == 302
    assert outcome.error == "redirect not followed"
    assert [p for p, _h, _b in got] == ["/moved"]


def test_no_answer_is_a_failure_within_the_timeouts():
    with socket.socket() as quiet:  # accepts, never answers
        quiet.bind(("127.0.0.1", 0))
        quiet.listen()
        port = quiet.getsockname()[1]
        config = Config(webhook_allow_private=True, webhook_allow_http_hosts="127.0.0.1",
                        webhook_read_timeout=0.3, webhook_connect_timeout=0.3)
        outcome = post(f"http://127.0.0.1:{port}/", b"{}", {}, config)
    assert outcome.status is None and "Timeout" in outcome.error
    assert outcome.ms < 3000
    assert outgoing.BODY_CAP <= 64 * 1024


def test_a_receiver_trickling_its_answer_is_cut_off_after_both_timeouts():
    """A timeout bounds each read: a receiver sending a byte every 0.2 s would hold a sender
    for ever. The whole attempt ends after the connect and read timeouts together."""
    stop = threading.Event()
    with socket.socket() as slow:
        slow.bind(("127.0.0.1", 0))
        slow.listen()
        port = slow.getsockname()[1]

        def trickle():
            conn, _ = slow.accept()
            with conn:
                conn.recv(65536)
                for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 200:
                    if stop.is_set():
                        return
                    try:
                        conn.sendall(bytes([byte]))
                    except OSError:
                        return
                    time.sleep(0.2)

        threading.Thread(target=trickle, daemon=True).start()
        config = Config(webhook_allow_private=True, webhook_allow_http_hosts="127.0.0.1",
                        webhook_read_timeout=0.5, webhook_connect_timeout=0.5)
        started = time.monotonic()
        outcome = post(f"http://127.0.0.1:{port}/", b"{}", {}, config)
        took = time.monotonic() - started
        stop.set()
    assert outcome.status is None and outcome.error == "no whole answer within 1 s", outcome
    assert took < 5


def test_a_host_beyond_ascii_is_sent_as_its_idna_name():
    config = Config(webhook_allow_private=True)
    assert check_url("https://bücher.example/hook", config).host == "xn--bcher-kva.example"
    with pytest.raises(UrlRefused):
        check_url("https://a\u200d\u0000b.example/", config)


def test_the_address_adapter_connects_to_the_checked_address_and_keeps_the_name():
    """What Web Push's requests go through (usecases/push.py): the URL's name is never resolved
    again (a name that resolves elsewhere a moment later changes nothing), and the request
    still names it (Host; TLS's server name likewise)."""
    import requests

    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            seen.append(self.headers["Host"])
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        session = requests.Session()
        session.mount("http://", outgoing.AddressAdapter("127.0.0.1"))
        answer = session.post(f"http://push.nowhere.invalid:{port}/send/x", data=b"{}",
                              timeout=5)
    finally:
        server.shutdown()
        server.server_close()
    assert answer.status_code == 201
    assert seen == [f"push.nowhere.invalid:{port}"]
