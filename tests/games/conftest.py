"""Fixtures of the Word Jam and Muzicando HTTP tests.

- ``clock``: a fake clock; the test's ``app`` (and so ``client``) is created on it
  (``create_app(config, clock=clock)``, see tests/conftest.py), so the windows' deadlines pass
  instantly: ``clock.advance(seconds)``.

The helpers of ``tests/service`` (``service_helpers``) are importable here too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "service"))

from .games_helpers import FakeClock  # noqa: E402 - needs the path above


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
