"""The Season sheet (stages in order, season settings) and the Penalties sheet (the
penalty log): inputs a league manager reads and edits, with dropdowns for fixed choices
and a plain-words note per setting, like the Rules sheets."""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter as col_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from umaoka.engine.season.penalties import PENALTY_REASONS
from umaoka.engine.season.stages import CARRY_ROUNDINGS
from umaoka.templates.book.labels import label, note_lines
from umaoka.templates.book.layout import (  # noqa: F401  (the season sheets' layout, kept importable here)
    HEADER_ROW,
    PENALTIES_FIRST,
    PENALTY_COLUMNS,
    SEASON_FIRST,
    SPARE_PENALTIES,
    settings_first,
)
from umaoka.templates.book.season_book import (
    SETTING_CHOICES,
    SETTINGS,
    SeasonSpec,
    StageRow,
    cap_maximum,
    over_cap,
    setting_help,
)
from umaoka.templates.book.season_labels import REASONS_JA
from umaoka.templates.sheets.base import SheetWriter, roster_validation
from umaoka.templates.xlsx.styles import exact, put, quote
from umaoka.templates.xlsx.writer import save_value


def _list(values: list[str]) -> str | None:
    """An in-cell list for a data validation, None when a value cannot be in one."""
    if not values or any("," in v or '"' in v for v in values):
        return None
    text = '"' + ",".join(values) + '"'
    return text if len(text) <= 255 else None


def _array(values: list[str]) -> str:
    return "{" + ",".join('"' + v.replace('"', '""') + '"' for v in values) + "}"


