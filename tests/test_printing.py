"""The league workbook on paper: LibreOffice prints it to PDF, and the pages are read back.

* a league tab prints two pages wide at a readable size, as many pages tall as its games
  take (the settled copy's print area ends at its last game);
* long notes (Stats, Rating, the settled tab's note) and the check column's messages are
  printed whole, not cut at a page's or a cell's edge;
* a Season standings heading is printed on the page of its table, never alone at a foot;
* the Team totals chart's legend is below it, its table's headers have two lines' room,
  and the R chart's value axis is drawn around the ratings, not from 0.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_libreoffice import convert

from umaoka.engine.season.stages import SettledGames
from umaoka.templates.book.labels import label
from umaoka.templates.book.season_book import season_result
from umaoka.templates.build import write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import write_settled
from umaoka.templates.sheets.season_standings import PLAYER_COLUMNS

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = [
    pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed"),
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed"),
]
GAMES = 40


def season_book() -> tuple[Any, Any]:
    """The demo season (two stages, teams) and its run, as ``umaoka demo`` writes them."""
    seen = SettledGames()
    book = demo_book(GAMES, season=True, settled=seen)
    return book, season_result(book, seen)

FOOTER = re.compile(r"(\S[^\n]*?) - (\d+) / (\d+)\s*$", re.M)


def page_texts(pdf: Path) -> list[str]:
    """Each page's text (pdftotext puts a form feed between pages)."""
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True, timeout=120).stdout
    return out.split("\f")[:-1]


def sheet_pages(pages: list[str]) -> dict[str, list[int]]:
    """Sheet name -> its pages (0-based), from the footer "&A - &P / &N"."""
    out: dict[str, list[int]] = {}
    for i, text in enumerate(pages):
        m = FOOTER.search(text)
        assert m is not None, f"page {i + 1} has no footer"
        out.setdefault(m.group(1).strip(), []).append(i)
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def settled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo season's settled copy and its PDF."""
    tmp = tmp_path_factory.mktemp("settled")
    src = tmp / "league_settled.xlsx"
    book, run = season_book()
    write_settled(book, src, season_run=run)
    return src, convert(src, "pdf", tmp)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo season's workbook with formulas (saved values) and its PDF."""
    tmp = tmp_path_factory.mktemp("live")
    src = tmp / "league.xlsx"
    book, run = season_book()
    write_league(book, src, season_run=run)
    return src, convert(src, "pdf", tmp)


