"""Reading a filled league workbook back, and writing its settled copy.

The settled copy is regenerated from the workbook's data (rules, players, games) with
the template's layout, every result, place and standing written as a plain value: it
needs no add-in and no recalculation (Excel without Python, LibreOffice, a phone). It is a
report: it says what it was settled from, when and by which umaoka, and its inputs are
locked. Sheets added by hand are not carried over.

The same reading serves ``umaoka runtime``, which writes the workbook again with formulas
for another add-in runtime.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from openpyxl.utils.datetime import from_excel

from umaoka.engine import FIELDS, PRESETS, PlayerStanding, UmaokaError, __version__, ruleset
from umaoka.engine.batch import paused_gc
from umaoka.engine.season.settings import STAGE_TABLE
from umaoka.engine.season.stages import SeasonResult
from umaoka.templates.book.labels import LANGS
from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import MAX_GAMES as MODEL_MAX_GAMES
from umaoka.templates.book.model import MAX_LEAGUES, Book, Game, League, Origin, Rules, check_size
from umaoka.templates.book.results import (
    FIRST_ROW,
    Outcome,
    problems,
    row_warnings,
    settle_league,
)
from umaoka.templates.book.runtime import Runtime, from_meta
from umaoka.templates.book.season_book import SETTINGS, SeasonSpec, StageRow
from umaoka.templates.build import META_SHEET, RULES_FIRST, Builder, write_league
from umaoka.templates.sheets.season import PENALTY_COLUMNS
from umaoka.templates.sheets.seating import read_seating
from umaoka.templates.xlsx.io import check_target, open_workbook, save_workbook
from umaoka.templates.xlsx.reader import EXCEL_ROWS, _address, _Formula, _SheetRows  # noqa: F401 (_address: tests)


@dataclass
class SettleReport:
    """What ``umaoka settle`` did: the output, the bad rows, the overall standings."""

    path: Path
    games: int
    #: Rows left out of the standings (not settled), one line each.
    problems: list[str]
    standings: list[PlayerStanding]
    #: The season's result (engine) when the workbook has a Season sheet.
    season: Any = None
    #: Rows that are settled and count but look wrong (a name not on the roster), and the
    #: season's own notes (a penalty for nobody, a game outside its stage).
    warnings: list[str] = field(default_factory=list)
    #: How the standings count a shared place (the rulesets' shared_place), when every
    #: league counts it the same way; None when they differ.
    shared_place: str | None = None


def _not_ours(path: Path) -> UmaokaError:
    return UmaokaError(f"{path} is not an umaoka league workbook (no league tab); create one "
                       "with `umaoka new` or `umaoka demo`.")


def _sheet(wb: Any, name: str, path: Path) -> Any:
    if name not in wb.sheetnames:
        raise UmaokaError(f'{path} has no sheet "{name}" (renamed or deleted?); restore it '
                          "or fill a fresh template.")
    return wb[name]


def _value(cell: Any, sheet: str) -> Any:
    """An input cell's value; formulas in input cells are refused with their place."""
    value = cell.value
    if getattr(cell, "data_type", None) == "f" or type(value).__name__ in (
            "ArrayFormula", "DataTableFormula"):
        raise UmaokaError(f"{sheet}!{cell.coordinate} holds a formula; enter plain values "
                          "in the input columns (players, scores, deposits, penalties).")
    if isinstance(value, str) and not value.strip():
        return None
    return value


#: Most rows holding data we read from one workbook (games of all league tabs together):
#: settling 50,000 games takes about 20 s of CPU and 210 MB (20,000: 9 s, 116 MB). A bigger
#: league is split into seasons (one workbook each).
MAX_GAMES = MODEL_MAX_GAMES  # 50,000: what every writer keeps to (model.check_size)
#: A run of at most this many blank rows between games keeps its place in the settled copy;
#: a longer run (e.g. one game typed far below the others) is closed up, and warnings
#: still name the row of the input.
MAX_GAP = 20

def _damaged_layout(path: Path) -> UmaokaError:
    return UmaokaError(f"{path}'s hidden layout sheet ({META_SHEET}) was changed, so the games "
                       "cannot be found; copy the games into a fresh `umaoka new` workbook.")


def _layout_int(row: list[Any], i: int, path: Path) -> int:
    """A number of the hidden layout sheet, or a clear error when it was tampered with."""
    try:
        value = row[i]
        if isinstance(value, bool) or value is None:
            raise ValueError
        n = int(value)
    except (ValueError, TypeError, IndexError, OverflowError):
        raise _damaged_layout(path) from None
    if not 0 <= n <= EXCEL_ROWS:
        raise _damaged_layout(path)
    return n


