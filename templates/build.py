"""The league workbook generator (openpyxl).

One layout serves two kinds of workbook:

* the **template** (``settled=False``): results come from one legacy array formula per
  league, ``=IFERROR(MJ_SETTLE(scores, Rules_x, deposits, penalties), hint)`` with the
  function's name in the saved form of the workbook's runtime (:mod:`.runtime`); places
  and standings from native formulas (COUNTIF, SUMIFS, COUNTIFS, SUMPRODUCT, INDEX/MATCH)
  that Excel 2010+ and LibreOffice compute. Every formula carries its saved value
  (:mod:`.saved_values`), and while the functions are off a game row shows one short hint
  pointing to the Start sheet instead of ``#NAME?``;
* the **settled copy** (``settled=True``): a report with the same sheets, every result,
  place and standing written as a plain value by the engine, inputs locked, readable
  without the add-in.

Sheets: Start (first), per league a games tab and a standings tab, an overall standings
tab (with more than one league), Players, one Rules sheet per ruleset, Presets,
``xlwings.conf`` and a very hidden ``_umaoka`` sheet describing the layout (and runtime)
for ``umaoka settle``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.chart import LineChart, Reference
from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table, TableStyleInfo
from openpyxl.worksheet.worksheet import Worksheet
from umaoka.engine import (
    CHOICES,
    FIELDS,
    PRESETS,
    PlayerStanding,
    Settlement,
    __version__,
    standings_table,
)

from .io import save_workbook
from .labels import field_help, label, note_lines, place_label, seat_label
from .model import SHEET_NAME_MAX, Book, Game, League, Origin, Rules
from .results import (
    FIRST_ROW,
    Outcome,
    check_text,
    counted,
    cumulative,
    league_standings,
    settle_league,
)
from .saved_values import (
    LeagueValues,
    Slot,
    chart_values,
    league_slots,
    league_values,
    overall_slots,
    visible_rows,
)
from .start import start_lines
from .writer import CellError, save_value

#: The add-in module named in the xlwings.conf sheet (umaoka.addin.setup.UDF_MODULE).
UDF_MODULE = "umaoka.addin.udfs"
META_SHEET = "_umaoka"
CONF_SHEET = "xlwings.conf"
FORMAT_VERSION = 1
HEADER_ROW = 4
#: Chart series: the top players of the standings.
CHART_SERIES = 8
#: Spare rows for games in a fresh template, and spare player rows.
SPARE_GAMES = 100
MIN_GAMES = 200

# ------------------------------------------------------------------------------------------------
# Styles: built once as style arrays and copied into cells (fast for big leagues).

NAVY = "1F3864"
BLUE = "2F5597"
PALE = "DDEBF7"
GREY = "F2F2F2"
INPUT = "FFFFFF"
_THIN = Side(style="thin", color="BFBFBF")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)


class Styles:
    """Named cell styles of one workbook, as openpyxl style arrays."""

    def __init__(self, wb: Workbook, points_format: str, locked_inputs: bool = False):
        self._ws = wb.active
        self.points = points_format
        self.locked_inputs = locked_inputs  # a settled copy is a report: nothing to type
        self._cache: dict[tuple[Any, ...], Any] = {}

    def get(self, kind: str, fmt: str = "General") -> Any:
        key = (kind, fmt)
        if key not in self._cache:
            cell = Cell(self._ws)
            locked = True
            if kind == "title":
                cell.font = Font(size=16, bold=True, color=NAVY)
            elif kind == "subtitle":
                cell.font = Font(italic=True, color="595959")
            elif kind == "header":
                cell.font = Font(bold=True, color="FFFFFF")
                cell.fill = PatternFill("solid", fgColor=BLUE)
                cell.alignment = Alignment(horizontal="center", vertical="center",
                                           wrap_text=True)
                cell.border = _BORDER
            elif kind == "group":
                cell.font = Font(bold=True, color=NAVY)
                cell.fill = PatternFill("solid", fgColor=PALE)
                cell.alignment = Alignment(horizontal="center")
                cell.border = _BORDER
            elif kind == "input":
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=INPUT)
                locked = self.locked_inputs
            elif kind == "formula":
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=GREY)
            elif kind == "result":
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=GREY)
                cell.font = Font(bold=True)
            elif kind == "key":
                cell.font = Font(bold=True)
                cell.border = _BORDER
                cell.fill = PatternFill("solid", fgColor=PALE)
            elif kind == "note":
                cell.font = Font(color="595959")
                cell.alignment = Alignment(wrap_text=True, vertical="top")
                cell.border = _BORDER
            elif kind == "helper":
                cell.font = Font(color="808080")
            elif kind == "start_head":
                cell.font = Font(bold=True, size=12, color=NAVY)
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
        text: bool = False) -> Cell:
    """Write one cell; ``text`` keeps user text as text even when it starts with ``=``."""
    cell = _new_cell(Cell)  # Cell(ws, row, col, style_array=style) without its overhead
    cell.parent = ws
    cell.row = row
    cell.column = col
    cell._style = StyleArray(style) if style is not None else None
    cell._value = None
    cell.data_type = "n"
    cell._hyperlink = None
    cell._comment = None
    kind = _FAST_TYPES.get(type(value))
    if value is None:
        pass
    elif kind is not None:
        cell._value = value
        cell.data_type = kind
    elif text and type(value) is str:
        if value not in _CHECKED:
            cell.value = value  # openpyxl's checks (length, illegal characters)
            if len(_CHECKED) < 100_000:
                _CHECKED.add(value)
        cell._value = value
        cell.data_type = "s"
        if value[:1] in ("=", "+", "-", "@"):
            cell.quotePrefix = True
    else:
        cell.value = value
    ws._cells[(row, col)] = cell
    return cell


def quote(sheet: str) -> str:
    """A sheet name as formulas write it: ``'Spring 2026'``."""
    return "'" + sheet.replace("'", "''") + "'"


def ref(sheet: str, col: int, row1: int, row2: int | None = None, col2: int | None = None
        ) -> str:
    a = f"${col_letter(col)}${row1}"
    if row2 is None:
        return f"{quote(sheet)}!{a}"
    return f"{quote(sheet)}!{a}:${col_letter(col2 or col)}${row2}"


def _num(value: Any) -> Any:
    """Decimals as Excel numbers (exact text of the decimal is what openpyxl writes)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else value
    return value


