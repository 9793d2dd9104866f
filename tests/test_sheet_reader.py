"""The worksheet reader's filter: taking out the cells a read cannot use never changes what
is read, whatever the sheet's XML looks like, and however it is cut into pieces."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.utils import get_column_letter

from umaoka.engine import UmaokaError
from umaoka.templates.xlsx import reader as sheet_reader
from umaoka.templates.xlsx.reader import _SheetRows, _skippable


class _Archive:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def open(self, _name: str) -> io.BytesIO:
        return io.BytesIO(self.data)


def read(xml: str, first: int, width: int) -> Any:
    """What the reader makes of a sheet: its rows, or its one sentence."""
    ws = SimpleNamespace(title="League", _shared_strings=["Aki", "Ben"],
                         _worksheet_path="xl/worksheets/sheet1.xml",
                         parent=SimpleNamespace(_archive=_Archive(xml.encode())))
    try:
        return _SheetRows(ws, first, width, 1000).read()
    except UmaokaError as e:
        return str(e)


def unfiltered(xml: str, first: int, width: int) -> Any:
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sheet_reader, "_skippable", lambda _width: None)
        return read(xml, first, width)


def cell(ref: str | None, body: str, prefix: str = "") -> str:
    where = f' r="{ref}"' if ref is not None else ""
    return f"<{prefix}c{where}{body}"


columns = st.integers(1, 40).map(get_column_letter)
bodies = st.sampled_from([
    ' s="3"/>', "/>", ' s="3"><v>12</v></c>', '><v>-3.5</v></c>', ' t="b"/>',
    ' t="b"><v>1</v></c>', ' t="s"><v>1</v></c>', ' t="inlineStr"><is><t>Aki</t></is></c>',
    ' s="4" t="str"><f>SUM(A1)</f><v>OK</v></c>', ' s="2"><f t="shared" si="0"/><v>3</v></c>',
    ' s="1" t="inlineStr"><is><t xml:space="preserve"> &lt;c r="Z1"/&gt; </t></is></c>',
    ' s="5" x="a&gt;b"/>', ' s="5"><v></v></c>', ' t="e"><v>#N/A</v></c>',
    ' s="6" t="inlineStr"><is><r><t>Da</t></r><r><t>n</t></r></is></c>', " s='7'/>",
    '><!-- </c> --><v>4</v></c>', ' s="3">\n<v>5</v>\n</c>', ' t="d"><v>2026-04-04</v></c>'])
plain = st.builds(lambda c, r: f"{c}{r}", columns, st.integers(1, 30))
#: mostly plain addresses, so that most sheets are filtered; now and then one of the rest
refs = st.one_of(plain, plain, plain, plain, st.none(),
                 st.sampled_from(["a5", "$B$6", "C07", "ZZZ3", "B0", "A1048577", "A999999"]))


#: Rows that make a sheet be read as it is: their cells' places depend on the cells before
ODD = ["<!-- note -->", "<?pi x?>", '<row><c r="B2" s="1"><v>9</v></c></row>',
       '<row><c s="1"><v>9</v></c></row>', '<row r="7"><c r="Z7" s="1"/><c><v>8</v></c></row>',
       '<row r="8"><c r="B8" s="1"/><c t="inlineStr"><is><t>Eve</t></is></c></row>',
       '<row r="4"><x:c r="A4"><x:v>7</x:v></x:c></row>', '<row r="5"><c s="1" r="C5"/></row>']


@st.composite
def sheets(draw: Any, clean: bool = False) -> str:
    """A sheet's XML. ``clean``: as Excel and umaoka write it (cells taken out all along),
    now and then with one odd row at a random place (read again as it is)."""
    rows = []
    for number in sorted(draw(st.sets(st.integers(1, 30), max_size=8))):
        if clean:
            cells = draw(st.lists(st.tuples(plain, bodies.filter(lambda b: "<!" not in b
                                                                   and "'" not in b),
                                            st.just("")), max_size=8))
            attr = f' r="{number}"'
        else:
            cells = draw(st.lists(st.tuples(refs, bodies,
                                            st.sampled_from(["", "", "", "", "x:"])),
                                  max_size=8))
            attr = draw(st.sampled_from([f' r="{number}"', f' r="{number}"', "",
                                         f' spans="1:9" r="{number}"']))
        rows.append(f"<row{attr}>" + "".join(cell(*c) for c in cells) + "</row>")
    odd = draw(st.sampled_from(["", "", *ODD]))
    rows.insert(draw(st.integers(0, len(rows))), odd)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns='
            '"http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'<sheetData>{"".join(rows)}</sheetData></worksheet>')


@settings(max_examples=400, deadline=None)
@given(xml=st.one_of(sheets(), sheets(clean=True)), first=st.integers(1, 6), width=st.sampled_from([1, 4, 8, 25, 26, 30]),
       chunk=st.sampled_from([16, 64, 257, 1 << 22]))
def test_filtering_never_changes_what_is_read(xml: str, first: int, width: int,
                                              chunk: int) -> None:
    want = unfiltered(xml, first, width)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sheet_reader, "CHUNK", chunk)
        assert read(xml, first, width) == want


@pytest.mark.parametrize("width", [1, 4, 25, 26, 27, 51, 52, 701, 702, 703, 16_383, 16_384])
def test_only_columns_right_of_the_read_are_taken_out(width: int) -> None:
    skip = _skippable(width)
    for col in (1, 2, width - 1, width, width + 1, width + 2, 702, 703, 16_384):
        if not 1 <= col <= 16_384:
            continue
        xml = f'<c r="{get_column_letter(col)}9" s="1"><v>1</v></c>'.encode()
        # (a read of 702 columns or more takes out only empty cells: no sheet of ours)
        assert bool(skip.fullmatch(xml)) == (width < col and width < 702), (width, col)
        assert skip.fullmatch(f'<c r="{get_column_letter(col)}9" s="2"/>'.encode())
    assert not skip.fullmatch(b'<c r="A1000000" s="2"/>')  # beyond: expat says so
    assert not skip.fullmatch(b'<c r="A5" t="b"/>')  # FALSE, not blank


@pytest.mark.parametrize("chunk", [16, 1 << 22])
def test_a_row_placed_by_a_cell_taken_out_is_read_again(chunk: int) -> None:
    """The second row has no number: it follows the last cell before it (Z9, empty, taken
    out of the first piece): the sheet is read again as it is."""
    xml = ('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="Z9" s="1"/></row>'
           '<row><c s="1"><v>9</v></c></row></sheetData></worksheet>')
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sheet_reader, "CHUNK", chunk)
        assert read(xml, 1, 2) == {1: [1, None], 10: [9, None]}
