"""umaoka's Excel functions: xlwings custom functions around the engine.

One module serves classic xlwings (Windows: name it under "UDF Modules" in the
xlwings.conf sheet and click Import Functions), xlwings Lite (``umaoka lite DIR``
writes a self-contained main.py from this file and the engine) and xlwings Server
(``from umaoka.addin.udfs import *`` in the server's ``custom_functions`` package).

Each function only converts cells to Python values and back; every rule and every
check of scores and rulesets is the engine's. Bad input raises
:class:`UmaokaExcelError` (an ``xlwings.XlwingsError``), whose one-sentence message
Excel shows for the cell; xlwings Server returns an XlwingsError's message as is.

Range arguments of bulk data (scores, deposits, penalties, players, finals) use
xlwings' ``raw`` converter and are made two-dimensional here: xlwings 0.37's Office.js
value cleaning costs about 0.2 ms per cell outside Pyodide, i.e. seconds for a league
sheet, while this module's own conversion costs well under 1 µs per cell.
"""

from __future__ import annotations

import datetime
import functools
import logging
import re
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from itertools import chain
from typing import Any, TypeVar

import xlwings as xw
from umaoka.engine import (
    PRESETS,
    UmaokaError,
    rank,
    settle,
    settle_many,
    shortcut,
    standings_table,
)
from umaoka.engine import ruleset as resolve_ruleset
from umaoka.engine.batch import paused_gc
from umaoka.engine.errors import excerpt
from umaoka.engine.season.gamelog import game_record
from umaoka.engine.hands.payment import hand, hand_rules, hand_table
from umaoka.engine.season.ranking import standing_rows
from umaoka.engine.online.rankpoints import game_rank_points, rank_points
from umaoka.engine.rules import EXCEL_ERRORS
from umaoka.engine.season.stages import SettledGames, run_season
from umaoka.engine.season.settings import season_settings
from umaoka.engine.settle import _to_decimal as to_points
from umaoka.engine.standings import quick_lines, standings_line, tally
from umaoka.engine.season.stats import player_stats
from xlwings.conversion import Converter

from umaoka.addin.functions.recalc import PLAIN, Blocks
from umaoka.addin.functions.season_cache import FAST, RowMemo, SeasonRuns

__all__ = [
    "MJ_EXPLAIN",
    "MJ_HAND",
    "MJ_HAND_TABLE",
    "MJ_PRESETS",
    "MJ_RANK",
    "MJ_RANKPOINTS",
    "MJ_RULESET",
    "MJ_SEASON",
    "MJ_SETTLE",
    "MJ_SHORTCUT",
    "MJ_STANDINGS",
]

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


# ------------------------------------------------------------------------------------------------
# The functions.


@xw.func
@xw.ret(_Rows)
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points in seat order (East first): a row or column for one game, "
            "or a block with one game per row.")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("deposits", "raw", ndim=2,
        doc="Leftover riichi sticks in points (1000 per stick): one value, or one per game. "
            "Blank: 0.")
@xw.arg("penalties", "raw", ndim=2,
        doc="Penalties (chombo) in final points added after settlement: one per player, one "
            "row per game. Blank: none.")
@_excel_function
def MJ_SETTLE(scores: Cells, ruleset: Cells = None, deposits: Cells = None,
              penalties: Cells = None) -> Any:
    """Final scores with oka and uma, in seat order. E.g. =MJ_SETTLE(B2:E2, "mleague")."""
    rules = _rules(ruleset)
    block = _changed_rows(rules, scores, deposits, penalties)
    if block is not None:
        return block
    games, column = _games(scores)
    deps = [0 if _is_blank(d) else d for d in _per_game(deposits, len(games), "deposits")]
    pens = _penalty_rows(penalties, len(games))
    return _each_game(games, column, lambda i, row: _settle_row(rules, row, deps[i], pens[i]))


def _changed_rows(rules: Any, scores: Cells, deposits: Cells, penalties: Cells
                  ) -> list[list[Any]] | None:
    """A block of two or more games settled again only where its inputs changed since the
    last call with the same ruleset and shape (see :mod:`umaoka.addin.functions.recalc`); None when
    the arguments are not such a block (the caller settles them in full)."""
    if not isinstance(scores, list) or len(scores) < 2 or not isinstance(scores[0], list):
        return None
    width = len(scores[0])
    if width < 2 or not all(type(row) is list and len(row) == width for row in scores):
        return None
    one_deposit: Any = None
    if deposits is not None and type(deposits) is not _JS_NULL:
        if not isinstance(deposits, list) or not deposits or not isinstance(deposits[0], list):
            return None
        if len(deposits) == 1 and len(deposits[0]) == 1:  # one value for every game
            one_deposit, deposits = deposits[0][0], None
            if type(one_deposit) not in _BLOCKS.plain:
                return None
        elif len(deposits) != len(scores) or any(len(row) != 1 for row in deposits):
            return None
    else:
        deposits = None
    if penalties is None or type(penalties) is _JS_NULL:
        penalties = None
    elif not isinstance(penalties, list) or len(penalties) != len(scores):
        return None

    def settle_row(i: int) -> list[Any]:
        # what _each_game gives for row i of a block
        row = [_cell(v) for v in scores[i]]
        if _blank_row(row):
            return [""] * width
        deposit = _cell(deposits[i][0] if deposits is not None else one_deposit)
        pen = None
        if penalties is not None:
            pen = [_cell(v) for v in penalties[i]]
            pen = None if _blank_row(pen) else pen
        try:
            out = _numbers(settle(row, rules, 0 if _is_blank(deposit) else deposit, pen).final)
        except UmaokaError as e:
            out = [str(e)]
        return out + [""] * (width - len(out))

    def settle_all() -> list[list[Any]]:
        # every row as settle_row gives it, the games settled together (settle_many); the
        # cells are plain (Blocks checked): only whole floats and JavaScript's null change,
        # and a row is blank when no cell is truthy (None, "", 0)
        rows = [_plain_cells(r) for r in scores]
        played = [i for i, r in enumerate(rows) if any(r)]
        if deposits is not None:
            deps = [_plain_cells(deposits[i])[0] for i in played]
            deps = [d if d else 0 for d in deps]
        else:
            deps = [_cell(one_deposit) or 0] * len(played)
        pens = None
        if penalties is not None:
            pens = []
            for i in played:
                pen = _plain_cells(penalties[i])
                pens.append(pen if any(pen) else None)
        out = [[""] * width for _ in rows]
        numbers = _NUMBERS
        finals = settle_many([rows[i] for i in played], rules, deps, pens).finals()
        for i, got in zip(played, finals):
            if isinstance(got, UmaokaError):
                out[i] = [str(got)] + [""] * (width - 1)
                continue
            try:
                mine = [numbers[v] for v in got]
            except KeyError:
                mine = _numbers(got)
            out[i] = mine if len(mine) == width else mine + [""] * (width - len(mine))
        return out

    key = (settle, rules, width, one_deposit, type(one_deposit))  # a reloaded engine: afresh
    return _BLOCKS.rows(key, (scores, deposits, penalties), settle_row, every=settle_all)