def points_format(whole: bool) -> str:
    return "+0;-0;0" if whole else "+0.0;-0.0;0.0"


# ------------------------------------------------------------------------------------------------
# Layout


@dataclass(frozen=True)
class LeagueCols:
    """Column numbers of a league tab with ``n`` seats (players, scores, ... blocks)."""

    n: int

    @property
    def players(self) -> list[int]:
        return list(range(5, 5 + self.n))

    @property
    def scores(self) -> list[int]:
        return list(range(5 + self.n, 5 + 2 * self.n))

    @property
    def deposits(self) -> int:
        return 5 + 2 * self.n

    @property
    def penalties(self) -> list[int]:
        return list(range(6 + 2 * self.n, 6 + 3 * self.n))

    @property
    def check(self) -> int:
        return 6 + 3 * self.n

    @property
    def results(self) -> list[int]:
        return list(range(7 + 3 * self.n, 7 + 4 * self.n))

    @property
    def places(self) -> list[int]:
        return list(range(7 + 4 * self.n, 7 + 5 * self.n))

    @property
    def last(self) -> int:
        """Hidden helper: the last place of the row (0 when unsettled)."""
        return 7 + 5 * self.n


@dataclass(frozen=True)
class StandCols:
    """Columns of a standings tab: the visible table, then hidden helpers."""

    n: int

    @property
    def visible(self) -> int:
        return 6 + 2 * self.n + 1

    def count(self, place: int) -> int:
        return 6 + place

    def rate(self, place: int) -> int:
        return 6 + self.n + place

    @property
    def last_avoid(self) -> int:
        return 7 + 2 * self.n

    # hidden helpers, one row per roster slot
    @property
    def h_name(self) -> int:
        return self.visible + 3

    @property
    def h_games(self) -> int:
        return self.h_name + 1

    @property
    def h_total(self) -> int:
        return self.h_name + 2

    @property
    def h_psum(self) -> int:
        return self.h_name + 3

    def h_count(self, place: int) -> int:
        return self.h_name + 3 + place

    @property
    def h_last(self) -> int:
        return self.h_name + 4 + self.n

    @property
    def h_avgp(self) -> int:
        return self.h_last + 1

    @property
    def h_key(self) -> int:
        return self.h_last + 2

    @property
    def h_order(self) -> int:
        return self.h_last + 3

    @property
    def h_idx(self) -> int:
        return self.h_last + 4


RULES_FIRST = 5  # first row of the key/value table of a rules sheet
PLAYERS_FIRST = 5


def rules_row(key: str) -> int:
    return RULES_FIRST + FIELDS.index(key)


def sheet_names(book: Book) -> dict[str, Any]:
    """Every sheet's name for this book (checked for Excel's 31-character limit)."""
    lang = book.lang
    names: dict[str, Any] = {
        "start": label("sheet_start", lang),
        "players": label("sheet_players", lang),
        "presets": label("sheet_presets", lang),
        "overall": label("sheet_overall", lang),
        "rules": [label("sheet_rules", lang, name=r.name)[:SHEET_NAME_MAX] for r in book.rules],
        "standings": [],
    }
    taken = {names["start"].lower(), names["players"].lower(), names["presets"].lower(),
             names["overall"].lower(), CONF_SHEET, META_SHEET.lower(),
             *(n.lower() for n in names["rules"])}
    for league in book.leagues:
        if len(league.name) > SHEET_NAME_MAX:
            from umaoka.engine import UmaokaError

            raise UmaokaError(f'league name "{league.name}" is longer than Excel\'s '
                              f"{SHEET_NAME_MAX} characters for a sheet name; shorten it.")
        if league.name.lower() in taken:
            from umaoka.engine import UmaokaError

            raise UmaokaError(f'league name "{league.name}" is already a sheet of the '
                              "template; choose another name.")
        taken.add(league.name.lower())
    for league in book.leagues:
        base = label("sheet_league_standings", book.lang, name=league.name)
        if len(base) > SHEET_NAME_MAX:
            base = label("sheet_league_standings", book.lang,
                         name=league.name[: SHEET_NAME_MAX - len(base) + len(league.name)])
        name, i = base, 2
        while name.lower() in taken:
            name = f"{base[: SHEET_NAME_MAX - 3]} {i}"
            i += 1
        taken.add(name.lower())
        names["standings"].append(name)
    return names


def roster_size(book: Book) -> int:
    return max(16, len(book.players) + 6)


def game_rows(league: League, settled: bool) -> int:
    if settled:
        return max(len(league.games), 1)
    return max(MIN_GAMES, len(league.games) + SPARE_GAMES)


# ------------------------------------------------------------------------------------------------
# The sheets


