"""The season in the league workbook: the Season, Penalties and Season standings sheets,
chips and substitute columns, teams on Players, game caps in the check column.

An M.League-like season worked by hand (mleague: 25,000 start, 30,000 target, uma
30/10/-10/-30, oka +20 to the top): scores 40,000/30,000/20,000/10,000 settle as
+60/+10/-20/-50.
"""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError
from umaoka.engine.season.ranking import standing_rows
from umaoka.templates.book.labels import label
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.season_book import (
    SETTINGS,
    SeasonSpec,
    StageRow,
    parse_teams_text,
    season_result,
)
from umaoka.templates.book.season_labels import SEASON_LABELS
from umaoka.templates.build import LeagueCols, build_workbook, write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import read_book, write_settled
from umaoka.templates.xlsx.io import save_workbook

HIGH_LOW = [40000, 30000, 20000, 10000]  # +60 / +10 / -20 / -50
LOW_HIGH = HIGH_LOW[::-1]  # -50 / -20 / +10 / +60


def _season_book(substitutes: str = "team", min_games: int = 0, sub: bool = False,
                 caps: str = "") -> Any:
    """Regular (advance 4) then Final (half carried); teams Red = A, B and Blue = C, D, E."""
    book = make_book(["mleague"], ["Regular", "Final"], ["A", "B", "C", "D", "E"])
    book.teams = {"A": "Red", "B": "Red", "C": "Blue", "D": "Blue", "E": "Blue"}
    for lg in book.leagues:
        lg.chips = lg.subs = True
    regular, final = book.leagues
    day = dt.date(2026, 4, 4)
    regular.games = [
        Game(date=day, session=1, table=1, number=1, players=["A", "B", "C", "D"],
             scores=HIGH_LOW, chips=[3, -1, -1, -1], subs=[None] * 4),
        Game(date=day, session=1, table=1, number=2, players=["E", "A", "B", "C"],
             scores=HIGH_LOW, subs=[None, None, None, "Zed" if sub else None]),
    ]
    final.games = [Game(date=day, session=1, table=1, number=1, players=["A", "E", "B", "C"],
                        scores=LOW_HIGH)]
    book.season = SeasonSpec([StageRow("Regular", 4), StageRow("Final", None, "half")],
                             dict(SETTINGS, name="Test season", chip_value=2,
                                  substitutes=substitutes, min_games=min_games,
                                  game_caps=caps))
    book.penalties = [{"date": day, "stage": "Regular", "player": "D", "team": None,
                       "points": -20, "reason": "lateness"}]
    return book


def _through_workbook(book: Any, tmp_path: Path) -> Any:
    """Write the template, read it back, write the settled copy: its Season standings."""
    src = write_league(book, tmp_path / "season.xlsx")
    back = read_book(src)
    out = tmp_path / "season_settled.xlsx"
    write_settled(back, out, source=src.name)
    return back, load_workbook(out)["Season standings"]


def _tables(ws: Any) -> dict[str, list[list[Any]]]:
    """The sheet's tables by heading: rows of values under each header row."""
    tables: dict[str, list[list[Any]]] = {}
    current: list[list[Any]] | None = None
    for row in ws.iter_rows(min_row=4, values_only=True):
        first = row[0]
        if isinstance(first, str) and first.startswith("Not qualified"):
            continue  # the unqualified follow, in the same table
        if isinstance(first, str) and row[1] is None and first not in ("Rank",):
            current = tables.setdefault(first, [])
        elif current is not None and first != "Rank" and any(v is not None for v in row[:3]):
            current.append(list(row[:15]))
    return tables


def _line(rows: list[list[Any]], name: str) -> dict[str, Any]:
    keys = ["rank", "name", "team", "games", "carried", "points", "chips", "penalties",
            "stage", "total", "average", "avg_place", "advanced", "tie_break", "flags"]
    for r in rows:
        if r[1] == name:
            return dict(zip(keys, r))
    raise AssertionError(f"{name} not in {rows}")


def _team_total(rows: list[list[Any]], team: str) -> Any:
    return next(r[8] for r in rows if r[1] == team)  # Rank, Team, Games, ... Stage, Total


