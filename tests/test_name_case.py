"""A name on the roster in another case ("aki" for the roster's "Aki") is that player in
every view (issue 33 item 5): the tab's SUMIFS and COUNTIFS ignore case, and the engine
counts the name as the roster spells it. The Check still flags the cell.

Roster Aki, Ben, Chie, Dan, Eri, Fumi; some of Aki's seats typed "aki". Compared with the
engine's standings of the games with "Aki" written everywhere: the settled copy, the
command line, the saved values, the live formulas as LibreOffice recalculates them and as
pycel evaluates them (the tab standings, and the Season standings through MJ_SEASON). A
roster holding both "aki" and "AKI" is refused.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from pycel import ExcelCompiler
from test_libreoffice import SOFFICE, convert
from test_live_season import _headers, error_type
from test_pycel import pycel_functions
from test_text_scores import live_block

from umaoka.addin.cli.app import main
from umaoka.addin.udfs import MJ_SEASON, MJ_SETTLE
from umaoka.engine import PlayerStanding, UmaokaError, settle, standings
from umaoka.engine.season.settings import season_settings
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import LeagueCols
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.season_book import add_season, season_result
from umaoka.templates.build import write_league
from umaoka.templates.settle_book import read_book, settle_file

ROSTER = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"]
SCORES = [[35700, 32400, 22200, 9700], [40000, 30000, 20000, 10000],
          [25000, 38000, 27000, 10000], [12000, 33000, 45000, 10000]]
COLS = LeagueCols(4, chips=True)  # a Season sheet with chips: the Chips block


def _games() -> list[tuple[list[str], list[int]]]:
    """Twelve games of four of the six, Aki in most; every other Aki typed "aki"."""
    out, akis = [], 0
    for i in range(12):
        names = [ROSTER[(i + k) % 6] for k in range(4)]
        if "Aki" in names:
            akis += 1
            if akis % 2:
                names[names.index("Aki")] = "aki"
        out.append((names, SCORES[i % 4]))
    return out


GAMES = _games()


def expected() -> list[PlayerStanding]:
    return standings([(["Aki" if p == "aki" else p for p in names], settle(scores))
                      for names, scores in GAMES])


def _want() -> list[tuple[str, int, Decimal]]:
    return [(p.name, p.games, p.total) for p in expected()]


def _rows(ws: Any, count: int) -> list[tuple[str, int, Decimal]]:
    return [(ws.cell(5 + k, 2).value, ws.cell(5 + k, 3).value,
             Decimal(str(ws.cell(5 + k, 4).value))) for k in range(count)]


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = add_season(make_book(["standard"], players=list(ROSTER)), chips=True)
    for i, (names, scores) in enumerate(GAMES):
        book.leagues[0].games.append(Game(players=list(names), scores=list(scores),
                                          penalties=[None] * 4, session=1 + i // 4))
    return write_league(book, tmp_path_factory.mktemp("case") / "league.xlsx")


def test_the_games_hold_aki_in_both_cases() -> None:
    typed = [p for names, _ in GAMES for p in names if p.casefold() == "aki"]
    assert typed.count("aki") >= 4 and typed.count("Aki") >= 4
    assert expected()[0].name == "Aki" or "Aki" in [p.name for p in expected()]
    assert "aki" not in [p.name for p in expected()]


def test_the_engine_and_the_settled_copy(league: Path, tmp_path: Path) -> None:
    book = read_book(league)
    result = season_result(book)
    aki = next(p for p in result.stages[0].players if p.name == "Aki")
    want = next(p for p in expected() if p.name == "Aki")
    assert (aki.games, aki.total) == (want.games, want.total)
    assert "aki" not in [p.name for p in result.stages[0].players]
    assert not result.problems
    report = settle_file(league, tmp_path / "settled.xlsx")
    assert [(p.name, p.games, p.total) for p in report.standings] == _want()
    wb = load_workbook(report.path, data_only=True)
    assert _rows(wb["League Standings"], len(ROSTER)) == _want()
    # the tab keeps what was typed, and its Check says the case differs
    tab = wb["League"]
    first_aki = next(i for i, (names, _) in enumerate(GAMES) if "aki" in names)
    assert tab.cell(5 + first_aki, COLS.check).value == \
        f"{label('case_differs', 'en')}: aki"
    season = wb["Season standings"]
    names = [c.value for c in season["B"]]
    assert "Aki" in names and "aki" not in names


def test_the_command_line(league: Path, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", str(league), "-o", str(tmp_path / "s.xlsx")]) == 0
    out, err = capsys.readouterr()
    lines = {line.split()[1]: line.split() for line in out.splitlines()
             if len(line.split()) > 3 and line.split()[0].isdigit()}
    assert "aki" not in lines
    want = next(p for p in expected() if p.name == "Aki")
    assert int(lines["Aki"][2]) == want.games
    assert 'differs from "Aki" on the Players sheet only by case and counts as Aki' in err


def test_the_saved_values(league: Path) -> None:
    wb = load_workbook(league, data_only=True)
    assert _rows(wb["League Standings"], len(ROSTER)) == _want()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_the_live_formulas_in_libreoffice(league: Path, tmp_path: Path) -> None:
    wb = load_workbook(league)
    ws = wb["League"]
    block = [[None if v is None else float(v) for v in
              (ws.cell(5 + i, c).value for c in COLS.scores)] for i in range(200)]
    finals = MJ_SETTLE(block, "standard")
    for i in range(200):
        for seat, c in enumerate(COLS.results):
            ws.cell(5 + i, c).value = finals[i][seat] if finals[i][seat] != "" else None
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(convert(filled, "xlsx", tmp_path), data_only=True)
    assert _rows(back["League Standings"], len(ROSTER)) == _want()


def _mj_season(*args: Any) -> Any:
    return tuple(tuple(row) for row in MJ_SEASON(*args))


def test_the_live_formulas_in_pycel(league: Path) -> None:
    with pycel_functions("umaoka_pycel_case_rule", mj_season=_mj_season,
                         _xldudf_mj_season=_mj_season, error_type=error_type) as plugin:
        xl = ExcelCompiler(filename=str(league), plugins=[plugin])
        got = [(xl.evaluate(f"'League Standings'!B{5 + k}"),
                xl.evaluate(f"'League Standings'!C{5 + k}"),
                Decimal(str(xl.evaluate(f"'League Standings'!D{5 + k}"))))
               for k in range(len(ROSTER))]
        assert got == _want()
        live = live_block(xl, _headers(league)[0])
    result = season_result(read_book(league))
    assert [(p.name, p.games, p.total) for p in result.stages[0].players] == live
    aki = next(p for p in expected() if p.name == "Aki")
    assert ("Aki", aki.games, aki.total) in live and "aki" not in [x[0] for x in live]


def test_a_roster_with_aki_and_AKI_is_refused(tmp_path: Path) -> None:
    book = make_book(["standard"], players=["aki", "Ben", "AKI", "Dan"])
    path = write_league(book, tmp_path / "twice.xlsx")
    with pytest.raises(UmaokaError) as e:
        read_book(path)
    assert str(e.value) == ('Players row 7: "AKI" is on the roster already as "aki"; names '
                            "that differ only in case are one player (the standings cannot "
                            "tell them apart), so keep one spelling.")
    with pytest.raises(UmaokaError) as e:  # a season's roster (MJ_SEASON's players) too
        season_settings({"stages": [{"name": "S", "ruleset": "standard"}],
                         "players": ["aki", "AKI"]})
    assert 'holds "aki" and "AKI", which differ only in case' in str(e.value)
