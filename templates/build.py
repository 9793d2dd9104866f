"""The league workbook generator (openpyxl).

One layout serves two kinds of workbook:

* the **template** (``settled=False``): results come from one legacy array formula per
  league, ``=IFERROR(MJ_SETTLE(scores, Rules_x, deposits, penalties), hint)`` with the
  function's name in the saved form of the workbook's runtime (:mod:`.runtime`); places
  and standings from native formulas (COUNTIF, SUMIFS, COUNTIFS, SUMPRODUCT, INDEX/MATCH)
  that Excel 2010+ and LibreOffice compute. Every formula carries its saved value
  (:mod:`.saved_values`), and while the functions are off a game row shows one short hint
  pointing to the Start sheet instead of ``#NAME?``;
* the **settled copy** (``settled=True``): a report with the same sheets, every result,
  place and standing written as a plain value by the engine, inputs locked, readable
  without the add-in.

Sheets: Start (first), per league a games tab and a standings tab, an overall standings
tab (with more than one league), Players, one Rules sheet per ruleset, Presets,
``xlwings.conf`` and a very hidden ``_umaoka`` sheet describing the layout (and runtime)
for ``umaoka settle``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from openpyxl import Workbook

from umaoka.engine import __version__
from umaoka.engine.batch import paused_gc
from umaoka.engine.season.stages import SeasonResult
from umaoka.templates.book.layout import (  # noqa: F401  (re-exported: the layout's names, as before the split)
    CHART_SERIES,
    CONF_SHEET,
    FORMAT_VERSION,
    HEADER_ROW,
    META_SHEET,
    MIN_GAMES,
    PLAYERS_FIRST,
    RULES_FIRST,
    SPARE_GAMES,
    UDF_MODULE,
    LeagueCols,
    StandCols,
    game_rows,
    roster_size,
    rules_row,
    sheet_names,
)
from umaoka.templates.book.model import Book, Origin, check_size
from umaoka.templates.book.results import Outcome, settle_league
from umaoka.templates.book.season_book import season_result
from umaoka.templates.sheets.league_tab import LeagueTab
from umaoka.templates.sheets.players import PlayersSheet
from umaoka.templates.sheets.presets import PresetsSheet
from umaoka.templates.sheets.rating import RatingSheets
from umaoka.templates.sheets.rules import RulesSheet
from umaoka.templates.sheets.season import SeasonSheets
from umaoka.templates.sheets.season_standings import SeasonStandings
from umaoka.templates.sheets.seating import SeatingSheet
from umaoka.templates.sheets.standings import StandingsSheets
from umaoka.templates.sheets.start import StartSheet
from umaoka.templates.sheets.stats import StatsSheets
from umaoka.templates.xlsx.io import save_workbook
from umaoka.templates.xlsx.styles import Styles, points_format, put, quote, ref  # noqa: F401  (re-exported)
from umaoka.templates.xlsx.writer import AddParts


class Builder(LeagueTab, StandingsSheets, PlayersSheet, RulesSheet, PresetsSheet, StartSheet,
              SeatingSheet, StatsSheets, RatingSheets, SeasonSheets, SeasonStandings):
    """One workbook: every sheet kind's writer (one module each) on one shared state."""

    def build(self) -> Workbook:
        wb = self.wb
        first = wb.active
        for i, league in enumerate(self.book.leagues):
            self.league_sheet(i, league)
            self.standings_sheet(i, league)
        if len(self.book.leagues) > 1:
            self.overall_sheet()
        if self.book.season is not None:  # a season over the league tabs (season_sheet.py)
            if getattr(self, "season_run", None) is None:  # not given by the caller
                self.season_run = season_result(self.book)
            self.season_standings_sheet()
        for i, league in enumerate(self.book.leagues):
            self.stats_sheet(i, league)
            self.rating_sheet(i, league)
        self.seating_sheet()
        self.players_sheet()
        if self.book.season is not None:
            self.season_sheet()
            self.penalties_sheet()
        for i, rules in enumerate(self.book.rules):
            self.rules_sheet(i, rules)
        self.presets_sheet()
        if not self.settled:
            conf = wb.create_sheet(CONF_SHEET)
            put(conf, 1, 1, "UDF Modules", text=True)
            put(conf, 1, 2, UDF_MODULE, text=True)
            conf.column_dimensions["A"].width = 16
            conf.column_dimensions["B"].width = 24
            self._print(conf, None)  # like every other sheet
        self.start_sheet()
        self.meta_sheet()
        wb.remove(first)
        wb.active = 0
        # No fullCalcOnLoad: every formula carries its saved value, so a program that does
        # not recalculate shows the numbers; Excel recalculates anyway (openpyxl's older
        # calcId), and the add-in's functions calculate when it loads.
        wb.calculation.fullCalcOnLoad = False
        return wb

    def meta_sheet(self) -> None:
        ws = self.wb.create_sheet(META_SHEET)
        ws.sheet_state = "veryHidden"
        ws.append(["format", FORMAT_VERSION])
        ws.append(["lang", self.lang])
        ws.append(["settled", int(self.settled)])
        ws.append(self.book.runtime.meta())
        ws.append(["version", __version__])
        if self.settled and self.origin is not None:
            ws.append(["source", self.origin.source or ""])
            ws.append(["settled_at", self.origin.when])
        ws.append(["players", self.names["players"], PLAYERS_FIRST, self.roster])
        for i, r in enumerate(self.book.rules):
            ws.append(["rules", self.names["rules"][i], r.name, RULES_FIRST])
        for night in getattr(self, "seating_meta", ()):
            ws.append(["seating", *night])
        for i, league in enumerate(self.book.leagues):
            ws.append(["league", league.name, self.names["standings"][i], league.rules,
                       self.book.rules_of(league).ruleset.players, int(league.chips),
                       int(league.subs), "given" if league.given else ""])
        if self.book.season is not None:
            ws.append(["season", *self.season_layout])
            ws.append(["penalties", *self.penalties_layout])
        if self.has_teams():
            ws.append(["teams", self.names["players"], 2])
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str):
                    c.data_type = "s"


