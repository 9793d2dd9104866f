"""Stats in the workbook: MJ_STANDINGS's stats columns (Office.js path) and the league
Stats sheets (native formulas in the template, the engine's values in the settled copy)."""

from __future__ import annotations

from decimal import Decimal

import pytest
import xlwings as xw
from test_officejs import GAME, call

from umaoka.engine import settle, standings_table
from umaoka.engine.season.stats import player_stats

PLAYERS = [["Aki", "Ben", "Chie", "Dan"], [None] * 4, ["Ben", "Aki", "Dan", "Chie"],
           ["Chie", "Dan", "Aki", "Ben"]]
SCORES = [GAME, [None] * 4, [40000, 30000, 20000, 10000], [52000, 31000, 18000, -1000]]


def test_mj_standings_unchanged_without_stats() -> None:
    finals = call("MJ_SETTLE", SCORES)
    plain = call("MJ_STANDINGS", PLAYERS, finals)
    assert plain[0] == list(standings_table([])[0])
    assert call("MJ_STANDINGS", PLAYERS, finals, False) == plain


def test_mj_standings_stats_columns_equal_the_engine() -> None:
    finals = call("MJ_SETTLE", SCORES)
    plain = call("MJ_STANDINGS", PLAYERS, finals)
    games = [(PLAYERS[i], settle(SCORES[i])) for i in (0, 2, 3)]
    expected = {p.name: p for p in player_stats(games)}
    with_raw = call("MJ_STANDINGS", PLAYERS, finals, None, SCORES)
    assert with_raw[0][len(plain[0]):] == ["Top-two rate", "Bust rate", "Average raw",
                                          "Top streak", "Top-two streak", "No-last streak"]
    for line, base in zip(with_raw[1:], plain[1:]):
        assert line[:len(base)] == base  # the standings' own columns stay as they were
        p = expected[line[1]]
        extra = line[len(base):]
        assert Decimal(str(extra[0])) == p.top_two_rate
        assert Decimal(str(extra[1])) == p.bust_rate
        assert Decimal(str(extra[2])) == p.average_raw
        assert extra[3:] == [p.top_streak, p.top_two_streak, p.no_last_streak]
    # TRUE without raw scores: rates from places, raw figures blank
    no_raw = call("MJ_STANDINGS", PLAYERS, finals, True)
    assert all(line[-5:-3] == ["", ""] for line in no_raw[1:])
    bad = [GAME, [None] * 4, ["x", 30000, 20000, 10000], [52000, 31000, 18000, -1000]]
    with pytest.raises(xw.XlwingsError, match="^row 3 of scores holds a value that is not"):
        call("MJ_STANDINGS", PLAYERS, finals, True, bad)


# ------------------------------------------------------------------------------------------------
# The league Stats sheets

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from openpyxl import load_workbook  # noqa: E402
from test_alive import hard_recalculated  # noqa: E402
from test_libreoffice import convert  # noqa: E402

from umaoka.engine.online.imports import read_results  # noqa: E402
from umaoka.templates.book.layout import league_cols  # noqa: E402
from umaoka.templates.book.model import Game, make_book  # noqa: E402
from umaoka.templates.book.results import counted, settle_league  # noqa: E402
from umaoka.templates.build import build_workbook, write_league  # noqa: E402
from umaoka.templates.demo import demo_book  # noqa: E402
from umaoka.templates.import_book import import_into  # noqa: E402
from umaoka.templates.settle_book import read_book, write_settled  # noqa: E402
from umaoka.templates.sheets.stats import stats_records  # noqa: E402
from umaoka.templates.xlsx.io import save_workbook  # noqa: E402


def _book_with_platform_rows():
    book = demo_book(40)
    league = book.leagues[0]
    league.given = True
    names = [p for p in book.players[:4]]
    league.games.append(Game(session=9, players=names, scores=[None] * 4, penalties=[None] * 4,
                             given=[61.0, 0.0, -25.0, -36.0]))
    league.games.append(Game(session=9, players=names[::-1], scores=[45000, 35000, 30000, -10000],
                             penalties=[None] * 4, given=[55.0, 15.0, -10.0, -60.0]))
    return book


def _expected(book, index: int):
    league = book.leagues[index]
    outcomes = settle_league(league, book.rules_of(league).ruleset)
    return {p.name: p for p in player_stats(stats_records(counted(league, outcomes)))}


def _check_stats(ws, expected, streaks: bool) -> None:
    seen = 0
    for row in ws.iter_rows(min_row=5, max_row=60, values_only=True):
        if row[0] in (None, ""):
            continue
        p = expected[row[0]]
        seen += 1
        assert row[1] == p.games
        assert abs(Decimal(str(row[2])) - p.top_two_rate) <= Decimal("0.00005")
        if p.bust_rate is None:
            assert row[3] in (None, "")
        else:
            assert abs(Decimal(str(row[3])) - p.bust_rate) <= Decimal("0.00005")
            assert abs(Decimal(str(row[4])) - p.average_raw) <= Decimal("0.005")
        assert Decimal(str(row[5])) == p.best and Decimal(str(row[6])) == p.worst
        if streaks:
            assert list(row[7:10]) == [p.top_streak, p.top_two_streak, p.no_last_streak]
    assert seen == len(expected)


