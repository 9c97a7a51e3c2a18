"""Players from a host platform (api/identity.py): a JWT of a trusted issuer is verified by
PyJWT, and every known attack on it is refused with 401 and a code of its own. The issuers'
keys come as PEM or from a JWKS served here on 127.0.0.1, fetched once and kept; a dead or slow
JWKS URL is refused (503) within its bound and not asked again at once."""

from __future__ import annotations

import base64
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from impresario_engine.api import identity
from impresario_engine.api.errors import ApiError
from impresario_engine.api.identity import Issuer, Verifier, load_issuers, looks_like_jwt

ISS, AUD = "https://id.example.test", "impresario"


def _pem(public_key) -> str:
    return public_key.public_bytes(serialization.Encoding.PEM,
                                   serialization.PublicFormat.SubjectPublicKeyInfo).decode()


RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
OTHER_RSA = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _claims(**changes) -> dict:
    now = int(time.time())
    claims = {"iss": ISS, "aud": AUD, "sub": "user-42", "name": "Anna", "iat": now,
              "nbf": now, "exp": now + 600}
    claims.update(changes)
    return {k: v for k, v in claims.items() if v is not None}


def _token(key=RSA_KEY, alg="RS256", kid="k1", **changes) -> str:
    return jwt.encode(_claims(**changes), key, algorithm=alg, headers={"kid": kid})


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def _hs256_with_public_key(payload: str) -> str:
    """The classic confusion: an HMAC whose secret is the issuer's public key (PEM)."""
    signed = f"{_b64({'alg': 'HS256', 'kid': 'k1'})}.{payload}"
    mac = hmac.new(_pem(RSA_KEY.public_key()).encode(), signed.encode(), "sha256").digest()
    return f"{signed}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def _refusal(verifier: Verifier, token: str) -> tuple[int, str]:
    with pytest.raises(ApiError) as refused:
        verifier.verify(token)
    return refused.value.status, refused.value.code


class Jwks:
    """A JWKS URL on 127.0.0.1: its keys, how many times it was fetched, an optional delay."""

    def __init__(self, keys: dict[str, object], delay: float = 0.0,
                 body: bytes | None = None) -> None:
        self.fetches = 0
        jwks = {"keys": [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(k.public_key())),
                          "kid": kid, "use": "sig", "alg": "RS256"} for kid, k in keys.items()]}
        body = json.dumps(jwks).encode() if body is None else body
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                outer.fetches += 1
                time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/jwks.json"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def jwks():
    served = Jwks({"k1": RSA_KEY})
    yield served
    served.close()


@pytest.fixture
def verifier(jwks):
    return Verifier({ISS: Issuer(ISS, AUD, ("RS256",), jwks_url=jwks.url),
                     "https://pem.example.test": Issuer(
                         "https://pem.example.test", AUD, ("ES256",),
                         keys={"e1": _pem(EC_KEY.public_key())})})


def test_a_token_of_a_trusted_issuer_is_its_user_and_the_keys_are_fetched_once(verifier, jwks):
    user = verifier.verify(_token())
    assert (user.issuer, user.subject, user.name) == (ISS, "user-42", "Anna")
    for _ in range(10):
        verifier.verify(_token())
    assert jwks.fetches == 1
    pem_user = verifier.verify(_token(EC_KEY, "ES256", "e1", iss="https://pem.example.test"))
    assert (pem_user.issuer, pem_user.subject) == ("https://pem.example.test", "user-42")


def test_within_the_clock_skew_a_token_still_passes(verifier):
    now = int(time.time())
    assert verifier.verify(_token(exp=now - 10)).subject == "user-42"
    assert verifier.verify(_token(nbf=now + 10, iat=now)).subject == "user-42"


