"""Outgoing requests to addresses other people chose (webhook endpoints), made safe (SSRF).

An endpoint's URL is checked when it is registered and again at every send:

- ``https`` only; plain ``http`` only to the hosts the operator lists
  (``WEBHOOK_ALLOW_HTTP_HOSTS``, for tests and local runs); no user name or password in it;
- its host name is resolved and EVERY address it resolves to must be public: no loopback,
  private, link-local (cloud metadata at 169.254.169.254), shared (100.64/10), multicast,
  reserved or unspecified address, IPv4 or IPv6, an IPv4 address mapped into IPv6 (or NAT64's
  64:ff9b::/96, 6to4, Teredo) judged as the IPv4 address it carries, unless the operator allows
  them (``WEBHOOK_ALLOW_PRIVATE``, tests only);
- the request then connects to the very address that was checked (:class:`PinnedAdapter`:
  the URL's host stays in the Host header, the TLS server name and the certificate check), so
  a name that resolves elsewhere a moment later (DNS rebinding) changes nothing;
- connect and read timeouts are bounded, and so is the whole attempt (a receiver that trickles
  its answer a byte at a time is cut off after the two together), the name's resolution too;
  the answer's body is read up to ``BODY_CAP`` bytes only, and redirects are never followed (a
  3xx is a failed delivery);
- a host name is sent in its ASCII form (IDNA), and a refusal names no address a name resolved
  to (the API's answer would otherwise look up the operator's internal names for anyone).
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from ..config import Config
from ..table.errors import INVALID, Refused

#: the most of a receiver's answer read (the rest is dropped with the connection)
BODY_CAP = 16 * 1024
#: the longest endpoint URL
URL_MAX = 2000

Resolver = Callable[..., list[Any]]
#: the longest a host name's resolution is waited for (the system's resolver has no timeout of
#: its own here: it goes on in its thread, of which there are a few at most)
RESOLVE_SECONDS = 5.0
_RESOLVING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="resolve")

_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class UrlRefused(Refused):
    """An endpoint URL the engine will not send to (422 ``webhook_url_refused``)."""

    def __init__(self, why: str) -> None:
        super().__init__("webhook_url_refused", INVALID, f"webhook URL refused: {why}")
        self.why = why


def address_refused(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """Why an address is not one a webhook may go to (None: a public address)."""
    if isinstance(ip, ipaddress.IPv6Address):
        carried = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if carried is None and ip in _NAT64:
            carried = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if carried is not None:
            why = address_refused(carried)
            return f"{why} (inside an IPv6 address)" if why else None
    for test, what in (("is_unspecified", "unspecified"), ("is_loopback", "loopback"),
                       ("is_link_local", "link-local"), ("is_multicast", "multicast"),
                       ("is_private", "private"), ("is_reserved", "reserved")):
        if getattr(ip, test):
            return f"a {what} address"
    if not ip.is_global:
        return "not a public address"
    return None


@dataclass(frozen=True)
class Target:
    """A checked URL: its scheme, host (lower case, IPv6 without brackets) and port."""

    url: str
    scheme: str
    host: str
    port: int


def check_url(url: str, config: Config) -> Target:
    """The URL's parts, when its form may be sent to (its addresses are checked by
    :func:`resolve`); else :class:`UrlRefused`."""
    if not isinstance(url, str) or not url or len(url) > URL_MAX:
        raise UrlRefused(f"a URL of 1 to {URL_MAX} characters is needed")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise UrlRefused("spaces and control characters are not allowed")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UrlRefused(f"not a URL ({exc})") from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if not host:
        raise UrlRefused("the URL has no host")
    if not host.isascii():  # a name in letters beyond ASCII: sent as its IDNA form
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise UrlRefused("the host is not a valid name") from None
    if parts.username is not None or parts.password is not None:
        raise UrlRefused("no user name or password in the URL")
    if scheme == "http":
        if host not in config.http_hosts:
            raise UrlRefused("only https (plain http only to the operator's "
                             "WEBHOOK_ALLOW_HTTP_HOSTS)")
    elif scheme != "https":
        raise UrlRefused("only https")
    if parts.fragment:
        raise UrlRefused("no fragment (#...) in the URL")
    return Target(url, scheme, host, port or (443 if scheme == "https" else 80))


def resolve(target: Target, config: Config, resolver: Resolver = socket.getaddrinfo
            ) -> list[str]:
    """Every address the target's host resolves to, each checked (:func:`address_refused`,
    unless ``WEBHOOK_ALLOW_PRIVATE``): one refused refuses the URL."""
    try:
        literal = ipaddress.ip_address(target.host)
    except ValueError:
        literal = None
    if literal is not None:
        found = [literal]
    else:
        try:
            infos = _RESOLVING.submit(resolver, target.host, target.port,
                                      type=socket.SOCK_STREAM).result(RESOLVE_SECONDS)
        except FutureTimeout:
            raise UrlRefused(f"{target.host} did not resolve within {RESOLVE_SECONDS:g} s") \
                from None
        except (OSError, UnicodeError) as exc:
            raise UrlRefused(f"{target.host} does not resolve ({exc})") from None
        found = []
        for info in infos:
            try:
                ip = ipaddress.ip_address(info[4][0].split("%")[0])
            except ValueError:
                continue
            if ip not in found:
                found.append(ip)
        if not found:
            raise UrlRefused(f"{target.host} resolves to no address")
    if not config.webhook_allow_private:
        for ip in found:
            why = address_refused(ip)
            if why:
                raise UrlRefused(f"{target.host}: {why}")
    return [str(ip) for ip in found]


def checked(url: str, config: Config, resolver: Resolver = socket.getaddrinfo) -> Target:
    """:func:`check_url` and :func:`resolve` (registration's check)."""
    target = check_url(url, config)
    resolve(target, config, resolver)
    return target


class Sockets:
    """The sockets an adapter's connections opened, to be cut all at once (:meth:`cut`) when an
    attempt has taken its whole time: a timeout bounds each read, not a whole answer."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open: list[socket.socket] = []
        self.was_cut = False

    def add(self, sock: socket.socket) -> None:
        with self.lock:
            self.open.append(sock)
            cut = self.was_cut
        if cut:
            self.cut()

    def cut(self) -> None:
        with self.lock:
            self.was_cut = True
            found = list(self.open)
        for sock in found:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _watched(pool: type, sockets: Sockets) -> type:
    """A connection pool class whose connections hand their socket to ``sockets``."""

    class Connection(pool.ConnectionCls):  # type: ignore[name-defined,misc]
        def connect(self) -> None:
            super().connect()
            sockets.add(self.sock)

    return type(f"Watched{pool.__name__}", (pool,), {"ConnectionCls": Connection})


class PinnedAdapter(HTTPAdapter):
    """Sends to the URL rewritten to the checked address, while TLS names (SNI) and checks
    the certificate against the URL's own host. Its connections' sockets are in ``sockets``."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.sockets = Sockets()
        super().__init__(max_retries=0, pool_connections=1, pool_maxsize=1)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self.host
        kwargs["assert_hostname"] = self.host
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _watched(HTTPConnectionPool, self.sockets),
            "https": _watched(HTTPSConnectionPool, self.sockets)}


