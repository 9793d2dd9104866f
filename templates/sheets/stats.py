"""A league's Stats sheet: 連対率 (top-two rate), トビ率 (bust rate), 平均素点 (average raw
score), best and worst game per player, in the order of the league's standings.

In the template the figures are native formulas over the league tab, with saved values:
the top-two rate from the standings' 1st and 2nd counts (so a shared place counts by the
Rules sheet's ``shared_place``, as there), COUNTIFS/SUMIFS for the bust rate and the
average, and for best and worst one plain formula per cell,
``MAX(IFERROR(AGGREGATE(14,6,finals/((players=name)*ISNUMBER(places)),1),-1E9), ...)``
over the seats (Excel 2010 has no MAXIFS; AGGREGATE takes an array without array entry,
in LibreOffice too), blank while a counted game of the player's has no final (a typed
game before the add-in ran) or none has one. Not an array formula: LibreOffice
recalculates those as it opens a file, when a typed game's finals (the add-in's) are not
there, and showed the best of the imported games alone. Bust rate and average raw count
only games with raw scores (rows settled by a platform without them are left out).
The settled copy holds the engine's values
(:func:`umaoka.engine.season.stats.player_stats`) and adds the longest streaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter as col_letter

from umaoka.engine.season.stats import GameRecord, PlayerStats, player_stats, records
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import HEADER_ROW, StandCols, rules_row
from umaoka.templates.book.model import Game, League
from umaoka.templates.book.results import Platform
from umaoka.templates.book.saved_values import LeagueValues, visible_rows
from umaoka.templates.sheets.base import SheetWriter
from umaoka.templates.xlsx.styles import exact, num, put, quote, ref
from umaoka.templates.xlsx.writer import save_value

#: Columns: player, games, top-two rate, bust rate, average raw, best, worst; the settled
#: copy adds three streaks; the template a hidden helper (games with raw scores).
_KEYS = ("player", "games", "top_two_rate", "bust_rate", "average_raw", "best", "worst")
_STREAKS = ("top_streak", "top_two_streak", "no_last_streak")
#: Sentinels of best and worst, never shown (without a number the cell is blank).
_FAR = "1E9"


def stats_records(counted: Sequence[tuple[Game, Any]]) -> list[Any]:
    """The counted games of a league as the engine's stats take them (tab order)."""
    out: list[Any] = []
    for g, s in counted:
        names = [str(p).strip() for p in g.players]
        if isinstance(s, Platform):
            scores = g.scores if g.scores and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in g.scores
            ) else None
            out.append((names, s.final, s.places,
                        [int(v) for v in scores] if scores else None))
        else:
            out.append((names, s))
    return out


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)


def template_values(names: Sequence[str], lv: LeagueValues, scores: Sequence[Sequence[Any]],
                    n: int) -> list[list[Any]]:
    """What the template's formulas compute for each name (mirrors them step by step):
    games, top-two rate, bust rate, average raw, best, worst, and the raw-games helper."""
    # one pass over the tab: [games, top two, raw games, busts, raw sum, finals] by name
    acc: dict[str, list[Any]] = {}
    for players, res, pl, sc in zip(lv.players, lv.results, lv.places, scores):
        for s in range(n):
            if not _is_number(pl[s]) or players[s] == "":
                continue
            a = acc.setdefault(players[s].lower(), [0, 0, 0, 0, Decimal(0), [], 0])
            a[6] += 1  # counted (a place), with or without a final
            a[0] += pl[s] > 0
            a[1] += pl[s] <= 2
            if _is_number(res[s]):
                a[5].append(Decimal(str(res[s])))
            v = sc[s] if s < len(sc) else None
            if pl[s] > 0 and v is not None and v != "":
                a[2] += 1
                if _is_number(v):
                    a[4] += Decimal(str(v))
                    a[3] += v < 0
    rows = []
    for name in names:
        if name == "":
            rows.append([""] * 7)
            continue
        games, top2, raw, busts, raw_sum, finals, counted = acc.get(
            name.lower(), [0, 0, 0, 0, Decimal(0), [], 0])
        if len(finals) != counted:  # a counted game without its final: no best, no worst
            finals = []
        rows.append([games, top2 / games if games else "",
                     busts / raw if raw else "", float(raw_sum / raw) if raw else "",
                     num(max(finals)) if finals else "",
                     num(min(finals)) if finals else "", raw])
    return rows


