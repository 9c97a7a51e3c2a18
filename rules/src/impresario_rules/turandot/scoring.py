"""Turandot scoring: a cast's line-by-line breakdown, and the optimal-arrangement solver (R6).

Score = stars + stage elements + singers in their favourite role − singers in a role of the other
sex (undefined never counts as other) ± director (− 1 for the 2-player Puccini holder).

The final score of a game (:func:`game_score`): every cast's lines, the dummy's with 2 players,
and the winners (a tie at the top is broken by stars alone; still tied, the victory is shared;
the dummy wins alone when it beats every player).

Every term that depends on the arrangement is a sum over (singer, role) pairs — even the
``favourite_roles`` director, which doubles the favourite bonus — so the best arrangement is a
6×6 assignment problem, solved exactly by dynamic programming over subsets of singers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from ..base import IllegalMove, OutOfTurn, State
from .cards import CATEGORIES, DEFAULT, DIRECTORS, ROLE_SEX, ROLES, Catalogue, Singer
from .state import OVER, catalogue

LINES = ("stars", "stage_elements", "favourite_roles", "wrong_sex", "director", "puccini")


def director_bonus(director: str | None, categories: Sequence[str], sexes: Sequence[str],
                   favourites_in_role: int, stage_elements: int) -> int:
    if director is None or director == "neutral":
        return 0
    if director == "dark_over_comic":
        return categories.count("dark") - categories.count("comic")
    if director == "comic_over_dark":
        return categories.count("comic") - categories.count("dark")
    if director == "alternative_over_classic":
        return categories.count("alternative") - categories.count("classic")
    if director == "classic_over_alternative":
        return categories.count("classic") - categories.count("alternative")
    if director == "favourite_roles":
        return favourites_in_role
    if director == "stagecraft":
        return stage_elements
    if director == "full_spectrum":
        return 3 if set(CATEGORIES) <= set(categories) else 0
    if director == "undefined_sex":
        return sexes.count("undefined")
    raise ValueError(f"unknown director {director!r}")


def score_cast(roles: Sequence[str], director: str | None, stage_elements: int = 0,
               puccini: bool = False, catalogue: Catalogue = DEFAULT) -> dict[str, int]:
    """The breakdown of a cast: ``roles`` are 6 singer ids in role order (Turandot, Calaf, Liù,
    Ping, Pong, Pang). Returns the lines and ``total`` (the sum of the lines)."""
    singers = [catalogue.singers[i] for i in roles]
    # one plain loop instead of a generator per line: every finished game scores every cast
    stars = favourites = wrong = 0
    for s in singers:
        stars += s.stars
    for s, role, sex in zip(singers, ROLES, ROLE_SEX):
        if s.favourite_role == role:
            favourites += 1
        if s.sex != sex and s.sex != "undefined":
            wrong += 1
    bonus = director_bonus(director, [s.category for s in singers], [s.sex for s in singers],
                           favourites, stage_elements)
    lines = {
        "stars": stars,
        "stage_elements": stage_elements,
        "favourite_roles": favourites,
        "wrong_sex": -wrong,
        "director": bonus,
        "puccini": -1 if puccini else 0,
    }
    lines["total"] = stars + stage_elements + favourites - wrong + bonus + lines["puccini"]
    return lines


def best_arrangement(singers: Sequence[str], director: str | None,
                     catalogue: Catalogue = DEFAULT) -> tuple[str, ...]:
    """The optimal arrangement of 6 singers (R6): maximum score, and among equal arrangements the
    first in order of card ids by role (the lexicographically smallest tuple of ids)."""
    if len(singers) != 6 or len(set(singers)) != 6:
        raise IllegalMove("not_six_singers", "an arrangement needs exactly 6 different singers")
    return _solve(tuple(sorted(singers)), director, catalogue.key, catalogue)


@lru_cache(maxsize=65536)
def _solve(singers: tuple[str, ...], director: str | None, _key: str,
           catalogue: Catalogue) -> tuple[str, ...]:
    fav_weight = 2 if director == "favourite_roles" else 1
    # weight[i][r]: the arrangement-dependent points of singer i in role r
    weight = []
    for sid in singers:
        s = catalogue.singers[sid]
        row = []
        for r, role in enumerate(ROLES):
            w = fav_weight if s.favourite_role == role else 0
            if s.sex != "undefined" and s.sex != ROLE_SEX[r]:
                w -= 1
            row.append(w)
        weight.append(row)
    n = len(singers)
    full = (1 << n) - 1
    # best[mask]: the best total for roles popcount(mask).. using the singers not in mask
    best = [0] * (1 << n)
    for mask in range(full - 1, -1, -1):
        r = bin(mask).count("1")
        top = None
        for i in range(n):
            if not mask & (1 << i):
                v = weight[i][r] + best[mask | (1 << i)]
                if top is None or v > top:
                    top = v
        best[mask] = top if top is not None else 0
    # walk the roles in order, taking the smallest id that keeps the optimum (ids are sorted)
    out: list[str] = []
    mask = 0
    for r in range(n):
        for i in range(n):
            if not mask & (1 << i) and weight[i][r] + best[mask | (1 << i)] == best[mask]:
                out.append(singers[i])
                mask |= 1 << i
                break
    return tuple(out)


def best_points(singers: Sequence[str], director: str | None, stage_elements: int = 0,
                catalogue: Catalogue = DEFAULT) -> int:
    """The best score that up to 6 singers can make in distinct roles (the other roles empty),
    with the director and stage elements: how a player values a hand still being built."""
    return best_points_of(tuple(catalogue.singers[i] for i in sorted(singers)), director,
                          stage_elements)


def best_points_of(singers: tuple[Singer, ...], director: str | None, stage: int = 0) -> int:
    """:func:`best_points` of singers given by their faces (as a view shows them), in order of
    their ids."""
    return _best_points(tuple(sorted(singers, key=_by_id)), director, stage)


def _by_id(singer: Singer) -> str:
    return singer.id


@lru_cache(maxsize=65536)
def _best_points(cards: tuple[Singer, ...], director: str | None, stage: int) -> int:
    fav_weight = 2 if director == "favourite_roles" else 1
    # best[mask]: the best arrangement points of the singers seen so far, by the set of roles
    # they take (computed singer by singer)
    best = {0: 0}
    for s in cards:
        nxt: dict[int, int] = {}
        for mask, value in best.items():
            for r, role in enumerate(ROLES):
                if mask & (1 << r):
                    continue
                w = fav_weight if s.favourite_role == role else 0
                if s.sex != "undefined" and s.sex != ROLE_SEX[r]:
                    w -= 1
                m = mask | (1 << r)
                if nxt.get(m, -99) < value + w:
                    nxt[m] = value + w
        best = nxt
    arrangement = max(best.values())
    # the director's arrangement-free part (its favourite bonus is inside the weights above)
    fixed = director_bonus(None if director == "favourite_roles" else director,
                           [s.category for s in cards], [s.sex for s in cards], 0, stage)
    return sum(s.stars for s in cards) + stage + fixed + arrangement


assert len(DIRECTORS) == 9


def game_score(state: State) -> dict[str, Any]:
    """The final score: each player's cast line by line (the 2-player Puccini holder loses a
    point) and the dummy's. The highest total wins; a tie is broken by the sum of stars alone,
    and still tied the victory is shared. With 2 players, a dummy scoring strictly more than
    both players wins and both lose; a dummy equal to the best player does not win."""
    if state["phase"] != OVER:
        raise OutOfTurn("game_not_finished", "the game is not finished yet")
    players = []
    for seat in range(state["n"]):
        roles = state["casts"][seat]
        lines = line(state, seat, roles)
        total = lines.pop("total")
        players.append({"seat": seat, "lines": lines, "total": total, "cast": list(roles)})
    dummy = None
    if state["dummy"] is not None:
        d = state["dummy"]
        lines = score_cast(d["singers"], d["director"], 0, False, catalogue(state))
        total = lines.pop("total")
        dummy = {"lines": lines, "total": total, "cast": list(d["singers"])}
    best = max(p["total"] for p in players)
    dummy_wins = dummy is not None and dummy["total"] > best
    if dummy_wins:
        winners: list[int] = []
    else:
        top = [p for p in players if p["total"] == best]
        if len(top) > 1:
            most = max(p["lines"]["stars"] for p in top)
            top = [p for p in top if p["lines"]["stars"] == most]
        winners = [p["seat"] for p in top]
    return {"players": players, "dummy": dummy, "winners": winners, "dummy_wins": dummy_wins}


def places(score: dict[str, Any]) -> list[int]:
    """Each player's place in a final score (:func:`game_score`), by seat order of
    ``score["players"]``: 1 is the best. As for the winner, the higher total ranks first, a tie
    on points is broken by stars alone, and players still tied share the place (two tied for
    second are both 2nd, the next is 4th). With 2 players the dummy is not ranked."""
    keys = [(p["total"], p["lines"]["stars"]) for p in score["players"]]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def line(state: State, seat: int, roles: list[str]) -> dict[str, int]:
    puccini = state["n"] == 2 and seat == state["maestro"]
    return score_cast(roles, state["director"][seat], state["stage"][seat], puccini,
                      catalogue(state))
