"""Python SDK for the Impresario engine.

The low-level layer (``impresario._generated``) is generated from ``openapi.yaml``: its models
(TypedDicts, ``impresario.models``) type every view, move, action space, event and score; this
package adds the :class:`Client` (retries, idempotency keys, errors), game, seat and player
handles, bots and a CLI.

The asyncio client (``pip install "impresario[async]"``, on httpx) is :mod:`impresario.aio`:
``from impresario.aio import AsyncClient``; ``impresario.AsyncClient`` (and ``AsyncGame``,
``AsyncSeat``) name the same, imported when first used, so ``import impresario`` works
without httpx.
"""

from typing import Any

from ._generated import models
from .bots import (AnyBot, BaseBot, Bot, GreedyBot, MuzicandoBase, RandomBot, TurandotBase,
                   WordJamBase, make_bot, play_seat, take_turn)
from ._transport import Throttled
from .client import Client, Game, Player, Seat
from .events import Event, stream_events
from .errors import (APIConnectionError, APIError, BadRequest, Conflict, Forbidden, IllegalMove,
                     ImpresarioError, NotFound, PayloadTooLarge, PreconditionFailed, RateLimited,
                     ServerError, ServiceUnavailable, Unauthorized, UnsupportedMediaType)
from .inprocess import play_game_in_process
from .tournament import play_game, run_tournament

__version__ = "0.1.0"

__all__ = [
    "models", "Client", "Game", "Seat", "Player", "Bot", "AnyBot", "BaseBot", "TurandotBase",
    "WordJamBase", "MuzicandoBase", "RandomBot", "GreedyBot", "make_bot", "play_seat", "take_turn",
    "play_game", "play_game_in_process", "run_tournament", "Event", "stream_events", "ImpresarioError", "APIError", "APIConnectionError",
    "BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "PreconditionFailed",
    "PayloadTooLarge", "UnsupportedMediaType", "IllegalMove", "RateLimited", "ServiceUnavailable",
    "ServerError", "Throttled", "AsyncClient", "AsyncGame", "AsyncSeat",
]

_ASYNC = ("AsyncClient", "AsyncGame", "AsyncSeat")


def __getattr__(name: str) -> Any:
    """``impresario.AsyncClient`` and its handles, from :mod:`impresario.aio` (which needs
    httpx: the ``async`` extra) when first asked for."""
    if name in _ASYNC:
        from . import aio

        return getattr(aio, name)
    raise AttributeError(f"module 'impresario' has no attribute {name!r}")
