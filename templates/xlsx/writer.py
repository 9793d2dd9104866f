"""A faster way to save big workbooks with openpyxl.

Without lxml, openpyxl serialises every cell through ElementTree (about 45 µs a cell);
a league of 10,000 games has 250,000 cells. :func:`save_fast` saves with a worksheet
writer that emits the common cells (numbers, text, formulas, array formulas, blanks)
as XML text directly and hands every other cell (dates, rich text, hyperlinks,
comments) to openpyxl's own writer, so the file is the same as ``wb.save`` writes.

It also writes what openpyxl cannot: a formula's **saved value** (Excel's cached result,
``<c><f>SUM(A1:A3)</f><v>6</v></c>``), which a program that does not recalculate on open
shows as is. :func:`save_value` records one; the cells of an array formula other than its
first carry their part of the result the same way (a value, no formula), as Excel saves
them.

One module, not two: the fast worksheet writer and the saved values it writes into
formula cells stream the same XML in one pass.
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import shutil
import tempfile
import warnings
import zipfile
from collections.abc import Callable
from decimal import Decimal
from operator import itemgetter
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import openpyxl.writer.excel as excel_writer
from openpyxl import Workbook
from openpyxl.cell._writer import etree_write_cell
from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.compat import safe_string
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.formula.translate import Translator
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.utils.datetime import to_excel
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.dimensions import SheetDimension
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.xml.functions import tostring

from umaoka.templates.xlsx.cells import ABSENT, CellStore, RowFormula, kind_of

_LETTERS = [""] + [get_column_letter(i) for i in range(1, 16385)]
_OPEN = ['<c r="' + letter for letter in _LETTERS]  # a cell's start, but for its row number
_NUMBERS = (int, float, Decimal)
_REAL = frozenset({Cell, MergedCell})  # openpyxl's cells, beside the compact values


def _text(value: str) -> str:
    # XML 1.0 cannot carry most control characters; openpyxl refuses them when set.
    return escape(value)


class CellError(str):
    """An error value saved as a formula's result, e.g. ``CellError("#N/A")``."""


_SAVED = "_umaoka_saved"


def save_value(ws: Any, row: int, col: int, value: Any) -> None:
    """Record the saved (cached) result of the formula in a cell, written by :func:`save_fast`.

    Numbers, text (``""`` for a formula that shows nothing), booleans and
    :class:`CellError`. For a cell of an array formula other than the first, the value
    is written without a formula, as Excel saves it.
    """
    cells = ws._cells
    if type(cells) is CellStore:
        cells.save(row, col, value)
    else:
        ws.__dict__.setdefault(_SAVED, {})[(row, col)] = value


def _saved(value: Any) -> tuple[str, str]:
    """The type attribute and ``<v>`` text of a saved value."""
    kind = type(value)
    if kind is bool:
        return ' t="b"', str(int(value))
    if kind is CellError:
        return ' t="e"', _text(value)
    if kind is str:
        return ' t="str"', _text(value)
    if kind is Decimal:
        return "", format(value, "f")
    if kind is float:
        return "", repr(value)
    return "", str(value)


_MARK = "umaoka-rows-7d1c"  # stands for the rows in openpyxl's XML until they are spliced in


def _attrs(cell_or_row: int, col: int, sid: int | None) -> str:
    attrs = f'r="{_LETTERS[col]}{cell_or_row}"'
    return attrs if sid is None else f'{attrs} s="{sid}"'


def _value_xml(attrs: str, value: Any, kind: str, saved: Any) -> str | None:
    """One common cell as XML text, or None when openpyxl's own writer must write it."""
    if saved is not _NONE:
        t, v = _saved(saved)
    else:
        t = v = ""
    if value is None:
        return f"<c {attrs}{t}><v>{v}</v></c>" if saved is not _NONE else f"<c {attrs}/>"
    if value == "":
        return f"<c {attrs}/>"
    vtype = type(value)
    if kind == "n" and vtype in _NUMBERS:
        return f"<c {attrs}><v>{value}</v></c>"
    if kind == "s" and vtype is str:
        space = ' xml:space="preserve"' if value != value.strip() else ""
        return f'<c {attrs} t="inlineStr"><is><t{space}>{_text(value)}</t></is></c>'
    if kind == "f" and vtype is str:
        return f"<c {attrs}{t}><f>{_text(value[1:])}</f><v>{v}</v></c>"
    if kind == "f" and isinstance(value, ArrayFormula):
        return (f'<c {attrs}{t}><f t="array" ref={quoteattr(value.ref)}>'
                f"{_text(value.text[1:])}</f><v>{v}</v></c>")
    if kind == "b":
        return f'<c {attrs} t="b"><v>{int(bool(value))}</v></c>'
    return None


