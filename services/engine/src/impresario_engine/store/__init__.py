"""Storage: every game lives in Redis, under keys that share the hash tag ``{<game id>}``."""

from .connection import connect
from .redis_store import UNSCHEDULED, GameStore, StoreError, StoreUnavailable

__all__ = ["UNSCHEDULED", "GameStore", "StoreError", "StoreUnavailable", "connect"]
