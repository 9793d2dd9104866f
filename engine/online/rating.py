"""Tenhou's R rating (レーティング), per player after every game.

Every player starts at R1500. After each game, each player's rating changes by::

    change = factor x (place bonus + (table average R - own R) / 40)
    factor = 1 - 0.002 x games played before this one, for fewer than 400 games; 0.2 after
    place bonus: four players +30 / +10 / -10 / -30; three players +30 / 0 / -30

The table average includes the player's own rating; all ratings used are those before the
game. The constants are those of Tenhou's manual (https://tenhou.net/man/#RATING, "R(Rate)":
試合数補正 1-試合数×0.002 under 400 games and 0.2 from 400; 順位基準点 +30/+10/-10/-30 for
four players and +30/0/-30 for three; 補正値 (卓の平均R-自分のR)/40; start R1500), as the
riichi.wiki page "Tenhou.net ranking" (https://riichi.wiki/Tenhou.net_ranking) quotes
them; the R package PlayerRatings (elom with kriichi) uses the same defaults. Tenhou has
no tied places; here, players who share a place share the bonuses of the places they
cover (two tied for 1st get (30+10)/2 each). Each change is computed exactly and rounded
half up to 0.01 (Tenhou shows ratings to 0.01); the rounded change is added.

A worked example, the first of a Japanese club's page on Tenhou's formula
(https://zennipponkmj.sakura.ne.jp/niigatakmj/2021/09/12/, "レーティング値について"): a
player at R2000 with 400 or more games, at a table with R2100, R1900 and R2000 (average
R2000), finishing 4th, changes by 0.2 x (-30 + (2000 - 2000)/40) = -6:

>>> rating_change(2000, [2100, 1900, 2000], place=4, games=400)
Decimal('-6.00')

A first game (factor 1) at a table of newcomers moves the places by the bare bonuses:

>>> [(r.name, r.rating) for r in ratings([(["A", "B", "C", "D"], [50, 10, -20, -40])])]
[('A', Decimal('1530.00')), ('B', Decimal('1510.00')), ('C', Decimal('1490.00')), \
('D', Decimal('1470.00'))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from umaoka.engine.errors import UmaokaError, excerpt
from umaoka.engine.season.stats import records
from umaoka.engine.typed_numbers import NumberError, read_number

START = Decimal(1500)
#: Place bonuses (順位基準点) by player count, 1st first.
BONUS = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
#: Games after which the factor stays at 0.2.
SETTLED_AFTER = 400


def factor(games: int) -> Fraction:
    """The games-played factor (試合数補正) for a player with ``games`` games before this one.

    >>> factor(0), factor(100), factor(399), factor(400), factor(1000)
    (Fraction(1, 1), Fraction(4, 5), Fraction(101, 500), Fraction(1, 5), Fraction(1, 5))
    """
    return Fraction(1, 5) if games >= SETTLED_AFTER else 1 - Fraction(games, 500)


# Ratings are kept in whole hundredths, so every change is exact integer arithmetic:
# change x 100 = F/500 x (bonus/tied + (S - n R) / 4000n) x 100, with the factor F/500,
# the place bonus shared by ``tied`` players, the table sum S and own rating R in hundredths.


def _round_div(num: int, den: int) -> int:
    """num / den rounded half up (away from zero on a half), den > 0."""
    q = (2 * abs(num) + den) // (2 * den)
    return q if num >= 0 else -q


def _hundredths(value: Any) -> int:
    """A rating as whole hundredths (rounded half up to 0.01)."""
    try:  # bounded by its exponent before any arithmetic: 1e9999999 overflowed the * 100
        d = read_number(value, below=10**7)
    except NumberError:
        raise UmaokaError(f'the rating "{excerpt(value)}" is not a number; give ratings such '
                          "as 1500 or 1732.45.") from None
    return int((d * 100).quantize(Decimal(1), ROUND_HALF_UP))


def _change(games: int, bonus: int, tied: int, total: int, own: int, n: int) -> int:
    f = 100 if games >= SETTLED_AFTER else 500 - games
    return _round_div(100 * f * (4000 * n * bonus + tied * (total - n * own)),
                      500 * tied * 4000 * n)


def _bonuses(places: Sequence[int]) -> list[tuple[int, int]]:
    """Each seat's place bonus as (sum, tied): players sharing a place share the bonuses of
    the places they cover."""
    table = BONUS.get(len(places))
    if table is None:
        raise UmaokaError(f"a game of {len(places)} players has no Tenhou rating; ratings "
                          "are for four- and three-player games.")
    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        out.append((sum(table[p - 1:p - 1 + tied]), tied))
    return out


def _rating(hundredths: int) -> Decimal:
    got = _RATINGS.get(hundredths)
    if got is None:
        if len(_RATINGS) >= 50_000:
            _RATINGS.clear()
        got = _RATINGS[hundredths] = Decimal(hundredths).scaleb(-2)
    return got


#: Ratings, factors, place bonuses and each table's bonuses repeat across a league's
#: steps: each Decimal made once (they are immutable). Bounded.
_RATINGS: dict[int, Decimal] = {}
_FACTORS = tuple(Decimal(f) / 500 for f in range(501))
_SHARES: dict[tuple[int, int], Decimal] = {}
_BONUSES: dict[tuple[int, ...], list[tuple[int, int]]] = {}


def _share(bonus: int, tied: int) -> Decimal:
    got = _SHARES.get((bonus, tied))
    if got is None:
        got = _SHARES[(bonus, tied)] = Decimal(bonus) / tied
    return got


def _bonuses_of(places: Sequence[int]) -> list[tuple[int, int]]:
    """:func:`_bonuses`, kept per tuple of places (a league sees a few dozen)."""
    if type(places) is not tuple:
        return _bonuses(places)
    got = _BONUSES.get(places)
    if got is None:
        if len(_BONUSES) >= 10_000:
            _BONUSES.clear()
        got = _BONUSES[places] = _bonuses(places)
    return got


def rating_change(own: Any, others: Sequence[Any], place: int, games: int = 0) -> Decimal:
    """One player's change for one game: ``own`` rating, the ``others``' ratings, the
    player's ``place`` (no ties) and the ``games`` they played before."""
    everyone = [_hundredths(own)] + [_hundredths(o) for o in others]
    table = BONUS.get(len(everyone))
    if table is None or not 1 <= place <= len(everyone):
        raise UmaokaError(f"place {place} at a table of {len(everyone)} has no Tenhou rating "
                          "bonus; ratings are for four- and three-player games.")
    return _rating(_change(games, table[place - 1], 1, sum(everyone), everyone[0],
                           len(everyone)))


