"""The impresario command as a player meets it: each ruleset played to the end through the CLI
with scripted standard input, Word Jam's windows under a pseudo-terminal, watch for every
ruleset, and the ways a session can end badly (no engine, an unknown bot, end of input, Ctrl-C);
the player the command keeps (its credential file), its games listed and resumed on another
device, the leaderboard. Every game is played against the real service (live_server, or the
engine served with a setting of its own, serve_app)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from impresario import Client, Unauthorized
from impresario.player_file import default_path

CLI = [sys.executable, "-m", "impresario.cli"]
#: the CLI speaks English here whatever this machine's locale (the languages have their own test)
ENGLISH = {"LANGUAGE": "en"}


def run_cli(*argv: str, stdin: str = "", env: dict[str, str] | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *argv], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **ENGLISH, **(env or {})})


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(autouse=True)
def player_file(tmp_path_factory, monkeypatch) -> Path:
    """The player file of every command a test runs (``impresario play`` makes a player on
    first use): a test's own, never the developer's. Its folder's name is no English word
    (the tests in other languages look for English on the screen, the file's path included)."""
    path = tmp_path_factory.mktemp("cfg") / "p.json"
    monkeypatch.setenv("IMPRESARIO_PLAYER_FILE", str(path))
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# ------------------------------------------------------------------------ play, each ruleset
def test_turandot_played_through_the_cli(live_server, player_file):
    """A bid that does not fit its prompt gets the form expected, without the table again; typed bids, then Enter (the default)
    at every prompt, to the final score. --url comes after the command. The game is the
    player's the command made on first use (its credential in a file of mode 0600): `impresario
    games` lists it, finished."""
    script = "9 1\n2 1 b\n" + "\n" * 400
    assert not player_file.exists()
    done = run_cli("play", "turandot", "--url", live_server, "--seed", "5", "--pace", "none",
                   stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"You are now the player Player on {live_server}; your credential is kept in " \
           f"{player_file}, readable by you only." in out
    assert mode(player_file) == 0o600
    token = json.loads(player_file.read_text())["engines"][live_server]["token"]
    assert token.startswith("p_") and token not in out + done.stderr
    game_id = re.search(r"Game (\S+) \(turandot\)", out).group(1)
    listed = run_cli("games", "--url", live_server)
    assert listed.returncode == 0, listed.stderr
    head, row = listed.stdout.splitlines()[:2]
    assert head.split() == ["GAME", "RULESET", "STATUS", "SEAT", "SEATS", "YOUR", "MOVE",
                            "DEADLINE", "RESULT", "CHANGED"]
    assert row.startswith(game_id) and row.split()[1:6] == ["turandot", "finished", "0",
                                                            "4/4", "—"]
    assert row.split()[7] in ("won", "lost")
    assert "Traceback" not in done.stderr
    assert out.count("How to bid") == 1                       # explained once
    # slot 9 of 5 does not fit the prompt: not sent, the form expected is said, then asked again
    hint = "type the slot number (1, 2, 3, 4, 5), then the money, 0 to 3: e.g. '1 1'"
    assert hint in out and "refused:" not in out
    after_refusal = out.split(hint, 1)[1].split("Your bid", 1)[0]
    assert "=== Round" not in after_refusal                   # no reprint after a refusal
    # singers shown as on the table: category, sex, stars (and a favourite role somewhere)
    assert re.search(r"S\d\d (professional|amateur|alternative|classic|comic|dark) "
                     r"(male|female|undefined) ★+", out)
    assert "loves " in out
    assert "bids revealed → you: slot 2 + 1 money (bluff)" in out
    assert "Final score:" in out and "Winners:" in out and "cast:" in out


# ------------------------------------------------------------------------ the player
def test_the_player_file_is_found_where_the_help_says():
    assert default_path({"IMPRESARIO_PLAYER_FILE": "/x/p.json", "XDG_CONFIG_HOME": "/c"}) == \
        Path("/x/p.json")
    assert default_path({"XDG_CONFIG_HOME": "/c"}) == Path("/c/impresario/player.json")
    for relative_or_unset in ({"XDG_CONFIG_HOME": "c"}, {}):
        assert default_path(relative_or_unset) == \
            Path.home() / ".config" / "impresario" / "player.json"


def test_a_player_moves_to_another_device_and_resumes_a_game_there(serve_app, tmp_path):
    """`impresario player` makes the player (file 0600 in a folder 0700) and prints a device
    code; `impresario claim` on the other device takes it once; there `impresario games` shows
    the game waiting for the player's move, `--resume` plays it to the end (the seat's old
    token ends), and the leaderboard marks the player."""
    url = serve_app(leaderboard_min_games=1)
    laptop_file, phone_file = tmp_path / "laptop" / "p.json", tmp_path / "phone.json"
    laptop, phone = ({"IMPRESARIO_PLAYER_FILE": str(f)} for f in (laptop_file, phone_file))

    none = run_cli("games", "--url", url, env=phone)
    assert none.returncode == 1 and "'impresario player' makes one here" in none.stderr
    assert not phone_file.exists()

    made = run_cli("player", "--name", "Anna", "--url", url, env=laptop)
    assert made.returncode == 0, made.stderr
    assert "You are now the player Anna" in made.stdout and f"on {url}." in made.stdout
    assert mode(laptop_file) == 0o600 and mode(laptop_file.parent) == 0o700
    token = json.loads(laptop_file.read_text())["engines"][url]["token"]
    assert token not in made.stdout + made.stderr

    anna = Client(url).player(token)            # a game of Anna's, waiting for her move
    game = anna.create_game("turandot", players=2, seed=5)
    first = game.join("Anna")
    game.add_bot("Robo", "easy")

    coded = run_cli("player", "--device-code", "--url", url, env=laptop)
    code = re.search(r"impresario claim (\S+) --url " + re.escape(url), coded.stdout).group(1)
    claimed = run_cli("claim", code, "--url", url, env=phone)
    assert claimed.returncode == 0, claimed.stderr
    assert "This device is now Anna" in claimed.stdout and mode(phone_file) == 0o600
    again = run_cli("claim", code, "--url", url, env=phone)
    assert again.returncode == 2 and "--replace" in again.stderr   # it is a player already
    used = run_cli("claim", code, "--replace", "--url", url, env=phone)
    assert used.returncode == 1 and "invalid_device_code" in used.stderr

    listed = run_cli("games", "--url", url, env=phone)
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if line.startswith(game.id))
    assert row.split()[1:7] == ["turandot", "playing", "0", "2/2", "→", "yes"]
    assert "Your move in 1 game: 'impresario games --resume GAME' plays it here." in listed.stdout

    played = run_cli("games", f"--resume={game.id}", "--url", url, env=phone,
                     stdin="\n" * 400)
    assert played.returncode == 0, played.stderr
    assert f"Game {game.id} (turandot): you are seat 0 again, here" in played.stdout
    assert "Final score:" in played.stdout
    with pytest.raises(Unauthorized):
        first.view()                            # the laptop's seat token ended
    over = run_cli("games", f"--resume={game.id}", "--url", url, env=laptop)
    assert over.returncode == 0 and f"Game {game.id} is over" in over.stdout

    finished = run_cli("games", "--status", "finished", "--url", url, env=laptop)
    row = next(line for line in finished.stdout.splitlines() if line.startswith(game.id))
    assert row.split()[2] == "finished" and row.split()[7] in ("won", "lost")
    board = run_cli("leaderboard", "turandot", "--url", url, env=phone)
    assert board.returncode == 0, board.stderr
    assert board.stdout.split()[:4] == ["PLACE", "PLAYER", "RATING", "GAMES"]
    assert re.search(r"^\s+[12]  Anna \(you\)\s+-?\d+\.\d\s+1$", board.stdout, re.M)
    assert "2 players on the board." in board.stdout            # Anna and the easy bot


def test_a_credential_the_engine_forgot_is_replaced_and_a_loose_file_tightened(serve_app,
                                                                               player_file):
    url = serve_app()
    player_file.write_text(json.dumps({"engines": {url: {"token": "p_" + "a" * 43,
                                                          "player": None}}}))
    player_file.chmod(0o644)
    listed = run_cli("games", "--url", url)
    assert listed.returncode == 1 and "does not know the player kept in" in listed.stderr
    assert "could be read by others" in listed.stderr and mode(player_file) == 0o600
    made = run_cli("player", "--url", url)
    assert made.returncode == 0, made.stderr
    assert "does not know the player kept in" in made.stdout and "making a new one" in made.stdout
    assert "You are now the player Player" in made.stdout
    board = run_cli("leaderboard", "wordjam", "--url", url)
    assert "Nobody is on the wordjam leaderboard yet: it lists the players with 5 rated " \
           "games or more." in board.stdout


@pytest.mark.deep
def test_word_jam_played_through_the_cli_with_the_default_table(live_server):
    """No --bots: five bots make a legal table. A word typed at the first Open Sesame prompt
    is valued (and called, unless a bot, thinking for up to a second, was first); Enter takes
    the default everywhere else; the screen shows the coins, the forbidden letter, the theme,
    the cave column and the totals. The engine is found through IMPRESARIO_URL."""
    client = Client(live_server)
    term = Terminal("play", "wordjam", "--seed", "3", "--pace", "none", "--option", "bot_seconds=1",
                    env={"IMPRESARIO_URL": live_server})
    try:
        typed = False
        while True:
            # longer than any window (think: 120 s), in case a prompt is missed on screen; a
            # prompt is found wherever it is (news may follow it in the same moment)
            found = term.expect(r"(Final score:)|" + PROMPT + r"[^\n]*\[\d+ s\] ", timeout=180)
            if found.group(1):
                break
            if not typed and found.group(2) == "Open Sesame: type a word":
                term.type("braccio\n")
                typed = True
            else:
                term.type("\n")
        assert term.status() == 0, term.text[-3000:]
    finally:
        term.close()
    out = term.text
    assert "against Ada (medium), Bruno (medium), Carla (medium), Dario (medium), " \
           "Elsa (medium)" in out
    for shown in ("theme: ", "coins: ", "forbidden: ", "cave column 1: red", "totals: "):
        assert shown in out, shown
    assert "Open Sesame: type a word" in out
    assert "BRACCIO:" in out                                   # the typed word, valued
    assert "turn 8 of 8" in out and "Your side" in out           # the final turn's sides
    assert "Final score:" in out and "Winners:" in out
    assert out.count("How a turn goes") == 1
    game_id = re.search(r"Game (\S+) \(wordjam\)", out).group(1)
    assert client.game(game_id).view()["status"] == "finished"


@pytest.mark.parametrize("argv, partner", [
    (["--hands", "4", "--seed", "4"], True),  # a team match is 4 hands at least
    (["--mode", "individual", "--bots", "greedy,random", "--hands", "3", "--seed", "6"], False),
])
def test_muzicando_played_through_the_cli(live_server, argv, partner):
    """The board is drawn as a grid with the chosen card's cells lettered; in the team game the
    screen says who the partner is."""
    script = "p\n" + "\n" * 3200
    done = run_cli("--url", live_server, "play", "muzicando", "--pace", "none", *argv,
                   stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert ("your partner is Bruno (medium bot), seat 2" in out) is partner
    assert re.search(r"^\s+-?\d+\s+(\s+(·|[ROYGBIV][1-7♯♮♭-]|<[a-z]>))+$", out, re.M)  # a row
    assert re.search(r"<[a-z]>", out) or "Where (" not in out
    assert "Final score:" in out and "Winners:" in out
    if partner:
        assert "team 0 (You and Bruno)" in out


# ------------------------------------------------------------------------ a pseudo-terminal
class Terminal:
    """The CLI in a pseudo-terminal: type lines, wait for text, read the screen."""

    def __init__(self, *argv: str, env: dict[str, str] | None = None) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the CLI itself (SIGABRT prints where each thread is)
            # as an interactive shell starts a command: Ctrl-C's SIGINT at its default, even
            # when this suite runs as a background job (which starts with SIGINT ignored, and
            # Python keeps an ignored SIGINT ignored: Ctrl-C would do nothing)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execve(sys.executable, [*CLI, *argv],
                      {**os.environ, **ENGLISH, **(env or {}), "PYTHONFAULTHANDLER": "1"})
        self.screen = ""
        self.seen = 0  # where the next expect starts looking

    @property
    def text(self) -> str:
        """The screen without terminal control sequences (colours, line clearing)."""
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.screen)

    def close(self) -> None:
        """End the CLI if a failed test left it running."""
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)

    def expect(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        """Wait for ``pattern`` on the screen after what the last expect matched."""
        end = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.text, self.seen)
            if found:
                self.seen = found.end()
                return found
            left = end - time.monotonic()
            assert left > 0, f"no {pattern!r} on screen:\n{self.text[self.seen:][-3000:]}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1))
            if ready:
                try:
                    self.screen += os.read(self.fd, 65536).decode("utf-8", "replace")
                except OSError:  # the child ended
                    assert re.compile(pattern).search(self.text, self.seen), self.text[-3000:]

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def status(self, timeout: float = 30) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                self.screen += os.read(self.fd, 65536).decode("utf-8", "replace")
            except OSError:
                pass
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            time.sleep(0.1)
        os.kill(self.pid, signal.SIGABRT)  # faulthandler writes every thread's stack
        time.sleep(1)
        try:
            self.screen += os.read(self.fd, 65536).decode("utf-8", "replace")
        except OSError:
            pass
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("the CLI did not end:\n" + self.text[-6000:])


