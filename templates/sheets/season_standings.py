"""The Season standings sheet: per stage, the players' standings (carried points, this
stage's points with chips and penalties, total; the qualified ranked first, the others
listed apart; who advanced; which tie-break decided a place), the teams' standings, a
chart of the teams' totals by stage, and the notes of the season (cuts inside a tie, game
caps, rows left out). Every number is the engine's (:func:`.season_book.season_result`).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from openpyxl.chart import BarChart, Reference
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.worksheet.formula import ArrayFormula

from umaoka.engine.rules import EXCEL_ERRORS
from umaoka.engine.season.ranking import (
    TIE_BREAKS,
    TIE_BREAKS_JA,
    StandingLine,
    flag_words,
    standing_rows,
)
from umaoka.engine.season.stages import SeasonResult, StageResult
from umaoka.engine.season.teams import GameCaps
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import game_rows, league_cols
from umaoka.templates.book.results import FIRST_ROW
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.sheets.season import PENALTIES_FIRST, SPARE_PENALTIES
from umaoka.templates.sheets.season_live import (
    LIVE_FIRST,
    LIVE_WIDTH,
    NOTE_ROWS,
    block_formula,
    block_range,
    flag_cell,
    live_formula,
    live_possible,
    min_games_cell,
    season_call,
    shown,
)
from umaoka.templates.xlsx.styles import escaped, frame_in_use, keep_together, num, put, ref
from umaoka.templates.xlsx.writer import CellError, save_value

#: The columns of a stage's player table (label keys).
PLAYER_COLUMNS = ("rank", "player", "team", "games", "carried", "stage_points", "chip_points",
                  "penalties", "stage_total", "total", "average", "average_place", "advanced",
                  "tie_break", "flags")
#: A table's heading, header and first lines, printed together.
KEEP_ROWS = 5
#: The stale check's hidden helper cells: one per league tab and one for the penalty log,
#: in this column from row STALE_FIRST (right of the MJ_SEASON blocks, out of the print area).
STALE_COL = LIVE_FIRST + LIVE_WIDTH + 1
STALE_FIRST = 4
#: The columns of a stage's team table.
TEAM_COLUMNS = ("rank", "team", "games", "carried", "stage_points", "chip_points",
                "penalties", "stage_total", "total", "average", "advanced", "tie_break")


def carry_words(carry: Decimal, lang: str = "en") -> str:
    """A carry factor as the Season sheet writes it (full, half, zero, x0.3)."""
    words = ({Decimal(1): "全額", Decimal("0.5"): "半分", Decimal(0): "なし"} if lang == "ja"
             else {Decimal(1): "full", Decimal("0.5"): "half", Decimal(0): "zero"})
    return words.get(carry, f"x{carry}")


def flag_text(p: StandingLine, caps: GameCaps | None, lang: str) -> str:
    """The game-cap flag of a line: the engine's sentence, or its Japanese."""
    return flag_words(p, lang, caps)


def line_values(p: StandingLine, columns: tuple[str, ...], lang: str,
                caps: GameCaps | None = None, min_games: int = 0) -> list[Any]:
    """One standings line as the sheet shows it (numbers exact, blanks for none). A line
    under ``min_games`` is flagged "Not ranked: fewer than N games" as the live table
    flags it (season_live.shown), so every view says the same of it."""
    words = TIE_BREAKS_JA if lang == "ja" else TIE_BREAKS
    flags = flag_text(p, caps, lang)
    if not p.qualified and min_games:
        flags = "; ".join(f for f in (label("not_ranked", lang, n=min_games), flags) if f)
    by = {
        "rank": p.rank, "player": p.name, "team": (p.team or "") if "player" in columns
        else p.name, "games": p.games, "carried": num(p.carried), "stage_points": num(p.points),
        "chip_points": num(p.chips), "penalties": num(p.penalties),
        "stage_total": num(p.stage_total), "total": num(p.total),
        "average": p.average, "average_place": p.average_place,
        "advanced": label("advanced_mark", lang) if p.advanced else "",
        "tie_break": words.get(p.tie_break, p.tie_break or "") if p.tie_break else "",
        "flags": flags,
    }
    return [by[c] for c in columns]