def _flag(row: list[Any], i: int) -> bool:
    """An optional block's flag of a league's layout row (absent in older workbooks)."""
    return len(row) > i and row[i] not in (None, 0, "0", "")


def _block(values: list[Any], cols: list[int]) -> list[Any]:
    return [values[c - 1] for c in cols]


def _plain_rows(ws: Any, first: int, width: int, limit: int) -> list[tuple[int, list[Any]]]:
    """Rows of an input table (no formulas allowed), sorted by row number."""
    out = []
    for number, v in sorted(_SheetRows(ws, first, width, limit, MAX_GAMES).read().items()):
        for x in v:
            if isinstance(x, _Formula):
                raise UmaokaError(f"{ws.title}!{x.coordinate} holds a formula; enter a plain "
                                  "value.")
        out.append((number, v))
    return out


def read_season_sheets(wb: Any, entries: dict[str, list[list[Any]]], book: Book,
                       path: Path) -> None:
    """The Team column of Players, the Season sheet and the Penalties sheet, when present."""
    if entries.get("teams"):
        row = entries["teams"][0]
        ws = _sheet(wb, str(row[1]), path)
        prow = entries.get("players", [[None, None, 5, 0]])[0]
        first = max(1, _layout_int(prow, 2, path))
        for _, (name, team) in _plain_rows(ws, first, 2, 10_000):
            if name is not None and team is not None and str(team).strip():
                book.teams[str(name).strip()] = str(team).strip()
    if entries.get("season"):
        row = entries["season"][0]
        ws = _sheet(wb, str(row[1]), path)
        first, count, top = (_layout_int(row, i, path) for i in (2, 3, 4))
        stages = []
        # the stage's own settings follow its carry (an older workbook has none there)
        width = 4 + len(STAGE_TABLE)
        for number, v in sorted(_SheetRows(ws, first, width, 1000, 0,
                                           MAX_LEAGUES).read().items()):
            if number >= first + count:
                break
            name, _rules, advance, carry, *own = v
            if any(isinstance(x, _Formula) for x in (name, advance, carry, *own)):
                raise UmaokaError(f"{ws.title} row {number} holds a formula; enter plain "
                                  "values for the stages.")
            if name is not None:
                stages.append(StageRow(str(name).strip(), advance, carry,
                                       {k: x for k, x in zip(STAGE_TABLE, own)
                                        if x is not None}))
        settings = {}
        for number, v in _plain_rows(ws, top, 2, 100):
            if number >= top + len(SETTINGS):
                break
            if v[0] in SETTINGS:
                settings[str(v[0])] = v[1]
        book.season = SeasonSpec(stages, settings)
    if entries.get("penalties"):
        row = entries["penalties"][0]
        ws = _sheet(wb, str(row[1]), path)
        first = _layout_int(row, 2, path)
        for number, v in _plain_rows(ws, first, len(PENALTY_COLUMNS), MAX_GAMES):
            entry = dict(zip(PENALTY_COLUMNS, v))
            entry["_label"] = f"{ws.title} row {number}"
            # Excel's dates are serials 1 to 2958465 (9999-12-31); another number (1E+12)
            # stays a number, which the season reports as not a date (the rest counts)
            if type(entry["date"]) in (int, float) and 1 <= entry["date"] < 2958466:
                entry["date"] = from_excel(entry["date"]).date()
            book.penalties.append(entry)


