"""What the steps of ``make bench`` (bench/run.py) share: where they write, how long their
windows are (``BENCH_QUICK=1`` shortens every one), the targets, the log, and what is stopped at
the end (``cleanups``, last first), also on failure or Ctrl-C."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"

QUICK = os.environ.get("BENCH_QUICK") == "1"
WINDOW = 2.0 if QUICK else 5.0        # measured seconds per window
ROUNDS = 1 if QUICK else 3            # windows per HTTP point, engine and floor alternating
WARMUP = 1.0 if QUICK else 1.5
RULES_SECONDS = 1.0 if QUICK else 3.0
SCALE_WINDOW = 2.0 if QUICK else 5.0
SCALE_ROUNDS = 1 if QUICK else 3
CONCURRENCY = (1, 16, 64)
SCALE_CLIENTS = 16
TEMPLATES = 8
POOL = 128                            # live games played by the HTTP clients
TARGETS = {"engine_floor_rps": 0.8, "engine_floor_p99": 2.0, "rules_4p_games_per_cpu_s": 6000,
           "bytes_per_game": 4096, "scale_ratio": 0.9}

cleanups: list[Any] = []


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def cleanup() -> None:
    while cleanups:
        fn = cleanups.pop()
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - keep stopping the others
            log(f"cleanup: {exc!r}")
