"""Recalculation without rework: a block of games settles again only where it changed.

When one score of a league tab changes, Excel calls the tab's ``MJ_SETTLE`` with the whole
block of games again (50,000 rows in a big league). :class:`Blocks` keeps the last few
blocks a function computed, by a key the caller gives (its ruleset, the block's shape):
the rows whose inputs are equal to the last call's keep their results, and only the others
are computed again.

Equal means equal as Excel's values: numbers, text and blanks. A block holding anything
else (TRUE/FALSE, which Python counts as 1 and 0, or an Office.js value object) is not
remembered, and the caller computes it in full.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import chain, compress
from operator import ne
from typing import Any

#: The types of cell values compared by ``==`` as Excel compares them (1.0 and 1 are the
#: same number; text is never equal to a number; None is a blank).
PLAIN = frozenset({float, int, str, type(None)})


def _snapshot(rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """The rows as tuples: a copy the caller cannot change afterwards."""
    return list(map(tuple, rows))


class Blocks:
    """The results of the last ``size`` blocks of rows, by key.

    >>> blocks = Blocks()
    >>> calls = []
    >>> def double(rows):
    ...     return blocks.rows("x2", (rows,), lambda i: calls.append(i) or [2 * rows[i][0]])
    >>> double([[1], [2], [3]]), calls
    ([[2], [4], [6]], [0, 1, 2])
    >>> double([[1], [5], [3]]), calls  # only the changed row is computed again
    ([[2], [10], [6]], [0, 1, 2, 1])
    """

    def __init__(self, size: int = 4, plain: frozenset[type] = PLAIN) -> None:
        self.size = size
        self.plain = plain
        self.items: dict[Hashable, tuple[list[list[tuple[Any, ...]] | None], list[Any]]] = {}

    def rows(self, key: Hashable, columns: tuple[Sequence[Sequence[Any]] | None, ...],
             row: Callable[[int], Any], copy: bool = True,
             every: Callable[[], list[Any]] | None = None) -> list[Any] | None:
        """Every row's result, ``row(i)`` computed only for the rows that changed.

        ``columns``: the per-row inputs, each a list of rows (one per result row) or None;
        the first one gives the number of rows. None when an input is not plain values
        (the caller computes the block itself). ``copy``: each result is a list the caller
        gets a copy of (not when the caller never changes them). ``every()``: all rows'
        results at once, when that is quicker than ``row`` one by one (a first call).
        """
        count = len(columns[0] or ())
        for col in columns:
            if col is not None and (len(col) != count or not self._plain(col)):
                return None
        now = [None if col is None else _snapshot(col) for col in columns]
        full = (key, count, tuple(col is None for col in now))
        before = self.items.pop(full, None)
        if before is None:
            out = every() if every is not None else [row(i) for i in range(count)]
        else:
            old, out = before[0], list(before[1])
            changed = set()
            for new_col, old_col in zip(now, old):
                if new_col is not None:
                    changed.update(compress(range(count), map(ne, new_col, old_col)))
            for i in sorted(changed):
                out[i] = row(i)
        if self.size > 0:
            while len(self.items) >= self.size:
                del self.items[next(iter(self.items))]  # the least recently used
            self.items[full] = (now, out)
        # the caller's copy: the results kept stay as computed
        return [list(r) for r in out] if copy else list(out)

    def _plain(self, rows: Sequence[Sequence[Any]]) -> bool:
        try:
            return set(map(type, chain.from_iterable(rows))) <= self.plain
        except TypeError:  # a row that is not a list of cells
            return False
