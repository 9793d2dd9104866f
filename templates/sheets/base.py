"""The state every sheet writer shares (one workbook being built), and small helpers."""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from openpyxl import Workbook
from openpyxl.utils import get_column_letter as col_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from umaoka.engine import PlayerStanding, Settlement, __version__
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import game_rows, league_cols, roster_size, sheet_names
from umaoka.templates.book.model import Book, Game, League, Origin, Rules
from umaoka.templates.book.results import (
    FIRST_ROW,
    Outcome,
    counted,
    league_standings,
    settle_league,
)
from umaoka.templates.book.saved_values import LeagueValues, Slot, league_slots, league_values
from umaoka.templates.sheets.season_totals import extras, with_extras
from umaoka.templates.xlsx.styles import Styles, points_format, print_setup, protect, put, ref
from umaoka.templates.xlsx.styles import widths as set_widths
from umaoka.templates.xlsx.writer import save_value


@dataclass(frozen=True)
class TabRanges:
    """A league tab's game-row ranges (``'Spring'!$E$5:$E$204``), one per seat."""

    players: list[str]
    scores: list[str]
    results: list[str]
    places: list[str]
    chips: list[str]
    last: str
    worst: list[str]  # each seat's worst shared place (hidden helpers)
    tied: list[str]  # how many seats share each seat's place (hidden helpers)


