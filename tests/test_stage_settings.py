"""Per-stage settings in the league workbook: a season file's ``[stage NAME]`` settings
(min_games, carry_rounding, ranking, game_caps, chip_value, ...) stay that stage's in the
workbook. The Season sheet's stage rows hold a column per stage setting (blank: the
settings table's value), and every view gives the same stage standings: ``umaoka season``
on the season file, the workbook's saved values, the settled copy and the live tables
(MJ_SEASON called with the workbook's own ranges, pycel). An older workbook (no stage
setting columns) and an old MJ_SEASON formula (stages range A:D) read as before.

The season, worked by hand (mleague: 25,000 start, 30,000 target, uma 30/10/-10/-30, oka
+20; finals in tenths): Spring 2026 ranks by average, needs 3 games, caps at 3 games and
pays 2 points a chip; the Final carries half, exactly, needs no games and pays nothing for
chips. Before per-stage settings, the workbook applied min_games = 3 to the Final too: the
whole Final was "Not ranked", with no champion.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_officejs import call

from umaoka.addin.cli.app import main
from umaoka.addin.cli.season import game_rows, load_season
from umaoka.engine import settle
from umaoka.engine.resolve import ruleset
from umaoka.engine.season.settings import STAGE_SETTINGS, STAGE_TABLE
from umaoka.engine.season.stages import SeasonResult, run_season
from umaoka.templates.book.model import Game
from umaoka.templates.book.season_book import StageRow, season_result
from umaoka.templates.build import LeagueCols, write_league
from umaoka.templates.settle_book import read_book, write_settled

SEASON = """[season]
name = Spring league
ruleset = mleague
players = Aki, Ben, Chie, Dan, Eri

[stage Spring 2026]
advance = 4
min_games = 3
ranking = average
game_caps = -3
chip_value = 2

