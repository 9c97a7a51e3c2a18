"""Storage: every game lives in Redis, under keys that share the hash tag ``{<game id>}``."""

from .redis_store import GameStore, StoreUnavailable, connect

__all__ = ["GameStore", "StoreUnavailable", "connect"]
