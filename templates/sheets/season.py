"""The Season sheet (stages in order, season settings) and the Penalties sheet (the
penalty log): inputs a league manager reads and edits, with dropdowns for fixed choices
and a plain-words note per setting, like the Rules sheets."""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter as col_letter
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from umaoka.engine.season.penalties import PENALTY_REASONS
from umaoka.engine.season.settings import STAGE_TABLE
from umaoka.engine.season.stages import CARRY_ROUNDINGS
from umaoka.engine.typed_numbers import NumberError, read_number
from umaoka.templates.book.labels import label, note_lines
from umaoka.templates.book.layout import (  # noqa: F401  (the season sheets' layout, kept importable here)
    HEADER_ROW,
    PENALTIES_FIRST,
    PENALTY_COLUMNS,
    SEASON_FIRST,
    SPARE_PENALTIES,
    STAGE_HELPERS,
    season_stage_rows,
    settings_first,
    stage_helper,
)
from umaoka.templates.book.season_book import (
    SETTING_CHOICES,
    SETTINGS,
    SeasonSpec,
    StageRow,
    cap_maximum,
    over_cap,
    setting_help,
    stage_setting,
)
from umaoka.templates.book.season_labels import REASONS_JA
from umaoka.templates.sheets.base import SheetWriter, roster_validation
from umaoka.templates.sheets.season_totals import chip_value
from umaoka.templates.xlsx.styles import exact, num, put, quote
from umaoka.templates.xlsx.writer import save_value


def _list(values: list[str]) -> str | None:
    """An in-cell list for a data validation, None when a value cannot be in one."""
    if not values or any("," in v or '"' in v for v in values):
        return None
    text = '"' + ",".join(values) + '"'
    return text if len(text) <= 255 else None