def _settle_row(rules: Any, row: list[Any], deposits: Any, penalties: Any) -> list[Any]:
    """One game's finals, from the recent results when its inputs are the same (the values'
    types are part of the key: True equals 1 but is not a score)."""
    pen = tuple(penalties) if penalties else ()
    key = (settle, rules, tuple(row), tuple(map(type, row)), deposits, type(deposits), pen,
           tuple(map(type, pen)))  # settle itself too: a new engine (reloaded) starts afresh
    return _SETTLED.get(key, lambda: _numbers(settle(row, rules, deposits, penalties).final))


class _Recent:
    """Results of recent rows by their inputs (ruleset included), for the calls the block
    memory (:data:`_BLOCKS`) does not take: single games, and blocks holding TRUE/FALSE or
    Office.js value objects. Bounded: cleared when full."""

    def __init__(self, size: int) -> None:
        self.size, self.items = size, {}  # type: dict[Any, list[Any]]

    def get(self, key: Any, compute: Callable[[], list[Any]]) -> list[Any]:
        try:
            out = self.items.get(key)
        except TypeError:  # an unhashable cell value: just compute
            return compute()
        if out is None:
            if len(self.items) >= self.size:
                self.items.clear()
            out = self.items[key] = compute()
        return list(out)  # the caller's copy


_SETTLED = _Recent(120_000)
#: The last blocks MJ_SETTLE settled: a league tab's block, one score changed, settles one row.
_BLOCKS = Blocks(4, PLAIN | {_JS_NULL} if _JS_NULL is not None else PLAIN)


@xw.func
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points in seat order: a row or column for one game, or a block "
            "with one game per row.")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True,
        doc=RULESET_DOC + " Its ties rule decides equal scores.")
@_excel_function
def MJ_RANK(scores: Cells, ruleset: Cells = None) -> Any:
    """Place of each player by raw score (1 = top), ties by the ruleset. E.g. =MJ_RANK(B2:E2)."""
    rules = _rules(ruleset)
    return _each_game(*_games(scores), lambda i, row: list(rank(row, rules)))


@xw.func
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points of one game in seat order (a row or a column).")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("deposits", "raw", ndim=2,
        doc="Leftover riichi sticks in points (1000 per stick). Blank: 0.")
@_excel_function
def MJ_EXPLAIN(scores: Cells, ruleset: Cells = None, deposits: Cells = None) -> Any:
    """Every step of one settlement: a header and a row per player. =MJ_EXPLAIN(B2:E2)."""
    rules, line = _rules(ruleset), _line(scores) or []
    if all(_is_blank(c) for c in line):  # a game not entered yet: blank, as MJ_SETTLE's
        return [[""]]
    game = settle(line, rules, _amount(deposits, "deposits"))
    return [_numbers(row) for row in game.explain()]


@xw.func
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("scores", "raw", ndim=2,
        doc="Raw points of one game to show (a row or a column). Blank: everybody at start.")
@_excel_function
def MJ_SHORTCUT(ruleset: Cells = None, scores: Cells = None) -> Any:
    """Shortcut table: final = round(raw/1000) + offset of the place; an error says why when
    the ruleset's rounding does not allow it. =MJ_SHORTCUT("standard")."""
    line = _line(scores)
    if line is not None and all(_is_blank(c) for c in line):
        line = None  # blank cells (no game adds up to 0 points: 0 from desktop Excel too)
    return [_numbers(row) for row in shortcut(_rules(ruleset), line).table()]


@xw.func
@xw.arg("players", "raw", ndim=2,
        doc="Player names, one game per row, in the same seat order as the finals.")
@xw.arg("finals", "raw", ndim=2,
        doc="Final scores (e.g. from MJ_SETTLE), same size as players. Blank rows are skipped.")
@xw.arg("stats", Cells,
        doc="TRUE: add top-two rate, bust rate, average raw score and the longest streaks "
        "(1st, 1st-2nd, not last). Blank: the standings only.")
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end scores, same size as players, for the bust rate and average raw score "
        "(a row left blank: a game without raw scores). Blank: none.")
