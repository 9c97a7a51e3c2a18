"""impresario tournament: in process it plays exactly the games it plays over HTTP; --jobs plays
them in parallel with the same result; --out writes JSON or CSV; the progress shows an ETA."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest

from impresario import Client, run_tournament

CLI = [sys.executable, "-m", "impresario.cli"]


@pytest.mark.parametrize("ruleset, bots, games, options", [
    ("turandot", ["greedy", "random", "random"], 4, None),
    ("muzicando", ["greedy", "random", "greedy", "random"], 1, {"hands": 4}),
    ("wordjam", ["wordsmith"] * 5, 1, None),
])
def test_in_process_plays_the_games_http_plays(live_server, ruleset, bots, games, options):
    over_http = run_tournament(Client(live_server), bots, games, seed=3, ruleset=ruleset,
                               options=options)
    here = run_tournament(None, bots, games, seed=3, ruleset=ruleset, options=options,
                          in_process=True)
    assert here["standings"] == over_http["standings"]

    def played(result):  # what the games were, not how long the bots took to think
        return [(r["seed"], r["winners"],
                 [{k: v for k, v in p.items() if k != "think_ms"} for p in r["players"]])
                for r in result["results"]]

    assert played(here) == played(over_http)
    assert all(len(p["think_ms"]) > 0 for r in here["results"] for p in r["players"])
    assert all(r["id"] for r in over_http["results"]) and not any(r["id"] for r in here["results"])


def test_jobs_give_the_same_result_and_out_writes_json_and_csv(live_server, tmp_path):
    def tournament(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*CLI, "tournament", "--url", live_server, "--games", "6",
                               "--seed", "4", "--bots", "greedy,random,random", *argv],
                              capture_output=True, text=True, timeout=300,
                              env={**os.environ, "COLUMNS": "200"})

    one = tournament("--out", str(tmp_path / "one.json"))
    two = tournament("--jobs", "2", "--out", str(tmp_path / "two.csv"))
    assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
    assert "ETA" in one.stderr                        # plain progress: standard error is a pipe
    assert "2 job(s)" in two.stdout
    table = lambda out: [line for line in out.splitlines() if line[:1].isdigit() and "  " in line]
    assert table(one.stdout)[1:] == table(two.stdout)[1:]  # the same standings
    written = json.loads((tmp_path / "one.json").read_text())
    assert written["games"] == 6 and len(written["results"]) == 6
    assert [s["bot"] for s in written["standings"]] == ["greedy", "random", "random"]
    rows = list(csv.DictReader((tmp_path / "two.csv").open()))
    assert len(rows) == 6 * 3
    assert {r["bot"] for r in rows} == {"greedy", "random"}
    wins = sum(float(r["won"]) for r in rows)
    assert wins == pytest.approx(6)                   # one victory per game, shared or not
    for game in range(6):
        totals_csv = [int(r["total"]) for r in rows if int(r["game"]) == game]
        assert totals_csv == [p["total"] for p in written["results"][game]["players"]]


def test_out_refuses_other_formats(live_server):
    done = subprocess.run([*CLI, "tournament", "--url", live_server, "--out", "x.txt"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and ".json or .csv" in done.stderr


class _Throttling:
    """A proxy in front of the engine that answers the first ``times`` creations of a game
    with the engine's own throttling answer (429 ``create_rate_limited``, Retry-After: 1) and
    passes every other request through."""

    def __init__(self, engine: str, times: int) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        import requests

        outer = self
        self.refused = 0

        class Handler(BaseHTTPRequestHandler):
            def _pass(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.command == "POST" and self.path == "/v1/games" \
                        and outer.refused < times:
                    outer.refused += 1
                    problem = json.dumps({"type": "about:blank", "title": "Too Many Requests",
                                          "status": 429, "code": "create_rate_limited",
                                          "detail": "too many games created"}).encode()
                    self.send_response(429)
                    self.send_header("Content-Type", "application/problem+json")
                    self.send_header("Retry-After", "1")
                    self.send_header("Content-Length", str(len(problem)))
                    self.end_headers()
                    self.wfile.write(problem)
                    return
                headers = {k: v for k, v in self.headers.items()
                           if k.lower() not in ("host", "content-length")}
                answer = requests.request(self.command, engine + self.path, data=body or None,
                                          headers=headers, timeout=30)
                self.send_response(answer.status_code)
                for k, v in answer.headers.items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection",
                                         "content-encoding"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(answer.content)))
                self.end_headers()
                self.wfile.write(answer.content)

            do_GET = do_POST = do_DELETE = do_PATCH = _pass

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def test_a_throttled_tournament_waits_says_so_and_how_it_is_lifted(live_server, tmp_path):
    proxy = _Throttling(live_server, times=2)
    try:
        done = subprocess.run([*CLI, "tournament", "--url", proxy.url, "--games", "2",
                               "--seed", "5", "--bots", "greedy,random,random", "--quiet",
                               "--out", str(tmp_path / "games.json")],
                              capture_output=True, text=True, timeout=300)
    finally:
        proxy.server.shutdown()
    assert done.returncode == 0, done.stderr
    assert proxy.refused == 2
    # said once while it runs, with the engine's setting that lifts it...
    assert done.stderr.count("the engine is throttling this tournament (429 "
                             "create_rate_limited)") == 1
    assert "RATE_LIMIT_CREATE_PER_IP" in done.stderr
    # ...and summed up in the report: both refusals waited out (about a second each)
    line = next(x for x in done.stdout.splitlines() if x.startswith("throttled:"))
    assert "429 create_rate_limited 2 time(s)" in line and "--in-process" in line
    written = json.loads((tmp_path / "games.json").read_text())
    assert written["throttled"]["retries"] == 2 and written["throttled"]["seconds"] >= 1.5
    assert sum(r["throttled"]["retries"] for r in written["results"]) == 2
    assert written["games"] == 2 and all(r["id"] for r in written["results"])
