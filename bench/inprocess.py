"""The engine's move endpoint in process (Flask test client, no gunicorn, real Redis): CPU per
move, and a pyinstrument profile of the same loop (wall time, one thread, Redis round trips
included), the same play as the HTTP clients (lowest bids, decisions from each response)."""

from __future__ import annotations

import contextlib
import io
import logging
import time
from typing import Any

import orjson

import loadgen


def _play(client, games, templates, rds, seconds: float) -> tuple[int, int]:
    """Moves made and bids among them within ``seconds``."""
    moves = bids = 0
    gi = 0
    deadline = time.monotonic() + seconds

    def start(i):
        gid, ti = games[i % len(games)]
        pipe = rds.pipeline(transaction=False)
        loadgen.install_game(pipe, gid, templates[ti], 86400_000)
        pipe.execute()
        t = templates[ti]
        return gid, t, {"pending": [{"seat": s, "kinds": ["bid"]} for s in range(t.players)],
                        "players": [None] * t.players}

    gid, t, view = start(gi)
    while time.monotonic() < deadline:
        seat, move = loadgen.decide(view)
        resp = client.post(f"/v1/games/{gid}/moves", data=orjson.dumps(move), headers={
            "Content-Type": "application/json", "Authorization": "Bearer " + t.tokens[seat],
            "Idempotency-Key": f"k{moves}-{time.monotonic_ns()}"})
        if resp.status_code != 200:
            raise RuntimeError(f"in-process move failed: {resp.status_code} {resp.data[:300]!r}")
        moves += 1
        bids += move is loadgen.BID
        view = orjson.loads(resp.data)["game"]
        if view["status"] == "finished":
            gi += 1
            gid, t, view = start(gi)
    return moves, bids


def aggregate(root, top: int = 30) -> dict[str, Any]:
    total = root.time or 1e-9
    selfs: dict[str, float] = {}
    incl: dict[str, float] = {}

    def key(fr) -> str:
        path = fr.file_path_short or ""
        for marker in ("site-packages/", "src/"):
            if marker in path:
                path = path.split(marker, 1)[1]
        return f"{path}:{fr.function}"

    def walk(fr, parent_key: str, ancestors: frozenset) -> None:
        if fr.function == "[self]" or fr.identifier.startswith("[self]"):
            selfs[parent_key] = selfs.get(parent_key, 0.0) + fr.time
            return
        k = key(fr)
        if k not in ancestors:
            incl[k] = incl.get(k, 0.0) + fr.time
        if not fr.children:
            selfs[k] = selfs.get(k, 0.0) + fr.time
        for c in fr.children:
            walk(c, k, ancestors | {k})

    walk(root, "", frozenset())
    return {
        "seconds": total,
        "self": [{"function": k, "share": v / total}
                 for k, v in sorted(selfs.items(), key=lambda kv: -kv[1])[:top]],
        "inclusive": [{"function": k, "share": v / total}
                      for k, v in sorted(incl.items(), key=lambda kv: -kv[1])[:top * 2]],
    }


def run(url: str, rds, games, templates, seconds: float) -> dict[str, Any]:
    from impresario_engine.api.edge import RequestLog
    from impresario_engine.app import create_app

    sink = io.StringIO()
    app = create_app({"redis_url": url})
    # the request log lines go to the sink (they are part of the measured work): the engine's
    # handler holds the stream it found when the process first made an app (bench/lobby.py's,
    # earlier in the run), so its stream is swapped rather than sys.stderr
    handlers = [h for h in logging.getLogger("impresario_engine").handlers
                if getattr(h, "_impresario", False)]
    streams = [h.setStream(sink) for h in handlers]
    client = app.test_client()
    with contextlib.ExitStack() as restore, contextlib.redirect_stderr(sink):
        restore.callback(lambda: [h.setStream(s) for h, s in zip(handlers, streams)])
        restore.callback(RequestLog.flush_all)  # first: the lines still waiting, to the sink
        _play(client, games, templates, rds, 1.0)  # warm-up
        cpu0, wall0 = time.process_time(), time.perf_counter()
        moves, bids = _play(client, games, templates, rds, seconds)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        out: dict[str, Any] = {"moves": moves, "bids": bids, "seconds": wall,
                               "cpu_ms_per_move": 1000 * cpu / moves,
                               "wall_ms_per_move": 1000 * wall / moves}
        try:
            from pyinstrument import Profiler
        except ImportError:
            out["profile"] = {"error": "pyinstrument is not installed"}
            return out
        prof = Profiler(interval=0.0002)
        prof.start()
        _play(client, games, templates, rds, seconds)
        prof.stop()
    out["profile"] = aggregate(prof.last_session.root_frame())
    return out
