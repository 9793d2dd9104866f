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

import gc
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from itertools import chain, compress, count
from operator import itemgetter, ne
from typing import Any

from umaoka.engine.batch import paused_gc
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
    """The last ``size`` season runs by their inputs, rows read once, games settled once.

    ``run(args, compute)``: the run for those arguments (see :func:`fingerprint`), from
    memory or ``compute(rows, settled)``; ``compute`` gets a :class:`GridMemo` (each games
    range's rows and records of the last run) and the settled games (the engine's
    :class:`~umaoka.engine.season.stages.SettledGames`) to use. A failing ``compute``
    leaves nothing behind.

    Checking the arguments costs little after an edit: a range is compared with the last
    call's copy with ``==`` (in C), and only its rows that differ, or that held 0 or 1 (the
    values TRUE and FALSE equal), are looked at cell by cell for their types. Excel's
    values are numbers, texts, TRUE/FALSE, blanks and Office.js objects (dicts), so TRUE
    and FALSE are the only values that compare equal to a number or a text of another type.
    """

    def __init__(self, size: int = 4, fast: frozenset[type] = FAST) -> None:
        self.size = size
        self.fast = fast
        self.items: OrderedDict[Hashable, tuple[Season, SeasonResult]] = OrderedDict()
        self._grids: dict[Hashable, Any] = {}  # each games range's rows of the last run
        self._settled = SettledGames()
        self._games = 0  # rows of the last run: bounds the settled games kept
        #: the last call's arguments (ranges copied, with the rows holding 0 or 1) and run,
        #: when its ranges held plain values
        self._last: tuple[list[Any], list[set[int] | None],
                          tuple[Season, SeasonResult]] | None = None
        #: this call's ranges against the last call's: the rows that differ, where known
        self._diffs: list[set[int] | None] = []

    def clear(self) -> None:
        """Forget everything (the next call computes from nothing)."""
        self.items.clear()
        self._grids = {}
        self._settled = SettledGames()
        self._games = 0
        self._last = None

    def run(self, args: Sequence[Any], compute: Callable[[GridMemo | None, SettledGames | None],
                                                      tuple[Season, SeasonResult]]
            ) -> tuple[Season, SeasonResult]:
        if self.size <= 0:  # nothing remembered: the plain path, as a first run would take
            return compute(None, None)
        plain, same = self._against_last(args)
        if same:
            return self._last[2]  # type: ignore[index]
        key = None
        if not self._like_last(args, plain):  # another season's formula, or the first call
            key = fingerprint(args, self.fast)
            if key is not None:
                got = self.items.get(key)
                if got is not None:
                    self.items.move_to_end(key)
                    self._keep_last(args, plain, got)
                    return got
        memo = GridMemo(self._grids, {id(a) for a, p in zip(args, plain) if p})
        with paused_gc():  # a run makes many objects that live on: not scanned as it goes
            season, result = compute(memo, self._settled)
        self._grids = memo.now  # the rows of this run only: bounded by the sheet
        self._games = memo.rows
        if len(self._settled) > 2 * self._games + 1024:  # old versions of edited games
            self._settled = SettledGames()
        if self._settled.season is not None and self._settled.season != season:
            self._settled = SettledGames()  # another season: its games settle afresh
        if key is not None:
            while len(self.items) >= self.size:
                self.items.popitem(last=False)  # the least recently used
            self.items[key] = (season, result)
        self._keep_last(args, plain, (season, result))
        # What a run keeps (its records, settled games, result) lives until the next runs
        # replace it: out of the cycle collector's way from now on, so a full collection in
        # a later request (xlwings Server decodes every request's ranges afresh, and those
        # new lists trigger collections) does not walk the whole season again. They are
        # freed by their reference counts when replaced (they hold no cycles).
        gc.freeze()
        return season, result

    def _plain(self, value: list[Any]) -> bool:
        """A range of numbers, texts and blanks only (rows of them, or one flat row)."""
        if set(map(type, value)) <= _LISTS:
            return set(map(type, chain.from_iterable(value))) <= self.fast
        return set(map(type, value)) <= self.fast

    def _against_last(self, args: Sequence[Any]) -> tuple[list[bool], bool]:
        """Which list arguments hold plain values only (see :meth:`_plain`), and whether
        every argument equals the last call's (ranges of plain values compared with ``==``,
        anything else by type and value)."""
        last = self._last
        comparable = last is not None and len(last[0]) == len(args)
        plain = [False] * len(args)
        self._diffs = [None] * len(args)
        same = comparable
        for k, now in enumerate(args):
            before = last[0][k] if comparable else None  # type: ignore[index]
            if type(now) is not list:
                same = same and type(now) is type(before) and now == before
                continue
            risky = last[1][k] if comparable else None  # type: ignore[index]
            if risky is None or type(before) is not list or len(before) != len(now) \
                    or set(map(type, now)) != _LISTS:
                plain[k] = self._plain(now)
                same = same and plain[k] and now == before
                continue
            # rows like the last call's (plain): look at the rows that differ and the rows
            # where TRUE or FALSE could pass for the number 1 or 0 there before
            rows = set(compress(count(), map(ne, now, before)))
            # every cell of those rows in one pass in C: with desktop Excel's blanks (0) in
            # every row, a loop over the rows in Python cost 60 ms a call at 10,000 games
            check = rows.union(risky)
            picked = (itemgetter(*check)(now) if len(check) > 1 else
                      [now[r] for r in check])
            plain[k] = set(map(type, chain.from_iterable(picked))) <= self.fast
            same = same and plain[k] and not rows
            self._diffs[k] = rows
        return plain, same

    def _like_last(self, args: Sequence[Any], plain: list[bool]) -> bool:
        """Whether these arguments look like the last call's after an edit: the same values
        outside the ranges, ranges of the same sizes, most of them equal (the same season's
        formula; another season's is looked up by :func:`fingerprint`)."""
        last = self._last
        if last is None or len(last[0]) != len(args):
            return False
        lists = equal = 0
        for now, before, ok in zip(args, last[0], plain):
            if type(now) is not list:
                if type(now) is not type(before) or now != before:
                    return False
                continue
            if type(before) is not list or len(now) != len(before) or not ok:
                return False
            lists += 1
            equal += now == before
        return 2 * equal >= lists

    def _keep_last(self, args: Sequence[Any], plain: list[bool],
                   run: tuple[Season, SeasonResult]) -> None:
        """Keep a copy of the arguments (ranges of plain values only) for the next call,
        with each range's rows that hold 0 or 1; a range compared row by row with the last
        call's is copied from that copy, its differing rows anew."""
        last, diffs = self._last, self._diffs
        self._last = None
        copied: list[Any] = []
        risky: list[set[int] | None] = []
        for k, (value, ok) in enumerate(zip(args, plain)):
            rows = None
            if type(value) is list:
                if not ok:
                    return
                changed = diffs[k] if k < len(diffs) and last is not None else None
                if changed is not None:
                    before, rows = list(last[0][k]), set(last[1][k])  # type: ignore[index,arg-type]
                    for r in changed:
                        before[r] = list(value[r])
                        if 0 in before[r] or 1 in before[r]:
                            rows.add(r)
                        else:
                            rows.discard(r)
                    value = before
                elif set(map(type, value)) == _LISTS:
                    value = list(map(list, value))
                    rows = {i for i, r in enumerate(value) if 0 in r or 1 in r}
                else:
                    value = list(value)
            elif isinstance(value, (tuple, dict, set)):
                return
            copied.append(value)
            risky.append(rows)
        self._last = (copied, risky, run)


