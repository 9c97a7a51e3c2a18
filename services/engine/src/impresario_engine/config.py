"""Service settings, read from the environment (12-factor); tests pass overrides to create_app."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields, replace
from typing import Any

DAY = 86400


def _number(name: str, default: Any, kind: type, what: str) -> Any:
    """The environment's ``name`` read as ``kind`` (``default`` when unset or empty); a value
    that is not one stops the service, naming the setting."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError as exc:
        raise SystemExit(f"{name} must be {what}, not {raw!r}") from exc


def _int(name: str, default: int) -> int:
    return _number(name, default, int, "an integer")


def _float(name: str, default: float) -> float:
    return _number(name, default, float, "a number")


def redis_url_from_env() -> str:
    """``REDIS_URL``, or the contents of the file ``REDIS_URL_FILE`` names (a mounted Secret:
    a URL with a password then never sits in the process's environment, which child processes,
    crash reports and ``/proc/<pid>/environ`` show). Setting both is a mistake."""
    url = os.environ.get("REDIS_URL", "")
    path = os.environ.get("REDIS_URL_FILE", "")
    if not path:
        return url
    if url:
        raise SystemExit("set REDIS_URL or REDIS_URL_FILE, not both")
    try:
        with open(path, encoding="utf-8") as fh:
            found = fh.read().strip()
    except OSError as exc:
        raise SystemExit(f"REDIS_URL_FILE: cannot read {path}: {exc.strerror}") from exc
    if not found:
        raise SystemExit(f"REDIS_URL_FILE: {path} is empty")
    return found