@_excel_function
def MJ_STANDINGS(players: Cells, finals: Cells, stats: Cells = None,
                 scores: Cells = None) -> Any:
    """League standings: totals, averages, places, rates; best first; with stats TRUE also
    top-two rate, bust rate, average raw, streaks. =MJ_STANDINGS(B2:E9,G2:J9)."""
    with_stats = _flag(stats, "stats")
    if _one_blank(scores):
        scores = None  # a single blank cell (0 from desktop Excel): no raw scores
    if not with_stats and scores is None:
        table = _standings_block(players, finals)
        if table is not None:
            return table
    names_grid, finals_grid = _names(_grid(players)), _grid(finals)
    if (len(finals_grid) > 1 and all(len(r) == 1 for r in finals_grid)
            and len(names_grid) == len(finals_grid)):  # one game given as two columns
        names_grid = [[r[0] for r in names_grid]]
        finals_grid = [[r[0] for r in finals_grid]]
    if len(names_grid) != len(finals_grid):
        raise UmaokaExcelError(f"players has {len(names_grid)} rows but finals has "
                               f"{len(finals_grid)}; select ranges of the same size.")
    rows: list[int] = []
    raw = _grid(scores) if scores is not None else []
    if raw and len(raw) != len(names_grid):
        raise UmaokaExcelError(f"scores has {len(raw)} rows but players has "
                               f"{len(names_grid)}; select ranges of the same size.")
    with_stats = bool(with_stats) or bool(raw)

    def games() -> Iterator[tuple[list[Any], list[Any]]]:
        for i, (names, fins) in enumerate(zip(names_grid, finals_grid), 1):
            if _blank_row(fins):
                continue  # a game not played (yet): no finals (desktop Excel sends empty
                # cells as 0, so finals of all 0 count as not played too)
            rows.append(i)
            yield names, fins

    played = list(games())
    lines = []
    for k, game in enumerate(played, 1):
        try:
            lines.append(standings_line(game, k))
        except UmaokaError as e:
            raise _in_row(e, k, rows[k - 1]) from None
    try:
        table = standings_table(tally(lines))
        if with_stats:
            table = _with_stats(table, played, [raw[i - 1] for i in rows] if raw else [],
                                rows)
    except UmaokaError as e:
        raise _in_row(e, len(rows), rows[-1] if rows else 1) from None
    return [_numbers(row) for row in table]


def _names(grid: list[list[Any]], what: str = "players", first: int = 1
           ) -> list[list[Any]]:
    """Names, a number 0 read as an empty cell (desktop Excel's; no name is 0); an Excel
    error refused (row ``first`` is the grid's first row)."""
    _no_errors(grid, what, first)
    return [[None if _zero(c) else c for c in row] for row in grid]


def _no_errors(grid: list[list[Any]], what: str, first: int = 1) -> None:
    """Refuse an Excel error in a range of names or settings, naming the range and row."""
    for i, row in enumerate(grid, first):
        for c in row:
            if isinstance(c, str) and c.strip().upper() in EXCEL_ERRORS:
                raise UmaokaExcelError(f"row {i} of {what} is the Excel error "
                                       f"{c.strip().upper()}; fix the cell it comes from.")


def _in_row(error: UmaokaError, game: int, row: int) -> UmaokaExcelError:
    """The engine's message about game ``game`` as one about ``row`` of the range."""
    message, prefix = str(error), f"game {game} "
    where = f"row {row} of the range"
    return UmaokaExcelError(f"{where} {message[len(prefix):]}" if message.startswith(prefix)
                            else f"{where}: {message}")


_BAD = object()  # a game standings_line refuses: its message is made again in context


def _standings_block(players: Cells, finals: Cells) -> list[list[Any]] | None:
    """MJ_STANDINGS of a block of two or more games, each game checked again only when its
    row changed since the last call (see :mod:`umaoka.addin.functions.recalc`); None when the
    arguments are not such a block (MJ_STANDINGS then works through them in full)."""
    if not (isinstance(players, list) and isinstance(finals, list)
            and len(players) == len(finals) >= 2):
        return None
    width = len(finals[0]) if isinstance(finals[0], list) else 0
    if width < 2 or set(map(type, finals)) != {list} or set(map(len, finals)) != {width} \
            or set(map(type, players)) != {list}:
        return None

    def line(i: int) -> Any:
        # what MJ_STANDINGS makes of row i: skipped (None), a game, or refused (_BAD)
        names = _names([[_cell(v) for v in players[i]]], first=i + 1)[0]
        fins = [_cell(v) for v in finals[i]]
        if _blank_row(fins):
            return None
        try:
            return standings_line((names, fins), 1)
        except UmaokaError:
            return _BAD

    def every() -> list[Any]:
        # a first call: the common game quickly, the rest as line() makes them
        return [quick if quick is not None and any(quick[1]) else line(i)
                for i, quick in enumerate(quick_lines(players, finals))]

    lines = _LINES.rows((standings_line, width), (finals, players), line, copy=False,
                        every=every)
    if lines is None:
        return None
    played = [x for x in lines if x is not None]
    if _BAD in played:  # the first refused game, with its message as MJ_STANDINGS gives it
        index = played.index(_BAD)
        row = [i for i, x in enumerate(lines) if x is not None][index]
        try:
            standings_line((_names([[_cell(v) for v in players[row]]])[0],
                            [_cell(v) for v in finals[row]]), index + 1)
        except UmaokaError as e:
            raise _in_row(e, index + 1, row + 1) from None
    return [_numbers(row) for row in standings_table(tally(played))]


#: The games MJ_STANDINGS read last, checked: one final changed, one game read again.
_LINES = Blocks(4, _BLOCKS.plain)


def _with_stats(table: list[list[Any]], played: list[tuple[list[Any], list[Any]]],
                raw: list[list[Any]], where: list[int]) -> list[list[Any]]:
    """The standings table with each player's stats columns added (see MJ_STANDINGS);
    ``where``: each played game's row in the range."""
    games = []
    for k, (names, fins) in enumerate(played):
        row = raw[k] if raw else []
        points = None if not row or _blank_row(row) else _raw_scores(row, len(names), where[k])
        games.append((names, fins, None, points))
    by_name = {p.name: p for p in player_stats(games)}
    out = [table[0] + ["Top-two rate", "Bust rate", "Average raw", "Top streak",
                       "Top-two streak", "No-last streak"]]
    for line in table[1:]:
        p = by_name[line[1]]
        out.append(line + [p.top_two_rate, "" if p.bust_rate is None else p.bust_rate,
                           "" if p.average_raw is None else p.average_raw,
                           p.top_streak, p.top_two_streak, p.no_last_streak])
    return out


