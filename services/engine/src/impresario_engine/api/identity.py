"""Players from a host platform: a request whose ``Authorization: Bearer`` is a JWT signed by a
trusted issuer acts as that issuer's user, the player ``iss|sub``.

The operator lists the trusted issuers in ``TRUSTED_ISSUERS_FILE`` (JSON, below); each has its
audience (the ``aud`` its tokens must carry for this engine), its keys (a JWKS URL, or public
keys in PEM by key id) and the algorithms it signs with. Verification is PyJWT's
(``jwt.decode``), never hand-made: the signature with the issuer's key for the token's ``kid``,
``iss``, ``aud``, ``exp`` and ``nbf`` with ``CLOCK_SKEW_SECONDS`` of leeway, ``sub`` required.
Only asymmetric algorithms are ever accepted (never ``none``, never an HMAC, whose secret would
be the issuer's public key), and of those only the ones the issuer's entry names.

A JWKS is fetched once and kept (PyJWKClient's cache, ``JWKS_LIFESPAN_SECONDS``); a key id it
does not know fetches it again at most every ``JWKS_REFETCH_SECONDS``; a fetch waits at most
``JWKS_TIMEOUT_SECONDS``, and a failed fetch is not tried again for ``JWKS_REFETCH_SECONDS``:
a slow or dead JWKS URL costs a platform's request that much at most, and never a move (moves
carry seat tokens, which need no issuer).

``TRUSTED_ISSUERS_FILE``::

    {"issuers": [
      {"issuer": "https://id.example.com", "audience": "impresario",
       "jwks_url": "https://id.example.com/.well-known/jwks.json", "algorithms": ["RS256"]},
      {"issuer": "https://other.example", "audience": "impresario-prod",
       "keys": {"2026-11": "-----BEGIN PUBLIC KEY-----\\n..."}, "algorithms": ["ES256"]}]}

Every refusal is a 401 with a code of its own (``jwt_*``), or a 503 ``jwks_unavailable`` when
the issuer's keys cannot be fetched now.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import jwt
from jwt import PyJWKClient

from .errors import ApiError

#: the algorithms an issuer may sign with: asymmetric ones only
ASYMMETRIC = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512",
              "EdDSA")
CLOCK_SKEW_SECONDS = 30
JWKS_TIMEOUT_SECONDS = 2.0
JWKS_LIFESPAN_SECONDS = 300
JWKS_REFETCH_SECONDS = 10.0


def looks_like_jwt(token: str) -> bool:
    """A JWS in compact form: three base64url parts. A seat, host or player token never has a
    dot, so the two kinds of bearer token cannot be mistaken for one another."""
    return token.count(".") == 2


@dataclass(frozen=True)
class Issuer:
    """One trusted issuer of the operator's ``TRUSTED_ISSUERS_FILE``."""

    issuer: str
    audience: str
    algorithms: tuple[str, ...]
    jwks_url: str = ""
    keys: dict[str, str] = field(default_factory=dict)  # key id -> public key, PEM

    @classmethod
    def of(cls, entry: dict[str, Any]) -> "Issuer":
        where = f"trusted issuer {entry.get('issuer')!r}"
        if not isinstance(entry.get("issuer"), str) or not entry["issuer"]:
            raise ValueError("a trusted issuer needs its \"issuer\" (the tokens' iss)")
        if not isinstance(entry.get("audience"), str) or not entry["audience"]:
            raise ValueError(f"{where} needs its \"audience\" (the aud its tokens carry for "
                             "this engine)")
        algorithms = tuple(entry.get("algorithms") or ("RS256",))
        refused = [a for a in algorithms if a not in ASYMMETRIC]
        if refused:
            raise ValueError(f"{where}: {', '.join(refused)} refused: only asymmetric "
                             f"algorithms ({', '.join(ASYMMETRIC)})")
        jwks_url, keys = entry.get("jwks_url") or "", entry.get("keys") or {}
        if bool(jwks_url) == bool(keys):
            raise ValueError(f"{where} needs either \"jwks_url\" or \"keys\" (PEM by key id)")
        return cls(entry["issuer"], entry["audience"], algorithms, jwks_url, dict(keys))


def load_issuers(text: str) -> dict[str, Issuer]:
    """The trusted issuers of a ``TRUSTED_ISSUERS_FILE``'s text, by ``iss``."""
    data = json.loads(text)
    entries = data.get("issuers") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ValueError("TRUSTED_ISSUERS_FILE: {\"issuers\": [...]} expected")
    issuers = [Issuer.of(entry) for entry in entries]
    return {i.issuer: i for i in issuers}


@dataclass(frozen=True)
class PlatformUser:
    """Who a verified JWT stands for: its issuer's user ``subject`` (the player
    ``table.players.platform_player_id(issuer, subject)``)."""

    issuer: str
    subject: str
    name: str | None



def _refused(code: str, detail: str) -> ApiError:
    return ApiError(401, code, detail)


