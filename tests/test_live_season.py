"""The template's Season standings are live: pycel evaluates the demo season's workbook with
umaoka's functions plugged in (MJ_SETTLE and MJ_SEASON under xlwings Lite's saved names),
and every table equals the engine's, also after a score is changed; with the functions off
the tables keep the values of when the file was written and row 3 warns; a failing
MJ_SEASON says so in row 3. (LibreOffice, which has no umaoka functions, is the "off" case
of tests/test_season_workbook.py.)
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pycel import ExcelCompiler, excelwrapper
from test_pycel import _defined_names, if_, iferror, mj_settle

from umaoka.addin.udfs import MJ_SEASON
from umaoka.engine.season.stages import SeasonResult
from umaoka.templates.book.labels import label
from umaoka.templates.book.model import Book
from umaoka.templates.book.season_book import season_result
from umaoka.templates.build import LeagueCols, write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.sheets.season_live import LIVE_FIRST

SHEET = "'Season standings'"
#: What the plugged-in MJ_SEASON does: compute ("on"), be unknown ("off"), fail ("fail").
MODE = {"now": "on"}
_CODES = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6,
          "#N/A": 7}


def mj_season(*args: Any) -> Any:
    if MODE["now"] == "off":
        return "#NAME?"  # what Excel shows for a function it does not know
    if MODE["now"] == "fail":
        return "#VALUE!"
    return tuple(tuple(row) for row in MJ_SEASON(*args))


def error_type(value: Any) -> Any:
    """Excel's ERROR.TYPE (pycel has none)."""
    return _CODES.get(value, "#N/A") if isinstance(value, str) else "#N/A"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Book]]:
    plugin = types.ModuleType("umaoka_live_season_plugin")
    for name, f in (("mj_settle", mj_settle), ("_xldudf_mj_settle", mj_settle),
                    ("mj_season", mj_season), ("_xldudf_mj_season", mj_season),
                    ("error_type", error_type), ("iferror", iferror), ("if_", if_)):
        setattr(plugin, name, f)
    sys.modules[plugin.__name__] = plugin
    original = excelwrapper.ExcelOpxWrapper.defined_names
    excelwrapper.ExcelOpxWrapper.defined_names = property(_defined_names)  # type: ignore
    book = demo_book(40, season=True)
    path = write_league(book, tmp_path_factory.mktemp("live") / "season.xlsx")
    try:
        yield path, book
    finally:
        excelwrapper.ExcelOpxWrapper.defined_names = original  # type: ignore
        del sys.modules[plugin.__name__]
        MODE["now"] = "on"


def _compiler(path: Path, mode: str) -> ExcelCompiler:
    MODE["now"] = mode
    return ExcelCompiler(filename=str(path), plugins=["umaoka_live_season_plugin"])


def _headers(path: Path) -> list[int]:
    """The header rows of the sheet's tables, in order (stage 1 players, teams, ...)."""
    ws = load_workbook(path, data_only=True)["Season standings"]
    return [c.row for c in ws["A"] if c.value == "Rank"]


def _table(xl: ExcelCompiler, hdr: int, width: int) -> list[list[Any]]:
    rows = []
    r = hdr + 1
    while True:
        row = [xl.evaluate(f"{SHEET}!{chr(64 + c)}{r}") for c in range(1, width + 1)]
        if row[1] in ("", None):
            return rows
        rows.append(row)
        r += 1


def _change(xl: ExcelCompiler, book: Book, row: int, points: int) -> None:
    """Move ``points`` raw points from South to East in a game row of the first stage, in
    the workbook (pycel) and in the book (for the engine)."""
    lg = book.leagues[0]
    cols = LeagueCols(4, chips=True, subs=True)
    east, south = (f"'{lg.name}'!{chr(64 + c)}{row}" for c in cols.scores[:2])
    xl.set_value(east, xl.evaluate(east) + points)
    xl.set_value(south, xl.evaluate(south) - points)
    game = lg.games[row - 5]
    game.scores = [game.scores[0] + points, game.scores[1] - points, *game.scores[2:]]


def _same(shown: list[list[Any]], result: SeasonResult, lang: str = "en") -> None:
    tables = [t for sr in result.stages for t in (sr.players, sr.teams) if t]
    assert len(shown) == len(tables)
    for rows, lines in zip(shown, tables):
        assert [r[1] for r in rows] == [p.name for p in lines]
        for r, p in zip(rows, lines):
            assert r[0] == ("" if p.rank is None else p.rank)
            total = r[9] if len(r) == 15 else r[8]
            assert abs(Decimal(str(total)) - p.total) < Decimal("0.001")
            assert abs(Decimal(str(r[4 if len(r) == 15 else 3])) - p.carried) < Decimal("0.001")
            advanced = r[12] if len(r) == 15 else r[10]
            assert advanced == (label("advanced_mark", lang) if p.advanced else "")


