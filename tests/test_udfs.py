"""The Excel functions called directly from Python, with the values Excel passes."""

from __future__ import annotations

import re

import pytest
import xlwings as xw

from umaoka.addin import udfs
from umaoka.addin.install.setup import addin_config, addin_instructions
from umaoka.addin.udfs import (
    MJ_EXPLAIN,
    MJ_HAND,
    MJ_HAND_TABLE,
    MJ_PRESETS,
    MJ_RANK,
    MJ_RULESET,
    MJ_SETTLE,
    MJ_SHORTCUT,
    MJ_STANDINGS,
    UmaokaExcelError,
)
from umaoka.engine import FIELDS, PRESETS, ruleset, settle

GAME = [35700, 32400, 22200, 9700]


def _only_numbers(rows):
    for row in rows:
        for v in row:
            assert type(v) in (int, float), (v, type(v))


# ------------------------------------------------------------------------------------------------
# MJ_SETTLE


def test_settle_worked_example_row():
    assert MJ_SETTLE([GAME]) == [[46, 12, -18, -40]]
    assert MJ_SETTLE([GAME], "standard") == [[46, 12, -18, -40]]
    _only_numbers(MJ_SETTLE([GAME]))


def test_settle_mleague_three_way_tie_as_column():
    out = MJ_SETTLE([[30000], [30000], [30000], [10000]], "mleague")
    assert out == [[16.8], [16.6], [16.6], [-50]]
    assert type(out[3][0]) is int and type(out[0][0]) is float


def test_settle_floats_and_flat_row_like_excel():
    # Excel sends numbers as floats; a 1-D row (Lite, some callers) works too.
    assert MJ_SETTLE([[35700.0, 32400.0, 22200.0, 9700.0]]) == [[46, 12, -18, -40]]
    assert MJ_SETTLE([35700.0, 32400.0, 22200.0, 9700.0]) == [[46, 12, -18, -40]]
    assert MJ_SETTLE(((35700.0, 32400.0, 22200.0, 9700.0),)) == [[46, 12, -18, -40]]


def test_settle_seed_examples():
    assert MJ_SETTLE([[45000, 33000, 18000, 4000]], "uma=10-20") == [[55, 13, -22, -46]]
    rules = [["uma", "0/0/0/0"], ["rounding", "half_up"]]
    assert MJ_SETTLE([[43600, 14500, 15400, 26500]], rules) == [[33, -15, -15, -3]]


def test_settle_block_with_blank_zero_and_bad_rows():
    block = [
        GAME,
        [None, None, None, None],
        ["", "", "", ""],
        [0, 0, 0, 0],
        [35700, 32400, 22200, 9600],
        [40000, 30000, 20000, 10000],
    ]
    out = MJ_SETTLE(block)
    assert out[0] == [46, 12, -18, -40]
    assert out[1] == out[2] == out[3] == ["", "", "", ""]
    assert out[4][0] == ("scores add up to 99,900 but 4 x 25,000 = 100,000: 100 missing; fix a "
                         "score or the deposits.")
    assert out[4][1:] == ["", "", ""]
    assert out[5] == [50, 10, -20, -40]


def test_settle_single_bad_game_raises_with_the_message():
    with pytest.raises(UmaokaExcelError, match="^scores add up to 99,900") as err:
        MJ_SETTLE([[35700, 32400, 22200, 9600]])
    assert isinstance(err.value, xw.XlwingsError)
    with pytest.raises(UmaokaExcelError, match="expected 4 scores"):
        MJ_SETTLE([[35700], [32400], [31900]])
    with pytest.raises(UmaokaExcelError, match='"mleeague" is not a preset.*"mleague"'):
        MJ_SETTLE([GAME], "mleeague")


def test_settle_blank_single_game_gives_blanks():
    assert MJ_SETTLE([[None, None, None, None]]) == [["", "", "", ""]]
    assert MJ_SETTLE([[0], [0], [0], [0]]) == [[""], [""], [""], [""]]
    assert MJ_SETTLE(None) == ""


def test_settle_deposits_single_and_per_game():
    assert MJ_SETTLE([[35700, 32400, 22200, 8700]], None, 1000) == [[47, 12, -18, -41]]
    block = [[35700, 32400, 22200, 8700], GAME]
    assert MJ_SETTLE(block, None, [[1000], [0]]) == [[47, 12, -18, -41], [46, 12, -18, -40]]
    assert MJ_SETTLE(block, None, [[1000], [None]])[1] == [46, 12, -18, -40]
    with pytest.raises(UmaokaExcelError, match="deposits has 3 cells but there are 2 games"):
        MJ_SETTLE(block, None, [[0], [0], [0]])
    # A single deposits value for a block: the second game does not add up with it.
    out = MJ_SETTLE(block, None, 1000)
    assert out[0] == [47, 12, -18, -41] and out[1][0].startswith("scores add up to 100,000 plus")


