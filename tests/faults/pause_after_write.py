"""The engine's WSGI app with one pause, for the fault tests: when the file named by
``PAUSE_AFTER_WRITE`` says ``arm``, the next game the store writes is written, and then the
worker that wrote it writes ``paused <game id> <its pid>`` in the file and sleeps, so that a
test can kill it between the write and the answer. Nothing else changes."""

from __future__ import annotations

import os
import time

from impresario_engine.store.redis_store import GameStore
from impresario_engine.wsgi import app  # noqa: F401 - what gunicorn serves

FLAG = os.environ["PAUSE_AFTER_WRITE"]
_write = GameStore.write


def _armed() -> bool:
    try:
        with open(FLAG, encoding="utf-8") as fh:
            return fh.read() == "arm"
    except FileNotFoundError:
        return False


def write(self, game_id, *args, **kwargs):
    done = _write(self, game_id, *args, **kwargs)
    if done[0] and _armed():
        with open(FLAG, "w", encoding="utf-8") as fh:
            fh.write(f"paused {game_id} {os.getpid()}")
        time.sleep(120)
    return done


GameStore.write = write  # type: ignore[method-assign]
