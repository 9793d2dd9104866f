"""The Presets sheet: every named ruleset umaoka knows, with its fields and description."""

from __future__ import annotations

from umaoka.engine import FIELDS, PRESETS
from umaoka.templates.book.labels import label, note_lines
from umaoka.templates.book.layout import HEADER_ROW
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import put


class PresetsSheet(SheetWriter):
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
            # wrapped description and source: the row grows to fit (not every program does)
            lines = max(note_lines(str(p.description), 60), note_lines(str(p.source), 28))
            ws.row_dimensions[row].height = 15 * lines
        self._widths(ws, {1: 18, 2: 8, 3: 8, 4: 8, 5: 6, 6: 14, 7: 22, 8: 20, 9: 11, 10: 7,
                          11: 10, 12: 9, 13: 60, 14: 28})
        ws.freeze_panes = f"B{HEADER_ROW + 1}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)
