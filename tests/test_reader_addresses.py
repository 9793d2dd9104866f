"""The league-tab reader's fast cell addresses: the same row and column as openpyxl's
parser for every plain address, and no answer (openpyxl's parser decides) otherwise."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

from umaoka.templates.settle_book import _address

addresses = st.text(alphabet="ABCXYZabz$019١", min_size=0, max_size=9)


@given(addresses)
def test_fast_address_agrees_with_openpyxl(ref: str) -> None:
    row, col = _address(ref)
    if col:
        letters, number = coordinate_from_string(ref)
        assert (row, col) == (number, column_index_from_string(letters))


@given(st.integers(1, 16_384), st.integers(1, 1_048_576))
def test_every_plain_address_is_fast(col: int, row: int) -> None:
    from openpyxl.utils.cell import get_column_letter

    assert _address(f"{get_column_letter(col)}{row}") == (row, col)


def test_others_are_left_to_openpyxl() -> None:
    for ref in ("a1", "$A$1", "A01", "A0", "XFE1", "A", "1", "", "A١"):
        assert _address(ref) == (0, 0)
