"""MJ_SEASON without rework: one season run shared by the formulas that show it.

The template's Season standings has one ``MJ_SEASON`` formula per stage and table (players,
teams), all with the same games, settings and penalties; after one typed score Excel calls
every one of them. :class:`SeasonRuns` keeps the last few season runs by their inputs (every
argument but the table chosen), so the formulas after the first take its run, and keeps
what does not change between runs: each game row's record (by the row's cells) and each
game's settlement (the engine's :class:`~umaoka.engine.season.stages.SettledGames`), so a run after
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

from umaoka.engine.season.stages import Season, SeasonResult, SettledGames

#: Cell types whose ``==`` is the value's identity for MJ_SEASON (a blank is None, or
#: JavaScript's null in xlwings Lite, added by the caller): numbers (float or int: MJ_SEASON
#: reads a whole float as an int), texts. Anything else (bool: TRUE == 1 in Python; dates)
#: is compared with its type.
FAST = frozenset({float, int, str, type(None)})

_ROWS = frozenset({list, tuple})
_LISTS = frozenset({list})


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
        #: the last call's arguments (a copy) and run, when its ranges held plain values
        self._last: tuple[list[Any], tuple[Season, SeasonResult]] | None = None

    def clear(self) -> None:
        """Forget everything (the next call computes from nothing)."""
        self.items.clear()
        self._rows = {}
        self._settled = SettledGames()
        self._games = 0
        self._last = None

    def run(self, args: Sequence[Any], compute: Callable[[RowMemo, SettledGames],
                                                      tuple[Season, SeasonResult]]
            ) -> tuple[Season, SeasonResult]:
        if self.size <= 0:
            return compute(RowMemo({}), SettledGames())
        same = self._same_as_last(args)  # the template's formulas after the first: no copy
        if same is not None:
            return same
        key = fingerprint(args, self.fast)
        if key is not None:
            got = self.items.get(key)
            if got is not None:
                self.items.move_to_end(key)
                self._keep_last(args, got)
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
            self._keep_last(args, (season, result))
        return season, result

    def _plain(self, value: list[Any]) -> bool:
        """A range of numbers, texts and blanks only (rows of them, or one flat row)."""
        if set(map(type, value)) <= _LISTS:
            return set(map(type, chain.from_iterable(value))) <= self.fast
        return set(map(type, value)) <= self.fast

    def _same_as_last(self, args: Sequence[Any]) -> tuple[Season, SeasonResult] | None:
        """The last call's run when these arguments equal its arguments (ranges of plain
        values compared with ``==``, in C; anything else by type and value)."""
        last = self._last
        if last is None or len(last[0]) != len(args):
            return None
        for now, before in zip(args, last[0]):
            if type(now) is list:
                if type(before) is not list or not self._plain(now) or now != before:
                    return None
            elif type(now) is not type(before) or now != before:
                return None
        return last[1]

    def _keep_last(self, args: Sequence[Any], run: tuple[Season, SeasonResult]) -> None:
        self._last = None
        copied: list[Any] = []
        for value in args:
            if type(value) is list:
                if not self._plain(value):
                    return
                value = [list(r) if type(r) is list else r for r in value]
            elif isinstance(value, (tuple, dict, set)):
                return
            copied.append(value)
        self._last = (copied, run)


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
