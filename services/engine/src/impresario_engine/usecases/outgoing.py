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
- connect and read timeouts are bounded, the answer's body is read up to ``BODY_CAP`` bytes
  only, and redirects are never followed (a 3xx is a failed delivery).
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from ..config import Config
from ..table.errors import INVALID, Refused

#: the most of a receiver's answer read (the rest is dropped with the connection)
BODY_CAP = 16 * 1024
#: the longest endpoint URL
URL_MAX = 2000

Resolver = Callable[..., list[Any]]

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
            return f"{why} (inside {ip})" if why else None
    for test, what in (("is_unspecified", "unspecified"), ("is_loopback", "loopback"),
                       ("is_link_local", "link-local"), ("is_multicast", "multicast"),
                       ("is_private", "private"), ("is_reserved", "reserved")):
        if getattr(ip, test):
            return f"{ip} is a {what} address"
    if not ip.is_global:
        return f"{ip} is not a public address"
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
            infos = resolver(target.host, target.port, type=socket.SOCK_STREAM)
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


class PinnedAdapter(HTTPAdapter):
    """Sends to the URL rewritten to the checked address, while TLS names (SNI) and checks
    the certificate against the URL's own host."""

    def __init__(self, host: str) -> None:
        self.host = host
        super().__init__(max_retries=0, pool_connections=1, pool_maxsize=1)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["server_hostname"] = self.host
        kwargs["assert_hostname"] = self.host
        super().init_poolmanager(*args, **kwargs)


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
    session.mount(f"{target.scheme}://", PinnedAdapter(target.host))
    try:
        with session.post(pinned, data=body, allow_redirects=False, stream=True,
                          headers={**headers, "Host": host_header,
                                   "Content-Type": "application/json",
                                   "User-Agent": "Impresario-Webhooks/1"},
                          timeout=(config.webhook_connect_timeout,
                                   config.webhook_read_timeout)) as answer:
            answer.raw.read(BODY_CAP, decode_content=False)
            status = answer.status_code
    except requests.RequestException as exc:
        return Outcome(None, _short(exc), took())
    finally:
        session.close()
    if 300 <= status < 400:
        return Outcome(status, "redirect not followed", took())
    return Outcome(status, None if 200 <= status < 300 else f"HTTP {status}", took())


def _short(exc: Exception) -> str:
    kind = type(exc).__name__
    text = str(exc)
    return f"{kind}: {text[:200]}" if text else kind
