"""Command line: ``python -m impresario_engine <command> ...`` (also the ``impresario-engine``
script).

Each command is a function ``add_<name>(subparsers)`` that declares its sub-parser and sets
``handler`` to a function taking the parsed arguments and returning an exit status. To add a
command, write one and list it in ``COMMANDS``. Handlers import what they need lazily, so one
command's dependencies never slow down or break another.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, Sequence


def _player_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected player counts like 2,3,4,5, not {text!r}")
    if not counts or any(not 2 <= n <= 5 for n in counts):
        raise argparse.ArgumentTypeError("player counts must be from 2 to 5")
    return counts


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError("expected a positive integer")
    return value


def add_sim(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim", help="play random Turandot games in process and print a report",
        description="Plays N seeded random Turandot games (the player counts in turn; game i "
                    "uses seed S+i) and prints games/s, actions/s, win rates by seat, average "
                    "score by line and the 2-player dummy win rate.")
    parser.add_argument("--games", type=_positive, required=True, metavar="N",
                        help="number of games to play")
    parser.add_argument("--players", type=_player_counts, default=[2, 3, 4, 5],
                        metavar="2,3,4,5", help="player counts, cycled over (default 2,3,4,5)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the first game (default 0)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar on stderr")
    parser.set_defaults(handler=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    from .sim import format_report, simulate

    report = simulate(args.games, args.players, args.seed, progress=not args.no_progress)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(format_report(report))
    return 0


def add_reap(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "reap", help="play the bots whose think time is over and every passed move deadline, "
                     "finish abandoned games, drop expired games from the list of games (beside "
                     "make run; its own Deployment on Kubernetes)",
        description="Finds every game with a move due (REDIS_URL selects the Redis): plays the "
                    "moves of the bots whose think time is over (the searching bots' only "
                    "here, never in a request) and the seats' default moves once their deadline "
                    "has passed; finishes the games in play without a move for "
                    "ABANDON_AFTER_SECONDS the same way; and drops the games that have expired "
                    "from the list of games. Safe to run from several places at once: every "
                    "write is a compare-and-set, and a reaper skips the games another one is "
                    "settling.")
    parser.add_argument("--limit", type=_positive, default=1000,
                        help="at most this many games per pass (default 1000)")
    parser.add_argument("--loop", type=float, default=0, metavar="SECONDS",
                        help="repeat instead of one pass: as soon as the next game falls due "
                             "(a bot's think time over, a deadline passed), at most SECONDS "
                             "later; the list of games is swept every SECONDS")
    parser.add_argument("--quiet", action="store_true",
                        help="print a pass's report only when it did something or failed")
    parser.add_argument("--heartbeat", metavar="FILE", default=None,
                        help="with --loop, touch FILE at every turn (each pass, each game "
                             "settled), for the probes: python -m impresario_engine alive "
                             "FILE; while Redis is away the loop waits for it (backing off, "
                             "one line when the outage starts, one when it ends) and touches "
                             "FILE.outage instead (alive FILE --outage-ok)")
    parser.add_argument("--nice", type=int, default=10, metavar="N",
                        help="with --loop, lower this process's CPU priority by N (default 10; "
                             "0: as it is): on a machine it shares with the engine (make run), "
                             "the players' requests come before the hard bots' searches")
    parser.set_defaults(handler=run_reap)


def run_reap(args: argparse.Namespace) -> int:
    import time

    from .logs import configure_logging
    from .loops import Heartbeat, run_loop
    from .usecases.reaper import engine_from_env, reap_once, wait_seconds

    engine = engine_from_env()
    configure_logging(engine.config.log_level)
    if args.loop and args.nice > 0:
        os.nice(args.nice)
    heart = Heartbeat("reaper", args.heartbeat, engine.store)
    swept = float("-inf")  # the list of games is swept once per --loop seconds
    errors = 0

    def turn() -> float:
        """One pass, its report printed; the seconds until the next one. A pass that cannot
        reach Redis raises StoreError: ``run_loop`` waits the outage out (or, for one pass,
        ends with a line saying so)."""
        nonlocal swept, errors
        sweep = time.monotonic() - swept >= args.loop
        report = reap_once(engine, limit=args.limit, sweep=sweep, beat=heart.beat)
        if sweep:
            swept = time.monotonic()
        errors = report["errors"]
        if not args.quiet or report["checked"] or report["errors"]:
            print(json.dumps(report), flush=True)
        return wait_seconds(engine, args.loop) if args.loop else 0.0

    code = run_loop(turn, heart, args.loop or None)
    if not args.loop and code == 0 and errors:
        return 1
    return code


def add_notify(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "notify", help="send the games' webhooks (and other notification channels) from the "
                       "outbox, with retries (beside make run; its own Deployment on Kubernetes)",
        description="Reads the outbox (REDIS_URL selects the Redis) as a consumer of the group "
                    "'senders': each write of a game that notifies has an entry there. Signs "
                    "and sends each event to every endpoint that wants it (Standard Webhooks), "
                    "retries failed deliveries on WEBHOOK_RETRY_SCHEDULE, takes over the "
                    "entries of a sender that died. Safe to run from several places at once.")
    parser.add_argument("--loop", type=float, default=0, metavar="SECONDS",
                        help="repeat instead of one pass (SECONDS: the longest wait between "
                             "two passes while Redis is away)")
    parser.add_argument("--quiet", action="store_true",
                        help="print a pass's report only when it did something")
    parser.add_argument("--heartbeat", metavar="FILE", default=None,
                        help="with --loop, touch FILE at every pass, for the probes: python -m "
                             "impresario_engine alive FILE (as the reaper's)")
    parser.set_defaults(handler=run_notify)


def run_notify(args: argparse.Namespace) -> int:
    from .logs import configure_logging
    from .loops import Heartbeat, run_loop
    from .usecases.notify import Sender
    from .usecases.reaper import engine_from_env

    from .usecases import push

    engine = engine_from_env()
    configure_logging(engine.config.log_level)
    if push.configured(engine.config):  # a bad VAPID key stops the start, as the engine's does
        try:
            push.vapid(engine.config)
        except push.VapidKeyError as exc:
            print(f"VAPID_PRIVATE_KEY_FILE: {exc}", file=sys.stderr)
            return 2
    heart = Heartbeat("notify", args.heartbeat, engine.store)
    sender = Sender(engine, beat=heart.beat)

    def turn() -> float:
        report = sender.turn(block_ms=500 if args.loop else None)
        if not args.quiet or report["entries"] or report["retries"]:
            print(json.dumps(report), flush=True)
        return sender.wait(args.loop) if args.loop else 0.0

    return run_loop(turn, heart, args.loop or None)


def add_alive(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "alive", help="exit 0 if a loop's heartbeat file was touched lately (a liveness probe)",
        description="Exits 0 when FILE (a loop's --heartbeat) was touched within SECONDS, else "
                    "1, saying how long ago: the reaper's probes on Kubernetes. A loop touches "
                    "FILE only at a turn that reached Redis; while it waits out an outage it "
                    "touches FILE.outage instead, which --outage-ok accepts too.")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--within", type=float, default=60.0, metavar="SECONDS",
                        help="how recent the last turn must be (default 60)")
    parser.add_argument("--outage-ok", action="store_true",
                        help="also exit 0 while the loop waits out a storage outage (its "
                             "FILE.outage touched within SECONDS): the process is alive, only "
                             "Redis is away (a liveness probe; a readiness probe leaves it out)")
    parser.set_defaults(handler=run_alive)


def run_alive(args: argparse.Namespace) -> int:
    from .loops import alive

    ok, line = alive(args.file, args.within, outage_ok=args.outage_ok)
    print(line, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def add_seal_key(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "seal-key", help="print a new line for SEAL_KEYS_FILE (a key that seals the credentials "
                         "in idempotency records)",
        description="Prints '<id> <32 random bytes, base64>'. The first line of SEAL_KEYS_FILE "
                    "seals, every line opens: to rotate, put a new line first and keep the old "
                    "ones for IDEMPOTENCY_TTL_SECONDS (docs/operations.md, 'Secrets').")
    parser.set_defaults(handler=run_seal_key)


def run_seal_key(args: argparse.Namespace) -> int:
    from .table.sealing import new_key_line

    print(new_key_line())
    return 0


def add_vapid_key(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "vapid-key", help="write a new VAPID private key (PEM) for VAPID_PRIVATE_KEY_FILE "
                          "(Web Push)",
        description="Writes a new P-256 private key, PEM, to FILE (readable by its owner only; "
                    "an existing FILE is never overwritten) and prints its public key, the "
                    "application server key browsers subscribe with. Browsers' subscriptions "
                    "are bound to that key: a new key means every player subscribes again "
                    "(docs/players.md, 'Notifications').")
    parser.add_argument("file", metavar="FILE")
    parser.set_defaults(handler=run_vapid_key)


def run_vapid_key(args: argparse.Namespace) -> int:
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid

    key = Vapid()
    key.generate_keys()
    pem = key.private_pem()
    try:
        fd = os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        print(f"{args.file} exists already: not overwritten", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"cannot write {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    raw = key.public_key.public_bytes(serialization.Encoding.X962,
                                      serialization.PublicFormat.UncompressedPoint)
    import base64

    print(f"wrote {args.file}; its public key (application server key): "
          f"{base64.urlsafe_b64encode(raw).decode().rstrip('=')}")
    return 0


#: every command, in the order ``--help`` lists them
COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [add_sim, add_reap, add_notify,
                                                                  add_alive, add_seal_key,
                                                                  add_vapid_key]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m impresario_engine",
                                     description="Impresario game engine")
    subparsers = parser.add_subparsers(dest="command", metavar="command", required=True)
    for add in COMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