def test_live_tables_equal_the_engine_and_follow_a_changed_score(template: tuple[Path, Book]
                                                                 ) -> None:
    path, book = template
    book = demo_book(40, season=True)  # a copy this test may change
    xl = _compiler(path, "on")
    headers = _headers(path)
    assert len(headers) == 4  # two stages, each a player and a team table

    def shown() -> list[list[list[Any]]]:
        return [_table(xl, h, 15 if k % 2 == 0 else 12) for k, h in enumerate(headers)]

    _same(shown(), season_result(book))
    assert xl.evaluate(f"{SHEET}!A3") == ""
    before = shown()
    _change(xl, book, 5, 12000)  # 12 points more for the first game's East
    after = shown()
    assert after != before
    result = season_result(book)
    _same(after, result)
    assert xl.evaluate(f"{SHEET}!A3") == ""  # live values are never stale
    # the team chart's table follows the live team tables
    ws = load_workbook(path)["Season standings"]
    chart_header = next(c.row for c in ws["B"] if c.value == "Team" and c.row > headers[-1])
    first_team = ws.cell(chart_header + 1, 2).value
    want = next(t.total for t in result.stages[0].teams if t.name == first_team)
    got = xl.evaluate(f"{SHEET}!C{chart_header + 1}")
    assert abs(Decimal(str(got)) - want) < Decimal("0.001")


def test_functions_off_keep_the_saved_tables_and_warn(template: tuple[Path, Book]) -> None:
    path, book = template
    xl = _compiler(path, "off")
    headers = _headers(path)
    saved = load_workbook(path, data_only=True)["Season standings"]
    cells = [(r, c) for h in headers for r in range(h + 1, h + 13) for c in range(1, 13)]
    for r, c in cells:  # pycel recomputes, after a change, what it evaluated before
        xl.evaluate(f"{SHEET}!{chr(64 + c)}{r}")
    assert xl.evaluate(f"{SHEET}!A3") == ""
    _change(xl, demo_book(40, season=True), 5, 12000)
    # the hidden block names MJ_SEASON once: while the functions are off it is #NAME?,
    # and every visible cell shows its saved value
    assert xl.evaluate(f"{SHEET}!{chr(64 + LIVE_FIRST)}{headers[0]}") == "#NAME?"
    assert xl.evaluate(f"{SHEET}!A3").startswith("⚠ Games or penalties changed")
    for r, c in cells:
        want = saved.cell(r, c).value
        got = xl.evaluate(f"{SHEET}!{chr(64 + c)}{r}")
        assert got == want or (got in ("", None) and want in ("", None)) or (
            isinstance(got, float) and abs(got - float(want)) < 1e-9), (r, c, got, want)


def test_a_failing_mj_season_says_so_in_row_3(template: tuple[Path, Book]) -> None:
    path, _ = template
    xl = _compiler(path, "fail")
    assert xl.evaluate(f"{SHEET}!A3") == ""  # as saved
    xl.set_value("Penalties!E5", -30)  # any change: the sheet is computed again
    assert xl.evaluate(f"{SHEET}!A3") == label("season_live_error", "en")
    assert "R:AK" in label("season_live_error", "en")


def test_pycel_league_standings_count_chips_and_the_penalty_log(
        template: tuple[Path, Book]) -> None:
    """The league standings tabs' native totals (game finals from MJ_SETTLE, chips times
    chip_value, the Penalties sheet's rows) evaluated by pycel equal the engine's stage
    points on the demo season; a seat a substitute played counts on the tab for the named
    player (documented), by exactly that seat's result; a penalty typed in the log moves
    the player's total by its points."""
    from test_season_standings_tabs import _substituted_seats

    path, book = template
    xl = _compiler(path, "on")
    result = season_result(book)
    chips_or_penalties = 0
    for sr in result.stages:
        sheet = f"'{sr.stage.name} Standings'"
        totals, r = {}, 5
        while (name := xl.evaluate(f"{sheet}!B{r}")) not in (None, ""):
            totals[name] = Decimal(str(xl.evaluate(f"{sheet}!D{r}")))
            r += 1
        assert set(totals) == {p.name for p in sr.players if p.games}
        for p in sr.players:
            if not p.games:
                continue
            seats = sum(_substituted_seats(book, sr.stage.name, p.name), Decimal(0))
            assert abs(totals[p.name] - p.stage_total - seats) < Decimal("0.001"), p.name
            chips_or_penalties += bool(p.chips or p.penalties)
    assert chips_or_penalties >= 3  # the demo's chips and logged penalties are in there
    # a new penalty in the log: the player's total on the tab moves by its points
    regular = result.stages[0]
    sheet = f"'{regular.stage.name} Standings'"
    row = next(r for r in range(5, 40) if xl.evaluate(f"{sheet}!B{r}") == "Aki")
    before = Decimal(str(xl.evaluate(f"{sheet}!D{row}")))
    free = 5 + len(book.penalties)
    xl.set_value(f"Penalties!B{free}", regular.stage.name)
    xl.set_value(f"Penalties!C{free}", "Aki")
    xl.set_value(f"Penalties!E{free}", -15)
    after = next(Decimal(str(xl.evaluate(f"{sheet}!D{r}"))) for r in range(5, 40)
                 if xl.evaluate(f"{sheet}!B{r}") == "Aki")
    assert after == before - 15