def test_word_jam_windows_count_down_in_a_terminal_and_ctrl_c_ends_cleanly(live_server):
    """Under a pseudo-terminal: Enter passes the think window and lets a challenge go; the bet's
    window counts down and times out (the engine bets for the player); a typed word is valued
    and called; Ctrl-C leaves with a message. The engine's bots think for up to a second. The
    windows are the options' seconds, not a pace's (--pace none: the relaxed pace's bots call
    12 s into a turn at the soonest, and its think window is another)."""
    term = Terminal("play", "wordjam", "--url", live_server, "--seed", "11", "--pace", "none",
                    "--option", "bot_seconds=1", "--option", "bet_seconds=8",
                    "--option", "challenge_seconds=3", "--option", "vote_seconds=3",
                    "--option", "thief_seconds=3")
    try:
        play_word_jam_in_a_terminal(term)
    finally:
        term.close()


PROMPT = r"(Open Sesame: type a word|Challenge it|Vote:|Your bet|Your side|Your secret word)"


def play_word_jam_in_a_terminal(term: Terminal) -> None:
    # a prompt is found wherever it is on the screen, not only at its end: what happens at the
    # table meanwhile (a bot's bet, "waiting for ...") may be printed right after it, in the
    # same moment, and a prompt that is no longer the last line is still the question asked
    # an Enter typed for a question may arrive after its window closed (a slow machine) and
    # answer the next one: a bet counts as left to time out only when its countdown is seen
    while True:  # Enter at every prompt until a bet is asked and left to run out
        prompt = term.expect(PROMPT + r"[^\n]*\[Enter: [^\]]+\] \[\d+ s\] ").group(1)
        if prompt != "Your bet":
            term.type("\n")
        elif term.expect(r"5 s left|bets revealed").group(0) == "5 s left":
            break
    term.expect(r"time is up")                       # nothing typed: the window closed
    term.expect(r"=== Word Jam · turn [2-8] of 8")
    while term.expect(PROMPT + r"[^\n]*\[\d+ s\] ").group(1) != "Open Sesame: type a word":
        term.type("\n")
    term.type("pinguino\n")
    term.expect(r"PINGUINO: \d+ coins")
    term.expect(PROMPT + r"[^\n]*\[\d+ s\] ")      # the next question, whoever called
    term.type("\x03")                                 # Ctrl-C
    assert term.status() == 130
    assert "Interrupted" in term.text and "Traceback" not in term.text


