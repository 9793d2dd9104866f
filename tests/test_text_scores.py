"""A score stored as text ("32400" pasted from a chat, "32400 ", "31,500", full-width
"３２４００", a cell formatted as Text) refuses its row in every view (issue 33 item 3).

Each form is typed into each seat of a league with a Season sheet; every view is compared
with the engine's standings of the other games: the engine and the settled copy, the saved
values, the live formulas as LibreOffice recalculates them and as pycel evaluates them,
the Check, the command line (which names the cell). The commands that write the workbook
again (add, runtime, seating --into, import --into) run on it without a crash.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from pycel import ExcelCompiler
from test_libreoffice import SOFFICE, convert
from test_live_season import _headers, error_type
from test_pycel import pycel_functions

from umaoka.addin.udfs import MJ_SEASON, MJ_SETTLE
from umaoka.engine import PlayerStanding, settle, standings
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import LeagueCols
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.results import problems, settle_league
from umaoka.templates.book.season_book import add_season, season_result
from umaoka.templates.build import write_league
from umaoka.templates.settle_book import read_book, settle_file
from umaoka.templates.sheets.season_live import LIVE_FIRST, LIVE_WIDTH

EXE = str(Path(sys.executable).with_name("umaoka"))
ROSTER = ["Aki", "Ben", "Chie", "Dan"]
#: Each form and the number it shows.
FORMS = [("32400", 32400), ("32400 ", 32400), ("31,500", 31500), ("３２４００", 32400)]
GOOD = [[35700, 32400, 22200, 9700], [40000, 30000, 20000, 10000],
        [25000, 38000, 27000, 10000], [12000, 33000, 45000, 10000]]
COLS = LeagueCols(4, chips=True)  # a Season sheet with chips: the Chips block
STALE = label("stale", "en")[:30]


def _rows() -> list[tuple[list[str], list[Any], str | None]]:
    """The games: a good game, then each form in each seat (the other seats adding up with
    the number the text shows), good games between them. The players turn round."""
    out: list[tuple[list[str], list[Any], str | None]] = []
    k = 0
    for text, shown in FORMS:
        for seat in range(4):
            good = GOOD[k % len(GOOD)]
            out.append((ROSTER[k % 4:] + ROSTER[:k % 4], list(good), None))
            rest = [40000, 20000, 100000 - 60000 - shown]
            scores: list[Any] = rest[:seat] + [text] + rest[seat:]
            out.append((ROSTER[(k + 1) % 4:] + ROSTER[:(k + 1) % 4], scores, text))
            k += 1
    return out


ROWS = _rows()


def expected() -> list[PlayerStanding]:
    """The engine's standings of the games without a text score."""
    return standings([(names, settle(scores)) for names, scores, text in ROWS if text is None])


def _standings_rows(ws: Any, count: int) -> list[tuple[str, int, Decimal]]:
    got = []
    for k in range(count):
        name, games, total = (ws.cell(5 + k, c).value for c in (2, 3, 4))
        got.append((name, games, Decimal(str(total)).quantize(Decimal("0.1"))))
    return got


