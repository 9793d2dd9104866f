"""The Excel functions through xlwings' own Office.js path (xlwings Server and xlwings Lite).

tests/conftest.py imports xlwings on its Office.js path, so ``xw.func`` is
xlwings' Office.js decorator, and these calls go through the same argument and result
conversion as a call from Excel: ``xlwings.server.custom_functions_call``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import xlwings as xw
import xlwings.server
from excel_cells import BLANK_CASES, BLANKS, DATE_CASES, ERROR_CASES
from excel_cells import office_answer as answer

from umaoka.addin import udfs
from umaoka.engine import ruleset, settle

GAME = [35700, 32400, 22200, 9700]
GAME_ROW = [GAME]
NAMES = ["MJ_EXPLAIN", "MJ_HAND", "MJ_HAND_TABLE", "MJ_PRESETS", "MJ_RANK", "MJ_RANKPOINTS",
         "MJ_RULESET", "MJ_SEASON", "MJ_SETTLE", "MJ_SHORTCUT", "MJ_STANDINGS"]


def payload(func_name: str, *args: Any) -> dict[str, Any]:
    """The body Excel's custom-function JavaScript posts for one call."""
    return {
        "func_name": func_name,
        "args": list(args),
        "caller_address": "Games!K2",
        "formula_name": func_name,
        "version": xw.__version__,
        "runtime": "1.4",
        "client": "Office.js",
        "culture_info_name": "en-US",
        "date_format": "M/d/yyyy",
    }


def call(func_name: str, *args: Any, module: Any = udfs) -> Any:
    return asyncio.run(xlwings.server.custom_functions_call(payload(func_name, *args), module))


# ------------------------------------------------------------------------------------------------
# Metadata: names and help texts Excel shows


def test_meta_names_and_help_texts():
    meta = xlwings.server.custom_functions_meta(udfs)
    funcs = {f["name"]: f for f in meta["functions"]}
    assert sorted(funcs) == NAMES
    for name, f in funcs.items():
        assert f["id"] == name
        assert len(f["description"]) > 20 and "=" + name + "(" in f["description"], name
        for p in f["parameters"]:
            assert p["description"] and not p["description"].startswith("Positional"), (name, p)
    settle = funcs["MJ_SETTLE"]
    assert [p["name"] for p in settle["parameters"]] == ["scores", "ruleset", "deposits",
                                                         "penalties"]
    assert [p.get("optional", False) for p in settle["parameters"]] == [False, True, True, True]
    assert funcs["MJ_PRESETS"]["parameters"] == []
    hand = funcs["MJ_HAND"]
    assert [p["name"] for p in hand["parameters"]] == ["han", "fu", "dealer", "tsumo", "honba",
                                                       "options", "pao", "liable_dealer",
                                                       "riichi"]


def test_excel_descriptions_are_one_short_line_and_python_keeps_the_whole_docstring():
    # xlwings Server and Lite send the description in the functions' metadata; classic
    # xlwings gives Application.MacroOptions the same text (cut at 255 characters): Excel
    # shows it as it is, so no line breaks, no indentation, within 255 characters.
    meta = {f["name"]: f for f in xlwings.server.custom_functions_meta(udfs)["functions"]}
    assert sorted(meta) == NAMES == sorted(udfs.__all__)
    for name, f in meta.items():
        text = f["description"]
        assert "\n" not in text and "  " not in text and text == text.strip(), (name, text)
        assert 40 <= len(text) <= 255, (name, len(text))
        assert text.endswith(".") and "=" + name + "(" in text, (name, text)
        function = getattr(udfs, name)
        assert function.__xlfunc__["ret"]["doc"] == text  # what classic xlwings imports
        # Python's help: the whole docstring, whose first paragraph is Excel's text
        assert function.__doc__ == function.__wrapped__.__doc__
        assert udfs.excel_description(function.__doc__) == text
        for p in f["parameters"]:
            assert "\n" not in p["description"] and len(p["description"]) <= 255, (name, p)
    # the long ones keep their details for Python
    assert "With pao" in udfs.MJ_HAND.__doc__ and "With pao" not in meta["MJ_HAND"][
        "description"]
    assert "tie-break" in udfs.MJ_SEASON.__doc__


