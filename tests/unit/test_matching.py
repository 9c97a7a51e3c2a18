"""Who sits with whom in quick match (table/matching.py): near ratings first, the window
widening with the wait, bots only once the longest wait is over."""

from impresario_engine.table.matching import Waiting, bot_level, tables, window


def _w(player, rating, since=0.0, wait=60.0):
    return Waiting(player, rating, since, wait)


def test_a_full_table_of_near_ratings_is_made_at_once():
    queue = [_w("a", 10), _w("b", 11), _w("c", 30), _w("d", 9), _w("e", 12)]
    (table,) = tables(queue, 4, now=1.0)
    assert set(table.players) == {"a", "b", "d", "e"} and table.bots == 0


def test_far_ratings_wait_until_the_window_reaches_them():
    queue = [_w("a", 0), _w("b", 20)]
    assert tables(queue, 2, now=1.0) == []  # 20 apart, the window is 3.5
    assert window(40.0) >= 20
    (table,) = tables(queue, 2, now=40.0)
    assert table.players == ("a", "b")


def test_bots_fill_the_table_once_the_longest_wait_is_over_and_not_before():
    queue = [_w("a", 0, since=0, wait=30), _w("b", 1, since=10, wait=600)]
    assert tables(queue, 4, now=29.0) == []
    (table,) = tables(queue, 4, now=30.0)
    assert table.players == ("a", "b") and table.bots == 2


def test_no_player_is_at_two_tables():
    queue = [_w(str(i), i % 7, since=i) for i in range(203)]
    made = tables(queue, 4, now=1000.0)
    seated = [p for t in made for p in t.players]
    assert len(seated) == len(set(seated)) == 203
    assert sum(t.bots for t in made) == 4 * len(made) - 203


def test_the_bot_level_nearest_the_table_is_chosen():
    levels = {"easy": -5.0, "medium": 4.0, "hard": 12.0}
    assert bot_level(3.0, levels, "medium") == "medium"
    assert bot_level(20.0, levels, "medium") == "hard"
    assert bot_level(20.0, {"easy": None, "medium": None}, "medium") == "medium"


def test_a_bot_level_at_several_seats_is_rated_once_and_every_seat_plays():
    """A Muzicando team game of one player and three bots of one level (what quick match
    makes): every seat is a side's member, the level is updated once."""
    from impresario_engine.table.ratings import START, rate

    changes = rate([[0, 2], [1, 3]], [1, 2], {0: "anna", 1: "bot", 2: "bot", 3: "bot"}, {})
    by = {c.player: c for c in changes}
    assert set(by) == {"anna", "bot"}
    assert by["anna"].after[0] > START[0] and by["anna"].rank == 1
    assert by["bot"].rank == 1 and by["bot"].seat == 2  # its best seat's place
    alone = rate([[0], [1], [2]], [1, 2, 3], {0: "anna", 1: "bot", 2: "bot"}, {})
    assert {c.player for c in alone} == {"anna", "bot"}
