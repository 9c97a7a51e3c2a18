"""Web Push: players' subscriptions (a browser's ``PushSubscription``), and the channel that
tells them, outside the table, that it is their move, that their time runs out, or that the
game is over (the texts: table/notices.py).

- Off unless the service has a VAPID key (``VAPID_PRIVATE_KEY_FILE``, ``VAPID_SUBJECT``):
  every call then refuses with 404 ``push_unavailable`` and :func:`deliver` sends nothing.
- Only games that concern a subscribed player carry ``doc["notify"]``: the flag is set on the
  player's open and playing games when the player subscribes, and on a game a subscribed
  player joins. The outbox's sender hands the writes of those games, and only those, to
  :func:`deliver`; ordinary games cost nothing more.
- Each notice is sent once: a key per (game, kind, seat, turn) set with SET NX before the
  sending (a write handed over twice, or the deadline loop's next turn, sends nothing more).
- Sent with pywebpush (payload encrypted aes128gcm to the subscription's keys, VAPID signed),
  each within ``PUSH_TIMEOUT_SECONDS``, never to a loopback, private or reserved address
  (unless ``PUSH_ALLOW_PRIVATE``: tests), never following a redirect. A subscription the push
  service answers 404 or 410 is deleted. Nothing is logged of an endpoint but its host, nor
  anything of a payload.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import logging
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from impresario_rules import RULESETS

from ..config import Config
from ..table import notices
from ..table.clock import OPEN, PLAYING
from ..table.errors import CONFLICT, INVALID, NOT_FOUND, Refused
from ..table.players import Player
from .outgoing import AddressAdapter
from .unit import Engine, Loaded, Save, transact

log = logging.getLogger("impresario_engine.push")

ENDPOINT_MAX = 1024
#: subscriptions one player may keep (one per browser or device)
MOST_SUBSCRIPTIONS = 10
#: how long a notice sent is remembered (the longest turn, 7 days, and a day more)
SENT_TTL = 8 * 86400
#: how long a push service keeps a notice for a device that is offline (at most)
TTL_MAX = 7 * 86400
#: the player's games, newest first, that a new subscription flags (a player sits at fewer)
GAMES_FLAGGED = 200


def unavailable() -> Refused:
    return Refused("push_unavailable", NOT_FOUND, "this server sends no Web Push "
                   "notifications (it has no VAPID key: VAPID_PRIVATE_KEY_FILE)")


def configured(config: Config) -> bool:
    return bool(config.vapid_private_key_file)


_keys: dict[str, Any] = {}
_keys_lock = threading.Lock()


class VapidKeyError(Exception):
    """``VAPID_PRIVATE_KEY_FILE`` cannot be read, or holds no P-256 private key."""


def vapid(config: Config) -> Any:
    """The service's VAPID key (py_vapid), read once per file. Read here, not by
    ``Vapid.from_file``, which makes and writes a new key where the file is missing (each pod
    would sign with a key of its own, and the browsers' subscriptions would not match)."""
    if not configured(config):
        raise unavailable()
    path = config.vapid_private_key_file
    with _keys_lock:
        found = _keys.get(path)
        if found is None:
            from py_vapid import Vapid  # only where Web Push is on

            try:
                with open(path, "rb") as fh:
                    pem = fh.read()
            except OSError as exc:
                raise VapidKeyError(f"cannot read {path}: {exc.strerror}") from None
            try:
                found = Vapid.from_pem(pem)
            except Exception:  # noqa: BLE001 (py_vapid raises what cryptography raised)
                raise VapidKeyError(f"{path} holds no PEM private key (python -m "
                                    "impresario_engine vapid-key writes one)") from None
            if getattr(found.private_key, "curve", None) is None \
                    or found.private_key.curve.name != "secp256r1":
                raise VapidKeyError(f"{path}: a VAPID key is a P-256 (secp256r1) key")
            _keys[path] = found
    return found


def public_key(config: Config) -> str:
    """The application server key a browser subscribes with: the VAPID public key, an
    uncompressed P-256 point, base64url without padding."""
    raw = vapid(config).public_key.public_bytes(serialization.Encoding.X962,
                                                 serialization.PublicFormat.UncompressedPoint)
    return _b64(raw)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes | None:
    if not isinstance(text, str) or not text or len(text) > 200 \
            or not all(c.isalnum() or c in "-_=" for c in text) or not text.isascii():
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


# ---------------------------------------------------------------------------- subscriptions
def _invalid(field: str, why: str) -> Refused:
    return Refused("invalid_subscription", INVALID, f"{field}: {why}", errors={field: [why]})


def _literal_private(host: str) -> bool:
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_global
    except ValueError:
        return False  # a name: resolved (and checked) when a notice is sent


def checked(config: Config, endpoint: Any, p256dh: Any, auth: Any) -> tuple[str, str, str]:
    """A subscription's endpoint and keys, checked (422 ``invalid_subscription`` naming the
    field otherwise): an https URL of a public host, at most :data:`ENDPOINT_MAX` characters;
    ``p256dh`` a P-256 public key (65 bytes, uncompressed), ``auth`` 16 bytes, both
    base64url."""
    if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= ENDPOINT_MAX \
            or not endpoint.isascii() or not endpoint.isprintable() or " " in endpoint:
        raise _invalid("endpoint", f"a URL of at most {ENDPOINT_MAX} characters")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (raises on a port that is not one)
    except ValueError:
        raise _invalid("endpoint", "not a URL") from None
    schemes = ("https", "http") if config.push_allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname or parts.username is not None \
            or parts.password is not None or parts.fragment:
        raise _invalid("endpoint", "an https URL of a push service, without credentials or "
                                   "fragment")
    if not config.push_allow_private and _literal_private(parts.hostname):
        raise _invalid("endpoint", "a push service's public host, not a local or private "
                                   "address")
    key = _unb64(p256dh)
    if key is None or len(key) != 65 or key[0] != 4:
        raise _invalid("keys.p256dh", "a P-256 public key: 65 bytes, base64url")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    except ValueError:
        raise _invalid("keys.p256dh", "not a point of P-256") from None
    secret = _unb64(auth)
    if secret is None or len(secret) != 16:
        raise _invalid("keys.auth", "16 bytes, base64url")
    return endpoint, _b64(key), _b64(secret)


def subscription_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:32]


