"""A typed iterator over a game's event feed, streamed as server-sent events, that reconnects
with ``Last-Event-ID`` when the connection drops or the server ends the stream."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

import requests

from ._generated import models
from ._generated.operations import as_event, get_game
from .errors import APIConnectionError, error_for, parse_retry_after


class Client(Protocol):
    """What the stream needs of a :class:`impresario.client.Client`: its address, token,
    session and timeout, and its requests (for the view that tells a finished game)."""

    base_url: str
    token: str | None
    session: requests.Session
    timeout: float

    def request(self, method: str, path: str, *, json: object = None,
                params: Mapping[str, str | int] | None = None,
                headers: Mapping[str, str] | None = None,
                token: str | None = None, raw: bool = False) -> object: ...

    def wait_for(self, attempt: int, retry_after: float | None) -> float: ...


FINAL = "game_finished"


@dataclass(frozen=True)
class Event:
    """One event of a game as the caller may see it: its sequence number, its type and the rest
    of its fields (``data`` holds the whole event, ``seq`` and ``type`` included, typed as the
    spec's :data:`models.Event <impresario.models.Event>` union: a check of
    ``event.data["type"]`` narrows it to one event's model)."""

    seq: int
    type: str
    data: models.Event = field(repr=False)

    def __getitem__(self, key: str) -> Any:
        fields: Mapping[str, Any] = self.data
        return fields[key]

    def get(self, key: str, default: Any = None) -> Any:
        fields: Mapping[str, Any] = self.data
        return fields.get(key, default)


def parse_sse(lines: Iterator[str]) -> Iterator[tuple[str | None, str | None, str, int | None]]:
    """(id, event, data, retry) for each event in a text/event-stream (comments skipped)."""
    eid = etype = None
    data: list[str] = []
    retry = None
    for raw in lines:
        line = raw.rstrip("\r")
        if line == "":
            if data:
                yield eid, etype, "\n".join(data), retry
            eid, etype, data, retry = None, None, [], None
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            eid = value
        elif name == "event":
            etype = value
        elif name == "data":
            data.append(value)
        elif name == "retry" and value.isdigit():
            retry = int(value)


def stream_events(client: "Client", game_id: str, token: str | None = None, after: int = 0,
                  spectator: str | None = None, max_reconnects: int = 100,
                  read_timeout: float = 60.0, seat: int | None = None) -> Iterator[Event]:
    """Yield every event after ``after`` as it happens, until the game is finished, or, for the
    stream of ``seat`` (its token's), until that seat's own ``seat_left``: the server ends a
    seat's stream there and the token opens no other.

    Reconnects (with ``Last-Event-ID``) when the server closes the stream or the connection
    drops, waiting the delay the server suggested; gives up after ``max_reconnects`` failed
    attempts in a row. A ``204 No Content`` is the end: the game is over and every event was
    seen."""
    url = f"{client.base_url}/v1/games/{game_id}/events"
    last = after
    delay = 1.0
    failures = 0
    while True:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
        bearer = token or client.token
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        params = {"spectator": spectator} if spectator else None
        try:
            with client.session.get(url, headers=headers, params=params, stream=True,
                                    timeout=(client.timeout, read_timeout)) as resp:
                if resp.status_code == 204:  # the game is over and nothing is left to send
                    return
                if resp.status_code >= 400:
                    if resp.status_code in (429, 503) and failures < max_reconnects:
                        # the client's own policy: Retry-After, capped by its max_backoff
                        time.sleep(client.wait_for(failures, parse_retry_after(
                            resp.headers.get("Retry-After"))))
                        failures += 1
                        continue
                    try:
                        body = resp.json()
                    except ValueError:
                        body = resp.text
                    raise error_for(resp.status_code, body, dict(resp.headers))
                failures = 0
                got = 0
                lines = resp.iter_lines(decode_unicode=True)
                for eid, etype, data, retry in parse_sse(lines):
                    if retry is not None:
                        delay = retry / 1000
                    if eid is None:
                        continue
                    event = as_event(json.loads(data))
                    last = int(eid)
                    got += 1
                    yield Event(last, etype or event["type"], event)
                    if event["type"] == FINAL:
                        return
                    if seat is not None and event["type"] == "seat_left" \
                            and event["seat"] == seat:
                        return
            if not got:
                # the server closed a stream with nothing new: over, if the game is
                view = get_game(client, game_id, spectator=spectator or None, token=bearer)
                if view["status"] == "finished" and last >= view["last_seq"]:
                    return
        except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as exc:
            failures += 1
            if failures > max_reconnects:
                raise APIConnectionError(f"lost the event stream of {game_id}: {exc}") from exc
        time.sleep(delay)
