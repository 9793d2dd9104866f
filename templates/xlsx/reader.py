"""Reading the cells of a worksheet quickly and safely: :class:`_SheetRows`.

A league tab of 50,000 games is 50 MB of XML and millions of elements. openpyxl's reader
makes an object of each; expat hands each to a Python function. Most of them are cells a
read does not need (the results columns, empty input cells), so a regular expression
takes those out first, in C, and expat parses what is left.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any
from xml.parsers import expat

from openpyxl.utils.cell import (
    CellCoordinatesException,
    column_index_from_string,
    coordinate_from_string,
    get_column_letter,
)

from umaoka.engine import UmaokaError

#: Excel's last row: a cell address beyond it is a damaged or hostile file.
EXCEL_ROWS = 1_048_576
EXCEL_COLUMNS = 16_384
#: Columns before the players (date, session, table, game): a formula there is fine when the
#: file carries its computed value (e.g. a date typed as =A5+7).
INFO_COLUMNS = 4


class _SheetRows:
    """Cells of the first ``width`` columns of a sheet from row ``first`` on, read with expat.

    Several times faster than openpyxl's reader for big league tabs. Like defusedxml, it
    refuses any DTD, so no entity can be declared or expanded. Values: numbers, text,
    booleans; dates stay Excel serial numbers (the settled copy formats them as dates),
    ISO dates of ``t="d"`` cells become dates. Formulas are reported as ``_Formula`` so
    input columns can refuse them; in the first ``INFO_COLUMNS`` columns a formula's saved
    value is used. Cells without an address follow the previous cell, as the format allows.
    Anything damaged is one :class:`UmaokaError` naming the sheet. Only rows holding data
    are kept (a value typed at row 1,048,576 costs one row), at most ``limit`` of them;
    ``most``: the games a whole workbook holds, for the message when there are more (0: a
    sheet of one row a league tab or stage, of which a workbook holds at most ``tabs``).

    Before expat sees the sheet, one regular expression takes out the cells that cannot
    change what is read (see :func:`_skippable`): a league tab's columns of results and
    its empty input cells are most of its XML.
    """

    def __init__(self, ws: Any, first: int, width: int, limit: int, most: int | None = None,
                 tabs: int = 0):
        self.ws, self.first, self.width, self.limit = ws, first, width, limit
        # 0: not a games sheet (the layout sheet, the stage table): one row a league tab
        self.most = limit if most is None else most
        self.tabs = tabs
        self.rows: dict[int, list[Any]] = {}
        self._strings = ws._shared_strings
        self._cell: tuple[int, int] | None = None
        self._row = 0
        self._col = 0
        self._kind = ""
        self._text: list[str] = []
        self._collect = False
        self._formula = False
        self._columns = _columns()

    def _damaged(self, why: str) -> UmaokaError:
        return UmaokaError(f"sheet \"{self.ws.title}\" is damaged ({why}); open and save it in "
                           "Excel, or copy the games into a fresh template.")

    def read(self) -> dict[int, list[Any]]:
        try:
            return self._read(_skippable(self.width))
        except _Unfiltered:  # a sheet whose cells depend on the ones taken out: read again
            self.rows, self._cell, self._row, self._col = {}, None, 0, 0
            return self._read(None)

    def _read(self, skip: re.Pattern[bytes] | None) -> dict[int, list[Any]]:
        parser = expat.ParserCreate()
        parser.buffer_text = True

        def forbid(*_args: Any) -> None:
            raise UmaokaError(f"{self.ws.title} contains a DTD; refusing to read it.")

        parser.StartDoctypeDeclHandler = forbid
        parser.EntityDeclHandler = forbid
        parser.ExternalEntityRefHandler = forbid
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._chars
        try:
            with self.ws.parent._archive.open(self.ws._worksheet_path) as fh:
                for piece in _pieces(fh, skip):
                    parser.Parse(piece, False)
                parser.Parse(b"", True)
        except expat.ExpatError as e:
            raise self._damaged(f"XML error: {expat.ErrorString(e.code)}, line {e.lineno}"
                                ) from None
        return self.rows

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        # most elements are cells out of the columns we read, and their children: those
        # cost a test or two (a league tab has millions of elements)
        if name == "c" or name.endswith(":c"):
            ref = attrs.get("r")
            if ref:
                letters = ref.rstrip("0123456789")
                c = self._columns.get(letters, 0)
                digits = ref[len(letters):]
                if c and digits and digits[0] != "0":
                    row = int(digits)
                else:
                    row, c = self._address(ref)
                if row > EXCEL_ROWS:
                    raise self._damaged(f"a cell below Excel's last row ({ref[:20]})")
            else:
                row, c = self._row, self._col + 1
            self._row, self._col = row, c
            if row >= self.first and c <= self.width:
                self._cell = (row, c)
                self._kind = attrs.get("t", "n")
                self._text = []
                self._formula = False
            else:
                self._cell = None
        elif name == "row" or name.endswith(":row"):
            self._row = self._number(attrs.get("r"), self._row + 1, "row number")
            self._col = 0
        elif self._cell is not None:
            tag = name.rpartition(":")[2]
            if tag in ("v", "t"):
                self._collect = True
            elif tag == "f":
                self._formula = True

    def _address(self, ref: str) -> tuple[int, int]:
        """(row, column) of an address that is not plain (lower case, ``$``...)."""
        try:
            col, row = coordinate_from_string(ref)
            return row, column_index_from_string(col)
        except (ValueError, CellCoordinatesException):
            raise self._damaged(f'cell address "{ref[:20]}"') from None

    def _number(self, text: str | None, default: int, what: str) -> int:
        if text is None:
            return default
        try:
            n = int(text)
        except ValueError:
            raise self._damaged(f'{what} "{text[:20]}"') from None
        if not 0 < n <= EXCEL_ROWS:
            raise self._damaged(f"{what} {n} outside Excel's rows")
        return n

    def _chars(self, data: str) -> None:
        if self._collect:
            self._text.append(data)

    def _end(self, name: str) -> None:
        if self._cell is None:  # nothing we keep is open (a cell out of range, a row...)
            return
        if not self._text and not self._formula and self._kind != "b" \
                and (name == "c" or name.endswith(":c")):
            self._cell = None  # a blank cell (most input cells of a league tab): no value
            return
        tag = name.rpartition(":")[2]
        if tag in ("v", "t"):
            self._collect = False
        elif tag == "c" and self._cell is not None:
            row, col = self._cell
            text = "".join(self._text)
            value: Any
            if self._formula and (col > INFO_COLUMNS or text == ""):
                value = _Formula(f"{get_column_letter(col)}{row}")
            elif self._kind == "s":
                try:
                    value = self._strings[int(text)] if text else None
                except (ValueError, IndexError):
                    raise self._damaged(f"{get_column_letter(col)}{row} points to a missing "
                                        "shared text") from None
            elif self._kind in ("inlineStr", "str", "e"):
                value = text
            elif self._kind == "b":
                value = text == "1"
            elif self._kind == "d":
                try:
                    value = dt.datetime.fromisoformat(text) if text else None
                except ValueError:
                    value = text
            elif text == "":
                value = None
            else:
                try:
                    value = int(text)
                except ValueError:
                    try:
                        value = float(text)
                    except ValueError:
                        raise self._damaged(f'{get_column_letter(col)}{row} holds "{text[:20]}" '
                                            "as a number") from None
            if isinstance(value, str) and not value.strip():
                value = None
            if value is not None:
                if row not in self.rows and len(self.rows) >= self.limit:
                    if not self.most:  # one row a league tab or stage: not games
                        raise UmaokaError(
                            f'sheet "{self.ws.title}" has more than {self.limit:,} rows of '
                            f"data; a league workbook holds at most {self.tabs} league "
                            "tabs or stages: split the season into workbooks.")
                    raise UmaokaError(
                        f'sheet "{self.ws.title}" has more than {self.limit:,} rows of data; '
                        f"a league workbook holds at most {self.most:,} games: split the "
                        "league into seasons, one workbook each.")
                self.rows.setdefault(row, [None] * self.width)[col - 1] = value
            self._cell = None


@functools.cache
def _columns() -> dict[str, int]:
    """Excel's column letters (A to XFD) and their numbers."""
    return {get_column_letter(c): c for c in range(1, EXCEL_COLUMNS + 1)}


