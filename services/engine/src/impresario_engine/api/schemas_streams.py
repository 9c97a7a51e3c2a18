"""Schemas of the event streams: the query of ``GET /events`` (a stream ticket beside
``after`` and ``spectator``) and a stream ticket."""

from __future__ import annotations

from marshmallow import fields, validate

from .declared import Base, Int
from .schemas import EventsQuerySchema


TICKET_DESCRIPTION = ("a stream ticket (`POST /v1/games/{game_id}/stream-tickets`): opens this "
                      "event stream once, as the token that asked for it, with `Accept: "
                      "text/event-stream` only (401 `invalid_ticket` otherwise). For a "
                      "browser's `EventSource`, which cannot send an Authorization header")
#: the documented query parameter (the operation lists its parameters itself)
TICKET_PARAM = {"in": "query", "name": "ticket", "required": False,
                "schema": {"type": "string", "minLength": 1, "maxLength": 256},
                "description": TICKET_DESCRIPTION}


class StreamEventsQuerySchema(EventsQuerySchema):
    ticket = fields.String(validate=validate.Length(1, 256),
                           metadata={"description": TICKET_DESCRIPTION})


class StreamTicketSchema(Base):
    ticket = fields.String(required=True, metadata={
        "description": "opens one event stream of this game, once, as the token that asked "
                       "for it"})
    expires_at = Int(required=True, metadata={
        "description": "Unix time (seconds) from which the ticket opens nothing; "
                       "`STREAM_TICKET_SECONDS` (60) after it was issued"})
    url = fields.String(required=True, metadata={
        "description": "the stream's URL with the ticket, for `new EventSource(url)` (add "
                       "`&after=<seq>` to resume after an event the page already has)"})
