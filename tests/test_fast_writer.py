"""The fast writer and the compact cell store write what openpyxl itself writes.

These fail loudly when openpyxl's worksheet writer changes in a way the fast writer
relies on (the rows marker, table columns, style ids): the same workbook saved by
``wb.save`` and by ``save_fast`` must load with the same cells, values, styles, merged
cells, tables and validations. With lxml installed the check also runs with it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.cell_range import CellRange

from umaoka.templates.build import build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import read_book
from umaoka.templates.xlsx.styles import put
from umaoka.templates.xlsx.writer import save_fast


def _cells(path: Path) -> dict[str, object]:
    wb = load_workbook(path)
    out: dict[str, object] = {}
    for ws in wb.worksheets:
        # cells of an array formula other than its first carry its saved result (a value),
        # which openpyxl's own writer cannot write
        # (ws.iter_rows gives a one-cell array formula as a one-cell block too)
        blocks = [list(ws.iter_rows(min_row=r.min_row, max_row=r.max_row, min_col=r.min_col,
                                    max_col=r.max_col))
                  for r in (CellRange(ref) for ref in ws.array_formulae.values())]
        in_array = {c.coordinate for rows in blocks for k, row in enumerate(rows)
                    for j, c in enumerate(row) if k or j}
        out[f"{ws.title}!merged"] = sorted(str(r) for r in ws.merged_cells.ranges)
        out[f"{ws.title}!tables"] = sorted(
            (t.ref, tuple(c.name for c in t.tableColumns)) for t in ws.tables.values())
        out[f"{ws.title}!dv"] = sorted(str(d.sqref) for d in ws.data_validations.dataValidation)
        out[f"{ws.title}!cf"] = sorted(str(r.sqref) for r in ws.conditional_formatting)
        for row in ws.iter_rows():
            for c in row:
                value = c.value
                text = getattr(value, "text", value)  # array formulas
                kind = c.data_type if value is not None else "blank"  # t="inlineStr" or not
                if c.coordinate in in_array:
                    text = kind = "saved"
                out[f"{ws.title}!{c.coordinate}"] = (
                    repr(text), kind, c.number_format, repr(c.font), repr(c.fill),
                    repr(c.border), repr(c.alignment), repr(c.protection), c.quotePrefix)
    return out


def _compare(folder: Path) -> None:
    book = demo_book(60)
    book.leagues[0].games[0].players[0] = "=not a formula"  # user text, quote prefix
    plain, fast = folder / "plain.xlsx", folder / "fast.xlsx"
    build_workbook(book).save(plain)
    save_fast(build_workbook(book), fast)
    a, b = _cells(plain), _cells(fast)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == b[key], key
    assert read_book(fast).leagues[0].games[0].players[0] == "=not a formula"


def test_same_cells_as_openpyxl(tmp_path: Path) -> None:
    _compare(tmp_path)


@pytest.mark.parametrize("lxml", ["True", "False"])
def test_same_cells_with_and_without_lxml(tmp_path: Path, lxml: str) -> None:
    if importlib.util.find_spec("lxml") is None and lxml == "True":
        lxml = "False"  # without lxml installed both runs check the standard library writer
    code = ("import sys, pathlib, openpyxl; from tests.test_fast_writer import _compare; "
            f"assert openpyxl.LXML is ({lxml} and openpyxl.xml.lxml_available()); "
            "_compare(pathlib.Path(sys.argv[1]))")
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=root,
                            env={**os.environ, "OPENPYXL_LXML": lxml},
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_compact_cells_become_real_cells_when_asked(tmp_path: Path) -> None:
    wb = build_workbook(demo_book(8))
    ws = wb.worksheets[0]
    put(ws, 50, 3, 7, None)
    assert ws.cell(50, 3).value == 7 and (50, 3) in ws._cells
    ws["C50"] = "=1+1"
    assert ws["C50"].data_type == "f"
    del ws._cells[(50, 3)]
    assert (50, 3) not in ws._cells
    save_fast(wb, tmp_path / "x.xlsx")
    assert load_workbook(tmp_path / "x.xlsx").worksheets[0]["C50"].value is None


def test_the_store_gives_openpyxls_dimension() -> None:
    """The ``<dimension>`` the fast writer takes from the store is openpyxl's own."""
    from openpyxl import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

    from umaoka.templates.xlsx.cells import store_of

    wb = build_workbook(demo_book(8))
    ws = wb.worksheets[0]
    put(ws, 60, 30, 1, None)  # a row of one cell, past the others
    put(ws, 61, 2, 1, None)
    del ws._cells[(61, 2)]  # a row left with no cell
    ws["A70"] = "real"
    new = Workbook().active
    for sheet in [*wb.worksheets, new]:
        assert store_of(sheet).dimension() == Worksheet.calculate_dimension(sheet), sheet.title
    assert new._cells.dimension() == "A1:A1"
    put(new, 3, 4, None, None)  # one blank cell with a style
    assert new._cells.dimension() == "D3:D3" == Worksheet.calculate_dimension(new)


def test_a_date_in_a_date_style_stays_compact(tmp_path: Path) -> None:
    """A row's date in a date-formatted style is kept compactly (openpyxl would not change
    its cell), in another style it becomes openpyxl's own cell with a date format; both
    are written as openpyxl writes them and read back as the same dates."""
    import datetime as dt

    from openpyxl import Workbook

    from umaoka.templates.xlsx.cells import ABSENT
    from umaoka.templates.xlsx.styles import Styles, put_row

    wb = Workbook()
    ws = wb.active
    dated = Styles(wb, "0.0").get("input", "yyyy-mm-dd")
    day, moment = dt.date(2026, 4, 1), dt.datetime(2026, 4, 2, 18, 30)
    put_row(ws, 2, [ABSENT, day, moment, day], [None, dated, dated, None])
    assert ws._cells.compact(2, 1) and ws._cells.compact(2, 2)
    assert not ws._cells.compact(2, 3) and (2, 3) in ws._cells.real
    fast, plain = tmp_path / "fast.xlsx", tmp_path / "plain.xlsx"
    save_fast(wb, fast)
    wb.save(plain)
    assert _cells(fast) == _cells(plain)
    back = load_workbook(fast).active
    assert [back.cell(2, c).value for c in (1, 2, 3)] == [dt.datetime(2026, 4, 1), moment,
                                                          dt.datetime(2026, 4, 1)]
    assert back.cell(2, 1).number_format == "yyyy-mm-dd"
    assert back.cell(2, 3).is_date and back.cell(2, 3).number_format != "General"
