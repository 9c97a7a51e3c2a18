"""A bot written only against the client that openapi-python-client generates from openapi.yaml.

    python tests/foreign/python_bot.py BASE_URL [CLIENT_DIR]

becomes a player (``POST /v1/players``), then plays one game of each ruleset to the end as that
player (Turandot for 4, Word Jam for its minimum of 5, Muzicando for 4): it creates the game with
the player's credential (the game is the player's), fills every seat but one with the engine's
bots (the host token adds them), takes the last seat itself with the player's credential (the
seat is the player's), and moves with the seat's token until the game is over, choosing each
move from ``GET /v1/games/{id}/actions``: a move built from the action space where it knows how
(naming a seat, firing a director, choosing a layout, placing a card, letting a word stand),
else the engine's ``default``. Then it reads the score and prints one line per game; at the
end the player's finished games (``GET /v1/me/games``), its profile (``GET
/v1/players/{id}``) and each ruleset's leaderboard, a line each. ``CLIENT_DIR`` is where the
generated package ``impresario_client`` is (tests/foreign/test_python_client_bot.py generates
it into the build folder).

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
from impresario_client.api.players import (  # noqa: E402
    create_player, get_leaderboard, get_me, get_player, list_my_games)
from impresario_client.models import (  # noqa: E402
    Actions, ChooseLayoutMove, ChooseLayoutMoveLayout, ChooseLayoutMoveType, ChooseLayoutSpace,
    CreatedGame, CreateMuzicandoGame, CreateMuzicandoGameRuleset, CreateTurandotGame,
    CreateTurandotGameRuleset, CreateWordJamGame, CreateWordJamGameRuleset, FireDirectorMove,
    FireDirectorMoveDirector, FireDirectorMoveType, FireDirectorSpace, GetLeaderboardRuleset,
    Join, JoinBotType0, Joined, Leaderboard, ListMyGamesStatus, Me, MoveResult,
    MuzicandoGameStatus, MuzicandoOptions, MyGame, MyGames, NewPlayer, NominateMove,
    NominateMoveType, NominateSpace, PlaceMove, PlaceMoveCard, PlaceMoveType, PlaceSpace,
    PlayerCredential, Problem, Profile, TurandotGameStatus, TurandotOptions,
    WordJamGameStatus, WordJamNoChallengeMove, WordJamNoChallengeMoveType,
    WordJamNoChallengeSpace, WordJamOptions)
from impresario_client.types import UNSET, Response, Unset  # noqa: E402

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


def play(base_url: str, player: AuthenticatedClient,
         body: CreateTurandotGame | CreateWordJamGame | CreateMuzicandoGame,
         bot: JoinBotType0) -> Played:
    # created with the player's credential: the game is the player's
    created: CreatedGame = ok(create_game.sync_detailed(client=player, body=body))
    game_id = created.game.id
    host = AuthenticatedClient(base_url=base_url, token=created.host_token,
                               raise_on_unexpected_status=True)
    # errors are problem JSON whose ``code`` is stable: a program branches on it, not the text
    missing = get_game.sync_detailed("no-such-game", client=host).parsed
    if not isinstance(missing, Problem) or missing.code != "game_not_found":
        raise Unexpected(f"a game that does not exist: {missing!r}")
    for n in range(body.players - 1):
        ok(join_game.sync_detailed(game_id, client=host, body=Join(name=f"Bot {n + 1}", bot=bot)))
    # the last seat, taken with the player's credential: the seat is the player's
    joined: Joined = ok(join_game.sync_detailed(game_id, client=player,
                                                body=Join(name="Pythonista")))
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


def become_player(base_url: str, name: str) -> tuple[PlayerCredential, AuthenticatedClient]:
    """A new anonymous player, and a client that acts as it (its credential as the bearer)."""
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    made: PlayerCredential = ok(create_player.sync_detailed(client=anonymous,
                                                            body=NewPlayer(name=name)))
    player = AuthenticatedClient(base_url=base_url, token=made.token,
                                 raise_on_unexpected_status=True)
    me: Me = ok(get_me.sync_detailed(client=player))
    if me.player.id != made.player.id:
        raise Unexpected(f"GET /v1/me is {me.player.id}, not the player made, {made.player.id}")
    return made, player


def finished_games(player: AuthenticatedClient) -> list[MyGame]:
    """The player's finished games, every page of ``GET /v1/me/games?status=finished``."""
    games: list[MyGame] = []
    cursor: str | Unset = UNSET
    for _ in range(100):
        page: MyGames = ok(list_my_games.sync_detailed(client=player, limit=2, cursor=cursor,
                                                       status=ListMyGamesStatus.FINISHED))
        games += page.games
        if page.next_ is None:
            return games
        # the next page's link carries its cursor: the operation takes it as a parameter
        query = (pair.partition("=") for pair in page.next_.partition("?")[2].split("&"))
        cursor = next(value for key, _eq, value in query if key == "cursor")
    raise Unexpected("GET /v1/me/games never ended its pages")


