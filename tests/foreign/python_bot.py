"""A bot written only against the client that openapi-python-client generates from openapi.yaml.

    python tests/foreign/python_bot.py BASE_URL [CLIENT_DIR]

plays one game of each ruleset to the end (Turandot for 4, Word Jam for its minimum of 5,
Muzicando for 4): it creates the game, fills every seat but one with the engine's bots (the host
token adds them), takes the last seat itself with the host token, and moves until the game is
over, choosing each move from ``GET /v1/games/{id}/actions``: a move built from the action
space where it knows how (naming a seat, firing a director, choosing a layout, placing a card,
letting a word stand), else the engine's ``default``. Then it reads the score and prints one
line per game. ``CLIENT_DIR`` is where the generated package ``impresario_client`` is
(tests/foreign/test_python_client_bot.py generates it into the build folder).

Everything it sends and reads is a generated model: no dictionaries of API data, no casts.
``mypy --strict`` checks it against the generated package.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import TypeVar

if len(sys.argv) > 2:
    sys.path.insert(0, sys.argv[2])

from impresario_client import AuthenticatedClient, Client  # noqa: E402
from impresario_client.api.games import (  # noqa: E402
    create_game, get_actions, get_game, get_score, join_game, make_move, resolve_game)
from impresario_client.models import (  # noqa: E402
    Actions, ChooseLayoutMove, ChooseLayoutMoveLayout, ChooseLayoutMoveType, ChooseLayoutSpace,
    CreatedGame, CreateMuzicandoGame, CreateMuzicandoGameRuleset, CreateTurandotGame,
    CreateTurandotGameRuleset, CreateWordJamGame, CreateWordJamGameRuleset, FireDirectorMove,
    FireDirectorMoveDirector, FireDirectorMoveType, FireDirectorSpace, Join, JoinBotType0, Joined,
    MoveResult, MuzicandoGameStatus, MuzicandoOptions, NominateMove,
    NominateMoveType, NominateSpace, PlaceMove, PlaceMoveCard, PlaceMoveType, PlaceSpace, Problem,
    TurandotGameStatus, TurandotOptions,
    WordJamGameStatus, WordJamNoChallengeMove, WordJamNoChallengeMoveType,
    WordJamNoChallengeSpace, WordJamOptions)
from impresario_client.types import Response, Unset  # noqa: E402

T = TypeVar("T")

FINISHED = (TurandotGameStatus.FINISHED, WordJamGameStatus.FINISHED, MuzicandoGameStatus.FINISHED)
#: a game of any ruleset ends well within this many requests of the bot
MAX_REQUESTS = 3000


class Refused(Exception):
    """The engine answered with problem JSON: its stable ``code`` says why."""

    def __init__(self, status: int, problem: Problem) -> None:
        super().__init__(f"{status} {problem.code}: {problem.detail}")
        self.status = status
        self.code = problem.code


class Unexpected(Exception):
    """An answer the generated client could not read as any of the operation's documented ones."""


def ok(response: Response[T | Problem]) -> T:
    """The parsed body of a success, or ``Refused`` with the problem's code."""
    parsed = response.parsed
    if isinstance(parsed, Problem):
        raise Refused(int(response.status_code), parsed)
    if parsed is None:
        raise Unexpected(f"{int(response.status_code)}: an answer the operation does not document")
    return parsed


@dataclass
class Played:
    ruleset: str
    game_id: str
    moves: int
    built: int
    refusals: list[str]
    winners: list[int]
    totals: list[int]


def built_move(actions: Actions) -> (NominateMove | FireDirectorMove | ChooseLayoutMove
                                     | PlaceMove | WordJamNoChallengeMove | None):
    """A legal move made from the first action space this bot knows how to fill in."""
    for space in actions.moves:
        if isinstance(space, NominateSpace) and space.seats:
            return NominateMove(type_=NominateMoveType.NOMINATE, seat=space.seats[0])
        if isinstance(space, FireDirectorSpace) and space.directors:
            return FireDirectorMove(type_=FireDirectorMoveType.FIRE_DIRECTOR,
                                    director=FireDirectorMoveDirector(space.directors[-1].value))
        if isinstance(space, ChooseLayoutSpace) and space.layouts:
            return ChooseLayoutMove(type_=ChooseLayoutMoveType.CHOOSE_LAYOUT,
                                    layout=ChooseLayoutMoveLayout(space.layouts[0].value))
        if isinstance(space, PlaceSpace):
            for option in space.cards:
                for cell in option.cells:
                    return PlaceMove(type_=PlaceMoveType.PLACE, card=PlaceMoveCard(option.card.value),
                                     x=cell.x, y=cell.y)
        if isinstance(space, WordJamNoChallengeSpace):
            return WordJamNoChallengeMove(type_=WordJamNoChallengeMoveType.NO_CHALLENGE,
                                          word_id=space.word_id)
    return None


