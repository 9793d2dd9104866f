"""The Seating sheet: the season's seating night by night (date, round, table,
East..North), its figures (meetings per pair, repeats, wind balance, sit-outs) and how to
read it back from a workbook. Each ``umaoka seating --into`` adds a night under the
earlier ones.

The schedule is a plan written as values; the per-player counts below it are COUNTIF
formulas over the plan (with saved values), so a seat swapped by hand shows in the balance.
The league tab's game rows are pre-filled from it (session = round, table), see
:func:`umaoka.templates.import_book.seat_into`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.engine import UmaokaError
from umaoka.engine.seating.nights import meetings, repeats
from umaoka.engine.seating.plan import Schedule, Table
from umaoka.templates.book.labels import label, seat_label
from umaoka.templates.book.layout import HEADER_ROW
from umaoka.templates.book.model import Night, seating_nights
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import exact, put
from umaoka.templates.xlsx.writer import save_value

#: First row of the plan (rows 1-4: title, note, figures, headers).
SEATING_FIRST = HEADER_ROW + 1
#: Column of the plan's first seat (Date, Round and Table come before it).
PLAN_SEAT = 4


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
    return season_figures([Night(s)], lang)


def season_figures(nights: Sequence[Night], lang: str) -> list[str]:
    """The season's figures over every night: meetings per pair (at least: over the pairs
    present together on some night), repeat meetings when more than one night, starts as
    East and sit-outs per player."""
    tables = [t.seats for night in nights for t in night.schedule.tables]
    met = meetings(tables)
    could: set[tuple[str, str]] = set()
    for night in nights:
        present = sorted(night.schedule.players)
        could.update((a, b) for i, a in enumerate(present) for b in present[i + 1:])
    most = max(met.values(), default=0)
    least = min((met.get(pair, 0) for pair in could), default=0)
    winds, sits, _ = _balance(nights)
    east = [c[0] for c in winds.values()]
    out = [label("seating_meetings", lang, most=most, least=least)]
    if len(nights) > 1:
        out.append(label("seating_repeats", lang, nights=len(nights), repeats=repeats(tables)))
    out.append(label("seating_east", lang, span=_span(east)))
    if any(sits.values()):
        out.append(label("seating_sitouts", lang, span=_span(list(sits.values()))))
    return out


def _span(values: list[int]) -> str:
    lo, hi = min(values, default=0), max(values, default=0)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _balance(nights: Sequence[Night]) -> tuple[dict[str, list[int]], dict[str, int],
                                                dict[str, int]]:
    """Per player over every night: starts per seat, sit-outs, rounds present."""
    size = nights[0].schedule.table_size
    winds: dict[str, list[int]] = {}
    sits: dict[str, int] = {}
    present: dict[str, int] = {}
    for night in nights:
        s = night.schedule
        for p, counts in s.wind_counts().items():
            total = winds.setdefault(p, [0] * size)
            for k, c in enumerate(counts[:size]):
                total[k] += c
        for p, c in s.sit_out_counts().items():
            sits[p] = sits.get(p, 0) + c
        for p in s.players:
            present[p] = present.get(p, 0) + s.rounds
    return winds, sits, present


class SeatingSheet(SheetWriter):
    def seating_sheet(self) -> None:
        nights = seating_nights(self.book.seating)
        if not nights:
            return
        st, lang = self.st, self.lang
        n = nights[-1].schedule.table_size
        name = seating_name(self.book)
        ws = self.wb.create_sheet(name)
        last_night = nights[-1].schedule
        if len(nights) == 1:
            note = label("note_seating", lang, players=len(last_night.players),
                         rounds=last_night.rounds, size=n, seed=last_night.seed)
        else:
            note = label("note_seating_nights", lang, nights=len(nights),
                         rounds=sum(night.schedule.rounds for night in nights), size=n)
        self._title(ws, self.suffix(label("title_seating", lang)), note)
        put(ws, 3, 1, "  ".join(season_figures(nights, lang)), st.get("subtitle"), text=True)
        headers = [label("date", lang), label("round", lang), label("table", lang)]
        headers += [seat_label(k, lang) for k in range(n)]
        for c, text in enumerate(headers, 1):
            put(ws, HEADER_ROW, c, text, st.get("header"), text=True)
        first = SEATING_FIRST
        row = first
        self.seating_meta = []
        s_date = st.get("key", "yyyy-mm-dd")
        for night in nights:
            s = night.schedule
            self.seating_meta.append([
                name, row, len(s.tables), s.table_size, s.seed, s.method, s.rounds,
                night.date.isoformat() if night.date else "", night.session or "",
                s.design_from, "\t".join(s.design), "\t".join(s.players)])
            for t in s.tables:
                if night.date is not None:
                    put(ws, row, 1, night.date, s_date)
                put(ws, row, 2, t.round, st.get("key", "0"))
                put(ws, row, 3, t.number, st.get("key", "0"))
                for k, p in enumerate(t.seats):
                    put(ws, row, PLAN_SEAT + k, p, st.get("input"), text=True)
                row += 1
        last = max(row - 1, first)
        # wind balance over the season: games per seat, sit-outs (formulas over the plan)
        top = last + 3
        put(ws, top - 1, 1, label("seating_balance", lang), st.get("title"), text=True)
        # Player, Games, Sit-outs, then the seats under the plan's seat columns
        heads = [label("player", lang), label("games", lang), label("sit_outs", lang)]
        heads += [seat_label(k, lang) for k in range(n)]
        for c, text in enumerate(heads, 1):
            put(ws, top, c, text, st.get("header"), text=True)
        winds, sits, present = _balance(nights)
        seat_cols = [col_letter(PLAN_SEAT + k) for k in range(n)]
        for j, p in enumerate(winds):
            row = top + 1 + j
            put(ws, row, 1, p, st.get("key"), text=True)
            counts = [f'COUNTIF(${c}${first}:${c}${last},{exact(f"$A{row}")})' for c in seat_cols]
            put(ws, row, 2, "=" + "+".join(counts), st.get("formula", "0"))
            save_value(ws, row, 2, sum(winds[p]))
            put(ws, row, 3, f"={present[p]}-B{row}", st.get("formula", "0"))
            save_value(ws, row, 3, sits[p])
            for k, f in enumerate(counts):
                put(ws, row, PLAN_SEAT + k, "=" + f, st.get("formula", "0"))
                save_value(ws, row, PLAN_SEAT + k, winds[p][k])
        self._widths(ws, {1: 16, 2: 8, 3: 9, **{PLAN_SEAT + k: 16 for k in range(n)}})
        ws.freeze_panes = f"A{first}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        self._protect(ws)


def read_seating(ws: Any, rows: list[list[Any]]) -> list[Night]:
    """The nights of a Seating sheet (``rows``: its layout entries on the hidden sheet, one
    per night; a workbook of umaoka 0.3 or before has one night, its plan from column A)."""
    nights: list[Night] = []
    for row in rows:
        try:
            first, count, size, seed, rounds = (int(row[i]) for i in (2, 3, 4, 5, 7))
        except (TypeError, ValueError, IndexError):
            raise UmaokaError("the hidden layout sheet's seating entry was changed; draw the "
                              "seating again with `umaoka seating --into`.") from None
        method = str(row[6] or "")
        extra = [*row[8:13], *[None] * 5][:5]
        dated, session, design_from, design, players = extra
        # the Round column: B since dated nights (their entry has the design's round), A before
        col = PLAN_SEAT - 2 if design_from is not None else 1
        tables: list[Table] = []
        for cells in ws.iter_rows(min_row=first, max_row=first + count - 1,
                                  min_col=col, max_col=col + 1 + size, values_only=True):
            r, t, *seats = cells
            if r is None or t is None:
                continue
            tables.append(Table(int(r), int(t),
                                tuple("" if p is None else str(p) for p in seats)))
        if players:
            names = str(players).split("\t")
        else:  # one night, before the layout kept its players: the seats-per-player table
            names = []
            for (cell,) in ws.iter_rows(min_row=first + count + 3,
                                        max_row=first + count + 3 + 1000,
                                        max_col=1, values_only=True):
                if cell is None or str(cell).strip() == "":
                    break
                names.append(str(cell))
        names += [p for p in dict.fromkeys(q for t in tables for q in t.seats if q)
                  if p not in names]
        sits = tuple(tuple(p for p in names if p not in {q for t in tables if t.round == k
                                                         for q in t.seats})
                     for k in range(1, rounds + 1))
        order = tuple(str(design).split("\t")) if design else ()
        try:
            start = int(design_from or 0)
        except (TypeError, ValueError):
            start = 0
        plan = Schedule(tuple(names), size, tuple(tables), sits, seed, method, (),
                        order if sorted(order) == sorted(names) else (), start)
        nights.append(Night(plan, _date(dated), _int(session)))
    return nights


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def _int(value: Any) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