class SheetWriter:
    """What every sheet writer shares: the book, its styles, sheet names, roster and the
    values (template) or outcomes (settled copy) of every league."""

    def __init__(self, book: Book, settled: bool,
                 outcomes: list[list[Outcome | None]] | None = None,
                 origin: Origin | None = None, lite_code_inside: bool = False):
        self.book = book
        self.settled = settled
        self.origin = origin
        self.lite_code_inside = lite_code_inside
        self.lang = book.lang
        self.wb = Workbook()
        whole = all(r.ruleset.rounding != "none" for r in book.rules)
        self.st = Styles(self.wb, points_format(whole), locked_inputs=settled,
                         lang=book.lang)
        self.names = sheet_names(book)
        # a template keeps free roster rows for new players; a settled copy is a report and
        # lists just the players it has (no pages of empty rows)
        self.roster = max(len(book.players), 1) if settled else roster_size(book)
        self.outcomes: list[list[Outcome | None]] = []
        self.counted: list[list[tuple[Game, Settlement]]] = []
        self._standings: dict[int, list[PlayerStanding]] = {}
        # the template's saved values: what its formulas compute from the games it holds
        self.values: list[LeagueValues] = []
        self.slots: list[list[Slot]] = []
        if settled:
            for i, league in enumerate(book.leagues):
                out = (outcomes[i] if outcomes is not None
                       else settle_league(league, book.rules_of(league).ruleset))
                self.outcomes.append(out)
                self.counted.append(counted(league, out, book.players))
        else:
            names = self.roster_names()
            for league in book.leagues:
                r = book.rules_of(league).ruleset
                lv = league_values(league, r, game_rows(league, False), self.lang,
                                   self.book.players)
                self.values.append(lv)
                n = r.players
                # a season's chips and logged penalties, on rows the standings count
                seats = [(lv.players[i], (list(g.chips) + [None] * n)[:n])
                         for i, g in enumerate(league.games)
                         if i < len(lv.places) and _placed(lv.places[i][0])]
                self.slots.append(league_slots(names, lv, n, extras(book, league, seats),
                                               r.shared_place))

    def roster_names(self) -> list[str]:
        """What ``=Players!A5&""`` shows for every roster slot."""
        return [self.book.players[i] if i < len(self.book.players) else ""
                for i in range(self.roster)]

    def has_teams(self) -> bool:
        """The Players sheet has a Team column: in a season workbook, or with teams."""
        return self.book.season is not None or bool(self.book.teams)

    def rules_summary(self, rules: Rules) -> str:
        """``mleague (players=4 ...)``, or ``mleague, edited (...)`` when changed from the preset;
        the values in brackets are always the ones used."""
        name = label("edited", self.lang, name=rules.name) if rules.edits() else rules.name
        return f"{name} ({rules.ruleset.text()})"

    def settled_note(self, rules: Rules) -> str:
        """The subtitle of a settled copy's league tab: what it is, from where, when."""
        o = self.origin or Origin(None, "", __version__)
        key = "note_settled" if o.source else "note_settled_anon"
        return label(key, self.lang, source=o.source, when=o.when, version=o.version,
                     rules=self.rules_summary(rules))

    def suffix(self, title: str) -> str:
        """A title, marked as the settled copy's when it is one."""
        return title + label("settled_suffix", self.lang) if self.settled else title

    def tab_ranges(self, league: League, n: int) -> TabRanges:
        """Absolute references to the game-row ranges of a league tab's columns."""
        cols = league_cols(league, n)
        rows = game_rows(league, self.settled)
        first, last = FIRST_ROW, FIRST_ROW + rows - 1

        def col(cs: list[int]) -> list[str]:
            return [ref(league.name, c, first, last) for c in cs]

        return TabRanges(col(cols.players), col(cols.scores), col(cols.results),
                         col(cols.places), col(cols.chip_cols), col([cols.last])[0],
                         col(cols.worst), col(cols.tied))

    def league_sheet_name(self, index: int, key: str) -> str:
        """A per-league sheet's name (label ``key``, e.g. ``<league> Stats``), shortened to
        Excel's 31 characters and unique in the book."""
        league = self.book.leagues[index]
        taken = {n.lower() for n in self.wb.sheetnames}
        base = label(key, self.lang, name=league.name)
        if len(base) > 31:
            base = label(key, self.lang, name=league.name[: 31 - len(base) + len(league.name)])
        name, i = base, 2
        while name.lower() in taken:
            name, i = f"{base[:28]} {i}", i + 1
        return name

    def standings_of(self, index: int) -> list[PlayerStanding]:
        if index not in self._standings:
            games = self.counted[index]
            league = self.book.leagues[index]
            rule = self.book.rules_of(league).ruleset.shared_place
            self._standings[index] = with_extras(league_standings(games, rule), extras(
                self.book, league, [(g.players, g.chips) for g, _ in games]))
        return self._standings[index]

    def overall_rows(self) -> list[PlayerStanding]:
        """Standings of all leagues together (settled copy), computed once."""
        if -1 not in self._standings:
            if len(self.counted) == 1:
                self._standings[-1] = self.standings_of(0)
            else:
                more: dict[str, Decimal] = {}
                for lg, games in zip(self.book.leagues, self.counted):
                    for k, v in extras(self.book, lg,
                                       [(g.players, g.chips) for g, _ in games]).items():
                        more[k] = more.get(k, Decimal(0)) + v
                rules = [self.book.rules_of(lg).ruleset.shared_place
                         for lg, league_games in zip(self.book.leagues, self.counted)
                         for _ in league_games]
                self._standings[-1] = with_extras(league_standings(
                    [g for league_games in self.counted for g in league_games], rules), more)
        return self._standings[-1]

    # -- sheet helpers ----------------------------------------------------------------------------
    def _shared_place_note(self, ws: Worksheet, rule: str, cell: str | None = None) -> None:
        """Row 3, above the table: how a shared place counts (the league's
        ``shared_place``); in a template a formula that follows the Rules sheet's cell."""
        words = {r: label(f"shared_place_{r}", self.lang) for r in ("better", "worse", "split")}
        if cell is None:
            put(ws, 3, 1, words.get(rule, words["better"]), self.st.get("subtitle"), text=True)
            return
        put(ws, 3, 1, f'=IF({cell}="worse","{words["worse"]}",IF({cell}="split",'
                      f'"{words["split"]}","{words["better"]}"))', self.st.get("subtitle"))
        save_value(ws, 3, 1, words.get(rule, words["better"]))


    def _title(self, ws: Worksheet, title: str, note: str, across: int | None = None) -> None:
        """Title and note rows; ``across``: wrap the note over that many columns (two lines)
        instead of letting a long note run past the printed page."""
        put(ws, 1, 1, title, self.st.get("title"), text=True)
        put(ws, 2, 1, note, self.st.get("subtitle_wrap" if across else "subtitle"), text=True)
        ws.row_dimensions[1].height = 24
        if across:
            ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=across)
            ws.row_dimensions[2].height = 30  # fitted to the text by _print, once widths are set

    def _protect(self, ws: Worksheet) -> None:
        protect(ws)

    def _print(self, ws: Worksheet, title_rows: str | None, **kw: Any) -> None:
        print_setup(ws, title_rows, **kw)
        self._fit_note(ws)

    @staticmethod
    def _fit_note(ws: Worksheet, row: int = 2) -> None:
        """A note wrapped over several columns (``_title``'s ``across``, or any row's
        :meth:`_wrapped`) gets the rows of text it needs: Excel does not grow a merged row
        by itself. Called once the column widths are set."""
        merged = next((r for r in ws.merged_cells.ranges
                       if r.min_row == r.max_row == row and r.min_col == 1), None)
        note = ws.cell(row, 1).value
        if merged is None or not isinstance(note, str):
            return
        width = sum(ws.column_dimensions[col_letter(c)].width or 8.43
                    for c in range(1, merged.max_col + 1))
        # a full-width (CJK) character takes two character widths; italic text runs ~10% wide
        units = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in note) * 1.1
        ws.row_dimensions[row].height = 15 * max(1, math.ceil(units / max(width, 1)))

    def _wrapped(self, ws: Worksheet, row: int, text: str, across: int) -> None:
        """A note on its own row, wrapped over ``across`` columns: on one line a long
        message ran past the printed page's edge. Its height: :meth:`_fit_note`."""
        put(ws, row, 1, text, self.st.get("subtitle_wrap"), text=True)
        ws.merge_cells(start_row=row, start_column=1, end_row=row, end_column=across)

    def _widths(self, ws: Worksheet, widths: dict[int, float]) -> None:
        set_widths(ws, widths)

    def _pts(self, whole: bool, league: League | None = None) -> str:
        """The points format of a sheet of ``league`` (None: of several leagues). A tab with
        platform finals (tenths, +45.3) shows one decimal throughout, as the platform does,
        also under a whole-point ruleset (whose finals otherwise show as whole numbers)."""
        platform = (league.given if league is not None
                    else any(lg.given for lg in self.book.leagues))
        return points_format(whole and not platform)


def _placed(place: Any) -> bool:
    """A row the standings count: it has a place (COUNTIFS ..., places, ">0")."""
    return isinstance(place, int) and not isinstance(place, bool) and place > 0


def roster_validation(lang: str) -> DataValidation:
    """A name cell's drop-down of the roster (the RosterList name): a warning, not a stop,
    since a new player's name may be kept (then added to the Players sheet)."""
    return DataValidation(type="list", formula1="RosterList", allow_blank=True,
                          showErrorMessage=True, errorStyle="warning",
                          errorTitle=label("not_on_roster", lang),
                          error=label("roster_warning", lang))