[stage Final]
carry = half
carry_rounding = exact
"""

#: (players, raw scores, chips) per game, in seat order.
SPRING = [
    (["Aki", "Ben", "Chie", "Dan"], [41200, 28700, 19100, 11000], [1, 0, 0, -1]),
    (["Ben", "Chie", "Dan", "Eri"], [35300, 30100, 20200, 14400], [0, 0, 0, 0]),
    (["Chie", "Dan", "Aki", "Ben"], [45100, 25500, 18000, 11400], [0, 0, 0, 0]),
    (["Ben", "Eri", "Aki", "Chie"], [38800, 31200, 17300, 12700], [0, 0, 0, 0]),
]
FINAL = [(["Aki", "Ben", "Chie", "Dan"], [33300, 29900, 22600, 14200], [2, 0, 0, -2])]
STAGES = ("Spring 2026", "Final")
PLAYERS = {"Aki", "Ben", "Chie", "Dan", "Eri"}


def _games_csv(path: Path) -> Path:
    """The games as ``umaoka season`` reads them."""
    seats = ("east", "south", "west", "north")
    head = ["stage", *seats, *(f"{s}_score" for s in seats), *(f"{s}_chips" for s in seats)]
    lines = [",".join(head)]
    for stage, games in zip(STAGES, (SPRING, FINAL)):
        for players, scores, chips in games:
            lines.append(",".join([stage, *players, *map(str, scores), *map(str, chips)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _engine(tmp_path: Path) -> SeasonResult:
    """The season as ``umaoka season`` runs it (its own reading of the files)."""
    season = load_season(tmp_path / "spring.ini")
    return run_season(season, game_rows(_games_csv(tmp_path / "games.csv"), season))


def _league(tmp_path: Path) -> Path:
    """``umaoka new --season``, then the games typed into the league tabs."""
    (tmp_path / "spring.ini").write_text(SEASON, encoding="utf-8")
    fresh = tmp_path / "fresh.xlsx"
    assert main(["new", str(fresh), "--season", str(tmp_path / "spring.ini")]) == 0
    book = read_book(fresh)
    day = dt.date(2026, 4, 4)
    for lg, games in zip(book.leagues, (SPRING, FINAL)):
        lg.games = [Game(date=day, session=1, table=1, number=i, players=players,
                         scores=scores, chips=chips)
                    for i, (players, scores, chips) in enumerate(games, 1)]
    return write_league(book, tmp_path / "club.xlsx")


def _lines(sr: Any) -> list[tuple[Any, ...]]:
    """A stage's player standings as compared across views: name, rank (None: not
    ranked), games, carried, total, advanced."""
    return [(p.name, p.rank, p.games, p.carried, p.total, p.advanced) for p in sr.players]


def _sheet_lines(rows: list[list[Any]]) -> list[tuple[Any, ...]]:
    """The same from Season standings rows (Rank, Player, Team, Games, Carried, Points,
    Chips, Penalties, Stage, Total, Average, Avg place, Advanced, Tie-break, Flags)."""
    return [(r[1], None if r[0] in ("", None) else int(r[0]), int(r[3]),
             D(str(r[4])), D(str(r[9])), r[12] not in ("", None)) for r in rows]


def _tables(ws: Any) -> list[list[list[Any]]]:
    """Each player table of a Season standings sheet (live or settled): the rows naming a
    player, under each "Rank" header, up to the next one."""
    tables: list[list[list[Any]]] = []
    for row in ws.iter_rows(min_row=4, max_col=15, values_only=True):
        if row[0] == "Rank":
            tables.append([])
        elif tables and row[1] in PLAYERS:
            tables[-1].append(list(row))
    return tables


def test_every_stage_setting_is_a_column_of_the_stage_rows() -> None:
    # and a stage's seeds, a stage's own (no season-wide value)
    assert set(STAGE_TABLE) == set(STAGE_SETTINGS) - {"ruleset"} | {"seeds"}


def test_umaoka_new_writes_each_stage_its_settings(tmp_path: Path) -> None:
    src = _league(tmp_path)
    spec = read_book(src).season
    assert spec.settings["min_games"] in (0, "0", None)  # the Final's, the default
    assert spec.settings["carry_rounding"] == "exact"  # the only stage carrying in
    spring, final = spec.stages
    assert spring.settings == {"min_games": "3", "ranking": "average", "game_caps": "-3",
                               "chip_value": "2"}
    assert final.settings == {}
    ws = load_workbook(src)["Season"]
    assert [ws.cell(4, c).value for c in range(5, 14)] == list(STAGE_TABLE)
    result = season_result(read_book(src))
    s, f = result.season.stages
    assert (s.min_games, s.ranking, s.chip_value, s.game_caps.maximum) == (3, "average", 2, 3)
    assert (f.min_games, f.ranking, f.chip_value, f.game_caps) == (0, "total", 0, None)
    assert f.carry_rounding == "exact"


def test_every_view_gives_the_same_stage_standings(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    src = _league(tmp_path)
    engine = _engine(tmp_path)
    spring, final = engine.stages
    # worked by hand: Aki +61.2 (1st, 41,200), -22.0 and -22.7 (3rd, 18,000 and 17,300),
    # one chip at 2 points: 18.5; Eri (2 games) is not ranked in Spring
    totals = {p.name: p.total for p in spring.players}
    assert totals == {"Aki": D("18.5"), "Ben": D("74.2"), "Chie": D("7.0"),
                      "Dan": D("-65.3"), "Eri": D("-34.4")}
    assert [p.name for p in spring.players if p.rank is None] == ["Eri"]
    # the Final ranks everybody (its min_games is 0), with half of each Spring total
    # carried exactly (18.5 -> 9.25)
    assert [p.rank for p in final.players] == [1, 2, 3, 4]
    carried = {p.name: p.carried for p in final.players}
    assert carried == {"Aki": D("9.25"), "Ben": D("37.1"), "Chie": D("3.5"),
                       "Dan": D("-32.65")}
    # the Final's chips count nothing (its chip_value is 0): Aki 9.25 + 53.3
    assert {p.name: p.total for p in final.players}["Aki"] == D("62.55")
    want = [_lines(spring), _lines(final)]
    # umaoka season prints the Final's champion (no "Not ranked" there)
    assert main(["season", str(tmp_path / "spring.ini"), str(tmp_path / "games.csv"),
                 "--stage", "Final"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s*1\s+Aki\b", out, re.M) and "Not ranked" not in out

    # the workbook: the engine on its sheets, its saved values, the settled copy
    assert [_lines(sr) for sr in season_result(read_book(src)).stages] == want
    saved = _tables(load_workbook(src, data_only=True)["Season standings"])
    assert [_sheet_lines(t) for t in saved] == want
    # the live flag names the stage's own min_games
    eri = next(r for r in saved[0] if r[1] == "Eri")
    assert "3" in str(eri[14])
    out = tmp_path / "club_settled.xlsx"
    write_settled(read_book(src), out, source=src.name)
    settled = load_workbook(out)
    assert [_sheet_lines(t) for t in _tables(settled["Season standings"])] == want
    assert [r.settings for r in read_book(out).season.stages] == [
        r.settings for r in read_book(src).season.stages]
    # the league tabs: Spring's check column flags the cap of 3 (Ben's 4th game), the
    # Final's has no cap; each tab's standings count chips at its stage's value
    cols = LeagueCols(4, chips=True)
    values = load_workbook(src, data_only=True)
    assert values["Spring 2026"].cell(8, cols.check).value == "Over game cap: Ben"
    assert values["Final"].cell(5, cols.check).value == "OK"
    for sr in engine.stages:
        assert _tab_totals(values[f"{sr.stage.name} Standings"]) == {
            p.name: p.stage_total for p in sr.players}


def _tab_totals(ws: Any, value: Any = None) -> dict[str, D]:
    """A league tab's standings: player -> Total (``value``: a cell's value by its
    address, e.g. pycel's; default the sheet's saved values)."""
    get = value or (lambda ref: ws[ref].value)
    out, r = {}, 5
    while get(f"B{r}") not in (None, ""):
        out[get(f"B{r}")] = D(str(get(f"D{r}")))
        r += 1
    return out


def _live(src: Path) -> tuple[list[list[list[Any]]], dict[str, Any]]:
    """pycel with umaoka's functions: the live Season standings' tables (MJ_SEASON with
    the workbook's own ranges) and the Season sheet's helper cells and check columns."""
    import test_live_season as live
    from pycel import ExcelCompiler
    from test_pycel import pycel_functions

    cols = LeagueCols(4, chips=True)
    check = chr(64 + cols.check)
    with pycel_functions("umaoka_stage_settings_plugin", mj_season=live.mj_season,
                         _xldudf_mj_season=live.mj_season,
                         error_type=live.error_type) as plugin:
        live.MODE["now"] = "on"
        xl = ExcelCompiler(filename=str(src), plugins=[plugin])
        tables = [live._table(xl, h, 15) for h in live._headers(src)]
        cells: dict[str, Any] = {}
        for stage in STAGES:  # each tab's standings, chips at its stage's value
            sheet = f"'{stage} Standings'!"
            cells[stage] = _tab_totals(None, lambda ref, s=sheet: xl.evaluate(s + ref))
        cells |= {ref: xl.evaluate(ref) for ref in (
            "Season!O5", "Season!P5", "Season!Q5", "Season!O6", "Season!P6", "Season!Q6",
            f"'Spring 2026'!{check}8", f"'Spring 2026'!{check}7", f"Final!{check}5")}
    return tables, cells


def test_the_live_workbook_ranks_each_stage_by_its_settings(tmp_path: Path) -> None:
    src = _league(tmp_path)
    engine = _engine(tmp_path)
    tables, cells = _live(src)
    assert [_sheet_lines(t) for t in tables] == [_lines(sr) for sr in engine.stages]
    # the helper cells: Spring's cap 3, chip value 2, min_games 3; the Final's 0, 0, 0
    assert [cells[f"Season!{c}5"] for c in "OPQ"] == [3, 2, 3]
    assert [cells[f"Season!{c}6"] for c in "OPQ"] == [0, 0, 0]
    check = chr(64 + LeagueCols(4, chips=True).check)
    assert cells[f"'Spring 2026'!{check}8"] == "Over game cap: Ben"
    assert cells[f"'Spring 2026'!{check}7"] == "OK"
    assert cells[f"Final!{check}5"] == "OK"
    for sr in engine.stages:
        assert cells[sr.stage.name] == {p.name: p.stage_total for p in sr.players}


def test_a_stage_setting_typed_on_the_season_sheet(tmp_path: Path) -> None:
    """The manager gives the Final a min_games of 2 in its row (as typed: text, since the
    column is formatted as text): the Final is not ranked, nobody in the Final played 2;
    a 0 typed as text is a 0 of the stage's own, a blank or a number 0 the season's."""
    src = _league(tmp_path)
    book = read_book(src)
    book.season.stages[1].settings["min_games"] = "2"
    assert all(p.rank is None for p in season_result(book).stages[1].players)
    book.season.settings["min_games"] = 2
    for blank in (None, "", 0):
        book.season.stages[1].settings["min_games"] = blank
        assert season_result(book).stages[1].stage.min_games == 2
    book.season.stages[1].settings["min_games"] = "0"
    assert season_result(book).stages[1].stage.min_games == 0
    book.season.stages[1].settings["ranking"] = "wins"
    with pytest.raises(Exception, match='^Season sheet: stage Final: ranking cannot be "wins"'):
        season_result(book)


def test_older_workbooks_and_formulas_read_as_before(tmp_path: Path) -> None:
    """A workbook written before the stage setting columns (one settings table for every
    stage), and an MJ_SEASON formula whose stages range ends at the Carry column, read as
    they did: the settings table applies to every stage."""
    src = _league(tmp_path)
    wb = load_workbook(src)
    ws = wb["Season"]
    for row in (5, 6):  # an older workbook: nothing right of Carry
        for c in range(5, 13):
            ws.cell(row, c).value = None
    top = next(r for r in range(8, 30) if ws.cell(r, 1).value == "min_games")
    ws.cell(top, 2).value = 3  # the old single table: min_games 3 for every stage
    old = tmp_path / "old.xlsx"
    wb.save(old)
    book = read_book(old)
    assert [r.settings for r in book.season.stages] == [{}, {}]
    result = season_result(book)
    assert all(p.rank is None for p in result.stages[1].players)  # as before: unranked
    # MJ_SEASON with the old four-column stages range gives the same tables
    stages = [["Spring 2026", "", 4, ""], ["Final", "", "", "half"]]
    settings = [[ws.cell(r, 1).value, "" if ws.cell(r, 2).value is None else
                 ws.cell(r, 2).value] for r in range(top - 2, top + 8)
                if ws.cell(r, 1).value not in (None, "Key")]

    def rows(games: list[Any]) -> list[list[Any]]:
        return [[*p, *s, "", "", "", "", "", *c] for p, s, c in games]

    for sr, name in zip(result.stages, STAGES):
        table = call("MJ_SEASON", stages, settings, [[p, ""] for p in sorted(PLAYERS)],
                     [[""] * 6], name, "players", rows(SPRING), "mleague", rows(FINAL),
                     "mleague")
        got = [r for r in table[1:] if r[1] in PLAYERS]
        assert [(r[1], r[0] or None) for r in got] == [(p.name, p.rank) for p in sr.players]
    # the same ranges with the stage columns: each stage its own
    wide = [[*stages[0], "", "3", "average", "", "-3", "2", "", ""],
            [*stages[1], "exact", "", "", "", "", "", "", ""]]
    settings = [[k, 0 if k == "min_games" else v] for k, v in settings]
    final = call("MJ_SEASON", wide, settings, [[p, ""] for p in sorted(PLAYERS)],
                 [[""] * 6], "Final", "players", rows(SPRING), "mleague", rows(FINAL),
                 "mleague")
    assert all(r[0] != "" for r in final[1:] if r[1] in PLAYERS)
    wide[1][6] = "wins"  # the Final's ranking: one sentence naming the stage
    with pytest.raises(Exception, match='stage Final: ranking cannot be "wins"'):
        call("MJ_SEASON", wide, settings, [[p, ""] for p in sorted(PLAYERS)], [[""] * 6],
             "Final", "players", rows(SPRING), "mleague", rows(FINAL), "mleague")


def test_umaoka_add_season_writes_each_stage_its_settings(tmp_path: Path) -> None:
    """A league with games gets the season file: each stage its own settings."""
    (tmp_path / "spring.ini").write_text(SEASON, encoding="utf-8")
    src = tmp_path / "club.xlsx"
    assert main(["new", str(src), "--leagues", ",".join(STAGES), "--ruleset", "mleague"]) == 0
    assert main(["add", str(src), "--season", str(tmp_path / "spring.ini")]) == 0
    spring, final = read_book(src).season.stages
    assert spring.settings["min_games"] == "3" and final.settings == {}
    assert isinstance(spring, StageRow)


@pytest.mark.skipif(shutil.which("soffice") is None and shutil.which("libreoffice") is None,
                    reason="LibreOffice (soffice) is not installed")
def test_libreoffice_keeps_each_stage_its_settings(tmp_path: Path) -> None:
    """Without umaoka's functions (LibreOffice, hard recalculation): the Season sheet's
    helper cells, the check columns and the tabs' standings keep each stage's settings
    (the saved values), and the Season standings keep the engine's tables."""
    from test_alive import hard_recalculated

    src = _league(tmp_path)
    engine = _engine(tmp_path)
    # MJ_SETTLE's results as values (what Excel shows; LibreOffice has no MJ_SETTLE)
    wb = load_workbook(src)
    rules = ruleset("mleague")
    for stage, games in zip(STAGES, (SPRING, FINAL)):
        for i, (_, scores, _) in enumerate(games):
            final = settle(scores, rules).final
            for seat, c in enumerate(LeagueCols(4, chips=True).results):
                wb[stage].cell(5 + i, c).value = float(final[seat])
    wb.save(tmp_path / "filled.xlsx")
    back = load_workbook(hard_recalculated(tmp_path / "filled.xlsx", "xlsx", tmp_path),
                         data_only=True)
    assert [[back["Season"].cell(r, c).value for c in (15, 16, 17)] for r in (5, 6)] == [
        [3, 2, 3], [0, 0, 0]]
    check = LeagueCols(4, chips=True).check
    assert [back["Spring 2026"].cell(r, check).value for r in range(5, 9)] == [
        "OK", "OK", "OK", "Over game cap: Ben"]
    assert back["Final"].cell(5, check).value == "OK"
    for sr in engine.stages:
        assert _tab_totals(back[f"{sr.stage.name} Standings"]) == {
            p.name: p.stage_total for p in sr.players}
    assert [_sheet_lines(t) for t in _tables(back["Season standings"])] == [
        _lines(sr) for sr in engine.stages]


def test_one_reader_for_a_stage_row_two_blank_rules(tmp_path: Path) -> None:
    """The workbook's reader (season_of: settle, saved values, `umaoka season BOOK`) and
    MJ_SEASON's read a stage row through one engine function; only what is blank differs:
    desktop Excel sends an empty cell as 0, which the workbook file holds as nothing."""
    from umaoka.addin.functions.season import _season_stages
    from umaoka.engine.season.stage_rows import blank_or_zero, blank_text, stage_row
    from umaoka.templates.book.season_book import season_of

    width = 4 + len(STAGE_TABLE)
    as_file = [["Spring 2026", "mleague", 4, None, "", "", "average"],
               ["Final", "mleague", None, "half", "exact", "0"]]
    as_excel = [[0 if v in (None, "") else v for v in (r + [None] * width)[:width]]
                for r in as_file]
    from_file = [stage_row(r, not i, blank_text) for i, r in enumerate(as_file)]
    from_excel = [{k: v for k, v in st.items() if k != "shown"}
                  for st in _season_stages(as_excel)]
    assert from_file == from_excel == [
        {"name": "Spring 2026", "advance": 4, "ranking": "average"},
        {"name": "Final", "carry": "half", "carry_rounding": "exact", "min_games": "0"}]
    # a 0 typed as a number in Advance: blank for MJ_SEASON (desktop Excel's empty cell),
    # a value for the file reader, which the engine then refuses in one sentence
    assert "advance" not in stage_row(["S", None, 0], True, blank_or_zero)
    assert stage_row(["S", None, 0], True, blank_text)["advance"] == 0
    # the workbook's season is built through it: the Season sheet's rows as the engine
    # stages (the Final's own min_games "0" ranks everybody)
    src = _league(tmp_path)
    season = season_of(read_book(src))
    assert [(s.name, s.advance, s.carry, s.min_games) for s in season.stages] == [
        ("Spring 2026", 4, D(0), 3), ("Final", None, D("0.5"), 0)]
