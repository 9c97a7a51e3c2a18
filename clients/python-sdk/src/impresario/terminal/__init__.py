"""The terminal client behind ``impresario play`` and ``impresario watch``: one screen per
ruleset (what the table shows, how each move is asked) and the loops that drive them."""

from .console import Console, EndOfInput, ScriptedConsole
from .session import DEFAULT_BOTS, ENGINE_BOTS, SCREENS, play, play_seat, watch

__all__ = ["Console", "EndOfInput", "ScriptedConsole", "DEFAULT_BOTS", "ENGINE_BOTS", "SCREENS",
           "play", "play_seat", "watch"]