def test_end_of_input_at_a_prompt_ends_cleanly(live_server):
    done = run_cli("play", "muzicando", "--url", live_server, "--seed", "2", stdin="")
    assert done.returncode == 1
    assert "No more input" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("argv, pace, bot_seconds", [
    ((), "relaxed", 0), (("--pace", "fast"), "fast", 0), (("--pace", "none"), None, 0),
    (("--pace", "fast", "--option", "bot_seconds=2"), "fast", 2)])
def test_a_game_against_bots_is_relaxed_unless_the_player_chooses(live_server, argv, pace,
                                                                   bot_seconds):
    """``impresario play`` creates its game at the engine's pace against bots (relaxed),
    another with --pace, none with --pace none; an explicit option wins over the pace."""
    name = f"Pace {len(argv)} {pace}"
    done = run_cli("play", "muzicando", "--url", live_server, "--seed", "2", "--name", name,
                   *argv, stdin="")
    assert done.returncode == 1 and "No more input" in done.stderr, done.stderr
    games = Client(live_server).request("GET", "/v1/games", params={
        "ruleset": "muzicando", "status": "playing", "limit": 100})["games"]
    game = next(g for g in games if g["seats"][0]["name"] == name)
    view = Client(live_server).request("GET", f"/v1/games/{game['id']}")
    assert view.get("pace") == pace and game["options"].get("pace") == pace
    assert view["bot_seconds"] == bot_seconds
    assert view.get("move_seconds") == {"relaxed": 240, "fast": 30, None: None}[pace]


