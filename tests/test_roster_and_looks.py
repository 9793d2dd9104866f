"""Newcomer rough edges of the league workbook: names not on the roster are flagged, the
roster is large and editable, fonts are named, the Presets sheet wraps, Japanese labels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from pycel import ExcelCompiler, excelwrapper
from test_pycel import _defined_names

from umaoka.templates.book.model import make_book
from umaoka.templates.book.results import check_text, problems, row_warnings, settle_league
from umaoka.templates.build import LeagueCols, build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.xlsx.io import save_workbook


def _typo_book() -> Any:
    book = demo_book(8)
    game = book.leagues[0].games[2]
    game.players[1] = "Aky"  # a typo of a roster name
    return book, game


def test_check_text_and_settle_flag_a_name_not_on_the_roster() -> None:
    book, game = _typo_book()
    rules = book.rules[0].ruleset
    assert check_text(game, rules, "en", book.players) == "Not on roster: Aky"
    assert check_text(game, rules, "en") == "OK"  # without a roster: no opinion
    assert check_text(game, rules, "ja", book.players) == "名簿にない: Aky"
    outcomes = [settle_league(lg, rules) for lg in book.leagues]
    assert problems(book, outcomes) == []  # the row is settled: it counts, with a warning
    lines = row_warnings(book, outcomes)
    assert len(lines) == 1 and '"Aky" is not on the Players sheet' in lines[0]
    assert lines[0].startswith('Spring 2026!row 7: "Aky"')


def test_check_formula_flags_a_name_not_on_the_roster(tmp_path: Path) -> None:
    book, _ = _typo_book()
    path = tmp_path / "typo.xlsx"
    save_workbook(build_workbook(book), path)
    check = get_column_letter(LeagueCols(4).check)
    original = excelwrapper.ExcelOpxWrapper.defined_names
    excelwrapper.ExcelOpxWrapper.defined_names = property(_defined_names)  # type: ignore
    try:
        xl = ExcelCompiler(filename=str(path))
        assert xl.evaluate(f"'Spring 2026'!{check}7") == "Not on roster: Aky"
        assert xl.evaluate(f"'Spring 2026'!{check}6") == "OK"
    finally:
        excelwrapper.ExcelOpxWrapper.defined_names = original  # type: ignore
    saved = load_workbook(path, data_only=True)["Spring 2026"]
    assert saved[f"{check}7"].value == "Not on roster: Aky"  # the saved value agrees


def test_player_dropdown_warns_but_lets_a_new_name_stay() -> None:
    ws = build_workbook(make_book())["League"]
    dv = next(d for d in ws.data_validations.dataValidation if d.formula1 == "RosterList")
    assert dv.showErrorMessage and dv.errorStyle == "warning"
    assert "add it to Players" in dv.error


def test_roster_is_large_and_players_rows_can_be_inserted_and_deleted() -> None:
    wb = build_workbook(make_book())
    assert wb.defined_names["Roster"].attr_text == "'Players'!$A$5:$A$44"
    ws = wb["Players"]
    assert ws["A44"].protection.locked is False
    assert ws.protection.sheet and ws.protection.insertRows is False
    assert ws.protection.deleteRows is False  # False = allowed while protected
    assert ws.page_setup.orientation == "landscape"
    assert wb["xlwings.conf"].page_setup.orientation == "landscape"
    helper = wb["League Standings"]
    names = [c.value for row in helper.iter_rows(min_row=5, max_row=5) for c in row
             if isinstance(c.value, str) and "Roster" in c.value]
    assert names == ['=IFERROR(INDEX(Roster,1)&"","")']


def test_every_styled_font_is_named_and_sized() -> None:
    for lang, name in (("en", "Calibri"), ("ja", "Yu Gothic")):
        wb = build_workbook(demo_book(8, lang=lang))
        fonts = {(f.name, f.sz) for f in wb._fonts}
        assert all(n is not None and s is not None for n, s in fonts)
        assert name in {n for n, _ in fonts}


def test_japanese_defaults_and_penalty_label() -> None:
    book = make_book(lang="ja")
    assert book.leagues[0].name == "リーグ"
    ws = build_workbook(book)["リーグ"]
    texts = {c.value for row in ws.iter_rows(min_row=3, max_row=4) for c in row}
    assert any(isinstance(t, str) and "ペナルティ" in t for t in texts)
    assert not any(isinstance(t, str) and "罰符" in t for t in texts)


def test_presets_sheet_wraps_and_explains_itself() -> None:
    wb = build_workbook(make_book())
    ws = wb["Presets"]
    assert "preset row" not in ws["A2"].value and "--ruleset" in ws["A2"].value
    assert all(ws.row_dimensions[r].height and ws.row_dimensions[r].height >= 30
               for r in range(5, ws.max_row + 1))
    assert "seed" not in " ".join(str(c.value) for row in ws.iter_rows() for c in row).lower()


def test_empty_chart_has_no_dash_series() -> None:
    ws = build_workbook(make_book())["League Standings"]
    chart = ws._charts[0]
    assert chart.y_axis.numFmt.formatCode == "General"
    hdr = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Session")
    heads = [ws.cell(hdr, c).value for c in range(2, 10)]
    assert heads == [f'=IF($B${5 + k}=""," ",$B${5 + k})' for k in range(8)]
