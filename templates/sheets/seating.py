"""The Seating sheet: a drawn schedule (round, table, East..North), its figures (meetings
per pair, wind balance, sit-outs) and how to read it back from a workbook.

The schedule is a plan written as values; the per-player counts below it are COUNTIF
formulas over the plan (with saved values), so a seat swapped by hand shows in the balance.
The league tab's game rows are pre-filled from it (session = round, table), see
:func:`umaoka.templates.import_book.seat_into`.
"""

from __future__ import annotations

from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.engine import UmaokaError
from umaoka.engine.seating.plan import Schedule, Table
from umaoka.templates.book.labels import label, seat_label
from umaoka.templates.book.layout import HEADER_ROW
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import exact, put
from umaoka.templates.xlsx.writer import save_value

#: First row of the plan (rows 1-4: title, note, figures, headers).
SEATING_FIRST = HEADER_ROW + 1


def seating_name(book: Any) -> str:
    """The Seating sheet's name: its label, unless a league already has that name."""
    base = label("sheet_seating", book.lang)
    taken = {lg.name.lower() for lg in book.leagues}
    name, i = base, 2
    while name.lower() in taken:
        name, i = f"{base} {i}", i + 1
    return name


def figures(s: Schedule, lang: str) -> list[str]:
    """The figures a manager checks: meetings per pair, starts as East, sit-outs."""
    east = [c[0] for c in s.wind_counts().values()]
    sits = list(s.sit_out_counts().values())
    out = [label("seating_meetings", lang, most=s.max_meetings, least=s.min_meetings),
           label("seating_east", lang, span=_span(east))]
    if any(sits):
        out.append(label("seating_sitouts", lang, span=_span(sits)))
    return out


def _span(values: list[int]) -> str:
    lo, hi = min(values, default=0), max(values, default=0)
    return str(lo) if lo == hi else f"{lo}-{hi}"


class SeatingSheet(SheetWriter):
    def seating_sheet(self) -> None:
        s: Schedule | None = self.book.seating
        if s is None:
            return
        st, lang, n = self.st, self.lang, s.table_size
        name = seating_name(self.book)
        ws = self.wb.create_sheet(name)
        self._title(ws, self.suffix(label("title_seating", lang)),
                    label("note_seating", lang, players=len(s.players), rounds=s.rounds,
                          size=n, seed=s.seed))
        put(ws, 3, 1, "  ".join(figures(s, lang)), st.get("subtitle"), text=True)
        headers = [label("round", lang), label("table", lang)]
        headers += [seat_label(k, lang) for k in range(n)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        first = SEATING_FIRST
        for i, t in enumerate(s.tables):
            put(ws, first + i, 1, t.round, st.get("key", "0"))
            put(ws, first + i, 2, t.number, st.get("key", "0"))
            for k, p in enumerate(t.seats):
                put(ws, first + i, 3 + k, p, st.get("input"), text=True)
        last = first + max(len(s.tables), 1) - 1
        # wind balance: games per seat, sit-outs (formulas over the plan above)
        top = last + 3
        put(ws, top - 1, 1, label("seating_balance", lang), st.get("title"), text=True)
        heads = [label("player", lang), label("games", lang)]
        heads += [seat_label(k, lang) for k in range(n)] + [label("sit_outs", lang)]
        for c, text in enumerate(heads, 1):
            put(ws, top, c, text, st.get("header"), text=True)
        winds = s.wind_counts()
        sits = s.sit_out_counts()
        seat_cols = [col_letter(3 + k) for k in range(n)]
        for j, p in enumerate(s.players):
            row = top + 1 + j
            put(ws, row, 1, p, st.get("key"), text=True)
            counts = [f'COUNTIF(${c}${first}:${c}${last},{exact(f"$A{row}")})' for c in seat_cols]
            put(ws, row, 2, "=" + "+".join(counts), st.get("formula", "0"))
            save_value(ws, row, 2, sum(winds[p]))
            for k, f in enumerate(counts):
                put(ws, row, 3 + k, "=" + f, st.get("formula", "0"))
                save_value(ws, row, 3 + k, winds[p][k])
            put(ws, row, 3 + n, f"={s.rounds}-B{row}", st.get("formula", "0"))
            save_value(ws, row, 3 + n, sits[p])
        self._widths(ws, {1: 16, 2: 8, **{3 + k: 16 for k in range(n)}, 3 + n: 10})
        ws.freeze_panes = f"A{first}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)
        self.seating_meta = [name, first, len(s.tables), n, s.seed, s.method, s.rounds]


def read_seating(ws: Any, row: list[Any]) -> Schedule:
    """The schedule of a Seating sheet (``row``: its layout entry on the hidden sheet)."""
    try:
        first, count, size, seed, rounds = (int(row[i]) for i in (2, 3, 4, 5, 7))
    except (TypeError, ValueError, IndexError):
        raise UmaokaError("the hidden layout sheet's seating entry was changed; draw the "
                          "seating again with `umaoka seating --into`.") from None
    method = str(row[6] or "")
    tables: list[Table] = []
    for cells in ws.iter_rows(min_row=first, max_row=first + count - 1, max_col=2 + size,
                              values_only=True):
        r, t, *seats = cells
        if r is None or t is None:
            continue
        tables.append(Table(int(r), int(t), tuple("" if p is None else str(p) for p in seats)))
    # every player of the plan (one who sits out throughout too): the seats-per-player table
    names: list[str] = []
    for (cell,) in ws.iter_rows(min_row=first + count + 3, max_row=first + count + 3 + 1000,
                                max_col=1, values_only=True):
        if cell is None or str(cell).strip() == "":
            break
        names.append(str(cell))
    names += [p for p in dict.fromkeys(q for t in tables for q in t.seats if q)
              if p not in names]
    sits = tuple(tuple(p for p in names if p not in {q for t in tables if t.round == k
                                                     for q in t.seats})
                 for k in range(1, rounds + 1))
    return Schedule(tuple(names), size, tuple(tables), sits, seed, method)
