"""Compact JSON for what the store keeps long: raw deflate with a 4 KiB window.

A game document or a game's events are a few KB of repetitive JSON; deflate makes them about
three to five times smaller, and the small window makes it about three times cheaper than
zlib's defaults for the same size. The first byte tells the two apart: ``\\x01`` is this one,
anything else plain JSON (a game's document, which the write script stores as it comes).
"""

from __future__ import annotations

import zlib
from typing import Any

import orjson

RAW_DEFLATE = b"\x01"


def pack(value: Any, small: bool = False) -> bytes:
    """``value`` as compact JSON, compressed (:func:`pack_json`)."""
    return pack_json(orjson.dumps(value), small)


def pack_json(raw: bytes, small: bool = False) -> bytes:
    """``raw`` (JSON already encoded) compressed: fast (level 1, 4 KiB window), or ``small``
    (level 9, 32 KiB window: for what is written once and kept long, like an archive)."""
    # memLevel 6: the compressor's tables take ~40 KB instead of ~140 KB, allocated per call
    c = zlib.compressobj(9, zlib.DEFLATED, -15) if small else \
        zlib.compressobj(1, zlib.DEFLATED, -12, 6)
    return RAW_DEFLATE + c.compress(raw) + c.flush()


def unpack(raw: bytes) -> Any:
    """What :func:`pack` packed (or plain JSON, as a hash field may hold it)."""
    if raw[:1] == RAW_DEFLATE:
        return orjson.loads(zlib.decompress(raw[1:], -15))  # reads either window
    return orjson.loads(raw)


def text(value: Any) -> str:
    """A Redis reply's string (bytes decoded; a client that decodes gives ``str`` already)."""
    return value.decode() if isinstance(value, bytes) else value