def _raw_scores(row: list[Any], players: int, where: int) -> list[int]:
    """A row of MJ_STANDINGS's raw scores as whole points, read as settle reads scores (a
    number, or a text of one; finite, not huge, a multiple of 100; TRUE/FALSE is no score),
    or one sentence naming the row."""
    if len(row) != players:
        raise UmaokaExcelError(f"row {where} of scores has {len(row)} cells but that game has "
                               f"{players} players; select scores as wide as players, one raw "
                               "score per player.")
    points = []
    for seat, value in enumerate(row, 1):
        try:
            d = to_points(value, f"score {seat}")
        except UmaokaError as e:
            if isinstance(value, str) and value.strip():
                raise UmaokaExcelError(f"row {where} of scores holds a value that is not a "
                                       f'number (score {seat}, "{excerpt(value)}"); fix it or '
                                       "clear that row of scores.") from None
            raise UmaokaExcelError(f"row {where} of scores: {e}") from None
        if d % 100:
            raise UmaokaExcelError(f"row {where} of scores: score {seat} ({d:,}) is not a whole "
                                   "multiple of 100; raw points always end in 00, so check it "
                                   "for a typo.")
        points.append(int(d))
    return points


@xw.func
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@_excel_function
def MJ_RULESET(ruleset: Cells = None) -> Any:
    """The ruleset as a key/value table, usable as a ruleset range. =MJ_RULESET("ema")."""
    rules = _rules(ruleset)
    head = [["preset", rules.name]] if rules.name in PRESETS else []
    return head + [[key, value] for key, value in rules.values().items()]


@xw.func
@_excel_function
def MJ_PRESETS() -> Any:
    """Every preset with its description, main values and source. =MJ_PRESETS()."""
    fields = ["players", "start", "target", "oka", "uma", "floating", "rounding", "round_on",
              "adjust", "ties", "leftover"]
    table: list[list[Any]] = [["name", "description", *fields, "source"]]
    for p in PRESETS.values():
        values = p.ruleset.values()
        table.append([p.name, p.description, *(values[f] for f in fields), p.source])
    return table


@xw.func
@xw.arg("han", doc='Han (1 or more), a limit such as "mangan", or a yakuman such as "yakuman" '
        'or "double yakuman".')
@xw.arg("fu", Cells,
        doc="Fu (20, 25, 30 ... 140; up to 170 under aotenjou); may be blank from 5 han "
        "(mangan) up.")
@xw.arg("dealer", doc='TRUE (or "dealer") if the winner is the dealer. Blank: FALSE.')
@xw.arg("tsumo", doc='TRUE (or "tsumo") for a self-drawn win, FALSE (or "ron") for a win off '
        "a discard. Blank: FALSE.")
@xw.arg("honba", doc="Repeat counters (honba) on the table. Blank: 0.")
@xw.arg("options", Cells, ndim=2,
        doc='Hand rules such as "kiriage; kazoe=unlimited; sanma", or a '
        "two-column key/value range. Blank: none.")
@xw.arg("pao", Cells,
        doc="Pao (sekinin barai): how many of the yakuman a liable player answers for "
        '(1, 2 ...), TRUE or "all" for the whole hand. Blank: no pao.')
@xw.arg("liable_dealer", Cells,
        doc="TRUE if the liable player is the dealer (it matters on a "
        "non-dealer's tsumo when only some yakuman are liable). Blank: FALSE.")
@xw.arg("riichi", Cells,
        doc="Riichi sticks (1,000 points each) the winner collects, this hand's "
        "declarations included: each adds 1,000 to the total, the payments stay. Blank: 0.")
@_excel_function
def MJ_HAND(han: Cells, fu: Cells = None, dealer: Cells = False, tsumo: Cells = False,
            honba: Cells = 0, options: Cells = None, pao: Cells = None,
            liable_dealer: Cells = None, riichi: Cells = None) -> Any:
    """What a win pays: the total the winner gains (riichi sticks included), then the
    payments as scorers write them. E.g. =MJ_HAND(3, 40, FALSE, TRUE, 1).

    Payments: ron, the discarder's payment; non-dealer tsumo, from each non-dealer, then
    from the dealer; dealer tsumo, from each. With pao: the total, what the liable player
    pays, then what the others pay in that layout (ron: the discarder; non-dealer tsumo:
    each other non-dealer, the dealer; dealer tsumo: each other player), blank where there
    is no such player. E.g. =MJ_HAND("yakuman", , FALSE, TRUE, 1, , 1). Amounts past
    2^53 (aotenjou's largest hands) are refused: Excel cannot hold them exactly."""
    count = _option(han, "han")
    if count is None:
        raise UmaokaExcelError("han is blank; enter the han count (1 or more), a limit such as "
                               "mangan, or yakuman.")
    result = hand(count, _option(fu, "fu"), _flag(dealer, "dealer"), _flag(tsumo, "tsumo"),
                  _amount(honba, "honba"), rules=_hand_rules(options),
                  pao=_option(pao, "pao", 0), liable_dealer=_flag(liable_dealer,
                                                                  "liable_dealer"),
                  riichi=_amount(riichi, "riichi"))
    if result.total > _EXACT:
        raise UmaokaExcelError(
            f"this hand pays {Decimal(result.total):.3E} points, more than an Excel cell holds "
            f"exactly (2^53, about {Decimal(_EXACT):.3E}); work it out with the command "
            "`umaoka hand` instead.")
    if result.pao:
        row = [result.total, result.liable,
               *("" if p is None else p for p in result.payments)]
        return [row + [""] * (4 - len(row))]
    return [[result.total, *result.payments] + [""] * (2 - len(result.payments))]


