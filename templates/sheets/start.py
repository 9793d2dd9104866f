"""The Start sheet's lines: what the workbook is and how to switch umaoka's functions on.

A workbook with formulas says which runtime its formulas are written for and, in three
lines, how to switch the functions on with xlwings Lite, classic xlwings or xlwings
Server, or how to do without (``umaoka settle``). A settled copy says what it is: settled
from which file, when, by which umaoka, and how to change it.
"""

from __future__ import annotations

import unicodedata

from umaoka.templates.book.labels import label
from umaoka.templates.book.model import Book, Origin
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import NAVY, put

#: (style, text) pairs, one per row; "" leaves a row empty.
Lines = list[tuple[str, str]]


def start_lines(book: Book, settled: bool, origin: Origin | None,
                lite_code_inside: bool = False) -> Lines:
    """The rows of the Start sheet of ``book`` (a template, or its settled copy)."""
    lang = book.lang
    if settled:
        return _settled_lines(book, origin)
    runtime = book.runtime
    hint = label("hint", lang)
    this = label("start_this", lang)
    ways = [("lite", label("start_lite_inside" if lite_code_inside else "start_lite", lang)),
            ("classic", label("start_classic", lang)),
            ("server", label("start_server", lang))]
    lines: Lines = [
        ("title", label("title_start", lang)),
        ("subtitle", label("start_runtime", lang, runtime=runtime.title)),
        ("", ""),
        ("head", label("start_on", lang)),
    ]
    lines += [("text", text + (this if kind == runtime.kind else "")) for kind, text in ways]
    lines += [
        ("text", label("start_settle", lang)),
        ("", ""),
        ("text", label("start_hint", lang, hint=hint)),
        ("text", label("start_switch", lang)),
        ("text", label("start_rules", lang, rules=book.rules[0].defined_name)),
    ]
    return lines


def _settled_lines(book: Book, origin: Origin | None) -> Lines:
    lang = book.lang
    o = origin or Origin(None, "", "")
    if o.source:
        made = label("settled_from", lang, source=o.source, when=o.when, version=o.version)
        change = label("settled_change", lang, source=o.source)
    else:
        made = label("settled_anon", lang, when=o.when, version=o.version)
        change = label("settled_change_anon", lang)
    return [
        ("title", label("title_start_settled", lang)),
        ("subtitle", made),
        ("", ""),
        ("text", label("settled_what", lang)),
        ("text", change),
    ]


class StartSheet(SheetWriter):
    def start_sheet(self) -> None:
        """The first sheet: what this workbook is and how to switch the functions on."""
        st = self.st
        ws = self.wb.create_sheet(self.names["start"], 0)
        lines = start_lines(self.book, self.settled, self.origin, self.lite_code_inside)
        styles = {"title": st.get("title"), "subtitle": st.get("subtitle"),
                  "head": st.get("start_head"), "text": st.get("start_text")}
        width = 110
        for row, (kind, text) in enumerate(lines, 1):
            if text:
                put(ws, row, 1, text, styles[kind], text=True)
                # wrapped lines get their height here: not every program fits rows to text
                wide = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
                ws.row_dimensions[row].height = 15 * max(1, -(-wide // (width - 8)))
        ws.row_dimensions[1].height = 24
        ws.column_dimensions["A"].width = width
        ws.sheet_properties.tabColor = NAVY
        self._print(ws, None)
        self._protect(ws)