class SeasonSheets(SheetWriter):
    def cap_check(self, cols: Any, first: int, row: int) -> str | None:
        """The check column's game-cap test of a row (season workbooks): a player named in
        more rows of this tab, down to this one, than the Season sheet's maximum."""
        if self.book.season is None or self.settled:
            return None
        p1, p2 = col_letter(cols.players[0]), col_letter(cols.players[-1])
        out = f'"{label("ok", self.lang)}"'
        for c in reversed(cols.players):
            p = f"{col_letter(c)}{row}"
            out = (f'IF(AND(GameCapMax>0,{p}<>"",COUNTIF(${p1}${first}:${p2}{row},{exact(p)})'
                   f'>GameCapMax),"{label("over_cap", self.lang)}: "&{p},{out})')
        return out

    def over_caps(self, league: Any, n: int) -> list[str | None]:
        """Per game row, the first player over the game cap (what :meth:`cap_check` shows)."""
        if self.book.season is None:
            return []
        return over_cap(league, n, cap_maximum(self.book.season.settings.get("game_caps")))

    def season_stage_rows(self) -> int:
        return max(len(self.book.leagues), len(self.book.season.stages))

    def season_sheet(self) -> None:
        st, lang, book = self.st, self.lang, self.book
        spec: SeasonSpec = book.season
        ws = self.wb.create_sheet(label("sheet_season", lang))
        self._title(ws, self.suffix(label("title_season", lang)),
                    label("note_season_settled" if self.settled else "note_season", lang),
                    across=6)
        for c, key in enumerate(("stage", "ruleset", "advance", "carry"), 1):
            put(ws, HEADER_ROW, c, label(key, lang), st.get("header"), text=True)
        leagues = [lg.name for lg in book.leagues]
        rules = [book.rules_of(lg).name for lg in book.leagues]
        rows = self.season_stage_rows()
        last = SEASON_FIRST + rows - 1
        for i in range(rows):
            row = SEASON_FIRST + i
            s = spec.stages[i] if i < len(spec.stages) else StageRow("")
            put(ws, row, 1, s.name or None, st.get("input"), text=True)
            rule = rules[leagues.index(s.name)] if s.name in leagues else ""
            if self.settled:
                put(ws, row, 2, rule, st.get("formula"), text=True)
            else:
                put(ws, row, 2, f'=IFERROR(INDEX({_array(rules)},MATCH(A{row},'
                    f'{_array(leagues)},0)),"")', st.get("formula"))
                save_value(ws, row, 2, rule)
            put(ws, row, 3, s.advance, st.get("input", "0"), text=True)
            put(ws, row, 4, s.carry, st.get("input"), text=True)
        if not self.settled:
            if (names := _list(leagues)) is not None:
                dv = DataValidation(type="list", formula1=names, allow_blank=True,
                                    showErrorMessage=True,
                                    error="Choose a league tab of this workbook.")
                dv.add(f"A{SEASON_FIRST}:A{last}")
                ws.add_data_validation(dv)
            adv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="1",
                                 allow_blank=True, showErrorMessage=True,
                                 error="Enter how many go on, e.g. 4 (blank: everybody).")
            adv.add(f"C{SEASON_FIRST}:C{last}")
            ws.add_data_validation(adv)
            carry = DataValidation(type="list", formula1='"full,half,zero"', allow_blank=True,
                                   showErrorMessage=True, errorStyle="information",
                                   error="full, half, zero, or a factor such as 0.5.")
            carry.add(f"D{SEASON_FIRST}:D{last}")
            ws.add_data_validation(carry)

        top = settings_first(rows)
        put(ws, top - 2, 1, label("settings", lang), st.get("title"), text=True)
        for c, key in enumerate(("key", "value", "note"), 1):
            put(ws, top - 1, c, label(key, lang), st.get("header"), text=True)
        for i, key in enumerate(SETTINGS):
            row = top + i
            v = spec.settings.get(key)
            put(ws, row, 1, key, st.get("key"), text=True)
            put(ws, row, 2, v, st.get("input", "0" if isinstance(v, int) else "@"), text=True)
            note = setting_help(key, lang)
            put(ws, row, 3, note, st.get("note"), text=True)
            ws.merge_cells(start_row=row, start_column=3, end_row=row, end_column=6)
            ws.row_dimensions[row].height = 15 * note_lines(note)
            if key == "game_caps" and not self.settled:  # the maximum, for the league
                # tabs' check column
                put(ws, row, 7, f'=IFERROR(VALUE(MID(B{row},FIND("-",B{row})+1,9)),0)',
                    st.get("helper"))
                save_value(ws, row, 7, cap_maximum(v) or 0)
                self.wb.defined_names["GameCapMax"] = DefinedName(
                    "GameCapMax", attr_text=f"{quote(ws.title)}!$G${row}")
            if self.settled:
                continue
            if key == "carry_rounding":  # blank: the default
                dv = DataValidation(type="list", formula1='"' + ",".join(CARRY_ROUNDINGS) + '"',
                                    allow_blank=True, showErrorMessage=True,
                                    error=f"Choose one of {', '.join(CARRY_ROUNDINGS)}, or "
                                          "leave it blank.")
                dv.add(f"B{row}")
                ws.add_data_validation(dv)
            elif key in SETTING_CHOICES:
                choices = SETTING_CHOICES[key]
                dv = DataValidation(type="list", formula1='"' + ",".join(choices) + '"',
                                    allow_blank=False, showErrorMessage=True,
                                    error=f"Choose one of {', '.join(choices)}.")
                dv.add(f"B{row}")
                ws.add_data_validation(dv)
            elif key == "min_games":
                dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1="0",
                                    showErrorMessage=True, error="Enter a number of games.")
                dv.add(f"B{row}")
                ws.add_data_validation(dv)
        self._widths(ws, {1: 22, 2: 26, 3: 12, 4: 12, 5: 20, 6: 20})
        ws.column_dimensions["G"].hidden = True
        self._print(ws, None)
        self._protect(ws)
        self.season_layout = (ws.title, SEASON_FIRST, rows, top)

    def penalties_sheet(self) -> None:
        st, lang, book = self.st, self.lang, self.book
        ws = self.wb.create_sheet(label("sheet_penalties", lang))
        self._title(ws, self.suffix(label("title_penalties", lang)),
                    label("note_penalties", lang), across=6)
        heads = [label("date", lang), label("stage_short", lang), label("player", lang),
                 label("team", lang), label("points", lang), label("reason", lang)]
        for c, text in enumerate(heads, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        log: list[dict[str, Any]] = book.penalties
        rows = max(len(log), 1) if self.settled else len(log) + SPARE_PENALTIES
        pts = self._pts(all(r.ruleset.rounding != "none" for r in book.rules))
        styles = [st.get("input", "yyyy-mm-dd"), st.get("input"), st.get("input"),
                  st.get("input"), st.get("input", pts), st.get("input")]
        for i in range(rows):
            row = PENALTIES_FIRST + i
            entry = log[i] if i < len(log) else {}
            for c, key in enumerate(PENALTY_COLUMNS, 1):
                put(ws, row, c, entry.get(key), styles[c - 1], text=True)
        last = PENALTIES_FIRST + rows - 1
        if not self.settled:
            if (names := _list([lg.name for lg in book.leagues])) is not None:
                dv = DataValidation(type="list", formula1=names, allow_blank=True,
                                    showErrorMessage=True,
                                    error="Choose a league tab (a stage of the season).")
                dv.add(f"B{PENALTIES_FIRST}:B{last}")
                ws.add_data_validation(dv)
            who = roster_validation(lang)
            who.add(f"C{PENALTIES_FIRST}:C{last}")
            ws.add_data_validation(who)
            teams = sorted(set(book.teams.values()))
            if (names := _list(teams)) is not None:
                dv = DataValidation(type="list", formula1=names, allow_blank=True,
                                    showErrorMessage=True, errorStyle="warning",
                                    error="Not a team of the Players sheet.")
                dv.add(f"D{PENALTIES_FIRST}:D{last}")
                ws.add_data_validation(dv)
            pts_dv = DataValidation(type="decimal", operator="between", formula1="-1000",
                                    formula2="1000", allow_blank=True, showErrorMessage=True,
                                    error="Enter final points, e.g. -20.")
            pts_dv.add(f"E{PENALTIES_FIRST}:E{last}")
            ws.add_data_validation(pts_dv)
            reasons = REASONS_JA if lang == "ja" else PENALTY_REASONS
            why = DataValidation(type="list", formula1='"' + ",".join(reasons) + '"',
                                 allow_blank=True, showErrorMessage=True,
                                 errorStyle="information",
                                 error=f"Usual reasons: {', '.join(reasons)}.")
            why.add(f"F{PENALTIES_FIRST}:F{last}")
            ws.add_data_validation(why)
        self._widths(ws, {1: 12, 2: 16, 3: 16, 4: 14, 5: 9, 6: 30})
        ws.freeze_panes = f"A{PENALTIES_FIRST}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)
        ws.protection.insertRows = False
        ws.protection.deleteRows = False
        self.penalties_layout = (ws.title, PENALTIES_FIRST, rows)
