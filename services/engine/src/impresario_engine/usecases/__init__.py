"""The use cases of the engine: one module each, each a unit of work over one game (load it,
decide with the rules and the table, save it with one atomic write; ``unit``).

``create`` a game; take and leave ``seats``; ``play`` a move (and what falls due); ``reading``
a game, its actions, events, replay and score; stream ``tickets``; the ``lobby`` (the list of games) and its
``upkeep``; a ``rematch``; the ``reaper``'s passes; ``idempotency`` records of retried requests.
They know nothing of HTTP: they take plain values and raise the table's and the rules' refusals.
"""