#: The largest whole number an Excel cell (a double) holds exactly.
_EXACT = 2**53


@xw.func
@xw.arg("dealer", doc='TRUE (or "dealer") for the dealer\'s table. Blank: the non-dealer\'s.')
@xw.arg("options", Cells, ndim=2,
        doc='Hand rules such as "kiriage" or "aotenjou", or a two-column '
        "key/value range. Blank: none.")
@_excel_function
def MJ_HAND_TABLE(dealer: Cells = False, options: Cells = None) -> Any:
    """The scoring table: a row per han, a column per fu, "ron / tsumo" in each cell, then
    the limits. E.g. =MJ_HAND_TABLE(TRUE)."""
    return hand_table(_flag(dealer, "dealer"), _hand_rules(options))


def _cells_per_game(value: Cells, games: list[list[Any]], what: str) -> list[Any]:
    """A value for each game: one for all, one per game, or one per cell in results' shape
    (a list for a game of several players). None when omitted."""
    grid = _grid(value)
    if not grid or (len(grid) == 1 and len(grid[0]) == 1):
        return [grid[0][0] if grid else None] * len(games)
    if len(games) == 1 and len(_line(value) or []) == len(games[0]):
        return [_line(value)]  # one table's values given as a row or a column
    if len(grid) == len(games) and all(len(r) in (1, len(g)) for r, g in zip(grid, games)):
        return [r if len(g) > 1 and len(r) > 1 else r[0] for r, g in zip(grid, games)]
    raise UmaokaExcelError(f"{what} has {len(grid)} rows of {len(grid[0])} cells but results has "
                           f"{len(games)} games; give one {what} for all, one per game, or one "
                           "per player in the same shape as results.")


@xw.func
@xw.arg("results", "raw", ndim=2,
        doc="Places (1 = top) or raw end scores in seat order: a row for one table (a column "
            "of raw scores works too), a block with one table per row, or one player's "
            "places, one game per row.")
@xw.arg("system", ndim=2, doc='"tenhou" (天鳳) or "mahjongsoul" (雀魂): one, or one per game.')
@xw.arg("room", ndim=2, doc="Tenhou: general, upper, expert, phoenix (一般 上級 特上 鳳凰); "
        "Mahjong Soul: bronze, silver, gold, jade, throne (銅 銀 金 玉 王座).")
@xw.arg("rank", "raw", ndim=2,
        doc='Rank of the player(s): Tenhou dan (七段, 7dan, 2級, 新人, 天鳳位) or Mahjong Soul '
            'rank ("Expert 2", 雀傑2, E2, Celestial); one, one per game, or one per player.')
@xw.arg("length", Cells, ndim=2, doc='"east" (東風) or "south" (hanchan, 半荘). Blank: south.')
@xw.arg("players", Cells, ndim=2, doc="4, or 3 for sanma. Blank: 4.")
@xw.arg("scores", "raw", ndim=2,
        doc="Mahjong Soul: raw end scores in the shape of results, when results holds places. "
            "Blank: none.")
@_excel_function
def MJ_RANKPOINTS(results: Cells, system: Cells, room: Cells, rank: Cells,
                  length: Cells = None, players: Cells = None, scores: Cells = None) -> Any:
    """Online rank points (Tenhou dan points, Mahjong Soul rank points) in the shape of
    results. E.g. =MJ_RANKPOINTS(B2:E2, "mahjongsoul", "jade", "Master 1")."""
    grid = _grid(results)
    size = _option(players, "players", 4)
    column = len(grid) > 1 and all(len(row) == 1 for row in grid)
    if column and len(grid) == size and not all(
            type(row[0]) is int and 1 <= row[0] <= size for row in grid):
        games = [[row[0] for row in grid]]  # one table's raw scores as a column
    else:
        games, column = grid, False
    count = len(games)
    systems = _words(_per_game(system, count, "system"), "system")
    rooms = _words(_per_game(room, count, "room"), "room")
    lengths = _words(_per_game(length, count, "length"), "length", "south")
    sizes = _words(_per_game(players, count, "players"), "players", 4)
    ranks = [_words(r, "rank") if isinstance(r, list) else _words([r], "rank")[0]
             for r in _cells_per_game(rank, games, "rank")]
    # a single blank cell for scores (0 from desktop Excel): none
    raws = _cells_per_game(None if _one_blank(scores) else scores, games, "scores")

    def compute(i: int, row: list[Any]) -> list[Any]:
        row = _places(row, sizes[i])
        if len(row) == 1:
            one = raws[i][0] if isinstance(raws[i], list) else raws[i]
            return [_number(rank_points(row[0], one, systems[i], rooms[i], ranks[i],
                                        lengths[i], sizes[i]).points)]
        return [_number(p.points) for p in game_rank_points(
            row, systems[i], rooms[i], ranks[i], lengths[i], sizes[i], raws[i])]

    return _each_game(games, column, compute)


def _places(row: list[Any], size: Any) -> list[Any]:
    """A table's results with its empty cells as None: "" always, and 0 (desktop Excel's
    empty cell) when the other cells are places (1 to the number of players), where 0 is no
    place; among raw scores a 0 is a score."""
    row = [None if c == "" else c for c in row]
    if len(row) > 1 and any(_zero(c) for c in row):
        rest = [c for c in row if c is not None and not _zero(c)]
        if all(type(c) is int and 1 <= c <= (size if type(size) is int else 4) for c in rest):
            row = [None if _zero(c) else c for c in row]
    return row


def _words(values: list[Any], name: str, default: Any = None) -> list[Any]:
    """Cells where 0 is never valid (a system, room, rank, length, player count): blank, ""
    and 0 give the default; an Excel error is refused, naming the argument."""
    return [_option([[v]], name, default) for v in values]


