"""Reading the games of a big league tab: umaoka's expat reader (``umaoka settle``'s),
the same without its filter (every cell through expat), python-calamine (when installed)
and openpyxl's read-only mode, on the same file.

    python benchmarks/bench_reading.py [--games 10000]

Only our reader and openpyxl say which cells hold a formula (``settle`` refuses a formula
in an input column) and parse under defusedxml's rules; calamine gives values only.
"""

from __future__ import annotations

import argparse
import importlib.util
import tempfile
import time
from pathlib import Path
from typing import Any

from umaoka.templates.book.results import FIRST_ROW
from umaoka.templates.build import LeagueCols, write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import MAX_GAMES
from umaoka.templates.xlsx import reader as sheet_reader
from umaoka.templates.xlsx.io import open_workbook
from umaoka.templates.xlsx.reader import _SheetRows


def best(run: Any, repeat: int = 3) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    book = demo_book(args.games)
    name = book.leagues[0].name
    width = LeagueCols(4).check - 1
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "league.xlsx"
        write_league(book, path)

        def ours() -> int:
            wb = open_workbook(path)
            try:
                return len(_SheetRows(wb[name], FIRST_ROW, width, MAX_GAMES).read())
            finally:
                wb.close()

        def unfiltered() -> int:
            skippable = sheet_reader._skippable
            sheet_reader._skippable = lambda _width: None  # type: ignore[assignment]
            try:
                return ours()
            finally:
                sheet_reader._skippable = skippable

        def openpyxl_ro() -> int:
            wb = open_workbook(path)
            try:
                rows = 0
                for row in wb[name].iter_rows(min_row=FIRST_ROW, max_col=width):
                    rows += any(c.value is not None for c in row)
                    _ = [c.data_type == "f" for c in row]  # the formula check
                return rows
            finally:
                wb.close()

        results = [("expat (ours)", *best(ours)), ("ours, unfiltered", *best(unfiltered)),
                   ("openpyxl read-only", *best(openpyxl_ro))]
        if importlib.util.find_spec("python_calamine"):
            from python_calamine import CalamineWorkbook

            def calamine() -> int:
                sheet = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(name)
                return sum(1 for r in sheet.to_python()[FIRST_ROW - 1:] if any(r[:width]))

            results.append(("python-calamine", *best(calamine)))
    base = results[0][1]
    print(f"reading {len(book.leagues[0].games):,} games of one league tab (best of 3)")
    print(f"{'reader':20} {'seconds':>8} {'vs ours':>8} {'rows':>7}  formulas  defusedxml")
    for label, took, rows in results:
        safe = "yes" if label != "python-calamine" else "no"
        print(f"{label:20} {took:8.2f} {took / base:7.2f}x {rows:7,}  {safe:8}  {safe}")


if __name__ == "__main__":
    main()