def test_m_league_like_season_worked_by_hand(tmp_path: Path) -> None:
    back, ws = _through_workbook(_season_book(), tmp_path)
    # read back: blocks, teams, penalties, the Season sheet
    assert back.leagues[0].chips and back.leagues[0].subs
    assert back.leagues[0].games[0].chips[:4] == [3, -1, -1, -1]
    assert back.teams == {"A": "Red", "B": "Red", "C": "Blue", "D": "Blue", "E": "Blue"}
    assert [(s.name, s.advance, s.carry) for s in back.season.stages] == [
        ("Regular", 4, None), ("Final", None, "half")]
    assert back.penalties[0]["points"] == -20 and back.penalties[0]["player"] == "D"
    assert back.penalties[0]["date"] == dt.date(2026, 4, 4)
    t = _tables(ws)
    regular = t["Regular: 2 games (top 4 advance)"]
    # A: +60 +10 and 3 chips x 2 = 82; E: +60; B: +10 -20 -2 chips = -12;
    # C: -20 -50 -2 = -72; D: -50 -2 chips -20 lateness = -72 (C ahead: better best game)
    assert [(r[0], r[1], r[9]) for r in regular] == [
        (1, "A", 76), (2, "E", 60), (3, "B", -12), (4, "C", -72), (5, "D", -72)]
    a = _line(regular, "A")
    assert (a["games"], a["points"], a["chips"], a["penalties"]) == (2, 70, 6, 0)
    d = _line(regular, "D")
    assert (d["chips"], d["penalties"], d["advanced"]) == (-2, -20, None)
    assert _line(regular, "C")["tie_break"] == "better best single game"
    assert _line(regular, "D")["tie_break"] == "better best single game"
    assert [r[1] for r in regular if r[12] == "✓ advanced"] == ["A", "E", "B", "C"]
    final = t["Final: 1 games (carry half, no cut)"]
    # half carried (mleague keeps 0.1): A 38, E 30, B -6, C -36; then -50, -20, +10, +60
    assert [(r[1], r[4], r[8], r[9]) for r in final] == [
        ("C", -36, 60, 24), ("E", 30, -20, 10), ("B", -6, 10, 4), ("A", 38, -50, -12)]
    # teams: Red = A + B, Blue = C + D + E (the penalty and chips count for the team too)
    teams = t["Regular: teams"]
    assert [(r[1], r[2], r[8]) for r in teams] == [("Red", 4, 64), ("Blue", 4, -84)]
    fteams = t["Final: teams"]
    assert [(r[1], r[3], r[7], r[8]) for r in fteams] == [("Blue", -6, 40, 34),
                                                          ("Red", 32, -40, -8)]


@pytest.mark.parametrize(("treatment", "c_games", "c_total", "blue"), [
    ("team", 1, -22, -84),    # C's seat (-50) counts for Blue only
    ("player", 2, -72, -84),  # ... for C, as if C had played
    ("fixed", 2, -52, -64),   # C gets -30 (and last place) instead; Blue too
])
def test_each_substitute_treatment(tmp_path: Path, treatment: str, c_games: int,
                                   c_total: int, blue: int) -> None:
    _, ws = _through_workbook(_season_book(treatment, sub=True), tmp_path)
    t = _tables(ws)
    regular = t["Regular: 2 games (top 4 advance)"]
    c = _line(regular, "C")
    assert (c["games"], c["total"]) == (c_games, c_total)
    assert _team_total(t["Regular: teams"], "Blue") == blue
    assert _line(regular, "A")["total"] == 76  # the others are untouched


def test_unqualified_players_are_listed_apart_and_cannot_advance(tmp_path: Path) -> None:
    _, ws = _through_workbook(_season_book(min_games=2), tmp_path)
    rows = [r for r in ws.iter_rows(min_row=4, values_only=True)]
    heading = next(i for i, r in enumerate(rows)
                   if r[0] == "Not qualified (fewer than 2 games): listed, not ranked")
    ranked = [r[1] for r in rows[2:heading]]
    apart = [r[1] for r in rows[heading + 1:heading + 3]]
    assert ranked == ["A", "B", "C"] and sorted(apart) == ["D", "E"]
    assert all(r[0] is None for r in rows[heading + 1:heading + 3])  # no rank
    # E and D did not qualify: the Final's game with E is left out, and said so
    t = _tables(ws)
    final = t["Final: 0 games (carry half, no cut)"]  # A, B, C carried in, no game yet
    assert [(r[1], r[3], r[4]) for r in final] == [("A", 0, 38), ("B", 0, -6), ("C", 0, -36)]
    texts = [c.value for c in ws["A"] if isinstance(c.value, str)]
    left_out = texts[texts.index("Rows left out") + 1:]
    assert any(x.startswith("Final!row 5:") and "E did not advance to Final" in x
               for x in left_out), left_out


