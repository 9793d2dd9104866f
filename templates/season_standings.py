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
from umaoka.engine.ranking import TIE_BREAKS, StandingLine
from umaoka.engine.season import SeasonResult, StageResult
from umaoka.engine.teams import GameCaps

from .labels import label
from .layout import game_rows, league_cols
from .results import FIRST_ROW
from .season_labels import TIE_BREAKS_JA
from .season_sheet import PENALTIES_FIRST, SPARE_PENALTIES
from .sheet_base import SheetWriter
from .styles import num, put, ref
from .writer import save_value

#: The columns of a stage's player table (label keys).
PLAYER_COLUMNS = ("rank", "player", "team", "games", "carried", "stage_points", "chip_points",
                  "penalties", "stage_total", "total", "average", "average_place", "advanced",
                  "tie_break", "flags")
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
    if lang != "ja" or caps is None or not p.flags:
        return "; ".join(p.flags)
    played = p.games - p.substituted
    if caps.minimum is not None and played < caps.minimum:
        return f"{played}局（最少 {caps.minimum}局 未満）"
    return f"{played}局（最多 {caps.maximum}局 超過）"


def line_values(p: StandingLine, columns: tuple[str, ...], lang: str,
                caps: GameCaps | None = None) -> list[Any]:
    """One standings line as the sheet shows it (numbers exact, blanks for none)."""
    words = TIE_BREAKS_JA if lang == "ja" else TIE_BREAKS
    by = {
        "rank": p.rank, "player": p.name, "team": (p.team or "") if "player" in columns
        else p.name, "games": p.games, "carried": num(p.carried), "stage_points": num(p.points),
        "chip_points": num(p.chips), "penalties": num(p.penalties),
        "stage_total": num(p.stage_total), "total": num(p.total),
        "average": p.average, "average_place": p.average_place,
        "advanced": label("advanced_mark", lang) if p.advanced else "",
        "tie_break": words.get(p.tie_break, p.tie_break or "") if p.tie_break else "",
        "flags": flag_text(p, caps, lang),
    }
    return [by[c] for c in columns]


