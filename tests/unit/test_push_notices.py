"""Web Push without a server (table/notices.py, usecases/push.py): which notices a document
calls for, the time left in each language, the settings it needs, the vapid-key command, and
a notice never sent to a local or private address without PUSH_ALLOW_PRIVATE."""

from __future__ import annotations

import stat

import pytest

from impresario_engine.__main__ import main
from impresario_engine.config import Config
from impresario_engine.table import notices
from impresario_engine.table.clock import FINISHED, PLAYING
from impresario_engine.usecases import push
from impresario_rules import RULESETS

TURANDOT = RULESETS["turandot"]
NOW = 1_000_000.0


def _doc(move_seconds: int | None = 3600, **seat0) -> dict:
    """A Turandot game of three just started at NOW: seat 0 a player's, seat 1 a bot."""
    state, _ = TURANDOT.setup(3, {}, 7)
    state, _ = TURANDOT.deal(state)
    settings = {"move_seconds": move_seconds} if move_seconds else {}
    seats = [{"name": "A", "player": "pa", **seat0}, {"name": "B", "bot": "easy"},
             {"name": "C"}]
    pending = TURANDOT.pending(state)
    return {"id": "g1", "ruleset": "turandot", "status": PLAYING, "state": state,
            "settings": settings, "seats": seats, "since": {str(s): NOW for s in pending}}


def test_a_players_turn_is_told_with_its_deadline_and_named_by_its_start():
    (notice,) = notices.after_write(_doc(), TURANDOT, NOW)
    assert (notice.kind, notice.seat, notice.player, notice.turn, notice.deadline) == \
        ("your_move", 0, "pa", repr(NOW), NOW + 3600)


def test_no_notice_for_a_short_turn_a_seat_left_or_nobodys_seat():
    assert notices.after_write(_doc(move_seconds=20), TURANDOT, NOW) == []
    assert notices.after_write(_doc(left=True), TURANDOT, NOW) == []
    assert notices.after_write(_doc(player=None), TURANDOT, NOW) == []


def test_time_running_out_once_near_the_end_of_a_long_turn_only():
    long = _doc(move_seconds=4 * 3600)
    assert notices.deadlines_near(long, TURANDOT, NOW + 3600, 3600) == []
    (near,) = notices.deadlines_near(long, TURANDOT, NOW + 3 * 3600 + 60, 3600)
    assert (near.kind, near.seat, near.turn) == ("deadline_near", 0, repr(NOW))
    assert notices.deadlines_near(_doc(move_seconds=3600), TURANDOT, NOW + 1800, 3600) == []


def test_the_end_tells_the_place_of_each_players_seat(monkeypatch):
    doc = _doc()
    doc["status"] = FINISHED
    # a Turandot score as the rules give it, in what ranks the players: totals, then stars
    score = {"players": [{"seat": 0, "total": 3, "lines": {"stars": 2}},
                         {"seat": 1, "total": 9, "lines": {"stars": 5}},
                         {"seat": 2, "total": 1, "lines": {"stars": 1}}]}
    monkeypatch.setattr(TURANDOT, "score", lambda state: score)  # this instance, this test
    (notice,) = notices.after_write(doc, TURANDOT, NOW)
    assert (notice.kind, notice.place, notice.sides) == ("game_over", 2, 3)
    text = notices.message(notice, "g1", "Turandot", "de", NOW)
    assert text["body"] == "Die Partie g1 ist beendet: Du bist auf Platz 2 von 3."


@pytest.mark.parametrize("seconds,lang,said", [
    (59, "en", "1 min"), (3600, "en", "1 h"), (5400, "it", "1 h 30 min"),
    (2 * 86400 + 3 * 3600, "de", "2 T 3 Std."), (86400, "fr", "1 j")])
def test_the_time_left_in_each_language(seconds, lang, said):
    assert notices.duration(seconds, lang) == said


def test_every_language_has_every_sentence_with_the_same_placeholders():
    import re

    keys = set(notices.TEXTS["en"])
    for lang in notices.LANGUAGES:
        assert set(notices.TEXTS[lang]) == keys, lang
        for key in keys:
            assert set(re.findall(r"\{(\w+)\}", notices.TEXTS[lang][key])) == \
                set(re.findall(r"\{(\w+)\}", notices.TEXTS["en"][key])), (lang, key)


def test_a_vapid_key_needs_a_contact():
    with pytest.raises(SystemExit, match="VAPID_SUBJECT"):
        Config(vapid_private_key_file="/x.pem")
    Config(vapid_private_key_file="/x.pem", vapid_subject="mailto:ops@example.test")


def test_vapid_key_writes_a_private_file_once(tmp_path, capsys):
    path = tmp_path / "vapid.pem"
    assert main(["vapid-key", str(path)]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    config = Config(vapid_private_key_file=str(path), vapid_subject="mailto:o@example.test")
    assert push.public_key(config) in capsys.readouterr().out
    before = path.read_bytes()
    assert main(["vapid-key", str(path)]) == 1 and path.read_bytes() == before


@pytest.mark.parametrize("endpoint", ["https://127.0.0.1/x", "https://localhost/x",
                                      "http://push.example.test/x", "https://10.0.0.1/x",
                                      "https://[::1]:8443/x"])
def test_nothing_is_sent_to_a_local_or_private_address(tmp_path, endpoint):
    path = tmp_path / "vapid.pem"
    main(["vapid-key", str(path)])
    config = Config(vapid_private_key_file=str(path), vapid_subject="mailto:o@example.test")
    record = {"endpoint": endpoint, "keys": {"p256dh": "x", "auth": "y"}}
    assert push.send(config, record, b"{}", 60) == push.FAILED


def test_a_missing_or_bad_vapid_key_file_stops_the_start_and_is_never_made(tmp_path):
    from impresario_engine.app import create_app

    missing = tmp_path / "none.pem"
    settings = {"redis_url": "redis://127.0.0.1:1", "vapid_subject": "mailto:o@example.test"}
    with pytest.raises(SystemExit, match="VAPID_PRIVATE_KEY_FILE: cannot read"):
        create_app({**settings, "vapid_private_key_file": str(missing)})
    assert not missing.exists()  # py_vapid's from_file would have made one
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    with pytest.raises(SystemExit, match="holds no PEM private key"):
        create_app({**settings, "vapid_private_key_file": str(bad)})