class GridMemo:
    """Each games range's rows (a copy) and records from the last run, by the range's
    layout; this run's in :attr:`now` (what the next run may reuse). A range of plain
    values (:meth:`plain`) that has as many rows as the last time makes records of the rows
    that differ only."""

    def __init__(self, before: dict[Hashable, Any], plain: set[int] | frozenset[int] = frozenset()
                 ) -> None:
        self.before = before
        self.now: dict[Hashable, Any] = {}
        self.rows = 0  # rows read in this run
        self._plain = plain

    def plain(self, grid: Any) -> bool:
        """Whether a range argument of this call holds numbers, texts and blanks only."""
        return id(grid) in self._plain

    def records(self, key: Hashable, grid: list[list[Any]],
                make: Callable[[int, list[Any]], Any]) -> list[Any]:
        """``make(row number, row)`` for each row, those of rows equal to the last run's
        (of the range with this ``key``) taken from then."""
        kept = self.before.get(key)
        if kept is not None and len(kept[0]) == len(grid):
            rows, slots = list(kept[0]), list(kept[1])
            for k in compress(count(), map(ne, grid, kept[0])):
                rows[k] = list(grid[k])
                slots[k] = make(k + 1, grid[k])
        else:
            rows = list(map(list, grid))
            slots = [make(k, raw) for k, raw in enumerate(grid, 1)]
        self.now[key] = (rows, slots)
        self.rows += len(rows)
        return slots
