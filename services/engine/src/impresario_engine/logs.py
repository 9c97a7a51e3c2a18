"""The engine's logs: one JSON object per line on stderr (``ts``, ``level``, ``logger``,
``msg``, then the record's ``extra`` fields), for every process of the engine: gunicorn's
workers (:mod:`.app`) and the loops (``python -m impresario_engine reap``)."""

from __future__ import annotations

import json
import logging
import sys


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any ``extra`` fields."""

    RESERVED = set(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        line = getattr(record, "json_line", None)
        if line is not None:  # the per-request line, encoded once by its author
            return line
        out = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self.RESERVED and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure_logging(level: str = "INFO") -> None:
    """JSON logs on stderr for the engine's loggers (once per process)."""
    root = logging.getLogger("impresario_engine")
    if any(getattr(h, "_impresario", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    handler._impresario = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level.upper())
    root.propagate = False
    # From the logging HOWTO's "Optimization" switches, only the caller lookup (a stack walk per
    # record): no line of ours or gunicorn's shows the caller's file and line. The thread and
    # process switches stay on: gunicorn's own format prints "[%(process)d]".
    logging._srcfile = None  # type: ignore[attr-defined]
