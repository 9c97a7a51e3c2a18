"""The examples of docs/api.md (where the README sends a newcomer) run as written, against the
live test server instead of :8000."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from live.hook_helpers import Receiver, Senders

README = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)


def _run_shell(script: str, live_server: str) -> str:
    script = script.replace("http://127.0.0.1:8000", live_server)
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_shell_block_and_python_block_is_run_below():
    # tests/e2e/test_doc_commands.py counts on it: a new block needs a test here
    assert len(_blocks("sh")) == 4 and len(_blocks("python")) == 1


def test_the_curl_round_of_turandot(live_server):
    out = _run_shell(_blocks("sh")[0], live_server)
    assert "'type': 'bids_revealed'" in out
    assert "assign_office" in out


@pytest.mark.slow
def test_the_curl_game_of_word_jam_for_six(live_server):
    first, wordjam = _blocks("sh")[0], _blocks("sh")[1]
    helpers = "\n".join(first.splitlines()[:2])  # field() and API
    out = _run_shell(helpers + "\n" + wordjam, live_server)
    assert out.strip().splitlines()[-1].startswith("[")  # the winners
    lines = out.splitlines()
    assert len(eval(lines[0])) == 4 and re.fullmatch(r"[A-Z]", lines[1])  # 4 coins, forbidden
    assert re.search(r"^turn \d+, \w+: \{\"type\": ", out, re.M)  # the loop says each move


def test_the_curl_lobby_leave_and_rematch(live_server):
    first, lobby = _blocks("sh")[0], _blocks("sh")[2]
    helpers = "\n".join(first.splitlines()[:2])  # field() and API
    out = _run_shell(helpers + "\n" + lobby, live_server).strip().splitlines()
    # the next page (or None), the seats taken after leaving, Anna's seat, the rematch started
    assert out[1:] == ["0", "1", "playing"], out


def test_the_sdk_in_ten_lines(live_server):
    (code,) = _blocks("python")
    assert len(code.strip().splitlines()) <= 10
    done = subprocess.run([sys.executable, "-c", code.replace("http://127.0.0.1:8000", live_server)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("[")


@pytest.fixture(scope="module")
def hooks_server(redis_url, tmp_path_factory, gunicorn_server):
    """A server that admits webhooks to 127.0.0.1 over http, as the block's setup sentence
    says, with the sender beside it, and a receiver."""
    folder = tmp_path_factory.mktemp("readme-hooks")
    env = {"WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_ALLOW_HTTP_HOSTS": "127.0.0.1"}
    receiver, senders = Receiver(), Senders(redis_url, env, folder)
    senders.start()
    try:
        with gunicorn_server(redis_url, folder, **env) as url:
            yield url, receiver
    finally:
        senders.stop()
        receiver.server.shutdown()


def test_the_webhooks_block(hooks_server):
    url, receiver = hooks_server
    first, hooks = _blocks("sh")[0], _blocks("sh")[3]
    helpers = "\n".join(first.splitlines()[:2])  # field() and API
    hooks = re.sub(r"^HOOK=\S+", f"HOOK={receiver.url}/impresario", hooks, flags=re.M)
    out = _run_shell(helpers + "\n" + hooks, url).strip().splitlines()
    listed = eval(out[0])
    assert [w["url"] for w in listed] == [f"{receiver.url}/impresario"]
    assert "secret" not in listed[0]
    attempt = eval(out[1])
    assert attempt["status"] == 200 and attempt["event_type"] == "seat_taken", attempt
    assert out[2:] == ["202", "204"], out
    assert receiver.raw("/impresario"), "the receiver got nothing"