def _address(ref: str) -> tuple[int, int]:
    """(row, column) of a plain address such as ``B12`` (what Excel writes), fast; (0, 0)
    for anything else (lower case, ``$``, leading zeros), which openpyxl's parser reads."""
    letters = ref.rstrip("0123456789")
    digits = ref[len(letters):]
    c = _columns().get(letters, 0)
    if not c or not digits or digits[0] == "0":
        return 0, 0
    return int(digits), c




@dataclass
class _Formula:
    """A formula met in an input cell (its place, for the message)."""

    coordinate: str


#: How much of a sheet's XML is read and filtered at a time.
CHUNK = 1 << 20


@functools.cache
def _skippable(width: int) -> re.Pattern[bytes]:
    """The cells a read of the first ``width`` columns can do without, as expat would see
    them: cells right of those columns, and empty cells (only a style). Only plain
    addresses (as every writer of ours and Excel's writes them) of rows below 1,000,000,
    which can never be a damaged address or beyond Excel's last row; a cell's content runs
    to its first ``</c>`` (cells do not nest; markup in text is escaped)."""
    nxt = get_column_letter(width + 1) if width < EXCEL_COLUMNS else ""
    if len(nxt) == 1:
        right = f"[{nxt}-Z]|[A-Z]{{2,3}}"
    elif len(nxt) == 2:
        later = chr(ord(nxt[0]) + 1)
        right = f"{nxt[0]}[{nxt[1]}-Z]" + (f"|[{later}-Z][A-Z]" if nxt[0] < "Z" else "") \
            + "|[A-Z]{3}"
    else:
        right = ""
    row = '[1-9][0-9]{0,5}"'
    blank = f'[A-Z]{{1,3}}{row}(?: s="[0-9]+")?/>'
    beyond = rf'(?:{right}){row}(?:\s+[\w:.-]+="[^"<]*")*\s*(?:/>|>.*?</c>)' if right else ""
    return re.compile(f'<c r="(?:{beyond + "|" if beyond else ""}{blank})'.encode(), re.S)


