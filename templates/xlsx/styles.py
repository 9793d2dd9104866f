"""Shared cell styling and cell writing of every sheet: colours, named styles, ``put``,
references, number formats and the page setup every sheet shares."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.formatting.rule import Rule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.styles.numbers import BUILTIN_FORMATS, BUILTIN_FORMATS_MAX_SIZE, is_date_format
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from umaoka.templates.xlsx.cells import ABSENT, CellStore, RowFormula, store_of

# ------------------------------------------------------------------------------------------------
# Styles: built once as style arrays and copied into cells (fast for big leagues).

NAVY = "1F3864"
BLUE = "2F5597"
PALE = "DDEBF7"
GREY = "F2F2F2"
INPUT = "FFFFFF"
_THIN = Side(style="thin", color="BFBFBF")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
#: A live table's row in use (conditional formatting): framed and grey like a formula.
IN_USE = DifferentialStyle(border=_BORDER, fill=PatternFill(bgColor=GREY))


def frame_in_use(ws: Worksheet, first: int, last: int, last_col: int) -> None:
    """Rows ``first`` to ``last`` (columns A to ``last_col``) of a live table framed and grey
    only while column B holds a name: the room below the lines in use stays blank, on
    screen and printed."""
    ws.conditional_formatting.add(
        f"A{first}:{col_letter(last_col)}{last}",
        Rule(type="expression", dxf=IN_USE, formula=[f'$B{first}<>""']))


def font_name(lang: str) -> str:
    """The workbook's font: Calibri (Excel's default), or for Japanese workbooks Yu Gothic
    (Windows and Mac Office; LibreOffice substitutes a Japanese font such as Noto Sans CJK)."""
    return "Yu Gothic" if lang == "ja" else "Calibri"


class Styles:
    """Named cell styles of one workbook, as openpyxl style arrays."""

    def __init__(self, wb: Workbook, points_format: str, locked_inputs: bool = False,
                 lang: str = "en"):
        self._ws = wb.active
        self.font_name = font_name(lang)
        self.points = points_format
        self.locked_inputs = locked_inputs  # a settled copy is a report: nothing to type
        self._cache: dict[tuple[Any, ...], Any] = {}

    def font(self, size: float = 11, **kw: Any) -> Font:
        """A font with an explicit name and size (unnamed fonts render serif in LibreOffice)."""
        return Font(name=self.font_name, size=size, **kw)

    def get(self, kind: str, fmt: str = "General") -> Any:
        key = (kind, fmt)
        if key not in self._cache:
            cell = Cell(self._ws)
            cell.font = self.font()  # a named font: no program falls back to serif
            locked = True
            if kind == "title":
                cell.font = self.font(size=16, bold=True, color=NAVY)
            elif kind in ("subtitle", "subtitle_wrap"):
                cell.font = self.font(italic=True, color="595959")
                if kind == "subtitle_wrap":
                    cell.alignment = Alignment(wrap_text=True, vertical="top")
            elif kind == "header":
                cell.font = self.font(bold=True, color="FFFFFF")
                cell.fill = PatternFill("solid", fgColor=BLUE)
                cell.alignment = Alignment(horizontal="center", vertical="center",
                                           wrap_text=True)
                cell.border = _BORDER
            elif kind == "group":
                cell.font = self.font(bold=True, color=NAVY)
                cell.fill = PatternFill("solid", fgColor=PALE)
                cell.alignment = Alignment(horizontal="center")
                cell.border = _BORDER
            elif kind in ("input", "input_top"):
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=INPUT)
                locked = self.locked_inputs
                if kind == "input_top":  # a value beside a wrapped note: at the top, with it
                    cell.alignment = Alignment(vertical="top")
            elif kind in ("formula", "formula_wrap"):
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=GREY)
                if kind == "formula_wrap":  # a flag or note longer than its column
                    cell.alignment = Alignment(wrap_text=True, vertical="top")
            elif kind == "live_wrap":
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            elif kind == "result":
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=GREY)
                cell.font = self.font(bold=True)
            elif kind == "live_result":  # a live table's row: framed only when in use
                cell.font = self.font(bold=True)
            elif kind == "key":
                cell.font = self.font(bold=True)
                cell.alignment = Alignment(vertical="top")  # beside wrapped notes
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=PALE)
            elif kind == "note":
                cell.font = self.font(color="595959")
                cell.alignment = Alignment(wrap_text=True, vertical="top")
                cell.border = _BORDER
            elif kind == "helper":
                cell.font = self.font(color="808080")
            elif kind == "start_head":
                cell.font = self.font(bold=True, size=12, color=NAVY)
                cell.alignment = Alignment(vertical="center")
            elif kind == "start_text":
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            cell.number_format = fmt
            cell.protection = Protection(locked=locked)
            self._cache[key] = cell._style
        return self._cache[key]


_FAST_TYPES = {int: "n", float: "n", Decimal: "n", bool: "b"}
_new_cell = Cell.__new__
_CHECKED: set[str] = set()  # texts that passed openpyxl's checks (names repeat a lot)


def put(ws: Worksheet, row: int, col: int, value: Any, style: Any = None,
        text: bool = False) -> None:
    """Write one cell; ``text`` keeps user text as text even when it starts with ``=``.

    Numbers, checked text, formulas and blanks are kept compactly (:mod:`.cells`); other
    values (dates, text needing a quote prefix) become an openpyxl cell.
    """
    cells = ws._cells
    if type(cells) is not CellStore:
        cells = store_of(ws)
    kind = type(value)
    if value is None or kind in _FAST_TYPES or kind is RowFormula:
        cells.put(row, col, value, style)
        return
    if kind is str:
        if text:
            if value[:1] not in _QUOTED:
                if value not in _CHECKED:
                    check_string(value)  # openpyxl's checks (length, illegal characters)
                    if len(_CHECKED) < 100_000:
                        _CHECKED.add(value)
                cells.put(row, col, value, style)
                return
        elif len(value) > 1 and value[0] == "=":
            if len(value) > 32767 or ILLEGAL_CHARACTERS_RE.search(value):
                check_string(value)  # raises openpyxl's own error
            cells.put(row, col, value, style)
            return
    _put_cell(ws, row, col, value, style, text)


def put_row(ws: Worksheet, row: int, values: list[Any], styles: list[Any],
            saved: list[Any] | None = None) -> None:
    """A row's cells at once, as :func:`put` with ``text=True`` writes them one by one:
    ``values[col]``, ``styles[col]`` and ``saved[col]`` (formulas' saved values) by
    column, :data:`~umaoka.templates.xlsx.cells.ABSENT` where there is no cell. Quicker for the
    50,000 rows of a big league tab; the lists become the sheet's own. A date in a
    date-formatted style stays compact too (openpyxl would change nothing of its cell)."""
    odd = []  # dates in other styles, text to quote: cells of their own, as put makes them
    count = 0
    for col, value in enumerate(values):
        if value is ABSENT:
            continue
        count += 1
        kind = type(value)
        if value is None or kind in _FAST_TYPES or kind is RowFormula:
            continue
        if kind is str and value[:1] not in _QUOTED:
            if value not in _CHECKED:
                check_string(value)
                if len(_CHECKED) < 100_000:
                    _CHECKED.add(value)
            continue
        if (kind is dt.date or kind is dt.datetime) and _date_style(ws, styles[col]):
            continue
        odd.append((col, value))
        values[col] = ABSENT
        count -= 1
    store_of(ws).put_row(row, values, styles, saved, count)
    for col, value in odd:
        put(ws, row, col, value, styles[col], text=True)


_DATE_STYLES = "_umaoka_date_styles"  # the workbook's styles known to format dates


def _date_style(ws: Worksheet, style: Any) -> bool:
    """Whether a date in ``style`` keeps it as is (openpyxl gives a date a date format
    when its style has none)."""
    if style is None:
        return False
    known = ws.parent.__dict__.setdefault(_DATE_STYLES, {})
    key = style.tobytes()
    got = known.get(key)
    if got is None:
        idx = style.numFmtId
        fmt = (BUILTIN_FORMATS.get(idx, "General") if idx < BUILTIN_FORMATS_MAX_SIZE
               else ws.parent._number_formats[idx - BUILTIN_FORMATS_MAX_SIZE])
        got = known[key] = is_date_format(fmt)
    return got


_QUOTED = ("=", "+", "-", "@")
_checker = _new_cell(Cell)
check_string = _checker.check_string  # openpyxl's text checks, raising its own errors


def _put_cell(ws: Worksheet, row: int, col: int, value: Any, style: Any, text: bool) -> None:
    cell = _new_cell(Cell)  # Cell(ws, row, col, style_array=style) without its overhead
    cell.parent = ws
    cell.row = row
    cell.column = col
    cell._style = StyleArray(style) if style is not None else None
    cell._value = None
    cell.data_type = "n"
    cell._hyperlink = None
    cell._comment = None
    if text and type(value) is str:
        cell.value = value  # openpyxl's checks (length, illegal characters)
        cell.data_type = "s"
        if value[:1] in _QUOTED:
            cell.quotePrefix = True
    else:
        cell.value = value
    ws._cells[(row, col)] = cell


def quote(sheet: str) -> str:
    """A sheet name as formulas write it: ``'Spring 2026'``."""
    return "'" + sheet.replace("'", "''") + "'"


def exact(cell: str) -> str:
    """A COUNTIF/SUMIFS criterion matching the text in ``cell`` exactly (case aside):
    ``*``, ``?`` and ``~`` are wildcards and the escape in Excel's and LibreOffice's
    criteria, so a player ``A*`` would count Aki's games too; each is escaped with ``~``.

    >>> exact("$B5")
    '"="&SUBSTITUTE(SUBSTITUTE(SUBSTITUTE($B5,"~","~~"),"*","~*"),"?","~?")'
    """
    return f'"="&{escaped(cell)}'


def escaped(cell: str) -> str:
    """The text in ``cell`` with its wildcards escaped, for ``MATCH(...,0)``."""
    return f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({cell},"~","~~"),"*","~*"),"?","~?")'


def wildcards_escaped(name: str) -> str:
    """``name`` as :func:`escaped` makes it: ``~``, ``*`` and ``?`` each after a ``~``.

    >>> wildcards_escaped("*芹澤六花*"), wildcards_escaped("~y?")
    ('~*芹澤六花~*', '~~y~?')
    """
    return name.replace("~", "~~").replace("*", "~*").replace("?", "~?")


def exact_text(name: str) -> str:
    """A name written into a criterion or ``MATCH(...,0)`` as a literal, its wildcards
    escaped (see :func:`exact`); quotes doubled for the formula's string."""
    return wildcards_escaped(name).replace('"', '""')


def ref(sheet: str, col: int, row1: int, row2: int | None = None, col2: int | None = None
        ) -> str:
    a = f"${col_letter(col)}${row1}"
    if row2 is None:
        return f"{quote(sheet)}!{a}"
    return f"{quote(sheet)}!{a}:${col_letter(col2 or col)}${row2}"


def num(value: Any) -> Any:
    """Decimals as Excel numbers (exact text of the decimal is what openpyxl writes)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else value
    return value


def points_format(whole: bool) -> str:
    """The number format of points: one decimal for rulesets that keep tenths; signed
    General for whole-point rulesets, so their finals show as whole numbers and a final
    that has decimals (a platform's +45.3, half of +45 carried) shows them instead of
    being rounded on screen ("+0" showed +45.3 as +45).

    >>> points_format(True), points_format(False)
    ('+General;-General;General', '+0.0;-0.0;0.0')
    """
    return "+General;-General;General" if whole else "+0.0;-0.0;0.0"



def protect(ws: Worksheet) -> None:
    """Protect the sheet's formulas; filters, sorting and formatting stay allowed."""
    p = ws.protection
    p.sheet = True
    p.autoFilter = False
    p.sort = False
    p.formatColumns = False
    p.formatRows = False


def print_setup(ws: Worksheet, title_rows: str | None, *, pages_wide: int = 1,
                title_cols: str | None = None) -> None:
    """A4 landscape, ``pages_wide`` pages wide (as many tall as it takes), the header rows
    (and ``title_cols``) repeated on every page, a page footer.

    A sheet too wide for one page (a league tab's 34 columns) is printed two pages wide with
    its identifying columns repeated: one page wide it printed at about 4 pt.
    """
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = pages_wide
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    if title_rows:
        ws.print_title_rows = title_rows
    if title_cols:
        ws.print_title_cols = title_cols
    if pages_wide > 1:  # a row's two halves on facing pages, not a sheet's width apart
        ws.page_setup.pageOrder = "overThenDown"
    ws.oddFooter.center.text = "&A - &P / &N"



def growing_print_area(ws: Worksheet, last_col: int, header: int, first: int, last: int,
                       key_cols: tuple[int, ...]) -> str:
    """A print area from A1 that ends at the last row (``first`` to ``last``) with anything
    typed in one of ``key_cols``, or at ``header`` while none has: a form's spare rows are
    not printed as pages of empty grid, and a row typed later is printed without a new
    print area. Returns the formula, also set as the sheet's print area.

    Excel evaluates a print area given as a formula when it prints (the OFFSET form of a
    dynamic named range). LibreOffice does not read one and prints the sheet's used area,
    as it would with no print area at all; openpyxl drops it on reading
    (:func:`.io.load_quietly` hides its warning)."""
    name = quote(ws.title)
    typed = "+".join(f'({name}!${col_letter(c)}${first}:${col_letter(c)}${last}<>"")'
                     for c in key_cols)
    # LOOKUP(2, 1/(...)) finds the last row with a 1/n (n typed cells), past the 1/0 errors
    end = f"IFERROR(LOOKUP(2,1/({typed}),ROW({name}!$A${first}:$A${last})),{header})"
    formula = f"OFFSET({name}!$A$1,0,0,{end},{last_col})"
    ws.print_area = None
    ws.defined_names["Print_Area"] = DefinedName("Print_Area", attr_text=formula)
    return formula

#: A4 landscape's printable size in points, less the margins above and the footer.
_PAGE_WIDTH, _PAGE_HEIGHT = (297 / 25.4 - 0.8) * 72, (210 / 25.4 - 1.0) * 72 - 24


def print_scale(ws: Worksheet, last_col: int) -> float:
    """The scale fit-to-width prints columns 1 to ``last_col`` at (1: full size), as Excel
    sizes columns: a width of w characters is about 7w + 5 pixels, 3/4 pt each."""
    points = sum((ws.column_dimensions[col_letter(c)].width or 8.43) * 7 + 5
                 for c in range(1, last_col + 1)
                 if not ws.column_dimensions[col_letter(c)].hidden) * 0.75
    return min(1.0, _PAGE_WIDTH / max(points, 1))


def keep_together(ws: Worksheet, blocks: dict[int, int], last_row: int, last_col: int) -> None:
    """Page breaks so that a block's first rows (``blocks``: first row -> how many rows to
    keep together: a heading, its table's header and first lines, or a chart) do not start
    near a page's bottom and run onto the next, a heading printed alone at the page's foot.

    Every break is set here, none left to the application: a page's height in rows is
    estimated from the row heights and the fit-to-width scale, a tenth short, so that each
    page set here fits on a printed one (Excel and LibreOffice measure a little apart).
    """
    room = _PAGE_HEIGHT / print_scale(ws, last_col) * 0.9
    # rows without a height of their own: the font's (Yu Gothic's are taller than Calibri's)
    usual = 18.75 if ws.cell(1, 1).font.name == "Yu Gothic" else 15.0

    def height(r: int) -> float:
        return ws.row_dimensions[r].height or usual

    used = 0.0
    for r in range(1, last_row + 1):
        keep = blocks.get(r)
        if keep and used > 0 and used + sum(height(k) for k in range(r, r + keep)) > room \
                or used + height(r) > room:
            ws.row_breaks.append(Break(id=r - 1))
            used = 0.0
        used += height(r)


def widths(ws: Worksheet, widths: dict[int, float]) -> None:
    for col, w in widths.items():
        ws.column_dimensions[col_letter(col)].width = w