class SeasonStandings(SheetWriter):
    season_run: SeasonResult

    def season_standings_sheet(self) -> None:
        st, lang = self.st, self.lang
        result = self.season_run
        ws = self.wb.create_sheet(label("sheet_season_standings", lang))
        self.live = not self.settled and live_possible(self.book)
        self.team_cells: dict[str, str] = {}  # per stage: a team's live total ({team})
        # first row -> rows printed on one page: a heading, its table's header and first
        # lines (a heading is not left alone at a page's foot)
        self.print_blocks: dict[int, int] = {}
        note = label("note_season_standings", lang)
        if not self.settled:
            note += " " + label("note_season_standings_functions" if self.live
                                else "note_season_standings_live", lang)
        self._title(ws, self.suffix(f"{label('title_season_standings', lang)}: "
                                    f"{result.season.name}"), note, across=len(PLAYER_COLUMNS))
        row = 4
        for sr in result.stages:
            row = self._stage_block(ws, sr, row)
            if sr.teams:
                heading = label("teams_heading", lang, name=sr.stage.name)
                row = (self._live_table(ws, sr, True, row, heading) if self.live else
                       self._table(ws, sr, sr.teams, TEAM_COLUMNS, row, heading))
            row += 1
        self._stale_check(ws)
        # game-cap flags are in the Flags column; notes say what a table cannot (in the
        # live template, the notes are the tables' last rows)
        wrapped: list[int] = []  # the notes' rows, fitted to their text once widths are set
        for key, texts in (("stage_notes", [n for sr in result.stages for n in sr.notes]),
                           ("problems", list(result.problems))):
            if texts and not self.live:
                self.print_blocks[row] = min(len(texts), 3) + 1
                put(ws, row, 1, label(key, lang), st.get("title"), text=True)
                for text in texts:
                    row += 1
                    self._wrapped(ws, row, text, len(PLAYER_COLUMNS))
                    wrapped.append(row)
                row += 2
        end = row
        if any(sr.teams for sr in result.stages):
            end = self._team_chart(ws, result, row)
        ws.print_area = f"A1:{col_letter(len(PLAYER_COLUMNS))}{end}"
        if self.live:  # the MJ_SEASON blocks: hidden, beside the tables
            ws.column_dimensions.group(col_letter(LIVE_FIRST),
                                       col_letter(LIVE_FIRST + LIVE_WIDTH - 1), hidden=True)
        widths = {1: 7, 2: 16, 3: 12}
        widths.update({c: 9 for c in range(4, 14)})
        widths.update({13: 14, 14: 22, 15: 40})
        self._widths(ws, widths)
        self._print(ws, None)
        for r in wrapped:
            self._fit_note(ws, r)
        keep_together(ws, self.print_blocks, end, len(PLAYER_COLUMNS))
        self._protect(ws)

    def _stale_check(self, ws: Any) -> None:
        """Row 3 of the template: a warning as soon as the games, chips, penalties or the
        penalty log differ from what these values were computed from (a native formula: a
        fingerprint of those cells against the one of when the workbook was written).

        The fingerprint is a sum of parts, one hidden helper cell per league tab and one
        for the penalty log (column :data:`STALE_COL`, from row 4): one formula over every
        tab passed Excel's 8,192 characters at about fifteen stages."""
        if self.settled:
            return
        terms: list[str] = []
        value = Decimal(0)
        parts: list[tuple[list[str], Decimal]] = []  # per helper cell: its terms and value

        def part() -> None:
            """The terms added since the last part make one helper cell."""
            nonlocal terms, value
            parts.append((terms, value))
            terms, value = [], Decimal(0)

        def add(sheet: str, c1: int, c2: int, first: int, last: int,
                cells: dict[tuple[int, int], Any], kind: str) -> None:
            """Names: how many (COUNTIF "?*"); numbers: their sum weighted by place, so a
            value moved to another cell counts too. SUMPRODUCT of two arrays counts a text
            cell ("32400" typed as text) as 0 in Excel and LibreOffice alike; -1 only when a
            cell holds an error."""
            nonlocal value
            rng = ref(sheet, c1, first, last, c2)
            if kind == "names":
                terms.append(f'COUNTIF({rng},"?*")')
                value += sum(1 for v in cells.values() if isinstance(v, str) and v != "")
                return
            terms.append(f"IFERROR(SUMPRODUCT({rng},ROW({rng})*16+COLUMN({rng})),-1)")
            if any(isinstance(v, str) and v.strip().upper() in EXCEL_ERRORS
                   for v in cells.values()):
                value += -1
                return
            whole = 0  # whole numbers in an int: most cells, and far faster than Decimal
            for (r, c), v in cells.items():
                if type(v) is int:
                    whole += v * (r * 16 + c)
                elif isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):
                    value += Decimal(str(v)) * (r * 16 + c)
            value += whole

        def block(games: list[Any], cols: list[int], attr: str, n: int
                  ) -> dict[tuple[int, int], Any]:
            out: dict[tuple[int, int], Any] = {}
            for i, g in enumerate(games):
                values = getattr(g, attr)
                values = [values] if not isinstance(values, list) else values
                for c, v in zip(cols, (values or [])[:n]):
                    out[(FIRST_ROW + i, c)] = v
            return out

        for lg in self.book.leagues:
            n = self.book.rules_of(lg).ruleset.players
            cols = league_cols(lg, n)
            first, last = FIRST_ROW, FIRST_ROW + game_rows(lg, False) - 1
            for c, attr, kind in ((cols.players, "players", "names"),
                                  (cols.scores, "scores", "numbers"),
                                  ([cols.deposits], "deposits", "numbers"),
                                  (cols.penalties, "penalties", "numbers"),
                                  (cols.chip_cols, "chips", "numbers"),
                                  (cols.sub_cols, "subs", "names"),
                                  (cols.given_cols, "given", "numbers")):
                if c:
                    add(lg.name, c[0], c[-1], first, last, block(lg.games, c, attr, n), kind)
            part()
        log = self.book.penalties
        sheet, last = label("sheet_penalties", self.lang), PENALTIES_FIRST + len(log) \
            + SPARE_PENALTIES - 1
        add(sheet, 2, 4, PENALTIES_FIRST, last,
            {(PENALTIES_FIRST + i, 2 + k): e.get(key) for i, e in enumerate(log)
             for k, key in enumerate(("stage", "player", "team"))}, "names")
        add(sheet, 5, 5, PENALTIES_FIRST, last,
            {(PENALTIES_FIRST + i, 5): e.get("points") for i, e in enumerate(log)}, "numbers")
        part()
        col = col_letter(STALE_COL)
        for i, (its_terms, its_value) in enumerate(parts):
            put(ws, STALE_FIRST + i, STALE_COL, "=" + "+".join(its_terms), self.st.get("helper"))
            save_value(ws, STALE_FIRST + i, STALE_COL, its_value)
        ws.column_dimensions[col].hidden = True
        want = sum((v for _, v in parts), Decimal(0)).quantize(Decimal("0.001"))
        text = label("stale", self.lang).replace('"', '""')
        cells = f"${col}${STALE_FIRST}:${col}${STALE_FIRST + len(parts) - 1}"
        formula = f'IF(ROUND(SUM({cells}),3)<>{want},"{text}","")'
        if self.live:  # live values are never stale; a failing MJ_SEASON says so
            flag = flag_cell(self.first_block)
            error = label("season_live_error", self.lang).replace('"', '""')
            # #NAME? (ERROR.TYPE 5): the functions are off, the saved values may be stale
            formula = (f'IF(IFERROR({flag},"")="Rank","",IF(IFERROR(ERROR.TYPE({flag}),5)'
                       f'<>5,"{error}",{formula}))')
        put(ws, 3, 1, "=" + formula, self.st.get("title"))
        save_value(ws, 3, 1, "")

    def _stage_block(self, ws: Any, sr: StageResult, row: int) -> int:
        lang, stage = self.lang, sr.stage
        cut = (label("top_advance", lang, n=stage.advance) if stage.advance
               else label("all_advance", lang))
        # live, no game count (the games change as they are entered)
        heading = stage.name if self.live else label("stage_heading", lang, name=stage.name,
                                                          games=sr.games)
        if sr is not self.season_run.stages[0]:
            heading += " (" + label("stage_rules", lang, carry=carry_words(stage.carry, lang),
                                    advance=cut) + ")"
        elif stage.advance:
            heading += f" ({cut})"
        if self.live:  # the unqualified are in the table, flagged
            return self._live_table(ws, sr, False, row, heading) + 1
        ranked = tuple(p for p in sr.players if p.qualified)
        apart = tuple(p for p in sr.players if not p.qualified)
        row = self._table(ws, sr, ranked, PLAYER_COLUMNS, row, heading)
        if apart:
            put(ws, row, 1, label("not_qualified", lang, n=stage.min_games),
                self.st.get("subtitle"), text=True)
            row = self._rows(ws, sr, apart, PLAYER_COLUMNS, row + 1)
        return row + 1

    def _table(self, ws: Any, sr: StageResult, lines: tuple[StandingLine, ...],
               columns: tuple[str, ...], row: int, heading: str) -> int:
        st, lang = self.st, self.lang
        self.print_blocks[row] = KEEP_ROWS
        put(ws, row, 1, heading, st.get("title"), text=True)
        for c, key in enumerate(columns, 1):
            put(ws, row + 1, c, label(key, lang), st.get("header"), text=True)
        ws.row_dimensions[row + 1].height = 30
        return self._rows(ws, sr, lines, columns, row + 2)

    def _styles(self, sr: StageResult, live: bool = False) -> dict[str, Any]:
        st = self.st
        formula, result = ("live", "live_result") if live else ("formula", "result")
        pts = self._pts(sr.stage.ruleset.rounding != "none")
        if sr.stage.carry_rounding == "exact":  # every digit carried: show the digits
            pts = "+0.0##;-0.0##;0.0"
        styles = {"rank": st.get(formula, "0"), "games": st.get(formula, "0"),
                  "total": st.get(result, pts), "average": st.get(formula, "+0.00;-0.00;0"),
                  "average_place": st.get(formula, "0.00"), "": st.get(formula)}
        for key in ("carried", "stage_points", "chip_points", "penalties", "stage_total"):
            styles[key] = st.get(formula, pts)
        # a long flag or a note (the live table's last rows) wraps in its row, not cut at
        # the column's edge; the row grows to it (no height of its own is set)
        styles["flags"] = st.get(f"{formula}_wrap")
        return styles

    def _rows(self, ws: Any, sr: StageResult, lines: tuple[StandingLine, ...],
              columns: tuple[str, ...], row: int) -> int:
        styles, other = self._styles(sr), self.st.get("formula")
        first = row
        for p in lines:
            for c, (key, v) in enumerate(zip(columns, line_values(
                    p, columns, self.lang, sr.stage.game_caps, sr.stage.min_games)), 1):
                put(ws, row, c, v, styles.get(key, other), text=True)
            row += 1
        self._signs(ws, columns, first, row)
        return row

    def _signs(self, ws: Any, columns: tuple[str, ...], first: int, end: int) -> None:
        """Totals green above zero, red below."""
        if end > first:
            c = col_letter(columns.index("total") + 1)
            rng = f"{c}{first}:{c}{end - 1}"
            ws.conditional_formatting.add(rng, CellIsRule(
                operator="greaterThan", formula=["0"], font=Font(color="006100", bold=True)))
            ws.conditional_formatting.add(rng, CellIsRule(
                operator="lessThan", formula=["0"], font=Font(color="9C0006", bold=True)))

    def _live_table(self, ws: Any, sr: StageResult, team: bool, row: int,
                    heading: str) -> int:
        """A stage's player or team table read from its MJ_SEASON block (see
        :mod:`.season_live`): room for every roster player (or team) and the notes."""
        st, lang, book = self.st, self.lang, self.book
        columns = TEAM_COLUMNS if team else PLAYER_COLUMNS
        self.print_blocks[row] = KEEP_ROWS
        put(ws, row, 1, heading, st.get("title"), text=True)
        hdr = row + 1
        if not hasattr(self, "first_block"):
            self.first_block = hdr
        for c, key in enumerate(columns, 1):
            put(ws, hdr, c, label(key, lang), st.get("header"), text=True)
        ws.row_dimensions[hdr].height = 30
        name = sr.stage.name
        notes = [] if team else [*sr.notes, *(
            p for p in self.season_run.problems if p.startswith((f"{name}!", f"{name} "))
            or f"stage {name}" in p or p.lower().startswith("penalties"))]
        block = standing_rows(sr.teams if team else sr.players, lang, sr.stage.game_caps)
        block += [[t] + [""] * (len(block[0]) - 1) for t in notes]
        rows = self.roster + (0 if team else NOTE_ROWS)
        call = season_call(book, book.runtime.call("MJ_SEASON"), name,
                           "teams" if team else "players", self.roster)
        ws[f"{col_letter(LIVE_FIRST)}{hdr}"] = ArrayFormula(block_range(hdr, rows),
                                                           block_formula(call))
        for i in range(rows + 1):
            line = block[i] if i < len(block) else []
            for j in range(LIVE_WIDTH):
                v = line[j] if j < len(line) else CellError("#N/A")
                save_value(ws, hdr + i, LIVE_FIRST + j, num(v))
        styles = self._styles(sr, live=True)
        other = styles[""]
        last = "" if team else columns[-1]  # notes in the player table's last column
        min_cell = min_games_cell(book, name)
        for i in range(rows):
            r = hdr + 1 + i
            for c, key in enumerate(columns, 1):
                saved = shown(block, i, key, last, team, lang, sr.stage.min_games)
                put(ws, r, c, live_formula(key, r, hdr, last, team, lang, min_cell, saved),
                    styles.get(key, other))
                save_value(ws, r, c, num(saved))
        if team:
            tc, nc = col_letter(columns.index("total") + 1), col_letter(columns.index("team") + 1)
            self.team_cells[name] = (
                f"INDEX(${tc}${hdr + 1}:${tc}${hdr + rows},"
                f"MATCH({{team}},${nc}${hdr + 1}:${nc}${hdr + rows},0))")
        self._signs(ws, columns, hdr + 1, hdr + 1 + rows)
        frame_in_use(ws, hdr + 1, hdr + rows, len(columns))
        return hdr + 1 + rows

    def _team_chart(self, ws: Any, result: SeasonResult, row: int) -> int:
        """A table of each team's total by stage (below the standings) and its bar chart."""
        st, lang = self.st, self.lang
        stages = [sr for sr in result.stages if sr.teams]
        teams = [t for t, _ in result.season.teams] or [p.name for p in stages[0].teams]
        title = label("team_chart", lang, name=result.season.name)
        put(ws, row, 1, title, st.get("title"), text=True)
        hdr = row + 22  # the chart takes 20 rows; its table follows
        put(ws, hdr, 2, label("team", lang), st.get("header"), text=True)
        for k, sr in enumerate(stages):
            put(ws, hdr, 3 + k, sr.stage.name, st.get("header"), text=True)
        # the stage names wrap in their narrow columns: room for up to three lines (one
        # line's height clipped "Regular 2026" to "Regular")
        longest = max((len(str(sr.stage.name)) for sr in stages), default=0)
        ws.row_dimensions[hdr].height = 15 * min(3, max(2, -(-longest // 8)))
        for j, team in enumerate(teams):
            put(ws, hdr + 1 + j, 2, team, st.get("key"), text=True)
            for k, sr in enumerate(stages):
                line = next((p for p in sr.teams if p.name == team), None)
                style = st.get("formula", self._pts(sr.stage.ruleset.rounding != "none"))
                value = num(line.total) if line else None
                if self.live:  # the live team table's total (blank: no bar, if none)
                    find = self.team_cells[sr.stage.name].replace(
                        "{team}", escaped(f"$B${hdr + 1 + j}"))
                    put(ws, hdr + 1 + j, 3 + k, f'=IFERROR(--({find}),"")', style)
                    save_value(ws, hdr + 1 + j, 3 + k, "" if value is None else value)
                else:
                    put(ws, hdr + 1 + j, 3 + k, value, style)
        chart = BarChart()
        chart.type = "col"
        chart.title = title
        chart.y_axis.title = label("chart_y", lang)
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.x_axis.tickLblPos = "low"
        chart.height = 9
        chart.width = 22
        # the stage names below the plot, where they have the chart's width: at its right
        # side they were cut ("Reg", "Fina")
        chart.legend.position = "b"
        data = Reference(ws, min_col=3, max_col=2 + len(stages), min_row=hdr,
                         max_row=hdr + len(teams))
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=2, min_row=hdr + 1, max_row=hdr + len(teams)))
        ws.add_chart(chart, f"A{row + 1}")
        self.print_blocks[row] = hdr + len(teams) - row + 1  # the chart and its table
        return hdr + len(teams)