class Builder:
    def __init__(self, book: Book, settled: bool,
                 outcomes: list[list[Outcome | None]] | None = None,
                 origin: Origin | None = None, lite_code_inside: bool = False):
        self.book = book
        self.settled = settled
        self.origin = origin
        self.lite_code_inside = lite_code_inside
        self.lang = book.lang
        self.wb = Workbook()
        whole = all(r.ruleset.rounding != "none" for r in book.rules)
        self.st = Styles(self.wb, points_format(whole), locked_inputs=settled)
        self.names = sheet_names(book)
        self.roster = roster_size(book)
        self.outcomes: list[list[Outcome | None]] = []
        self.counted: list[list[tuple[Game, Settlement]]] = []
        self._standings: dict[int, list[PlayerStanding]] = {}
        # the template's saved values: what its formulas compute from the games it holds
        self.values: list[LeagueValues] = []
        self.slots: list[list[Slot]] = []
        if settled:
            for i, league in enumerate(book.leagues):
                out = (outcomes[i] if outcomes is not None
                       else settle_league(league, book.rules_of(league).ruleset))
                self.outcomes.append(out)
                self.counted.append(counted(league, out))
        else:
            names = self.roster_names()
            for league in book.leagues:
                r = book.rules_of(league).ruleset
                lv = league_values(league, r, game_rows(league, False), self.lang)
                self.values.append(lv)
                self.slots.append(league_slots(names, lv, r.players))

    def roster_names(self) -> list[str]:
        """What ``=Players!A5&""`` shows for every roster slot."""
        return [self.book.players[i] if i < len(self.book.players) else ""
                for i in range(self.roster)]

    def rules_summary(self, rules: Rules) -> str:
        """``mleague (players=4 ...)``, or ``mleague, edited (...)`` when changed from the preset;
        the values in brackets are always the ones used."""
        name = label("edited", self.lang, name=rules.name) if rules.edits() else rules.name
        return f"{name} ({rules.ruleset.text()})"

    def settled_note(self, rules: Rules) -> str:
        """The subtitle of a settled copy's league tab: what it is, from where, when."""
        o = self.origin or Origin(None, "", __version__)
        key = "note_settled" if o.source else "note_settled_anon"
        return label(key, self.lang, source=o.source, when=o.when, version=o.version,
                     rules=self.rules_summary(rules))

    def suffix(self, title: str) -> str:
        """A title, marked as the settled copy's when it is one."""
        return title + label("settled_suffix", self.lang) if self.settled else title

    def standings_of(self, index: int) -> list[PlayerStanding]:
        if index not in self._standings:
            self._standings[index] = league_standings(self.counted[index])
        return self._standings[index]

    def overall_rows(self) -> list[PlayerStanding]:
        """Standings of all leagues together (settled copy), computed once."""
        if -1 not in self._standings:
            if len(self.counted) == 1:
                self._standings[-1] = self.standings_of(0)
            else:
                self._standings[-1] = league_standings(
                    [g for league_games in self.counted for g in league_games])
        return self._standings[-1]

    # -- helpers ----------------------------------------------------------------------------
    def _title(self, ws: Worksheet, title: str, note: str) -> None:
        put(ws, 1, 1, title, self.st.get("title"), text=True)
        put(ws, 2, 1, note, self.st.get("subtitle"), text=True)
        ws.row_dimensions[1].height = 24

    def _protect(self, ws: Worksheet) -> None:
        p = ws.protection
        p.sheet = True
        p.autoFilter = False
        p.sort = False
        p.formatColumns = False
        p.formatRows = False

    def _print(self, ws: Worksheet, title_rows: str | None) -> None:
        ws.page_setup.orientation = "landscape"
        ws.page_setup.paperSize = ws.PAPERSIZE_A4
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 0
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.print_options.horizontalCentered = True
        ws.page_margins.left = ws.page_margins.right = 0.4
        ws.page_margins.top = ws.page_margins.bottom = 0.5
        if title_rows:
            ws.print_title_rows = title_rows
        ws.oddFooter.center.text = "&A - &P / &N"

    def _widths(self, ws: Worksheet, widths: dict[int, float]) -> None:
        for col, w in widths.items():
            ws.column_dimensions[col_letter(col)].width = w

    def _pts(self, whole: bool) -> str:
        return points_format(whole)

    # -- workbook ---------------------------------------------------------------------------
    def build(self) -> Workbook:
        wb = self.wb
        first = wb.active
        for i, league in enumerate(self.book.leagues):
            self.league_sheet(i, league)
            self.standings_sheet(i, league)
        if len(self.book.leagues) > 1:
            self.overall_sheet()
        self.players_sheet()
        for i, rules in enumerate(self.book.rules):
            self.rules_sheet(i, rules)
        self.presets_sheet()
        if not self.settled:
            conf = wb.create_sheet(CONF_SHEET)
            put(conf, 1, 1, "UDF Modules", text=True)
            put(conf, 1, 2, UDF_MODULE, text=True)
            conf.column_dimensions["A"].width = 16
            conf.column_dimensions["B"].width = 24
        self.start_sheet()
        self.meta_sheet()
        wb.remove(first)
        wb.active = 0
        # No fullCalcOnLoad: every formula carries its saved value, so a program that does
        # not recalculate shows the numbers; Excel recalculates anyway (openpyxl's older
        # calcId), and the add-in's functions calculate when it loads.
        wb.calculation.fullCalcOnLoad = False
        return wb

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

    def meta_sheet(self) -> None:
        ws = self.wb.create_sheet(META_SHEET)
        ws.sheet_state = "veryHidden"
        ws.append(["format", FORMAT_VERSION])
        ws.append(["lang", self.lang])
        ws.append(["settled", int(self.settled)])
        ws.append(self.book.runtime.meta())
        ws.append(["version", __version__])
        if self.settled and self.origin is not None:
            ws.append(["source", self.origin.source or ""])
            ws.append(["settled_at", self.origin.when])
        ws.append(["players", self.names["players"], PLAYERS_FIRST, self.roster])
        for i, r in enumerate(self.book.rules):
            ws.append(["rules", self.names["rules"][i], r.name, RULES_FIRST])
        for i, league in enumerate(self.book.leagues):
            ws.append(["league", league.name, self.names["standings"][i], league.rules,
                       self.book.rules_of(league).ruleset.players])
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str):
                    c.data_type = "s"

    # -- league tab -------------------------------------------------------------------------
    def results_formula(self, rules: Rules, cols: LeagueCols, first: int, last: int) -> str:
        """The Final scores block: one add-in call in its runtime's saved form, and while the
        functions are off one hint per game row with scores (first cell), blanks elsewhere.

        The fallback is an array of the block's shape: a row of column tests times a column
        of "has a score" tests, so the hint lands only in the first column.
        """
        sc = [col_letter(c) for c in cols.scores]
        res = [col_letter(c) for c in cols.results]
        dep = col_letter(cols.deposits)
        pen = (col_letter(cols.penalties[0]), col_letter(cols.penalties[-1]))
        call = (f"{self.book.runtime.call('MJ_SETTLE')}({sc[0]}{first}:{sc[-1]}{last},"
                f"{rules.defined_name},{dep}{first}:{dep}{last},"
                f"{pen[0]}{first}:{pen[1]}{last})")
        played = "+".join(f'({c}{first}:{c}{last}<>"")' for c in sc)
        hint = label("hint", self.lang).replace('"', '""')
        return (f'IFERROR({call},IF(COLUMN({res[0]}{first}:{res[-1]}{last})=COLUMN(${res[0]}$'
                f'{first}),IF({played},"{hint}",""),""))')

    def league_sheet(self, index: int, league: League) -> None:
        wb, st, lang = self.wb, self.st, self.lang
        rules = self.book.rules_of(league)
        r = rules.ruleset
        n = r.players
        cols = LeagueCols(n)
        ws = wb.create_sheet(league.name)
        rows = game_rows(league, self.settled)
        first, last = FIRST_ROW, FIRST_ROW + rows - 1
        pts = self._pts(r.rounding != "none")
        note = (self.settled_note(rules) if self.settled
                else label("note_league", lang, rules=self.rules_summary(rules)))
        self._title(ws, self.suffix(label("title_league", lang, name=league.name)), note)

        # block headers (row 3) and column headers (row 4)
        groups = [
            (cols.players, label("group_players", lang)),
            (cols.scores, label("group_scores", lang)),
            (cols.penalties, label("group_penalties", lang)),
            (cols.results, label("group_results", lang)),
            (cols.places, label("group_places", lang)),
        ]
        for block, text in groups:
            put(ws, 3, block[0], text, st.get("group"), text=True)
            for c in block[1:]:
                put(ws, 3, c, None, st.get("group"))
            ws.merge_cells(start_row=3, start_column=block[0], end_row=3, end_column=block[-1])
        headers = [label("date", lang), label("session", lang), label("table", lang),
                   label("game", lang)]
        headers += [seat_label(s, lang) for s in range(n)]
        headers += [label("score", lang, seat=seat_label(s, lang)) for s in range(n)]
        headers += [label("deposits", lang)]
        headers += [label("penalty", lang, seat=seat_label(s, lang)) for s in range(n)]
        headers += [label("check", lang)]
        headers += [label("final", lang, seat=seat_label(s, lang)) for s in range(n)]
        headers += [label("place", lang, seat=seat_label(s, lang)) for s in range(n)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        ws.row_dimensions[HEADER_ROW].height = 30

        s_inp = st.get("input")
        s_date = st.get("input", "yyyy-mm-dd")
        s_int = st.get("input", "0")
        s_score = st.get("input", "#,##0")
        s_pen = st.get("input", pts)
        s_check = st.get("formula")
        s_res = st.get("result", pts)
        s_place = st.get("formula", "0")
        s_help = st.get("helper", "0")
        rules_sheet = self.names["rules"][league.rules]
        start_ref = ref(rules_sheet, 2, rules_row("start"))
        ties_ref = ref(rules_sheet, 2, rules_row("ties"))
        sc = [col_letter(c) for c in cols.scores]
        res = [col_letter(c) for c in cols.results]
        plc = [col_letter(c) for c in cols.places]
        dep = col_letter(cols.deposits)
        lab_ok, lab_off = label("ok", lang), label("off_by", lang)
        lab_100, lab_miss = label("not_100", lang), label("missing", lang)
        outcomes = self.outcomes[index] if self.settled else []
        lv = self.values[index] if not self.settled else None
        games = league.games
        for i in range(rows):
            row = first + i
            g = games[i] if i < len(games) else None
            put(ws, row, 1, g.date if g else None, s_date)
            put(ws, row, 2, g.session if g else None, s_int, text=True)
            put(ws, row, 3, g.table if g else None, s_int, text=True)
            put(ws, row, 4, g.number if g else None, s_int, text=True)
            for s in range(n):
                put(ws, row, cols.players[s], g.players[s] if g else None, s_inp, text=True)
                put(ws, row, cols.scores[s], g.scores[s] if g else None, s_score, text=True)
                put(ws, row, cols.penalties[s],
                    g.penalties[s] if g and g.penalties else None, s_pen, text=True)
            put(ws, row, cols.deposits, g.deposits if g else None, s_score, text=True)
            if self.settled:
                o = outcomes[i] if i < len(outcomes) else None
                put(ws, row, cols.check, check_text(g, r, lang) if g else "", s_check,
                    text=True)
                finals: Sequence[Any] = [None] * n
                places: Sequence[Any] = [None] * n
                if o is not None and o.settlement is not None:
                    finals = [_num(v) for v in o.settlement.final]
                    places = o.settlement.places
                elif o is not None:
                    finals = [o.error] + [None] * (n - 1)
                for s in range(n):
                    put(ws, row, cols.results[s], finals[s], s_res, text=True)
                    put(ws, row, cols.places[s], places[s], s_place)
                put(ws, row, cols.last, max(places) if places[0] is not None else 0, s_help)
            else:
                assert lv is not None
                rng = f"{sc[0]}{row}:{sc[-1]}{row}"
                total = f"SUM({rng})+N({dep}{row})"
                put(ws, row, cols.check,
                    f'=IF(AND(COUNT({rng})=0,N({dep}{row})=0),"",'
                    f'IF(COUNT({rng})<{n},"{lab_miss}",'
                    f'IF({total}<>{start_ref}*{n},'
                    f'"{lab_off} "&TEXT({total}-{start_ref}*{n},"+#,##0;-#,##0"),'
                    f'IF(SUMPRODUCT(MOD({rng},100))<>0,"{lab_100}","{lab_ok}"))))', s_check)
                save_value(ws, row, cols.check, lv.check[i])
                for s in range(n):
                    put(ws, row, cols.results[s], None, s_res)
                    save_value(ws, row, cols.results[s], lv.results[i][s])
                    tie = ""
                    if s:
                        tie = (f'+IF({ties_ref}="seat",'
                               f'COUNTIF(${sc[0]}{row}:{sc[s - 1]}{row},"="&{sc[s]}{row}),0)')
                    put(ws, row, cols.places[s],
                        f'=IF(ISNUMBER({res[s]}{row}),1+COUNTIF(${sc[0]}{row}:${sc[-1]}{row},'
                        f'">"&{sc[s]}{row}){tie},"")', s_place)
                    save_value(ws, row, cols.places[s], lv.places[i][s])
                put(ws, row, cols.last,
                    f"=IF(ISNUMBER({plc[0]}{row}),MAX({plc[0]}{row}:{plc[-1]}{row}),0)", s_help)
                save_value(ws, row, cols.last, lv.last[i])
        if not self.settled:
            ws[f"{res[0]}{first}"] = ArrayFormula(
                f"{res[0]}{first}:{res[-1]}{last}",
                "=" + self.results_formula(rules, cols, first, last))

        # the games table (inputs and check; array formulas are not allowed inside tables)
        table = Table(displayName=f"Games_{index + 1}",
                      ref=f"A{HEADER_ROW}:{col_letter(cols.check)}{last}")
        table.tableStyleInfo = TableStyleInfo(name="TableStyleLight9", showRowStripes=False)
        ws.add_table(table)

        # validation: players from the roster, whole numbers for session/table/game
        if not self.settled:
            dv = DataValidation(type="list", formula1="RosterList", allow_blank=True,
                                showErrorMessage=False)
            dv.add(f"{col_letter(cols.players[0])}{first}:{col_letter(cols.players[-1])}{last}")
            ws.add_data_validation(dv)
            whole = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="1",
                                   allow_blank=True, showErrorMessage=True,
                                   error="Enter a whole number such as 1, 2, 3.")
            whole.add(f"B{first}:D{last}")
            ws.add_data_validation(whole)

        # conditional formats: green/red results, flagged checks, bold 1st places
        block = f"{res[0]}{first}:{res[-1]}{last}"
        ws.conditional_formatting.add(block, CellIsRule(
            operator="greaterThan", formula=["0"], font=Font(color="006100", bold=True),
            fill=PatternFill("solid", bgColor="C6EFCE")))
        ws.conditional_formatting.add(block, CellIsRule(
            operator="lessThan", formula=["0"], font=Font(color="9C0006", bold=True),
            fill=PatternFill("solid", bgColor="FFC7CE")))
        chk = f"{col_letter(cols.check)}{first}"
        ws.conditional_formatting.add(
            f"{chk}:{col_letter(cols.check)}{last}",
            FormulaRule(formula=[f'AND({chk}<>"",{chk}<>"{lab_ok}")'],
                        font=Font(color="9C0006", bold=True),
                        fill=PatternFill("solid", bgColor="FFC7CE")))
        ws.conditional_formatting.add(
            f"{plc[0]}{first}:{plc[-1]}{last}",
            CellIsRule(operator="equal", formula=["1"], font=Font(bold=True, color=NAVY)))

        widths = {1: 11, 2: 8, 3: 6, 4: 6, cols.deposits: 9, cols.check: 12}
        for s in range(n):
            widths[cols.players[s]] = 12
            widths[cols.scores[s]] = 9
            widths[cols.penalties[s]] = 7
            widths[cols.results[s]] = 9
            widths[cols.places[s]] = 7
        widths[cols.results[0]] = 12  # room for the hint while the functions are off
        self._widths(ws, widths)
        ws.column_dimensions[col_letter(cols.last)].hidden = True
        ws.freeze_panes = f"E{first}"
        self._print(ws, f"{HEADER_ROW - 1}:{HEADER_ROW}")
        ws.print_area = f"A1:{col_letter(cols.places[-1])}{last}"
        self._protect(ws)

    # -- standings --------------------------------------------------------------------------
    def _standings_frame(self, ws: Worksheet, n: int, whole: bool) -> StandCols:
        st, lang = self.st, self.lang
        sc = StandCols(n)
        headers = [label("rank", lang), label("player", lang), label("games", lang),
                   label("total", lang), label("average", lang), label("average_place", lang)]
        headers += [place_label(p, lang) for p in range(1, n + 1)]
        headers += [label("top_rate", lang)]
        headers += [label("rate", lang, place=place_label(p, lang)) for p in range(2, n + 1)]
        headers += [label("last_avoid_rate", lang)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        ws.row_dimensions[HEADER_ROW].height = 30
        widths = {1: 8, 2: 16, 3: 7, 4: 9, 5: 8, 6: 8}
        for p in range(1, n + 1):
            widths[sc.count(p)] = 6
            widths[sc.rate(p)] = 8
        widths[sc.last_avoid] = 10
        self._widths(ws, widths)
        ws.freeze_panes = f"C{HEADER_ROW + 1}"
        pts = self._pts(whole)
        total_col = col_letter(4)
        first, last = HEADER_ROW + 1, HEADER_ROW + self.roster
        ws.conditional_formatting.add(f"{total_col}{first}:{col_letter(5)}{last}", CellIsRule(
            operator="greaterThan", formula=["0"], font=Font(color="006100", bold=True)))
        ws.conditional_formatting.add(f"{total_col}{first}:{col_letter(5)}{last}", CellIsRule(
            operator="lessThan", formula=["0"], font=Font(color="9C0006", bold=True)))
        self._pts_fmt = pts
        return sc

    def _visible_styles(self, sc: StandCols, n: int) -> list[Any]:
        st, pts = self.st, self._pts_fmt
        styles = [st.get("formula", "0"), st.get("result"), st.get("formula", "0"),
                  st.get("result", pts), st.get("formula", "+0.00;-0.00;0.00"),
                  st.get("formula", "0.00")]
        styles += [st.get("formula", "0")] * n
        styles += [st.get("formula", "0.0%")] * n
        styles += [st.get("formula", "0.0%")]
        return styles

    def _write_visible_values(self, ws: Worksheet, sc: StandCols, n: int,
                              rows: list[PlayerStanding]) -> None:
        styles = self._visible_styles(sc, n)
        table = standings_table(rows)[1:]
        for k in range(self.roster):
            row = HEADER_ROW + 1 + k
            values: list[Any] = [None] * sc.visible
            if k < len(rows):
                p, rank = rows[k], table[k][0]
                g = Decimal(p.games)
                values = [rank, p.name, p.games, _num(p.total), p.average, p.average_place]
                places = list(p.places) + [0] * (n - len(p.places))
                values += places[:n]
                values += [(Decimal(c) / g).quantize(Decimal("0.0001")) for c in places[:n]]
                values += [p.last_avoid_rate]
            for c, v in enumerate(values, 1):
                put(ws, row, c, v, styles[c - 1], text=(c == 2))

    def _write_visible_formulas(self, ws: Worksheet, sc: StandCols, n: int,
                                slots: list[Slot]) -> None:
        styles = self._visible_styles(sc, n)
        first, last = HEADER_ROW + 1, HEADER_ROW + self.roster
        saved = visible_rows(slots, n)

        def rng(col: int) -> str:
            return f"${col_letter(col)}${first}:${col_letter(col)}${last}"

        for k in range(self.roster):
            row = first + k
            idx = f"${col_letter(sc.h_idx)}{row}"

            def at(col: int, idx: str = idx) -> str:
                return f"INDEX({rng(col)},{idx})"

            games = at(sc.h_games)
            formulas = [
                f"1+COUNTIF({rng(sc.h_key)},\">\"&{at(sc.h_key)})",
                at(sc.h_name),
                games,
                at(sc.h_total),
                f"{at(sc.h_total)}/{games}",
                f"{at(sc.h_psum)}/{games}",
            ]
            formulas += [at(sc.h_count(p)) for p in range(1, n + 1)]
            formulas += [f"{at(sc.h_count(p))}/{games}" for p in range(1, n + 1)]
            formulas += [f"1-{at(sc.h_last)}/{games}"]
            for c, f in enumerate(formulas, 1):
                put(ws, row, c, f'=IF({idx}="","",{f})', styles[c - 1])
                save_value(ws, row, c, saved[k][c - 1])

    def _helpers(self, ws: Worksheet, sc: StandCols, n: int,
                 parts: dict[str, Any], slots: list[Slot]) -> None:
        """Hidden per-player helper columns; ``parts`` gives the games..last formulas."""
        st = self.st
        first, last = HEADER_ROW + 1, HEADER_ROW + self.roster
        hs = st.get("helper")
        titles = ["name", "games", "total", "place sum"] + [f"n{p}" for p in range(1, n + 1)]
        titles += ["lasts", "avg place", "sort key", "order", "index"]
        for c, t in enumerate(titles, sc.h_name):
            put(ws, HEADER_ROW, c, t, hs, text=True)
        players = self.names["players"]

        def rng(col: int) -> str:
            return f"${col_letter(col)}${first}:${col_letter(col)}${last}"

        for i in range(self.roster):
            row = first + i
            L = {c: f"${col_letter(c)}{row}" for c in range(sc.h_name, sc.h_idx + 1)}
            name = L[sc.h_name]
            put(ws, row, sc.h_name, f"={ref(players, 1, PLAYERS_FIRST + i)}&\"\"", hs)
            put(ws, row, sc.h_games, parts["games"](row, name), hs)
            put(ws, row, sc.h_total, parts["total"](row, name), hs)
            put(ws, row, sc.h_psum, parts["psum"](row, name), hs)
            for p in range(1, n + 1):
                put(ws, row, sc.h_count(p), parts["count"](row, name, p), hs)
            put(ws, row, sc.h_last, parts["last"](row, name), hs)
            g = L[sc.h_games]
            put(ws, row, sc.h_avgp, f"=IF({g}>0,ROUND({L[sc.h_psum]}/{g},2),99)", hs)
            put(ws, row, sc.h_key, f"=IF({g}>0,{L[sc.h_total]},-1000000000)", hs)
            key, avgp = L[sc.h_key], L[sc.h_avgp]
            above_k = f"{col_letter(sc.h_key)}${HEADER_ROW}:{col_letter(sc.h_key)}{row - 1}"
            above_a = f"{col_letter(sc.h_avgp)}${HEADER_ROW}:{col_letter(sc.h_avgp)}{row - 1}"
            put(ws, row, sc.h_order,
                f'=IF({g}>0,1+COUNTIF({rng(sc.h_key)},">"&{key})'
                f'+COUNTIFS({rng(sc.h_key)},{key},{rng(sc.h_avgp)},"<"&{avgp})'
                f"+COUNTIFS({above_k},{key},{above_a},{avgp}),\"\")", hs)
            put(ws, row, sc.h_idx, f'=IFERROR(MATCH({i + 1},{rng(sc.h_order)},0),"")', hs)
            slot = slots[i]
            saved = [slot.name, slot.games, _num(slot.total), slot.psum, *slot.counts,
                     slot.lasts, _num(slot.avgp), _num(slot.key), slot.order, slot.index]
            for c, v in enumerate(saved, sc.h_name):
                save_value(ws, row, c, v)
        for c in range(sc.h_name, sc.h_idx + 1):
            ws.column_dimensions[col_letter(c)].hidden = True

    def standings_sheet(self, index: int, league: League) -> None:
        rules = self.book.rules_of(league)
        n = rules.ruleset.players
        whole = rules.ruleset.rounding != "none"
        ws = self.wb.create_sheet(self.names["standings"][index])
        self._title(ws, self.suffix(label("title_standings", self.lang, name=league.name)),
                    label("note_standings" if self.settled else "note_standings_live",
                          self.lang))
        sc = self._standings_frame(ws, n, whole)
        cols = LeagueCols(n)
        rows = game_rows(league, self.settled)
        g1, g2 = FIRST_ROW, FIRST_ROW + rows - 1
        sheet = league.name

        def col(c: int) -> str:
            return ref(sheet, c, g1, g2)

        P = [col(c) for c in cols.players]
        F = [col(c) for c in cols.results]
        PL = [col(c) for c in cols.places]
        LAST = col(cols.last)

        def plus(terms: list[str]) -> str:
            return "+".join(terms)

        if self.settled:
            self._write_visible_values(ws, sc, n, self.standings_of(index))
        else:
            self._write_visible_formulas(ws, sc, n, self.slots[index])
            self._helpers(ws, sc, n, {
                "games": lambda r, x: f'=IF({x}="",0,'
                + plus([f'COUNTIFS({P[s]},{x},{PL[s]},">0")' for s in range(n)]) + ")",
                "total": lambda r, x: f'=IF({x}="",0,ROUND('
                + plus([f"SUMIFS({F[s]},{P[s]},{x})" for s in range(n)]) + ",1))",
                "psum": lambda r, x: f'=IF({x}="",0,'
                + plus([f"SUMIFS({PL[s]},{P[s]},{x})" for s in range(n)]) + ")",
                "count": lambda r, x, p: f'=IF({x}="",0,'
                + plus([f"COUNTIFS({P[s]},{x},{PL[s]},{p})" for s in range(n)]) + ")",
                "last": lambda r, x: f'=IF({x}="",0,'
                + plus([f"SUMPRODUCT(({P[s]}={x})*({PL[s]}={LAST}))" for s in range(n)])
                + ")",
            }, self.slots[index])
        self._chart(ws, index, league, sc, n, P, F)
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        ws.page_setup.fitToHeight = 1
        self._protect(ws)

    def _chart(self, ws: Worksheet, index: int, league: League, sc: StandCols, n: int,
               P: list[str], F: list[str]) -> None:
        st, lang = self.st, self.lang
        top = HEADER_ROW + self.roster + 2
        data_row = top + 20  # chart: 18 rows high
        hdr = data_row + 1
        series = min(CHART_SERIES, self.roster)
        put(ws, data_row, 1, label("chart_title", lang), st.get("title"), text=True)
        put(ws, hdr, 1, label("chart_x", lang), st.get("header"), text=True)
        pts = self._pts_fmt
        if self.settled:
            games = self.counted[index]
            rows = self.standings_of(index)
            names = [p.name for p in rows[:series]]
            sessions, cum = cumulative(games, names)
            for k in range(series):
                put(ws, hdr, 2 + k, names[k] if k < len(names) else "-", st.get("header"),
                    text=True)
            for j, s in enumerate(sessions):
                put(ws, hdr + 1 + j, 1, s, st.get("key", "0"), text=True)
                for k, name in enumerate(names):
                    put(ws, hdr + 1 + j, 2 + k, _num(cum[name][j]), st.get("formula", pts))
            count = max(len(sessions), 1)
        else:
            numeric = [g.session for g in league.games if isinstance(g.session, int)]
            count = max(12, max(numeric, default=0))
            rows_n = game_rows(league, False)
            sess = ref(league.name, 2, FIRST_ROW, FIRST_ROW + rows_n - 1)
            shown = visible_rows(self.slots[index], n)
            plotted = [row[1] if row[1] != "" else "-" for row in shown[:series]]
            points = chart_values(plotted, self.values[index], n, count)
            for k in range(series):
                name_cell = f"$B${HEADER_ROW + 1 + k}"
                put(ws, hdr, 2 + k, f'=IF({name_cell}="","-",{name_cell})', st.get("header"))
                save_value(ws, hdr, 2 + k, plotted[k])
            for j in range(count):
                r = hdr + 1 + j
                put(ws, r, 1, j + 1, st.get("key", "0"))
                for k in range(series):
                    h = f"{col_letter(2 + k)}${hdr}"
                    terms = "+".join(f'SUMIFS({F[s]},{P[s]},{h},{sess},"<="&$A{r})'
                                     for s in range(n))
                    put(ws, r, 2 + k, f'=IF(OR({h}="-",$A{r}>MAX({sess})),NA(),'
                        f"ROUND({terms},1))", st.get("formula", pts))
                    v = points[j][k]
                    save_value(ws, r, 2 + k, CellError("#N/A") if v is None else v)
            ws.conditional_formatting.add(
                f"B{hdr + 1}:{col_letter(1 + series)}{hdr + count}",
                FormulaRule(formula=[f"ISERROR(B{hdr + 1})"], font=Font(color="F2F2F2")))
        chart = LineChart()
        chart.title = label("chart_title", lang)
        chart.y_axis.title = label("chart_y", lang)
        chart.x_axis.title = label("chart_x", lang)
        chart.x_axis.delete = False
        chart.x_axis.tickLblPos = "low"  # session numbers below the plot, not on the zero line
        chart.y_axis.delete = False
        chart.height = 8.5
        chart.width = 24
        chart.legend.position = "r"
        data = Reference(ws, min_col=2, max_col=1 + series, min_row=hdr, max_row=hdr + count)
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=1, min_row=hdr + 1, max_row=hdr + count))
        for s in chart.series:
            s.smooth = False
            s.marker.symbol = "none" if count > 40 else "circle"
        ws.add_chart(chart, f"A{top}")
        # print the standings and the chart on one page (the session table stays on screen)
        ws.print_area = f"A1:{col_letter(sc.visible)}{data_row - 1}"

    def overall_sheet(self) -> None:
        leagues = self.book.leagues
        n = max(self.book.rules_of(lg).ruleset.players for lg in leagues)
        whole = all(self.book.rules_of(lg).ruleset.rounding != "none" for lg in leagues)
        ws = self.wb.create_sheet(self.names["overall"], 0)
        self._title(ws, self.suffix(label("title_overall", self.lang)),
                    label("note_overall" if self.settled else "note_overall_live", self.lang))
        sc = self._standings_frame(ws, n, whole)
        if self.settled:
            self._write_visible_values(ws, sc, n, self.overall_rows())
        else:
            slots = overall_slots(self.roster_names(), self.slots, n)
            self._write_visible_formulas(ws, sc, n, slots)
            sheets = [(self.names["standings"][i], StandCols(self.book.rules_of(lg).ruleset
                                                              .players))
                      for i, lg in enumerate(leagues)]

            def total(pick: Any) -> Any:
                def f(r: int, x: str, *args: Any) -> str:
                    terms = [f"{quote(s)}!{col_letter(c)}{r}" for s, lc in sheets
                             if (c := pick(lc, *args)) is not None]
                    return "=" + ("+".join(terms) if terms else "0")
                return f

            self._helpers(ws, sc, n, {
                "games": total(lambda lc: lc.h_games),
                "total": lambda r, x: "=ROUND(" + total(lambda lc: lc.h_total)(r, x)[1:] + ",1)",
                "psum": total(lambda lc: lc.h_psum),
                "count": total(lambda lc, p: lc.h_count(p) if p <= lc.n else None),
                "last": total(lambda lc: lc.h_last),
            }, slots)
        ws.print_area = f"A1:{col_letter(sc.visible)}{HEADER_ROW + self.roster}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)

    # -- players, rules, presets ------------------------------------------------------------
    def players_sheet(self) -> None:
        st, lang = self.st, self.lang
        ws = self.wb.create_sheet(self.names["players"])
        self._title(ws, self.suffix(label("title_players", lang)),
                    label("note_players_settled" if self.settled else "note_players", lang))
        put(ws, HEADER_ROW, 1, label("player", lang), st.get("header"), text=True)
        for i in range(self.roster):
            name = self.book.players[i] if i < len(self.book.players) else None
            put(ws, PLAYERS_FIRST + i, 1, name, st.get("input"), text=True)
        last = PLAYERS_FIRST + self.roster - 1
        sheet = self.names["players"]
        self.wb.defined_names["Roster"] = DefinedName(
            "Roster", attr_text=ref(sheet, 1, PLAYERS_FIRST, last))
        self.wb.defined_names["RosterList"] = DefinedName(
            "RosterList", attr_text=f"OFFSET({ref(sheet, 1, PLAYERS_FIRST)},0,0,"
            f"MAX(1,COUNTA({ref(sheet, 1, PLAYERS_FIRST, last)})),1)")
        ws.column_dimensions["A"].width = 24
        ws.freeze_panes = f"A{PLAYERS_FIRST}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        ws.page_setup.orientation = "portrait"
        self._protect(ws)

    def rules_sheet(self, index: int, rules: Rules) -> None:
        st, lang = self.st, self.lang
        ws = self.wb.create_sheet(self.names["rules"][index])
        r = rules.ruleset
        edits = rules.edits()
        if edits:  # the heading names the values actually used, not the preset's
            changes = "; ".join(label("edit", lang, field=k, used=now, was=was)
                                for k, (was, now) in edits.items())
            desc = label("edited_from", lang, name=rules.name, changes=changes)
        else:
            preset = PRESETS.get(rules.name)  # an older workbook may hold an older preset
            desc = preset.description if preset and preset.ruleset == r else r.text()
        note = label("note_rules_settled" if self.settled else "note_rules", lang)
        self._title(ws, self.suffix(label("title_rules", lang, name=rules.name)),
                    f"{note} ({desc})")
        for c, key in enumerate(("key", "value", "note"), 1):
            put(ws, HEADER_ROW, c, label(key, lang), st.get("header"), text=True)
        values = r.values()
        for i, key in enumerate(FIELDS):
            row = RULES_FIRST + i
            put(ws, row, 1, key, st.get("key"), text=True)
            v = values[key]
            put(ws, row, 2, v, st.get("input", "0" if isinstance(v, int) else "@"), text=True)
            put(ws, row, 3, field_help(key, lang), st.get("note"), text=True)
            ws.row_dimensions[row].height = 15 * note_lines(field_help(key, lang))
            if self.settled:
                continue
            if key in CHOICES:
                dv = DataValidation(type="list", formula1='"' + ",".join(CHOICES[key]) + '"',
                                    allow_blank=False, showErrorMessage=True,
                                    error=f"Choose one of {', '.join(CHOICES[key])}.")
                dv.add(f"B{row}")
                ws.add_data_validation(dv)
            elif key in ("start", "target"):
                dv = DataValidation(type="whole", operator="greaterThan", formula1="0",
                                    showErrorMessage=True,
                                    error="Enter points in full, e.g. 25000.")
                dv.add(f"B{row}")
                ws.add_data_validation(dv)
        last = RULES_FIRST + len(FIELDS) - 1
        self.wb.defined_names[rules.defined_name] = DefinedName(
            rules.defined_name, attr_text=ref(self.names["rules"][index], 1, RULES_FIRST, last,
                                              2))
        self._widths(ws, {1: 12, 2: 30, 3: 80})
        ws.freeze_panes = f"A{RULES_FIRST}"
        self._print(ws, None)
        self._protect(ws)

    def presets_sheet(self) -> None:
        st, lang = self.st, self.lang
        ws = self.wb.create_sheet(self.names["presets"])
        self._title(ws, label("title_presets", lang), label("note_presets", lang))
        headers = [label("preset", lang), *FIELDS, label("description", lang),
                   label("source", lang)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        for i, p in enumerate(PRESETS.values()):
            row = HEADER_ROW + 1 + i
            values = [p.name, *p.ruleset.values().values(), p.description, p.source]
            for c, v in enumerate(values, 1):
                put(ws, row, c, v, st.get("key" if c == 1 else "note"), text=True)
        self._widths(ws, {1: 18, 2: 8, 3: 8, 4: 8, 5: 6, 6: 14, 7: 22, 8: 20, 9: 11, 10: 7,
                          11: 10, 12: 9, 13: 60, 14: 28})
        ws.freeze_panes = f"B{HEADER_ROW + 1}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)


def build_workbook(book: Book, settled: bool = False,
                   outcomes: list[list[Outcome | None]] | None = None,
                   origin: Origin | None = None, lite_code_inside: bool = False) -> Workbook:
    """The league workbook of ``book``: a template with formulas, or its settled copy.

    ``outcomes`` (settled copy only) are the engine's results of every row, when the
    caller has them already (see :func:`settle_outcomes`); ``origin`` says where a settled
    copy comes from. ``lite_code_inside``: the Start sheet says xlwings Lite's code is in
    the file (when the caller adds it after saving).
    """
    return Builder(book, settled, outcomes, origin, lite_code_inside).build()


def write_league(book: Book, path: Path, force: bool = False, inputs: tuple[Path, ...] = (),
                 after_save: Callable[[Path], Any] | None = None,
                 lite_code_inside: bool = False) -> Path:
    """Write the workbook with formulas for ``book.runtime``: the one save step of
    ``umaoka new``, ``demo`` and ``runtime``.

    Never over an input, nor over an existing file without ``force``; atomic.
    ``after_save(tmp)`` runs on the saved file before it is moved into place (the hook for
    parts openpyxl does not write, such as xlwings Lite's code).
    """
    wb = build_workbook(book, lite_code_inside=lite_code_inside)
    return save_workbook(wb, path, force=force, inputs=inputs, after_save=after_save)


def settle_outcomes(book: Book) -> list[list[Outcome | None]]:
    """The engine's outcome of every row of every league (for reports)."""
    return [settle_league(lg, book.rules_of(lg).ruleset) for lg in book.leagues]
