"""What the engine refuses beyond the rules' refusals: a stable ``code``, a ``kind`` (what the
refusal means for the caller; the HTTP layer maps each kind to a status in one table), a message
for people, and the facts a client may use (``details``; ``retry_after``: seconds to wait before
trying again)."""

from __future__ import annotations

from typing import Any, ClassVar

from impresario_rules import KINDS as RULES_KINDS
from impresario_rules import Refusal

#: no credential, or one that holds nothing in this game
UNAUTHENTICATED = "unauthenticated"
#: a credential whose role may not do this
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
#: the table's state forbids it now (the game is full, a name is taken, it has not started)
CONFLICT = "conflict"
#: the game is no longer at the version the request was based on (If-Match)
STALE_VERSION = "stale_version"
#: values the engine does not accept (a name, a setting, an Idempotency-Key used otherwise)
INVALID = "invalid"
#: a query the engine cannot read (a list's cursor)
MALFORMED = "malformed"
#: try again shortly: the game is changing too fast, a request is still in progress
BUSY = "busy"
ENGINE_KINDS = (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, STALE_VERSION, INVALID,
                MALFORMED, BUSY)


class Refused(Refusal):
    """A request the engine refuses (see the module's doc)."""

    KINDS: ClassVar[tuple[str, ...]] = (*RULES_KINDS, *ENGINE_KINDS)

    def __init__(self, code: str, kind: str, message: str, *, retry_after: int | None = None,
                 **details: Any) -> None:
        super().__init__(code, message, kind=kind, **details)
        self.retry_after = retry_after


def game_not_found(game_id: str) -> Refused:
    return Refused("game_not_found", NOT_FOUND, f"there is no game {game_id!r}")


def contention() -> Refused:
    return Refused("contention", BUSY, "the game is changing too fast; try again", retry_after=1)


def missing_token(what: str) -> Refused:
    return Refused("missing_token", UNAUTHENTICATED, what)
