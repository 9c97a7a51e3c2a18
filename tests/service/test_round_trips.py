"""A move costs one Redis round trip to read and one to write (issue 26): the write script
keeps the deadline index too, on a single server. Counted by Redis itself (MONITOR): every
command a client sent while the move was made, the scripts' own commands set apart."""

from __future__ import annotations

import threading
import time

from service_helpers import auth


def _commands_during(redis_client, redis_url, action, about: str) -> list[tuple[str, str]]:
    """(client_type, command) of every command about the game ``about`` (naming it: its keys,
    its entry in an index) Redis ran while ``action()`` ran. Other clients of the session's
    Redis (the reaper beside the test servers) send their own, about other games."""
    seen: list[tuple[str, str]] = []
    ready = threading.Event()
    stop = b"round-trips-" + str(time.monotonic_ns()).encode()

    def watch() -> None:
        with redis_client.monitor() as m:
            ready.set()
            for entry in m.listen():
                if stop.decode() in entry["command"]:
                    return
                if about in entry["command"]:
                    seen.append((entry.get("client_type", ""), entry["command"]))

    from impresario_engine.store import connect

    stopper = connect(redis_url)
    stopper.ping()  # the connection that sends the stop is made before, not during
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    assert ready.wait(5)
    time.sleep(0.05)  # MONITOR is on before the action starts
    action()
    stopper.echo(stop)
    stopper.close()
    watcher.join(10)
    assert not watcher.is_alive()
    return seen


def _sent(commands: list[tuple[str, str]]) -> list[str]:
    """What the engine sent itself (not run inside a script), by command name."""
    return [c.split()[0].upper() for kind, c in commands if kind != "lua"]


def test_a_move_in_a_game_with_deadlines_is_one_read_and_one_write(client, make_game,
                                                                      redis_client, redis_url):
    game = make_game(move_seconds=60)
    bid = {"type": "bid", "slot": 1, "money": 0, "bluff": False}
    resp: list = []
    commands = _commands_during(redis_client, redis_url, lambda: resp.append(client.post(
        f"{game.url}/moves", json=bid, headers={**auth(game.tokens[0]), "Idempotency-Key": "k1"})),
        game.id)
    assert resp[0].status_code == 200, resp[0].get_data(as_text=True)
    assert _sent(commands) == ["EVALSHA", "EVALSHA"]
    assert "ZADD" in [c.split()[0].upper() for kind, c in commands if kind == "lua"]
    # the index holds the game's next deadline, as the view shows it
    deadline = min(p["deadline"] for p in resp[0].get_json()["game"]["pending"])
    assert abs(redis_client.zscore("impresario:deadlines", game.id) - deadline) < 1e-6
