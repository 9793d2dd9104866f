"""League standings: cumulative totals over many settled games, as a league table shows them.

>>> from umaoka.engine import settle
>>> g1 = (["Aki", "Ben", "Chie", "Dan"], settle([35700, 32400, 22200, 9700]))
>>> g2 = (["Ben", "Aki", "Dan", "Chie"], settle([40000, 30000, 20000, 10000]))
>>> [(p.name, p.total) for p in standings([g1, g2])]
[('Ben', Decimal('62')), ('Aki', Decimal('56')), ('Chie', Decimal('-58')), ('Dan', Decimal('-60'))]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from itertools import chain
from typing import Any

from umaoka.engine.errors import UmaokaError, as_repr
from umaoka.engine.settle import Settlement, _to_decimal, excerpt
from umaoka.engine.shared_places import (  # noqa: F401  (importable from here)
    SHARED_PLACE_WORDS,
    SHARED_PLACES,
    check_shared_place,
    place_shares,
    place_spans,
    shared_place_words,
)

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
    places: tuple[int | Decimal, ...]  # how many 1st, 2nd, ... finishes (split: to 0.01)
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
    best_first = sorted(finals, reverse=True)
    return tuple(best_first.index(f) + 1 for f in finals)  # 1 + how many are higher


#: Finals as exact decimals by their value, per type (45.0 and 45 are written differently):
#: a league's finals take a few thousand values, each converted once. Bounded.
_FLOATS: dict[float, Decimal] = {}
_INTS: dict[int, Decimal] = {}
_LIMIT = 100_000


def _final(f: Any, index: int, seat: int) -> Decimal:
    """One final score as an exact Decimal, or the sentence saying what is wrong with it."""
    kind = type(f)
    known = _FLOATS if kind is float else _INTS if kind is int else None
    if known is not None:
        d = known.get(f)
        if d is not None:
            return d
    if isinstance(f, bool) or f is None or (isinstance(f, str) and not _numeric(f)):
        # e.g. the message MJ_SETTLE shows in a bad row's first cell
        raise UmaokaError(
            f"game {index} has no final score for player {seat} ({excerpt(as_repr(f))}); "
            "fix that game's scores or remove it from the range.")
    d = _to_decimal(f, f"game {index}, player {seat}'s final score",
                    "fix that game's scores or remove it from the range")
    if known is not None and f:  # not 0.0: -0.0 equals it, but is written "-0.0"
        if len(known) >= _LIMIT:
            known.clear()
        known[f] = d
    return d


#: One game as the standings count it: names, finals and places in seat order.
Line = tuple[list[str], list[Decimal], tuple[int, ...]]


def standings_line(game: Any, index: int) -> Line:
    """One game of :func:`standings` (``index``: its number in messages), checked: the
    players' names, their finals and places, or an :class:`UmaokaError` saying what is
    wrong with it."""
    if not isinstance(game, (tuple, list)) or len(game) not in (2, 3):
        raise UmaokaError(f"game {index} must be (names, result) or (names, finals, places).")
    given = _listed(game[0], f"game {index}'s player names")
    if all(type(n) is str for n in given):
        names = [n.strip() for n in given]
    else:
        names = [("" if n is None else str(n)).strip() for n in given]
    result = game[1]
    if isinstance(result, Settlement):
        finals, places = list(result.final), result.places
    else:
        finals = [_final(f, index, i)
                  for i, f in enumerate(_listed(result, f"game {index}'s final scores"), 1)]
        places = tuple(game[2]) if len(game) == 3 else _places_from_finals(finals)
    if len(names) != len(finals):
        raise UmaokaError(f"game {index} has {len(names)} player names but {len(finals)} final "
                          "scores; give one name per score.")
    if len(set(names)) != len(names) or not all(names):
        if any(not n for n in names):
            raise UmaokaError(f"game {index} has a blank player name; fill in every seat's "
                              "player.")
        raise UmaokaError(f"game {index} lists the same player twice ({', '.join(names)}); "
                          "each seat needs a different player.")
    return names, finals, tuple(places)


_game = standings_line  # the name engine.stats imports


#: Cell values (numbers as a cell holds them) and their finals as exact decimals, for
#: :func:`quick_lines`: a league's finals take a few thousand values. Bounded.
_CELLS: dict[float | int, Decimal] = {}


def quick_lines(names_rows: Sequence[Sequence[Any]],
                finals_rows: Sequence[Sequence[Any]]) -> list[Line | None]:
    """:func:`standings_line` of each row of a block of games, quickly, for the common
    game: finals that are numbers (a whole float read as its int, as from a cell) and
    distinct names. None for any other row (blank, text, a bool, a repeated name...),
    which the caller checks in full with :func:`standings_line`.

    >>> quick_lines([["Aki", " Ben"], ["Aki", None]], [[12.5, -12.5], [3.0, -3.0]])
    [(['Aki', 'Ben'], [Decimal('12.5'), Decimal('-12.5')], (1, 2)), None]
    """
    count = len(finals_rows)
    out: list[Line | None] = [None] * count
    if not count or len(names_rows) != count:
        return out
    w = len(finals_rows[0])
    flat = list(chain.from_iterable(finals_rows))
    if not w or len(flat) != w * count or set(map(len, names_rows)) != {w}:
        return out  # rows of different widths: each is checked in full
    bad: set[int] = set()
    numbers = set(map(type, flat)) <= {float, int}
    if not numbers:  # bools, text, blanks: checked in full
        bad.update(k // w for k, v in enumerate(flat) if type(v) not in (float, int))
    known = _CELLS
    ds = (list(map(known.get, flat)) if numbers
          else [known.get(v) if type(v) in (float, int) else None for v in flat])
    for k in [k for k, d in enumerate(ds) if d is None]:  # values not seen yet
        if k // w in bad:
            continue
        v = flat[k]
        try:
            d = _final(int(v) if type(v) is float and v.is_integer() else v, 1, 1)
        except (UmaokaError, OverflowError):
            bad.add(k // w)
            continue
        ds[k] = d
        if len(known) >= _LIMIT:
            known.clear()
        known[v] = d
    # a league has a few distinct names: each stripped once (and any non-text is blank)
    cells = list(chain.from_iterable(names_rows))
    try:
        stripped = {n: n.strip() if type(n) is str else "" for n in set(cells)}
        names = list(map(stripped.__getitem__, cells))
    except TypeError:  # a cell that cannot be hashed (never one of Excel's): one by one
        names = [n.strip() if type(n) is str else "" for n in cells]
    if "" in names:
        bad.update([k // w for k, n in enumerate(names) if not n])  # blank or not text
    # places from the cells' numbers: ordered and equal as their decimals are (a float's
    # shortest repr keeps its order), and compared several times faster; 1 + how many
    # finals are higher, so tied players share the higher place
    by_row = _PLACES.get(w) if numbers else None  # every cell a number: all rows at once
    places = list(map(by_row, *[flat[s::w] for s in range(w)])) if by_row else None
    for r in range(count):
        if r in bad:
            continue
        i = r * w
        these = names[i:i + w]
        if len(set(these)) < w:
            continue
        if places is not None:
            out[r] = (these, ds[i:i + w], places[r])
        else:
            row = flat[i:i + w]
            out[r] = (these, ds[i:i + w], tuple([1 + sum(x > c for x in row) for c in row]))
    return out


def _places3(a: Any, b: Any, c: Any) -> tuple[int, ...]:
    return 1 + (b > a) + (c > a), 1 + (a > b) + (c > b), 1 + (a > c) + (b > c)


def _places4(a: Any, b: Any, c: Any, d: Any) -> tuple[int, ...]:
    return (1 + (b > a) + (c > a) + (d > a), 1 + (a > b) + (c > b) + (d > b),
            1 + (a > c) + (b > c) + (d > c), 1 + (a > d) + (b > d) + (c > d))


#: A row's places from its finals, by the number of seats (one call a row).
_PLACES: dict[int, Callable[..., tuple[int, ...]]] = {3: _places3, 4: _places4}


def _numeric(text: str) -> bool:
    try:
        Decimal(text.strip()[:100])
    except InvalidOperation:
        return False
    return True


def _listed(value: Any, what: str) -> list[Any]:
    if type(value) is list or type(value) is tuple:  # most games: no look at the ABCs
        return list(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise UmaokaError(f"{what} must be a list in seat order (got {excerpt(as_repr(value))}).")
    return list(value)


#: Rank points of one game's players in seat order, from (names, raw points or None, places).
RankPointsOf = Callable[[list[str], tuple[int, ...] | None, tuple[int, ...]], Sequence[Decimal]]


def standings(games: Iterable[Any], rank_points: RankPointsOf | None = None,
              shared_place: str | Sequence[str] = "better") -> list[PlayerStanding]:
    """Per-player totals, averages, place counts and rates, sorted by total (best first).

    Each game is ``(names, Settlement)``, ``(names, finals)`` or ``(names, finals, places)``,
    names in seat order. Without places, places follow the finals.

    ``rank_points`` (optional) adds each player's cumulative online rank points: a function
    of (names, raw points after leftover sticks or None, places) giving each seat's points,
    such as ``umaoka.engine.online.rankpoints.rank_point_rule("tenhou", "phoenix", "七段")``.
    ``shared_place``: how a place shared by tied players counts (``better``, ``worse`` or
    ``split``, the ruleset's ``shared_place``; see :func:`place_shares`).
    """
    if not isinstance(games, Iterable):
        raise UmaokaError("games must be a list of (names, result) pairs, one per game "
                          f"(got {excerpt(as_repr(games))}).")
    if rank_points is None:
        return tally((standings_line(game, index) for index, game in enumerate(games, 1)),
                     shared_place=shared_place)
    totals: dict[str, Decimal] = {}

    def lines() -> Iterable[Line]:
        for index, game in enumerate(games, 1):
            line = standings_line(game, index)
            names, _, places = line
            raw = game[1].points if isinstance(game[1], Settlement) else None
            try:
                for name, pts in zip(names, rank_points(names, raw, places)):
                    totals[name] = totals.get(name, Decimal(0)) + pts
            except UmaokaError as e:
                raise UmaokaError(f"game {index}: {e}") from None
            yield line

    return tally(lines(), totals, shared_place)


_ONE = Fraction(1)


def _count(value: Fraction) -> int | Decimal:
    """A place count: a whole number, or a split count to 0.01."""
    if value.denominator == 1:
        return int(value)
    d = (Decimal(value.numerator) / value.denominator).quantize(_TWO, ROUND_HALF_UP)
    return int(d) if d == d.to_integral_value() else d.normalize()


def _ratio(value: Fraction, games: int, unit: Decimal) -> Decimal:
    """``value / games`` rounded half up to ``unit``, from the exact fraction."""
    exact = value / games
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(unit, ROUND_HALF_UP)


def tally(lines: Iterable[Line], rank_points: dict[str, Decimal] | None = None,
          shared_place: str | Sequence[str] = "better") -> list[PlayerStanding]:
    """The standings of games already checked by :func:`standings_line`, best first;
    ``rank_points``: each player's cumulative rank points, when counted; ``shared_place``:
    how a place shared by tied players counts (:func:`place_shares`) in the place counts,
    average place, top rate and last-avoid rate (last = the game's last place), or one
    rule per game (the overall standings of leagues with rules of their own)."""
    if isinstance(shared_place, str):
        rule, each = check_shared_place(shared_place), None
    else:
        rule, each = "better", iter([check_shared_place(r) for r in shared_place])
    # every seat's name, final and place in one list each (a game's lists joined in C),
    # then each player's finals and places gathered in one pass each: a few C calls per
    # game and a dict lookup per seat, half the time of a loop over the seats
    seats: list[str] = []
    all_finals: list[Decimal] = []
    all_places: list[int] = []
    lasts: list[str] = []  # a name for each game it finished last
    split: list[tuple[str, int, int, int]] = []  # split: (name, best, worst, seats) shared
    size = 0
    for names, finals, places in lines:
        seats += names
        all_finals += finals
        n = len(names)
        if n > size:
            size = n
        if each is not None:
            rule = next(each, "better")
        if len(set(places)) < n:  # a shared place
            spans = place_spans(places)
            if rule == "split":
                split += [(name, lo, hi, n) for name, (lo, hi) in zip(names, spans) if lo < hi]
            places = tuple(hi if rule == "worse" else lo for lo, hi in spans)
            lasts += [name for name, place in zip(names, places) if place == n]
        elif n in places:
            lasts.append(names[places.index(n)])
        all_places += places
    finals_of: defaultdict[str, list[Decimal]] = defaultdict(list)
    places_of: defaultdict[str, list[int]] = defaultdict(list)
    for name, final in zip(seats, all_finals):
        finals_of[name].append(final)
    for name, place in zip(seats, all_places):
        places_of[name].append(place)
    last_count = Counter(lasts)
    # the split rule: a shared place, counted above as the best of it, becomes a share of
    # each place it covers
    moved: defaultdict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for name, lo, hi, n in split:
        moved[name].append((lo, hi, n))
    out = []
    for name, finals in finals_of.items():
        count, places = len(finals), places_of[name]
        g = Decimal(count)
        total = sum(finals, Decimal(0))
        width = max(size, 3)
        counts = [Fraction(places.count(k)) for k in range(1, width + 1)]
        place_sum, lasts_of = Fraction(sum(places)), Fraction(last_count[name])
        for lo, hi, n in moved.get(name, ()):
            share = Fraction(1, hi - lo + 1)
            counts[lo - 1] -= 1
            for k in range(lo, hi + 1):
                counts[k - 1] += share
            place_sum += Fraction(hi - lo, 2)
            lasts_of += share if hi == n else 0
        out.append(PlayerStanding(
            name=name,
            games=count,
            total=total,
            average=(total / g).quantize(_TWO, ROUND_HALF_UP),
            average_place=_ratio(place_sum, count, _TWO),
            places=tuple(_count(c) for c in counts),
            top_rate=_ratio(counts[0], count, _FOUR),
            last_avoid_rate=_ratio(count - lasts_of, count, _FOUR),
            best=max(finals),
            worst=min(finals),
            rank_points=None if rank_points is None else rank_points.get(name, Decimal(0)),
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


# ------------------------------------------------------------------------------------------------
# Names and the roster: a name that matches a roster name but for case is that player.


def roster_spellings(roster: Iterable[Any]) -> dict[str, str]:
    """A roster's names by their case-folded form, or one sentence when two names differ
    only in case (``aki`` and ``AKI``: a spreadsheet's SUMIFS and COUNTIFS, which ignore
    case, could not tell them apart, so they cannot be two players).

    >>> roster_spellings(["Aki", "Ben"])
    {'aki': 'Aki', 'ben': 'Ben'}
    >>> roster_spellings(["aki", "AKI"])
    Traceback (most recent call last):
    ...
    umaoka.engine.errors.UmaokaError: the roster holds "aki" and "AKI", which differ only \
in case and would count as one player; keep one spelling.
    """
    out: dict[str, str] = {}
    for name in roster:
        text = str(name).strip()
        if not text:
            continue
        seen = out.setdefault(text.casefold(), text)
        if seen != text:
            raise UmaokaError(f'the roster holds "{excerpt(seen)}" and "{excerpt(text)}", which '
                              "differ only in case and would count as one player; keep one "
                              "spelling.")
    return out


def as_on_roster(names: Sequence[str], spellings: dict[str, str]) -> Sequence[str]:
    """``names`` with each one that is on the roster in another case (``aki`` for ``Aki``)
    spelt as the roster spells it; ``names`` itself when nothing changes.

    >>> as_on_roster(("aki", "Ben", "Zed"), roster_spellings(["Aki", "Ben"]))
    ('Aki', 'Ben', 'Zed')
    """
    if not spellings:
        return names
    out = None
    for i, name in enumerate(names):
        known = spellings.get(name.casefold()) if isinstance(name, str) else None
        if known is not None and known != name:
            out = out or list(names)
            out[i] = known
    if out is None:
        return names
    return tuple(out) if isinstance(names, tuple) else out
