"""Cells as each Excel client sends them, read one way for every function.

One place for what a cell can be: a blank (null on the web, 0 on desktop, ""), an error
object, a date, a whole float; and for the kinds of argument (an option, an amount, a flag,
a block of scores, a rules range). Also the wrapper that turns every error into one
sentence for the cell (:func:`_excel_function`). No rules here: the engine has them.

Range arguments of bulk data (scores, deposits, penalties, players, finals) use
xlwings' ``raw`` converter and are made two-dimensional here: xlwings 0.37's Office.js
value cleaning costs about 0.2 ms per cell outside Pyodide, i.e. seconds for a league
sheet, while this module's own conversion costs well under 1 µs per cell.
"""

from __future__ import annotations

import datetime
import functools
import gc
import logging
import re
import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

import xlwings as xw
from xlwings.conversion import Converter

from umaoka.addin.functions.recalc import PLAIN
from umaoka.engine import (
    UmaokaError,
)
from umaoka.engine import ruleset as resolve_ruleset
from umaoka.engine.batch import paused_gc
from umaoka.engine.errors import excerpt
from umaoka.engine.hands.rules import hand_rules
from umaoka.engine.rules import EXCEL_ERRORS

#: What Excel passes: a value, or a range as a list of rows (typing.Any is the annotation
#: every xlwings runtime accepts as "convert as usual"). Arguments that default to None also
#: name it as their converter, ``@xw.arg(name, Cells, ...)``: before Python 3.11,
#: ``typing.get_type_hints`` reports ``Optional[Any]`` for ``x: Any = None``, and xlwings
#: Server would take ``typing.Union`` for the converter (``AttributeError: reader``).
Cells = Any

_F = TypeVar("_F", bound=Callable[..., Any])
_log = logging.getLogger("umaoka")

#: Ruleset ranges are read with ``err_to_str``, so a value cell showing #REF! or #N/A is named
#: as such instead of reaching the engine as a blank.
RULESET_DOC = ("Preset name (standard, mleague, ema...), ruleset text such as "
               '"mleague; ties=seat", or a two-column key/value range. Blank: standard.')


class UmaokaExcelError(xw.XlwingsError):
    """A bad input, with the engine's one-sentence message for the person at the sheet."""


def excel_description(doc: str | None) -> str:
    """The help text Excel shows for a function: its docstring's first paragraph on one line.

    xlwings takes a function's description from its docstring, as the docstring is when its
    first decorator (``@xw.arg``, ``@xw.ret`` or ``@xw.func``) runs, and keeps it in
    ``__xlfunc__["ret"]["doc"]``: xlwings Server and xlwings Lite hand it to Excel as the
    ``description`` of the custom functions' metadata, classic xlwings as the
    ``Application.MacroOptions`` description of the imported VBA function (its first 255
    characters). Excel shows it as it is, line breaks and indentation included.

    >>> excel_description("Final scores.\\n    E.g. =F(1).\\n\\n    More for Python.")
    'Final scores. E.g. =F(1).'
    """
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def _excel_function(func: _F) -> _F:
    """Every Excel function's errors as one sentence Excel shows for the cell, no traceback.

    The engine's errors keep their message; anything unforeseen says it is umaoka's fault
    and how to report it, and its traceback goes to the log. Applied under ``@xw.func`` and
    ``@xw.arg``: functools.wraps keeps the signature and annotations xlwings reads. The
    docstring xlwings reads is :func:`excel_description`'s (the first paragraph, on one
    line); :func:`_python_help` gives Python's help the whole docstring back afterwards.
    """

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            with paused_gc():  # a block's many new objects, freed by refcount
                return func(*args, **kwargs)
        except xw.XlwingsError:
            raise
        except UmaokaError as e:
            raise UmaokaExcelError(str(e)) from None
        except Exception as e:
            _log.exception("umaoka internal error in %s", func.__name__)
            raise UmaokaExcelError(
                f"umaoka internal error in {func.__name__} ({type(e).__name__}: "
                f"{excerpt(e, 120)}): please report it with the inputs of this cell; the "
                "details are in the log."
            ) from None

    call.__doc__ = excel_description(func.__doc__)
    return call  # type: ignore[return-value]


# ------------------------------------------------------------------------------------------------
# Conversion between Excel's cells and the engine's values (no rules here).


def _js_null_type() -> type | None:
    """The type of JavaScript's null in xlwings Lite, where blank cells and omitted arguments
    arrive as ``pyodide.ffi.jsnull`` (Pyodide 0.28 and later; earlier ones give None).

    Looked up only under Pyodide, so classic xlwings and xlwings Server never import it.
    """
    if sys.platform != "emscripten":
        return None
    from pyodide import ffi

    return getattr(ffi, "JsNull", None)