def test_range_arguments_are_two_dimensional():
    for name in NAMES:
        for arg in getattr(udfs, name).__xlfunc__["args"]:
            if arg["name"] in ("scores", "ruleset", "deposits", "penalties", "players",
                               "finals", "options"):
                assert arg["options"]["ndim"] == 2, (name, arg["name"])


# ------------------------------------------------------------------------------------------------
# MJ_SETTLE with the shapes Excel sends


def test_settle_worked_examples():
    assert call("MJ_SETTLE", [GAME]) == [[46, 12, -18, -40]]
    assert call("MJ_SETTLE", [[30000.0, 30000.0, 30000.0, 10000.0]], "mleague") == \
        [[16.8, 16.6, 16.6, -50]]


def test_settle_orientation_column_in_column_out():
    out = call("MJ_SETTLE", [[35700.0], [32400.0], [22200.0], [9700.0]], [["standard"]])
    assert out == [[46], [12], [-18], [-40]]


def test_settle_omitted_arguments_arrive_as_none():
    # Office.js sends omitted optional arguments as null and single cells as [[value]].
    assert call("MJ_SETTLE", [GAME], None, None, None) == [[46, 12, -18, -40]]
    assert call("MJ_SETTLE", [[35700, 32400, 22200, 8700]], [[None]], [[1000]], [[None]]) == \
        [[47, 12, -18, -41]]


def test_settle_block_blank_zero_and_error_rows():
    block = [GAME, [None] * 4, [0, 0, 0, 0], ["", "", "", ""], [35700, 32400, 22200, "x"],
             [True, 32400, 22200, 9700], [40000.0, 30000.0, 20000.0, 10000.0]]
    out = call("MJ_SETTLE", block, "standard", [[0]] * 7)
    assert out[0] == [46, 12, -18, -40]
    assert out[1] == out[2] == out[3] == ["", "", "", ""]
    assert out[4] == ['score 4 ("x") is not a number; enter raw points such as 32400.', "", "",
                      ""]
    assert out[5][0] == "score 1 is TRUE, not a number; enter raw points such as 32400."
    assert out[6] == [50, 10, -20, -40]
    for row in (out[0], out[6]):
        assert all(type(v) is int for v in row)


def test_settle_single_error_surfaces_the_message():
    with pytest.raises(udfs.UmaokaExcelError) as err:
        call("MJ_SETTLE", [[35700, 32400, 22200, 9600]])
    assert isinstance(err.value, xw.XlwingsError)
    # xlwings Server answers an XlwingsError with str(exception): one sentence, no traceback
    assert str(err.value) == ("scores add up to 99,900 but 4 x 25,000 = 100,000: 100 missing; "
                              "fix a score or the deposits.")
    with pytest.raises(xw.XlwingsError, match="^ties cannot be \"sideways\""):
        call("MJ_SETTLE", [GAME], [["ties", "sideways"]])


def test_settle_blank_single_cell_and_blank_game():
    assert call("MJ_SETTLE", [[None]]) == [[""]]
    assert call("MJ_SETTLE", [[0, 0, 0, 0]]) == [["", "", "", ""]]


def test_settle_ruleset_range_with_office_js_blanks():
    rules = [["preset", "mleague"], [0, 0], ["", ""], ["ties", "seat"]]
    assert call("MJ_SETTLE", [[30000, 30000, 30000, 10000]], rules) == [[50, 10, -10, -50]]


def test_settle_penalties_block():
    out = call("MJ_SETTLE", [GAME, GAME], None, [[0], [0]], [[-20, 0, 0, 0], [0, 0, 0, None]])
    assert out == [[26, 12, -18, -40], [46, 12, -18, -40]]