def _one_blank(value: Cells) -> bool:
    """A range argument given as one blank cell (null, "" or desktop Excel's 0), or left
    out."""
    grid = _grid(value)
    return not grid or (len(grid) == 1 and len(grid[0]) == 1 and _is_blank(grid[0][0]))


# ------------------------------------------------------------------------------------------------
# A season's standings (no rules here: the engine's run_season ranks, carries and cuts).

_SEAT_KEYS = ("east", "south", "west", "north")
_PENALTY_KEYS = ("date", "stage", "player", "team", "points", "reason")


def _season_stages(stages: Cells) -> list[dict[str, Any]]:
    """The Season sheet's stage rows (stage, ruleset shown, advance, carry) as the engine's
    stage settings; blank rows are skipped."""
    out: list[dict[str, Any]] = []
    for row in _grid(stages):
        row = (row + [None] * 4)[:4]
        if _is_blank(row[0]):
            continue
        stage: dict[str, Any] = {"name": str(row[0]).strip(),
                                 "shown": None if _is_blank(row[1]) else row[1]}
        if not _is_blank(row[2]):
            stage["advance"] = row[2]
        if out or not _is_blank(row[3]):
            stage["carry"] = "zero" if _is_blank(row[3]) else row[3]
        out.append(stage)
    return out


def _season_games(grid: list[list[Any]], stage: str, n: int,
                  platform: bool = False, memo: RowMemo | None = None) -> list[Any]:
    """A league tab's game rows (players, scores, deposits, penalties, then optional chips
    and substitutes blocks, then with ``platform`` the platform-finals block) as the
    engine's named columns; rows without scores or finals are skipped. A single extra
    block of n columns is chips when any of its cells holds a number (a chip count typed
    as text then gets its own message), else substitutes (names). Messages name a row by
    its place in the range ("Final games row 3").

    With ``memo`` (the cells as Excel sent them, numbers, texts and blanks only), each row
    is the engine's record, made once per row's cells (see :mod:`.season_cache`)."""
    width = len(grid[0]) if grid else 0
    given = width - n if platform and width >= 4 * n + 1 else None  # the last n columns
    end = width if given is None else given
    blocks = [c for c in range(3 * n + 1, end, n) if c + n <= end]
    chips = subs = None
    if blocks:
        def numeric(c: int) -> bool:
            return any(not _is_blank(v) and type(v) in (int, float) for r in grid
                       for v in r[c:c + n])
        chips, subs = (blocks[0], blocks[1] if len(blocks) > 1 else None) \
            if len(blocks) > 1 or numeric(blocks[0]) else (None, blocks[0])

    def game(i: int, raw: list[Any]) -> dict[str, Any] | None:
        row = [_cell(v) for v in raw] if memo is not None else raw
        finals = [] if given is None else row[given:given + n]
        if all(_is_blank(v) for v in [*row[n:3 * n + 1], *finals]):  # nothing entered
            return None
        out: dict[str, Any] = {"stage": stage, "deposits": row[2 * n] if len(row) > 2 * n
                               else None, "_label": f"{stage} games row {i}"}
        for k, seat in enumerate(_SEAT_KEYS[:n]):
            out[seat] = None if _is_blank(row[k]) else row[k]  # desktop Excel: 0
            out[f"{seat}_score"] = row[n + k] if len(row) > n + k else None
            out[f"{seat}_penalty"] = row[2 * n + 1 + k] if len(row) > 2 * n + 1 + k else None
            if chips is not None:
                out[f"{seat}_chips"] = row[chips + k]
            if subs is not None and not _is_blank(row[subs + k]):
                out[f"{seat}_sub"] = row[subs + k]
            if finals and not _is_blank(finals[k]):
                out[f"{seat}_final"] = finals[k]
        return out

    if memo is None:
        return [g for i, row in enumerate(grid, 1) if (g := game(i, row)) is not None]

    def record(i: int, raw: list[Any]) -> Any:
        g = game(i, raw)
        if g is None:
            return None
        try:
            return game_record(g, n, g["_label"])
        except UmaokaError:  # the season run reports it, with the row's label
            return g

    layout = (stage, n, chips, subs, given)
    out: list[Any] = []
    for i, raw in enumerate(grid, 1):
        got = memo.get((layout, i, tuple(raw)), lambda i=i, raw=raw: record(i, raw))
        if got is not None:
            out.append(got)
    return out


def _penalty_row(row: list[Any], i: int) -> dict[str, Any]:
    """A Penalties sheet row as the engine's named columns: blank cells (0 from desktop
    Excel) as None, an Excel date serial number as the date. Points of 0 too: a row whose
    points cell is empty is listed as having no points on every Excel, and a penalty of 0
    would change nothing."""
    out: dict[str, Any] = {k: None if _is_blank(v) else v for k, v in zip(_PENALTY_KEYS, row)}
    date = out.get("date")
    # Excel's dates run from serial 1 to 2958465 (9999-12-31); any other number (1E+12)
    # stays a number, which the log reports as not a date
    if type(date) in (int, float) and 1 <= date < 2958466:
        out["date"] = _EXCEL_EPOCH + datetime.timedelta(days=int(date))
    out["_label"] = f"penalties row {i}"
    return out


_EXCEL_EPOCH = datetime.date(1899, 12, 30)

#: Season settings whose default is not 0, while 0 is a value one may mean: an empty value
#: cell (0 from desktop Excel) cannot say which, so it is refused instead of guessed.
_ZERO_MEANT = {"absent_result": "-30"}


