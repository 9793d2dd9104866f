"""Anything Excel can send to any Excel function, and any ruleset or hand a caller can write.

Every UDF goes through xlwings' Office.js path (tests/test_officejs.py ``call()``) with
numbers from -1e308 to 1e308, NaN and Infinity as text, texts up to Excel's 32,767
characters, control characters, booleans, blanks, error values (as text and as Office.js
entities), dates as serial numbers and ranges of any shape: the answer is a result or an
``xlwings.XlwingsError`` whose message is one sentence, each within a small time bound.
"""

from __future__ import annotations

import os
import time
import typing
from typing import Any

import pytest
import xlwings as xw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_officejs import call

from umaoka.addin import udfs
from umaoka.addin.functions import settle as settle_fns
from umaoka.engine import UmaokaError, ruleset
from umaoka.engine.hands.payment import hand, hand_table
from umaoka.engine.hands.rules import hand_rules

#: Generous under load; the quadratic parsing this guards against took seconds to minutes.
SECONDS = 2.0

ERRORS = ["#REF!", "#N/A", "#VALUE!", "#DIV/0!", "#NAME?", "#NUM!", "#NULL!", "#SPILL!",
          "#CALC!", "#GETTING_DATA"]

#: Words the functions know, so that fuzzing also reaches past the first check.
WORDS = ["mleague", "standard", "ema", "tenhou", "mahjongsoul", "ties=seat", "uma=10-30",
         "rounding=none", "floating=shift", "players=3", "start", "uma", "ties", "preset",
         "mangan", "yakuman", "double yakuman", "dealer", "tsumo", "ron", "kiriage", "aotenjou",
         "sanma", "all", "phoenix", "jade", "7dan", "Expert 2", "Master 1", "east", "south",
         "A", "B", "C", "D", "35,700", "−9,700"]


def _long_text(piece: str, n: int) -> str:
    return (piece * n)[:32_767]


#: One cell as Office.js sends it.
cells = st.one_of(
    st.none(),
    st.just(""),
    st.booleans(),
    st.integers(min_value=-10**6, max_value=10**6),
    st.sampled_from([35700, 32400, 22200, 9700, 25000, 1, 2, 3, 4, 30, 1000, 0]),
    st.floats(min_value=-1e308, max_value=1e308, allow_nan=False),
    st.floats(min_value=1, max_value=2_958_465),  # dates and times as serial numbers
    st.sampled_from(["NaN", "Infinity", "-Infinity", "inf", "1e999999", "1E+30", "\x00",
                     "\x01\x0b", "\t\n\r", "TRUE", "=1+1", "@SUM(A1)"]),
    st.sampled_from(ERRORS),
    st.sampled_from(ERRORS).map(lambda e: {"type": "Error", "basicValue": e,
                                           "errorType": "Ref"}),
    st.sampled_from(WORDS),
    st.text(max_size=30),
    st.builds(" ".join, st.lists(st.sampled_from(WORDS + ["=", ";", "/", ":", "|"]),
                                 max_size=8)),
    st.builds(_long_text, st.text(min_size=1, max_size=8), st.integers(1, 32_767)),
)

#: A range: rows of cells, of any size up to 5 x 6 (ragged too, as a careless caller sends).
grids = st.lists(st.lists(cells, min_size=1, max_size=6), min_size=1, max_size=5)
same_width = st.integers(1, 6).flatmap(
    lambda w: st.lists(st.lists(cells, min_size=w, max_size=w), min_size=1, max_size=5))
arguments = st.one_of(cells, grids, same_width)


def _parameters(name: str) -> int:
    return len(getattr(udfs, name).__xlfunc__["args"])


def _check(name: str, args: list[Any]) -> Any:
    start = time.perf_counter()
    try:
        return call(name, *args)
    except xw.XlwingsError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 600, (name, message)
        return None
    except Exception as e:  # noqa: BLE001 - say which input gave which exception
        pytest.fail(f"{name}{tuple(args)!r:.300} raised {type(e).__name__}: {e!s:.300}")
    finally:
        assert time.perf_counter() - start < SECONDS, (name, repr(args)[:300])


