"""A Turandot bot on the SDK's typed models, with state between turns.

It bids for the singer with the most stars on the table (paying one money for a three-star
singer), casts the best arrangement, and plays the engine's default otherwise. Its hooks keep
count of the rounds it has seen and of its wins over every game it plays.

    impresario tournament --bots star_seeker:StarSeeker,medium,medium --in-process --games 50

(run from this folder), or against the engine: `make run`, then `python star_seeker.py`.
`mypy --strict star_seeker.py` passes: a test checks it.
"""

from __future__ import annotations

import os

from impresario import Client, Event, GreedyBot, TurandotBase, models, play_game


class StarSeeker(TurandotBase):
    name = "stars"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # a tournament passes each game's seed; this bot needs no randomness
        self.rounds = 0
        self.games = 0
        self.wins = 0

    def on_start(self, view: models.TurandotGame) -> None:
        self.rounds = 0

    def on_event(self, event: Event) -> None:
        if event.data["type"] == "round_started":
            self.rounds = event.data["round"]

    def on_end(self, view: models.TurandotGame, score: models.Score) -> None:
        self.games += 1
        you = view.get("you")
        if you is not None and you["seat"] in score["winners"]:
            self.wins += 1

    def choose(self, view: models.TurandotGame, actions: models.Actions) -> models.TurandotMove:
        for space in actions["moves"]:
            if space["type"] == "bid":
                stars = {place["slot"]: stars_of(place["card"]) for place in view["table"]
                         if place["card"] is not None and place["slot"] in space["slots"]}
                if stars:
                    slot = max(stars, key=lambda s: stars[s])
                    money = 1 if stars[slot] == 3 and space["max_money"] >= 1 else 0
                    return {"type": "bid", "slot": slot, "money": money,
                            "bluff": space["bluff"], "round": self.rounds or view["round"]}
            if space["type"] == "cast":
                return {"type": "cast", "roles": space["optimal"]}
        return self.default(actions)  # office hires, nominations, firing: the engine's choice


def stars_of(card: models.Card) -> int:
    """A singer's stars; a director counts as two."""
    return card["stars"] if card["kind"] == "singer" else 2


if __name__ == "__main__":
    client = Client(os.environ.get("IMPRESARIO_URL", "http://127.0.0.1:8000"))
    me = StarSeeker()
    game_id, score, _ = play_game(client, [me, GreedyBot(seed=1), GreedyBot(seed=2)], seed=7)
    print(game_id, "winners:", score["winners"], "rounds seen:", me.rounds, "won:", me.wins)