def _text(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _count(value: Any) -> Any:
    """A setting cell as ``IFERROR(--cell, 0)`` reads it (a number, else 0)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, (int, float)):
        return value
    try:  # Excel reads no number beyond about 1E+308 (#VALUE!, so 0), and so do we
        return read_number(value, below=10**308, commas=False)
    except NumberError:
        return 0


def cap_name(book: Any, league: Any) -> str:
    """The defined name of a league tab's game cap maximum (its stage's)."""
    return f"GameCapMax_{next(i for i, lg in enumerate(book.leagues) if lg is league) + 1}"


def _array(values: list[str]) -> str:
    return "{" + ",".join('"' + v.replace('"', '""') + '"' for v in values) + "}"


class SeasonSheets(SheetWriter):
    def cap_check(self, cols: Any, first: int, row: int, league: Any = None) -> str | None:
        """The check's game-cap helper of a row (season workbooks): the first player named
        in more rows of this tab, down to this one, than its stage's maximum (the defined
        name GameCapMax_<tab number>: the stage row's game_caps, else the season's), or
        ""."""
        if self.book.season is None or self.settled:
            return None
        cap = "GameCapMax" if league is None else cap_name(self.book, league)
        p1, p2 = col_letter(cols.players[0]), col_letter(cols.players[-1])
        out = '""'
        for c in reversed(cols.players):
            p = f"{col_letter(c)}{row}"
            out = (f'IF(AND({cap}>0,{p}<>"",COUNTIF(${p1}${first}:${p2}{row},{exact(p)})'
                   f'>{cap}),"{label("over_cap", self.lang)}: "&{p},{out})')
        return out

    def over_caps(self, league: Any, n: int) -> list[str | None]:
        """Per game row, the first player over the game cap (what :meth:`cap_check` shows)."""
        if self.book.season is None:
            return []
        return over_cap(league, n, cap_maximum(
            stage_setting(self.book.season, league.name, "game_caps")))

    def season_stage_rows(self) -> int:
        return season_stage_rows(self.book)

    def season_sheet(self) -> None:
        st, lang, book = self.st, self.lang, self.book
        spec: SeasonSpec = book.season
        ws = self.wb.create_sheet(label("sheet_season", lang))
        width = 4 + len(STAGE_TABLE)
        self._title(ws, self.suffix(label("title_season", lang)),
                    label("note_season_settled" if self.settled else "note_season", lang),
                    across=width)
        for c, key in enumerate(("stage", "ruleset", "advance", "carry"), 1):
            put(ws, HEADER_ROW, c, label(key, lang), st.get("header"), text=True)
        for c, key in enumerate(STAGE_TABLE, 5):  # the settings' own names, as below
            put(ws, HEADER_ROW, c, label(f"col_{key}", lang), st.get("header"), text=True)
        ws.row_dimensions[HEADER_ROW].height = 30
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
            for c, key in enumerate(STAGE_TABLE, 5):
                # text cells: a 0 typed there is the stage's own 0, never a blank
                # (desktop Excel sends an empty cell to MJ_SEASON as the number 0)
                v = s.settings.get(key)
                put(ws, row, c, None if v is None else str(v), st.get("input", "@"),
                    text=True)
        top = settings_first(rows)
        if not self.settled:
            self._stage_validations(ws, leagues, last)
            self._stage_helpers(ws, rows, top)

        put(ws, top - 2, 1, label("settings", lang), st.get("title"), text=True)
        for c, key in enumerate(("key", "value", "note"), 1):
            put(ws, top - 1, c, label(key, lang), st.get("header"), text=True)
        for i, key in enumerate(SETTINGS):
            row = top + i
            v = spec.settings.get(key)
            put(ws, row, 1, key, st.get("key"), text=True)
            put(ws, row, 2, v, st.get("input_top", "0" if isinstance(v, int) else "@"),
                text=True)
            note = setting_help(key, lang)
            put(ws, row, 3, note, st.get("note"), text=True)
            ws.merge_cells(start_row=row, start_column=3, end_row=row, end_column=width)
            ws.row_dimensions[row].height = 15 * note_lines(note, 140)
            if key == "game_caps" and not self.settled:  # the season's maximum
                c = STAGE_HELPERS["game_caps"]
                put(ws, row, c, f'=IFERROR(VALUE(MID(B{row},FIND("-",B{row})+1,9)),0)',
                    st.get("helper"))
                save_value(ws, row, c, cap_maximum(v) or 0)
                self.wb.defined_names["GameCapMax"] = DefinedName(
                    "GameCapMax", attr_text=f"{quote(ws.title)}!${col_letter(c)}${row}")
            if self.settled:
                continue
            if key == "carry_rounding":  # blank: the default
                self._rounding_list(ws, f"B{row}")
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
        widths = {1: 22, 2: 26, 3: 12, 4: 12}
        widths.update({c: 14 for c in range(5, width + 1)})
        widths[4 + STAGE_TABLE.index("tie_breaks") + 1] = 26
        self._widths(ws, widths)
        for c in STAGE_HELPERS.values():
            ws.column_dimensions[col_letter(c)].hidden = True
        self._print(ws, None)
        self._protect(ws)
        self.season_layout = (ws.title, SEASON_FIRST, rows, top)

    @staticmethod
    def _rounding_list(ws: Any, cells: str) -> None:
        dv = DataValidation(type="list", formula1='"' + ",".join(CARRY_ROUNDINGS) + '"',
                            allow_blank=True, showErrorMessage=True,
                            error=f"Choose one of {', '.join(CARRY_ROUNDINGS)}, or leave it "
                                  "blank.")
        dv.add(cells)
        ws.add_data_validation(dv)

    def _stage_validations(self, ws: Any, leagues: list[str], last: int) -> None:
        """Dropdowns and checks of the stage table's inputs."""
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

        def column(key: str) -> str:
            c = col_letter(5 + STAGE_TABLE.index(key))
            return f"{c}{SEASON_FIRST}:{c}{last}"

        self._rounding_list(ws, column("carry_rounding"))
        for key, choices in SETTING_CHOICES.items():
            if key in STAGE_TABLE:  # blank: the season's value
                dv = DataValidation(type="list", formula1='"' + ",".join(choices) + '"',
                                    allow_blank=True, showErrorMessage=True,
                                    error=f"Choose one of {', '.join(choices)}, or leave it "
                                          "blank for the season's value.")
                dv.add(column(key))
                ws.add_data_validation(dv)

    def _stage_helpers(self, ws: Any, rows: int, top: int) -> None:
        """The hidden helper cells, one row per league tab (:data:`STAGE_HELPERS`): the
        tab's stage's game cap maximum, chip value and min_games, read from its stage row
        (matched by name, as MJ_SEASON matches it) or else from the settings table; and a
        defined name GameCapMax_<tab number> for each tab's check column."""
        book, st = self.book, self.st
        names = f"$A${SEASON_FIRST}:$A${SEASON_FIRST + rows - 1}"
        for i, lg in enumerate(book.leagues):
            row = SEASON_FIRST + i
            found = f"MATCH({_text(lg.name)},{names},0)"
            for key, c in STAGE_HELPERS.items():
                k = col_letter(5 + STAGE_TABLE.index(key))
                x = f"INDEX(${k}${SEASON_FIRST}:${k}${SEASON_FIRST + rows - 1},{found})"
                season = f"$B${top + list(SETTINGS).index(key)}"
                # a stage cell that is blank (or the number 0: desktop Excel's blank) is
                # the season's value (season_book.unset)
                value = (f'IFERROR(IF(ISNUMBER({x}),IF({x}=0,{season},{x}),'
                         f'IF(TRIM({x})="",{season},{x})),{season})')
                v = stage_setting(book.season, lg.name, key)
                if key == "game_caps":
                    formula = f'IFERROR(VALUE(MID({value},FIND("-",{value})+1,9)),0)'
                    saved: Any = cap_maximum(v) or 0
                elif key == "chip_value":
                    formula, saved = f"IFERROR(--{value},0)", chip_value(book, lg)
                else:
                    formula, saved = f"IFERROR(--{value},0)", _count(v)
                put(ws, row, c, "=" + formula, st.get("helper"))
                save_value(ws, row, c, num(saved))
            self.wb.defined_names[cap_name(book, lg)] = DefinedName(
                cap_name(book, lg),
                attr_text=f"{quote(ws.title)}!${col_letter(STAGE_HELPERS['game_caps'])}${row}")

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