_JS_NULL = _js_null_type()

#: Python's young-generation threshold while umaoka's functions are loaded (default 700
#: new objects).
LITE_GC_THRESHOLD = 100_000


def _fewer_collections() -> None:
    """Let Python's cycle collector run after 100,000 new objects instead of 700, in every
    runtime that loads umaoka's functions. The runtime turns each range argument into new
    lists at every call (xlwings Lite converts JavaScript's arrays, xlwings Server decodes
    each request's JSON: a 10,000-game season's games range is 10,000 lists), and with the
    default those lists live long enough to be promoted, so every few calls a full
    collection scans all the objects: about 50 ms a call on average with 10,000 games in
    Pyodide 0.27, and 81-225 ms in 12-22 of 40 recalculations in xlwings Server. The lists
    are freed by their reference counts as before; cycles wait a little longer. With the
    season's own objects frozen after each run (see season_cache), no full collection is
    left inside a request (benchmarks/bench_live_season.py --server)."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, LITE_GC_THRESHOLD), *older)


_fewer_collections()


def _no_js_null_known() -> None:
    """In Pyodide before 0.28 (no ``pyodide.ffi.JsNull``), record that there is no module
    ``pyodide.ffi.JsNull``. xlwings tries ``from pyodide.ffi import JsNull`` for every
    argument it converts itself (16 per MJ_SEASON call) and catches the ImportError; each
    failing import searched every finder again, about a millisecond in Pyodide 0.27.
    With the name recorded as absent the same ImportError comes at once."""
    if sys.platform == "emscripten" and _JS_NULL is None:
        sys.modules.setdefault("pyodide.ffi.JsNull", None)  # type: ignore[arg-type]


_no_js_null_known()

#: The cell types a block memory compares by value (see :mod:`umaoka.addin.functions.recalc`).
PLAIN_CELLS = PLAIN | {_JS_NULL} if _JS_NULL is not None else PLAIN


#: Office.js error types (``{"type": "Error", "errorType": "NotAvailable"}`` without a
#: ``basicValue``) as the error's text.
_ERROR_TYPES = {"Div0": "#DIV/0!", "NotAvailable": "#N/A", "Name": "#NAME?", "Null": "#NULL!",
                "Num": "#NUM!", "Ref": "#REF!", "Value": "#VALUE!", "Spill": "#SPILL!",
                "Calc": "#CALC!", "Busy": "#BUSY!", "Field": "#FIELD!",
                "GettingData": "#GETTING_DATA", "Connect": "#CONNECT!", "Blocked": "#BLOCKED!"}


def _cell(value: Any) -> Any:
    """One cell as the engine wants it: whole floats as ints, Office.js entities unwrapped
    (an error cell as its text, e.g. "#N/A"), JavaScript's null (xlwings Lite's blank cell)
    as None."""
    kind = type(value)
    if kind is float:
        return int(value) if value.is_integer() else value
    if kind is dict:  # Office.js error or formatted value: {"type": ..., "basicValue": ...}
        if "basicValue" not in value and value.get("type") == "Error":
            return _ERROR_TYPES.get(str(value.get("errorType")), "#VALUE!")
        number = value.get("basicValue")
        if value.get("type") == "FormattedNumber" and type(number) in (int, float) \
                and _is_date_format(value.get("numberFormat")):
            return _EXCEL_EPOCH + datetime.timedelta(days=int(number))
        return _cell(number)
    if kind is _JS_NULL:
        return None
    return value


def _is_date_format(number_format: Any) -> bool:
    """Whether an Excel number format shows a date (a day or a year), e.g. m/d/yyyy."""
    if not isinstance(number_format, str):
        return False
    shown = re.sub(r'"[^"]*"|\[[^\]]*\]|\\.', "", number_format)  # quoted, [$-409], \x
    return re.search(r"[dDyY]", shown) is not None


def _plain_cells(row: list[Any]) -> list[Any]:
    """``[_cell(v) for v in row]`` for cells that are numbers, text, None or JavaScript's
    null only (faster: no call per cell)."""
    null = _JS_NULL
    return [int(v) if type(v) is float and v.is_integer() else None if type(v) is null else v
            for v in row]


def _grid(value: Cells) -> list[list[Any]]:
    """Any range argument as a list of rows of cells (a single value is a 1 x 1 range).

    Every argument of every function comes through here, so a blank or omitted one (None,
    or JavaScript's null in xlwings Lite) is the same everywhere: an empty range.
    """
    if value is None or type(value) is _JS_NULL:
        return []
    if isinstance(value, (list, tuple)):
        if not value:
            return []
        if not isinstance(value[0], (list, tuple)):
            return [[_cell(v) for v in value]]
        return [[_cell(v) for v in row] for row in value]
    return [[_cell(value)]]


def _line(value: Cells) -> list[Any] | None:
    """A row or a column of cells as one list (None when omitted)."""
    grid = _grid(value)
    if not grid:
        return None
    if len(grid) > 1 and all(len(row) == 1 for row in grid):
        return [row[0] for row in grid]
    return [c for row in grid for c in row]


def _is_blank(cell: Any) -> bool:
    """An empty cell: Excel sends None or "", and desktop Excel's Office.js sends 0."""
    return cell is None or cell == "" or (type(cell) in (int, float) and cell == 0)


def _blank_row(row: list[Any]) -> bool:
    return all(_is_blank(c) for c in row)


# Single-cell arguments. Desktop Excel (Windows, Mac) sends an empty cell to Office.js
# custom functions (xlwings Lite, xlwings Server) as 0, Excel on the web as null, some paths
# as "" (OfficeDev/office-js #4702): which one cannot be told apart from a typed 0. So each
# argument is read as one of three kinds, the choice written in docs/excel.md:
# - an option (a name, a word, a count such as fu or players, where 0 is never valid):
#   blank, "" and a lone 0 all mean "not given";
# - an amount (honba, deposits: 0 is a real value, and the default): blank is the default,
#   0 stays 0, which is the same answer;
# - a flag (TRUE/FALSE): blank and 0 are FALSE, as in Excel.
# An Excel error (#N/A, #REF!...) is refused with the argument's name, never taken as blank.


def _zero(cell: Any) -> bool:
    """The number 0 (not FALSE): what desktop Excel sends for an empty cell."""
    return type(cell) in (int, float) and cell == 0


def _one(value: Cells, name: str) -> Any:
    """A single-cell argument's value: None when omitted or blank (null or ""); an Excel
    error raises, naming the argument."""
    grid = _grid(value)
    cell = grid[0][0] if grid and grid[0] else None
    if isinstance(cell, str):
        text = cell.strip()
        if not text:
            return None
        if text.upper() in EXCEL_ERRORS:
            raise UmaokaExcelError(f"{name} is the Excel error {text.upper()}; fix the cell it "
                                   "comes from, or type the value.")
    return cell


def _option(value: Cells, name: str, default: Any = None) -> Any:
    """An argument where 0 is never a valid value: blank, "" or a lone 0 give the default."""
    cell = _one(value, name)
    return default if cell is None or _zero(cell) else cell


def _amount(value: Cells, name: str, default: Any = 0) -> Any:
    """An argument where 0 is a real value: blank gives the default, 0 stays 0."""
    cell = _one(value, name)
    return default if cell is None else cell


def _flag(value: Cells, name: str) -> Any:
    """A TRUE/FALSE argument: blank and 0 are FALSE."""
    cell = _one(value, name)
    return False if cell is None or _zero(cell) else cell


_NUMBERS: dict[Decimal, int | float] = {}


def _number(value: Any) -> Any:
    """Exact decimals as Excel numbers: int when whole, else float (finals have 1 decimal)."""
    if type(value) is not Decimal:
        return value
    n = _NUMBERS.get(value)
    if n is None:
        n = _NUMBERS[value] = int(value) if value == value.to_integral_value() else float(value)
    return n


def _numbers(row: Any) -> list[Any]:
    return [_number(v) for v in row]


def _table(grid: list[list[Any]]) -> list[list[Any]]:
    """A key/value range's rows without its blank rows, each number 0 read as an empty cell:
    no key and no value of a ruleset or of the hand rules is written as the number 0, and
    desktop Excel sends an empty cell as 0 (a 0 that is meant: off, none, or "0" as text)."""
    rows = [[None if _zero(c) else c for c in row] for row in grid]
    return [row for row in rows if not _blank_row(row)]


_NO_VALUE = "has no value (it is blank)"


def _rules(ruleset: Cells, name: str = "ruleset") -> Any:
    """The ruleset argument resolved once per call (a text, or the rows of a rules range)."""
    grid = _grid(ruleset)
    if len(grid) == 1 and len(grid[0]) == 1:
        cell = _option(grid, name)
        return resolve_ruleset(cell if isinstance(cell, str) or cell is None else str(cell))
    try:
        return resolve_ruleset(_table(grid) or None)
    except UmaokaError as e:  # the same sentence for a value cell sent as null, "" or 0
        message = str(e)
        if _NO_VALUE not in message:
            raise
        raise UmaokaExcelError(message.replace(
            _NO_VALUE, "has no value (its cell is blank, or 0, which is how desktop Excel "
                       "sends an empty cell)")) from None


def _hand_rules(options: Cells, name: str = "options") -> Any:
    """The hand-rules argument: a text, or the rows of a rules range (blank: none).

    In a range, a rule with an empty value cell is refused: Excel on the web sends it as
    null (a bare rule, on), desktop Excel as 0 (off), so its meaning would depend on the
    Excel at hand."""
    grid = _grid(options)
    if len(grid) == 1 and len(grid[0]) == 1:
        cell = _option(grid, name)
        return hand_rules(None if cell is None else str(cell))
    rows = _table(grid)
    for row in rows:
        if len(row) > 1 and not _is_blank(row[0]) and _is_blank(row[1]):
            raise UmaokaExcelError(
                f'the hand rule "{excerpt(row[0], 40)}" has no value (its cell is blank, or 0, '
                "which is how desktop Excel sends an empty cell); write on or off (for "
                'honba_value the points, e.g. 300, or "0" as text), or list bare rules in '
                "one column.")
    return hand_rules(rows or None)


def _games(scores: Cells) -> tuple[list[list[Any]], bool]:
    """Games as rows of scores, and whether one game was given as a column."""
    grid = _grid(scores)
    if len(grid) > 1 and all(len(row) == 1 for row in grid):
        return [[row[0] for row in grid]], True
    return grid, False


def _per_game(values: Cells, games: int, what: str) -> list[Any]:
    """One value for every game, from a single value or a row or column of values."""
    line = _line(values)
    if line is None:
        return [None] * games
    if len(line) == 1:
        return line * games
    if len(line) != games:
        raise UmaokaExcelError(f"{what} has {len(line)} cells but there are {games} games; give "
                               f"one {what} value for all games or one per game.")
    return line


def _penalty_rows(penalties: Cells, games: int) -> list[list[Any] | None]:
    """Penalties for each game: omitted, one row or column for one game, or one row a game."""
    grid = _grid(penalties)
    if not grid or _one_blank(grid):  # one blank cell (0 from desktop Excel): none
        return [None] * games
    if games == 1:
        return [_line(grid)]
    if len(grid) != games:
        raise UmaokaExcelError(f"penalties has {len(grid)} rows but there are {games} games; "
                               "give one row of penalties per game, or leave it out.")
    return [None if _blank_row(row) else row for row in grid]


def _each_game(games: list[list[Any]], column: bool,
               compute: Callable[[int, list[Any]], list[Any]]) -> Any:
    """Apply ``compute(index, scores)`` to every game, returned in the orientation given.

    Blank games give blank cells. A bad game in a block of games gives its message in the
    row's first cell; a single bad game raises, so Excel shows the message for the cell.
    """
    if not games:
        return ""
    if len(games) == 1:
        row = games[0]
        out = [""] * len(row) if _blank_row(row) else compute(0, row)
        return [[v] for v in out] if column else [out]
    width = max(len(row) for row in games)
    result = []
    for i, row in enumerate(games):
        if _blank_row(row):
            result.append([""] * width)
            continue
        try:
            out = compute(i, row)
        except UmaokaError as e:
            out = [str(e)]
        result.append(out + [""] * (width - len(out)))
    return result


class _Rows(Converter):
    """The return converter of functions whose results are numbers and text already, e.g.
    50,000 rows of finals: handed to Excel as they are (xlwings' "raw"), a single value as
    one cell. xlwings' usual conversion looks at every cell (dates, NaN, "#N/A" text), about
    a microsecond each."""

    base_type = "raw"

    @staticmethod
    def write_value(value: Any, options: dict[str, Any]) -> Any:
        return value if isinstance(value, list) else [[value]]


def _no_errors(grid: list[list[Any]], what: str, first: int = 1) -> None:
    """Refuse an Excel error in a range of names or settings, naming the range and row."""
    for i, row in enumerate(grid, first):
        for c in row:
            if isinstance(c, str) and c.strip().upper() in EXCEL_ERRORS:
                raise UmaokaExcelError(f"row {i} of {what} is the Excel error "
                                       f"{c.strip().upper()}; fix the cell it comes from.")


def _one_blank(value: Cells) -> bool:
    """A range argument given as one blank cell (null, "" or desktop Excel's 0), or left
    out."""
    grid = _grid(value)
    return not grid or (len(grid) == 1 and len(grid[0]) == 1 and _is_blank(grid[0][0]))


_EXCEL_EPOCH = datetime.date(1899, 12, 30)
