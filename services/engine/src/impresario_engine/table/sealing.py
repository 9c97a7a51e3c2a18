"""Sealing the credentials an idempotency record must give back.

A retried create or join gets its first answer again, and that answer carries credentials (the
seat's token; the host's, and a private game's spectator and join tokens and the links that
carry them). The record keeps each of them sealed with AES-256-GCM (the ``cryptography``
package): a fresh random nonce per value, the field's name and the record's scope as associated
data (a value moved to another field or record does not open), and a key that neither Redis nor
anyone reading it holds. The key is derived (HKDF-SHA256) from the Idempotency-Key itself,
which Redis never stores (the record's name uses a hash of it), and from the service's seal key,
read from ``SEAL_KEYS_FILE`` (a Kubernetes Secret): a copy of Redis alone opens nothing, nor
does a leaked Idempotency-Key without the seal key.

Every sealed value names the seal key it was sealed with (``<version>.<key id>.<data>``), so keys
rotate: the file lists keys one per line, ``<id> <32 bytes, base64>``; the first seals, every
one opens. A key retired from the file must stay there as long as a record sealed with it may be
replayed (``IDEMPOTENCY_TTL_SECONDS``). Without a file the derivation uses the Idempotency-Key
alone (key id ``-``): still never in Redis, and still opened after a file is added.
``python -m impresario_engine seal-key`` prints a new key line.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

#: the fields of an answer that are credentials, sealed in a record
SECRET_FIELDS = ("token", "host_token", "spectator_token", "join_token", "spectator_link",
                 "join_link")
#: the format of a sealed value (its first part)
VERSION = "s1"
#: the id of "no seal key": the derivation from the Idempotency-Key alone
NO_KEY = "-"
KEY_ID = re.compile(r"^[A-Za-z0-9_]{1,32}$")
KEY_BYTES = 32
NONCE_BYTES = 12


class SealError(Exception):
    """A sealed value that cannot be opened: its key is not in the file (retired too soon), or
    it was changed."""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_key_line() -> str:
    """A new line for a seal keys file: a random id and 32 random bytes."""
    return f"k{secrets.token_hex(6)} {_b64(secrets.token_bytes(KEY_BYTES))}"


def read_keys(path: str) -> list[tuple[str, bytes]]:
    """The keys of a seal keys file, the sealing one first (SystemExit with the reason for a
    file that cannot be read or is malformed: a service without its keys must not start)."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as exc:
        raise SystemExit(f"SEAL_KEYS_FILE: cannot read {path}: {exc.strerror}") from exc
    keys: list[tuple[str, bytes]] = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        parts = text.split()
        try:
            key = _unb64(parts[1]) if len(parts) == 2 else b""
        except ValueError:
            key = b""
        if len(parts) != 2 or not KEY_ID.match(parts[0]) or len(key) != KEY_BYTES:
            raise SystemExit(f"SEAL_KEYS_FILE: {path} line {number}: expected '<id> <32 bytes "
                             f"in base64>' (python -m impresario_engine seal-key writes one)")
        if any(kid == parts[0] for kid, _ in keys):
            raise SystemExit(f"SEAL_KEYS_FILE: {path} line {number}: key id {parts[0]} twice")
        keys.append((parts[0], key))
    if not keys:
        raise SystemExit(f"SEAL_KEYS_FILE: {path} holds no key")
    return keys


@dataclass(frozen=True)
class Sealer:
    """Seals and opens an answer's credentials (see the module's doc). ``keys``: the seal keys,
    the sealing one first; none: the Idempotency-Key alone."""

    keys: tuple[tuple[str, bytes], ...] = ()

    @classmethod
    def from_file(cls, path: str) -> "Sealer":
        return cls(tuple(read_keys(path))) if path else cls()

    def _aead(self, kid: str, scope: str, idempotency_key: str) -> AESGCM:
        secret = b"" if kid == NO_KEY else dict(self.keys).get(kid)
        if secret is None:
            raise SealError(f"seal key {kid!r} is not in SEAL_KEYS_FILE")
        derived = HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None,
                       info=b"impresario:idempotency-seal\0" + scope.encode()).derive(
            secret + b"\0" + idempotency_key.encode("utf-8", "surrogatepass"))
        return AESGCM(derived)

    def seal(self, body: dict[str, Any], scope: str, idempotency_key: str) -> dict[str, Any]:
        """``body`` with each credential sealed (one derived key per record, a nonce per
        value)."""
        kid = self.keys[0][0] if self.keys else NO_KEY
        aead = None
        out = dict(body)
        for name in SECRET_FIELDS:
            value = out.get(name)
            if isinstance(value, str):
                aead = aead or self._aead(kid, scope, idempotency_key)
                nonce = os.urandom(NONCE_BYTES)
                sealed = aead.encrypt(nonce, value.encode(), f"{scope}\0{name}".encode())
                out[name] = {"sealed": f"{VERSION}.{kid}.{_b64(nonce + sealed)}"}
        return out

    def unseal(self, body: dict[str, Any], scope: str, idempotency_key: str
               ) -> dict[str, Any]:
        """``body`` (changed) with its credentials opened; :class:`SealError` when one cannot
        be."""
        ciphers: dict[str, AESGCM] = {}  # one derived key per seal key the record names
        for name in SECRET_FIELDS:
            value = body.get(name)
            if isinstance(value, dict) and "sealed" in value:
                version, _, rest = str(value["sealed"]).partition(".")
                kid, _, data = rest.partition(".")
                if version != VERSION or not data:
                    raise SealError("a sealed value of an unknown format")
                raw = _unb64(data)
                if kid not in ciphers:
                    ciphers[kid] = self._aead(kid, scope, idempotency_key)
                try:
                    opened = ciphers[kid].decrypt(
                        raw[:NONCE_BYTES], raw[NONCE_BYTES:], f"{scope}\0{name}".encode())
                except InvalidTag as exc:
                    raise SealError("a sealed value that does not open: changed, or sealed "
                                    "for another key or record") from exc
                body[name] = opened.decode()
        return body
