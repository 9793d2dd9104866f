"""The Check column says what is wrong with a row, recalculated by LibreOffice.

The Check is built from hidden helper cells, one per kind of check (scores, names, game
caps), so that no formula passes Excel's 8,192 characters (see tests/test_excel_limits.py).
Here a season workbook gets one bad row of every kind the Check knows, and a tab with
platform finals: LibreOffice computes the workbook from scratch (the add-in's block given
as values, what MJ_SETTLE returns in Excel) and every row's Check shows its message, the
saved values (Check and helpers) equal what LibreOffice computes, and the engine's mirror
of the Check (``check_text``) says the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_alive import _same, _values, hard_recalculated, needs_lo

from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import Game
from umaoka.templates.book.results import check_text
from umaoka.templates.build import write_league
from umaoka.templates.demo import demo_book

OK = [35700, 32400, 22200, 9700]


def _bad_rows() -> tuple[Any, list[tuple[str, int, str]]]:
    """The demo season with bad rows added; (tab, row, the Check's message) of each."""
    book = demo_book(120, season=True)
    regular, final = book.leagues
    # Chie has 39 games of the Regular stage's cap of 46 before these rows; Kou, Gin and
    # Emi fewer than 30
    p = ["Chie", "Kou", "Gin", "Emi"]
    rows: list[tuple[Game, str]] = [
        (Game(None, 9, 1, 1, p, [35700, 32400, 22200, None]), "Missing score"),
        (Game(None, 9, 1, 2, p, [None] * 4, 1000), "Missing score"),
        (Game(None, 9, 1, 3, p, [35.7, 32.4, 22.2, 9.7]), "Typed in thousands"),
        (Game(None, 9, 1, 4, p, [357, 324, 222, 97]), "Typed in hundreds"),
        (Game(None, 9, 1, 5, p, [35700, 32400, 22200, 9600]), "Off by -100"),
        (Game(None, 9, 1, 6, p, [35700, 32400, 22200, 9700], 1000), "Off by +1,000"),
        (Game(None, 9, 1, 7, p, [35750, 32350, 22200, 9700]), "Not x100"),
        (Game(None, 9, 1, 8, [p[0], "Aky", p[2], "A*"], OK), "Not on roster: Aky"),
        (Game(None, 9, 1, 9, [p[0], p[1], "A*", p[3]], OK), "Not on roster: A*"),
        (Game(None, 9, 1, 10, [p[0], p[1], p[2], "aki"], OK),
         "Case differs from roster: aki"),
        (Game(None, 9, 1, 11, [p[0], "Aky", "Bob", "aki"], [35700, 32400, 22200, 9600]),
         "Off by -100"),
        (Game(players=[p[0], "Aky", None, None], scores=[None] * 4), ""),
        (Game(None, 9, 1, 12, ["Kou", "Gin", "Emi", "Aki"], OK), "OK"),
        (Game(None, 9, 1, 13, p, OK), "Over game cap: Chie"),  # her 52nd game
    ]
    first = 5 + len(regular.games)
    regular.games += [g for g, _ in rows]
    expected = [(regular.name, first + i, text) for i, (_, text) in enumerate(rows)]
    # the Final tab holds platform finals: every seat's, a seat's missing, a name off the
    # roster (the names are checked, the scores and the game cap are not)
    final.given = True
    q = list(final.games[0].players)
    platform: list[tuple[Game, str]] = [
        (Game(None, 9, 1, 1, q, [None] * 4, given=[45.3, 12.0, -20.3, -37.0]), "By platform"),
        (Game(None, 9, 1, 2, q, [None] * 4, given=[45.3, 12.0, -20.3, None]),
         "Platform final missing"),
        (Game(None, 9, 1, 3, [q[0], q[1], q[2], "Zed"], [None] * 4,
              given=[45.3, 12.0, -20.3, -37.0]), "Not on roster: Zed"),
        (Game(None, 9, 1, 4, q, [35700, 32400, 22200, 9600]), "Off by -100"),
    ]
    first = 5 + len(final.games)
    final.games += [g for g, _ in platform]
    expected += [(final.name, first + i, text) for i, (_, text) in enumerate(platform)]
    return book, expected


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory
                 ) -> tuple[Any, list[tuple[str, int, str]], Path, dict, dict]:
    tmp = tmp_path_factory.mktemp("check")
    book, expected = _bad_rows()
    ours = write_league(book, tmp / "ours.xlsx")
    saved = _values(ours)
    wb = load_workbook(ours)
    for lg in book.leagues:  # MJ_SETTLE's block as values, every other formula our own
        ws, cols = wb[lg.name], league_cols(lg, 4)
        for r in range(5, 5 + ws.max_row):
            for c in cols.results:
                v = saved.get((lg.name, ws.cell(r, c).coordinate), "")
                ws.cell(r, c).value = None if v == "" else v
    given = tmp / "given.xlsx"
    wb.save(given)
    theirs = _values(hard_recalculated(given, "xlsx", tmp))
    return book, expected, ours, saved, theirs


@needs_lo
def test_check_shows_each_rows_message_in_libreoffice(recalculated: Any) -> None:
    book, expected, _, saved, theirs = recalculated
    for tab, row, text in expected:
        lg = next(lg for lg in book.leagues if lg.name == tab)
        col = league_cols(lg, 4).check
        coordinate = f"{_letter(col)}{row}"
        assert theirs[(tab, coordinate)] == text, (tab, row)
        assert saved[(tab, coordinate)] == text, (tab, row)


@needs_lo
def test_the_engines_mirror_of_the_check_says_the_same(recalculated: Any) -> None:
    book, expected, *_ = recalculated
    for tab, row, text in expected:
        lg = next(lg for lg in book.leagues if lg.name == tab)
        game = lg.games[row - 5]
        shown = check_text(game, book.rules_of(lg).ruleset, "en", book.players)
        assert shown == text or (text.startswith("Over game cap") and shown == "OK"), (tab, row)


@needs_lo
def test_game_cap_flags_a_row_in_libreoffice(recalculated: Any) -> None:
    """The demo's Regular stage caps games at 46: Dan's 47th game and on are flagged."""
    book, _, _, saved, theirs = recalculated
    lg = book.leagues[0]
    col = _letter(league_cols(lg, 4).check)
    flagged = [r for r in range(5, 5 + len(lg.games))
               if str(theirs[(lg.name, f"{col}{r}")]).startswith("Over game cap: ")]
    assert flagged, "the demo season has a player over the game cap"
    assert all(theirs[(lg.name, f"{col}{r}")] == saved[(lg.name, f"{col}{r}")]
               for r in flagged)


@needs_lo
def test_saved_check_and_helper_cells_are_what_libreoffice_computes(recalculated: Any
                                                                   ) -> None:
    book, _, ours, saved, theirs = recalculated
    checked = 0
    for lg in book.leagues:
        cols = league_cols(lg, 4)
        ws = load_workbook(ours)[lg.name]
        for c in (cols.check, cols.check_scores, cols.check_names, cols.check_caps):
            for r in range(5, 5 + len(lg.games) + 3):
                cell = ws.cell(r, c)
                if cell.data_type != "f":
                    continue
                key = (lg.name, cell.coordinate)
                assert _same(saved[key], theirs[key]), (key, saved[key], theirs[key])
                checked += 1
    assert checked > 4 * 100


def _letter(col: int) -> str:
    from openpyxl.utils import get_column_letter

    return get_column_letter(col)
