"""A real formula evaluator (pycel) computes a filled template; its standings equal the engine's.

MJ_SETTLE is plugged into pycel as a Python function (pycel looks unknown Excel functions
up, lower-cased, in its plugin modules), also under xlwings Lite's saved name
``_xldudf_MJ_SETTLE``; every other formula is pycel's own Excel, including the IFERROR
around the add-in call, which passes the add-in's results through.
"""

from __future__ import annotations

import contextlib
import sys
import types
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pycel import ExcelCompiler, excelwrapper
from pycel.excelutil import flatten
from pycel.lib import logical

from umaoka.addin.udfs import MJ_SETTLE
from umaoka.engine import settle, standings
from umaoka.templates.build import LeagueCols, StandCols, build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.xlsx.io import save_workbook


def _defined_names(self: Any) -> dict[str, Any]:
    """pycel 1.0b30 reads defined names with the openpyxl < 3.1 API; this is the 3.1 one."""
    if self.workbook is not None and self._defined_names is None:
        self._defined_names = {}
        for d_name in self.workbook.defined_names.values():
            try:
                dest = [(a, ws) for ws, a in d_name.destinations if ws in self.workbook]
            except Exception:  # an OFFSET(...) name (the roster dropdown) has no destination
                dest = []
            if dest:
                self._defined_names[str(d_name.name)] = dest
    return self._defined_names


def mj_settle(scores: Any, ruleset: Any = None, deposits: Any = None,
              penalties: Any = None) -> Any:
    return tuple(tuple(row) for row in MJ_SETTLE(scores, ruleset, deposits, penalties))


def _broadcast(f: Any) -> Any:
    """Excel's array expansion for pycel: a row and a column of an array formula's
    arguments are expanded to the block (pycel takes the shape of one argument and would
    index a 1 x 4 row of column tests as 200 x 4); single values pass through."""
    def wrapper(*args: Any) -> Any:
        arrays = [a for a in args if isinstance(a, tuple)]
        if not arrays:
            return f(*args)
        rows, cols = max(len(a) for a in arrays), max(len(a[0]) for a in arrays)

        def pick(a: Any, r: int, c: int) -> Any:
            if not isinstance(a, tuple):
                return a
            return a[r if len(a) > 1 else 0][c if len(a[0]) > 1 else 0]

        return tuple(tuple(f(*(pick(a, r, c) for a in args)) for c in range(cols))
                     for r in range(rows))
    return wrapper


@_broadcast
def if_(test: Any, true_value: Any, false_value: Any = 0) -> Any:
    return logical.if_(test, true_value, false_value)


@_broadcast
def iferror(value: Any, fallback: Any) -> Any:
    return logical.iferror(value, fallback)


def counta(*args: Any) -> int:
    """Excel's COUNTA (pycel has none): the cells that are not empty (numbers, text,
    TRUE/FALSE, errors). The Check column counts a score typed as text with it."""
    return sum(1 for x in flatten(args) if x is not None and x != "")


@contextlib.contextmanager
def pycel_functions(name: str, **functions: Any) -> Iterator[str]:
    """pycel set up as Excel with umaoka's functions: a plugin module ``name`` holding
    MJ_SETTLE (also under xlwings Lite's saved name), IFERROR and IF (the array-expanding
    ones above) and ``functions`` (lower-case Excel names; they may replace those), and
    defined names read with openpyxl 3.1's API. Yields the plugin's name for
    ``ExcelCompiler(plugins=[...])``; everything is undone afterwards."""
    plugin = types.ModuleType(name)
    defaults = {"mj_settle": mj_settle, "_xldudf_mj_settle": mj_settle,
                "iferror": iferror, "if_": if_, "counta": counta}
    for key, f in {**defaults, **functions}.items():
        setattr(plugin, key, f)
    sys.modules[name] = plugin
    original = excelwrapper.ExcelOpxWrapper.defined_names
    excelwrapper.ExcelOpxWrapper.defined_names = property(_defined_names)  # type: ignore
    try:
        yield name
    finally:
        excelwrapper.ExcelOpxWrapper.defined_names = original  # type: ignore
        del sys.modules[name]


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    book = demo_book(16)
    path = tmp_path_factory.mktemp("pycel") / "demo.xlsx"
    save_workbook(build_workbook(book), path)
    # xlwings Lite's saved form (the default runtime) is bound as Excel binds it on load
    with pycel_functions("umaoka_pycel_plugin") as plugin:
        yield ExcelCompiler(filename=str(path), plugins=[plugin]), book


