"""LibreOffice headless opens our workbooks, recalculates the native formulas, prints them.

* the settled copy's values (read back after LibreOffice re-saves it) equal the engine's;
* a filled template whose results are present as values (what MJ_SETTLE computes in Excel)
  gets its native places and standings recalculated by LibreOffice: they equal the engine's;
* both convert to PDF, and pdftoppm renders the pages to PNG.
"""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.engine import settle, standings
from umaoka.templates.build import LeagueCols, build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import write_settled
from umaoka.templates.xlsx.io import save_workbook

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")


def convert(src: Path, fmt: str, tmp: Path, *, out: str = "out", profile: str = "lo-profile",
            timeout: int = 180) -> Path:
    """``src`` converted to ``fmt`` by LibreOffice headless, into ``tmp/<out>-<fmt>``, with
    the user profile ``tmp/<profile>`` (a fresh default one unless the caller set it up)."""
    folder = tmp / f"{out}-{fmt}"
    result = subprocess.run(
        [str(SOFFICE), f"-env:UserInstallation={(tmp / profile).as_uri()}", "--headless",
         "--norestore", "--convert-to", fmt, "--outdir", str(folder), str(src)],
        capture_output=True, text=True, timeout=timeout)
    target = folder / f"{src.stem}.{fmt}"
    assert target.exists(), result.stdout + result.stderr
    return target


def _book_games(book) -> list:
    rules = book.rules[0].ruleset
    return [[(g.players, settle(g.scores, rules, g.deposits or 0, g.penalties or None))
             for g in lg.games] for lg in book.leagues]


def _check_standings(ws, expected) -> None:
    for k, p in enumerate(expected):
        row = [c.value for c in ws[5 + k]][:15]
        assert row[1] == p.name
        assert row[2] == p.games
        assert abs(Decimal(str(row[3])) - p.total) < Decimal("0.001")
        assert abs(Decimal(str(row[5])) - p.average_place) <= Decimal("0.005")
        assert tuple(row[6:10]) == p.places
        assert abs(Decimal(str(row[14])) - p.last_avoid_rate) <= Decimal("0.00005")
    assert ws.cell(5 + len(expected), 2).value in (None, "")


def test_settled_copy_in_libreoffice(tmp_path: Path) -> None:
    book = demo_book(40)
    src = tmp_path / "settled.xlsx"
    write_settled(book, src)
    back = load_workbook(convert(src, "xlsx", tmp_path), data_only=True)
    games = _book_games(book)
    ws = back["Spring 2026"]
    cols = LeagueCols(4)
    for i, (_, s) in enumerate(games[0]):
        assert [Decimal(str(ws.cell(5 + i, c).value)) for c in cols.results] == list(s.final)
    _check_standings(back["Spring 2026 Standings"], standings(games[0]))
    _check_standings(back["Standings"], standings(games[0] + games[1]))
    pdf = convert(src, "pdf", tmp_path)
    assert pdf.read_bytes().startswith(b"%PDF")


def test_native_standings_recalculated_by_libreoffice(tmp_path: Path) -> None:
    book = demo_book(40)
    games = _book_games(book)
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), src)
    # what MJ_SETTLE returns in Excel, written as values over the array formula
    wb = load_workbook(src)
    cols = LeagueCols(4)
    for lg, league_games in zip(book.leagues, games):
        ws = wb[lg.name]
        for i in range(200):
            for seat, c in enumerate(cols.results):
                ws.cell(5 + i, c).value = (float(league_games[i][1].final[seat])
                                           if i < len(league_games) else None)
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(convert(filled, "xlsx", tmp_path), data_only=True)
    ws = back["Spring 2026"]
    for i, (_, s) in enumerate(games[0]):
        assert tuple(ws.cell(5 + i, c).value for c in cols.places) == s.places
        assert ws.cell(5 + i, cols.check).value == "OK"
    _check_standings(back["Spring 2026 Standings"], standings(games[0]))
    _check_standings(back["Standings"], standings(games[0] + games[1]))


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm is not installed")
def test_template_prints_to_png(tmp_path: Path) -> None:
    book = demo_book(24)
    src = tmp_path / "demo_settled.xlsx"
    write_settled(book, src)
    pdf = convert(src, "pdf", tmp_path)
    subprocess.run(["pdftoppm", "-r", "40", "-png", "-f", "1", "-l", "3", str(pdf),
                    str(tmp_path / "page")], check=True, timeout=120)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == 3 and all(p.stat().st_size > 2000 for p in pages)
