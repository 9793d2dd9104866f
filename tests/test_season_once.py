"""`umaoka demo` runs the season once and hands it to both workbooks: each is the same as
when it runs the season itself."""

from __future__ import annotations

from typing import Any

from openpyxl.worksheet.formula import ArrayFormula

from umaoka.templates.book.season_book import season_result
from umaoka.templates.build import build_workbook
from umaoka.templates.demo import demo_book


def _value(value: Any) -> Any:
    """A cell's value, an array formula as its range and text (it has no equality)."""
    return (value.ref, value.text) if isinstance(value, ArrayFormula) else value


def _cells(wb: Any) -> dict[str, list[tuple[Any, ...]]]:
    return {ws.title: [tuple((_value(c.value), c.style_id, c.number_format) for c in row)
                       for row in ws.iter_rows()] for ws in wb.worksheets}


def test_given_season_run_gives_the_same_workbooks() -> None:
    book = demo_book(300, season=True)
    run = season_result(book)
    for settled in (False, True):
        given = build_workbook(book, settled=settled, season_run=run)
        own = build_workbook(book, settled=settled)
        assert _cells(given) == _cells(own)
        assert [ws.title for ws in given.worksheets] == [ws.title for ws in own.worksheets]