FUZZ = settings(max_examples=int(os.environ.get("UMAOKA_FUZZ", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.parametrize("name", sorted(udfs.__all__))
@FUZZ
@given(data=st.data())
def test_every_udf_gives_a_result_or_one_sentence(name: str, data: st.DataObject):
    args = [data.draw(arguments, label=f"arg {i}") for i in range(_parameters(name))]
    _check(name, args)


@pytest.mark.parametrize("name", ["MJ_SETTLE", "MJ_RANK", "MJ_EXPLAIN"])
@FUZZ
@given(scores=same_width, rules=arguments)
def test_scores_with_any_ruleset(name: str, scores: list[list[Any]], rules: Any):
    extra = [None] * (_parameters(name) - 2)
    _check(name, [scores, rules, *extra])
    _check(name, [[[35700, 32400, 22200, 9700]], rules, *extra])


@FUZZ
@given(rules=grids)
def test_rules_ranges(rules: list[list[Any]]):
    _check("MJ_SETTLE", [[[35700, 32400, 22200, 9700]], rules, None, None])
    _check("MJ_RULESET", [rules])


def test_blank_or_error_value_in_a_rules_range_names_the_key():
    game = [[35700, 32400, 22200, 9700]]
    blank = ("start has no value (its cell is blank, or 0, which is how desktop Excel sends an "
             "empty cell)")
    for value, said in [(None, blank), ("", blank), (0, blank), (0.0, blank),
                        ("#REF!", "the value of start is the Excel error #REF!"),
                        ({"type": "Error", "basicValue": "#N/A", "errorType": "NotAvailable"},
                         "the value of start is the Excel error #N/A")]:
        with pytest.raises(xw.XlwingsError, match=said.replace("(", r"\(").replace(")", r"\)")):
            call("MJ_SETTLE", game, [["preset", "mleague"], ["start", value]], None, None)


def test_unforeseen_errors_are_one_sentence_with_the_traceback_logged(monkeypatch, caplog):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("boom")

    monkeypatch.setattr(settle_fns, "settle", broken)
    with pytest.raises(xw.XlwingsError) as e:
        call("MJ_SETTLE", [[35700, 32400, 22200, 9700]], "mleague", None, None)
    assert str(e.value) == ("umaoka internal error in MJ_SETTLE (KeyError: 'boom'): please "
                            "report it with the inputs of this cell; the details are in the log.")
    assert "Traceback" in caplog.text and "KeyError: 'boom'" in caplog.text


def test_wrapper_keeps_what_xlwings_reads():
    for name in udfs.__all__:
        func = getattr(udfs, name)
        assert func.__wrapped__.__name__ == name and func.__doc__ == func.__wrapped__.__doc__
        # the same hints as the function's own, resolved once (xlwings reads them at every
        # call, and a text annotation would be evaluated each time)
        assert func.__annotations__ == typing.get_type_hints(func.__wrapped__)
        # Every argument that defaults to None names its converter (never typing.Union).
        for arg in func.__xlfunc__["args"]:
            assert arg["options"].get("convert") is not None, (name, arg["name"])


# ------------------------------------------------------------------------------------------------
# The engine: ruleset texts, pairs and mappings; the hand functions.


def _engine(make: Any) -> Any:
    start = time.perf_counter()
    try:
        return make()
    except UmaokaError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 600, message
        return None
    finally:
        assert time.perf_counter() - start < SECONDS


values = st.one_of(cells, st.lists(cells, max_size=5),
                   st.dictionaries(cells.filter(lambda c: not isinstance(c, dict)), cells,
                                   max_size=4))
keys = st.one_of(st.sampled_from(["players", "start", "target", "oka", "uma", "floating",
                                  "rounding", "round_on", "adjust", "ties", "leftover",
                                  "preset", "tie", "return"]), cells)


@FUZZ
@given(text=st.one_of(cells.filter(lambda c: isinstance(c, str)),
                      st.builds("".join, st.lists(st.sampled_from(
                          WORDS + ["=", ";", " ", ",", "/", ":", "|", "1", "-", "x", "0.5"]),
                          max_size=40))))
def test_ruleset_texts(text: str):
    _engine(lambda: ruleset(text))


@FUZZ
@given(pairs=st.lists(st.tuples(keys, values), max_size=5))
def test_ruleset_pairs_and_mappings(pairs: list[tuple[Any, Any]]):
    _engine(lambda: ruleset([list(p) for p in pairs]))
    mapping = {}
    for k, v in pairs:
        try:
            mapping[k] = v
        except TypeError:  # an unhashable key: no mapping can hold it
            continue
    _engine(lambda: ruleset(mapping))
    _engine(lambda: ruleset({"floating": mapping}))


@pytest.mark.parametrize("spec", ["x" * 32_767, "a" * 1_000_000, "start=1 " * 200_000,
                                  "mleague; " + "ties=seat " * 3_000])
def test_long_ruleset_texts_answer_at_once_with_an_excerpt(spec: str):
    start = time.perf_counter()
    with pytest.raises(UmaokaError) as e:
        ruleset(spec)
    assert time.perf_counter() - start < SECONDS  # measured: benchmarks/bench_rulesets.py
    assert len(str(e.value)) < 250 and "at most 2,000 characters" in str(e.value)


@FUZZ
@given(han=values, fu=cells, dealer=cells, tsumo=cells, honba=cells, rules=values,
       pao=cells, liable=cells, riichi=cells)
def test_hands(han: Any, fu: Any, dealer: Any, tsumo: Any, honba: Any, rules: Any, pao: Any,
               liable: Any, riichi: Any):
    parsed = _engine(lambda: hand_rules(rules))
    _engine(lambda: hand(han, fu, dealer, tsumo, honba, rules=parsed, pao=pao,
                         liable_dealer=liable, riichi=riichi))
    _engine(lambda: hand_table(dealer, parsed))


@pytest.mark.parametrize("value, said", [(None, "start has no value (it is blank)"),
                                         ("#REF!", "the value of start is the Excel error #REF!")])
def test_settle_reads_a_rules_sheet_with_a_blank_or_error_value(tmp_path, value, said):
    from openpyxl import load_workbook

    from umaoka.templates.book.model import make_book
    from umaoka.templates.build import build_workbook
    from umaoka.templates.settle_book import read_book
    from umaoka.templates.xlsx.io import save_workbook

    path = tmp_path / "league.xlsx"
    save_workbook(build_workbook(make_book(["mleague"], ["Spring"], ["A", "B", "C", "D"])), path)
    wb = load_workbook(path)
    cells = [row[1] for ws in wb for row in ws.iter_rows(max_col=2) if row[0].value == "start"]
    assert cells, "no rules sheet with a start row"
    cells[0].value = value
    wb.save(path)
    with pytest.raises(UmaokaError, match=said.replace("(", r"\(").replace(")", r"\)")):
        read_book(path)


@pytest.mark.parametrize("spec, said", [
    ("rounding=half_up rounding=none", 'rounding is given twice ("half_up", then "none")'),
    ([["ties", "seat"], ["tie", "split"]], 'ties is given twice ("seat", then "split")'),
    ({"floating": {"a": "1/2/3/4"}}, 'floating table key "a" should be a floating count'),
    ({"floating": {"type": "Error", "basicValue": "#REF!"}}, "the value of floating is the "
                                                             "Excel error #REF!"),
    ([["start", None]], "start has no value (it is blank)"),
    ([["preset", ""]], "preset has no value (it is blank)"),
    ({"start": "#VALUE!"}, "the value of start is the Excel error #VALUE!"),
    ("mleague; start=", "start has no value (it is blank)"),
    ({"start": 10**5000}, "start must be a whole number of points below 1,000,000,000"),
    ({"uma": "1e999999/0/0/0"}, 'uma "1e999999/0/0/0" is not a list of numbers'),
    ("mleague\n; ties", 'cannot read the ruleset "mleague\\n; ties"'),
])
def test_ruleset_misuse_is_one_sentence(spec: Any, said: str):
    with pytest.raises(UmaokaError) as e:
        ruleset(spec)
    assert str(e.value).startswith(said), str(e.value)


def test_a_text_row_beside_a_blank_cell_is_still_a_text():
    assert ruleset([["mleague", None], ["ties", "split"]]).uma == ruleset("mleague").uma


# ------------------------------------------------------------------------------------------------
# Issue 26 item 10: raw scores of MJ_STANDINGS, one number as MJ_RANKPOINTS's scores, and
# MJ_HAND past what an Excel cell holds exactly.

_NAMES = [["Aki", "Ben", "Chie", "Dan"], ["Ben", "Aki", "Dan", "Chie"]]
_FINALS = [[46, 12, -18, -40], [50, 10, -20, -40]]
_RAW = [35700, 32400, 22200, 9700]


@pytest.mark.parametrize("first, said", [
    ([1e30, 32400, 22200, 9700], "row 1 of scores: score 1 (1000000000000000019884624838656) "
                                 "is far too large for points; enter raw points such as 32400."),
    ([float("inf"), 32400, 22200, 9700], "row 1 of scores: score 1 (inf) is not a finite "
                                         "number; enter raw points such as 32400."),
    ([35700.5, 32400, 22200, 9699.5], "row 1 of scores: score 1 (35,700.5) is not a whole "
                                      "multiple of 100; raw points always end in 00, so check "
                                      "it for a typo."),
    ([True, 32400, 22200, 9700], "row 1 of scores: score 1 is TRUE, not a number; enter raw "
                                 "points such as 32400."),
    ([35700, 32400, 22200, None], "row 1 of scores: score 4 is blank; enter every player's raw "
                                  "points (0 if they ended on exactly zero)."),
    ([35700, 32400, "x", 9700], 'row 1 of scores holds a value that is not a number (score 3, '
                                '"x"); fix it or clear that row of scores.'),
])
def test_standings_raw_scores_are_read_as_settle_reads_them(first: list[Any], said: str):
    # a raw score MJ_SETTLE refuses is refused here too, never truncated (35700.5 is not
    # 35700) nor counted as 1 point (TRUE), and never an internal error (1E+30, infinity)
    with pytest.raises(xw.XlwingsError) as e:
        call("MJ_STANDINGS", _NAMES, _FINALS, True, [first, [40000, 30000, 20000, 10000]])
    assert str(e.value) == said
    with pytest.raises(udfs.UmaokaExcelError) as e:
        udfs.MJ_SETTLE([first])
    assert "internal error" not in str(e.value)


def test_standings_raw_scores_narrower_than_players_say_so():
    with pytest.raises(xw.XlwingsError) as e:
        call("MJ_STANDINGS", _NAMES, _FINALS, True, [row[:3] for row in (_RAW, _RAW)])
    assert str(e.value) == ("row 1 of scores has 3 cells but that game has 4 players; select "
                            "scores as wide as players, one raw score per player.")
    # the whole-number texts and floats Excel sends are read as settle reads them
    table = call("MJ_STANDINGS", _NAMES, _FINALS, True,
                 [[35700.0, "32,400", 22200, 9700], [40000, 30000, 20000, 10000]])
    assert {row[1]: row[-4] for row in table[1:]} == {"Aki": 32850, "Ben": 36200, "Chie": 16100,
                                                     "Dan": 14850}


def test_rankpoints_one_number_as_a_tables_scores_is_one_sentence():
    said = ("scores must be 4 raw scores, one per player in seat order, but got the single "
            "value 35000; give the table's raw scores in the shape of results, or leave scores "
            "out.")
    with pytest.raises(xw.XlwingsError) as e:
        call("MJ_RANKPOINTS", [[1, 2, 3, 4]], "mahjongsoul", "jade", "Master 1", None, None,
             [[35000]])
    assert str(e.value) == said
    # a block: the sentence in each row's first cell
    out = call("MJ_RANKPOINTS", [[1, 2, 3, 4], [4, 3, 2, 1]], "tenhou", "phoenix", "七段",
               None, None, 35000)
    assert out == [[said, "", "", ""]] * 2
    # one player's place with one score still works
    assert call("MJ_RANKPOINTS", [[1]], "mahjongsoul", "jade", "Master 1", None, None,
                35000) == [[135]]
