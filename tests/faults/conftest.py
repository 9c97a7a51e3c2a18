"""Fixtures of the fault tests (the helpers are in ``fault_helpers``): real processes, each test
module with its own Redis and its own gunicorn; the session's Redis and live server are never
touched."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def fault_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("faults")
