"""Settings from the environment: REDIS_URL from a mounted Secret's file (REDIS_URL_FILE), and
METRICS_PORT."""

from __future__ import annotations

import pytest

from impresario_engine.config import Config


@pytest.fixture
def env(monkeypatch):
    for name in ("REDIS_URL", "REDIS_URL_FILE", "METRICS_PORT"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_redis_url_is_read_from_the_file_redis_url_file_names(env, tmp_path):
    secret = tmp_path / "REDIS_URL"
    secret.write_text("rediss://:s3cret@redis.example:6380/0\n")  # a Secret's file may end in \n
    env.setenv("REDIS_URL_FILE", str(secret))
    assert Config.from_env().redis_url == "rediss://:s3cret@redis.example:6380/0"


def test_redis_url_alone_still_works(env):
    env.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert Config.from_env().redis_url == "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize("setup,message", [
    ("both", "not both"), ("missing", "cannot read"), ("empty", "is empty")])
def test_a_redis_url_file_that_cannot_serve_stops_the_start_with_a_clear_message(
        env, tmp_path, setup, message):
    secret = tmp_path / "REDIS_URL"
    if setup != "missing":
        secret.write_text("" if setup == "empty" else "redis://127.0.0.1:6379/0")
    env.setenv("REDIS_URL_FILE", str(secret))
    if setup == "both":
        env.setenv("REDIS_URL", "redis://127.0.0.1:6379/1")
    with pytest.raises(SystemExit) as stopped:
        Config.from_env()
    assert message in str(stopped.value) and "REDIS_URL" in str(stopped.value)
    assert "redis://" not in str(stopped.value)  # the URL (a password) is never echoed


def test_metrics_port_is_read_and_checked(env):
    assert Config.from_env().metrics_port == 0
    env.setenv("METRICS_PORT", "9100")
    assert Config.from_env().metrics_port == 9100
    env.setenv("METRICS_PORT", "70000")
    with pytest.raises(SystemExit, match="METRICS_PORT"):
        Config.from_env()
