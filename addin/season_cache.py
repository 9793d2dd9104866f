"""MJ_SEASON without rework: one season run shared by the formulas that show it.

The template's Season standings has one ``MJ_SEASON`` formula per stage and table (players,
teams), all with the same games, settings and penalties; after one typed score Excel calls
every one of them. :class:`SeasonRuns` keeps the last few season runs by their inputs (every
argument but the table chosen), so the formulas after the first take its run, and keeps
what does not change between runs: each game row's record (by the row's cells) and each
game's settlement (the engine's :class:`~umaoka.engine.season.SettledGames`), so a run after
an edit settles only the changed game again.

Inputs are equal only when Excel's values are: the same numbers, texts and blanks, and the
same type of each value (TRUE is not 1, "1" is not 1; a number is one type, as in Excel:
Pyodide sends whole numbers as int, xlwings Server as float, and MJ_SEASON reads 1.0 as
1). A value that cannot be compared so
(an Office.js value object) makes the call compute afresh, remembered nowhere. Everything
kept is bounded: a few runs, the rows of the last run, and settled games in proportion to
the games of the last run.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from itertools import chain
from typing import Any

from umaoka.engine.season import Season, SeasonResult, SettledGames

#: Cell types whose ``==`` is the value's identity for MJ_SEASON (a blank is None, or
#: JavaScript's null in xlwings Lite, added by the caller): numbers (float or int: MJ_SEASON
#: reads a whole float as an int), texts. Anything else (bool: TRUE == 1 in Python; dates)
#: is compared with its type.
FAST = frozenset({float, int, str, type(None)})

_ROWS = frozenset({list, tuple})


def fingerprint(values: Sequence[Any], fast: frozenset[type] = FAST) -> Hashable | None:
    """A hashable copy of the arguments, equal for two calls only when every value and
    every value's type is the same; None when a value cannot be hashed (compute afresh).

    >>> fingerprint([[[1.0, "a"]], None]) == fingerprint([[[1.0, "a"]], None])
    True
    >>> fingerprint([[[1.0]]]) == fingerprint([[[1]]])
    True
    >>> fingerprint([[[1]]]) == fingerprint([[["1"]]])
    False
    >>> fingerprint([[[True]]]) == fingerprint([[[1]]])
    False
    >>> fingerprint([[[{"type": "Double"}]]]) is None
    True
    """
    parts: list[Any] = []
    for value in values:
        if isinstance(value, (list, tuple)):
            if set(map(type, value)) <= _ROWS:
                rows = tuple(map(tuple, value))
            else:  # one row or column as a flat list, or a mix
                rows = tuple(tuple(r) if isinstance(r, (list, tuple)) else (r,) for r in value)
            cells = chain.from_iterable(rows)
            if set(map(type, cells)) <= fast:
                parts.append((len(rows), rows))
            else:
                kinds = tuple(tuple(map(type, r)) for r in rows)
                parts.append((len(rows), rows, kinds))
        else:
            parts.append((type(value), value))
    key = tuple(parts)
    try:
        hash(key)
    except TypeError:
        return None
    return key


class SeasonRuns:
    """The last ``size`` season runs by their inputs, rows parsed once, games settled once.

    ``run(args, compute)``: the run for those arguments (see :func:`fingerprint`), from
    memory or ``compute(rows, settled)``; ``compute`` gets this object's row memory
    (:meth:`rows`) and settled games (:meth:`settled`) to use. A failing ``compute``
    leaves nothing behind.
    """

    def __init__(self, size: int = 4, fast: frozenset[type] = FAST) -> None:
        self.size = size
        self.fast = fast
        self.items: OrderedDict[Hashable, tuple[Season, SeasonResult]] = OrderedDict()
        self._rows: dict[Hashable, Any] = {}  # each row's record, rows of the last run
        self._settled = SettledGames()
        self._games = 0  # games of the last run: bounds the settled games kept

    def clear(self) -> None:
        """Forget everything (the next call computes from nothing)."""
        self.items.clear()
        self._rows = {}
        self._settled = SettledGames()
        self._games = 0

    def run(self, args: Sequence[Any], compute: Callable[[RowMemo, SettledGames],
                                                      tuple[Season, SeasonResult]]
            ) -> tuple[Season, SeasonResult]:
        key = fingerprint(args, self.fast) if self.size > 0 else None
        if key is not None:
            got = self.items.get(key)
            if got is not None:
                self.items.move_to_end(key)
                return got
        memo = RowMemo(self._rows)
        season, result = compute(memo, self._settled)
        self._rows = memo.now  # the rows of this run only: bounded by the sheet
        self._games = len(memo.now)
        if len(self._settled) > 2 * self._games + 1024:  # old versions of edited games
            self._settled = SettledGames()
        if self._settled.season is not None and self._settled.season != season:
            self._settled = SettledGames()  # another season: its games settle afresh
        if key is not None:
            while len(self.items) >= self.size:
                self.items.popitem(last=False)  # the least recently used
            self.items[key] = (season, result)
        return season, result


class RowMemo:
    """Records of game rows by the row's cells and place, from the previous run; the rows
    of this run are kept in :attr:`now` (what the next run may reuse)."""

    def __init__(self, before: dict[Hashable, Any]) -> None:
        self.before = before
        self.now: dict[Hashable, Any] = {}

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The record of the row with this key: remembered, or ``make()``."""
        try:
            got = self.before.get(key, _MISSING)
        except TypeError:  # a cell value that cannot be hashed: not remembered
            return make()
        if got is _MISSING:
            got = make()
        self.now[key] = got
        return got


_MISSING = object()
