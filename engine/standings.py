"""League standings: cumulative totals over many settled games, as a league table shows them.

>>> from umaoka.engine import settle
>>> g1 = (["Aki", "Ben", "Chie", "Dan"], settle([35700, 32400, 22200, 9700]))
>>> g2 = (["Ben", "Aki", "Dan", "Chie"], settle([40000, 30000, 20000, 10000]))
>>> [(p.name, p.total) for p in standings([g1, g2])]
[('Ben', Decimal('62')), ('Aki', Decimal('56')), ('Chie', Decimal('-58')), ('Dan', Decimal('-60'))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from .errors import UmaokaError
from .settle import Settlement, _to_decimal, excerpt

_TWO = Decimal("0.01")
_FOUR = Decimal("0.0001")

STANDINGS_HEADER = ("Rank", "Player", "Games", "Total", "Average", "Avg place", "1st", "2nd",
                    "3rd", "4th", "Top rate", "Last-avoid rate", "Best", "Worst")


@dataclass(frozen=True)
class PlayerStanding:
    """One player's line: totals are exact; average and rates are rounded for display."""

    name: str
    games: int
    total: Decimal
    average: Decimal  # to 0.01
    average_place: Decimal  # to 0.01
    places: tuple[int, ...]  # how many 1st, 2nd, ... finishes
    top_rate: Decimal  # share of games in 1st, to 0.0001
    last_avoid_rate: Decimal  # share of games not last, to 0.0001
    best: Decimal
    worst: Decimal
    rank_points: Decimal | None = None  # cumulative online rank points, when asked for

    def row(self, rank: int) -> list[Any]:
        extra = [] if self.rank_points is None else [self.rank_points]
        return [rank, self.name, self.games, self.total, self.average, self.average_place,
                *self.places, self.top_rate, self.last_avoid_rate, self.best, self.worst, *extra]


def _places_from_finals(finals: Sequence[Decimal]) -> tuple[int, ...]:
    """Places when only finals are known: higher final, better place; equal finals share."""
    return tuple(1 + sum(1 for g in finals if g > f) for f in finals)


def _game(game: Any, index: int) -> tuple[list[str], list[Decimal], tuple[int, ...]]:
    if not isinstance(game, (tuple, list)) or len(game) not in (2, 3):
        raise UmaokaError(f"game {index} must be (names, result) or (names, finals, places).")
    names = [("" if n is None else str(n)).strip()
             for n in _listed(game[0], f"game {index}'s player names")]
    result = game[1]
    if isinstance(result, Settlement):
        finals, places = list(result.final), result.places
    else:
        finals = []
        for i, f in enumerate(_listed(result, f"game {index}'s final scores")):
            if isinstance(f, bool) or f is None or (isinstance(f, str) and not _numeric(f)):
                # e.g. the message MJ_SETTLE shows in a bad row's first cell
                raise UmaokaError(
                    f"game {index} has no final score for player {i + 1} ({excerpt(repr(f))}); "
                    "fix that game's scores or remove it from the range.")
            finals.append(_to_decimal(f, f"game {index}, player {i + 1}'s final score",
                                      "fix that game's scores or remove it from the range"))
        places = tuple(game[2]) if len(game) == 3 else _places_from_finals(finals)
    if len(names) != len(finals):
        raise UmaokaError(f"game {index} has {len(names)} player names but {len(finals)} final "
                          "scores; give one name per score.")
    if any(not n for n in names):
        raise UmaokaError(f"game {index} has a blank player name; fill in every seat's player.")
    if len(set(names)) != len(names):
        raise UmaokaError(f"game {index} lists the same player twice ({', '.join(names)}); "
                          "each seat needs a different player.")
    return names, finals, tuple(places)


def _numeric(text: str) -> bool:
    try:
        Decimal(text.strip()[:100])
    except InvalidOperation:
        return False
    return True


def _listed(value: Any, what: str) -> list[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise UmaokaError(f"{what} must be a list in seat order (got {excerpt(repr(value))}).")
    return list(value)


#: Rank points of one game's players in seat order, from (names, raw points or None, places).
RankPointsOf = Callable[[list[str], tuple[int, ...] | None, tuple[int, ...]], Sequence[Decimal]]


def standings(games: Iterable[Any],
              rank_points: RankPointsOf | None = None) -> list[PlayerStanding]:
    """Per-player totals, averages, place counts and rates, sorted by total (best first).

    Each game is ``(names, Settlement)``, ``(names, finals)`` or ``(names, finals, places)``,
    names in seat order. Without places, places follow the finals.

    ``rank_points`` (optional) adds each player's cumulative online rank points: a function
    of (names, raw points after leftover sticks or None, places) giving each seat's points,
    such as ``umaoka.engine.rankpoints.rank_point_rule("tenhou", "phoenix", "七段")``.
    """
    acc: dict[str, list[Any]] = {}
    size = 0
    if not isinstance(games, Iterable):
        raise UmaokaError("games must be a list of (names, result) pairs, one per game "
                          f"(got {excerpt(repr(games))}).")
    totals: dict[str, Decimal] = {}
    for index, game in enumerate(games, 1):
        names, finals, places = _game(game, index)
        if rank_points is not None:
            raw = game[1].points if isinstance(game[1], Settlement) else None
            try:
                for name, pts in zip(names, rank_points(names, raw, places)):
                    totals[name] = totals.get(name, Decimal(0)) + pts
            except UmaokaError as e:
                raise UmaokaError(f"game {index}: {e}") from None
        size = max(size, len(names))
        last = max(places)  # tied players sharing last place all count as last
        for name, final, place in zip(names, finals, places):
            a = acc.setdefault(name, [0, Decimal(0), 0, [0, 0, 0, 0], final, final, 0])
            a[0] += 1
            a[1] += final
            a[2] += place
            a[3][place - 1] += 1
            a[4] = max(a[4], final)
            a[5] = min(a[5], final)
            a[6] += place == last
    out = []
    for name, (count, total, place_sum, counts, best, worst, lasts) in acc.items():
        g = Decimal(count)
        out.append(PlayerStanding(
            name=name,
            games=count,
            total=total,
            average=(total / g).quantize(_TWO, ROUND_HALF_UP),
            average_place=(Decimal(place_sum) / g).quantize(_TWO, ROUND_HALF_UP),
            places=tuple(counts[: max(size, 3)]),
            top_rate=(Decimal(counts[0]) / g).quantize(_FOUR, ROUND_HALF_UP),
            last_avoid_rate=(1 - Decimal(lasts) / g).quantize(_FOUR, ROUND_HALF_UP),
            best=best,
            worst=worst,
            rank_points=None if rank_points is None else totals.get(name, Decimal(0)),
        ))
    out.sort(key=lambda p: (-p.total, p.average_place, p.name))
    return out


def standings_table(rows: Sequence[PlayerStanding]) -> list[list[Any]]:
    """A header row and one row per player (ranks shared on equal totals)."""
    size = max((len(p.places) for p in rows), default=4)
    header = list(STANDINGS_HEADER)
    if size == 3:
        header.remove("4th")
    if rows and rows[0].rank_points is not None:
        header.append("Rank pts")
    table: list[list[Any]] = [header]
    rank = 0
    for i, p in enumerate(rows):
        if i == 0 or p.total != rows[i - 1].total:
            rank = i + 1
        table.append(p.row(rank))
    return table