def test_a_team_penalty_counts_for_the_team_not_its_players(tmp_path: Path) -> None:
    book = _season_book()
    book.penalties.append({"date": None, "stage": "Final", "player": None, "team": "Red",
                           "points": -15, "reason": "conduct"})
    _, ws = _through_workbook(book, tmp_path)
    t = _tables(ws)
    assert _team_total(t["Final: teams"], "Red") == -8 - 15
    assert _line(t["Final: 1 games (carry half, no cut)"], "A")["total"] == -12


def test_tie_break_order_from_the_season_sheet(tmp_path: Path) -> None:
    book = _season_book()
    # C and D tie on -72 and on last places (one 4th each): roster order (earlier) decides
    book.season.settings["tie_breaks"] = "fewer_lasts, earlier"
    _, ws = _through_workbook(book, tmp_path)
    regular = _tables(ws)["Regular: 2 games (top 4 advance)"]
    assert _line(regular, "C")["tie_break"] == "earlier on the roster (the season's team and " \
        "player lists, then the order of first games)"
    # nothing decides: they share the place, and the sheet says no tie-break
    book.season.settings["tie_breaks"] = "fewer_lasts"
    (tmp_path / "again").mkdir()
    _, ws = _through_workbook(book, tmp_path / "again")
    regular = _tables(ws)["Regular: 2 games (top 4 advance)"]
    assert _line(regular, "C")["rank"] == _line(regular, "D")["rank"] == 4
    assert _line(regular, "C")["tie_break"] is None


def test_game_cap_in_the_check_column_and_the_flags(tmp_path: Path) -> None:
    book = _season_book(caps="1-1")  # at most one game: A, B and C go over in game 2
    src = write_league(book, tmp_path / "caps.xlsx")
    cols = LeagueCols(4, chips=True, subs=True)
    ws = load_workbook(src)["Regular"]
    assert "GameCapMax" in ws.cell(6, cols.check_caps).value  # the check's cap helper
    assert f"{get_column_letter(cols.check_caps)}6" in ws.cell(6, cols.check).value
    saved = load_workbook(src, data_only=True)["Regular"]
    assert saved.cell(5, cols.check).value == "OK"
    assert saved.cell(6, cols.check).value == "Over game cap: A"
    out = tmp_path / "caps_settled.xlsx"
    write_settled(read_book(src), out)
    settled = load_workbook(out)
    assert settled["Regular"].cell(6, cols.check).value == "Over game cap: A"
    flags = _line(_tables(settled["Season standings"])["Regular: 2 games (top 4 advance)"],
                  "A")["flags"]
    assert flags == "played 2 games, more than the maximum of 1"


def test_bad_season_sheet_is_one_sentence(tmp_path: Path) -> None:
    book = _season_book()
    book.season.stages[1].name = "Finale"
    with pytest.raises(UmaokaError, match=r'^Season sheet: stage "Finale" is not a league tab'):
        season_result(book)
    book = _season_book()
    book.season.settings["ranking"] = "wins"
    with pytest.raises(UmaokaError, match="^Season sheet: .*ranking"):
        season_result(book)


def test_bad_chips_and_penalty_rows_are_reported_not_counted(tmp_path: Path) -> None:
    book = _season_book()
    book.leagues[0].games[1].chips = ["two", None, None, None]
    book.penalties.append({"date": None, "stage": "Regular", "player": "Zoe", "team": None,
                           "points": -5, "reason": "other"})
    src = write_league(book, tmp_path / "bad.xlsx")
    out = tmp_path / "bad_settled.xlsx"
    report = write_settled(read_book(src), out)
    # the row is settled (it counts on its tab) but left out of the season: a warning, as
    # is the penalty for nobody; neither is a row not settled
    assert any(p.startswith("Regular!row 6: chips \"two\"") for p in report.warnings)
    assert any("Zoe is not a player of this season" in p for p in report.warnings)
    assert report.problems == []