def build_workbook(book: Book, settled: bool = False,
                   outcomes: list[list[Outcome | None]] | None = None,
                   origin: Origin | None = None, lite_code_inside: bool = False,
                   season_run: SeasonResult | None = None) -> Workbook:
    """The league workbook of ``book``: a template with formulas, or its settled copy.

    ``outcomes`` (settled copy only) are the engine's results of every row, when the
    caller has them already (see :func:`settle_outcomes`); ``origin`` says where a settled
    copy comes from. ``lite_code_inside``: the Start sheet says xlwings Lite's code is in
    the file (when the caller adds it after saving). ``season_run``: the book's season as
    :func:`.season_book.season_result` runs it, when the caller has it already.
    """
    check_size(book)  # nothing written that umaoka could not read back
    builder = Builder(book, settled, outcomes, origin, lite_code_inside)
    builder.season_run = season_run
    return builder.build()


def write_league(book: Book, path: Path, force: bool = False, inputs: tuple[Path, ...] = (),
                 after_save: Callable[[Path], Any] | None = None,
                 lite_code_inside: bool = False, season_run: SeasonResult | None = None,
                 add_parts: AddParts | None = None) -> Path:
    """Write the workbook with formulas for ``book.runtime``: the one save step of
    ``umaoka new``, ``demo`` and ``runtime``.

    Never over an input, nor over an existing file without ``force``; atomic.
    ``add_parts`` and ``after_save``: the hooks of :func:`~umaoka.templates.xlsx.io.save_workbook`
    for parts openpyxl does not write, such as xlwings Lite's code; ``season_run``: see
    :func:`build_workbook`.
    """
    # the workbook is garbage once saved (no name holds it), freed by the collector later
    with paused_gc():
        return save_workbook(build_workbook(book, lite_code_inside=lite_code_inside,
                                            season_run=season_run), path,
                             force=force, inputs=inputs, after_save=after_save,
                             add_parts=add_parts)


def settle_outcomes(book: Book) -> list[list[Outcome | None]]:
    """The engine's outcome of every row of every league (for reports)."""
    return [settle_league(lg, book.rules_of(lg).ruleset) for lg in book.leagues]
