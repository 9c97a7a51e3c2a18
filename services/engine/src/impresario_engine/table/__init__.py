"""The table: what the engine keeps around the rules for each game, with no Redis and no HTTP.

Who sits where and with which credential (``access``, ``seating``, ``names``), when a seat's
time runs out and when a bot moves (``clock``), the record of moves and the moves the engine
makes for its seats (``record``), what a caller sees of the game (``views``), what the list of
games shows (``listing``), and what the engine refuses (``errors``). A function here takes a
game's document and returns a new one; the use cases load and save it.
"""
