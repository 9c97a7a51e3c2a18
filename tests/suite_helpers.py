"""What the suite's folders share besides fixtures (tests/conftest.py): import it as
``from suite_helpers import ...``. A test never imports ``conftest``: each folder with its own
conftest.py would be that module, whichever pytest imported last."""

from __future__ import annotations

import http.client
from typing import Any, Callable

#: the limits that are on by default (games created, failed authentications per address) are
#: off in the fixtures: the suite creates games and tries bad tokens far faster than a person
#: from one address. The tests of those limits turn them on.
UNLIMITED = {"rate_limit_create_per_ip": 0, "auth_failures_per_ip": 0}
UNLIMITED_ENV = {"RATE_LIMIT_CREATE_PER_IP": "0", "AUTH_FAILURES_PER_IP": "0"}


def in_own_thread(run: Callable[..., Any], *args: Any) -> Any:
    """``run(*args)`` (``asyncio.run``, ``anyio.run``) on a thread of its own, its answer or its
    exception: a test worker that has opened the browser keeps Playwright's event loop running
    on its main thread, where ``asyncio.run`` refuses to start another."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run, *args).result()


def healthy(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", "/healthz")
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False
