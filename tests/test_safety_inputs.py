"""Anything a cell, a CSV field or a Python caller can send: a result or one short sentence."""

from __future__ import annotations

import time
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.engine import UmaokaError, rank, settle, standings

GAME = [35700, 32400, 22200, 9700]

#: What Excel, a CSV file or a careless caller may put where a number belongs.
cell_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-10**40, max_value=10**40),
    st.floats(min_value=-1e308, max_value=1e308, allow_nan=False),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from(["NaN", "Infinity", "-inf", "1e999999", "1E+30", "1e-999999", "#REF!",
                     "#N/A", "", "  ", "35,700", "−9,700", "\x00", "\x01\x0b", "TRUE"]),
    st.text(max_size=50),
    # Long texts up to Excel's 32,767 characters a cell, built from a short random piece.
    st.builds(lambda piece, n: (piece * n)[:32_767], st.text(min_size=1, max_size=8,
                                                            alphabet="9e+-.,x "),
              st.integers(min_value=1, max_value=32_767)),
)


def one_sentence(e: BaseException) -> str:
    message = str(e)
    assert isinstance(e, UmaokaError), repr(e)
    assert message and "\n" not in message and len(message) < 600, message
    assert message.rstrip().endswith((".", ")", "?")), message
    return message


def outcome(call: Any) -> Any:
    start = time.perf_counter()
    try:
        return call()
    except Exception as e:  # noqa: BLE001 - the assertion below says which exception
        one_sentence(e)
        return None
    finally:
        # generous under load; the quadratic parsing this guards against took seconds
        assert time.perf_counter() - start < 2


@settings(max_examples=300, deadline=None)
@given(st.lists(cell_values, min_size=0, max_size=6), cell_values,
       st.one_of(st.none(), st.lists(cell_values, min_size=4, max_size=4)))
def test_settle_gives_a_result_or_one_sentence(scores: list[Any], deposits: Any,
                                               penalties: list[Any] | None):
    result = outcome(lambda: settle(scores, "standard", deposits, penalties))
    if result is not None:
        assert all(isinstance(f, Decimal) and f.is_finite() for f in result.final)


@settings(max_examples=200, deadline=None)
@given(st.lists(cell_values, min_size=0, max_size=6))
def test_rank_gives_a_result_or_one_sentence(scores: list[Any]):
    outcome(lambda: rank(scores, "mleague"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=5), st.none()), min_size=4, max_size=4),
       st.lists(cell_values, min_size=4, max_size=4))
def test_standings_give_a_result_or_one_sentence(names: list[Any], finals: list[Any]):
    outcome(lambda: standings([(names, finals)]))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: settle(None), "scores must be a list of 4 values, one per player in seat order, "
                           "e.g. [35700, 32400, 22200, 9700] (got None)."),
    (lambda: settle(5), "scores must be a list of 4 values"),
    (lambda: settle(GAME, penalties=-20), "penalties must be a list of 4 values, one per player "
                                          "in seat order, e.g. [-20, 0, 0, 0] in final points"),
    (lambda: settle(GAME, penalties=[-20000, 0, 0, 0]), "penalty 1 (-20000) looks like raw "
                                                        "points; give penalties in final points"),
    (lambda: rank(None), "scores must be a list of 4 values"),
    (lambda: standings(None), "games must be a list of (names, result) pairs"),
    (lambda: standings([(None, settle(GAME))]), "game 1's player names must be a list"),
    (lambda: settle([1e30, 32400, 22200, 9700]), "score 1 (1e+30) is far too large for points"),
    (lambda: settle(["1e999999", 32400, 22200, 9700]), "score 1 (1e999999) is far too large"),
    (lambda: settle(GAME, deposits=1e30), "deposits (1e+30) is far too large for points; enter "
                                          "the leftover riichi sticks in points"),
    (lambda: settle(["x" * 32_767, 32400, 22200, 9700]), 'score 1 ("' + "x" * 37
                                                         + '...") is not a number'),
    (lambda: standings([(["A", "B", "C", "D"], ["NaN", 1, 2, 3])]),
     "game 1, player 1's final score (NaN) is not a finite number"),
    (lambda: standings([(["A", "B", "C", "D"], [Decimal("1E+30"), 1, 2, 3])]),
     "game 1, player 1's final score (1E+30) is far too large"),
])
def test_misuse_and_huge_numbers_are_one_sentence(call: Any, message: str):
    with pytest.raises(UmaokaError) as err:
        call()
    assert one_sentence(err.value).startswith(message)
