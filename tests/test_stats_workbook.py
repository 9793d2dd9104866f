"""Stats in the workbook: MJ_STANDINGS's stats columns (Office.js path) and the league
Stats sheets (native formulas in the template, the engine's values in the settled copy)."""

from __future__ import annotations

from decimal import Decimal

import pytest
import xlwings as xw
from test_officejs import GAME, call
from umaoka.engine import settle, standings_table
from umaoka.engine.stats import player_stats

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