def _season_values(grid: list[list[Any]]) -> dict[str, Any]:
    """The Season sheet's settings rows as name: value; a row whose value is blank (or 0,
    desktop Excel's empty cell) keeps the default, except where 0 is a value of its own."""
    values: dict[str, Any] = {}
    for row in grid:
        if len(row) < 2 or _is_blank(row[0]):
            continue
        key = str(row[0]).strip()
        if not _is_blank(row[1]):
            values[key] = row[1]
        elif key.lower().replace(" ", "_").replace("-", "_") in _ZERO_MEANT:
            example = _ZERO_MEANT[key.lower().replace(" ", "_").replace("-", "_")]
            raise UmaokaExcelError(
                f"{key} has no value (its cell is blank, or 0, which is how desktop Excel "
                f"sends an empty cell); give the points, e.g. {example} (for 0 type \"0\" as "
                "text), or delete the row for the default.")
    return values


@xw.func
@xw.arg("stages", "raw", ndim=2,
        doc="The Season sheet's stage rows: stage (a league tab's name), ruleset (used when "
            "the stage's ruleset argument is blank), advance, carry (full, half, zero or a "
            "factor), in order.")
@xw.arg("settings", "raw", ndim=2,
        doc="The Season sheet's two-column settings (name, competition, min_games, ranking, "
            "tie_breaks, substitutes, absent_result, chip_value, game_caps). Blank: defaults.")
@xw.arg("players", "raw", ndim=2,
        doc="The Players sheet's rows: name, team (the team column may be blank).")
@xw.arg("penalties", "raw", ndim=2,
        doc="The Penalties sheet's rows: date, stage, player, team, points, reason. Blank: "
            "none.")
@xw.arg("stage", "raw", doc="The stage to show (a stage's name). Blank: the only stage.")
@xw.arg("what", "raw", doc='"players" (blank) or "teams": which table of the stage.')
@xw.arg("games1", "raw", ndim=2,
        doc="The first stage's game rows: players, scores, deposits, penalties, then chips "
            "and substitutes if the tab has them (its columns from the first player on).")
@xw.arg("ruleset1", "raw", ndim=2,
        doc=RULESET_DOC.replace("Blank: standard.", "Blank: the stage row's ruleset."))
