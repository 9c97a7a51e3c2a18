"""Compact JSON for what the store keeps long: raw deflate with a 4 KiB window.

A game document or a game's events are a few KB of repetitive JSON; deflate makes them about
three to five times smaller, and the small window makes it about three times cheaper than
zlib's defaults for the same size. The first byte tells the formats apart: ``\\x01`` is this
one, ``{`` or ``[`` plain JSON, anything else zlib-wrapped (written by earlier versions).
"""

from __future__ import annotations

import zlib
from typing import Any

import orjson

RAW_DEFLATE = b"\x01"


def pack(value: Any, small: bool = False, legacy: bool = False) -> bytes:
    """``value`` as compact JSON; ``legacy``: zlib-wrapped, what versions before storage
    format 2 read (see ``STORAGE_FORMAT``)."""
    if legacy:
        return zlib.compress(orjson.dumps(value), 1)
    return pack_json(orjson.dumps(value), small)


def pack_json(raw: bytes, small: bool = False) -> bytes:
    """``raw`` (JSON already encoded) compressed: fast (level 1, 4 KiB window), or ``small``
    (level 9, 32 KiB window: for what is written once and kept long, like an archive)."""
    # memLevel 6: the compressor's tables take ~40 KB instead of ~140 KB, allocated per call
    c = zlib.compressobj(9, zlib.DEFLATED, -15) if small else \
        zlib.compressobj(1, zlib.DEFLATED, -12, 6)
    return RAW_DEFLATE + c.compress(raw) + c.flush()


def unpack(raw: bytes) -> Any:
    first = raw[:1]
    if first == RAW_DEFLATE:
        return orjson.loads(zlib.decompress(raw[1:], -15))  # reads either window
    if first in (b"{", b"["):
        return orjson.loads(raw)
    return orjson.loads(zlib.decompress(raw))
