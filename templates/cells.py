"""A compact store for a sheet's cells, so a league of 50,000 games fits in little memory.

openpyxl keeps one ``Cell`` object (with its own copy of the style) per value: about 400
bytes a cell, 12 KB a game. :class:`CellStore` replaces a sheet's ``_cells`` mapping: the
common cells :func:`~umaoka.templates.styles.put` writes (numbers, text, formulas,
blanks) are kept as one small ``(value, style[, saved value])`` tuple in a list per row,
the style shared between cells. It is still the mapping openpyxl knows: asking for a cell
(``ws["F5"]``, ``ws.cell(5, 6)``, ``iter_rows``) turns that cell into a real ``Cell``
then, so every openpyxl feature keeps working on it; the fast writer
(:mod:`.writer`) reads the tuples directly.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from openpyxl.cell.cell import Cell
from openpyxl.styles.cell_style import StyleArray

_new_cell = Cell.__new__
#: A compact cell's data type follows from its value's type (see :func:`kind_of`).
_KINDS = {int: "n", float: "n", bool: "b", type(None): "n"}


def kind_of(value: Any) -> str:
    """openpyxl's data type of a compact value: text, formula (``=...``) or number."""
    kind = _KINDS.get(type(value))
    if kind is not None:
        return kind
    if type(value) is str:
        return "f" if len(value) > 1 and value[0] == "=" else "s"
    return "n"  # Decimal


class CellStore(MutableMapping):  # type: ignore[type-arg]
    """``ws._cells``: ``(row, col) -> Cell`` for openpyxl, compact tuples underneath."""

    __slots__ = ("ws", "real", "rows", "count", "saved")

    def __init__(self, ws: Any, cells: dict[tuple[int, int], Any]):
        self.ws = ws
        self.real: dict[tuple[int, int], Any] = dict(cells)  # real Cell objects
        self.rows: dict[int, list[Any]] = {}  # row -> [None | (value, style[, saved])]
        self.count = 0  # compact cells
        self.saved: dict[tuple[int, int], Any] = {}  # saved values of real cells

    # -- written by put / save_value --------------------------------------------------------
    def put(self, row: int, col: int, value: Any, style: Any) -> None:
        """Keep one cell compactly (value as openpyxl would store it, style shared)."""
        if self.real:
            self.real.pop((row, col), None)
        cells = self.rows.get(row)
        if cells is None:
            cells = self.rows[row] = [None] * (col + 1)
        elif len(cells) <= col:
            cells.extend([None] * (col + 1 - len(cells)))
        if cells[col] is None:
            self.count += 1
        cells[col] = (value, style)

    def save(self, row: int, col: int, value: Any) -> None:
        """Record a formula's saved value."""
        cells = self.rows.get(row)
        rec = cells[col] if cells is not None and col < len(cells) else None
        if rec is not None:
            cells[col] = (rec[0], rec[1], value)  # type: ignore[index]
        else:
            self.saved[(row, col)] = value

    def compact(self, row: int, col: int) -> Any:
        cells = self.rows.get(row)
        return cells[col] if cells is not None and col < len(cells) else None

    # -- the mapping openpyxl uses ----------------------------------------------------------
    def _take(self, row: int, col: int) -> Any:
        """Turn a compact cell into a real one (None if there is none)."""
        cells = self.rows.get(row)
        rec = cells[col] if cells is not None and col < len(cells) else None
        if rec is None:
            return None
        cells[col] = None  # type: ignore[index]
        self.count -= 1
        value, style = rec[0], rec[1]
        cell = _new_cell(Cell)
        cell.parent = self.ws
        cell.row = row
        cell.column = col
        cell._style = StyleArray(style) if style is not None else None
        cell._value = value
        cell.data_type = kind_of(value)
        cell._hyperlink = None
        cell._comment = None
        if len(rec) > 2:
            self.saved[(row, col)] = rec[2]
        self.real[(row, col)] = cell
        return cell

    def __getitem__(self, key: tuple[int, int]) -> Any:
        cell = self.real.get(key)
        if cell is None:
            cell = self._take(*key)
            if cell is None:
                raise KeyError(key)
        return cell

    def __setitem__(self, key: tuple[int, int], cell: Any) -> None:
        if self.compact(*key) is not None:
            self.rows[key[0]][key[1]] = None
            self.count -= 1
        self.real[key] = cell

    def __delitem__(self, key: tuple[int, int]) -> None:
        if self.compact(*key) is not None:
            self.rows[key[0]][key[1]] = None
            self.count -= 1
        else:
            del self.real[key]

    def __contains__(self, key: object) -> bool:
        if key in self.real:
            return True
        try:
            return self.compact(*key) is not None  # type: ignore[misc]
        except TypeError:
            return False

    def __iter__(self) -> Iterator[tuple[int, int]]:
        yield from list(self.real)
        for row, cells in list(self.rows.items()):
            for col, rec in enumerate(cells):
                if rec is not None:
                    yield (row, col)

    def __len__(self) -> int:
        return len(self.real) + self.count


def store_of(ws: Any) -> CellStore:
    """The sheet's :class:`CellStore`, installed on first use."""
    cells = ws._cells
    if type(cells) is not CellStore:
        cells = ws._cells = CellStore(ws, cells)
    return cells
