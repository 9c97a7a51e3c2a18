"""Storage: every game lives in Redis, under keys that share the hash tag ``{<game id>}``."""

from .redis_store import UNSCHEDULED, GameStore, StoreError, StoreUnavailable, connect

__all__ = ["UNSCHEDULED", "GameStore", "StoreError", "StoreUnavailable", "connect"]