def test_settled_copy_stats_equal_the_engine(tmp_path: Path) -> None:
    book = _book_with_platform_rows()
    write_settled(book, tmp_path / "settled.xlsx")
    wb = load_workbook(tmp_path / "settled.xlsx")
    ws = wb["Spring 2026 Stats"]
    assert [c.value for c in ws[4]][:10] == ["Player", "Games", "Top-two rate", "Bust rate",
                                            "Avg raw", "Best", "Worst", "Top streak",
                                            "Top-two streak", "No-last streak"]
    _check_stats(ws, _expected(book, 0), streaks=True)
    # in the order of the standings
    standings_names = [c.value for c in wb["Spring 2026 Standings"]["B"][4:12]]
    assert [c.value for c in ws["A"][4:12]] == standings_names


def test_template_saved_stats_equal_the_engine(tmp_path: Path) -> None:
    book = _book_with_platform_rows()
    path = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), path)
    ws = load_workbook(path, data_only=True)["Spring 2026 Stats"]
    _check_stats(ws, _expected(book, 0), streaks=False)
    formulas = load_workbook(path)["Spring 2026 Stats"]
    # a plain formula (LibreOffice recalculates array formulas as it opens a file), no
    # MAXIFS (Excel 2019), within Excel's limits
    best, worst = formulas["F5"].value, formulas["G5"].value
    assert isinstance(best, str) and "MAX(IFERROR(_xlfn.AGGREGATE(14,6," in best
    assert isinstance(worst, str) and "MIN(IFERROR(_xlfn.AGGREGATE(15,6," in worst
    assert "MAXIFS" not in best and len(best) <= 8192 and len(worst) <= 8192
    ja = demo_book(8)
    ja.lang = "ja"
    save_workbook(build_workbook(ja), tmp_path / "ja.xlsx")
    names = load_workbook(tmp_path / "ja.xlsx").sheetnames
    sheet = next(n for n in names if n.endswith(" 詳細"))
    heads = [c.value for c in load_workbook(tmp_path / "ja.xlsx")[sheet][4]][:7]
    assert heads == ["プレイヤー", "対局数", "連対率", "トビ率", "平均素点", "最高", "最低"]


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_stats_formulas_recalculated_by_libreoffice(tmp_path: Path) -> None:
    book = _book_with_platform_rows()
    src = tmp_path / "template.xlsx"
    save_workbook(build_workbook(book), src)
    # what MJ_SETTLE (and the platform finals) give in Excel, written as values
    wb = load_workbook(src)
    league = book.leagues[0]
    cols = league_cols(league, 4)
    outcomes = settle_league(league, book.rules_of(league).ruleset)
    ws = wb[league.name]
    for i in range(len(league.games) + 100):
        o = outcomes[i] if i < len(outcomes) else None
        for seat, c in enumerate(cols.results):
            ws.cell(5 + i, c).value = (float(o.settlement.final[seat])
                                       if o is not None and o.settlement else None)
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(hard_recalculated(filled, "xlsx", tmp_path), data_only=True)
    _check_stats(back["Spring 2026 Stats"], _expected(book, 0), streaks=False)


LOBBY = ("L1234 | 21:20 | 四般南喰赤－ | Ben(+50.0,+2枚) Aki(+8.0,-1枚) Chie(-20.0,0枚) "
         "Dan(-38.0,-1枚)\n")