def report_player(base_url: str, made: PlayerCredential, player: AuthenticatedClient,
                  played: list[Played]) -> None:
    """The player's games, profile and leaderboard places, a line each."""
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    mine = {game.id: game for game in finished_games(player)}
    for game in played:
        listed = mine.get(game.game_id)
        if listed is None:
            raise Unexpected(f"{game.game_id} is not among the player's finished games")
        print(f"mine {listed.ruleset} {listed.id}: {listed.status}, seat {listed.seat}, "
              f"host {listed.host}, rated {listed.rated}, won {listed.won}", flush=True)
    profile: Profile = ok(get_player.sync_detailed(made.player.id, client=anonymous))
    ratings = ", ".join(f"{r.ruleset} {r.rating:.3f} ({r.games})" for r in profile.ratings)
    recent = ", ".join(f"{r.ruleset} {r.game} rank {r.rank}" for r in profile.recent)
    print(f"profile {profile.player.id} {profile.player.name}: {profile.games} rated games; "
          f"ratings [{ratings}]; recent [{recent}]", flush=True)
    for ruleset in GetLeaderboardRuleset:
        board: Leaderboard = ok(get_leaderboard.sync_detailed(ruleset, client=anonymous,
                                                              limit=100))
        place = next((row.place for row in board.players if row.player.id == made.player.id),
                     None)
        print(f"board {board.ruleset}: place {place} of {board.total} "
              f"(min {board.min_games} rated games)", flush=True)


def main(base_url: str) -> int:
    made, player = become_player(base_url, "Pythonista")
    turandot = CreateTurandotGame(ruleset=CreateTurandotGameRuleset.TURANDOT, players=4, seed=11,
                                  options=TurandotOptions(bot_seconds=0))
    # Word Jam's windows at their shortest: a window nobody acts in lapses after a second
    wordjam = CreateWordJamGame(ruleset=CreateWordJamGameRuleset.WORDJAM, players=5, seed=12,
                                options=WordJamOptions(bot_seconds=0, think_seconds=1,
                                                       bet_seconds=1, thief_seconds=1,
                                                       challenge_seconds=1, vote_seconds=1))
    muzicando = CreateMuzicandoGame(ruleset=CreateMuzicandoGameRuleset.MUZICANDO, players=4,
                                    seed=13, options=MuzicandoOptions(bot_seconds=0, auction=True))
    played = []
    for game in (play(base_url, player, turandot, JoinBotType0.GREEDY),
                 play(base_url, player, wordjam, JoinBotType0.WORDSMITH),
                 play(base_url, player, muzicando, JoinBotType0.GREEDY)):
        print(f"finished {game.ruleset} {game.game_id}: {game.moves} moves "
              f"({game.built} built from action spaces), refusals {game.refusals}, "
              f"winners {game.winners}, totals {game.totals}", flush=True)
        played.append(game)
    report_player(base_url, made, player, played)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
