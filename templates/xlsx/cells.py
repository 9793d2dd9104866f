"""A compact store for a sheet's cells, so a league of 50,000 games fits in little memory.

openpyxl keeps one ``Cell`` object (with its own copy of the style) per value: about 400
bytes a cell, 12 KB a game. :class:`CellStore` replaces a sheet's ``_cells`` mapping: the
common cells :func:`~umaoka.templates.xlsx.styles.put` writes (numbers, text, formulas,
blanks) are kept as one small ``(value, style[, saved value])`` tuple in a list per row,
the style shared between cells. It is still the mapping openpyxl knows: asking for a cell
(``ws["F5"]``, ``ws.cell(5, 6)``, ``iter_rows``) turns that cell into a real ``Cell``
then, so every openpyxl feature keeps working on it; the fast writer
(:mod:`.writer`) reads the tuples directly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, MutableMapping
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter

_new_cell = Cell.__new__

#: Stands for "this row's number" in the text of a :class:`RowFormula` (a character of
#: Unicode's private use area: never in a formula of ours).
ROW = "\ue000"


class RowFormula:
    """A formula that is the same on every row of a column but for the row's own number,
    e.g. ``=IF(ISNUMBER(R{row}),...)``: one object serves the whole column, where 50,000
    rows would each hold their own text. Written (and turned into an openpyxl cell) as
    the text of its row.

    >>> f = RowFormula(f"=SUM(E{ROW}:H{ROW})")
    >>> f.at(12)
    '=SUM(E12:H12)'
    """

    __slots__ = ("parts", "shared")

    def __init__(self, text: str, shared: bool = True) -> None:
        self.parts = tuple(text.split(ROW))
        #: written as Excel's shared formulas (one text for a run of rows), or each cell in
        #: full: LibreOffice recalculates a shared run on load when it depends on an array
        #: formula, where it keeps a full formula's saved value
        self.shared = shared

    def at(self, row: int) -> str:
        """The formula's text in ``row``."""
        return str(row).join(self.parts)

    def __repr__(self) -> str:
        shared = "" if self.shared else ", shared=False"
        return f"RowFormula({'{row}'.join(self.parts)!r}{shared})"


#: A compact cell's data type follows from its value's type (see :func:`kind_of`).
_KINDS = {int: "n", float: "n", bool: "b", type(None): "n", RowFormula: "f",
          dt.date: "d", dt.datetime: "d"}


def kind_of(value: Any) -> str:
    """openpyxl's data type of a compact value: text, formula (``=...``) or number."""
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    if type(value) is str:
        return "f" if len(value) > 1 and value[0] == "=" else "s"
    return "n"  # Decimal


#: An empty place in a row's list of values (None is a blank cell with a style).
ABSENT = object()