def _best_worst(ws) -> dict[str, tuple[Any, Any]]:
    return {row[0]: (row[5], row[6]) for row in ws.iter_rows(min_row=5, max_row=60,
                                                            values_only=True)
            if row[0] not in (None, "")}


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_best_and_worst_in_libreoffice_after_an_import(tmp_path: Path) -> None:
    """A typed game, then a lobby game imported into the same tab: Best and Worst as
    LibreOffice shows them (as it opens the file, and recalculated with the typed game's
    finals there as the add-in gives them) are the settled copy's, for every player."""
    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].chips = True  # as `umaoka new --chips`
    book.leagues[0].games.append(Game(None, None, None, None, ["Aki", "Ben", "Chie", "Dan"],
                                      [48200, 31500, 12300, 8000]))
    path = write_league(book, tmp_path / "league.xlsx")
    path = import_into(path, read_results("sca20260418.log", LOBBY.encode())).path
    write_settled(read_book(path), tmp_path / "settled.xlsx")
    settled = _best_worst(load_workbook(tmp_path / "settled.xlsx")["League Stats"])
    assert settled == {"Aki": (59, 8), "Ben": (50, 11), "Chie": (-20, -28),
                       "Dan": (-38, -42)}
    # as LibreOffice opens it (no add-in): it used to recalculate Best and Worst from the
    # imported game alone (Aki +8 and +8)
    opened = load_workbook(convert(path, "xlsx", tmp_path), data_only=True)
    assert _best_worst(opened["League Stats"]) == settled
    # LibreOffice's own calculation, the typed game's finals there as MJ_SETTLE gives them
    league = read_book(path).leagues[0]
    cols = league_cols(league, 4)
    outcomes = settle_league(league, book.rules_of(league).ruleset)
    wb = load_workbook(path)
    ws = wb["League"]
    assert ws.cell(5, cols.players[0]).value == "Aki" and outcomes[0].settlement
    for seat, c in enumerate(cols.results):
        ws.cell(5, c).value = float(outcomes[0].settlement.final[seat])
    wb.save(tmp_path / "filled.xlsx")
    back = load_workbook(hard_recalculated(tmp_path / "filled.xlsx", "xlsx", tmp_path),
                         data_only=True)
    assert _best_worst(back["League Stats"]) == settled
    # recalculated without the add-in: the typed game has no places, so LibreOffice's
    # standings and stats count the imported game alone, Best and Worst its final
    (tmp_path / "bare").mkdir()
    bare = load_workbook(hard_recalculated(path, "xlsx", tmp_path / "bare"), data_only=True)
    assert [r[1] for r in bare["League Stats"].iter_rows(min_row=5, max_row=8,
                                                         values_only=True)] == [1] * 4
    assert _best_worst(bare["League Stats"]) == {"Ben": (50, 50), "Aki": (8, 8),
                                                 "Chie": (-20, -20), "Dan": (-38, -38)}


def test_settled_copy_rating_and_head_to_head(tmp_path: Path) -> None:
    from umaoka.engine.online.rating import rating_history, ratings
    from umaoka.engine.season.stats import head_to_head

    book = _book_with_platform_rows()
    write_settled(book, tmp_path / "settled.xlsx")
    wb = load_workbook(tmp_path / "settled.xlsx")
    ws = wb["Spring 2026 Rating"]
    league = book.leagues[0]
    games = stats_records(counted(league, settle_league(league, book.rules_of(league).ruleset)))
    rated = ratings(games)
    got = [[c.value for c in row[:6]] for row in ws.iter_rows(min_row=5,
                                                             max_row=4 + len(rated))]
    assert got == [[p.name, p.games, float(p.rating), float(p.change), float(p.peak),
                    float(p.low)] for p in rated]
    pairs = head_to_head(games)
    h2h = [[c.value for c in row[7:14]] for row in ws.iter_rows(min_row=5,
                                                               max_row=4 + len(pairs))]
    assert h2h == [[h.player, h.opponent, h.games, h.ahead, h.behind, float(h.place_diff),
                    float(h.points)] for h in pairs]
    # the chart's table: every plotted player's R after each game, carried forward
    start = next(r for r in range(5, 200) if ws.cell(r, 1).value == "Game")
    names = [ws.cell(start, 2 + k).value for k in range(8)]
    last = {s.name: s.after for s in rating_history(games)}
    final = [ws.cell(start + len(games), 2 + k).value for k in range(8)]
    assert final == [float(last[n]) for n in names]
    assert len(ws._charts) == 1
    # the template has no Rating sheet (values need the whole history: umaoka settle)
    assert not any(n.endswith("Rating") for n in build_workbook(book).sheetnames)


def test_a_big_league_charts_r_every_few_games(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Over CHART_POINTS games the R chart plots every step-th game and the last one, with
    the R each player had then (carried forward), so it stays a readable chart."""
    from umaoka.engine.online.rating import rating_history
    from umaoka.templates.sheets import rating as rating_sheet

    monkeypatch.setattr(rating_sheet, "CHART_POINTS", 3)
    book = _book_with_platform_rows()
    write_settled(book, tmp_path / "settled.xlsx")
    ws = load_workbook(tmp_path / "settled.xlsx")["Spring 2026 Rating"]
    league = book.leagues[0]
    games = stats_records(counted(league, settle_league(league, book.rules_of(league).ruleset)))
    total = len(games)
    assert total > 3
    step = -(-total // 3)
    start = next(r for r in range(5, 200) if ws.cell(r, 1).value == "Game")
    plotted = [ws.cell(start + k, 1).value for k in range(1, 6)]
    want = [j for j in range(1, total + 1) if j % step == 0 or j == total]
    assert plotted[:len(want)] == want and plotted[len(want)] is None
    names = [ws.cell(start, 2 + k).value for k in range(8)]
    for k, j in enumerate(want, 1):
        then: dict[str, object] = {}
        for s in rating_history(games):
            if s.game <= j:
                then[s.name] = s.after
        assert [ws.cell(start + k, 2 + c).value for c in range(8)] == [
            float(then[n]) if n in then else None for n in names]