class SeasonStandings(SheetWriter):
    season_run: SeasonResult

    def season_standings_sheet(self) -> None:
        st, lang = self.st, self.lang
        result = self.season_run
        ws = self.wb.create_sheet(label("sheet_season_standings", lang))
        note = label("note_season_standings", lang)
        if not self.settled:
            note += " " + label("note_season_standings_live", lang)
        self._title(ws, self.suffix(f"{label('title_season_standings', lang)}: "
                                    f"{result.season.name}"), note)
        self._stale_check(ws)
        row = 4
        team_rows: list[tuple[StageResult, int, int]] = []
        for sr in result.stages:
            row = self._stage_block(ws, sr, row)
            if sr.teams:
                first = row
                row = self._table(ws, sr, sr.teams, TEAM_COLUMNS, row,
                                  label("teams_heading", lang, name=sr.stage.name))
                team_rows.append((sr, first, row))
            row += 1
        # game-cap flags are in the Flags column; notes say what a table cannot
        for key, texts in (("stage_notes", [n for sr in result.stages for n in sr.notes]),
                           ("problems", list(result.problems))):
            if texts:
                put(ws, row, 1, label(key, lang), st.get("title"), text=True)
                for text in texts:
                    row += 1
                    put(ws, row, 1, text, st.get("subtitle"), text=True)
                row += 2
        end = row
        if team_rows:
            end = self._team_chart(ws, result, row)
        ws.print_area = f"A1:{col_letter(len(PLAYER_COLUMNS))}{end}"
        widths = {1: 7, 2: 16, 3: 12}
        widths.update({c: 9 for c in range(4, 14)})
        widths.update({13: 14, 14: 22, 15: 40})
        self._widths(ws, widths)
        self._print(ws, None)
        self._protect(ws)

    def _stale_check(self, ws: Any) -> None:
        """Row 3 of the template: a warning as soon as the games, chips, penalties or the
        penalty log differ from what these values were computed from (a native formula: a
        fingerprint of those cells against the one of when the workbook was written)."""
        if self.settled:
            return
        terms: list[str] = []
        value = Decimal(0)

        def add(sheet: str, c1: int, c2: int, first: int, last: int,
                cells: dict[tuple[int, int], Any], kind: str) -> None:
            """Names: how many (COUNTIF "?*"); numbers: their sum weighted by place, so a
            value moved to another cell counts too (-1 when a cell holds text)."""
            nonlocal value
            rng = ref(sheet, c1, first, last, c2)
            if kind == "names":
                terms.append(f'COUNTIF({rng},"?*")')
                value += sum(1 for v in cells.values() if isinstance(v, str) and v != "")
                return
            terms.append(f"IFERROR(SUMPRODUCT({rng}*(ROW({rng})*16+COLUMN({rng}))),-1)")
            if any(isinstance(v, str) and v.strip() for v in cells.values()):
                value += -1
                return
            value += sum((Decimal(str(v)) * (r * 16 + c) for (r, c), v in cells.items()
                          if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)),
                         Decimal(0))

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
                                  (cols.sub_cols, "subs", "names")):
                if c:
                    add(lg.name, c[0], c[-1], first, last, block(lg.games, c, attr, n), kind)
        log = self.book.penalties
        sheet, last = label("sheet_penalties", self.lang), PENALTIES_FIRST + len(log) \
            + SPARE_PENALTIES - 1
        add(sheet, 2, 4, PENALTIES_FIRST, last,
            {(PENALTIES_FIRST + i, 2 + k): e.get(key) for i, e in enumerate(log)
             for k, key in enumerate(("stage", "player", "team"))}, "names")
        add(sheet, 5, 5, PENALTIES_FIRST, last,
            {(PENALTIES_FIRST + i, 5): e.get("points") for i, e in enumerate(log)}, "numbers")
        want = value.quantize(Decimal("0.001"))
        text = label("stale", self.lang).replace('"', '""')
        put(ws, 3, 1, f'=IF(ROUND({"+".join(terms)},3)<>{want},"{text}","")',
            self.st.get("title"))
        save_value(ws, 3, 1, "")

    def _stage_block(self, ws: Any, sr: StageResult, row: int) -> int:
        lang, stage = self.lang, sr.stage
        cut = (label("top_advance", lang, n=stage.advance) if stage.advance
               else label("all_advance", lang))
        heading = label("stage_heading", lang, name=stage.name, games=sr.games)
        if sr is not self.season_run.stages[0]:
            heading += " (" + label("stage_rules", lang, carry=carry_words(stage.carry, lang),
                                    advance=cut) + ")"
        elif stage.advance:
            heading += f" ({cut})"
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
        put(ws, row, 1, heading, st.get("title"), text=True)
        for c, key in enumerate(columns, 1):
            put(ws, row + 1, c, label(key, lang), st.get("header"), text=True)
        ws.row_dimensions[row + 1].height = 30
        return self._rows(ws, sr, lines, columns, row + 2)

    def _rows(self, ws: Any, sr: StageResult, lines: tuple[StandingLine, ...],
              columns: tuple[str, ...], row: int) -> int:
        st = self.st
        pts = self._pts(sr.stage.ruleset.rounding != "none")
        styles = {"rank": st.get("formula", "0"), "games": st.get("formula", "0"),
                  "total": st.get("result", pts), "average": st.get("formula", "+0.00;-0.00;0"),
                  "average_place": st.get("formula", "0.00")}
        for key in ("carried", "stage_points", "chip_points", "penalties", "stage_total"):
            styles[key] = st.get("formula", pts)
        first = row
        for p in lines:
            for c, (key, v) in enumerate(zip(columns, line_values(p, columns, self.lang,
                                                                       sr.stage.game_caps)), 1):
                put(ws, row, c, v, styles.get(key, st.get("formula")), text=True)
            row += 1
        if row > first:
            c = col_letter(columns.index("total") + 1)
            rng = f"{c}{first}:{c}{row - 1}"
            ws.conditional_formatting.add(rng, CellIsRule(
                operator="greaterThan", formula=["0"], font=Font(color="006100", bold=True)))
            ws.conditional_formatting.add(rng, CellIsRule(
                operator="lessThan", formula=["0"], font=Font(color="9C0006", bold=True)))
        return row

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
        for j, team in enumerate(teams):
            put(ws, hdr + 1 + j, 2, team, st.get("key"), text=True)
            for k, sr in enumerate(stages):
                line = next((p for p in sr.teams if p.name == team), None)
                put(ws, hdr + 1 + j, 3 + k, num(line.total) if line else None,
                    st.get("formula", self._pts(sr.stage.ruleset.rounding != "none")))
        chart = BarChart()
        chart.type = "col"
        chart.title = title
        chart.y_axis.title = label("chart_y", lang)
        chart.x_axis.delete = False
        chart.y_axis.delete = False
        chart.x_axis.tickLblPos = "low"
        chart.height = 9
        chart.width = 22
        data = Reference(ws, min_col=3, max_col=2 + len(stages), min_row=hdr,
                         max_row=hdr + len(teams))
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=2, min_row=hdr + 1, max_row=hdr + len(teams)))
        ws.add_chart(chart, f"A{row + 1}")
        return hdr + len(teams)
