"""Players: people apart from any table, who come back. A player is anonymous (made by the
built-in page or the terminal on a first visit, held by a player credential) or a host
platform's user (``iss|sub`` of a JWT its issuer signed, api/identity.py). Their ids have one
shape: ``p`` and 24 base32 letters and digits."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

ANONYMOUS, PLATFORM, BOT = "anonymous", "platform", "bot"
#: what a player credential starts with: a game's tokens (32 characters) never look like one
CREDENTIAL_PREFIX = "p_"
#: how long a code that moves a player to another device may be used (once)
DEVICE_CODE_SECONDS = 600


def _id_of(digest: bytes) -> str:
    return "p" + base64.b32encode(digest[:15]).decode().lower()


def new_player_id() -> str:
    return _id_of(secrets.token_bytes(15))


def platform_player_id(issuer: str, subject: str) -> str:
    """The id of a platform's user: ``iss|sub`` digested, the same on every pod and every day
    (an issuer's URL and a user id are no URL segment)."""
    return _id_of(hashlib.sha256(b"platform\0" + _framed(issuer) + _framed(subject)).digest())


def _framed(text: str) -> bytes:
    """``text`` with its length first: no two (issuer, subject) pairs digest alike."""
    data = text.encode("utf-8", "surrogatepass")
    return len(data).to_bytes(4, "big") + data


def new_credential() -> str:
    """A player credential: ``p_`` and 192 random bits, URL-safe (34 characters), never a dot
    (a JWT has two): told apart from a game's tokens by its form alone."""
    return CREDENTIAL_PREFIX + secrets.token_urlsafe(24)


def is_credential(token: str) -> bool:
    return len(token) == 34 and token.startswith(CREDENTIAL_PREFIX)


def new_device_code() -> str:
    """A code that moves a player to another device: 10 characters a person can type (no 0/O,
    1/I/L), about 50 bits; used once, within ``DEVICE_CODE_SECONDS``; a wrong code counts as
    a failed authentication (``AUTH_FAILURES_PER_IP``)."""
    alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    return "".join(secrets.choice(alphabet) for _ in range(10))


def digest(secret: str) -> str:
    """What is stored of a credential or a code: its SHA-256 (codes upper-cased first)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    kind: str
    created: float

    @classmethod
    def of(cls, player_id: str, record: dict[str, str]) -> "Player":
        return cls(player_id, record.get("name", ""), record.get("kind", ANONYMOUS),
                   float(record.get("created", 0)))

    def view(self) -> dict[str, Any]:
        """What the player and the API are shown of a player: nothing of its credentials."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "created": self.created}