def play(base_url: str, body: CreateTurandotGame | CreateWordJamGame | CreateMuzicandoGame,
         bot: JoinBotType0) -> Played:
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    created: CreatedGame = ok(create_game.sync_detailed(client=anonymous, body=body))
    game_id = created.game.id
    host = AuthenticatedClient(base_url=base_url, token=created.host_token,
                               raise_on_unexpected_status=True)
    # errors are problem JSON whose ``code`` is stable: a program branches on it, not the text
    missing = get_game.sync_detailed("no-such-game", client=host).parsed
    if not isinstance(missing, Problem) or missing.code != "game_not_found":
        raise Unexpected(f"a game that does not exist: {missing!r}")
    for n in range(body.players - 1):
        ok(join_game.sync_detailed(game_id, client=host, body=Join(name=f"Bot {n + 1}", bot=bot)))
    joined: Joined = ok(join_game.sync_detailed(game_id, client=host, body=Join(name="Pythonista")))
    if joined.token is None:
        raise Unexpected("a player's seat came without a token")
    me = AuthenticatedClient(base_url=base_url, token=joined.token,
                             raise_on_unexpected_status=True)
    moves = built = 0
    refusals: list[str] = []
    game = joined.game
    for _ in range(MAX_REQUESTS):
        if game.status in FINISHED:
            break
        actions: Actions = ok(get_actions.sync_detailed(game_id, client=me))
        move = built_move(actions)
        default = None if isinstance(actions.default, Unset) else actions.default
        if move is not None:
            built += 1
            sent = make_move.sync_detailed(game_id, client=me, body=move)
        elif default is not None:
            sent = make_move.sync_detailed(game_id, client=me, body=default)
        else:
            # nothing to do now: others think (Word Jam's bots), or a window must lapse
            ok(resolve_game.sync_detailed(game_id, client=me))
            game = ok(get_game.sync_detailed(game_id, client=me))
            time.sleep(0.05)
            continue
        try:
            result: MoveResult = ok(sent)
            game = result.game
            moves += 1
        except Refused as refused:
            # a bot moved first or a window closed between reading and moving: read again
            if refused.status not in (409, 412):
                raise
            refusals.append(str(refused.code))
            game = ok(get_game.sync_detailed(game_id, client=me))
    else:
        raise Unexpected(f"{game_id} not finished after {MAX_REQUESTS} rounds of requests")
    score = get_score.sync_detailed(game_id, client=me).parsed
    if score is None or isinstance(score, Problem):
        raise Unexpected(f"{game_id}: no score: {score!r}")
    totals = [player.total for player in score.players]
    return Played(game_id=game_id, ruleset=str(body.ruleset), moves=moves, built=built,
                  refusals=refusals, winners=list(score.winners), totals=totals)


def main(base_url: str) -> int:
    turandot = CreateTurandotGame(ruleset=CreateTurandotGameRuleset.TURANDOT, players=4, seed=11,
                                  options=TurandotOptions(bot_seconds=0))
    # Word Jam's windows at their shortest: a window nobody acts in lapses after a second
    wordjam = CreateWordJamGame(ruleset=CreateWordJamGameRuleset.WORDJAM, players=5, seed=12,
                                options=WordJamOptions(bot_seconds=0, think_seconds=1,
                                                       bet_seconds=1, thief_seconds=1,
                                                       challenge_seconds=1, vote_seconds=1))
    muzicando = CreateMuzicandoGame(ruleset=CreateMuzicandoGameRuleset.MUZICANDO, players=4,
                                    seed=13, options=MuzicandoOptions(bot_seconds=0, auction=True))
    for played in (play(base_url, turandot, JoinBotType0.GREEDY),
                   play(base_url, wordjam, JoinBotType0.WORDSMITH),
                   play(base_url, muzicando, JoinBotType0.GREEDY)):
        print(f"finished {played.ruleset} {played.game_id}: {played.moves} moves "
              f"({played.built} built from action spaces), refusals {played.refusals}, "
              f"winners {played.winners}, totals {played.totals}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