_NONE = ABSENT  # no saved value


class _Shared:
    """A sheet's :class:`RowFormula` columns written as Excel's shared formulas: the first
    cell of a run of rows holding the same RowFormula carries the text and the run's range
    (``<f t="shared" ref="X5:X9" si="0">``), the others only ``<f t="shared" si="0"/>``,
    as Excel itself saves a filled-down formula. A league tab's file is then a fraction of
    the size, and quicker to write and to read. A run is shared only when openpyxl's
    formula translator (Excel's rule: relative references move with the row) gives each
    row's text from the first row's; otherwise every cell is written in full.
    """

    def __init__(self, rows: dict[int, list[Any]]) -> None:
        runs: dict[int, list[list[Any]]] = {}  # column -> [formula, first row, last row]
        for row in sorted(rows):
            for col, value in enumerate(rows[row][0]):
                if type(value) is RowFormula and value.shared:
                    col_runs = runs.setdefault(col, [])
                    last = col_runs[-1] if col_runs else None
                    if last is not None and last[0] is value and last[2] == row - 1:
                        last[2] = row
                    else:
                        col_runs.append([value, row, row])
        self.runs = {col: [r for r in col_runs if r[2] > r[1] and _translates(r[0], col, r[1])]
                     for col, col_runs in runs.items()}
        self.ids: dict[tuple[int, int], int] = {}
        for col, col_runs in sorted(self.runs.items()):
            for run in col_runs:
                self.ids[(col, run[1])] = len(self.ids)
        self.at = dict.fromkeys(self.runs, 0)  # each column's current run
        # each column's current run as (first row, last row, a later row's <f>)
        self.cur: dict[int, tuple[int, int, str]] = {}

    def formula(self, value: RowFormula, row: int, col: int,
                texts: dict[int, tuple[str, ...]], keep: list[Any]) -> str:
        """The ``<f>`` element of a RowFormula cell (``texts`` and ``keep``: see
        :func:`_escaped`)."""
        cur = self.cur.get(col)
        if cur is not None and cur[0] < row <= cur[1]:
            return cur[2]
        col_runs = self.runs.get(col)
        if col_runs:
            k = self.at[col]
            while k < len(col_runs) and col_runs[k][2] < row:
                k += 1
            self.at[col] = k
            if k < len(col_runs) and col_runs[k][1] <= row:
                _, first, last = col_runs[k]
                si = self.ids[(col, first)]
                self.cur[col] = (first, last, f'<f t="shared" si="{si}"/>')
                if row > first:
                    return f'<f t="shared" si="{si}"/>'
                letter = _LETTERS[col]
                return (f'<f t="shared" ref="{letter}{first}:{letter}{last}" si="{si}">'
                        f"{str(row).join(_escaped(value, texts, keep))}</f>")
        return "<f>" + str(row).join(_escaped(value, texts, keep)) + "</f>"


def _translates(value: RowFormula, col: int, first: int) -> bool:
    """Whether Excel, filling the first row's formula down, gives each row's own text."""
    letter = _LETTERS[col]
    text = value.at(first)
    for row in (first + 1, first + 9, first + 99_991):  # and across more digits
        moved = Translator(text, f"{letter}{first}").translate_formula(f"{letter}{row}")
        if moved != value.at(row):
            return False
    return True