def test_settled_season_standings_equal_the_engine_on_the_demo(tmp_path: Path) -> None:
    assert main(["demo", str(tmp_path), "--games", "60"]) == 0
    book = read_book(tmp_path / "demo_league.xlsx")
    result = season_result(book)
    wb = load_workbook(tmp_path / "demo_league_settled.xlsx")
    t = _tables(wb["Season standings"])
    for sr in result.stages:
        heading = next(k for k in t if k.startswith(f"{sr.stage.name}: {sr.games} games"))
        shown = t[heading]
        rows = standing_rows(sr.players)[1:]
        assert [r[1] for r in shown if r[1] is not None and not str(r[0]).startswith("Not")] \
            == [r[1] for r in rows]
        for r in rows:
            line = _line(shown, r[1])
            assert Decimal(str(line["total"])) == r[8]
            assert Decimal(str(line["chips"])) == r[6]
            assert Decimal(str(line["penalties"])) == r[7]
            assert line["games"] == r[3]
    # the demo has every feature: chips, a substitute, teams, two penalties, a cut
    assert any(any(g.chips) for g in book.leagues[0].games if g.chips)
    assert sum(1 for g in book.leagues[0].games for s in g.subs if s) == 1
    assert len(book.penalties) == 2 and len(set(book.teams.values())) == 3
    assert len(result.stages[0].advanced) == 4
    assert {p for g in book.leagues[1].games for p in g.players} == set(
        result.stages[0].advanced)
    # the template's live tables show the same players, in order, as saved in the file
    # (MJ_SEASON blocks; their values as the engine computed them when it was written)
    template = load_workbook(tmp_path / "demo_league.xlsx", data_only=True)
    assert [c.value for c in template["Season standings"]["B"] if c.value] == [
        c.value for c in wb["Season standings"]["B"] if c.value]


def test_japanese_labels_cover_the_season_sheets(tmp_path: Path) -> None:
    for key, (en, ja) in SEASON_LABELS.items():
        assert ja and ja != en, key
    wb = build_workbook(demo_book(40, lang="ja", season=True))
    assert {"シーズン", "罰符記録", "シーズン成績"} <= set(wb.sheetnames)
    ws = wb["2026 レギュラー"]
    cols = LeagueCols(4, chips=True, subs=True)
    assert ws.cell(4, cols.chip_cols[0]).value == "東 祝儀"
    assert ws.cell(4, cols.sub_cols[3]).value == "北 代打ち"
    assert wb["プレイヤー"].cell(4, 2).value == "チーム"
    heads = [c.value for c in wb["シーズン成績"][5] if c.value]
    assert heads[:4] == ["順位", "プレイヤー", "チーム", "対局数"]
    ascii_words = [c.value for ws in (wb["シーズン"], wb["罰符記録"], wb["シーズン成績"])
                   for row in ws.iter_rows(max_row=5) for c in row
                   if isinstance(c.value, str) and c.value.isascii() and c.value.isalpha()
                   and c.row != 1]
    assert ascii_words == [], ascii_words
    assert label("over_cap", "ja") == "対局数上限超過"
    save_workbook(wb, tmp_path / "ja.xlsx")  # the flags as the file shows them (saved)
    shown = load_workbook(tmp_path / "ja.xlsx", data_only=True)["シーズン成績"]
    flags = [c.value for c in shown["O"] if isinstance(c.value, str)]
    assert any(f.endswith("超過）") for f in flags) and not any("games" in f for f in flags)