@dataclass(frozen=True)
class Config:
    #: Redis to keep the games in; empty = the embedded server started by ``serve`` (set by it)
    redis_url: str = ""
    #: largest request body accepted, in bytes (413 beyond)
    max_body_bytes: int = 64 * 1024
    #: seconds a finished game is kept
    finished_ttl: int = 7 * DAY
    #: seconds an unfinished game is kept after its last move (then it counts as abandoned)
    idle_ttl: int = 30 * DAY
    #: seconds an open game (seats still free) is kept after its last change: a game nobody
    #: joins expires and leaves the list of games
    open_game_ttl: int = DAY
    #: seconds without a move after which the reaper finishes a game in play with the deadline
    #: defaults (0: never; beyond IDLE_TTL_SECONDS it is moot: Redis forgets the game first)
    abandon_after: int = 7 * DAY
    #: seconds the seats of a rematch are held for the players of the finished game; a seat
    #: nobody claims in that time is free for anyone
    rematch_hold_seconds: int = 300
    #: seconds an Idempotency-Key is remembered
    idempotency_ttl: int = DAY
    #: the file of the keys that seal the credentials an idempotency record gives back (a
    #: Kubernetes Secret; ``python -m impresario_engine seal-key`` writes a line of it): the
    #: first seals, every one opens (table/sealing.py). Empty: the Idempotency-Key alone
    seal_keys_file: str = ""
    #: the host platforms whose users are players: TRUSTED_ISSUERS_FILE, JSON
    #: (api/identity.py); none by default (players are then anonymous ones only)
    trusted_issuers_file: str = ""
    #: the rated games a player needs before the leaderboard shows them
    leaderboard_min_games: int = 5
    #: seconds a quick-match seat waits for people before bots fill it, when the player does
    #: not say (and the most a player may ask for)
    match_wait_seconds: int = 60
    match_wait_max: int = 600
    #: seconds the keys of a game's moves are still remembered once it is over (a finished
    #: game takes no move, so a later retry cannot apply anything twice: it gets 409)
    finished_idempotency_seconds: int = 600
    #: seconds after a lapse (a deadline's default, a bot's move that fell due) during which a
    #: move that changed situation is judged late: a move without If-Match (or the round or
    #: word it is for) from a seat whose situation the lapse changed is refused with 409
    #: deadline_passed, whoever applied the lapse (the reaper, another request, this one).
    #: It covers the time a move takes to arrive: its sender may have decided before the lapse
    late_move_seconds: float = 2.0
    #: compare-and-set attempts before a move gives up with 503 (each re-reads the game)
    cas_attempts: int = 16
    #: seconds a Redis command may take before the request fails with 503
    redis_timeout: float = 5.0
    #: event streams (SSE) one worker process admits; keep it below GUNICORN_THREADS
    max_streams_per_worker: int = 48
    #: the share of those that streams without a seat (spectators, spectator links, the host)
    #: may take: the rest is kept for the seats' own streams
    spectator_streams_share: float = 0.5
    #: streams without a seat one client address may hold in one worker (429 beyond)
    spectator_streams_per_address: int = 4
    #: streams without a seat one game may have in one worker (429 beyond)
    spectator_streams_per_game: int = 16
    #: seconds between heartbeat comments on an idle stream
    stream_heartbeat_seconds: float = 15.0
    #: seconds a stream stays open before the client is asked to reconnect
    stream_max_seconds: float = 300.0
    #: milliseconds a stream blocks on Redis per wait (below redis_timeout)
    stream_poll_ms: int = 1000
    #: the reconnection delay (ms) suggested to SSE clients
    stream_retry_ms: int = 2000
    #: seconds a stream ticket (what a browser's EventSource opens a seat's stream with, in
    #: its URL) may wait before it is used; it opens one stream, once
    stream_ticket_seconds: int = 60
    #: requests a minute allowed per client address on /v1 (0: no limit)
    rate_limit_per_ip: int = 0
    #: requests a minute allowed per bearer token on /v1 (0: no limit)
    rate_limit_per_token: int = 0
    #: games one client address may create a minute, and players likewise (0: no limit)
    rate_limit_create_per_ip: int = 20
    #: failed authentications (a token or join link that is not valid) one client address may
    #: make a minute on one game; beyond, its further failures there get 429 instead of 401
    #: until the minute ends, while a credential that validates is always served (0: no limit)
    auth_failures_per_ip: int = 30
    #: origins allowed to call the API from a browser (comma-separated; "*" for any)
    cors_origins: str = ""
    #: one JSON log line per request
    log_requests: bool = True
    #: the request lines are written together, at most this long after the first of them
    #: (seconds; or as soon as 64 wait); 0: each line as its request ends
    log_batch_seconds: float = 0.25
    log_level: str = "INFO"
    #: proxies in front of the service whose X-Forwarded-For is trusted (0: none); the
    #: per-address limits then count the client's address, not the ingress's. Only with that
    #: many proxies really in front: without them a client writes the header itself
    trusted_proxies: int = 0
    #: the port that serves ``/metrics``, and only it (gunicorn listens there too, beside
    #: BIND); the API's port then answers ``/metrics`` with 404, so an ingress in front of the
    #: API never shows it. 0: ``/metrics`` on the API's port (local runs)
    metrics_port: int = 0
    #: Web Push ("your move" notices to a browser, usecases/push.py): the VAPID private key,
    #: a PEM file (``python -m impresario_engine vapid-key`` writes one). Empty: no Web Push
    #: (the API answers 404 ``push_unavailable``, the page does not offer it)
    vapid_private_key_file: str = ""
    #: the contact the push services see in the VAPID claims (``mailto:`` or ``https:``)
    vapid_subject: str = ""
    #: seconds a push service may take to answer one notice
    push_timeout: float = 5.0
    #: a deadline this near (seconds) gets a "deadline near" notice, once per turn, when the
    #: turn is at least twice as long
    push_deadline_near_seconds: int = 3600
    #: send to loopback and private addresses, and over plain http (tests only)
    push_allow_private: bool = False
    #: the operator's webhook endpoints (a platform's games, or every game): JSON, a
    #: Kubernetes Secret (usecases/webhooks.py, docs/operations.md); empty: none
    webhooks_file: str = ""
    #: hosts a webhook may be sent to over plain http (comma-separated; tests, local runs):
    #: any other endpoint must be https
    webhook_allow_http_hosts: str = ""
    #: let webhooks go to loopback, private, link-local and other non-public addresses (tests,
    #: local runs only: otherwise any such address is refused, at registration and at send)
    webhook_allow_private: bool = False
    #: seconds between a failed delivery and each retry (comma-separated; then the message is
    #: given up and its endpoint disabled): Standard Webhooks' schedule, about 2.3 days
    webhook_retry_schedule: str = "5,300,1800,7200,18000,36000,50400,72000"
    #: seconds a delivery may take to connect, and to answer
    webhook_connect_timeout: float = 3.0
    webhook_read_timeout: float = 10.0
    #: deliveries a second one endpoint receives at most (more wait for the next second)
    webhook_rate_per_second: int = 20
    #: seconds after which a sender's unfinished outbox entry or claimed retry is taken over by
    #: another sender (one that was killed)
    webhook_claim_seconds: float = 60.0
    #: the attempts each endpoint's delivery log keeps (the latest)
    webhook_log_size: int = 100
    #: the endpoints a game's host may register
    webhooks_per_game: int = 5
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            redis_url=redis_url_from_env(),
            max_body_bytes=_int("MAX_BODY_BYTES", cls.max_body_bytes),
            finished_ttl=_int("FINISHED_TTL_SECONDS", cls.finished_ttl),
            idle_ttl=_int("IDLE_TTL_SECONDS", cls.idle_ttl),
            open_game_ttl=_int("OPEN_GAME_TTL_SECONDS", cls.open_game_ttl),
            abandon_after=_int("ABANDON_AFTER_SECONDS", cls.abandon_after),
            rematch_hold_seconds=_int("REMATCH_HOLD_SECONDS", cls.rematch_hold_seconds),
            idempotency_ttl=_int("IDEMPOTENCY_TTL_SECONDS", cls.idempotency_ttl),
            seal_keys_file=os.environ.get("SEAL_KEYS_FILE", cls.seal_keys_file),
            trusted_issuers_file=os.environ.get("TRUSTED_ISSUERS_FILE",
                                                cls.trusted_issuers_file),
            leaderboard_min_games=_int("LEADERBOARD_MIN_GAMES", cls.leaderboard_min_games),
            match_wait_seconds=_int("MATCH_WAIT_SECONDS", cls.match_wait_seconds),
            match_wait_max=_int("MATCH_WAIT_MAX_SECONDS", cls.match_wait_max),
            finished_idempotency_seconds=_int("FINISHED_IDEMPOTENCY_SECONDS",
                                              cls.finished_idempotency_seconds),
            late_move_seconds=_float("LATE_MOVE_SECONDS", cls.late_move_seconds),
            cas_attempts=_int("CAS_ATTEMPTS", cls.cas_attempts),
            redis_timeout=_float("REDIS_TIMEOUT", cls.redis_timeout),
            max_streams_per_worker=_int("MAX_STREAMS_PER_WORKER", cls.max_streams_per_worker),
            spectator_streams_share=_float("SPECTATOR_STREAMS_SHARE",
                                           cls.spectator_streams_share),
            spectator_streams_per_address=_int("SPECTATOR_STREAMS_PER_ADDRESS",
                                               cls.spectator_streams_per_address),
            spectator_streams_per_game=_int("SPECTATOR_STREAMS_PER_GAME",
                                            cls.spectator_streams_per_game),
            stream_max_seconds=float(_int("STREAM_MAX_SECONDS", int(cls.stream_max_seconds))),
            stream_ticket_seconds=_int("STREAM_TICKET_SECONDS", cls.stream_ticket_seconds),
            rate_limit_per_ip=_int("RATE_LIMIT_PER_IP", cls.rate_limit_per_ip),
            rate_limit_per_token=_int("RATE_LIMIT_PER_TOKEN", cls.rate_limit_per_token),
            rate_limit_create_per_ip=_int("RATE_LIMIT_CREATE_PER_IP",
                                          cls.rate_limit_create_per_ip),
            auth_failures_per_ip=_int("AUTH_FAILURES_PER_IP", cls.auth_failures_per_ip),
            cors_origins=os.environ.get("CORS_ORIGINS", cls.cors_origins),
            log_requests=os.environ.get("LOG_REQUESTS", "1") not in ("0", "false", "no"),
            log_batch_seconds=_float("LOG_BATCH_SECONDS", cls.log_batch_seconds),
            log_level=os.environ.get("LOG_LEVEL", cls.log_level),
            trusted_proxies=_int("TRUSTED_PROXIES", cls.trusted_proxies),
            metrics_port=_int("METRICS_PORT", cls.metrics_port),
            vapid_private_key_file=os.environ.get("VAPID_PRIVATE_KEY_FILE",
                                                  cls.vapid_private_key_file),
            vapid_subject=os.environ.get("VAPID_SUBJECT", cls.vapid_subject),
            push_timeout=_float("PUSH_TIMEOUT_SECONDS", cls.push_timeout),
            push_deadline_near_seconds=_int("PUSH_DEADLINE_NEAR_SECONDS",
                                            cls.push_deadline_near_seconds),
            push_allow_private=os.environ.get("PUSH_ALLOW_PRIVATE", "0")
            in ("1", "true", "yes"),
            webhooks_file=os.environ.get("WEBHOOKS_FILE", cls.webhooks_file),
            webhook_allow_http_hosts=os.environ.get("WEBHOOK_ALLOW_HTTP_HOSTS",
                                                    cls.webhook_allow_http_hosts),
            webhook_allow_private=os.environ.get("WEBHOOK_ALLOW_PRIVATE", "") in ("1", "true",
                                                                                 "yes"),
            webhook_retry_schedule=os.environ.get("WEBHOOK_RETRY_SCHEDULE",
                                                  cls.webhook_retry_schedule),
            webhook_connect_timeout=_float("WEBHOOK_CONNECT_TIMEOUT",
                                           cls.webhook_connect_timeout),
            webhook_read_timeout=_float("WEBHOOK_READ_TIMEOUT", cls.webhook_read_timeout),
            webhook_rate_per_second=_int("WEBHOOK_RATE_PER_SECOND", cls.webhook_rate_per_second),
            webhook_claim_seconds=_float("WEBHOOK_CLAIM_SECONDS", cls.webhook_claim_seconds),
            webhook_log_size=_int("WEBHOOK_LOG_SIZE", cls.webhook_log_size),
            webhooks_per_game=_int("WEBHOOKS_PER_GAME", cls.webhooks_per_game),
        )

    def __post_init__(self) -> None:
        if self.open_game_ttl < 1:
            raise SystemExit("OPEN_GAME_TTL_SECONDS must be at least 1")
        if self.abandon_after < 0:
            raise SystemExit("ABANDON_AFTER_SECONDS must not be negative (0: never)")
        if self.rematch_hold_seconds < 0:
            raise SystemExit("REMATCH_HOLD_SECONDS must not be negative")
        if self.stream_ticket_seconds < 1:
            raise SystemExit("STREAM_TICKET_SECONDS must be at least 1")
        if not 0 <= self.spectator_streams_share <= 1:
            raise SystemExit("SPECTATOR_STREAMS_SHARE must be from 0 to 1")
        if not 0 <= self.late_move_seconds <= 60:
            raise SystemExit("LATE_MOVE_SECONDS must be from 0 to 60")
        if not 0 <= self.log_batch_seconds <= 60:
            raise SystemExit("LOG_BATCH_SECONDS must be from 0 to 60")
        if self.vapid_private_key_file and not self.vapid_subject.startswith(("mailto:",
                                                                               "https://")):
            raise SystemExit("VAPID_SUBJECT must be a mailto: or https: contact when "
                             "VAPID_PRIVATE_KEY_FILE is set (push services ask for one)")
        if not 0 < self.push_timeout <= 60:
            raise SystemExit("PUSH_TIMEOUT_SECONDS must be above 0 and at most 60")
        if self.push_deadline_near_seconds < 1:
            raise SystemExit("PUSH_DEADLINE_NEAR_SECONDS must be at least 1")
        try:
            schedule = self.retry_schedule
        except ValueError:
            raise SystemExit("WEBHOOK_RETRY_SCHEDULE must be seconds, comma-separated, not "
                             f"{self.webhook_retry_schedule!r}") from None
        if not schedule or any(s < 0 for s in schedule):
            raise SystemExit("WEBHOOK_RETRY_SCHEDULE needs at least one delay, none negative")
        if self.webhook_rate_per_second < 1 or self.webhook_log_size < 1:
            raise SystemExit("WEBHOOK_RATE_PER_SECOND and WEBHOOK_LOG_SIZE must be at least 1")
        if not 0 < self.webhook_connect_timeout <= 60 or not 0 < self.webhook_read_timeout <= 60:
            raise SystemExit("WEBHOOK_CONNECT_TIMEOUT and WEBHOOK_READ_TIMEOUT must be from 0 "
                             "to 60 seconds")
        if self.webhook_claim_seconds <= self.webhook_connect_timeout + self.webhook_read_timeout:
            raise SystemExit("WEBHOOK_CLAIM_SECONDS must be longer than WEBHOOK_CONNECT_TIMEOUT "
                             "and WEBHOOK_READ_TIMEOUT together (a delivery may take that long; "
                             "a shorter claim hands a sender's entry to another mid-delivery)")
        if not 0 <= self.metrics_port <= 65535:
            raise SystemExit("METRICS_PORT must be a port number (0: /metrics on the API's port)")

    @property
    def retry_schedule(self) -> tuple[float, ...]:
        """The webhook retry delays, seconds (``WEBHOOK_RETRY_SCHEDULE``)."""
        return tuple(float(p) for p in self.webhook_retry_schedule.split(",") if p.strip())

    @property
    def http_hosts(self) -> frozenset[str]:
        """The hosts a webhook may reach over plain http (``WEBHOOK_ALLOW_HTTP_HOSTS``)."""
        return frozenset(h.strip().lower() for h in self.webhook_allow_http_hosts.split(",")
                         if h.strip())

    def with_overrides(self, overrides: dict[str, Any] | None) -> "Config":
        if not overrides:
            return self
        known = {f.name for f in fields(self)}
        unknown = set(overrides) - known
        if unknown:
            raise ValueError(f"unknown settings: {sorted(unknown)}")
        return replace(self, **overrides)
