"""A season's league standings tabs count chips and the penalty log, as the Season
standings do: in the template's formulas (recalculated by LibreOffice), its saved values
and the settled copy.

Worked by hand (mleague, 40,000/30,000/20,000/10,000 settle as +60/+10/-20/-50), one
stage "Regular", chip_value 2:

* game 1: A B C D with chips +3 -1 -1 -1; game 2: E A B C, no chips;
* Penalties sheet: D -20 (stage Regular), B -5 (blank stage: the season has one stage),
  the team Blue -30 (a team's penalty counts for the team only), A -7 in stage "Other"
  (not this stage: not counted).

A: +60 +10 +6 = +76; B: +10 -20 -2 -5 = -17; C: -20 -50 -2 = -72;
D: -50 -2 -20 = -72; E: +60.
"""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_libreoffice import convert

from umaoka.engine import settle
from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.season_book import SETTINGS, SeasonSpec, StageRow, season_result
from umaoka.templates.build import build_workbook
from umaoka.templates.demo import season_demo_book
from umaoka.templates.settle_book import write_settled
from umaoka.templates.xlsx.io import save_workbook

HIGH_LOW = [40000, 30000, 20000, 10000]
EXPECTED = {"A": Decimal(76), "B": Decimal(-17), "C": Decimal(-72), "D": Decimal(-72),
            "E": Decimal(60)}


def _book() -> Any:
    book = make_book(["mleague"], ["Regular"], ["A", "B", "C", "D", "E"])
    book.teams = {"A": "Red", "B": "Red", "C": "Blue", "D": "Blue", "E": "Blue"}
    lg = book.leagues[0]
    lg.chips = lg.subs = True
    day = dt.date(2026, 4, 4)
    lg.games = [
        Game(date=day, session=1, table=1, number=1, players=["A", "B", "C", "D"],
             scores=HIGH_LOW, chips=[3, -1, -1, -1]),
        Game(date=day, session=1, table=1, number=2, players=["E", "A", "B", "C"],
             scores=HIGH_LOW),
    ]
    book.season = SeasonSpec([StageRow("Regular", None)],
                             dict(SETTINGS, name="Test", chip_value=2))
    book.penalties = [
        {"date": day, "stage": "Regular", "player": "D", "team": None, "points": -20,
         "reason": "lateness"},
        {"date": day, "stage": None, "player": "B", "team": None, "points": -5,
         "reason": "conduct"},
        {"date": day, "stage": "Regular", "player": None, "team": "Blue", "points": -30,
         "reason": "team conduct"},
        {"date": day, "stage": "Other", "player": "A", "team": None, "points": -7,
         "reason": "elsewhere"},
    ]
    return book


def _totals(ws: Any) -> dict[str, Decimal]:
    out, r = {}, 5
    while ws.cell(r, 2).value not in (None, ""):
        out[ws.cell(r, 2).value] = Decimal(str(ws.cell(r, 4).value))
        r += 1
    return out


def _filled_template(book: Any, tmp_path: Path) -> Path:
    """The template with MJ_SETTLE's results written as values (what Excel shows)."""
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), src)
    wb = load_workbook(src)
    for lg in book.leagues:
        rules = book.rules_of(lg).ruleset
        cols = league_cols(lg, rules.players)
        ws = wb[lg.name]
        for i, g in enumerate(lg.games):
            s = settle(g.scores, rules, g.deposits or 0, g.penalties or None)
            for seat, c in enumerate(cols.results):
                ws.cell(5 + i, c).value = float(s.final[seat])
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    return filled


def test_worked_by_hand_saved_values_and_settled_copy(tmp_path: Path) -> None:
    book = _book()
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), src)
    saved = load_workbook(src, data_only=True)
    assert _totals(saved["Regular Standings"]) == EXPECTED
    out = tmp_path / "settled.xlsx"
    write_settled(book, out)
    settled = load_workbook(out)
    assert _totals(settled["Regular Standings"]) == EXPECTED
    assert _totals(settled["Standings"]) == EXPECTED if "Standings" in settled else True
    # the Season standings' stage points agree, player by player
    (stage,) = season_result(book).stages
    assert {p.name: p.stage_total for p in stage.players} == EXPECTED


def test_formula_terms_read_the_season_and_penalties_sheets(tmp_path: Path) -> None:
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(_book()), src)
    ws = load_workbook(src)["Regular Standings"]
    formulas = [c.value for row in ws.iter_rows(min_row=5, max_row=5) for c in row
                if isinstance(c.value, str) and "SUMIFS" in c.value and "Penalties" in c.value]
    assert len(formulas) == 1
    f = formulas[0]
    # the chips count at the stage's chip value: the Season sheet's helper cell of this tab
    # (its stage row's chip_value, else the settings table's)
    assert "+'Season'!$P$5*(" in f and '"="&"Regular"' in f  # (O: blank, beside seeds)
    helper = load_workbook(src)["Season"]["P5"].value
    assert "$J$5:$J$" in helper and '"Regular"' in helper and "$B$" in helper
    assert f.count("'Penalties'!$E$5:$E$") == 2  # this stage, and blank stages (one stage)


@pytest.mark.skipif(shutil.which("soffice") is None and shutil.which("libreoffice") is None,
                    reason="LibreOffice (soffice) is not installed")
def test_libreoffice_recalculates_worked_example_and_demo_season(tmp_path: Path) -> None:
    hand = tmp_path / "hand"
    hand.mkdir()
    back = load_workbook(convert(_filled_template(_book(), hand), "xlsx", hand),
                         data_only=True)
    assert _totals(back["Regular Standings"]) == EXPECTED

    book = season_demo_book()
    result = season_result(book)
    demo = tmp_path / "demo"
    demo.mkdir()
    recalculated = load_workbook(convert(_filled_template(book, demo), "xlsx", demo),
                                 data_only=True)
    for sr in result.stages:
        sheet = _totals(recalculated[f"{sr.stage.name} Standings"])
        for p in sr.players:
            if _substituted_seats(book, sr.stage.name, p.name):
                continue  # the tab counts a substitute's seat for the named player
            assert abs(sheet[p.name] - p.stage_total) < Decimal("0.001"), p.name
    # every player with a substitute's seat differs by exactly that seat's result
    # (substitutes = team in the demo: the seat counts for the team only)
    regular = result.stages[0]
    for p in regular.players:
        seats = _substituted_seats(book, regular.stage.name, p.name)
        if seats:
            sheet = _totals(recalculated[f"{regular.stage.name} Standings"])
            assert abs(sheet[p.name] - p.stage_total - sum(seats)) < Decimal("0.001")


def _substituted_seats(book: Any, league_name: str, player: str) -> list[Decimal]:
    lg = next(x for x in book.leagues if x.name == league_name)
    rules = book.rules_of(lg).ruleset
    out = []
    for g in lg.games:
        for seat, (name, sub) in enumerate(zip(g.players, list(g.subs) + [None] * 4)):
            if name == player and sub not in (None, ""):
                s = settle(g.scores, rules, g.deposits or 0, g.penalties or None)
                out.append(s.final[seat])
    return out