class _Keys:
    """An issuer's JWKS: fetched once and kept, a failed fetch not tried again for a while."""

    def __init__(self, issuer: Issuer, clock: Callable[[], float]) -> None:
        self.client = PyJWKClient(issuer.jwks_url, cache_keys=True,
                                  lifespan=JWKS_LIFESPAN_SECONDS, timeout=JWKS_TIMEOUT_SECONDS,
                                  cooldown_duration=JWKS_REFETCH_SECONDS)
        self.clock = clock
        self.failed_at = float("-inf")
        self.lock = threading.Lock()

    def key(self, kid: str | None) -> Any:
        if self.clock() - self.failed_at < JWKS_REFETCH_SECONDS:
            raise ApiError(503, "jwks_unavailable", "the issuer's keys could not be fetched "
                           "lately; try again shortly", headers={"Retry-After": "10"})
        try:
            with self.lock:  # one fetch at a time: the others wait for its answer
                if kid is None:
                    found = self.client.get_signing_keys()
                    if len(found) != 1:
                        raise _refused("jwt_unknown_key", "the token names no key (kid) and "
                                       "its issuer has more than one")
                    return found[0].key
                return self.client.get_signing_key(kid).key
        except jwt.PyJWKClientConnectionError as exc:
            self.failed_at = self.clock()
            raise ApiError(503, "jwks_unavailable", "the issuer's keys could not be fetched; "
                           "try again shortly", headers={"Retry-After": "10"}) from exc
        except jwt.PyJWKClientError as exc:
            raise _refused("jwt_unknown_key", "the token's key (kid) is not among its "
                           "issuer's keys") from exc
        except (jwt.PyJWTError, ValueError, KeyError, TypeError) as exc:
            # the issuer answered something that is no key set (a malformed JWKS): as away
            self.failed_at = self.clock()
            raise ApiError(503, "jwks_unavailable", "the issuer's keys could not be read; "
                           "try again shortly", headers={"Retry-After": "10"}) from exc


class Verifier:
    """Verifies the JWTs of the trusted issuers: ``verify(token)`` is the user it stands for,
    or an :class:`ApiError` (401 ``jwt_*``; 503 ``jwks_unavailable``)."""

    def __init__(self, issuers: dict[str, Issuer],
                 clock: Callable[[], float] = time.time) -> None:
        self.issuers = issuers
        self.clock = clock
        self._keys: dict[str, _Keys] = {}
        self._lock = threading.Lock()

    def _jwks(self, issuer: Issuer) -> _Keys:
        with self._lock:
            if issuer.issuer not in self._keys:
                self._keys[issuer.issuer] = _Keys(issuer, self.clock)
            return self._keys[issuer.issuer]

    def verify(self, token: str) -> PlatformUser:
        try:
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, options={"verify_signature": False})
        except jwt.DecodeError as exc:
            raise _refused("jwt_malformed", "the bearer token is not a JWT") from exc
        issuer = self.issuers.get(claims.get("iss")) if isinstance(claims.get("iss"), str) \
            else None
        if issuer is None:
            raise _refused("jwt_untrusted_issuer", "the token's issuer (iss) is not one this "
                           "engine trusts")
        alg = header.get("alg")
        if alg not in issuer.algorithms:
            raise _refused("jwt_algorithm_refused", f"tokens of this issuer are signed with "
                           f"{', '.join(issuer.algorithms)}, not {str(alg)[:20]}")
        kid = header.get("kid")
        if issuer.keys:
            if kid is None and len(issuer.keys) == 1:
                kid = next(iter(issuer.keys))
            if kid not in issuer.keys:
                raise _refused("jwt_unknown_key", "the token's key (kid) is not among its "
                               "issuer's keys")
            key: Any = issuer.keys[kid]
        else:
            key = self._jwks(issuer).key(kid)
        try:
            verified = jwt.decode(
                token, key, algorithms=[alg], audience=issuer.audience, issuer=issuer.issuer,
                leeway=CLOCK_SKEW_SECONDS, options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError as exc:
            raise _refused("jwt_expired", "the token has expired (exp)") from exc
        except jwt.ImmatureSignatureError as exc:
            raise _refused("jwt_not_yet_valid", "the token is not valid yet (nbf, iat)") from exc
        except jwt.InvalidAudienceError as exc:
            raise _refused("jwt_wrong_audience", "the token is not meant for this engine "
                           "(aud)") from exc
        except jwt.MissingRequiredClaimError as exc:
            raise _refused("jwt_missing_claim", f"the token has no {exc.claim}") from exc
        except jwt.InvalidTokenError as exc:  # the signature, a key of the wrong kind, ...
            raise _refused("jwt_invalid", "the token's signature does not verify") from exc
        subject = verified.get("sub")
        if not isinstance(subject, str) or not subject:
            raise _refused("jwt_missing_claim", "the token has no sub")
        name = verified.get("name") or verified.get("preferred_username")
        return PlatformUser(issuer.issuer, subject, name if isinstance(name, str) else None)