@pytest.mark.parametrize("attack,code", [
    ("alg none", "jwt_algorithm_refused"),
    ("HS256 signed with the public key", "jwt_algorithm_refused"),
    ("another issuer", "jwt_untrusted_issuer"),
    ("another audience", "jwt_wrong_audience"),
    ("expired", "jwt_expired"),
    ("not yet valid", "jwt_not_yet_valid"),
    ("unknown kid", "jwt_unknown_key"),
    ("tampered payload", "jwt_invalid"),
    ("signed by another key", "jwt_invalid"),
    ("no exp", "jwt_missing_claim"),
    ("no sub", "jwt_missing_claim"),
    ("not a JWT", "jwt_malformed"),
])
def test_each_attack_is_refused_with_401_and_its_code(verifier, attack, code):
    now = int(time.time())
    good = _token()
    header, payload, signature = good.split(".")
    token = {
        "alg none": f"{_b64({'alg': 'none', 'kid': 'k1'})}.{payload}.",
        "HS256 signed with the public key": _hs256_with_public_key(payload),
        "another issuer": _token(iss="https://evil.example.test"),
        "another audience": _token(aud="someone-else"),
        "expired": _token(exp=now - 120),
        "not yet valid": _token(nbf=now + 120),
        "unknown kid": _token(kid="k9"),
        "tampered payload": f"{header}.{_b64({**_claims(), 'sub': 'admin'})}.{signature}",
        "signed by another key": _token(OTHER_RSA),
        "no exp": _token(exp=None),
        "no sub": _token(sub=None),
        "not a JWT": "not.a.jwt",
    }[attack]
    assert _refusal(verifier, token) == (401, code)


def test_a_dead_jwks_url_is_refused_in_its_bound_and_not_asked_again_at_once():
    dead = Jwks({"k1": RSA_KEY})
    url = dead.url
    dead.close()  # nothing listens there any more
    clock = [1000.0]
    verifier = Verifier({ISS: Issuer(ISS, AUD, ("RS256",), jwks_url=url)}, clock=lambda: clock[0])
    assert _refusal(verifier, _token()) == (503, "jwks_unavailable")
    clock[0] += 1
    assert _refusal(verifier, _token()) == (503, "jwks_unavailable")  # not fetched: too soon


@pytest.mark.parametrize("answer", [b"<html>not json</html>", b'{"keys": []}',
                                    b'{"keys": [{"kty": "RSA"}]}'])
def test_a_jwks_url_answering_no_key_set_is_unavailable_not_a_crash(answer):
    broken = Jwks({}, body=answer)
    try:
        clock = [1000.0]
        verifier = Verifier({ISS: Issuer(ISS, AUD, ("RS256",), jwks_url=broken.url)},
                            clock=lambda: clock[0])
        assert _refusal(verifier, _token()) == (503, "jwks_unavailable")
        fetched = broken.fetches
        clock[0] += 1
        assert _refusal(verifier, _token()) == (503, "jwks_unavailable")
        assert broken.fetches == fetched  # not asked again at once
    finally:
        broken.close()


def test_a_slow_jwks_url_is_given_up_at_its_timeout(monkeypatch):
    monkeypatch.setattr(identity, "JWKS_TIMEOUT_SECONDS", 0.3)
    slow = Jwks({"k1": RSA_KEY}, delay=3.0)  # answers long after the timeout
    try:
        verifier = Verifier({ISS: Issuer(ISS, AUD, ("RS256",), jwks_url=slow.url)})
        assert _refusal(verifier, _token()) == (503, "jwks_unavailable")
    finally:
        slow.close()


def test_the_issuers_file_refuses_what_would_weaken_verification():
    good = {"issuer": ISS, "audience": AUD, "jwks_url": "https://id.example.test/jwks.json"}
    assert load_issuers(json.dumps({"issuers": [good]}))[ISS].algorithms == ("RS256",)
    for bad, says in [({**good, "algorithms": ["HS256"]}, "only asymmetric"),
                      ({**good, "algorithms": ["none"]}, "only asymmetric"),
                      ({k: v for k, v in good.items() if k != "audience"}, "audience"),
                      ({**good, "keys": {"k": "PEM"}}, "either"),
                      ({k: v for k, v in good.items() if k != "jwks_url"}, "either")]:
        with pytest.raises(ValueError, match=says):
            load_issuers(json.dumps({"issuers": [bad]}))


def test_a_jwt_is_never_mistaken_for_a_seat_token():
    from impresario_engine.table.access import new_token

    assert looks_like_jwt(_token())
    assert not any(looks_like_jwt(new_token()) for _ in range(1000))
