"""Impresario: a game engine for card games played with secret bids."""

__version__ = "0.1.0"
