"""What the sync :class:`~impresario.Client` and the :class:`~impresario.aio.AsyncClient` share:
their settings, the headers of a request, and the retry policy (which answers are retried, how
long to wait, ``Retry-After`` and its cap, the log line of each retry and the throttling
counters). Each client only sends the request and sleeps the wait its own way."""

from __future__ import annotations

import json
import logging
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import APIConnectionError, error_for, operator_setting

#: one WARNING line per retry (reason, method, path, attempt, wait); nothing above DEBUG else
log = logging.getLogger("impresario.client")

DEFAULT_URL = "http://127.0.0.1:8000"
RETRY_STATUSES = (429, 503)


@dataclass
class Throttled:
    """How much a client was throttled (answered 429 and retried) since it was made."""

    #: 429 answers retried
    retries: int = 0
    #: seconds waited before those retries
    seconds: float = 0.0
    #: the problem ``code`` of the latest 429 retried (``create_rate_limited``...)
    last_code: str | None = None


def decode(status: int, content: bytes, raw: bool) -> Any:
    """A success answer's body: its text with ``raw``, None when empty, else its JSON."""
    if raw:
        return content.decode("utf-8", "replace")
    if status == 204 or not content:
        return None
    return json.loads(content)


class Settings:
    """The settings both clients take, and the shared steps of a request."""

    def __init__(self, base_url: str = DEFAULT_URL, token: str | None = None, *,
                 timeout: float = 10.0, max_retries: int = 3, backoff: float = 0.2,
                 max_backoff: float = 5.0, honour_retry_after: bool = False,
                 rng: random.Random | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.honour_retry_after = honour_retry_after
        #: the 429s this client retried, and the seconds it waited for them
        self.throttled = Throttled()
        self._rng = rng or random.Random()

    def _headers(self, method: str, headers: Mapping[str, str] | None,
                 token: str | None) -> dict[str, str]:
        hdrs = {"Accept": "application/json, application/problem+json"}
        hdrs.update(headers or {})
        bearer = token or self.token
        if bearer:
            hdrs["Authorization"] = f"Bearer {bearer}"
        if method in ("POST", "DELETE"):  # the same key on every retry of this request
            hdrs.setdefault("Idempotency-Key", uuid.uuid4().hex)
        return hdrs

    def wait_for(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number ``attempt + 1``: jittered exponential backoff
        up to ``max_backoff``, and at least a ``Retry-After`` the answer gave, itself capped
        by ``max_backoff`` unless ``honour_retry_after``."""
        delay = min(self.max_backoff, self.backoff * (2 ** attempt))
        delay = self._rng.uniform(delay / 2, delay)  # jitter: retries of many clients spread out
        if retry_after is not None:
            asked = retry_after if self.honour_retry_after else min(retry_after,
                                                                    self.max_backoff)
            delay = max(delay, asked)
        return delay


class Retry:
    """One request's attempts: after each failure or answer, whether to retry and how long to
    wait first (logged, and counted when throttled), or the error to raise."""

    def __init__(self, settings: Settings, method: str, path: str) -> None:
        self.settings = settings
        self.method = method
        self.path = path.split("?", 1)[0]  # a query string may hold a token: never logged
        self.attempt = 0

    def _wait(self, reason: str, retry_after: float | None) -> float:
        wait = self.settings.wait_for(self.attempt, retry_after)
        self.attempt += 1
        log.warning("retrying %s %s after %s (attempt %d of %d) in %.2f s", self.method,
                    self.path, reason, self.attempt, self.settings.max_retries, wait)
        return wait

    def failed(self, url: str, exc: Exception) -> float:
        """The wait before retrying a request that reached nobody; raises
        :class:`~impresario.errors.APIConnectionError` once the retries are spent."""
        if self.attempt >= self.settings.max_retries:
            raise APIConnectionError(f"cannot reach {url.split('?', 1)[0]}: {exc}") from exc
        return self._wait(f"connection error ({type(exc).__name__})", None)

    def answered(self, status: int, headers: Mapping[str, str], content: bytes
                 ) -> float | None:
        """The wait before retrying this answer (a 429 or a 503 while retries are left), None
        for a success; raises the :class:`~impresario.errors.APIError` of any other error."""
        if status < 400:
            return None
        try:
            body: Any = json.loads(content)
        except ValueError:
            body = content.decode("utf-8", "replace")
        error = error_for(status, body, dict(headers))
        if status not in RETRY_STATUSES or self.attempt >= self.settings.max_retries:
            raise error
        reason = f"{status} {error.code or 'error'}"
        setting = operator_setting(error.code)
        if setting:
            reason += f" (the engine's limit: its operator raises {setting})"
        wait = self._wait(reason, error.retry_after)
        if status == 429:
            throttled = self.settings.throttled
            throttled.retries += 1
            throttled.seconds += wait
            throttled.last_code = error.code
        return wait