def test_results_places_and_check(evaluated: tuple[Any, Any]) -> None:
    xl, book = evaluated
    league = book.leagues[0]
    rules = book.rules[0].ruleset
    cols = LeagueCols(4)
    sheet = league.name
    for i, g in enumerate(league.games[:4]):
        s = settle(g.scores, rules, g.deposits or 0, g.penalties or None)
        row = 5 + i
        finals = [xl.evaluate(f"'{sheet}'!{_col(c)}{row}") for c in cols.results]
        assert [Decimal(str(f)) for f in finals] == list(s.final)
        places = [xl.evaluate(f"'{sheet}'!{_col(c)}{row}") for c in cols.places]
        assert tuple(places) == s.places
        assert xl.evaluate(f"'{sheet}'!{_col(cols.check)}{row}") == "OK"
    assert xl.evaluate(f"'{sheet}'!{_col(cols.check)}{5 + len(league.games)}") == ""


def close(value: float, expected: Decimal, places: int) -> bool:
    """Equal once rounded for display (half a unit of the last place, plus float noise)."""
    return abs(Decimal(repr(value)) - expected) <= Decimal(5).scaleb(-places - 1) + Decimal("1e-9")


def _col(c: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(c)


def test_standings_equal_the_engine(evaluated: tuple[Any, Any]) -> None:
    xl, book = evaluated
    rules = book.rules[0].ruleset
    sc = StandCols(4)
    for sheet, leagues in (("Spring 2026 Standings", book.leagues[:1]),
                           ("Standings", book.leagues)):
        games = [(g.players, settle(g.scores, rules, g.deposits or 0, g.penalties or None))
                 for lg in leagues for g in lg.games]
        expected = standings(games)
        for k, p in enumerate(expected):
            row = 5 + k
            got = [xl.evaluate(f"'{sheet}'!{_col(c)}{row}") for c in range(1, sc.visible + 1)]
            assert got[1] == p.name
            assert got[2] == p.games
            assert Decimal(str(got[3])) == p.total
            assert close(got[4], p.average, 2)  # the engine rounds for display
            assert close(got[5], p.average_place, 2)
            assert tuple(got[6:10]) == p.places
            assert close(got[10], p.top_rate, 4)
            assert close(got[14], p.last_avoid_rate, 4)
        assert xl.evaluate(f"'{sheet}'!B{5 + len(expected)}") == ""


def test_check_flags_a_name_in_another_case(tmp_path: Path) -> None:
    """The Check formula, computed: "chie" for the roster's "Chie" is flagged (COUNTIF does
    not see case; FIND does), a name not on the roster comes first, the others are OK."""
    from openpyxl.utils import get_column_letter

    from umaoka.templates.book.model import Game, make_book

    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    for names in (["Aki", "Ben", "chie", "Dan"], ["Aki", "Ben", "Chie", "Dan"],
                  ["Aki", "Bob", "chie", "Dan"], ["AKI", "Ben", "Chie", "Dan"]):
        book.leagues[0].games.append(Game(players=names, scores=[40000, 30000, 20000, 10000],
                                          penalties=[None] * 4))
    path = tmp_path / "case.xlsx"
    save_workbook(build_workbook(book), path)
    with pycel_functions("umaoka_pycel_case") as plugin:
        xl = ExcelCompiler(filename=str(path), plugins=[plugin])
        col = get_column_letter(LeagueCols(4).check)
        got = [xl.evaluate(f"League!{col}{row}") for row in range(5, 9)]
    assert got == [
        "Case differs from roster: chie", "OK", "Not on roster: Bob",
        "Case differs from roster: AKI"]


def test_wildcard_names_are_matched_exactly(tmp_path: Path) -> None:
    """Names with ``*``, ``?`` and ``~`` (Tenhou's ``*芹澤六花*``): pycel's COUNTIFS and
    SUMIFS read the escaped criteria as Excel does; the standings are the engine's."""
    from test_safety_season import _wild_book

    from umaoka.templates.build import write_league

    book = _wild_book()
    with pycel_functions("umaoka_pycel_wild") as plugin:
        xl = ExcelCompiler(filename=str(write_league(book, tmp_path / "wild.xlsx")),
                           plugins=[plugin])
        rules = book.rules[0].ruleset
        expected = standings([(g.players, settle(g.scores, rules))
                              for g in book.leagues[0].games])
        for k, p in enumerate(expected):
            got = [xl.evaluate(f"'Spring Standings'!{c}{5 + k}") for c in "BCD"]
            assert (got[0], got[1], Decimal(str(got[2]))) == (p.name, p.games, p.total)
        assert [p.name for p in expected[:1]] == ["A*"] and expected[0].games == 2
