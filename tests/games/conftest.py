"""Fixtures of the Word Jam and Muzicando HTTP tests.

- ``clock``: a fake clock installed on the app's Engine (``app.extensions["impresario"]``),
  so the windows' deadlines pass instantly: ``clock.advance(seconds)``.

The helpers of ``tests/service`` (``service_helpers``) are importable here too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from .games_helpers import FakeClock  # noqa: E402 - needs the path above


@pytest.fixture
def clock(app) -> FakeClock:
    fake = FakeClock()
    app.extensions["impresario"].clock = fake
    return fake
