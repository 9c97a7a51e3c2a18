"""``impresario``: play against bots in the terminal, run a bot tournament, or follow a game
live.

    impresario play turandot --bots 3
    impresario play muzicando --mode team            # you and a bot against two bots
    impresario play muzicando --mode individual --bots 2
    impresario tournament --games 500 --bots greedy,random,random,random
    impresario watch <game id>
    impresario games                                 # the open games, as a table
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from .bots import make_bot, take_turn
from .client import DEFAULT_URL, Client, Seat
from .errors import ImpresarioError
from .lobby import add_games_command
from .tournament import LINES, progress_bar, run_tournament

ROLE_NAMES = ("Turandot", "Calaf", "Liù", "Ping", "Pong", "Pang")


def card_text(card: dict[str, Any] | None) -> str:
    if card is None:
        return "—"
    if card["kind"] == "director":
        return f"{card['id']} ({card['effect']})"
    fav = f", loves {card['favourite_role']}" if card["favourite_role"] else ""
    return f"{card['id']} {card['category']} {card['sex']} {'★' * card['stars']}{fav}"


def show_table(view: dict[str, Any], out: Callable[[str], None] = print) -> None:
    out(f"\n=== Round {view['round']} · {view['phase']} · maestro: seat {view['maestro']} ===")
    for place in view["table"]:
        out(f"  slot {place['slot']}: {card_text(place['card'])}")
    for p in view["players"]:
        director = p["director"]["id"] if p["director"] else "—"
        out(f"  seat {p['seat']} {p['name'] or '?':<12} money {p['money']} stage "
            f"{p['stage_elements']} director {director} face-down {p['face_down']}  singers: "
            + ", ".join(c["id"] for c in p["singers"]))
    if view.get("dummy"):
        out("  dummy: " + ", ".join(c["id"] for c in view["dummy"]["singers"]))
    if view.get("you"):
        hand = view["you"]["hand"]
        out(f"  your hand: numbers {hand['numbers']}, money {hand['money']}, bluff "
            f"{'yes' if hand['bluff'] else 'no'}")


def show_events(events: list[dict[str, Any]], names: dict[int, str],
                out: Callable[[str], None] = print) -> None:
    for e in events:
        t = e["type"]
        who = names.get(e.get("seat"), f"seat {e.get('seat')}")
        if t == "bids_revealed":
            parts = []
            for b in e["bids"]:
                what = f"slot {b['slot']}" if b["slot"] is not None else "helper"
                parts.append(f"{names.get(b['seat'], b['seat'])}: {what} +{b['money']}"
                             f"{' (bluff)' if b['bluff'] else ''}")
            out("  reveal → " + "; ".join(parts))
        elif t == "hired":
            out(f"  {who} hires {e['card']} from slot {e['slot']} ({e['by']}, paid {e['money_spent']})")
        elif t == "helper_hired":
            out(f"  {who} hires the {e['helper'].replace('_', ' ')}: a stage element")
        elif t == "director_fired":
            out(f"  {who} fires {e['director']}")
        elif t == "nominated":
            out(f"  {who} is named to fire a director")
        elif t in ("card_discarded", "dummy_received"):
            out(f"  {e['card']} {'goes to the dummy' if t == 'dummy_received' else 'is discarded'}")
        elif t == "game_finished":
            out(f"  game over: winners {[names.get(w, w) for w in e['winners']]}"
                + (" — the dummy wins" if e.get("dummy_wins") else ""))


def show_score(score: dict[str, Any], names: dict[int, str], out: Callable[[str], None] = print) -> None:
    out("\nFinal score:")
    lines = list(score["players"][0]["lines"]) if score["players"] else list(LINES)
    width = max([16] + [len(k) + 2 for k in lines])
    out(f"  {'player':<14}" + "".join(f"{k:>{width}}" for k in lines) + f"{'total':>8}")
    for p in score["players"]:
        out(f"  {str(names.get(p['seat'], p['seat'])):<14}" +
            "".join(f"{p['lines'][k]:>{width}}" for k in lines) + f"{p['total']:>8}")
        if p.get("cast"):
            out("    cast: " + ", ".join(f"{r} {c}" for r, c in zip(ROLE_NAMES, p["cast"])))
    if score.get("dummy"):
        d = score["dummy"]
        out(f"  {'dummy':<14}" + "".join(f"{d['lines'][k]:>{width}}" for k in lines)
            + f"{d['total']:>8}")
    for team in score.get("teams") or ():
        out(f"  team {team['team']} (seats {team['seats']}): {team['total']}")
    out(f"Winners: {', '.join(str(names.get(w, w)) for w in score['winners']) or 'the dummy'}")


def ask_move(view: dict[str, Any], actions: dict[str, Any], ask: Callable[[str], str],
             out: Callable[[str], None] = print) -> dict[str, Any]:
    space = actions["moves"][0]
    kind = space["type"]
    while True:
        try:
            if kind == "bid":
                helper = " or 'h' for a helper (one money)" if space["helper"] else ""
                raw = ask(f"Your bid: slot [money] [b for bluff]{helper} (money up to "
                          f"{space['max_money']}): ").split()
                bluff = "b" in raw
                raw = [r for r in raw if r != "b"]
                if raw and raw[0] == "h":
                    return {"type": "bid", "slot": None, "money": 1, "bluff": bluff}
                slot = int(raw[0])
                money = int(raw[1]) if len(raw) > 1 else 0
                return {"type": "bid", "slot": slot, "money": money, "bluff": bluff}
            if kind == "assign_office":
                out(f"You assign office hires: free slots {space['slots']}")
                return {"type": "assign_office", "assignments": [
                    {"seat": s, "slot": int(ask(f"  slot for seat {s}: "))} for s in space["seats"]]}
            if kind == "nominate":
                return {"type": "nominate", "seat": int(ask(f"Name a seat to fire a director {space['seats']}: "))}
            if kind == "fire_director":
                out("Directors: " + ", ".join(space["directors"]))
                return {"type": "fire_director", "director": ask("Fire which director? ").strip()}
            if kind == "cast":
                out(f"Your singers: {', '.join(space['singers'])}; the best cast "
                    f"({space['optimal_total']} points): {', '.join(space['optimal'])}")
                raw = ask("Cast 6 ids in role order (Enter for the best): ").replace(",", " ").split()
                return {"type": "cast", "roles": raw or None}
        except (ValueError, IndexError):
            out("  I did not understand that; try again.")
            continue
        return dict(actions["default"])


DEFAULT_BOT = {"turandot": "greedy", "wordjam": "wordsmith", "muzicando": "greedy"}


def _options(args: argparse.Namespace) -> dict[str, Any] | None:
    opts: dict[str, Any] = {}
    if getattr(args, "mode", None):
        opts["mode"] = args.mode
    if getattr(args, "hands", None):
        opts["hands"] = args.hands
    return opts or None


def menu_moves(actions: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every legal move of the caller as (label, move), from the compact action space: the
    numbered menu of the generic terminal player (Muzicando: every card on every legal cell)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for space in actions["moves"]:
        kind = space["type"]
        if kind == "place":
            for entry in space["cards"]:
                for cell in entry["cells"]:
                    out.append((f"place {entry['card']} at ({cell['x']}, {cell['y']})",
                                {"type": "place", "card": entry["card"], "x": cell["x"],
                                 "y": cell["y"]}))
        elif kind == "auction_bid":
            out += [(f"bid {c}", {"type": "auction_bid", "contract": c})
                    for c in space["contracts"]]
        elif kind == "choose_layout":
            out += [(f"choose layout {lay}", {"type": "choose_layout", "layout": lay})
                    for lay in space["layouts"]]
        elif kind == "pass":
            out.append(("pass" + (" (and draw a card)" if space.get("draws") else ""),
                        {"type": "pass"}))
        else:
            keep = {k: v for k, v in space.items() if k == "type"}
            out.append((kind.replace("_", " "), keep))
    return out


def show_muzicando(view: dict[str, Any], out: Callable[[str], None] = print) -> None:
    out(f"\n=== Hand {view['hand']} of {view['hands']} · {view['phase']} · layout "
        f"{view['layout'] or '—'} · contract {view['contract'] or '—'} ===")
    cells = view["table"]["cells"] if isinstance(view["table"], dict) else []
    if cells:
        out("  table: " + ", ".join(
            f"({c['x']},{c['y']}) {c['card']}" + (f" under {c['covered_by']}" if c["covered_by"] else "")
            for c in cells))
    for p in view["players"]:
        status = "out, place " + str(p["place"]) if p["out"] else f"{p['hand_size']} cards"
        out(f"  seat {p['seat']} {p.get('name') or '?':<12} {status}"
            + (" (blocked)" if p["blocked"] else "") + f"  total {p['total']}")
    if view.get("you"):
        out("  your hand: " + ", ".join(view["you"]["hand"]))


def ask_menu(view: dict[str, Any], actions: dict[str, Any], ask: Callable[[str], str],
             out: Callable[[str], None] = print) -> dict[str, Any]:
    choices = menu_moves(actions)
    for i, (label, _move) in enumerate(choices, 1):
        out(f"  {i:>3}. {label}")
    while True:
        raw = ask(f"Your move (1-{len(choices)}, Enter for the default): ").strip()
        if not raw:
            return dict(actions["default"])
        if raw.isdigit() and 1 <= int(raw) <= len(choices):
            return choices[int(raw) - 1][1]
        out("  I did not understand that; try again.")


def cmd_play(args: argparse.Namespace, ask: Callable[[str], str] = input,
             out: Callable[[str], None] = print) -> int:
    client = Client(args.url)
    ruleset = args.ruleset
    bot_kind = args.bot or DEFAULT_BOT.get(ruleset, "random")
    bots_count = args.bots
    if ruleset == "muzicando" and args.mode == "team":
        bots_count = 3  # the team game is for four
    game = client.create_game(ruleset, players=bots_count + 1, seed=args.seed,
                              options=_options(args))
    me = game.join(args.name)
    bots = [make_bot(bot_kind, seed=(args.seed or 0) + i, ruleset=ruleset)
            for i in range(bots_count)]
    bot_seats: list[Seat] = [game.join(f"{bot_kind}-bot-{i + 1}") for i in range(bots_count)]
    names = {0: args.name, **{s.seat: f"{bot_kind}-bot-{s.seat}" for s in bot_seats}}
    out(f"Game {game.id}: you are seat 0 against {bots_count} {bot_kind} bots.")
    seq = 0
    shown = None
    while True:
        view = me.view()
        events = me.events(after=seq)
        if events:
            seq = events[-1]["seq"]
            if ruleset == "turandot":
                show_events(events, names, out)
        if view["status"] == "finished":
            show_score(me.score(), names, out)
            return 0
        moved = False
        for p in view["pending"]:
            if p["seat"] != 0:
                s = bot_seats[p["seat"] - 1]
                moved |= take_turn(s, bots[p["seat"] - 1], s.view())
        if moved:
            continue
        if me.is_my_turn(view):
            actions = me.actions()
            if ruleset == "turandot":
                if view["round"] != shown or view["phase"] != "bidding":
                    show_table(view, out)
                    shown = view["round"]
                move = ask_move(view, actions, ask, out)
            else:
                if ruleset == "muzicando":
                    show_muzicando(view, out)
                move = ask_menu(view, actions, ask, out)
            try:
                me.move(move)
            except ImpresarioError as err:
                out(f"  refused: {err.detail} ({err.code})")


def cmd_tournament(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    for n in names:
        make_bot(n, ruleset=args.ruleset)  # fails early on an unknown name
    client = Client(args.url)
    result = run_tournament(client, names, args.games, seed=args.seed,
                            progress=None if args.quiet else progress_bar,
                            ruleset=args.ruleset, options=_options(args))
    if args.json:
        out(json.dumps(result, indent=2))
        return 0
    out(f"{result['games']} games in {result['seconds']:.1f}s "
        f"({result['games_per_second']:.2f} games/s)")
    keys = list(result["standings"][0]["avg_lines"]) if result["standings"] else []
    out(f"{'seat':<5}{'bot':<10}{'win rate':>10}{'95% CI':>18}{'avg total':>11}  "
        + "  ".join(f"{k}" for k in keys))
    for row in result["standings"]:
        lo, hi = row["ci95"]
        out(f"{row['seat']:<5}{row['bot']:<10}{row['win_rate']:>10.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{row['avg_total']:>11.2f}  "
            + "  ".join(f"{row['avg_lines'][k]:.2f}" for k in keys))
    if len(names) == 2:
        out(f"dummy wins: {result['dummy_wins']}")
    return 0


def cmd_watch(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """Follow a game live: every event as it happens, the table at each new round, the score."""
    client = Client(args.url)
    game = client.game(args.game, host_token=args.token)
    view = client.request("GET", f"/v1/games/{args.game}", token=args.token,
                          params={"spectator": args.spectator} if args.spectator else None)
    names = {p["seat"]: p["name"] or f"seat {p['seat']}" for p in view["players"]}
    out(f"Watching game {args.game} ({view['status']}, round {view['round']}, "
        f"{view['phase']}).")
    show_table(view, out)
    for event in game.stream(after=args.after, spectator=args.spectator):
        if event.type == "seat_taken":
            names[event["seat"]] = event["name"]
            out(f"  {event['name']} takes seat {event['seat']}"
                + (f" (bot: {event['bot']})" if event.get("bot") else ""))
        elif event.type == "round_started":
            out(f"\n— round {event['round']}, maestro {names.get(event['maestro'])}: "
                + ", ".join(event["table"]))
        elif event.type == "bid_committed":
            out(f"  {names.get(event['seat'])} commits {event['face_down']} card(s) face down")
        elif event.type == "deadline_passed":
            out(f"  {names.get(event['seat'])} ran out of time: the engine plays the default")
        else:
            show_events([event.data], names, out)
    score = client.request("GET", f"/v1/games/{args.game}/score", token=args.token,
                           params={"spectator": args.spectator} if args.spectator else None)
    show_score(score, names, out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="impresario", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=DEFAULT_URL, help=f"engine URL (default {DEFAULT_URL})")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("ruleset", nargs="?", default="turandot")
    play.add_argument("--bots", type=int, default=3, help="how many bots (default 3)")
    play.add_argument("--bot", default=None,
                      help="bot kind (turandot: greedy, random; wordjam: wordsmith; "
                           "muzicando: greedy, random)")
    play.add_argument("--mode", choices=["team", "individual"], default=None,
                      help="muzicando: the team game for four, or the individual game")
    play.add_argument("--hands", type=int, default=None, help="muzicando: hands in the match")
    play.add_argument("--name", default="You")
    play.add_argument("--seed", type=int, default=None)
    tour = sub.add_parser("tournament", help="run seeded bot games and print win rates")
    tour.add_argument("--games", type=int, default=100)
    tour.add_argument("--bots", default="greedy,random,random,random",
                      help="comma-separated bots, one per seat")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--ruleset", default="turandot")
    tour.add_argument("--mode", choices=["team", "individual"], default=None)
    tour.add_argument("--hands", type=int, default=None)
    tour.add_argument("--json", action="store_true", help="print the result as JSON")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    watch = sub.add_parser("watch", help="follow a game live")
    watch.add_argument("game", help="the game id")
    watch.add_argument("--token", default=None, help="a seat's or the host's token")
    watch.add_argument("--spectator", default=None, help="a private game's spectator token")
    watch.add_argument("--after", type=int, default=0, help="start after this event number")
    add_games_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args)
        if args.command == "tournament":
            return cmd_tournament(args)
        if args.command == "watch":
            return cmd_watch(args)
        if getattr(args, "handler", None) is not None:
            return args.handler(args)
    except ImpresarioError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 2


if __name__ == "__main__":
    sys.exit(main())
