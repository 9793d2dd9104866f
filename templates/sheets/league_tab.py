"""A league's games tab: dates, players, raw scores, deposits, penalties, the check column,
final scores (one MJ_SETTLE array block, or the engine's values in a settled copy) and
places."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Font, PatternFill
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.formula import ArrayFormula
from openpyxl.worksheet.table import Table, TableStyleInfo

from umaoka.templates.book.labels import label, seat_label
from umaoka.templates.book.layout import HEADER_ROW, LeagueCols, game_rows, league_cols, rules_row
from umaoka.templates.book.model import League, Rules
from umaoka.templates.book.results import FIRST_ROW, check_text
from umaoka.templates.sheets.base import SheetWriter, roster_validation
from umaoka.templates.sheets.row_check import row_formulas
from umaoka.templates.xlsx.cells import ABSENT, ROW
from umaoka.templates.xlsx.styles import (
    NAVY,
    growing_print_area,
    num,
    put,
    put_row,
    ref,
)


class LeagueTab(SheetWriter):
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
        first_col = f"COLUMN({res[0]}{first}:{res[-1]}{last})=COLUMN(${res[0]}${first})"
        fallback = f'IF({first_col},IF({played},"{hint}",""),"")'
        if not cols.given:
            return f"IFERROR({call},{fallback})"
        # rows settled by a platform keep its finals (every seat's, else a message). The
        # IFERROR wraps the whole choice, its fallback the same choice without the call:
        # LibreOffice turns IF(cond,finals,IFERROR(unknown call,...)) into #NAME? for the
        # whole block, while the platform finals need no add-in to show
        g = [col_letter(c) for c in cols.given_cols]
        count = "+".join(f"ISNUMBER({c}{first}:{c}{last})" for c in g)
        typed = "+".join(f'({c}{first}:{c}{last}<>"")' for c in g)
        missing = label("given_missing", self.lang).replace('"', '""')

        def choice(rest: str) -> str:
            return (f"IF(({count})={cols.n},{g[0]}{first}:{g[-1]}{last},"
                    f'IF(({typed})>0,IF({first_col},"{missing}",""),{rest}))')

        return f"IFERROR({choice(call)},{choice(fallback)})"

    def league_sheet(self, index: int, league: League) -> None:
        wb, st, lang = self.wb, self.st, self.lang
        rules = self.book.rules_of(league)
        r = rules.ruleset
        n = r.players
        cols = league_cols(league, n)
        ws = wb.create_sheet(league.name)
        rows = game_rows(league, self.settled)
        first, last = FIRST_ROW, FIRST_ROW + rows - 1
        pts = self._pts(r.rounding != "none", league)
        note = (self.settled_note(rules) if self.settled
                else label("note_league", lang, rules=self.rules_summary(rules)))
        # the note wrapped over the columns repeated on every printed page (two wide)
        self._title(ws, self.suffix(label("title_league", lang, name=league.name)), note,
                    across=cols.players[-1])

        # block headers (row 3) and column headers (row 4)
        groups = [
            (cols.players, label("group_players", lang)),
            (cols.scores, label("group_scores", lang)),
            (cols.penalties, label("group_penalties", lang)),
            (cols.chip_cols, label("group_chips", lang)),
            (cols.sub_cols, label("group_subs", lang)),
            *([(cols.given_cols, label("group_given", lang))] if cols.given else []),
            (cols.results, label("group_results", lang)),
            (cols.places, label("group_places", lang)),
        ]
        for block, text in groups:
            if not block:
                continue
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
        headers += [label("chips", lang, seat=seat_label(s, lang)) for s in cols.chip_cols
                    and range(n)]
        headers += [label("sub", lang, seat=seat_label(s, lang)) for s in cols.sub_cols
                    and range(n)]
        headers += [label("given", lang, seat=seat_label(s, lang))
                    for s in range(n) if cols.given]
        headers += [label("check", lang)]
        headers += [label("final", lang, seat=seat_label(s, lang)) for s in range(n)]
        headers += [label("place", lang, seat=seat_label(s, lang)) for s in range(n)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        ws.row_dimensions[HEADER_ROW].height = 30

        s_inp = st.get("input", "@")  # names as typed: 007 stays 007 (Text format)
        s_date = st.get("input", "yyyy-mm-dd")
        s_int = st.get("input", "0")
        s_score = st.get("input", "#,##0")
        s_pen = st.get("input", pts)
        s_res_in = st.get("input", "+0.0;-0.0;0.0")
        s_chips = st.get("input", "+0;-0;0")
        s_check = st.get("formula_wrap" if self.settled else "formula")  # a long one wraps
        s_res = st.get("result", pts)
        s_place = st.get("formula", "0")
        s_help = st.get("helper", "0")
        rules_sheet = self.names["rules"][league.rules]
        start_ref = ref(rules_sheet, 2, rules_row("start"))
        ties_ref = ref(rules_sheet, 2, rules_row("ties"))
        res = [col_letter(c) for c in cols.results]
        plc = [col_letter(c) for c in cols.places]
        lab_ok, lab_platform = label("ok", lang), label("by_platform", lang)
        outcomes = self.outcomes[index] if self.settled else []
        caps = self.over_caps(league, n)
        lv = self.values[index] if not self.settled else None
        games = league.games
        if not self.settled:
            check_formula, helper_formulas, place_formulas, last_formula = \
                row_formulas(self.lang, cols, n, start_ref, ties_ref,
                             self.cap_check(cols, first, ROW, league))  # type: ignore[attr-defined]
        # each row's cells as lists by column, handed over at once (put_row): the
        # 50,000 rows of a big league are millions of cells
        width = max(*cols.helpers, cols.check, *cols.places, *cols.results) + 1
        blank_values = [ABSENT] * width
        row_styles = [None] * width
        inputs = [(1, s_date), (2, s_int), (3, s_int), (4, s_int), (cols.deposits, s_score)]
        for s in range(n):
            inputs += [(cols.players[s], s_inp), (cols.scores[s], s_score),
                       (cols.penalties[s], s_pen)]
            inputs += [(cols.chip_cols[s], s_chips)] if cols.chip_cols else []
            inputs += [(cols.sub_cols[s], s_inp)] if cols.sub_cols else []
            inputs += [(cols.given_cols[s], s_res_in)] if cols.given else []
        helpers = [] if self.settled else list(helper_formulas)
        for c, style in [*inputs, (cols.check, s_check), (cols.last, s_help),
                         *((c, s_help) for c in helpers),
                         *((c, s_res) for c in cols.results),
                         *((c, s_place) for c in cols.places)]:
            row_styles[c] = style
            blank_values[c] = None
        formulas = list(blank_values)
        if not self.settled:
            formulas[cols.check], formulas[cols.last] = check_formula, last_formula
            for c, f in helper_formulas.items():
                formulas[c] = f
            for s in range(n):
                formulas[cols.places[s]] = place_formulas[s]
        longest = 0  # the check column's longest text, in character widths
        for i in range(rows):
            row = first + i
            g = games[i] if i < len(games) else None
            values = list(blank_values if self.settled else formulas)
            if g is not None:  # a date becomes a cell of its own in put_row
                values[1], values[2], values[3], values[4] = g.date, g.session, g.table, g.number
                values[cols.deposits] = g.deposits
                for s in range(n):
                    values[cols.players[s]] = g.players[s]
                    values[cols.scores[s]] = g.scores[s]
                    values[cols.penalties[s]] = g.penalties[s] if g.penalties else None
                    if cols.chip_cols:
                        values[cols.chip_cols[s]] = _seat(g.chips, s)
                    if cols.sub_cols:
                        values[cols.sub_cols[s]] = _seat(g.subs, s)
                    if cols.given:
                        values[cols.given_cols[s]] = g.given[s] if s < len(g.given) else None
            if self.settled:
                o = outcomes[i] if i < len(outcomes) else None
                values[cols.check] = (_capped(check_text(g, r, lang, self.book.players), caps,
                                              i, lang) if g else "")
                longest = max(longest, _text_width(values[cols.check]))
                finals: Sequence[Any] = [None] * n
                places: Sequence[Any] = [None] * n
                if o is not None and o.settlement is not None:
                    finals = [num(v) for v in o.settlement.final]
                    places = o.settlement.places
                elif o is not None:
                    finals = [o.error] + [None] * (n - 1)
                for s in range(n):
                    values[cols.results[s]] = finals[s]
                    values[cols.places[s]] = places[s]
                values[cols.last] = max(places) if places[0] is not None else 0
                put_row(ws, row, values, list(row_styles))
                if o is not None and o.settlement is None:
                    self._whole_message(ws, row, cols, str(o.error), values[cols.check])
            else:
                assert lv is not None
                # the row's formulas: the same text on every row but for its number, one
                # object for the whole column (a league of 50,000 rows holds no copies)
                saved = [ABSENT] * width
                saved[cols.check] = _capped(lv.check[i], caps, i, lang)
                longest = max(longest, _text_width(saved[cols.check]))
                for s in range(n):
                    saved[cols.results[s]] = lv.results[i][s]
                    saved[cols.places[s]] = lv.places[i][s]
                saved[cols.last] = lv.last[i]
                if cols.check_scores in helper_formulas:
                    saved[cols.check_scores] = lv.check_scores[i]
                if cols.check_names in helper_formulas:
                    saved[cols.check_names] = lv.check_names[i]
                if cols.check_caps in helper_formulas:
                    saved[cols.check_caps] = (f"{label('over_cap', lang)}: {caps[i]}"
                                              if i < len(caps) and caps[i] else "")
                placed = [v for v in lv.places[i] if _is_place(v)]
                for s in range(n):
                    p = lv.places[i][s]
                    saved[cols.worst[s]] = sum(q <= p for q in placed) if _is_place(p) else 0
                    saved[cols.tied[s]] = sum(q == p for q in placed) if _is_place(p) else 1
                put_row(ws, row, values, list(row_styles), saved)
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
            dv = roster_validation(lang)
            dv.add(f"{col_letter(cols.players[0])}{first}:{col_letter(cols.players[-1])}{last}")
            ws.add_data_validation(dv)
            whole = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="1",
                                   allow_blank=True, showErrorMessage=True,
                                   error="Enter a whole number such as 1, 2, 3.")
            whole.add(f"B{first}:D{last}")
            if cols.chip_cols:
                chips = DataValidation(type="whole", operator="between", formula1="-1000",
                                       formula2="1000", allow_blank=True, showErrorMessage=True,
                                       error="Enter the chip count, e.g. 2 or -1.")
                chips.add(f"{col_letter(cols.chip_cols[0])}{first}:"
                          f"{col_letter(cols.chip_cols[-1])}{last}")
                ws.add_data_validation(chips)
            ws.add_data_validation(whole)
            # a score typed as text (a Text-formatted cell) is refused by every view; Excel
            # says so as it is typed (a paste is not checked: the Check column says it)
            score = DataValidation(type="decimal", operator="between", formula1="-1E+12",
                                   formula2="1E+12", allow_blank=True, showErrorMessage=True,
                                   error=label("score_validation", lang))
            score.add(f"{col_letter(cols.scores[0])}{first}:{col_letter(cols.scores[-1])}{last}")
            ws.add_data_validation(score)

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
            FormulaRule(formula=[f'AND({chk}<>"",{chk}<>"{lab_ok}",{chk}<>"{lab_platform}")'],
                        font=Font(color="9C0006", bold=True),
                        fill=PatternFill("solid", bgColor="FFC7CE")))
        ws.conditional_formatting.add(
            f"{plc[0]}{first}:{plc[-1]}{last}",
            CellIsRule(operator="equal", formula=["1"], font=Font(bold=True, color=NAVY)))

        # the check column as wide as its longest message ("Over game cap: Fumio" was cut
        # at the cell's edge), within reason: a longer one wraps
        widths = {1: 11, 2: 8, 3: 6, 4: 6, cols.deposits: 9,
                  cols.check: min(max(16, longest + 2), 40)}
        for s in range(n):
            widths[cols.players[s]] = 12
            widths[cols.scores[s]] = 9
            # "東 ペナルティ" on one line (two wrapped lines read as "ペナル / ティ")
            widths[cols.penalties[s]] = 7 if lang == "en" else 12
            widths[cols.results[s]] = 9
            widths[cols.places[s]] = 7
        for c in cols.chip_cols:
            widths[c] = 7
        for c in cols.sub_cols:
            widths[c] = 10
        for c in cols.given_cols:
            widths[c] = 9
        widths[cols.results[0]] = 12  # room for the hint while the functions are off
        self._widths(ws, widths)
        # the helpers: hidden, right of the print area and of anything typed
        for c in (cols.last, *helpers):
            ws.column_dimensions[col_letter(c)].hidden = True
        ws.freeze_panes = f"E{first}"
        # two pages wide, the game and its players repeated on the second page: one page
        # wide, the 34 columns printed at about 4 pt; the settled copy's print area ends at
        # its last game, the live tab's at its last row with anything typed (not at the
        # spare rows, which printed as pages of empty grid)
        self._print(ws, f"{HEADER_ROW - 1}:{HEADER_ROW}", pages_wide=2,
                    title_cols=f"A:{col_letter(cols.players[-1])}")
        if self.settled:
            ws.print_area = f"A1:{col_letter(cols.places[-1])}{last}"
        else:
            growing_print_area(ws, cols.places[-1], HEADER_ROW, first, last,
                               (1, 2, cols.players[0], cols.scores[0]))
        self._protect(ws)

    def _whole_message(self, ws: Any, row: int, cols: Any, message: str, check: Any) -> None:
        """A settled row that could not be settled: its message over the results and places
        (merged, wrapped, the row as tall as it needs), so it is read whole on screen and
        on paper (it ran past the printed page, cut)."""
        first, last = cols.results[0], cols.places[-1]
        put(ws, row, first, message, self.st.get("formula_wrap"), text=True)
        ws.merge_cells(start_row=row, start_column=first, end_row=row, end_column=last)
        lines = max(-(-_text_width(message) // MESSAGE_WIDTH), -(-_text_width(check) // 40), 1)
        if lines > 1:
            ws.row_dimensions[row].height = 15 * lines

#: Character widths of a settled row's results and places together (where the message of a
#: row that could not be settled is shown, wrapped): 12 + 3 x 9 + 4 x 7 = 67 columns.
MESSAGE_WIDTH = 70


def _text_width(text: Any) -> int:
    """A text's width in character widths (a full-width character takes two)."""
    if not isinstance(text, str):
        return 0
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _is_place(value: Any) -> bool:
    """A place as the tab's Places column holds it (a number; "" or None otherwise)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _seat(values: Sequence[Any] | None, seat: int) -> Any:
    """A seat's value of an optional block (None when the row has none)."""
    return values[seat] if values and seat < len(values) else None


def _capped(check: str, caps: list[str | None], i: int, lang: str) -> str:
    """A row's check text, or the game-cap flag when the row is otherwise OK."""
    if check == label("ok", lang) and i < len(caps) and caps[i]:
        return f"{label('over_cap', lang)}: {caps[i]}"
    return check
