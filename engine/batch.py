"""Many games under one ruleset at once: :func:`settle_many`.

A league tab settles 50,000 games under one ruleset. :func:`settle` checks each game's
arguments in full and builds a :class:`Settlement` with every step's values; here the
common game (whole numbers of points that add up, no leftover sticks, no penalties) goes
through one tight loop of integer tenths with the ruleset's constants read once, and only
its finals are kept; tied players share their places' bonuses there through settle's own
sharing. Every other game (deposits, penalties, anything to refuse) is settled by
:func:`settle` itself, so the results and the messages are the same as settling the
games one by one.

>>> games = settle_many([[35700, 32400, 22200, 9700], [30000, 30000, 30000, 9000]])
>>> games.finals()[0]
(Decimal('46'), Decimal('12'), Decimal('-18'), Decimal('-40'))
>>> print(games.finals()[1])  # doctest: +NORMALIZE_WHITESPACE
scores add up to 99,000 but 4 x 25,000 = 100,000: 1,000 missing; enter the leftover riichi
sticks as deposits or fix a score.
>>> games[0].places
(1, 2, 3, 4)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, overload

from umaoka.engine.errors import UmaokaError
from umaoka.engine.resolve import ruleset as resolve
from umaoka.engine.rules import Ruleset
from umaoka.engine.settle import (
    _TENTHS,
    _WHOLE,
    MAX_POINTS,
    Settlement,
    _floating_vectors,
    _rounded_points,
    _shared_bonuses,
    _tie_groups,
    settle,
    tenths_to_decimal,
)

#: One game's result: its Settlement, or why it cannot be settled.
Result = Settlement | UmaokaError


class Settled(Sequence[Result]):
    """The games of :func:`settle_many`, in order: ``settled[i]`` is game i's
    :class:`Settlement` (made when asked for) or the :class:`UmaokaError` that
    ``settle`` raises for it; :meth:`finals` gives every game's finals at once."""

    def __init__(self, rules: Ruleset, games: Sequence[Any], deposits: Sequence[Any] | None,
                 penalties: Sequence[Any] | None, tenths: list[Any]) -> None:
        self.ruleset = rules
        self._games, self._deposits, self._penalties = games, deposits, penalties
        #: per game: its finals in tenths (the tight loop), or its Settlement or error
        self._tenths = tenths

    def __len__(self) -> int:
        return len(self._tenths)

    @overload
    def __getitem__(self, i: int) -> Result: ...

    @overload
    def __getitem__(self, i: slice) -> list[Result]: ...

    def __getitem__(self, i: int | slice) -> Result | list[Result]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        got = self._tenths[i]
        if type(got) is tuple:  # settled in the loop: its full Settlement, made now
            i = range(len(self))[i]
            return settle(self._games[i], self.ruleset,
                          0 if self._deposits is None else self._deposits[i],
                          None if self._penalties is None else self._penalties[i])
        return got

    def finals(self) -> list[tuple[Decimal, ...] | UmaokaError]:
        """Every game's finals in seat order (as ``Settlement.final``), or its error."""
        cache = _WHOLE if self.ruleset.rounding != "none" else _TENTHS
        whole = cache is _WHOLE
        out: list[tuple[Decimal, ...] | UmaokaError] = []
        append = out.append
        for got in self._tenths:
            if type(got) is tuple:
                try:
                    append(tuple([cache[v] for v in got]))
                except KeyError:
                    append(tuple([tenths_to_decimal(v, whole) for v in got]))
            elif isinstance(got, Settlement):
                append(got.final)
            else:
                append(got)
        return out


def _one(game: Any, rules: Ruleset, deposits: Any, penalties: Any) -> Result:
    try:
        return settle(game, rules, deposits, penalties)
    except UmaokaError as e:
        return e


def settle_many(games: Sequence[Sequence[Any]], ruleset: Any = "standard",
                deposits: Sequence[Any] | None = None,
                penalties: Sequence[Sequence[Any] | None] | None = None) -> Settled:
    """Settle every game of ``games`` (each raw points in seat order) under one ruleset.

    ``deposits``: leftover sticks in points, one per game (None: none); ``penalties``: one
    per game, each None or one value per seat in final points. A bad game does not stop
    the others: its place in the result holds the error ``settle`` would raise.
    """
    r = ruleset if type(ruleset) is Ruleset else resolve(ruleset)
    count = len(games)
    if deposits is not None and len(deposits) != count:
        raise UmaokaError(f"deposits has {len(deposits)} values but there are {count} games; "
                          "give one per game, or none.")
    if penalties is not None and len(penalties) != count:
        raise UmaokaError(f"penalties has {len(penalties)} rows but there are {count} games; "
                          "give one row per game, or none.")
    n, total = r.players, r.start * r.players
    oka, uma = r._oka, r._uma  # type: ignore[attr-defined]
    memo = r._rounded  # type: ignore[attr-defined]
    rounding_none = r.rounding == "none"
    t = r._t  # type: ignore[attr-defined]
    by_seat = r.ties == "seat"
    loop = r.adjust in ("first", "last", "none") and r.scoring == "points"
    # floating uma: the uma vector by how many players end at or above target
    floating = None if r.floating == "off" else _floating_vectors(r)
    target = r.target
    adjust_first = r.adjust == "first"
    adjust_none = r.adjust == "none"
    unit, share_oka = r._unit, r.ties == "split"  # type: ignore[attr-defined]
    seats = range(n)
    out: list[Any] = []
    append = out.append
    for i, game in enumerate(games):
        dep = 0 if deposits is None else deposits[i]
        pen = None if penalties is None else penalties[i]
        # the tight loop's game: n whole ints in 100s that add up, no sticks or penalties
        if loop and type(game) in (list, tuple) and len(game) == n and type(dep) is int \
                and not dep and pen is None:
            for s in game:
                if type(s) is not int or s % 100 or not -MAX_POINTS < s < MAX_POINTS:
                    break
            else:
                if sum(game) == total:
                    order = sorted(seats, key=game.__getitem__, reverse=True)
                    if rounding_none:
                        final = [p // 100 - t for p in game]
                    else:
                        try:
                            final = [memo[p] for p in game]
                        except KeyError:
                            final = [_rounded_points(r, p) for p in game]
                    error = sum(final) + oka
                    if floating is not None:
                        uma = floating[sum([p >= target for p in game])]
                    first = order[0]
                    if by_seat or len(set(game)) == n:
                        for k, s in enumerate(order):
                            final[s] += uma[k]
                        final[first] += oka
                    else:  # tied players share their places' bonuses, as settle shares them
                        okas = [0] * n
                        shared = _shared_bonuses(_tie_groups(game, order), tuple(order), uma,
                                                 oka, okas, unit, share_oka)
                        for s in seats:
                            final[s] += shared[s] + okas[s]
                    if error and not adjust_none:
                        final[first if adjust_first else order[-1]] -= error
                    append(tuple(final))
                    continue
        append(_one(game, r, dep, pen))
    return Settled(r, games, deposits, penalties, out)


@contextmanager
def paused_gc(collect: bool = False) -> Iterator[None]:
    """Python's cycle collector paused while a batch makes many new objects.

    It would scan them again and again as they pile up (a third of the time of a big
    league's workbook, a third of a 50,000-game block's standings); they are freed by
    their reference counts as before. ``collect``: one collection afterwards, for work
    that leaves cycles behind (an openpyxl workbook).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        if collect:
            gc.collect()