def test_league_tab_prints_two_pages_wide_for_its_games_only(settled: tuple[Path, Path]
                                                             ) -> None:
    src, pdf = settled
    wb = load_workbook(src)
    book, _ = season_book()
    pages = sheet_pages(page_texts(pdf))
    for lg in book.leagues:
        ws = wb[lg.name]
        assert ws.page_setup.fitToWidth == 2 and ws.page_setup.fitToHeight == 0
        assert ws.page_setup.pageOrder == "overThenDown"
        assert ws.print_title_cols == "$A:$H"  # the game and its players on both pages
        # the print area ends at the last game: 2 pages across, as few down as the games
        assert ws.print_area.endswith(f"${4 + len(lg.games)}")
        assert len(pages[lg.name]) == 2 * -(-len(lg.games) // 35)


def test_league_tab_text_is_readable(settled: tuple[Path, Path]) -> None:
    """A player's name on the league tab prints over 7.5 pt high (one page wide, 5.2)."""
    _, pdf = settled
    book, _ = season_book()
    first = sheet_pages(page_texts(pdf))[book.leagues[0].name][0] + 1
    xml = subprocess.run(["pdftotext", "-bbox", "-f", str(first), "-l", str(first), str(pdf),
                          "-"], capture_output=True, text=True, check=True).stdout
    name = book.leagues[0].games[0].players[0]
    heights = [float(b) - float(a) for a, b in re.findall(
        rf'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">{re.escape(name)}<', xml)]
    assert heights and min(heights) > 7.5


def test_long_notes_and_messages_print_whole(settled: tuple[Path, Path]) -> None:
    src, pdf = settled
    pages = page_texts(pdf)
    by_sheet = sheet_pages(pages)
    wb = load_workbook(src)
    book, _ = season_book()
    longest = 0
    for lg in book.leagues:
        for kind, key in (("Stats", "note_stats_settled"), ("Rating", "note_rating")):
            text = flat(" ".join(pages[i] for i in by_sheet[f"{lg.name} {kind}"]))
            assert flat(label(key, "en")) in text
        ws = wb[lg.name]
        note = ws.cell(2, 1).value
        assert flat(note) in flat(pages[by_sheet[lg.name][0]])
        # every check message whole (the column as wide as its longest)
        tab = " ".join(pages[i] for i in by_sheet[lg.name])
        check_col = next(c for c in range(1, ws.max_column + 1)
                         if ws.cell(4, c).value == label("check", "en"))
        messages = {ws.cell(r, check_col).value for r in range(5, ws.max_row + 1)} - {None}
        longest = max([longest, *map(len, messages)])
        for m in messages:
            assert m in tab
    assert longest > 16  # the demo has a game-cap message, over the old column's width


def test_season_headings_stay_with_their_tables(live: tuple[Path, Path]) -> None:
    """On the Season standings pages, each table's heading is followed on its page by the
    table's header ("Rank"), the Team totals heading by its chart: never last on a page."""
    src, pdf = live
    pages = page_texts(pdf)
    ws = load_workbook(src)[label("sheet_season_standings", "en")]
    assert ws.row_breaks.brk  # the breaks are set by umaoka, not left to the application
    rank = label("rank", "en")
    tables = {ws.cell(r - 1, 1).value for r in range(2, ws.max_row + 1)
              if ws.cell(r, 1).value == rank}
    chart = label("team_chart", "en", name="Season 2026")
    seen = 0
    for i in sheet_pages(pages)[ws.title]:
        lines = [ln.strip() for ln in pages[i].splitlines() if ln.strip()][:-1]  # no footer
        for k, line in enumerate(lines):
            if line == chart and k and lines[k - 1] == chart:
                continue  # the chart's own title, below the heading
            if line in tables or line == chart:
                seen += 1
                assert k + 1 < len(lines), f"{line!r} printed alone at a page's foot"
                # (a two-line header cell's first line may come before "Rank")
                assert any(ln.startswith(rank if line in tables else chart)
                           for ln in lines[k + 1:k + 3]), line
    assert seen == len(tables) + 1 >= 5  # two stages, each with its team table


def _chart_xml(src: Path) -> list[str]:
    with zipfile.ZipFile(src) as z:
        return [z.read(n).decode() for n in z.namelist() if n.startswith("xl/charts/chart")]


def test_charts_legend_and_axis(settled: tuple[Path, Path]) -> None:
    src, _ = settled
    charts = _chart_xml(src)
    bars = [c for c in charts if "<barChart>" in c]
    assert bars and all('<legendPos val="b"/>' in c for c in bars)
    rating = [c for c in charts if "<lineChart>" in c and ">R<" in c]
    assert rating
    for c in rating:
        low = re.search(r'<min val="(-?[\d.]+)"', c)
        high = re.search(r'<max val="(-?[\d.]+)"', c)
        assert low and high and 1000 < float(low.group(1)) < 1500 < float(high.group(1))
    ws = load_workbook(src)[label("sheet_season_standings", "en")]
    title = next(r for r in range(1, ws.max_row + 1)
                 if ws.cell(r, 1).value == label("team_chart", "en", name="Season 2026"))
    assert ws.row_dimensions[title + 22].height >= 30  # "Regular 2026" on two lines


def test_season_problems_wrap_over_the_table(tmp_path: Path) -> None:
    """A settled copy's problem (a player in a stage they did not reach) is wrapped over the
    table's width in a row as tall as its lines, not run past the printed page's edge."""
    seen = SettledGames()
    book = demo_book(GAMES, season=True, settled=seen)
    final = book.leagues[1]
    game = final.games[0]
    out = next(p.name for p in season_result(book, seen).stages[0].players if not p.advanced)
    final.games[0] = replace(game, players=[out, *game.players[1:]])
    run = season_result(book, SettledGames())
    assert run.problems
    src = tmp_path / "problem.xlsx"
    write_settled(book, src, season_run=run)
    ws = load_workbook(src)[label("sheet_season_standings", "en")]
    rows = {r.min_row: r for r in ws.merged_cells.ranges if r.min_row > 2}
    for text in run.problems:
        row = next(r for r in rows if ws.cell(r, 1).value == text)
        assert rows[row].max_col == len(PLAYER_COLUMNS)
        assert ws.cell(row, 1).alignment.wrap_text
        assert ws.row_dimensions[row].height >= 15