def test_an_unknown_pace_is_refused_naming_the_paces(live_server):
    done = run_cli("play", "turandot", "--url", live_server, "--pace", "slow", stdin="")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "relaxed, normal, fast" in done.stderr + done.stdout, done.stderr


# ------------------------------------------------------------------------ watch
@pytest.mark.parametrize("ruleset, players, bots, options, said", [
    ("turandot", 3, ["greedy", "random"], None, "— round 7"),
    ("wordjam", 5, ["wordsmith", "random"], {"bot_seconds": 0}, "turn scored:"),
    ("muzicando", 4, ["greedy", "random"], {"hands": 4}, "hand 1 scored:"),
])
def test_watch_follows_every_ruleset(live_server, ruleset, players, bots, options, said):
    client = Client(live_server)
    game = client.create_game(ruleset, players=players, seed=9, options=options)
    for i in range(players):
        game.add_bot(f"Bot{i}", bots[i % 2])
    done = run_cli("watch", game.id, "--url", live_server)
    assert done.returncode == 0, done.stderr
    assert f"Watching game {game.id} ({ruleset}" in done.stdout
    assert said in done.stdout and "Final score:" in done.stdout


# ------------------------------------------------------------------------ refusals
def test_no_engine_says_how_to_start_one():
    url = f"http://127.0.0.1:{closed_port()}"
    for argv in (["--url", url, "play"], ["play", "wordjam", "--url", url],
                 ["tournament", "--games", "1", "--url", url]):
        done = run_cli(*argv)
        assert done.returncode == 1, argv
        assert f"cannot reach the Impresario engine at {url}" in done.stderr
        assert "make run" in done.stderr and "--url" in done.stderr
        assert "Traceback" not in done.stderr
    done = run_cli("watch", "abc", env={"IMPRESARIO_URL": url})
    assert url in done.stderr and "Traceback" not in done.stderr