def read_book(path: Path) -> Book:
    """The rules, players and games of a filled template (one-line errors otherwise)."""
    path = Path(path)
    wb = open_workbook(path, read_only=True)
    try:
        if META_SHEET not in wb.sheetnames:
            raise _not_ours(path)
        # sparse and bounded: a tampered layout sheet cannot make us read a million rows
        meta = [r for _, r in sorted(
            _SheetRows(wb[META_SHEET], 1, 13, 1000, 0, MAX_LEAGUES).read().items())]
        entries: dict[str, list[list[Any]]] = {}
        for row in meta:
            if row and row[0]:
                entries.setdefault(str(row[0]), []).append(row)
        if not entries.get("league"):
            raise _not_ours(path)
        lang = str(entries.get("lang", [["lang", "en"]])[0][1])
        lang = lang if lang in LANGS else "en"
        runtime = from_meta(entries.get("runtime", [None])[0])
        rules: list[Rules] = []
        for row in entries.get("rules", []):
            if len(row) < 3:
                raise _damaged_layout(path)
            sheet, name = str(row[1]), str(row[2])
            ws = _sheet(wb, sheet, path)
            pairs = []
            for r in ws.iter_rows(min_row=RULES_FIRST, max_row=RULES_FIRST + len(FIELDS) - 1,
                                  max_col=2):
                key, value = (_value(c, sheet) for c in r)
                if key is not None:
                    pairs.append([key, value])
            try:
                got = ruleset(pairs)
            except UmaokaError as e:
                raise UmaokaError(f"{sheet}: {e}") from None
            preset = PRESETS.get(name)
            if preset is not None and got == preset.ruleset:
                got = preset.ruleset  # an unchanged preset: known by its name again
            rules.append(Rules(name, got))
        players: list[str] = []
        prow = entries.get("players", [[None, None, 5, 0]])[0]
        if len(prow) > 2 and prow[1]:
            ws = _sheet(wb, str(prow[1]), path)
            roster = _SheetRows(ws, max(1, _layout_int(prow, 2, path)), 1, MAX_GAMES).read()
            folded: dict[str, str] = {}
            for number, (v,) in sorted(roster.items()):
                if isinstance(v, _Formula):
                    raise UmaokaError(f"{prow[1]}!{v.coordinate} holds a formula; enter the "
                                      "players' names as plain text.")
                if v is not None and str(v).strip() and str(v).strip() not in players:
                    name = str(v).strip()
                    if (other := folded.setdefault(name.casefold(), name)) != name:
                        raise UmaokaError(
                            f'{prow[1]} row {number}: "{name}" is on the roster already as '
                            f'"{other}"; names that differ only in case are one player (the '
                            "standings cannot tell them apart), so keep one spelling.")
                    players.append(name)
        seating = None
        if entries.get("seating"):
            srows = entries["seating"]
            seating = read_seating(_sheet(wb, str(srows[0][1]), path), srows)
        leagues = []
        budget = MAX_GAMES  # rows placed in the settled copy, games and kept blanks together
        for row in entries["league"]:
            name, index, n = str(row[1]), _layout_int(row, 3, path), _layout_int(row, 4, path)
            if not 0 <= index < len(rules) or n not in (3, 4):
                raise _not_ours(path)
            league = League(name, index, chips=_flag(row, 5), subs=_flag(row, 6),
                            given="given" in str(row[7] or "").split(",") if len(row) > 7
                            else False)
            ws = _sheet(wb, name, path)
            cols = league_cols(league, n)
            width = cols.check - 1
            rows = _SheetRows(ws, FIRST_ROW, width, budget, MAX_GAMES).read()
            budget -= len(rows)
            p0, s0 = cols.players[0] - 1, cols.scores[0] - 1
            last = FIRST_ROW - 1
            for number, v in sorted(rows.items()):
                gap = number - last - 1
                if gap and gap <= min(MAX_GAP, budget):  # blank rows between games keep
                    budget -= gap                        # their place; longer runs close up
                    league.games.extend(Game(players=[None] * n, scores=[None] * n,
                                             penalties=[None] * n, row=last + 1 + i)
                                        for i in range(gap))
                last = number
                for x in v:
                    if isinstance(x, _Formula):
                        raise UmaokaError(
                            f"{name}!{x.coordinate} holds a formula; enter plain values in "
                            "the players, scores, deposits and penalties columns (a formula "
                            "in date, session, table or game needs its value saved: open and "
                            "save the file in Excel).")
                d0 = cols.penalties[0] - 1
                g0 = cols.given_cols[0] - 1 if cols.given else 0
                league.games.append(Game(date=v[0], session=v[1], table=v[2], number=v[3],
                                         players=v[p0:p0 + n], scores=v[s0:s0 + n],
                                         deposits=v[cols.deposits - 1],
                                         penalties=v[d0:d0 + n], row=number,
                                         given=v[g0:g0 + n] if cols.given else [],
                                         chips=_block(v, cols.chip_cols),
                                         subs=_block(v, cols.sub_cols)))
            leagues.append(league)
        book = Book(rules, leagues, players, lang, runtime, seating)
        read_season_sheets(wb, entries, book, path)
        return book
    finally:
        wb.close()


def settled_source(path: Path) -> str | None:
    """None for a league workbook; for a settled copy (a report) the name of the file it
    was settled from ("" when it does not say)."""
    wb = open_workbook(Path(path), read_only=True)
    try:
        if META_SHEET not in wb.sheetnames:
            raise _not_ours(Path(path))
        # the layout sheet: one row a league tab (0: not games, for the limit's message)
        layout = _SheetRows(wb[META_SHEET], 1, 2, 1000, 0, MAX_LEAGUES).read()
        rows = {str(r[0]): r[1] for _, r in layout.items() if r and r[0]}
    finally:
        wb.close()
    if rows.get("settled") in (1, "1", True):
        return str(rows.get("source") or "")
    return None