class CellStore(MutableMapping):  # type: ignore[type-arg]
    """``ws._cells``: ``(row, col) -> Cell`` for openpyxl, compact lists underneath.

    ``rows[row]`` is ``[values, styles, saved values or None]``, three lists indexed by
    column; :data:`ABSENT` marks a column without a compact cell. Saved values belong to
    the place (as ``save_value`` always had it), whether the cell there is compact or real.
    """

    __slots__ = ("ws", "real", "real_rows", "rows", "count", "saved")

    def __init__(self, ws: Any, cells: dict[tuple[int, int], Any]):
        self.ws = ws
        self.real: dict[tuple[int, int], Any] = dict(cells)  # real Cell objects
        #: every row that has held a real cell (a compact cell put elsewhere replaces none)
        self.real_rows: set[int] = {row for row, _ in self.real}
        self.rows: dict[int, list[Any]] = {}
        self.count = 0  # compact cells
        self.saved: dict[tuple[int, int], Any] = {}  # saved values of other places

    # -- written by put / save_value --------------------------------------------------------
    def put(self, row: int, col: int, value: Any, style: Any) -> None:
        """Keep one cell compactly (value as openpyxl would store it, style shared)."""
        if row in self.real_rows:
            self.real.pop((row, col), None)
        entry = self.rows.get(row)
        if entry is None:
            vals = [ABSENT] * (col + 1)
            stys = [None] * (col + 1)
            self.rows[row] = [vals, stys, None]
        else:
            vals, stys = entry[0], entry[1]
            if len(vals) <= col:
                grow = col + 1 - len(vals)
                vals.extend([ABSENT] * grow)
                stys.extend([None] * grow)
                if entry[2] is not None:
                    entry[2].extend([ABSENT] * grow)
        if vals[col] is ABSENT:
            self.count += 1
        vals[col] = value
        stys[col] = style

    def put_row(self, row: int, values: list[Any], styles: list[Any],
                saved: list[Any] | None = None, count: int | None = None) -> None:
        """Keep a whole row of compact cells at once: ``values[col]``, ``styles[col]`` and
        ``saved[col]`` (formulas' saved values) by column, :data:`ABSENT` where there is
        none; ``count``, if the caller counted them, the values that are not ABSENT. The
        lists become the store's own."""
        if row in self.rows:  # a row written before: cell by cell
            for col, value in enumerate(values):
                if value is not ABSENT:
                    self.put(row, col, value, styles[col])
                    if saved is not None and saved[col] is not ABSENT:
                        self.save(row, col, saved[col])
            return
        real = self.real if row in self.real_rows else None
        if count is None or real is not None:
            count = 0
            for col, value in enumerate(values):
                if value is not ABSENT:
                    count += 1
                    if real is not None:
                        real.pop((row, col), None)
        self.rows[row] = [values, styles, saved]
        self.count += count

    def save(self, row: int, col: int, value: Any) -> None:
        """Record a formula's saved value."""
        entry = self.rows.get(row)
        if entry is not None and col < len(entry[0]) and entry[0][col] is not ABSENT:
            if entry[2] is None:
                entry[2] = [ABSENT] * len(entry[0])
            entry[2][col] = value
            self.saved.pop((row, col), None)
        else:
            self.saved[(row, col)] = value

    def saved_at(self, row: int, col: int, default: Any) -> Any:
        entry = self.rows.get(row)
        if entry is not None and entry[2] is not None and col < len(entry[2]) \
                and entry[2][col] is not ABSENT:
            return entry[2][col]
        return self.saved.get((row, col), default)

    def dimension(self) -> str:
        """The range the cells span, e.g. ``"A1:Y50004"``: openpyxl's
        ``Worksheet.calculate_dimension``, from the row lists instead of every key."""
        rows: list[int] = []
        cols: list[int] = []
        for row, col in self.real:
            rows.append(row)
            cols.append(col)
        for row, (vals, _, _) in self.rows.items():
            last = len(vals) - 1
            while last >= 0 and vals[last] is ABSENT:
                last -= 1
            if last < 0:
                continue
            first = 0
            while vals[first] is ABSENT:
                first += 1
            rows.append(row)
            cols += (first, last)
        if not rows:
            return "A1:A1"
        return (f"{get_column_letter(min(cols))}{min(rows)}:"
                f"{get_column_letter(max(cols))}{max(rows)}")

    def compact(self, row: int, col: int) -> bool:
        entry = self.rows.get(row)
        return entry is not None and col < len(entry[0]) and entry[0][col] is not ABSENT

    def _drop(self, row: int, col: int) -> tuple[Any, Any]:
        """Remove a compact cell (its saved value stays with the place): value, style."""
        entry = self.rows[row]
        value, style = entry[0][col], entry[1][col]
        entry[0][col] = ABSENT
        entry[1][col] = None
        if entry[2] is not None and entry[2][col] is not ABSENT:
            self.saved[(row, col)] = entry[2][col]
            entry[2][col] = ABSENT
        self.count -= 1
        return value, style

    # -- the mapping openpyxl uses ----------------------------------------------------------
    def _take(self, row: int, col: int) -> Any:
        """Turn a compact cell into a real one (None if there is none)."""
        if not self.compact(row, col):
            return None
        value, style = self._drop(row, col)
        if type(value) is RowFormula:
            value = value.at(row)
        cell = _new_cell(Cell)
        cell.parent = self.ws
        cell.row = row
        cell.column = col
        cell._style = StyleArray(style) if style is not None else None
        cell._value = value
        cell.data_type = kind_of(value)
        cell._hyperlink = None
        cell._comment = None
        self.real[(row, col)] = cell
        self.real_rows.add(row)
        return cell

    def __getitem__(self, key: tuple[int, int]) -> Any:
        cell = self.real.get(key)
        if cell is None:
            cell = self._take(*key)
            if cell is None:
                raise KeyError(key)
        return cell

    def __setitem__(self, key: tuple[int, int], cell: Any) -> None:
        if self.compact(*key):
            self._drop(*key)
        self.real[key] = cell
        self.real_rows.add(key[0])

    def __delitem__(self, key: tuple[int, int]) -> None:
        if self.compact(*key):
            self._drop(*key)
        else:
            del self.real[key]

    def __contains__(self, key: object) -> bool:
        if key in self.real:
            return True
        try:
            return self.compact(*key)  # type: ignore[misc]
        except TypeError:
            return False

    def __iter__(self) -> Iterator[tuple[int, int]]:
        yield from list(self.real)
        for row, entry in list(self.rows.items()):
            for col, value in enumerate(entry[0]):
                if value is not ABSENT:
                    yield (row, col)

    def __len__(self) -> int:
        return len(self.real) + self.count


def store_of(ws: Any) -> CellStore:
    """The sheet's :class:`CellStore`, installed on first use."""
    cells = ws._cells
    if type(cells) is not CellStore:
        cells = ws._cells = CellStore(ws, cells)
    return cells