def test_settle_penalties():
    assert MJ_SETTLE([GAME], None, None, [[-20, 0, None, 0]]) == [[26, 12, -18, -40]]
    assert MJ_SETTLE([[g] for g in GAME], None, None, [[-20], [0], [0], [0]]) == \
        [[26], [12], [-18], [-40]]
    block = [GAME, GAME]
    assert MJ_SETTLE(block, None, None, [[0, 0, 0, 0], [0, -2.5, 0, 0]]) == \
        [[46, 12, -18, -40], [46, 9.5, -18, -40]]
    with pytest.raises(UmaokaExcelError, match="penalties has 1 rows but there are 2 games"):
        MJ_SETTLE(block, None, None, [[0, 0, 0, 0]])


def test_settle_ruleset_as_range_text_and_blank():
    rng = [["preset", "mleague"], [None, None], [0, 0], ["ties", "seat"]]
    assert MJ_SETTLE([[30000, 30000, 30000, 10000]], rng) == [[50, 10, -10, -50]]
    assert MJ_SETTLE([[30000, 30000, 30000, 10000]], "mleague; ties=seat") == \
        [[50, 10, -10, -50]]
    assert MJ_SETTLE([[30000, 30000, 30000, 10000]], [["mleague; ties=seat"]]) == \
        [[50, 10, -10, -50]]
    assert MJ_SETTLE([GAME], [[None]]) == MJ_SETTLE([GAME], "") == [[46, 12, -18, -40]]
    assert MJ_SETTLE([[45000, 35000, 25000]], "tenhou-sanma") == [[40, -5, -35]]