def test_umaoka_new_season_options(tmp_path: Path) -> None:
    season = tmp_path / "season.ini"
    season.write_text("[season]\nname = Club 2026\nruleset = mleague\nchip_value = 2\n"
                      "min_games = 3\n[stage Regular]\nadvance = 4\n[stage Final]\n"
                      "carry = half\n[teams]\nRed = Aki, Ben\nBlue = Chie, Dan\n",
                      encoding="utf-8")
    assert main(["new", str(tmp_path / "s.xlsx"), "--season", str(season), "--subs"]) == 0
    book = read_book(tmp_path / "s.xlsx")
    assert [lg.name for lg in book.leagues] == ["Regular", "Final"]
    assert all(lg.chips and lg.subs for lg in book.leagues)
    assert book.teams == {"Aki": "Red", "Ben": "Red", "Chie": "Blue", "Dan": "Blue"}
    assert [(s.name, s.advance, s.carry) for s in book.season.stages] == [
        ("Regular", 4, None), ("Final", None, "half")]
    assert book.season.settings["chip_value"] == 2 and book.season.settings["min_games"] == 3
    assert book.season.settings["name"] == "Club 2026"
    # the preset keeps its name: the Rules sheet, and "mleague rules" when settled
    assert [r.name for r in book.rules] == ["mleague"]
    assert "Rules - mleague" in load_workbook(tmp_path / "s.xlsx", read_only=True).sheetnames
    assert book.rules[0].ruleset.name == "mleague"
    # teams alone: a Season sheet over the league tabs; plain `new` has none
    assert main(["new", str(tmp_path / "t.xlsx"), "--teams", "Red=Aki,Ben;Blue=Chie"]) == 0
    book = read_book(tmp_path / "t.xlsx")
    assert book.teams["Chie"] == "Blue" and book.season is not None
    assert not book.leagues[0].chips
    assert main(["new", str(tmp_path / "p.xlsx")]) == 0
    plain = load_workbook(tmp_path / "p.xlsx")
    assert "Season" not in plain.sheetnames and "Penalties" not in plain.sheetnames
    assert read_book(tmp_path / "p.xlsx").season is None
    assert parse_teams_text("Red=Aki, Ben; Blue: Chie") == {"Aki": "Red", "Ben": "Red",
                                                           "Chie": "Blue"}


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_recalculates_the_season_workbook(tmp_path: Path) -> None:
    """A hard recalculation in LibreOffice: the check column (with its game cap) equals its
    saved value, and the Season standings and Season sheet keep the engine's values."""
    from test_alive import hard_recalculated

    book = demo_book(60, season=True)
    src = write_league(book, tmp_path / "demo.xlsx")
    saved = load_workbook(src, data_only=True)
    back = load_workbook(hard_recalculated(src, "xlsx", tmp_path), data_only=True)
    cols = LeagueCols(4, chips=True, subs=True)
    checks = 0
    for lg in book.leagues:
        for r in range(5, 5 + len(lg.games)):
            assert back[lg.name].cell(r, cols.check).value == \
                saved[lg.name].cell(r, cols.check).value, (lg.name, r)
            checks += back[lg.name].cell(r, cols.check).value.startswith("Over game cap")
    assert checks >= 1
    assert back["Season standings"]["A3"].value in (None, "")  # nothing changed since
    # a score changed by hand: the sheet says its values are out of date
    wb = load_workbook(src)
    wb[book.leagues[0].name].cell(5, cols.scores[0]).value += 100
    wb[book.leagues[0].name].cell(5, cols.scores[1]).value -= 100
    wb.save(tmp_path / "edited.xlsx")
    edited = load_workbook(hard_recalculated(tmp_path / "edited.xlsx", "xlsx", tmp_path),
                           data_only=True)
    assert edited["Season standings"]["A3"].value.startswith("⚠ Games or penalties changed")
    for title in ("Season standings", "Season"):  # the standings' visible columns A:O
        for row_b, row_s in zip(back[title].iter_rows(values_only=True, max_col=15),
                                saved[title].iter_rows(values_only=True, max_col=15)):
            for a, b in zip(row_b, row_s):
                assert (a == b or (a in (None, "") and b in (None, ""))
                        or (isinstance(a, float) and abs(a - float(b)) < 1e-9)), (title, a, b)


