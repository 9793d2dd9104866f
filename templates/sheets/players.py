"""The Players sheet: the roster the league tabs' player dropdowns offer."""

from __future__ import annotations

from openpyxl.workbook.defined_name import DefinedName

from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import HEADER_ROW, PLAYERS_FIRST
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import put, ref


class PlayersSheet(SheetWriter):
    def players_sheet(self) -> None:
        st, lang = self.st, self.lang
        ws = self.wb.create_sheet(self.names["players"])
        self._title(ws, self.suffix(label("title_players", lang)),
                    label("note_players_settled" if self.settled else "note_players", lang))
        put(ws, HEADER_ROW, 1, label("player", lang), st.get("header"), text=True)
        if self.has_teams():
            put(ws, HEADER_ROW, 2, label("team", lang), st.get("header"), text=True)
            ws.column_dimensions["B"].width = 18
        for i in range(self.roster):
            name = self.book.players[i] if i < len(self.book.players) else None
            # Text format: a name typed as 007 stays 007, not the number 7
            put(ws, PLAYERS_FIRST + i, 1, name, st.get("input", "@"), text=True)
            if self.has_teams():
                put(ws, PLAYERS_FIRST + i, 2, self.book.teams.get(name or ""),
                    st.get("input", "@"), text=True)
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
        self._protect(ws)
        ws.protection.insertRows = False  # allowed: the roster is a list to keep
        ws.protection.deleteRows = False