def test_bad_tables_are_refused_before_anything_is_created(live_server):
    # an unknown bot is refused before any request (the engine here is not even there)
    url = f"http://127.0.0.1:{closed_port()}"
    for argv in (["play", "--bot", "smart"], ["play", "--bots", "greedy,smart"],
                 ["tournament", "--bots", "smart"]):
        done = run_cli(*argv, "--url", url)
        assert done.returncode == 2 and "unknown bot" in done.stderr, (argv, done.stderr)
    done = run_cli("play", "wordjam", "--bots", "3", "--url", live_server)
    assert done.returncode == 2
    assert "Word Jam is for 5 to 12 players, not 4" in done.stderr
    assert "pass --bots 4 to 11" in done.stderr


def test_version_and_help_for_every_option():
    done = run_cli("--version")
    assert done.returncode == 0 and re.match(r"impresario \d+\.\d+\.\d+", done.stdout)
    from impresario import cli

    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command").choices
    for name, sub in [("impresario", parser), *subparsers.items()]:
        for action in sub._actions:
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"


def test_bots_is_a_count_or_a_list_in_play_and_tournament(live_server):
    from impresario.cli import UsageError, parse_bots

    assert parse_bots("3", None, ("greedy", "random"), 4) == ["greedy"] * 3
    assert parse_bots("2", "random", ("greedy", "random"), 4) == ["random"] * 2
    assert parse_bots("greedy,random", None, ("greedy", "random"), 4) == ["greedy", "random"]
    assert parse_bots(None, None, ("wordsmith",), 5) == ["wordsmith"] * 5
    with pytest.raises(UsageError):
        parse_bots("greedy,smart", None, ("greedy", "random"), 4)
    done = run_cli("tournament", "--url", live_server, "--games", "2", "--bots", "3", "--quiet")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^2\s+medium", done.stdout, re.M)  # three seats of the default level