# ------------------------------------------------------------------------------------------------
# The other functions


def test_rank_explain_shortcut():
    assert call("MJ_RANK", [[30000, 30000, 25000, 15000]], "mleague") == [[1, 1, 3, 4]]
    assert call("MJ_RANK", [[9700], [35700], [22200], [32400]]) == [[4], [1], [3], [2]]
    explain = call("MJ_EXPLAIN", [GAME])
    assert explain[1] == ["East", 35700, 0, 1, 5.7, 6, 0, 20, 20, 0, 46]
    assert [row[-1] for row in call("MJ_SHORTCUT")[1:]] == [10, -20, -40, -50]
    assert call("MJ_SHORTCUT", "standard", [GAME])[1] == [1, 35700, 36000, 36, 46, 10]


def test_standings_and_error_row():
    players = [["Aki", "Ben", "Chie", "Dan"], [None] * 4, ["Ben", "Aki", "Dan", "Chie"]]
    finals = call("MJ_SETTLE", [GAME, [0, 0, 0, 0], [40000, 30000, 20000, 10000]])
    table = call("MJ_STANDINGS", players, finals)
    assert [row[:4] for row in table[1:]] == [[1, "Ben", 2, 62], [2, "Aki", 2, 56],
                                             [3, "Chie", 2, -58], [4, "Dan", 2, -60]]
    finals = call("MJ_SETTLE", [GAME, [0, 0, 0, 0], [40000, 30000, 20000, 0]])
    with pytest.raises(xw.XlwingsError, match="^row 3 of the range has no final score"):
        call("MJ_STANDINGS", players, finals)


def test_ruleset_presets_round_trip():
    table = call("MJ_RULESET", "mleague; ties=seat")
    assert [row[0] for row in table] == ["players", "start", "target", "oka", "uma",
                                         "floating", "rounding", "round_on", "adjust", "ties",
                                         "leftover", "scoring", "shared_place"]
    assert call("MJ_SETTLE", [[30000, 30000, 30000, 10000]], table) == [[50, 10, -10, -50]]
    presets = call("MJ_PRESETS")
    assert presets[0][0] == "name" and len(presets) == 11


def test_hand_and_table():
    assert call("MJ_HAND", 3.0, 30.0) == [[3900, 3900, ""]]
    assert call("MJ_HAND", 3, 40, False, True, 1) == [[5500, 1400, 2700]]
    assert call("MJ_HAND", "yakuman", None, True, True) == [[48000, 16000, ""]]
    assert call("MJ_HAND", 4, 30, None, None, None, "kiriage") == [[8000, 8000, ""]]
    with pytest.raises(xw.XlwingsError, match="^fu is needed"):
        call("MJ_HAND", 2)
    # riichi sticks, the last argument (MahjongPantheon's cases)
    assert call("MJ_HAND", 6, 40, True, None, None, None, None, None, [[3.0]]) == \
        [[21000, 18000, ""]]
    assert call("MJ_HAND", 5, 30, True, True, 0, None, None, None, 4) == [[16000, 4000, ""]]
    with pytest.raises(xw.XlwingsError, match="^riichi must be a whole number of 0 or more"):
        call("MJ_HAND", 3, 30, None, None, None, None, None, None, -2)
    with pytest.raises(xw.XlwingsError, match=r"^this hand pays .* \(2\^53"):
        call("MJ_HAND", 45, 30, None, None, None, "aotenjou")
    assert call("MJ_HAND_TABLE", True)[3][3] == "5800 / 2000 all"


# ------------------------------------------------------------------------------------------------
# A league sheet: 10,000 games in one call


def _league(n: int = 10_000) -> tuple[list[list[Any]], list[list[Any]]]:
    games, names = [], []
    people = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi"]
    for i in range(n):
        a = 100 * (i % 150)
        games.append([float(40000 - a), 30000.0, float(20000 + a), 10000.0] if i % 3 else
                     [35700, 32400, 22200, 9700])
        names.append([people[(i + k) % 6] for k in range(4)])
    return games, names


