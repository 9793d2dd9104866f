"""Standings tabs (one per league, and the overall one with several leagues): the visible
table, hidden per-player helper columns and the cumulative-points chart."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.worksheet.worksheet import Worksheet

from umaoka.engine import PlayerStanding, standings_table
from umaoka.templates.book.labels import label, place_label
from umaoka.templates.book.layout import (
    CHART_SERIES,
    HEADER_ROW,
    StandCols,
    game_rows,
    rules_row,
)
from umaoka.templates.book.model import League
from umaoka.templates.book.results import FIRST_ROW, cumulative
from umaoka.templates.book.saved_values import (
    Slot,
    chart_sessions,
    chart_values,
    overall_slots,
    visible_rows,
)
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.sheets.season_totals import total_terms
from umaoka.templates.xlsx.cells import ROW, RowFormula
from umaoka.templates.xlsx.charts import line_chart
from umaoka.templates.xlsx.styles import (
    exact,
    frame_in_use,
    growing_print_area,
    num,
    put,
    quote,
    ref,
    wildcards_escaped,
)
from umaoka.templates.xlsx.writer import CellError, save_value


def shared_place_count(P: list[str], PL: list[str], W: list[str], T: list[str],
                       rule: str) -> Any:
    """The formula of a player's count of place p under the Rules sheet's ``shared_place``
    (the cell ``rule``): better, the tab's places as they are (a shared place is the
    better one); worse, each seat's worst shared place (``W``, the tab's helpers); split,
    a share of each place it shares (``T``: how many share it)."""
    n = len(P)

    def count(x: str, p: int) -> str:
        better = "+".join(f"COUNTIFS({P[s]},{exact(x)},{PL[s]},{p})" for s in range(n))
        worse = "+".join(f"COUNTIFS({P[s]},{exact(x)},{W[s]},{p})" for s in range(n))
        split = "+".join(f"({P[s]}={x})*ISNUMBER({PL[s]})*({PL[s]}<={p})*({W[s]}>={p})"
                         f"/{T[s]}" for s in range(n))
        return (f'IF({rule}="worse",{worse},IF({rule}="split",'
                f"SUMPRODUCT({split}),{better}))")
    return count


def shared_place_sum(P: list[str], PL: list[str], W: list[str], rule: str) -> Any:
    """The formula of a player's place sum under ``shared_place`` (see
    :func:`shared_place_count`): better, the places; worse, the worst shared places;
    split, their average."""
    n = len(P)

    def place_sum(x: str) -> str:
        better = "+".join(f"SUMIFS({PL[s]},{P[s]},{exact(x)})" for s in range(n))
        worse = "+".join(f"SUMIFS({W[s]},{P[s]},{exact(x)})" for s in range(n))
        return (f'IF({rule}="worse",{worse},IF({rule}="split",({better}+{worse})/2,'
                f"{better}))")
    return place_sum


class StandingsSheets(SheetWriter):
    # -- standings --------------------------------------------------------------------------
    def _size(self, rows: list[PlayerStanding] | None) -> int:
        """Rows of a standings table: a slot per roster row in a template (live formulas),
        the ranked players in a settled copy."""
        return self.roster if rows is None else max(len(rows), 1)

    def _standings_frame(self, ws: Worksheet, n: int, whole: bool,
                         size: int | None = None, league: League | None = None) -> StandCols:
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
        pts = self._pts(whole, league)
        total_col = col_letter(4)
        first, last = HEADER_ROW + 1, HEADER_ROW + (size or self.roster)
        ws.conditional_formatting.add(f"{total_col}{first}:{col_letter(5)}{last}", CellIsRule(
            operator="greaterThan", formula=["0"], font=Font(color="006100", bold=True)))
        ws.conditional_formatting.add(f"{total_col}{first}:{col_letter(5)}{last}", CellIsRule(
            operator="lessThan", formula=["0"], font=Font(color="9C0006", bold=True)))
        self._pts_fmt = pts
        return sc

    def _visible_styles(self, sc: StandCols, n: int, live: bool = False) -> list[Any]:
        """The table's cell styles; ``live``: unframed, a row framed only while it holds a
        player (:func:`.styles.frame_in_use`), so the roster's free slots are not a grid."""
        st, pts = self.st, self._pts_fmt
        formula, result = ("live", "live_result") if live else ("formula", "result")
        styles = [st.get(formula, "0"), st.get(result), st.get(formula, "0"),
                  st.get(result, pts), st.get(formula, "+0.00;-0.00;0.00"),
                  st.get(formula, "0.00")]
        styles += [st.get(formula, "General")] * n  # split counts: 32.5
        styles += [st.get(formula, "0.0%")] * n
        styles += [st.get(formula, "0.0%")]
        return styles

    def _write_visible_values(self, ws: Worksheet, sc: StandCols, n: int,
                              rows: list[PlayerStanding]) -> None:
        styles = self._visible_styles(sc, n)
        table = standings_table(rows)[1:]
        for k in range(self._size(rows)):
            row = HEADER_ROW + 1 + k
            values: list[Any] = [None] * sc.visible
            if k < len(rows):
                p, rank = rows[k], table[k][0]
                g = Decimal(p.games)
                values = [rank, p.name, p.games, num(p.total), p.average, p.average_place]
                places = list(p.places) + [0] * (n - len(p.places))
                values += places[:n]
                values += [(Decimal(c) / g).quantize(Decimal("0.0001")) for c in places[:n]]
                values += [p.last_avoid_rate]
            for c, v in enumerate(values, 1):
                put(ws, row, c, v, styles[c - 1], text=(c == 2))

    def _write_visible_formulas(self, ws: Worksheet, sc: StandCols, n: int,
                                slots: list[Slot]) -> None:
        styles = self._visible_styles(sc, n, live=True)
        first, last = HEADER_ROW + 1, HEADER_ROW + self.roster
        saved = visible_rows(slots, n)
        frame_in_use(ws, first, last, sc.visible)

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

        def rng(col: int) -> str:
            return f"${col_letter(col)}${first}:${col_letter(col)}${last}"

        for i in range(self.roster):
            row = first + i
            L = {c: f"${col_letter(c)}{row}" for c in range(sc.h_name, sc.h_idx + 1)}
            name = L[sc.h_name]
            # by position in Roster: rows inserted or deleted on Players keep every name
            put(ws, row, sc.h_name, f'=IFERROR(INDEX(Roster,{i + 1})&"","")', hs)
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
            saved = [slot.name, slot.games, num(slot.total), slot.psum, *slot.counts,
                     slot.lasts, num(slot.avgp), num(slot.key), slot.order, slot.index]
            for c, v in enumerate(saved, sc.h_name):
                save_value(ws, row, c, v)
        for c in range(sc.h_name, sc.h_idx + 1):
            ws.column_dimensions[col_letter(c)].hidden = True

    def _season_note(self, note: str) -> str:
        """A season workbook's standings sheets say what they count: one stage can have two
        standings (these, from the finals as typed, and the Season standings with carry,
        penalties, chips and substitutes), and the manager must see which is which."""
        return note if self.book.season is None else f"{note} {label('note_not_season', self.lang)}"

    def _note_across(self) -> int | None:
        """The season note is long: wrapped over the table's first columns, not past the
        printed page."""
        return None if self.book.season is None else 9

    def standings_sheet(self, index: int, league: League) -> None:
        rules = self.book.rules_of(league)
        n = rules.ruleset.players
        whole = rules.ruleset.rounding != "none"
        ws = self.wb.create_sheet(self.names["standings"][index])
        self._title(ws, self.suffix(label("title_standings", self.lang, name=league.name)),
                    self._season_note(label("note_standings" if self.settled
                                            else "note_standings_live", self.lang)),
                    self._note_across())
        rows_of = self.standings_of(index) if self.settled else None
        sc = self._standings_frame(ws, n, whole, self._size(rows_of), league)
        tab = self.tab_ranges(league, n)
        P, F, PL, CH = tab.players, tab.results, tab.places, tab.chips

        def plus(terms: list[str]) -> str:
            return "+".join(terms)

        if self.settled:
            self._write_visible_values(ws, sc, n, self.standings_of(index))
            self._shared_place_note(ws, rules.ruleset.shared_place)
        else:
            self._write_visible_formulas(ws, sc, n, self.slots[index])
            rule = ref(self.names["rules"][league.rules], 2, rules_row("shared_place"))
            place_sum = shared_place_sum(P, PL, tab.worst, rule)
            count = shared_place_count(P, PL, tab.worst, tab.tied, rule)
            self._helpers(ws, sc, n, {
                "games": lambda r, x: f'=IF({x}="",0,'
                + plus([f'COUNTIFS({P[s]},{exact(x)},{PL[s]},">0")' for s in range(n)]) + ")",
                "total": lambda r, x: f'=IF({x}="",0,ROUND('
                + plus([f'SUMIFS({F[s]},{P[s]},{exact(x)})' for s in range(n)])
                + total_terms(self.book, league, self.lang, x, P, PL, CH) + ",1))",
                "psum": lambda r, x: f'=IF({x}="",0,{place_sum(x)})',
                "count": lambda r, x, p: f'=IF({x}="",0,{count(x, p)})',
                # last: the count of the last place, under every rule
                "last": lambda r, x: f"=${col_letter(sc.h_count(n))}{r}",
            }, self.slots[index])
            self._shared_place_note(ws, rules.ruleset.shared_place, rule)
        self._chart(ws, index, league, sc, n, P, F, self._size(rows_of))
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        ws.page_setup.fitToHeight = 1
        self._protect(ws)

    def _chart(self, ws: Worksheet, index: int, league: League, sc: StandCols, n: int,
               P: list[str], F: list[str], size: int) -> None:
        st, lang = self.st, self.lang
        top = HEADER_ROW + size + 2
        data_row = top + 20  # chart: 18 rows high
        hdr = data_row + 1
        series = min(CHART_SERIES, size)
        put(ws, data_row, 1, label("chart_title", lang), st.get("title"), text=True)
        put(ws, hdr, 1, label("chart_x", lang), st.get("header"), text=True)
        pts = self._pts_fmt
        if self.settled:
            games = self.counted[index]
            rows = self.standings_of(index)
            names = [p.name for p in rows[:series]]
            sessions, cum = cumulative(games, names)
            for k in range(series):
                put(ws, hdr, 2 + k, names[k] if k < len(names) else " ", st.get("header"),
                    text=True)
            for j, s in enumerate(sessions):
                put(ws, hdr + 1 + j, 1, s, st.get("key", "0"), text=True)
                for k, name in enumerate(names):
                    put(ws, hdr + 1 + j, 2 + k, num(cum[name][j]), st.get("formula", pts))
            count = max(len(sessions), 1)
        else:
            # one row a numbered session present (never one a session number: a typed
            # 1000000 or a date is one row), at least 12 for a season still to be played
            present = chart_sessions(self.values[index])
            count = max(12, len(present))
            rows_n = game_rows(league, False)
            sess = ref(league.name, 2, FIRST_ROW, FIRST_ROW + rows_n - 1)
            shown = visible_rows(self.slots[index], n)
            plotted = [row[1] if row[1] != "" else "-" for row in shown[:series]]
            points = chart_values(plotted, self.values[index], n, count)
            for k in range(series):
                name_cell = f"$B${HEADER_ROW + 1 + k}"
                # an empty slot's series is named " ": no "-" (nor LibreOffice's "Column B")
                # entries in the legend
                put(ws, hdr, 2 + k, f'=IF({name_cell}=""," ",{name_cell})', st.get("header"))
                save_value(ws, hdr, 2 + k, " " if plotted[k] == "-" else plotted[k])
            # one formula a series, its row's number filled in when written (RowFormula)
            # each series' exact-name criterion once, in a hidden row below the table,
            # not escaped again in each of its thousands of cells
            crit = hdr + count + 1
            ws.row_dimensions[crit].hidden = True
            formulas = []
            for k in range(series):
                h = f"{col_letter(2 + k)}${hdr}"
                put(ws, crit, 2 + k, "=" + exact(h), st.get("formula"))
                name = " " if plotted[k] == "-" else plotted[k]
                save_value(ws, crit, 2 + k, "=" + wildcards_escaped(name))
                c = f"{col_letter(2 + k)}${crit}"
                terms = "+".join(f'SUMIFS({F[s]},{P[s]},{c},{sess},"<="&$A{ROW})'
                                 for s in range(n))
                formulas.append(RowFormula(f'=IF(OR({h}=" ",$A{ROW}=""),NA(),'
                                           f"ROUND({terms},1))", shared=False))
            # column A: the smallest session, then each next one (SMALL past the count of
            # sessions up to the row above), blank after the last
            for j in range(count):
                r = hdr + 1 + j
                put(ws, r, 1, f'=IFERROR(SMALL({sess},1),"")' if j == 0 else
                    f'=IF($A{r - 1}="","",IFERROR(SMALL({sess},'
                    f'COUNTIF({sess},"<="&$A{r - 1})+1),""))', st.get("key", "0"))
                save_value(ws, r, 1, present[j] if j < len(present) else "")
                for k in range(series):
                    put(ws, r, 2 + k, formulas[k], st.get("formula", pts))
                    v = points[j][k]
                    save_value(ws, r, 2 + k, CellError("#N/A") if v is None else v)
            ws.conditional_formatting.add(
                f"B{hdr + 1}:{col_letter(1 + series)}{hdr + count}",
                FormulaRule(formula=[f"ISERROR(B{hdr + 1})"], font=Font(color="F2F2F2")))
        line_chart(ws, f"A{top}", hdr, series, count, title=label("chart_title", lang),
                   x_title=label("chart_x", lang), y_title=label("chart_y", lang), width=24,
                   height=8.5)
        # print the standings and the chart on one page (the session table stays on screen)
        ws.print_area = f"A1:{col_letter(sc.visible)}{data_row - 1}"

    def overall_sheet(self) -> None:
        leagues = self.book.leagues
        n = max(self.book.rules_of(lg).ruleset.players for lg in leagues)
        whole = all(self.book.rules_of(lg).ruleset.rounding != "none" for lg in leagues)
        ws = self.wb.create_sheet(self.names["overall"], 0)
        self._title(ws, self.suffix(label("title_overall", self.lang)),
                    self._season_note(label("note_overall" if self.settled
                                            else "note_overall_live", self.lang)),
                    self._note_across())
        size = self._size(self.overall_rows() if self.settled else None)
        sc = self._standings_frame(ws, n, whole, size)
        rules_used = sorted({lg.rules for lg in leagues})
        shared = {self.book.rules[i].ruleset.shared_place for i in rules_used}
        if self.settled:
            self._write_visible_values(ws, sc, n, self.overall_rows())
            if len(shared) == 1:
                self._shared_place_note(ws, shared.pop())
        else:
            if len(rules_used) == 1:  # one Rules sheet: the note follows its cell
                self._shared_place_note(ws, shared.pop(), ref(
                    self.names["rules"][rules_used[0]], 2, rules_row("shared_place")))
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
        if self.settled:
            ws.print_area = f"A1:{col_letter(sc.visible)}{HEADER_ROW + size}"
        else:  # to the last player listed, not the roster's free slots
            growing_print_area(ws, sc.visible, HEADER_ROW, HEADER_ROW + 1, HEADER_ROW + size,
                               (2,))
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)