def test_a_tournament_in_a_terminal_shows_an_eta_and_ctrl_c_stops_it():
    """In a terminal the progress bar (rich, the cli extra) shows the games done and the time
    left; Ctrl-C stops a parallel tournament at once, without a traceback from any process."""
    term = Terminal("tournament", "--in-process", "--jobs", "2", "--games", "100000")
    try:
        term.expect(r"\d+/100000 games .*ETA \d+:\d\d:\d\d")
        term.type("\x03")
        assert term.status(timeout=30) == 130
        assert "Interrupted" in term.text and "Traceback" not in term.text
    finally:
        term.close()


def _bid_at_the_prompt(me, typed: list[str], before=None, **seat_options) -> str:
    """Seat 0 of a 2-player Turandot game played in the terminal with ``typed`` as its answers
    (``before(prompt)`` runs before each one), until its bid is made; what it printed."""
    from impresario.terminal import EndOfInput, ScriptedConsole, play_seat
    from impresario.terminal.turandot import TurandotScreen

    lines: list[str] = []
    answers = iter(typed)

    def answer(prompt: str) -> str:
        if before is not None:
            before(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    def out(line: str) -> None:
        lines.append(line)
        if line.strip().startswith("waiting for"):  # the bid is made: enough
            raise EOFError

    console = ScriptedConsole(answer, out)
    with pytest.raises((EndOfInput, EOFError)):
        play_seat(me, TurandotScreen(console, {0: "Me", 1: "Other"}, me=0), console,
                  **seat_options)
    return "\n".join(lines)


def test_a_move_applies_only_to_the_game_the_player_saw(live_server):
    """The CLI sends If-Match with the version on screen: when the game moved on meanwhile (here
    the other player bids while this one types), the move is refused with 412, the player is
    told, and is asked again on the new state."""
    client = Client(live_server)
    game = client.create_game("turandot", players=2, seed=5)
    me, other = game.join("Me"), game.join("Other")

    def meanwhile(prompt: str) -> None:
        if prompt.strip().startswith("Your bid") and not other.view()["players"][1]["has_bid"]:
            other.bid(slot=1, money=0)             # the game moves on under the prompt

    text = _bid_at_the_prompt(me, ["2", "2"], meanwhile)
    assert "the game moved on while you were deciding" in text
    assert text.count("Your bid") == 2 and "bids revealed → you: slot 2" in text


def test_a_question_mark_at_a_prompt_shows_the_rule_in_the_players_language(live_server):
    """``?`` at the bid prompt prints the Italian rules' section on sealed bids, then the same
    question comes back and the bid typed next is the one made."""
    from impresario_rules.texts import section

    client = Client(live_server)
    game = client.create_game("turandot", players=2, seed=5)
    me, _other = game.join("Me"), game.join("Other")
    text = _bid_at_the_prompt(me, ["?", "2"], lang="it")
    assert "? at any prompt" in text
    assert section("turandot", "it", "bids").title in text and "carta bluff" in text
    assert text.count("Your bid") == 2
    assert me.view()["players"][0]["has_bid"]


# ------------------------------------------------------------------------ languages
def english_left(text: str, lang: str) -> list[str]:
    """The English of the terminal's catalogue found in ``text``: each message's words between
    its placeholders (two words or more, or one word of four letters or more) that ``lang``'s
    catalogue does not use itself."""
    import string as strings

    from babel.messages.pofile import read_po

    from impresario.i18n import catalogue_path

    with catalogue_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    texts = [t for m in catalog if m.id
             for t in (m.string if isinstance(m.string, tuple) else (m.string,))]
    theirs = " ".join(texts)
    their_words = set(re.findall(r"\w+", theirs))
    shown_words = set(re.findall(r"\w+", text))
    found = set()
    for m in catalog:
        for english in (m.id if isinstance(m.id, tuple) else (m.id,)) if m.id else ():
            for literal, *_rest in strings.Formatter().parse(english):
                for piece in re.split(r"[()\[\]:;,.→—·…'\n]", literal):
                    piece = piece.strip()
                    words = re.findall(r"[A-Za-z]{2,}", piece)
                    if len(words) >= 2 and piece not in theirs and piece in text:
                        found.add(piece)
                    for word in words:
                        if len(word) >= 4 and word not in their_words and word in shown_words:
                            found.add(word)
    return sorted(found)


@pytest.mark.parametrize("argv, script", [
    (["play", "wordjam", "--seed", "3", "--pace", "none", "--option", "bot_seconds=0"],
     "braccio\n" + "\n" * 400),
    (["play", "turandot", "--seed", "5", "--pace", "none", "--name", "Giulia"],
     "9 1\n2 1 b\n" + "\n" * 400),
    (["play", "muzicando", "--mode", "individual", "--bots", "greedy,random", "--hands", "3",
      "--seed", "6", "--pace", "none", "--name", "Giulia"], "p\n" + "\n" * 3200),
])
def test_a_game_played_to_the_end_in_italian_shows_no_english(live_server, argv, script):
    """LANG=it_IT picks Italian: the table, the prompts, the events, a refused choice and a
    refused bid (by its code, not the engine's English detail), the final score."""
    done = run_cli(*argv, "--url", live_server, stdin=script,
                   env={"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "it_IT.UTF-8"})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Punteggio finale:" in out and "Vincitori:" in out
    if argv[1] == "turandot":
        # slot 9 of 5: the prompt says the form it expects, and asks again
        assert "scrivi il numero della posizione (1, 2, 3, 4, 5), poi il denaro, da 0 a" in out
        assert "offerte rivelate → tu: posizione 2 + 1 denaro (bluff)" in out
        assert "Come si fa un'offerta" in out and "cantante" in out
    elif argv[1] == "wordjam":
        # the bots call at once: the word typed answers the first challenge, and is refused
        assert "=== Word Jam · turno 1 di 8" in out and "colonna 1 della caverna" in out
        assert "'braccio' non è tra le scelte" in out and "La tua scommessa — " in out
        assert re.search(r"^  Tu {10,}\d", out, re.M)   # the default name, in the score sheet
    else:
        assert "=== Mano 1 di 3 · gioco · mazziere" in out and "la tua mano: " in out
    assert english_left(out, "it") == []


def test_a_game_watched_in_french_shows_no_english(live_server):
    """--lang fr for Word Jam, whose theme cards come from the rules' data (in English there)."""
    client = Client(live_server)
    game = client.create_game("wordjam", players=5, seed=9, options={"bot_seconds": 0})
    for i in range(5):
        game.add_bot(f"Bot{i}", ("wordsmith", "random")[i % 2])
    done = run_cli("watch", game.id, "--url", live_server, "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert "thème : " in done.stdout and "Score final :" in done.stdout
    assert english_left(done.stdout, "fr") == []


# ------------------------------------------------------------------------------ learn
@pytest.mark.parametrize("lang, says", [
    ("en", ("Guide: Round 1: make your sealed bid", "? shows the rule behind it: Phase 1: sealed bids",
            "Guide: The game is over")),
    pytest.param("it", ("Guida: Turno 1: fai la tua offerta segreta",
                        "Fase 1: reclutamento (offerte segrete)", "Guida: La partita è finita"),
                 marks=pytest.mark.deep)])
def test_learn_turandot_guides_a_whole_game(live_server, lang, says):
    """`impresario learn turandot`: the guided table (the player and two easy bots, the guide's
    seed), each step printed before its prompt in the player's language, `?` showing the
    step's rule; Enter (the default) at every prompt to the final score and the last step."""
    done = run_cli("learn", "turandot", "--url", live_server, "--lang", lang,
                   stdin="?\n" + "\n" * 400, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in says:
        assert line in out, (line, out[-3000:])
    assert out.index(says[0]) < out.index(says[1])
    game_id = re.search(r"impresario watch (?:-- )?(\S+)", out).group(1)
    view = Client(live_server).game(game_id).view()
    assert view["status"] == "finished" and view["guided"] is True
    assert [p["bot"] for p in view["players"]] == [None, "easy", "easy"]
    replay = Client(live_server).game(game_id).replay()
    assert replay["seed"] == 39 and all(by != "deadline" for _, _, by in replay["moves"])