def test_ten_thousand_games_settle_and_standings():
    # Speed is measured by benchmarks/bench_udfs.py, not asserted here.
    games, names = _league()
    finals = call("MJ_SETTLE", games, "standard")
    assert len(finals) == 10_000 and finals[0] == [46, 12, -18, -40]
    assert all(isinstance(v, (int, float)) for row in finals for v in row)
    table = call("MJ_STANDINGS", names, finals)
    assert sum(row[2] for row in table[1:]) == 40_000
    assert sum(row[3] for row in table[1:]) == 0  # oka is exact, standard sums to zero


# ------------------------------------------------------------------------------------------------
# Cells as the real clients send them: blanks as null, 0 (desktop Excel) or "", error cells,
# dates (tests/excel_cells.py; the same calls run in the real Pyodide in test_pyodide.py).


@pytest.mark.parametrize("case", [c[0] for c in BLANK_CASES])
def test_an_empty_cell_answers_alike_on_every_client(case: str):
    _, func, make, omitted = next(c for c in BLANK_CASES if c[0] == case)
    got = {kind: answer(func, make(cell)) for kind, cell in BLANKS.items()}
    assert got["zero"] == got["null"] and got["empty text"] == got["null"], got
    if omitted is None:  # a blank is not allowed: the same sentence, one line
        message = got["null"].get("error")
        assert message and "\n" not in message and message.endswith("."), got["null"]
    else:
        assert "error" not in got["null"], got["null"]
        assert got["null"] == answer(func, omitted)


def test_an_emptied_value_in_a_rules_range_is_refused_not_taken_as_0():
    # the league tab's finals would change silently if desktop Excel's 0 were "oka off"
    for kind, cell in BLANKS.items():
        for key, example in [("oka", "on"), ("floating", "off"), ("uma", "20/10/-10/-20")]:
            assert answer("MJ_SETTLE", [GAME_ROW, [["preset", "mleague"], [key, cell]]]) == {
                "error": f"{key} has no value (its cell is blank, or 0, which is how desktop "
                         f"Excel sends an empty cell); give one, e.g. {key}={example}, or "
                         f"leave {key} out."}, kind
    # words and text zeros still mean what they say
    words = call("MJ_SETTLE", GAME_ROW, [["preset", "mleague"], ["oka", "off"], ["uma", "0"]])
    assert words == [[10.7, 7.4, -2.8, -15.3]]
    assert words == [[float(v) if v % 1 else int(v) for v in
                      settle(GAME, ruleset("mleague; oka=off uma=0")).final]]


def test_zeros_that_are_values_stay_values():
    # a score, a deposit, a penalty and honba of 0 are numbers, not blanks
    assert call("MJ_SETTLE", [[100000, 0, 0, 0]], [["standard"]], [[0]], [[0, 0, 0, -20]]) == \
        [[110, -20, -40, -70]]
    assert call("MJ_HAND", [[3]], [[30]], [[0]], [[0]], [[0]]) == [[3900, 3900, ""]]
    assert call("MJ_HAND", [[3]], [[30]], [[0]], [[0]], [[1]]) == [[4200, 4200, ""]]


@pytest.mark.parametrize("case", [c[0] for c in ERROR_CASES])
def test_an_error_cell_gets_its_sentence(case: str):
    _, func, args, said = next(c for c in ERROR_CASES if c[0] == case)
    assert answer(func, args) == {"error": said}


@pytest.mark.parametrize("case", [c[0] for c in DATE_CASES])
def test_a_date_where_it_belongs_and_where_it_does_not(case: str):
    _, func, args, said, same = next(c for c in DATE_CASES if c[0] == case)
    if said is None:
        got = answer(func, args)
        assert "error" not in got, got
        assert got == answer(func, same)
    else:
        assert answer(func, args) == {"error": said}