#: A cell whose tag does not start with its address, or a row without its number: their
#: place follows the cell before them.
_UNPLACED = re.compile(rb'<c(?:>|/>|\s(?!r="))|<row(?![^<>]*\sr=")[\s/>]')


class _Unfiltered(Exception):
    """Cells were taken out of a sheet that turns out to need them: read it as it is."""


def _pieces(fh: IO[bytes], skip: re.Pattern[bytes] | None) -> Iterator[bytes]:
    """A sheet part's bytes in pieces of whole rows, without the cells ``skip`` matches.

    Nothing is taken out of a part holding a comment, CDATA, a processing instruction or
    a DTD (text there is not markup; expat refuses the DTD), a namespace prefix on a cell,
    or a cell or row without its address (its place follows the cell before it). Found
    after cells were taken out, such a part raises :class:`_Unfiltered`.
    """
    rest, first, taken = b"", True, False
    while True:
        chunk = fh.read(CHUNK)
        if not chunk:
            if rest:
                yield rest
            return
        data = rest + chunk
        if skip is None:
            rest = b""
            yield data
            continue
        cut = data.rfind(b"</row>") + len(b"</row>")
        endless = cut < len(b"</row>")  # no whole row yet
        if endless and len(data) <= 16 * CHUNK:
            rest = data
            continue
        if endless:
            cut = len(data)  # a row that long: read as it is
        data, rest = data[:cut], data[cut:]
        body = data
        if first and data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml"):
            body = data[data.find(b"?>"):]  # after the XML declaration
        if endless or b"<!" in body or b"<?" in body or b":c" in body \
                or _UNPLACED.search(data):
            if taken:
                raise _Unfiltered
            skip = None
        else:
            data, count = skip.subn(b"", data)
            taken = taken or count > 0
        first = False
        yield data