def _view(sub_id: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"id": sub_id, "endpoint": record["endpoint"], "lang": record["lang"],
            "created": record["created"]}


def subscribe(engine: Engine, player: Player, endpoint: Any, p256dh: Any, auth: Any,
              lang: str) -> tuple[dict[str, Any], bool]:
    """Keep a browser's subscription for the player (the same endpoint again: replaced, its
    language updated); (the subscription, whether it is new). The player's open and playing
    games are flagged for the sender (``doc["notify"]``)."""
    config = engine.config
    if not configured(config):
        raise unavailable()
    endpoint, p256dh, auth = checked(config, endpoint, p256dh, auth)
    if lang not in notices.LANGUAGES:
        raise _invalid("lang", f"one of {', '.join(notices.LANGUAGES)}")
    store = engine.store
    sub_id = subscription_id(endpoint)
    record = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}, "lang": lang,
              "created": round(engine.clock(), 3)}
    new = sub_id not in store.push.of(player.id)
    if not store.push.put(player.id, sub_id, orjson.dumps(record), MOST_SUBSCRIPTIONS):
        raise Refused("too_many_subscriptions", CONFLICT, f"a player keeps at most "
                      f"{MOST_SUBSCRIPTIONS} subscriptions: delete one first")
    flag_games(engine, player.id)
    return _view(sub_id, record), new


def listed(engine: Engine, player: Player) -> list[dict[str, Any]]:
    if not configured(engine.config):
        raise unavailable()
    found = engine.store.push.of(player.id)
    return sorted((_view(k, orjson.loads(v)) for k, v in found.items()),
                  key=lambda v: (v["created"], v["id"]))


def unsubscribe(engine: Engine, player: Player, sub_id: str) -> None:
    if not configured(engine.config):
        raise unavailable()
    if not engine.store.push.drop(player.id, sub_id):
        raise Refused("subscription_not_found", NOT_FOUND,
                      f"the player has no subscription {sub_id!r}")


def flag_games(engine: Engine, player_id: str) -> int:
    """Flag the player's open and playing games for the sender; how many were flagged now."""
    store, flagged = engine.store, 0
    for game_id, _when in store.players.games(player_id, None, GAMES_FLAGGED):
        _v, doc, _i, _r = store.read_game(game_id)
        if doc is None or doc.get("notify") or doc["status"] not in (OPEN, PLAYING) \
                or player_id not in notices.owned_seats(doc).values():
            continue

        def step(loaded: Loaded):
            new = dict(loaded.doc)
            new["notify"] = True
            return Save(new, [], quiet=True)  # no activity: the game's idle time goes on
        try:
            transact(engine, game_id, step)
            flagged += 1
        except Refused:  # gone meanwhile, or too busy: its next join or subscribe flags it
            continue
    return flagged


def wanted(engine: Engine, player_id: str | None) -> bool:
    """Whether a game this player joins is to be flagged (the player has a subscription)."""
    return bool(player_id) and configured(engine.config) and \
        engine.store.push.has_any(player_id)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- the channel
def deliver(engine: Engine, game_id: str, doc: dict[str, Any],
            events: list[tuple[int, dict[str, Any]]]) -> int:
    """The channel the outbox's sender calls for each write of a flagged game (``events``:
    the write's, ``(seq, event)``): the notices the game now calls for, each sent once to
    every subscription of its player. How many notifications were sent."""
    if not events or not doc.get("notify") or not configured(engine.config):
        return 0
    now = engine.clock()
    ruleset = RULESETS[doc["ruleset"]]
    return _send_all(engine, game_id, doc, notices.after_write(doc, ruleset, now), now)