@xw.arg("games2", "raw", ndim=2, doc="The second stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset2", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("games3", "raw", ndim=2, doc="The third stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset3", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("games4", "raw", ndim=2, doc="The fourth stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset4", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("lang", "raw", doc='"en" or "ja": the tie-break and flags in words of that '
        "language. Blank: the tie-break's key and the flags in English.")
@xw.arg("platform", Cells, doc="The stages (1 to 4) whose games range ends with the tab's "
        "platform-finals block (one column per seat: imported online or published results, "
        'counted by those finals), e.g. "1" or "1,3". Blank: none.')
@_excel_function
def MJ_SEASON(stages: Cells, settings: Cells = None, players: Cells = None,
              penalties: Cells = None, stage: Cells = None, what: Cells = None,
              games1: Cells = None, ruleset1: Cells = None, games2: Cells = None,
              ruleset2: Cells = None, games3: Cells = None, ruleset3: Cells = None,
              games4: Cells = None, ruleset4: Cells = None, lang: Cells = None,
              platform: Cells = None) -> Any:
    """A season stage's standings of players or teams, as umaoka settle ranks them; rows
    that cannot count are listed below. E.g. =MJ_SEASON(Season!A5:D6, Season!A10:B18,
    Players!A5:B40, Penalties!A5:F104, "Final", , Regular!E5:Y200, , Final!E5:Y40).

    The table: carried points, this stage's points, chips, penalties, total, rank, who
    advanced and which tie-break decided; games or penalties that cannot count are listed
    below the table with the reason, the rest still rank. lang "en" or "ja" writes the
    tie-break and flags in words of that language; platform names the stages whose games
    end with a platform-finals block."""
    stages, settings, players, penalties, stage, what, lang = map(_read, (
        stages, settings, players, penalties, stage, what, lang))
    ruleset1, ruleset2, ruleset3, ruleset4 = map(_read, (ruleset1, ruleset2, ruleset3, ruleset4))
    try:
        return _season_table(stages, settings, players, penalties, stage, what,
                             [games1, games2, games3, games4],
                             [ruleset1, ruleset2, ruleset3, ruleset4], lang, platform)
    except UmaokaError as e:  # a message quoting a whole long cell: one line, clipped
        raise UmaokaExcelError(excerpt(str(e), 400)) from None


def _read(value: Cells) -> Cells:
    """An argument MJ_SEASON takes "raw" (the games excepted), each cell read by
    :func:`_cell` with "" as blank: an error cell as its text ("#N/A" must be named, never
    pass for an empty cell), as xlwings' ``err_to_str`` gives every other function's
    arguments; without xlwings' cost per cell (0.37 looks for Pyodide once per cell
    outside it)."""
    if isinstance(value, (list, tuple)):
        return [_read(c) if isinstance(c, (list, tuple)) else _read_cell(c) for c in value]
    return _read_cell(value)


def _read_cell(value: Any) -> Any:
    cell = _cell(value)
    return None if type(cell) is str and cell == "" else cell


def _platform_stages(value: Cells, count: int) -> set[int]:
    """MJ_SEASON's ``platform``: the stage numbers (from 1) whose games end with platform
    finals, e.g. "1,3" (or one number); blank: none."""
    text = _option(value, "platform")
    if text is None:
        return set()
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    words = [w.strip() for w in str(text).replace(";", ",").split(",") if w.strip()]
    if not all(w.isdigit() and 1 <= int(w) <= count for w in words):
        raise UmaokaExcelError(f'platform cannot be "{excerpt(text)}"; give the '
                               f"numbers of the stages (1 to {count}) whose games end with "
                               'platform finals, e.g. "1" or "1,3", or leave it blank.')
    return {int(w) for w in words}


def _season_table(stages: Cells, settings: Cells, players: Cells, penalties: Cells,
                  stage: Cells, what: Cells, games: list[Cells], rules: list[Cells],
                  lang: Cells = None, platform: Cells = None) -> list[list[Any]]:
    """MJ_SEASON's table (see there): the season run of these inputs, shared by every
    MJ_SEASON call with the same inputs whichever table it shows (see :data:`_SEASONS`)."""
    platform_stages = _platform_stages(platform, len(games))
    language = _option(lang, "lang")
    words = None if language is None else str(language).strip().lower()
    if words not in (None, "en", "ja"):
        raise UmaokaExcelError(f'lang cannot be "{excerpt(language)}"; use en or ja, '
                               "or leave it blank.")
    shown_name, kind = _option(stage, "stage"), _option(what, "what", "players")
    for grid, name in ((stages, "stages"), (settings, "settings"), (players, "players")):
        _no_errors(_grid(grid), name)
    season, result = _SEASONS.run(
        (run_season, stages, settings, players, penalties, *games, *rules,
         "platform " + ",".join(map(str, sorted(platform_stages)))),
        lambda memo, settled: _season_run(stages, settings, players, penalties, games, rules,
                                          memo, settled, platform_stages))
    if shown_name is None and len(season.stages) > 1:
        raise UmaokaExcelError(f"stage is blank but the season has {len(season.stages)} "
                               f"stages ({', '.join(s.name for s in season.stages)}); give "
                               "the stage to show.")
    shown = season.stage(None if shown_name is None else str(shown_name))
    sr = next(r for r in result.stages if r.stage is shown)
    if str(kind).strip().lower() not in ("players", "teams", "player", "team"):
        raise UmaokaExcelError(f'what cannot be "{excerpt(kind)}"; use players or teams.')
    kind = str(kind).strip().lower()
    table = [_numbers(r) for r in standing_rows(sr.teams if kind.startswith("team")
                                                else sr.players, words, shown.game_caps)]
    width = len(table[0])
    mine = [p for p in result.problems if p.startswith(f"{shown.name} games row ")
            or f"stage {shown.name}" in p or p.startswith("penalties row")]
    return table + [[text] + [""] * (width - 1) for text in (*sr.notes, *mine)]


def _season_run(stages: Cells, settings: Cells, players: Cells, penalties: Cells,
                games: list[Cells], rules: list[Cells], memo: RowMemo | None = None,
                settled: SettledGames | None = None,
                platform_stages: set[int] | frozenset[int] = frozenset()) -> tuple[Any, Any]:
    """The season of MJ_SEASON's arguments and its run. ``memo``: game rows' records kept
    between runs (used for ranges of numbers, texts and blanks only); ``settled``: the
    games settled in earlier runs (see :class:`~umaoka.engine.season.stages.SettledGames`);
    ``platform_stages``: the stages (from 1) whose games end with platform finals."""
    specs = _season_stages(stages)
    if len(specs) > len(games):
        raise UmaokaExcelError(f"the season has {len(specs)} stages but MJ_SEASON takes the "
                               f"games of {len(games)}; merge stages or use umaoka settle.")
    for i, spec in enumerate(specs):  # blank: the ruleset the stage row shows
        given = _grid(rules[i])
        spec["ruleset"] = _rules(rules[i], f"ruleset{i + 1}") if given and not _blank_row(
            given[0]) else _rules(spec.pop("shown"), f"stage {spec['name']}'s ruleset")
        spec.pop("shown", None)
    values = _season_values(_grid(settings))
    roster = [r for r in _grid(players) if r and not _is_blank(r[0])]
    teams: dict[str, list[str]] = {}
    for r in roster:
        if len(r) > 1 and not _is_blank(r[1]):
            teams.setdefault(str(r[1]).strip(), []).append(str(r[0]).strip())
    season = season_settings({**values, "stages": specs, "teams": teams,
                              "players": [str(r[0]).strip() for r in roster]})
    records: list[Any] = []
    for i, st in enumerate(season.stages):
        grid, given = games[i], i + 1 in platform_stages
        if memo is not None and _plain_rows(grid):
            records += _season_games(grid, st.name, st.ruleset.players, given, memo)
        else:
            records += _season_games(_grid(grid), st.name, st.ruleset.players, given)
    log = [_penalty_row(row, i) for i, row in enumerate(_grid(penalties), 1)
           if not _blank_row(row)]
    return season, run_season(season, records, log, settled)


def _plain_rows(grid: Cells) -> bool:
    """Whether a range argument is a list of rows of the same length holding numbers as
    Excel sends them (floats), texts and blanks only (rows kept by their cells)."""
    if not isinstance(grid, list) or not grid or not all(type(r) is list for r in grid):
        return False
    if len({len(r) for r in grid}) != 1:
        return False
    return set(map(type, chain.from_iterable(grid))) <= _SEASONS.fast


#: The last season runs MJ_SEASON made, by their inputs: the template's four MJ_SEASON
#: formulas (each stage's players and teams) share one run, and a run after one typed score
#: settles that game only.
_SEASONS = SeasonRuns(4, FAST | {_JS_NULL} if _JS_NULL is not None else FAST)


def _forget_seasons() -> None:
    """Empty MJ_SEASON's memory (benchmarks: the next call computes from nothing)."""
    _SEASONS.clear()


def _python_help() -> None:
    """Each function's whole docstring for Python's help: xlwings has taken the first
    paragraph for Excel (see :func:`_excel_function`)."""
    for name in __all__:
        function = globals()[name]
        function.__doc__ = function.__wrapped__.__doc__


_python_help()


def _errors_as_text() -> None:
    """Every argument xlwings converts (all but the ``raw`` ranges, whose Office.js error
    objects :func:`_cell` reads) gets an Excel error as its text, e.g. "#N/A": without
    ``err_to_str`` xlwings turns an error cell into None, and a #N/A would pass for an empty
    cell. Read by xlwings at each call, so set once here for every function."""
    for name in __all__:
        for arg in globals()[name].__xlfunc__["args"]:
            if arg["options"].get("convert") != "raw":
                arg["options"]["err_to_str"] = True


_errors_as_text()
