"""A Rules sheet: one ruleset's fields, editable in a template (the league tabs follow)."""

from __future__ import annotations

from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

from umaoka.engine import CHOICES, FIELDS, PRESETS
from umaoka.templates.book.labels import field_help, label, note_lines
from umaoka.templates.book.layout import HEADER_ROW, RULES_FIRST
from umaoka.templates.book.model import Rules
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import put, ref


class RulesSheet(SheetWriter):
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
