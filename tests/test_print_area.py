"""A live league tab prints its games, not its spare rows.

The tab keeps 200 spare game rows for games still to be typed; a fixed print area over
them printed pages of empty grid. Its print area is a formula instead (OFFSET to the last
row with a date, session, player or score typed), which Excel evaluates when it prints.
There is no Excel here: LibreOffice evaluates the same formula in a cell (ROWS of it) as
games are added, with a gap, and with none; the settled copy keeps a fixed print area.
"""

from __future__ import annotations

import re
import shutil
import warnings
import zipfile
from pathlib import Path
from xml.sax.saxutils import unescape

import pytest
from openpyxl import load_workbook
from openpyxl.worksheet.formula import ArrayFormula
from test_libreoffice import _book_games, convert

from umaoka.templates.book.layout import HEADER_ROW, LeagueCols
from umaoka.templates.build import build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import write_settled
from umaoka.templates.xlsx.io import load_quietly, open_workbook, save_workbook

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
TAB = "Spring 2026"
FIRST = HEADER_ROW + 1


def print_areas(path: Path) -> dict[int, str]:
    """Sheet index -> its print area's text, from workbook.xml."""
    xml = zipfile.ZipFile(path).read("xl/workbook.xml").decode()
    found = re.findall(r'<definedName name="_xlnm.Print_Area" localSheetId="(\d+)">([^<]*)<',
                       xml)
    return {int(i): unescape(text) for i, text in found}


def area_of(src: Path, sheet: str) -> str:
    wb = load_quietly(src, read_only=True)
    index = wb.sheetnames.index(sheet)
    wb.close()
    return print_areas(src)[index]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    src = tmp_path_factory.mktemp("area") / "league.xlsx"
    save_workbook(build_workbook(demo_book(12)), src)
    return src, area_of(src, TAB)


def test_live_tab_print_area_follows_the_typed_rows(live: tuple[Path, str]) -> None:
    src, area = live
    last_col = LeagueCols(4).places[-1]
    assert area.startswith(f"OFFSET('{TAB}'!$A$1,0,0,") and area.endswith(f",{last_col})")
    # the league tabs' areas grow; every other sheet keeps a fixed one
    growing = {t.split("!")[0][len("OFFSET("):].strip("'") for t in print_areas(src).values()
               if t.startswith("OFFSET")}
    assert growing == {"Spring 2026", "Summer 2026", "Standings"}


def test_reading_the_workbook_says_nothing_of_it(live: tuple[Path, str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        open_workbook(live[0], read_only=False).close()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_print_area_formula_evaluated_by_libreoffice(live: tuple[Path, str],
                                                     tmp_path: Path) -> None:
    src, area = live
    cols = LeagueCols(4)
    wb = load_quietly(src)
    # what MJ_SETTLE returns in Excel, written over its array formula: LibreOffice lists
    # the players on the Standings then
    book = demo_book(12)
    for lg, games in zip(book.leagues, _book_games(book)):
        for i, (_, result) in enumerate(games):
            for seat, c in enumerate(cols.results):
                wb[lg.name].cell(FIRST + i, c).value = float(result.final[seat])
    ws = wb[TAB]
    games = sum(1 for r in range(FIRST, FIRST + 200) if ws.cell(r, cols.players[0]).value)
    assert 0 < games < 12
    probe = wb.create_sheet("probe")
    probe["A1"] = ArrayFormula("A1", f"=ROWS({area})")
    probe["B1"] = ArrayFormula("B1", f"=COLUMNS({area})")
    # the overall Standings: to its last player, not its free roster slots
    probe["C1"] = ArrayFormula("C1", f"=ROWS({area_of(src, 'Standings')})")
    listed = sum(1 for r in range(FIRST, FIRST + 100)
                 if str(wb["Standings"].cell(r, 1).value or "").startswith("="))
    wb.save(tmp_path / "as_written.xlsx")
    # a game typed three rows below the last (a gap left for a late table): printed too
    ws.cell(FIRST + games + 2, cols.players[0]).value = "Aki"
    wb.save(tmp_path / "gap.xlsx")
    # a seating plan's rows (players, no scores yet) and a lone date count as typed
    ws.cell(FIRST + games + 40, 1).value = "2026-12-01"
    wb.save(tmp_path / "date.xlsx")
    # nothing typed: the headers only
    for sheet in (ws, wb["Summer 2026"]):
        for r in range(FIRST, FIRST + 200):
            for c in range(1, cols.places[-1] + 1):
                if not str(sheet.cell(r, c).value or "").startswith("="):
                    sheet.cell(r, c).value = None
    wb.save(tmp_path / "empty.xlsx")
    expected = {"as_written": FIRST + games - 1, "gap": FIRST + games + 2,
                "date": FIRST + games + 40, "empty": HEADER_ROW}
    for stem, rows in expected.items():
        back = load_workbook(convert(tmp_path / f"{stem}.xlsx", "xlsx", tmp_path, out=stem),
                             data_only=True)
        assert (back["probe"]["A1"].value, back["probe"]["B1"].value) == (
            rows, cols.places[-1]), stem
        names = [back["Standings"].cell(r, 2).value for r in range(FIRST, FIRST + listed)]
        shown = sum(1 for v in names if v not in (None, ""))
        assert (shown == 0) == (stem == "empty"), stem
        assert back["probe"]["C1"].value == HEADER_ROW + shown, stem


def test_settled_copy_keeps_a_fixed_print_area(tmp_path: Path) -> None:
    book = demo_book(12)
    out = tmp_path / "settled.xlsx"
    write_settled(book, out)
    areas = print_areas(out)
    assert areas and not any(t.startswith("OFFSET") for t in areas.values())
