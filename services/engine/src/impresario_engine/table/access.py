"""Credentials: the tokens a game hands out (shown once, kept only as hashes), who a bearer token
stands for in a game, and who may take a seat in a private game. (The credentials an
idempotency record must give back are sealed by ``sealing``.)"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from .errors import FORBIDDEN, UNAUTHENTICATED, Refused


def new_token() -> str:
    """A bearer token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_secret() -> str:
    """A game's secret: its bots' randomness (their choices and think times); sent to nobody."""
    return secrets.token_hex(16)


def new_game_id() -> str:
    """A game id: 72 random bits, URL-safe, never starting with "-" or "_" (a command line
    would read a leading "-" as an option: ``impresario watch -x2…``)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if game_id[0].isalnum():
            return game_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_id(token: str) -> str:
    """A short, non-reversible id of a token (what scopes its idempotency keys)."""
    return token_hash(token)[:16]


@dataclass(frozen=True)
class Caller:
    """Who is calling: a seat, the host, or a spectator (no token)."""

    seat: int | None = None
    host: bool = False
    token_id: str = "anon"  # a short, non-reversible id of the token, to scope idempotency keys

    @property
    def viewer(self) -> int | None:
        return self.seat


SPECTATOR = Caller()
HOST = Caller(host=True)


def authenticate(doc: dict[str, Any], token: str | None) -> Caller:
    """The caller a bearer token stands for in this game (constant-time comparisons).

    No token is a spectator, except in a private game, which shows spectators nothing without
    the spectator token the host was given."""
    if token is None:
        if doc.get("settings", {}).get("private"):
            raise Refused("private_game", FORBIDDEN, "this game is private: spectators need the "
                          "host's spectator link")
        return SPECTATOR
    found = _holder(doc, token_hash(token))
    if found is None:
        raise Refused("invalid_token", UNAUTHENTICATED,
                      "the bearer token is not valid for this game")
    return found


def _holder(doc: dict[str, Any], digest: str) -> Caller | None:
    """Who holds the token of this hash in the game, if anyone (constant-time comparisons)."""
    found: Caller | None = None
    if hmac.compare_digest(digest, doc["host"]):
        found = Caller(host=True, token_id=digest[:16])
    spectator = doc.get("spectator")
    if spectator and hmac.compare_digest(digest, spectator):
        found = Caller(token_id=digest[:16])
    for seat, info in enumerate(doc["seats"]):
        if info.get("token") and hmac.compare_digest(digest, info["token"]):
            found = Caller(seat=seat, token_id=digest[:16])
    return found


# A stream ticket: what a browser's EventSource, which cannot send an Authorization header,
# opens a stream with, in its URL. It is worth little there: it opens one event stream of one
# game, once, within seconds, for whoever asked for it with their token. Redis keeps only its
# hash, under which it finds the hash of the token that asked (the game keeps that hash too),
# so a stream opened with it sees exactly what that token's stream would, and a ticket asked
# for by a seat that has left since opens nothing.

def ticket_record(caller_token: str, game_id: str, expires_at: int) -> dict[str, Any]:
    """What the store keeps under a new ticket's hash: the game, the asking token's hash, and
    when the ticket stops opening anything (Unix seconds)."""
    return {"game": game_id, "by": token_hash(caller_token), "expires_at": expires_at}


def invalid_ticket(why: str) -> Refused:
    return Refused("invalid_ticket", UNAUTHENTICATED, f"the stream ticket is not valid: {why}; "
                   "ask for a new one (POST /v1/games/{game_id}/stream-tickets)")


def ticket_caller(doc: dict[str, Any], record: dict[str, Any] | None, now: float) -> Caller:
    """The caller a stream ticket's record stands for in this game (the record was taken from
    the store: the ticket is used up either way)."""
    if record is None or record.get("game") != doc["id"]:
        raise invalid_ticket("unknown, already used, or for another game")
    if now >= record["expires_at"]:
        raise invalid_ticket("it has expired")
    found = _holder(doc, record["by"])
    if found is None:
        raise invalid_ticket("the token that asked for it is no longer valid for this game")
    return found


def authenticate_link(doc: dict[str, Any], token: str) -> Caller:
    """The caller of a spectator link (``?spectator=<token>``): a spectator, with a private
    game's spectator token. Any other token is refused there, a seat's or the host's too: a
    URL lands in histories, logs and referrers, so a credential that acts or reads a hand never
    travels in one."""
    spectator = doc.get("spectator")
    digest = token_hash(token)
    if spectator and hmac.compare_digest(digest, spectator):
        return Caller(token_id=digest[:16])
    raise Refused("invalid_token", UNAUTHENTICATED, "the spectator link's token is not valid for "
                  "this game")


def may_join(doc: dict[str, Any], caller: Caller | None, join_token: str | None) -> None:
    """Refuse a seat in a private game to anyone but the host and the holders of its join
    link. The spectator token only ever shows the game; neither it nor a seat's token opens
    a seat. (A private game made before join links existed has none: it seats anyone, as
    it did then.)"""
    joiner = doc.get("joiner")
    if not doc["settings"].get("private") or not joiner or (caller and caller.host):
        return
    if join_token is not None:
        if hmac.compare_digest(token_hash(join_token), joiner):
            return
        raise Refused("invalid_join_token", FORBIDDEN, "the join link's token is not valid for "
                      "this game")
    if caller is not None and caller.seat is None:
        raise Refused("spectator_read_only", FORBIDDEN, "the spectator link only shows the game; "
                      "taking a seat needs the game's join link")
    raise Refused("join_link_required", FORBIDDEN, "this game is private: taking a seat needs "
                  "its join link (the host has it)")


def rematch_token(old_token: str, rematch_id: str) -> str:
    """The rematch seat's token, derived from the finished game's seat token: asking again,
    from any device, gives the same token; nobody without the old token can work it out."""
    mac = hmac.new(old_token.encode("utf-8", "surrogatepass"),
                   b"impresario-rematch\0" + rematch_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def rematch_host_token(old_token: str, rematch_id: str) -> str:
    """The rematch's host token, for the player who hosts it, derived from that player's seat
    token in the finished game as :func:`rematch_token` is (another message, another token)."""
    mac = hmac.new(old_token.encode("utf-8", "surrogatepass"),
                   b"impresario-rematch-host\0" + rematch_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def client_tag(key: str, client: str) -> str:
    """What binds a token-less request's Idempotency-Key to its client (its address): a replay
    of a create or join answers with the credential only to the same key from the same
    client, so a key someone else has seen (in a log, or guessed) is worth nothing to them."""
    seed = b"impresario:idempotency-client\0" + key.encode() + b"\0" + client.encode()
    return hashlib.sha256(seed).hexdigest()[:16]
