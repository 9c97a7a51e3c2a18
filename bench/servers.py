"""The machine and the processes of ``make bench`` (bench/run.py): what the machine is, the
commit measured, and gunicorn on 127.0.0.1 with the engine's config (stopped by
common.cleanup)."""

from __future__ import annotations

import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import OUT, ROOT, cleanups
from impresario_engine.store.embedded import free_port


# ------------------------------------------------------------------------------- machine
def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu_model": cpu, "memory_gib": round(mem / 2**30, 1),
            "python": platform.python_version(), "platform": platform.platform(),
            "wrk": shutil.which("wrk") is not None}


def git_state() -> dict[str, Any]:
    """The commit measured, and whether the engine's code had uncommitted changes then."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=20).stdout
        except (OSError, subprocess.TimeoutExpired):
            return ""
    dirty = [line[3:] for line in git("status", "--porcelain", "--", "services", "rules"
                                      ).splitlines()
             if len(line) > 3]
    return {"commit": git("rev-parse", "--short", "HEAD").strip(), "engine_dirty_files": dirty}


def loadavg() -> list[float]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


# ------------------------------------------------------------------------------- processes
def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(d.name))
    return out


class Gunicorn:
    """gunicorn with the engine's config on 127.0.0.1 (a process group of its own)."""

    def __init__(self, name: str, app: str, redis_url: str, cwd: Path) -> None:
        self.name = name
        self.port = free_port()
        self.metrics = Path(tempfile.mkdtemp(prefix=f"bench-{name}-metrics-"))
        env = dict(os.environ)
        for k in ("WEB_CONCURRENCY", "GUNICORN_THREADS", "PORT", "GUNICORN_MAX_REQUESTS"):
            env.pop(k, None)  # as shipped: the config's defaults
        env.update({"REDIS_URL": redis_url, "BIND": f"127.0.0.1:{self.port}",
                    "PROMETHEUS_MULTIPROC_DIR": str(self.metrics),
                    # one address creates every game here: the per-address creation limit
                    # (on by default) would measure itself, not the engine
                    "RATE_LIMIT_CREATE_PER_IP": "0"})
        env["PYTHONPATH"] = str(cwd) + os.pathsep + env.get("PYTHONPATH", "")
        self.log_path = OUT / f"{name}-gunicorn.log"
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
             app], env=env, cwd=str(cwd), stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        cleanups.append(self.stop)
        deadline = time.monotonic() + 60
        while not self._healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{name} gunicorn did not start: "
                                   f"{self.log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        time.sleep(0.5)
        self.workers = children(self.proc.pid)

    def _healthy(self) -> bool:
        import http.client
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except OSError:
            return False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def cpu(self) -> float:
        self.workers = children(self.proc.pid) or self.workers
        return sum(cpu_seconds(p) for p in self.workers) + cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.metrics, ignore_errors=True)