def _want(standing: list[PlayerStanding]) -> list[tuple[str, int, Decimal]]:
    return [(p.name, p.games, p.total.quantize(Decimal("0.1"))) for p in standing]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = add_season(make_book(["standard"], players=list(ROSTER)), chips=True)
    for i, (names, scores, _) in enumerate(ROWS):
        book.leagues[0].games.append(Game(players=names, scores=scores, penalties=[None] * 4,
                                          session=1 + i // 4, table=1, number=1 + i % 4))
    return write_league(book, tmp_path_factory.mktemp("text") / "league.xlsx")


def _text_rows() -> list[int]:
    return [5 + i for i, (_, _, text) in enumerate(ROWS) if text is not None]


def _cell(row: int) -> str:
    i = row - 5
    seat = next(s for s, v in enumerate(ROWS[i][1]) if isinstance(v, str))
    return f"{get_column_letter(COLS.scores[seat])}{row}"


def test_the_engine_refuses_the_row_naming_the_cell(league: Path) -> None:
    book = read_book(league)
    outcomes = settle_league(book.leagues[0], book.rules[0].ruleset)
    for row in _text_rows():
        o = outcomes[row - 5]
        assert o is not None and o.settlement is None
        assert f"score in {_cell(row)} (" in o.error and "is stored as text" in o.error
    found = problems(book, [outcomes])
    assert len(found) == len(_text_rows())
    assert all(f"in {_cell(r)} " in p for r, p in zip(_text_rows(), found))


def _check_tab(ws: Any, results_given: bool = True) -> None:
    """The league tab as a view: the Check says a score is typed as text, the row has no
    final scores and no places; the good rows are OK and placed as the engine places
    them."""
    text_label = label("score_text", "en")
    for i, (_, scores, text) in enumerate(ROWS):
        row = 5 + i
        check = ws.cell(row, COLS.check).value
        places = [ws.cell(row, c).value for c in COLS.places]
        if text is not None:
            assert check == text_label, (row, check)
            assert all(p in (None, "") for p in places), (row, places)
            first = ws.cell(row, COLS.results[0]).value
            assert isinstance(first, str) and "stored as text" in first, (row, first)
        else:
            assert check == "OK", (row, check)
            assert tuple(places) == settle(scores).places, (row, places)
            if results_given:
                finals = [Decimal(str(ws.cell(row, c).value)) for c in COLS.results]
                assert finals == list(settle(scores).final)


def test_the_settled_copy(league: Path, tmp_path: Path) -> None:
    out = settle_file(league, tmp_path / "settled.xlsx")
    assert out.games == len(ROWS) - len(_text_rows())
    wb = load_workbook(out.path, data_only=True)
    _check_tab(wb["League"])
    assert _standings_rows(wb["League Standings"], 4) == _want(expected())


def test_the_saved_values(league: Path) -> None:
    wb = load_workbook(league, data_only=True)
    _check_tab(wb["League"])
    assert _standings_rows(wb["League Standings"], 4) == _want(expected())
    assert wb["Season standings"]["A3"].value in (None, "")


def _mj_season(*args: Any) -> Any:
    return tuple(tuple(row) for row in MJ_SEASON(*args))


def live_block(xl: Any, header: int) -> list[tuple[str, int, Decimal]]:
    """Name, games and total of each row of the hidden MJ_SEASON block beside a Season
    standings table (header row ``header``), as the add-in computes them."""
    sheet = "'Season standings'"
    cols = [get_column_letter(LIVE_FIRST + k) for k in range(LIVE_WIDTH)]
    heads = [xl.evaluate(f"{sheet}!{c}{header}") for c in cols]
    name, games, total = (cols[heads.index(h)] for h in ("Name", "Games", "Total"))
    rows, r = [], header + 1
    while xl.evaluate(f"{sheet}!{name}{r}") not in ("", None):
        values = [xl.evaluate(f"{sheet}!{c}{r}") for c in (name, games, total)]
        if isinstance(values[2], (int, float)):  # a player's line (not a roster note)
            rows.append((values[0], values[1], Decimal(str(values[2]))))
        r += 1
    return rows


def test_the_live_formulas_in_pycel(league: Path) -> None:
    with pycel_functions("umaoka_pycel_text", mj_season=_mj_season,
                         _xldudf_mj_season=_mj_season, error_type=error_type) as plugin:
        xl = ExcelCompiler(filename=str(league), plugins=[plugin])
        text_label = label("score_text", "en")
        for i, (_, scores, text) in enumerate(ROWS):
            row = 5 + i
            check = xl.evaluate(f"League!{get_column_letter(COLS.check)}{row}")
            places = [xl.evaluate(f"League!{get_column_letter(c)}{row}") for c in COLS.places]
            first = xl.evaluate(f"League!{get_column_letter(COLS.results[0])}{row}")
            if text is None:
                assert (check, tuple(places)) == ("OK", settle(scores).places)
            else:
                assert check == text_label and all(p in (None, "") for p in places)
                assert "is stored as text" in first
        got = [(xl.evaluate(f"'League Standings'!B{5 + k}"),
                xl.evaluate(f"'League Standings'!C{5 + k}"),
                Decimal(str(xl.evaluate(f"'League Standings'!D{5 + k}"))).quantize(
                    Decimal("0.1"))) for k in range(4)]
        # the Season standings through MJ_SEASON: the rows with a text score left out
        live = live_block(xl, _headers(league)[0])
    assert got == _want(expected())
    result = season_result(read_book(league))
    assert [(p.name, p.games, p.total) for p in result.stages[0].players] == live
    assert [(p.name, p.games) for p in result.stages[0].players] == [
        (p.name, p.games) for p in expected()]
    assert sum("is stored as text" in p for p in result.problems) == len(_text_rows())


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_the_live_formulas_in_libreoffice(league: Path, tmp_path: Path) -> None:
    """What MJ_SETTLE returns for the tab's block (the cells as Excel sends them: numbers
    as floats, text as text) written over the array formula; LibreOffice recalculates the
    Check, places, standings and the Season sheet's stale banner."""
    wb = load_workbook(league)
    ws = wb["League"]
    block = [[float(v) if isinstance(v, int) else v
              for v in (ws.cell(5 + i, c).value for c in COLS.scores)] for i in range(200)]
    block = [[None if v is None else v for v in row] for row in block]
    finals = MJ_SETTLE(block, "standard")
    for i in range(200):
        for seat, c in enumerate(COLS.results):
            ws.cell(5 + i, c).value = finals[i][seat] if finals[i][seat] != "" else None
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(convert(filled, "xlsx", tmp_path), data_only=True)
    _check_tab(back["League"])
    assert _standings_rows(back["League Standings"], 4) == _want(expected())
    assert STALE not in str(back["Season standings"]["A3"].value or "")


def umaoka(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=300)


def test_the_command_line_names_the_cell_and_nothing_crashes(league: Path,
                                                            tmp_path: Path) -> None:
    run = umaoka("settle", league, "-o", tmp_path / "s.xlsx")
    assert run.returncode == 0, run.stderr
    for row in _text_rows():
        assert f"League!row {row}: " in run.stderr and f"score in {_cell(row)} (" in run.stderr
    assert run.stderr.count("is stored as text") == len(_text_rows())
    lobby = Path(__file__).parent / "data" / "imports" / "sca20260404.log"
    for args in (("add", "{f}", "--players", "Eri"), ("runtime", "{f}", "--to", "classic"),
                 ("seating", "Aki,Ben,Chie,Dan", "--rounds", "1", "--into", "{f}"),
                 ("import", lobby, "--into", "{f}")):
        f = tmp_path / f"{args[0]}.xlsx"
        shutil.copy(league, f)
        run = umaoka(*(str(a).replace("{f}", str(f)) for a in args))
        assert run.returncode == 0, (args, run.stderr)
        assert "unexpected" not in run.stderr and "Traceback" not in run.stderr
        # the rewritten workbook keeps the text and its saved values say the same
        wb = load_workbook(f, data_only=True)
        row = _text_rows()[0]
        assert wb["League"][_cell(row)].value == ROWS[row - 5][1][
            next(s for s, v in enumerate(ROWS[row - 5][1]) if isinstance(v, str))]
        ws = wb["League"]
        check = next(c.column for c in ws[4] if c.value == label("check", "en"))
        assert ws.cell(row, check).value == label("score_text", "en"), args


def test_excel_warns_as_a_score_is_typed_as_text(league: Path) -> None:
    ws = load_workbook(league)["League"]
    first, last = get_column_letter(COLS.scores[0]), get_column_letter(COLS.scores[-1])
    rules = [dv for dv in ws.data_validations.dataValidation if dv.type == "decimal"]
    assert len(rules) == 1 and str(rules[0].sqref) == f"{first}5:{last}204"
    assert rules[0].showErrorMessage and "number" in rules[0].error


def _stale_banner_book(tmp: Path) -> Path:
    """Five stages (beyond what MJ_SEASON computes live: the Season standings are saved
    values under a stale check), each form alone in a tab of its own, in seat k."""
    names = ["League", "B", "C", "D", "E"]
    book = add_season(make_book(["standard"], leagues=names, players=list(ROSTER)), chips=True)
    for k, (text, shown) in enumerate(FORMS):
        games = book.leagues[k].games
        games.append(Game(players=list(ROSTER), scores=list(GOOD[k]), penalties=[None] * 4,
                          session=1))
        rest = [40000, 20000, 100000 - 60000 - shown]
        games.append(Game(players=list(ROSTER), scores=rest[:k] + [text] + rest[k:],
                          penalties=[None] * 4, session=1))
    return write_league(book, tmp / "stages.xlsx")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_no_false_stale_banner_in_libreoffice(tmp_path: Path) -> None:
    """LibreOffice read "32400" as a number in SUMPRODUCT(range*weights), where Excel and
    umaoka counted the block as text (-1): "Games or penalties changed" with nothing
    changed. Both now count a text cell as 0."""
    path = _stale_banner_book(tmp_path)
    assert load_workbook(path, data_only=True)["Season standings"]["A3"].value in (None, "")
    back = load_workbook(convert(path, "xlsx", tmp_path), data_only=True)
    assert back["Season standings"]["A3"].value in (None, "")
    for k in range(len(FORMS)):  # the Check there too
        ws = back[["League", "B", "C", "D"][k]]
        assert ws.cell(6, COLS.check).value == label("score_text", "en")