class StatsSheets(SheetWriter):
    def stat_games(self, index: int) -> list[GameRecord]:
        """The counted games of league ``index`` as checked records, worked out once for the
        Stats and Rating sheets of a settled copy."""
        cache = self.__dict__.setdefault("_stat_games", {})
        if index not in cache:
            cache[index] = records(stats_records(self.counted[index]))
        return cache[index]

    def stats_sheet(self, index: int, league: League) -> None:
        st, lang = self.st, self.lang
        rules = self.book.rules_of(league).ruleset
        n = rules.players
        ws = self.wb.create_sheet(self.league_sheet_name(index, "sheet_league_stats"))
        keys = list(_KEYS) + (list(_STREAKS) if self.settled else [])
        # the note wrapped over the table's width: on one line it ran past the page's edge
        self._title(ws, self.suffix(label("title_stats", lang, name=league.name)),
                    label("note_stats_settled" if self.settled else "note_stats", lang),
                    across=len(keys))
        for c, key in enumerate(keys, 1):
            put(ws, HEADER_ROW, c, label(f"stat_{key}", lang), st.get("header"), text=True)
        ws.row_dimensions[HEADER_ROW].height = 30
        pts = self._pts(rules.rounding != "none", league)
        styles = [st.get("key"), st.get("formula", "0"), st.get("formula", "0.0%"),
                  st.get("formula", "0.0%"), st.get("formula", "#,##0"),
                  st.get("result", pts), st.get("result", pts)] + [st.get("formula", "0")] * 3
        first = HEADER_ROW + 1
        if self.settled:
            by_name = {p.name: p for p in player_stats(self.stat_games(index),
                                                       rules.shared_place)}
            for k, standing in enumerate(self.standings_of(index)):
                p: PlayerStats = by_name[standing.name]
                values = [p.name, p.games, p.top_two_rate, p.bust_rate, p.average_raw,
                          num(p.best), num(p.worst), p.top_streak, p.top_two_streak,
                          p.no_last_streak]
                for c, v in enumerate(values, 1):
                    put(ws, first + k, c, v, styles[c - 1], text=(c == 1))
            self._shared_place_note(ws, rules.shared_place)
        else:
            self._stats_formulas(ws, index, league, n, styles)
            self._shared_place_note(ws, rules.shared_place, ref(
                self.names["rules"][league.rules], 2, rules_row("shared_place")))
        self._widths(ws, {1: 16, 2: 8, 3: 10, 4: 10, 5: 10, 6: 9, 7: 9, 8: 9, 9: 9, 10: 9})
        ws.freeze_panes = f"B{first}"
        self._print(ws, f"{HEADER_ROW}:{HEADER_ROW}")
        ws.print_area = f"A1:{col_letter(len(keys))}{HEADER_ROW + self.roster}"
        self._protect(ws)

    def _stats_formulas(self, ws: Any, index: int, league: League, n: int,
                        styles: list[Any]) -> None:
        tab = self.tab_ranges(league, n)
        P, S, F, PL = tab.players, tab.scores, tab.results, tab.places
        standings = quote(self.names["standings"][index])
        shown = visible_rows(self.slots[index], n)
        names = [row[1] for row in shown]
        lv = self.values[index]
        scores = [list(g.scores) for g in league.games]
        scores += [[None] * n] * (len(lv.players) - len(scores))
        saved = template_values(names, lv, scores, n)
        sc = StandCols(n)
        for v, row in zip(saved, shown):  # the top-two rate from the standings' counts
            if row[1] != "":
                v[1] = (row[sc.count(1) - 1] + row[sc.count(2) - 1]) / row[2]
        helper = 9  # hidden: games with raw scores
        st_helper = self.st.get("helper")
        put(ws, HEADER_ROW, helper, "raw games", st_helper, text=True)
        first = HEADER_ROW + 1
        for k in range(self.roster):
            row = first + k
            x = f"$A{row}"

            def plus(terms: list[str]) -> str:
                return "+".join(terms)

            raw = f"$I{row}"
            formulas = {
                1: f'=IF({standings}!$B{row}="","",{standings}!$B{row})',
                2: f'=IF({x}="","",{standings}!$C{row})',
                # 1sts and 2nds as the standings count them (shared_place)
                3: f'=IF({x}="","",({standings}!${col_letter(sc.count(1))}{row}'
                   f"+{standings}!${col_letter(sc.count(2))}{row})/$B{row})",
                4: f'=IF(OR({x}="",N({raw})=0),"",('
                   + plus([f'COUNTIFS({P[s]},{exact(x)},{PL[s]},">0",{S[s]},"<0")'
                           for s in range(n)]) + f")/{raw})",
                5: f'=IF(OR({x}="",N({raw})=0),"",('
                   + plus([f'SUMIFS({S[s]},{P[s]},{exact(x)},{PL[s]},">0")' for s in range(n)])
                   + f")/{raw})",
                helper: f'=IF({x}="",0,'
                + plus([f'COUNTIFS({P[s]},{exact(x)},{PL[s]},">0",{S[s]},"<>")'
                        for s in range(n)]) + ")",
            }
            for c, f in formulas.items():
                put(ws, row, c, f, st_helper if c == helper else styles[c - 1])
            v = saved[k]
            save_value(ws, row, 1, names[k])
            for c, value in zip((2, 3, 4, 5), v[:4]):
                save_value(ws, row, c, value)
            save_value(ws, row, helper, v[6] if names[k] != "" else 0)
            # blank when none of the player's counted games has a final score, or when one
            # of them has none yet (a typed game before the add-in ran): a number then would
            # be the best of some games only. Plain formulas (no array entry): LibreOffice
            # recalculates every array formula as it opens a file, and with the add-in's
            # finals not there yet it showed the best of the imported games as the best.
            cells = [(P[s], PL[s], F[s]) for s in range(n)]
            counted = plus([f"SUMPRODUCT(({p}={x})*ISNUMBER({pl}))" for p, pl, _ in cells])
            settled = plus([f"SUMPRODUCT(({p}={x})*ISNUMBER({pl})*ISNUMBER({f}))"
                            for p, pl, f in cells])
            for c, fn, agg, far, value in ((6, "MAX", 14, f"-{_FAR}", v[4]),
                                           (7, "MIN", 15, _FAR, v[5])):
                parts = ",".join(f"IFERROR(_xlfn.AGGREGATE({agg},6,{f}/(({p}={x})*ISNUMBER({pl})),"
                                 f"1),{far})" for p, pl, f in cells)
                put(ws, row, c, f'=IF({x}="","",IF(OR({settled}=0,{settled}<>{counted}),"",'
                    f'{fn}({parts})))', styles[c - 1])
                save_value(ws, row, c, "" if names[k] == "" else value)
        ws.column_dimensions[col_letter(helper)].hidden = True