def test_pycel_computes_the_game_cap_check(tmp_path: Path) -> None:
    """pycel evaluates the check column of a season template (with its GameCapMax name and
    the Season sheet's helper): equal to the saved values, over the cap included."""
    from pycel import ExcelCompiler, excelwrapper
    from test_pycel import _defined_names

    book = demo_book(40, season=True)
    src = write_league(book, tmp_path / "demo.xlsx")
    saved = load_workbook(src, data_only=True)
    original = excelwrapper.ExcelOpxWrapper.defined_names
    excelwrapper.ExcelOpxWrapper.defined_names = property(_defined_names)  # type: ignore
    import sys
    import types

    from test_live_season import error_type

    plugin = types.ModuleType("umaoka_functions_off")  # Excel without umaoka's functions
    plugin._xldudf_mj_season = lambda *args: "#NAME?"  # type: ignore[attr-defined]
    plugin.error_type = error_type  # type: ignore[attr-defined]
    sys.modules[plugin.__name__] = plugin
    try:
        xl = ExcelCompiler(filename=str(src), plugins=[plugin.__name__])
        cols = LeagueCols(4, chips=True, subs=True)
        from openpyxl.utils import get_column_letter

        check = get_column_letter(cols.check)
        lg = book.leagues[0]
        got = [xl.evaluate(f"'{lg.name}'!{check}{r}") for r in range(5, 5 + len(lg.games))]
        want = [saved[lg.name].cell(r, cols.check).value for r in range(5, 5 + len(lg.games))]
        assert got == want
        assert any(v.startswith("Over game cap: ") for v in got)
        assert xl.evaluate("'Season standings'!A3") == ""
        xl.set_value("Penalties!E5", -30)  # the log's first penalty was -10
        assert xl.evaluate("'Season standings'!A3").startswith("⚠ Games or penalties")
    finally:
        excelwrapper.ExcelOpxWrapper.defined_names = original  # type: ignore
        del sys.modules[plugin.__name__]


def test_runtime_switch_keeps_the_season(tmp_path: Path) -> None:
    src = write_league(_season_book(caps="1-5"), tmp_path / "s.xlsx")
    assert main(["runtime", str(src), "--to", "classic"]) == 0
    back = read_book(src)  # updated in place
    assert back.runtime.kind == "classic"
    assert back.season.settings["game_caps"] == "1-5" and back.teams["E"] == "Blue"
    assert back.leagues[1].games[0].players == ["A", "E", "B", "C"]
    assert back.penalties[0]["reason"] == "lateness"


def test_wording_and_layout_of_issue_35(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """#35 item 8: the Season settings' values sit at the top of their cells, beside their
    notes; a row that could not be settled shows its whole message in the settled copy
    (over the results and places, wrapped); one game imported is "1 game added"; a
    penalty row without a stage says "the penalty has no stage"."""
    from openpyxl.utils import get_column_letter

    book = _season_book()
    book.leagues[0].games.append(Game(date=dt.date(2026, 4, 5), session=2, table=1, number=1,
                                      players=["A", "B", "C", "D"],
                                      scores=[40000, 30000, 20000, 9000]))
    book.penalties.append({"date": None, "stage": None, "player": "A", "team": None,
                           "points": -10, "reason": "late"})
    src = write_league(book, tmp_path / "season.xlsx")
    ws = load_workbook(src)["Season"]
    values = [ws.cell(r, 2) for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "name"]
    assert values and values[0].alignment.vertical == "top"
    assert ws.cell(values[0].row, 3).alignment.vertical == "top"
    back = read_book(src)
    result = season_result(back)
    assert any("the penalty has no stage; the season has 2 stages" in p
               for p in result.problems)
    out = tmp_path / "settled.xlsx"
    write_settled(back, out, source=src.name)
    tab = load_workbook(out)["Regular"]
    cols = LeagueCols(4, chips=True, subs=True)
    row = 7  # the third game row
    message = tab.cell(row, cols.results[0]).value
    assert message.startswith("scores add up to 99,000") and message.endswith("fix a score.")
    merged = [str(m) for m in tab.merged_cells.ranges]
    first, last = (f"{get_column_letter(c)}{row}" for c in (cols.results[0], cols.places[-1]))
    assert f"{first}:{last}" in merged
    assert tab.cell(row, cols.results[0]).alignment.wrap_text
    assert tab.row_dimensions[row].height >= 30


def test_one_game_imported_is_one_game(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    book = write_league(make_book(["tenhou"]), tmp_path / "league.xlsx")
    log = tmp_path / "sca20260404.log"
    log.write_text("L1002 | 00:44 | 四般南喰赤－ | Aki(+61.0) Ben(0.0) Chie(-25.0) Dan(-36.0)\n",
                   encoding="utf-8")
    assert main(["import", str(log), "--into", str(book)]) == 0
    assert ": 1 game added to League (platform finals); 0 skipped" in capsys.readouterr().out