def recorded_runtime(path: Path) -> Runtime | None:
    """The runtime a league workbook's formulas were written for (as ``umaoka settle`` reads
    it); None for a workbook that is not an umaoka league."""
    wb = open_workbook(Path(path), read_only=True)
    try:
        if META_SHEET not in wb.sheetnames:
            return None
        layout = _SheetRows(wb[META_SHEET], 1, 3, 1000, 0, MAX_LEAGUES).read()
        rows = [r for _, r in sorted(layout.items()) if r and r[0]]
    finally:
        wb.close()
    if not any(str(r[0]) == "league" for r in rows):
        return None
    return from_meta(next((r for r in rows if str(r[0]) == "runtime"), None))


def settled_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}_settled.xlsx")


def settle_file(path: Path, out: Path | None = None, force: bool = False) -> SettleReport:
    """Write the settled copy of a filled template; never over the input."""
    path = Path(path)
    source = settled_source(path)
    if source is not None:
        whence = f", from {source}" if source else ""
        raise UmaokaError(f"{path} is a settled copy (a report{whence}); settle the league "
                          "workbook instead.")
    out = Path(out) if out else settled_path(path)
    if not out.parent.exists():  # `-o settled/x.xlsx`: a folder for reports is made
        out.parent.mkdir(parents=True)
    check_target(out, force, (path,))  # before the reading, not after it (seconds at 50,000)
    with paused_gc(collect=True):
        book = read_book(path)
    report = write_settled(book, out, force=force, inputs=(path,), source=path.name)
    return report


def origin_now(source: str | None) -> Origin:
    """A settled copy's origin: the source's name, now (local time), this umaoka."""
    return Origin(source, dt.datetime.now().strftime("%Y-%m-%d %H:%M"), __version__)


def write_settled(book: Book, out: Path, force: bool = False,
                  inputs: tuple[Path, ...] = (), source: str | None = None,
                  season_run: SeasonResult | None = None) -> SettleReport:
    """Write the settled copy of ``book`` (``source``: the file name it was read from;
    ``season_run``: its season as :func:`.season_book.season_result` runs it, if known)."""
    check_size(book)  # before settling: a batch CSV of 50,001 rows is refused at once
    outcomes: list[list[Outcome | None]] = [
        settle_league(lg, book.rules_of(lg).ruleset) for lg in book.leagues]
    builder = Builder(book, settled=True, outcomes=outcomes, origin=origin_now(source))
    builder.season_run = season_run
    with paused_gc():
        save_workbook(builder.build(), out, force=force, inputs=inputs)
    # Games settled = those in the standings; a row with bad scores or names is not one of
    # them (it is listed in problems instead), so the two counts never overlap.
    settled = sum(map(len, builder.counted))  # the builder's, worked out from ``outcomes``
    found, doubtful = problems(book, outcomes), row_warnings(book, outcomes)
    if book.season is not None:  # the season's own: penalties, cuts, chips (rows once each)
        seen = {p.partition(": ")[0] for p in found}
        doubtful += [p for p in builder.season_run.problems if p.partition(": ")[0] not in seen]
    rules = {book.rules_of(lg).ruleset.shared_place for lg in book.leagues}
    return SettleReport(out, settled, found, builder.overall_rows(),
                        builder.season_run if book.season is not None else None, doubtful,
                        rules.pop() if len(rules) == 1 else None)


def runtime_path(path: Path, runtime: Runtime) -> Path:
    """``league_classic.xlsx`` for ``league.xlsx``; a runtime's suffix already there is
    replaced, not doubled (``league_lite.xlsx`` -> ``league_classic.xlsx``)."""
    stem = path.stem
    for kind in ("lite", "classic", "server"):
        if stem.endswith(f"_{kind}") and len(stem) > len(kind) + 1:
            stem = stem[: -len(kind) - 1]
            break
    return path.with_name(f"{stem}_{runtime.kind}.xlsx")


def switch_runtime(path: Path, runtime: Runtime, out: Path | None = None, force: bool = False,
                   **write: Any) -> tuple[Path, Runtime]:
    """Write ``path`` again with formulas for another runtime (a new file; never the input).

    The rules, roster and games are read like ``umaoka settle`` reads them and the workbook
    is written anew (with its saved values), so sheets added by hand are not carried over.
    Returns the new file and the runtime the input was written for. ``write`` goes to
    :func:`~umaoka.templates.build.write_league` (e.g. ``add_parts``).
    """
    path = Path(path)
    out = Path(out) if out else runtime_path(path, runtime)
    book = read_book(path)
    was = book.runtime
    write_league(replace(book, runtime=runtime), out, force=force, inputs=(path,), **write)
    return out, was