class _Sink:
    """Collects the elements openpyxl's cell writer writes, as text."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, el: Any) -> None:
        out = tostring(el)
        self.parts.append(out.decode() if isinstance(out, bytes) else out)


class _FastWorksheetWriter(WorksheetWriter):
    """openpyxl's worksheet writer, with the rows written as XML text (see the module).

    openpyxl writes the sheet with a marker in ``<sheetData>``; the rows, written to
    their own temporary file at the same point (so hyperlinks and comments are collected
    in order), take the marker's place as the part goes into the archive (:meth:`store`).
    This works with and without lxml.
    """

    def write_dimensions(self) -> None:
        # openpyxl's ``calculate_dimension`` walks every cell's key (a second of a
        # 50,000-game demo); the store knows its span from its rows.
        cells = self.ws._cells
        if type(cells) is not CellStore:
            super().write_dimensions()
            return
        self.xf.send(SheetDimension(cells.dimension()).to_tree())

    def write_rows(self) -> None:
        xf = self.xf.send(True)
        fd, self._rows_path = tempfile.mkstemp(suffix=".xml", prefix="umaoka-rows-")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            self._write_all_rows(out.write)
        with xf.element("sheetData"):
            xf.write(_MARK)
        self.xf.send(None)

    _rows_path = ""

    def cleanup(self) -> None:
        super().cleanup()
        if self._rows_path:
            os.remove(self._rows_path)
            self._rows_path = ""

    def write_tables(self) -> None:
        # openpyxl names a new table's columns from ``ws[table.ref][0]``, which makes a cell
        # of every row of the table; the header row is all it needs.
        ws = self.ws
        for table in ws.tables.values():
            if not table.tableColumns and table.headerRowCount:
                table._initialise_columns()
                try:
                    min_col, min_row, max_col, _ = range_boundaries(table.ref)
                    row = next(ws.iter_rows(min_row=min_row, max_row=min_row,
                                            min_col=min_col, max_col=max_col))
                    for cell, col in zip(row, table.tableColumns):
                        if cell.data_type != "s":
                            warnings.warn("File may not be readable: column headings must be "
                                          "strings.", stacklevel=2)
                        col.name = str(cell.value)
                except TypeError:
                    warnings.warn("Column headings are missing, file may not be readable",
                                  stacklevel=2)
        super().write_tables()

    def store(self, archive: zipfile.ZipFile, name: str) -> None:
        """The part into the archive: openpyxl's XML with the rows in the marker's place,
        streamed (the rows are not copied into openpyxl's file first)."""
        with open(self.out, "rb") as f:
            xml = f.read()
        head, mark, tail = xml.partition(_MARK.encode())
        if not mark and shutil.disk_usage(os.path.dirname(self.out)).free < 1 << 20:
            # openpyxl's own file was cut short by a full temporary folder
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self.out)
        if not mark:
            raise RuntimeError("openpyxl's worksheet writer changed: the rows marker was "
                               "not written (see umaoka.templates.xlsx.writer)")
        size = len(head) + os.path.getsize(self._rows_path) + len(tail)
        with open(self._rows_path, "rb") as rows, \
                archive.open(name, "w", force_zip64=size > zipfile.ZIP64_LIMIT // 2) as out:
            out.write(head)
            shutil.copyfileobj(rows, out, 1 << 20)
            out.write(tail)


    def _write_all_rows(self, write: Any) -> None:
        ws = self.ws
        wb = ws.parent
        cells = ws._cells
        store = cells if type(cells) is CellStore else None
        real = store.real if store is not None else cells
        saved: dict[tuple[int, int], Any] = dict(ws.__dict__.get(_SAVED) or {})
        if store is not None:
            saved.update(store.saved)
        saved_rows = {row for row, _ in saved}  # rows with saved values kept by place
        compact = store.rows if store is not None else {}
        by_row: dict[int, list[Any]] = {}
        for (row, _col), cell in sorted(real.items()):
            by_row.setdefault(row, []).append(cell)
        numbers = set(by_row) | {r for r, e in compact.items()
                                 if any(v is not ABSENT for v in e[0])}
        numbers |= set(ws.row_dimensions.keys())
        styles: dict[bytes, int] = {}
        # a compact style's id() -> its style id and the end of a cell's attributes
        sids: dict[int, tuple[int | None, str]] = {}
        keep: list[Any] = []  # the compact styles and formulas whose id() keys a cache
        # a formula's text, escaped once, in parts to join with the row's number
        texts: dict[int, tuple[str, ...]] = {}
        inlines: dict[str, str] = {}  # a text -> its cell's XML after the style ("": not plain)
        values = _SavedText()  # saved values as XML: texts repeat (a check column's OK)
        dates = not wb.iso_dates  # dates saved as numbers, as openpyxl writes them
        epoch = wb.epoch

        def sid_of(style: Any) -> int | None:
            if style is None or not any(style):
                return None
            key = style.tobytes()
            sid = styles.get(key)
            if sid is None:
                sid = styles[key] = wb._cell_styles.add(style)
            return sid

        last_style: list[Any] = [_NONE] * len(_LETTERS)  # by column: the last style met
        last_known: list[Any] = [None] * len(_LETTERS)  # and its entry in sids
        dims_of = ws.row_dimensions
        shared: _Shared | None = None  # made when the first RowFormula is met
        for row in sorted(numbers):
            dims = dims_of.get(row)
            extra = "".join(f" {k}={quoteattr(v)}" for k, v in dict(dims).items()) if dims else ""
            parts = [f'<row r="{row}"{extra}>']
            rs = str(row)
            entry = compact.get(row)
            vals = stys = svd = None
            items: Any = ()
            if entry is not None:
                vals, stys, svd = entry
                items = enumerate(vals)
            if row in by_row:
                items = sorted([*((c, v) for c, v in items if v is not ABSENT),
                                *((c.column, c) for c in by_row[row])], key=itemgetter(0))
            by_place = row in saved_rows
            for col, value in items:
                if value is ABSENT:
                    continue
                if type(value) not in _REAL:  # a compact cell
                    style = stys[col]  # type: ignore[index]
                    if style is last_style[col]:  # mostly the style of the row above
                        got, tail = last_known[col]
                    else:
                        known = sids.get(id(style))
                        if known is None:
                            got = sid_of(style)
                            known = sids[id(style)] = (got, '"' if got is None
                                                       else f'" s="{got}"')
                            keep.append(style)
                        got, tail = last_known[col] = known
                        last_style[col] = style
                    sv = svd[col] if svd is not None else _NONE
                    if sv is _NONE and by_place:
                        sv = saved.get((row, col), _NONE)
                    vtype = type(value)
                    if sv is _NONE:  # the common cells first, without a saved value; joined
                        # with + : about twice as fast as an f-string
                        if value is None:
                            if got is not None:
                                parts.append(_OPEN[col] + rs + tail + "/>")
                            continue
                        if vtype is int or vtype is Decimal or vtype is float:
                            parts.append(_OPEN[col] + rs + tail + "><v>" + str(value)
                                         + "</v></c>")
                            continue
                        if vtype is str:  # names repeat: each text's XML made once
                            inline = inlines.get(value)
                            if inline is None:
                                inline = (' t="inlineStr"><is><t>' + _text(value) + "</t></is></c>"
                                          if value and value[0] != "=" and value == value.strip()
                                          else "")
                                if len(inlines) < 100_000:
                                    inlines[value] = inline
                            if inline:
                                parts.append(_OPEN[col] + rs + tail + inline)
                                continue
                        if dates and (vtype is dt.date or vtype is dt.datetime
                                      and value.tzinfo is None):
                            parts.append(_OPEN[col] + rs + tail + ' t="n"><v>'
                                         + safe_string(to_excel(value, epoch)) + "</v></c>")
                            continue
                    if vtype is RowFormula:
                        t, v = values.of(sv)
                        if value.shared:
                            if shared is None:
                                shared = _Shared(compact)
                            f = shared.formula(value, row, col, texts, keep)
                        else:
                            got = texts.get(id(value))
                            f = "<f>" + rs.join(got if got is not None
                                                else _escaped(value, texts, keep)) + "</f>"
                        parts.append(_OPEN[col] + rs + tail + t + ">" + f + "<v>" + v
                                     + "</v></c>")
                        continue
                    if value is None and sv is not _NONE:
                        t, v = values.of(sv)
                        parts.append(_OPEN[col] + rs + tail + t + "><v>" + v + "</v></c>")
                        continue
                    attrs = 'r="' + _LETTERS[col] + rs + tail
                    xml = _value_xml(attrs, value, kind_of(value), sv)
                    if xml is not None:
                        parts.append(xml)
                        continue
                    value = store._take(row, col)  # type: ignore[union-attr]
                cell = value
                if cell._comment is not None:
                    ws._comments.append(CommentRecord.from_cell(cell))
                at = (row, col)
                styled = cell.has_style
                if cell._value is None and not styled and at not in saved \
                        and cell._comment is None:
                    continue
                xml = None
                if getattr(cell, "_hyperlink", None) is None:
                    sid = sid_of(cell._style) if styled else None
                    xml = _value_xml(_attrs(row, col, sid), cell._value, cell.data_type,
                                     saved.get(at, _NONE))
                    if xml is None and cell.data_type == "d" and dates \
                            and type(cell._value) in (dt.date, dt.datetime) \
                            and getattr(cell._value, "tzinfo", None) is None:
                        xml = (f'<c {_attrs(row, col, sid)} t="n"><v>'
                               f"{safe_string(to_excel(cell._value, epoch))}</v></c>")
                if xml is None:
                    sink = _Sink()
                    etree_write_cell(sink, ws, cell, styled)
                    xml = "".join(sink.parts)
                parts.append(xml)
            parts.append("</row>")
            write("".join(parts))


def _escaped(value: RowFormula, texts: dict[int, tuple[str, ...]], keep: list[Any]
             ) -> tuple[str, ...]:
    """A RowFormula's text without its ``=``, escaped for XML, in parts to join with a row's
    number (digits need no escaping, so this is the escaped text of any row)."""
    got = texts.get(id(value))
    if got is None:
        got = texts[id(value)] = tuple(_text(p) for p in (value.parts[0][1:], *value.parts[1:]))
        keep.append(value)
    return got


class _SavedText:
    """The type attribute and ``<v>`` text of saved values (:func:`_saved`), texts and
    error values kept once made: a column of checks saves the same few texts."""

    def __init__(self) -> None:
        self.known: dict[tuple[type, str], tuple[str, str]] = {}

    def of(self, value: Any) -> tuple[str, str]:
        kind = type(value)
        if value is _NONE:
            return "", ""
        if kind is int:
            return "", str(value)
        if kind is Decimal:
            return "", format(value, "f")
        if kind is str or kind is CellError:
            key = (kind, value)
            got = self.known.get(key)
            if got is None:
                got = _saved(value)
                if len(self.known) < 10_000:
                    self.known[key] = got
            return got
        return _saved(value)


class _FastExcelWriter(excel_writer.ExcelWriter):
    """openpyxl's workbook writer, each worksheet written by :class:`_FastWorksheetWriter`
    and stored by it (what ``ExcelWriter.write_worksheet`` does, but the storing)."""

    def write_worksheet(self, ws: Any) -> None:
        if self.workbook.write_only:
            super().write_worksheet(ws)
            return
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        writer = _FastWorksheetWriter(ws)
        try:
            writer.write()
            ws._rels = writer._rels
            writer.store(self._archive, ws.path[1:])
            self.manifest.append(ws)
        finally:
            writer.cleanup()


#: The parts an ``add_parts`` hook of :func:`save_fast` gets to change: written last.
HELD_PARTS = frozenset({"[Content_Types].xml", "_rels/.rels"})

AddParts = Callable[[set[str], dict[str, bytes]], dict[str, bytes]]


class _FinishedZip(zipfile.ZipFile):
    """A zip being written whose :data:`HELD_PARTS` are held back and, at ``close``, given
    with the names of all parts to ``add_parts``, whose parts are then written instead
    (without ``add_parts``, a plain zip file)."""

    def __init__(self, path: str | Path, add_parts: AddParts | None) -> None:
        # compresslevel 1: several times faster than the default for sheets of many rows,
        # files about a fifth bigger
        super().__init__(path, "w", zipfile.ZIP_DEFLATED, allowZip64=True, compresslevel=1)
        self._add_parts: AddParts | None = add_parts
        self._held: dict[str, bytes] = {}

    def writestr(self, zinfo_or_arcname: Any, data: Any, *args: Any, **kwargs: Any) -> None:
        name = getattr(zinfo_or_arcname, "filename", zinfo_or_arcname)
        if self._add_parts is not None and name in HELD_PARTS:
            self._held[name] = data.encode() if isinstance(data, str) else bytes(data)
            return
        super().writestr(zinfo_or_arcname, data, *args, **kwargs)

    def abandon(self) -> None:
        """Writing failed: close without finishing (the file is removed anyway)."""
        self._add_parts = None

    def close(self) -> None:
        add, self._add_parts = self._add_parts, None
        if add is not None and self.fp is not None:
            for name, data in add(set(self.namelist()) | set(self._held), self._held).items():
                self.writestr(name, data)
        super().close()


def save_fast(wb: Workbook, path: str | Path, add_parts: AddParts | None = None) -> None:
    """``wb.save(path)``, several times faster for big sheets.

    Unlike ``wb.save``, the file is closed when writing fails (a full disk), so the error
    is reported once, not again by the garbage collector. ``add_parts(names, held)``, if
    given, finishes the file in the same save: it gets the names of all parts and the
    bytes of :data:`HELD_PARTS`, and returns the parts to write last (those, changed or
    not, and new ones), e.g. :func:`umaoka.addin.install.embed.lite_parts`.
    """
    wb.__dict__.pop("_umaoka_style_ids", None)
    if wb.write_only and not wb.worksheets:
        wb.create_sheet()
    archive = _FinishedZip(path, add_parts)  # a plain zip when there is nothing to add
    try:
        wb.properties.modified = dt.datetime.now(tz=dt.timezone.utc).replace(tzinfo=None)
        _FastExcelWriter(wb, archive).save()  # closes the archive when done
    except BaseException:
        archive.abandon()
        try:
            archive.close()
        except OSError:
            pass  # the first error (e.g. no space left) is the one to report
        raise
    finally:
        wb.__dict__.pop("_umaoka_style_ids", None)