@dataclass(frozen=True, slots=True)  # many per league: no __dict__ each
class RatingStep:
    """One player's rating change in one game (game numbers from 1, in the order given)."""

    game: int
    name: str
    place: int
    games_before: int
    before: Decimal
    table_average: Decimal  # to 0.01
    factor: Decimal
    bonus: Decimal
    change: Decimal
    after: Decimal


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating after all the games, with the highest and lowest it reached."""

    name: str
    games: int
    rating: Decimal
    peak: Decimal
    low: Decimal
    change: Decimal  # since the start


def rating_history(games: Iterable[Any],
                   start: Mapping[str, tuple[Any, int]] | None = None) -> list[RatingStep]:
    """Every player's rating step in every game. Games are given as for the statistics;
    ``start`` maps a name to (rating, games played) carried over from before."""
    return list(rating_steps(games, start))


def rating_steps(games: Iterable[Any],
                 start: Mapping[str, tuple[Any, int]] | None = None) -> Iterator[RatingStep]:
    """:func:`rating_history` one step at a time, game by game (a big league's history
    need not be held at once)."""
    rating: dict[str, int] = {}  # hundredths
    played: dict[str, int] = {}
    for name, (r, g) in (start or {}).items():
        rating[name], played[name] = _hundredths(r), int(g)
    first = _hundredths(START)
    size = None
    for number, g in enumerate(records(games), 1):
        n = len(g.names)
        if size is not None and n != size:
            raise UmaokaError(f"game {number} has {n} players but earlier games have {size}; "
                              "Tenhou rates four- and three-player games separately, so "
                              "rate them separately.")
        size = n
        before = [rating.get(name, first) for name in g.names]
        total = sum(before)
        average = _rating(_round_div(total, n))
        for i, (name, (bonus, tied)) in enumerate(zip(g.names, _bonuses_of(g.places))):
            count = played.get(name, 0)
            change = _change(count, bonus, tied, total, before[i], n)
            f = 100 if count >= SETTLED_AFTER else 500 - count
            rating[name] = before[i] + change
            played[name] = count + 1
            yield RatingStep(number, name, g.places[i], count, _rating(before[i]), average,
                             _FACTORS[f] if f <= 500 else Decimal(f) / 500,
                             _share(bonus, tied), _rating(change),
                             _rating(before[i] + change))


def ratings(games: Iterable[Any], start: Mapping[str, tuple[Any, int]] | None = None,
            each: Callable[[RatingStep], Any] | None = None) -> list[PlayerRating]:
    """Each player's rating after the games, highest first. ``each(step)`` is called with
    every step of :func:`rating_steps` as it is worked out (a chart of the history, drawn
    in the same pass)."""
    first = {n: _rating(_hundredths(r)) for n, (r, _) in (start or {}).items()}
    acc: dict[str, list[Any]] = {}
    for step in rating_steps(games, start):
        if each is not None:
            each(step)
        a = acc.setdefault(step.name, [0, step.before, step.before, step.before])
        a[0] += 1
        a[1] = step.after
        a[2] = max(a[2], step.after)
        a[3] = min(a[3], step.after)
    out = [PlayerRating(name, n, r, peak, low, r - first.get(name, START))
           for name, (n, r, peak, low) in acc.items()]
    out.sort(key=lambda p: (-p.rating, p.name))
    return out