def test_settle_office_js_error_cell_is_reported_in_its_row():
    error = {"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}
    out = MJ_SETTLE([GAME, [error, 32400, 22200, 9700]])
    assert out[0] == [46, 12, -18, -40]
    assert out[1][0] == 'score 1 ("#N/A") is not a number; enter raw points such as 32400.'


def test_settle_matches_engine_on_many_games():
    games = [[25000 + 100 * i, 25000 - 100 * i, 30000, 20000] for i in range(50)]
    out = MJ_SETTLE(games, "tenhou")
    for game, row in zip(games, out):
        assert row == [float(f) if f % 1 else int(f) for f in settle(game, "tenhou").final]


# ------------------------------------------------------------------------------------------------
# MJ_RANK, MJ_EXPLAIN, MJ_SHORTCUT


def test_rank_row_column_block():
    assert MJ_RANK([[30000, 30000, 25000, 15000]]) == [[1, 2, 3, 4]]
    assert MJ_RANK([[30000, 30000, 25000, 15000]], "mleague") == [[1, 1, 3, 4]]
    assert MJ_RANK([[9700], [35700], [22200], [32400]]) == [[4], [1], [3], [2]]
    out = MJ_RANK([GAME, [0, 0, 0, 0], [1, 2, 3]])
    assert out[0] == [1, 2, 3, 4] and out[1] == ["", "", "", ""]
    assert out[2][0].startswith("expected 4 scores") and out[2][1:] == ["", "", ""]


def test_explain():
    out = MJ_EXPLAIN([GAME])
    assert out[0] == ["Seat", "Raw", "Deposits", "Place", "Base", "Rounded", "Adjustment",
                      "Oka", "Uma", "Penalty", "Final"]
    assert out[1] == ["East", 35700, 0, 1, 5.7, 6, 0, 20, 20, 0, 46]
    assert out[4] == ["North", 9700, 0, 4, -20.3, -20, 0, 0, -20, 0, -40]
    _only_numbers([row[1:] for row in out[1:]])
    col = MJ_EXPLAIN([[35700], [32400], [22200], [8700]], "standard", 1000)
    assert col[1][2] == 1000 and col[1][-1] == 47
    with pytest.raises(UmaokaExcelError, match="scores add up"):
        MJ_EXPLAIN([[35700, 32400, 22200, 8700]])


def test_shortcut():
    table = MJ_SHORTCUT()
    assert table[0] == ["Place", "Raw", "Rounded", "Rounded/1000 (A)", "End score (B)", "B - A"]
    assert [row[-1] for row in table[1:]] == [10, -20, -40, -50]
    table = MJ_SHORTCUT("standard", [[35700, 32400, 22200, 9700]])
    assert table[1] == [1, 35700, 36000, 36, 46, 10]
    floating = MJ_SHORTCUT("jpml-a")
    # JPML splits ties: the last row is the note on how tied players share offsets.
    assert floating[-4][0] == "1 floating" and floating[-4][1:5] == [-18, -31, -33, -38]
    assert floating[-1][0] == "Ties"


# ------------------------------------------------------------------------------------------------
# MJ_STANDINGS


def test_standings_from_settled_block_skips_blank_rows():
    players = [["Aki", "Ben", "Chie", "Dan"], [None] * 4, ["Ben", "Aki", "Dan", "Chie"],
               ["Aki", "Ben", "Chie", "Dan"]]
    finals = MJ_SETTLE([GAME, [None] * 4, [40000, 30000, 20000, 10000], [None] * 4])
    table = MJ_STANDINGS(players, finals)
    assert table[0][:4] == ["Rank", "Player", "Games", "Total"]
    assert [row[:4] for row in table[1:]] == [[1, "Ben", 2, 62], [2, "Aki", 2, 56],
                                             [3, "Chie", 2, -58], [4, "Dan", 2, -60]]
    _only_numbers([row[2:] for row in table[1:]])


def test_standings_zero_rows_from_office_js_are_blank():
    players = [["A", "B", "C", "D"], [0, 0, 0, 0]]
    finals = [[46, 12, -18, -40], [0, 0, 0, 0]]
    assert [r[1] for r in MJ_STANDINGS(players, finals)[1:]] == ["A", "B", "C", "D"]


def test_standings_error_row_is_named():
    players = [["A", "B", "C", "D"], [None] * 4, ["A", "B", "C", "D"]]
    finals = MJ_SETTLE([GAME, [None] * 4, [35700, 32400, 22200, 9600]])
    with pytest.raises(UmaokaExcelError) as err:
        MJ_STANDINGS(players, finals)
    assert str(err.value).startswith("row 3 of the range has no final score for player 1 "
                                     "('scores add up to 99,900")
    with pytest.raises(UmaokaExcelError, match="players has 1 rows but finals has 2"):
        MJ_STANDINGS([["A", "B", "C", "D"]], [[1, 2, 3, 4], [1, 2, 3, 4]])
    with pytest.raises(UmaokaExcelError, match="row 1 of the range lists the same player twice"):
        MJ_STANDINGS([["A", "A", "C", "D"]], [[46, 12, -18, -40]])


def test_standings_numeric_names_and_column_game():
    table = MJ_STANDINGS([[101.0, 102.0, 103.0, 104.0]], [[46.0, 12.0, -18.0, -40.0]])
    assert [r[1] for r in table[1:]] == ["101", "102", "103", "104"]
    table = MJ_STANDINGS([["A"], ["B"], ["C"], ["D"]], [[46], [12], [-18], [-40]])
    assert [r[1] for r in table[1:]] == ["A", "B", "C", "D"]


# ------------------------------------------------------------------------------------------------
# MJ_RULESET, MJ_PRESETS


@pytest.mark.parametrize("spec", [*PRESETS, "mleague; ties=seat", "uma=10-30 rounding=half_up",
                                  "start=30000 target=30000 oka=off floating=shift uma=15/5/-5/-15",
                                  "tenhou-sanma; leftover=lost"])
def test_ruleset_table_round_trips(spec):
    table = MJ_RULESET(spec)
    assert all(len(row) == 2 for row in table)
    keys = [row[0] for row in table if row[0] != "preset"]
    assert keys == list(FIELDS)
    assert ruleset(table) == ruleset(spec)
    assert MJ_RULESET(table)[-10:] == table[-10:]  # pasted back as a range: same fields
    if spec in PRESETS:
        assert table[0] == ["preset", spec]


def test_ruleset_values():
    assert dict(MJ_RULESET("jpml-a"))["floating"] == "1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12"
    assert dict(MJ_RULESET())["uma"] == "20/10/-10/-20"
    with pytest.raises(UmaokaExcelError, match='"tie" is not|ties cannot be'):
        MJ_RULESET([["ties", "sideways"]])


def test_presets():
    table = MJ_PRESETS()
    assert table[0] == ["name", "description", "players", "start", "target", "oka", "uma",
                        "floating", "rounding", "round_on", "adjust", "ties", "leftover", "source"]
    assert [row[0] for row in table[1:]] == list(PRESETS)
    mleague = table[1 + list(PRESETS).index("mleague")]
    assert mleague[2:13] == [4, 25000, 30000, "on", "30/10/-10/-30", "off", "none", "difference",
                             "first", "split", "first"]
    assert mleague[13] == "M.League"


# ------------------------------------------------------------------------------------------------
# MJ_HAND, MJ_HAND_TABLE


def test_hand():
    assert MJ_HAND(3, 30) == [[3900, 3900, ""]]
    assert MJ_HAND(3.0, 40.0, False, True, 1.0) == [[5500, 1400, 2700]]
    assert MJ_HAND(3, 30, True, True, 1, "kiriage") == [[6300, 2100, ""]]
    assert MJ_HAND("mangan", None, None, "tsumo", 2) == [[8600, 2200, 4200]]
    assert MJ_HAND("yakuman", None, True) == [[48000, 48000, ""]]
    assert MJ_HAND(4, 30, None, None, None, [["kiriage", "on"]]) == [[8000, 8000, ""]]
    with pytest.raises(UmaokaExcelError, match="^fu is needed for a 3 han hand"):
        MJ_HAND(3)
    with pytest.raises(UmaokaExcelError, match='"kirage" is not a hand rule'):
        MJ_HAND(3, 30, options="kirage")


def test_hand_riichi_is_the_last_argument():
    # MahjongPantheon's cases: the total gains 1,000 a stick, the payments stay.
    assert MJ_HAND(6, 40, True, None, None, None, None, None, 3) == [[21000, 18000, ""]]
    assert MJ_HAND(5, 30, True, True, riichi=4.0) == [[16000, 4000, ""]]
    assert MJ_HAND(3, 40, False, True, 1, riichi=2) == [[7500, 1400, 2700]]
    assert MJ_HAND("yakuman", None, False, True, 1, None, 1, None, 1) == \
        [[33300, 32300, 0, 0]]
    assert MJ_HAND(3, 30, riichi="") == MJ_HAND(3, 30, riichi=0) == [[3900, 3900, ""]]
    for bad, fragment in ((-1, "0 or more (got -1)"), (1.5, "0 or more (got 1.5)"),
                          (1e30, "from 0 to 100"), ("x", '0 or more (got "x")'),
                          (True, "0 or more (got True)")):
        with pytest.raises(UmaokaExcelError) as err:
            MJ_HAND(3, 30, riichi=bad)
        assert str(err.value).startswith("riichi must be a whole number of") or \
            str(err.value).startswith("riichi must be a whole number from"), bad
        assert fragment in str(err.value), bad


def test_hand_refuses_amounts_excel_cannot_hold_exactly():
    # aotenjou: 44 han 30 fu pays 8,444,249,301,319,700 (under 2^53), shown exactly ...
    assert MJ_HAND(44, 30, options="aotenjou") == [[8444249301319700, 8444249301319700, ""]]
    # ... 45 han 30 fu pays 16,888,498,602,639,400, past 2^53: refused, not rounded
    for han, fu in ((45, 30), (500, 170)):
        with pytest.raises(UmaokaExcelError) as err:
            MJ_HAND(han, fu, options="aotenjou")
        text = str(err.value)
        assert text.startswith("this hand pays ") and "2^53" in text and "umaoka hand" in text
    # the riichi sticks count: 2^53 is reached by the total the winner gains
    with pytest.raises(UmaokaExcelError, match="^this hand pays 1.689E"):
        MJ_HAND(45, 30, options="aotenjou", riichi=1)


def test_hand_table():
    table = MJ_HAND_TABLE()
    assert table[0][:4] == ["han", "fu 20", "fu 25", "fu 30"]
    assert table[1][3] == "1000 / 300-500"
    assert MJ_HAND_TABLE(True)[3][3] == "5800 / 2000 all"
    assert len(MJ_HAND_TABLE(False, "aotenjou")) == 14


# ------------------------------------------------------------------------------------------------
# Module surface and classic xlwings setup


def test_all_lists_every_excel_function():
    funcs = sorted(n for n in dir(udfs) if hasattr(getattr(udfs, n), "__xlfunc__"))
    assert funcs == sorted(udfs.__all__)
    assert len(funcs) == 11


def test_addin_config_and_instructions():
    config = addin_config()
    assert config[0] == ("UDF Modules", "umaoka.addin.udfs")
    assert ("Interpreter_Win", r"C:\Python\pythonw.exe") in addin_config(r"C:\Python\pythonw.exe")
    text = addin_instructions()
    for needle in ("pip install umaoka", "xlwings addin install", "xlwings.conf",
                   "UDF Modules", "umaoka.addin.udfs", "Import Functions", "umaoka lite"):
        assert needle in text
    # the VBA editor's reference to xlwings, which xlwings' docs require for imported UDFs
    assert 'Tools > References..., tick "xlwings"' in text
    assert text.index("Tools > References") < text.index('"Import Functions"')


def test_addin_lists_every_function_xlwings_registers(capsys: pytest.CaptureFixture[str]):
    import xlwings.server

    from umaoka.addin import cli

    registered = sorted(f["name"] for f in xlwings.server.custom_functions_meta(udfs)[
        "functions"])
    assert len(registered) == 11 and "MJ_SEASON" in registered and "MJ_RANKPOINTS" in registered
    assert cli.main(["addin"]) == 0
    out = capsys.readouterr().out
    listed = re.findall(r"\bMJ_[A-Z_]+\b(?=[,\s])", out.split('"Import Functions"')[1])
    assert sorted(set(listed)) == registered
    assert max(len(line) for line in out.splitlines()) <= 89