def deadlines_near(engine: Engine, now: float, limit: int = 1000) -> int:
    """For the notify loop, each turn: "time is running out" to the subscribed players whose
    deadline is within ``PUSH_DEADLINE_NEAR_SECONDS`` (read from the deadline index), once per
    turn. How many notifications were sent."""
    config = engine.config
    if not configured(config):
        return 0
    within = config.push_deadline_near_seconds
    sent = 0
    # page by page: the window holds every game with a deadline in it, notified or not (the
    # real-time ones first), and a game in the window's end must be looked at too
    for page in range(MAX_PAGES):
        found = engine.store.due_between(now, now + within, limit, page * limit)
        for game_id in found:
            _v, doc, _i, _r = engine.store.read_game(game_id)
            if doc is None or not doc.get("notify"):
                continue
            ruleset = RULESETS[doc["ruleset"]]
            sent += _send_all(engine, game_id, doc,
                              notices.deadlines_near(doc, ruleset, now, within), now)
        if len(found) < limit:
            break
    return sent


#: the most pages of games :func:`deadlines_near` reads in one look
MAX_PAGES = 20


def _send_all(engine: Engine, game_id: str, doc: dict[str, Any],
              found: list[notices.Notice], now: float) -> int:
    if not found:
        return 0
    store = engine.store
    subs = store.push.of_many(sorted({n.player for n in found}))
    title = RULESETS[doc["ruleset"]].title
    sent = 0
    for notice in found:
        mine = subs.get(notice.player)
        if not mine or not store.push.first_time(game_id, notice.kind, notice.seat,
                                                 notice.turn, SENT_TTL):
            continue
        outcomes = []
        for sub_id, raw in mine.items():
            record = orjson.loads(raw)
            payload = notices.message(notice, game_id, title, record["lang"], now)
            ttl = int(min(TTL_MAX, max(60, (notice.deadline or now + TTL_MAX) - now)))
            urgency = "high" if notice.kind == notices.DEADLINE_NEAR else "normal"
            outcome = send(engine.config, record, orjson.dumps(payload), ttl, urgency)
            if outcome == GONE:
                store.push.drop(notice.player, sub_id)
            outcomes.append(outcome)
        sent += outcomes.count(SENT)
        if FAILED in outcomes and SENT not in outcomes:
            # no browser got it: the next look at the game (a write, the deadline loop) may
            # send it again
            store.push.unsend(game_id, notice.kind, notice.seat, notice.turn)
    return sent


SENT, GONE, FAILED = "sent", "gone", "failed"


def _public(host: str, port: int) -> str | None:
    """The address to connect to when every address ``host`` resolves to is a public one
    (None otherwise): the request then goes there, not to a second resolution's answer."""
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except OSError:
        return None
    found = [i[4][0].split("%")[0] for i in infos]
    if not found or not all(ipaddress.ip_address(a).is_global for a in found):
        return None
    return found[0]


def send(config: Config, record: dict[str, Any], data: bytes, ttl: int,
         urgency: str = "normal") -> str:
    """One notification to one subscription: ``sent``, ``gone`` (the push service says the
    subscription is no more: 404, 410) or ``failed`` (logged with the host only)."""
    import requests
    from pywebpush import WebPushException, webpush

    endpoint = record["endpoint"]
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    address = None
    if not config.push_allow_private:
        address = _public(host, parts.port or 443) if parts.scheme == "https" else None
        if address is None:
            log.warning("web push to %s skipped: not a public https host", host)
            return FAILED
    session = requests.Session()
    session.trust_env = False  # no proxy from the environment: the checked address is the peer
    session.max_redirects = 0  # a redirect could point anywhere: not followed
    if address is not None:  # connected to the address checked above (no DNS rebinding)
        session.mount("https://", AddressAdapter(address))
    started = time.monotonic()
    try:
        webpush({"endpoint": endpoint, "keys": record["keys"]}, data.decode(),
                vapid_private_key=vapid(config), vapid_claims={"sub": config.vapid_subject},
                timeout=config.push_timeout, ttl=ttl, headers={"Urgency": urgency},
                requests_session=session)
    except WebPushException as exc:
        status = exc.status_code
        if status in (404, 410):
            return GONE
        log.warning("web push to %s failed: status %s", host, status)
        return FAILED
    except requests.RequestException as exc:
        log.warning("web push to %s failed: %s after %.1f s", host, type(exc).__name__,
                    time.monotonic() - started)
        return FAILED
    except Exception as exc:  # noqa: BLE001 (one subscription never stops the others)
        log.warning("web push to %s failed: %s", host, type(exc).__name__)
        return FAILED
    finally:
        session.close()
    return SENT