def _connecting_to(pool: type, address: str) -> type:
    """A connection pool class whose connections open their socket to ``address`` whatever
    the URL's host (which stays the TLS server name, the certificate's name and the Host)."""

    class Connection(pool.ConnectionCls):  # type: ignore[name-defined,misc]
        def _new_conn(self) -> socket.socket:
            named = self._dns_host
            self._dns_host = address
            try:
                return super()._new_conn()
            finally:
                self._dns_host = named

    return type(f"Pinned{pool.__name__}", (pool,), {"ConnectionCls": Connection})


class AddressAdapter(HTTPAdapter):
    """Sends to the URL as it is, but connects to ``address`` (checked already): for a library
    that makes its own request from the URL (pywebpush), no second resolution of its host."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__(max_retries=0, pool_connections=1, pool_maxsize=1)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _connecting_to(HTTPConnectionPool, self.address),
            "https": _connecting_to(HTTPSConnectionPool, self.address)}


@dataclass(frozen=True)
class Outcome:
    """What a delivery attempt came to: the receiver's status (None: no answer) or the error,
    and how long it took."""

    status: int | None
    error: str | None
    ms: int

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def post(url: str, body: bytes, headers: dict[str, str], config: Config,
         resolver: Resolver = socket.getaddrinfo) -> Outcome:
    """POST ``body`` to ``url``, checked again now and sent to the checked address."""
    started = time.monotonic()

    def took() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        target = check_url(url, config)
        address = resolve(target, config, resolver)[0]
    except UrlRefused as exc:
        return Outcome(None, f"refused: {exc.why}", took())
    netloc = f"[{address}]" if ":" in address else address
    pinned = f"{target.scheme}://{netloc}:{target.port}"
    parts = urlsplit(url)
    pinned += parts.path or "/"
    if parts.query:
        pinned += "?" + parts.query
    default_port = target.port == (443 if target.scheme == "https" else 80)
    host_header = (f"[{target.host}]" if ":" in target.host else target.host) + \
        ("" if default_port else f":{target.port}")
    session = requests.Session()
    session.trust_env = False  # no proxy from the environment: the checked address is the peer
    adapter = PinnedAdapter(target.host)
    session.mount(f"{target.scheme}://", adapter)
    # the whole attempt, however slowly the receiver answers: then its sockets are cut
    limit = config.webhook_connect_timeout + config.webhook_read_timeout
    watchdog = threading.Timer(limit, adapter.sockets.cut)
    watchdog.daemon = True
    watchdog.start()
    try:
        with session.post(pinned, data=body, allow_redirects=False, stream=True,
                          headers={**headers, "Host": host_header,
                                   "Content-Type": "application/json",
                                   "User-Agent": "Impresario-Webhooks/1"},
                          timeout=(config.webhook_connect_timeout,
                                   config.webhook_read_timeout)) as answer:
            answer.raw.read(BODY_CAP, decode_content=False)
            status = answer.status_code
    except Exception as exc:  # noqa: BLE001 - whatever a receiver does is its delivery's failure
        if adapter.sockets.was_cut:
            return Outcome(None, f"no whole answer within {limit:g} s", took())
        return Outcome(None, _short(exc), took())
    finally:
        watchdog.cancel()
        session.close()
    if adapter.sockets.was_cut:
        return Outcome(None, f"no whole answer within {limit:g} s", took())
    if 300 <= status < 400:
        return Outcome(status, "redirect not followed", took())
    return Outcome(status, None if 200 <= status < 300 else f"HTTP {status}", took())


def _short(exc: Exception) -> str:
    kind = type(exc).__name__
    text = str(exc)
    return f"{kind}: {text[:200]}" if text else kind
