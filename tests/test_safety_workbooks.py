"""Odd but valid, damaged and tampered workbooks: read right, or refused in one sentence."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import load_workbook
from umaoka.engine import UmaokaError
from umaoka.templates.build import build_workbook
from umaoka.templates.io import save_workbook
from umaoka.templates.model import Game, make_book
from umaoka.templates.settle_book import read_book, settle_file

SHEET = "xl/worksheets/sheet1.xml"  # the league tab: the first sheet of a fresh workbook


@pytest.fixture
def league(tmp_path: Path) -> Path:
    book = make_book(["standard"], ["Spring"], ["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].games += [
        Game(1, 1, 1, 1, ["Aki", "Ben", "Chie", "Dan"], [35700, 32400, 22200, 9700]),
        Game(2, 1, 1, 2, ["Ben", "Aki", "Dan", "Chie"], [40000, 30000, 20000, 10000]),
    ]
    path = tmp_path / "league.xlsx"
    save_workbook(build_workbook(book), path)
    return path


def _sheet_part(path: Path, name: str) -> str:
    wb = load_workbook(path, read_only=True)
    try:
        return wb[name]._worksheet_path.lstrip("/")
    finally:
        wb.close()


def rewrite(path: Path, part: str, change: Callable[[str], str]) -> Path:
    """A copy of the workbook with one part's XML changed."""
    out = path.with_name("changed.xlsx")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == part:
                data = change(data.decode("utf-8")).encode("utf-8")
            dst.writestr(item, data)
    return out


def test_cells_without_an_address_follow_the_previous_cell(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(r' r="[A-Z]+\d+"', "", x))
    games = read_book(changed).leagues[0].games
    assert games[0].scores == [35700, 32400, 22200, 9700]
    assert games[1].players == ["Ben", "Aki", "Dan", "Chie"]


def test_an_iso_date_cell_reads_as_a_date(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(
        r'<c r="A5"([^>]*?)(/>|>.*?</c>)', r'<c r="A5"\1 t="d"><v>2026-04-04T00:00:00</v></c>',
        x, count=1))
    game = read_book(changed).leagues[0].games[0]
    assert str(game.date).startswith("2026-04-04")


def test_a_formula_in_the_date_column_uses_its_saved_value(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(
        r'<c r="A6"([^>]*?)(/>|>.*?</c>)', r'<c r="A6"\1><f>A5+7</f><v>46123</v></c>', x,
        count=1))
    assert read_book(changed).leagues[0].games[1].date == 46123
    unsaved = rewrite(league, part, lambda x: re.sub(
        r'<c r="A6"([^>]*?)(/>|>.*?</c>)', r'<c r="A6"\1><f>A5+7</f></c>', x, count=1))
    with pytest.raises(UmaokaError, match=r"Spring!A6 holds a formula; .*needs its value saved"):
        read_book(unsaved)


@pytest.mark.parametrize(("change", "why"), [
    (lambda x: x.replace("</sheetData>", "</sheetDat>"), "XML error: mismatched tag"),
    (lambda x: x.replace('r="I5"', 'r="I2000000000"'), "below Excel's last row"),
    (lambda x: x.replace('<row r="5"', '<row r="99999999999"'), "outside Excel's rows"),
    (lambda x: x.replace('r="I5"', 'r="I5X"'), 'cell address "I5X"'),
    (lambda x: re.sub(r'<c r="E5"[^>]*?(/>|>.*?</c>)', r'<c r="E5" t="s"><v>99999</v></c>',
                      x, count=1), "E5 points to a missing shared text"),
    (lambda x: re.sub(r'<c r="I5"([^>]*?)(/>|>.*?</c>)', r'<c r="I5"\1><v>12abc</v></c>', x,
                      count=1), 'I5 holds "12abc" as a number'),
])
def test_damaged_league_tab_is_one_sentence(league: Path, change: Callable[[str], str],
                                             why: str):
    changed = rewrite(league, _sheet_part(league, "Spring"), change)
    with pytest.raises(UmaokaError) as err:
        settle_file(changed)
    message = str(err.value)
    assert why in message and "\n" not in message and len(message) < 600
    assert message.startswith('sheet "Spring" is damaged')


def test_tampered_layout_sheet_is_one_sentence(league: Path):
    part = _sheet_part(league, "_umaoka")

    def tamper(x: str) -> str:  # the league row's numbers become text
        return re.sub(r"(<c r=\"D\d+\"[^>]*?)(?: t=\"n\")?><v>0</v>",
                      r'\1 t="inlineStr"><is><t>zero</t></is>', x, count=1)

    changed = rewrite(league, part, tamper)
    with pytest.raises(UmaokaError, match="hidden layout sheet .* was changed"):
        read_book(changed)
