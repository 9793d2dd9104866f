"""MJ_STANDINGS: a league tab's standings from its players and finals."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import xlwings as xw

from umaoka.addin.functions.cells import (
    PLAIN_CELLS,
    Cells,
    UmaokaExcelError,
    _blank_row,
    _cell,
    _excel_function,
    _flag,
    _grid,
    _no_errors,
    _numbers,
    _one_blank,
    _option,
    _rules,
    _zero,
)
from umaoka.addin.functions.recalc import Blocks
from umaoka.engine import (
    UmaokaError,
    standings_table,
)
from umaoka.engine.errors import excerpt
from umaoka.engine.season.stats import player_stats
from umaoka.engine.settle import _to_decimal as to_points
from umaoka.engine.standings import SHARED_PLACES, quick_lines, standings_line, tally


@xw.func
@xw.arg("players", "raw", ndim=2,
        doc="Player names, one game per row, in the same seat order as the finals.")
@xw.arg("finals", "raw", ndim=2,
        doc="Final scores (e.g. from MJ_SETTLE), same size as players. Blank rows are skipped.")
@xw.arg("stats", Cells,
        doc="TRUE: add top-two rate, bust rate, average raw score and the longest streaks "
        "(1st, 1st-2nd, not last). Blank: the standings only.")
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end scores, same size as players, for the bust rate and average raw score "
        "(a row left blank: a game without raw scores). Blank: none.")
@xw.arg("rules", Cells,
        doc="How a place shared by tied players counts: better (tied for 3rd-4th: 3rd), "
        "worse (4th), split (half each), or a ruleset (its shared_place). Blank: better.")
@_excel_function
def MJ_STANDINGS(players: Cells, finals: Cells, stats: Cells = None,
                 scores: Cells = None, rules: Cells = None) -> Any:
    """League standings: totals, averages, places, rates; best first; with stats TRUE also
    top-two rate, bust rate, average raw, streaks. =MJ_STANDINGS(B2:E9,G2:J9)."""
    with_stats = _flag(stats, "stats")
    rule = _shared_place(rules)
    if _one_blank(scores):
        scores = None  # a single blank cell (0 from desktop Excel): no raw scores
    if not with_stats and scores is None:
        table = _standings_block(players, finals, rule)
        if table is not None:
            return table
    names_grid, finals_grid = _names(_grid(players)), _grid(finals)
    if (len(finals_grid) > 1 and all(len(r) == 1 for r in finals_grid)
            and len(names_grid) == len(finals_grid)):  # one game given as two columns
        names_grid = [[r[0] for r in names_grid]]
        finals_grid = [[r[0] for r in finals_grid]]
    if len(names_grid) != len(finals_grid):
        raise UmaokaExcelError(f"players has {len(names_grid)} rows but finals has "
                               f"{len(finals_grid)}; select ranges of the same size.")
    rows: list[int] = []
    raw = _grid(scores) if scores is not None else []
    if raw and len(raw) != len(names_grid):
        raise UmaokaExcelError(f"scores has {len(raw)} rows but players has "
                               f"{len(names_grid)}; select ranges of the same size.")
    with_stats = bool(with_stats) or bool(raw)

    def games() -> Iterator[tuple[list[Any], list[Any]]]:
        for i, (names, fins) in enumerate(zip(names_grid, finals_grid), 1):
            if _blank_row(fins):
                continue  # a game not played (yet): no finals (desktop Excel sends empty
                # cells as 0, so finals of all 0 count as not played too)
            rows.append(i)
            yield names, fins

    played = list(games())
    lines = []
    for k, game in enumerate(played, 1):
        try:
            lines.append(standings_line(game, k))
        except UmaokaError as e:
            raise _in_row(e, k, rows[k - 1]) from None
    try:
        table = standings_table(tally(lines, shared_place=rule))
        if with_stats:
            table = _with_stats(table, played, [raw[i - 1] for i in rows] if raw else [],
                                rows, rule)
    except UmaokaError as e:
        raise _in_row(e, len(rows), rows[-1] if rows else 1) from None
    return [_numbers(row) for row in table]


def _shared_place(rules: Cells) -> str:
    """MJ_STANDINGS's rules argument: better, worse or split, or a ruleset whose
    shared_place it takes; blank: better."""
    grid = _grid(rules)
    if len(grid) == 1 and len(grid[0]) == 1:
        cell = _option(grid, "rules")
        if cell is None:
            return "better"
        if isinstance(cell, str) and cell.strip().lower() in SHARED_PLACES:
            return cell.strip().lower()
    return _rules(rules, "rules").shared_place


def _names(grid: list[list[Any]], what: str = "players", first: int = 1
           ) -> list[list[Any]]:
    """Names, a number 0 read as an empty cell (desktop Excel's; no name is 0); an Excel
    error refused (row ``first`` is the grid's first row)."""
    _no_errors(grid, what, first)
    return [[None if _zero(c) else c for c in row] for row in grid]


def _in_row(error: UmaokaError, game: int, row: int) -> UmaokaExcelError:
    """The engine's message about game ``game`` as one about ``row`` of the range."""
    message, prefix = str(error), f"game {game} "
    where = f"row {row} of the range"
    return UmaokaExcelError(f"{where} {message[len(prefix):]}" if message.startswith(prefix)
                            else f"{where}: {message}")


_BAD = object()  # a game standings_line refuses: its message is made again in context


def _standings_block(players: Cells, finals: Cells, rule: str = "better"
                     ) -> list[list[Any]] | None:
    """MJ_STANDINGS of a block of two or more games, each game checked again only when its
    row changed since the last call (see :mod:`umaoka.addin.functions.recalc`); None when the
    arguments are not such a block (MJ_STANDINGS then works through them in full)."""
    if not (isinstance(players, list) and isinstance(finals, list)
            and len(players) == len(finals) >= 2):
        return None
    width = len(finals[0]) if isinstance(finals[0], list) else 0
    if width < 2 or set(map(type, finals)) != {list} or set(map(len, finals)) != {width} \
            or set(map(type, players)) != {list}:
        return None

    def line(i: int) -> Any:
        # what MJ_STANDINGS makes of row i: skipped (None), a game, or refused (_BAD)
        names = _names([[_cell(v) for v in players[i]]], first=i + 1)[0]
        fins = [_cell(v) for v in finals[i]]
        if _blank_row(fins):
            return None
        try:
            return standings_line((names, fins), 1)
        except UmaokaError:
            return _BAD

    def every() -> list[Any]:
        # a first call: the common game quickly, the rest as line() makes them
        return [quick if quick is not None and any(quick[1]) else line(i)
                for i, quick in enumerate(quick_lines(players, finals))]

    lines = _LINES.rows((standings_line, width), (finals, players), line, copy=False,
                        every=every)
    if lines is None:
        return None
    played = [x for x in lines if x is not None]
    if _BAD in played:  # the first refused game, with its message as MJ_STANDINGS gives it
        index = played.index(_BAD)
        row = [i for i, x in enumerate(lines) if x is not None][index]
        try:
            standings_line((_names([[_cell(v) for v in players[row]]])[0],
                            [_cell(v) for v in finals[row]]), index + 1)
        except UmaokaError as e:
            raise _in_row(e, index + 1, row + 1) from None
    return [_numbers(row) for row in standings_table(tally(played, shared_place=rule))]


#: The games MJ_STANDINGS read last, checked: one final changed, one game read again.
_LINES = Blocks(4, PLAIN_CELLS)


def _with_stats(table: list[list[Any]], played: list[tuple[list[Any], list[Any]]],
                raw: list[list[Any]], where: list[int], rule: str = "better"
                ) -> list[list[Any]]:
    """The standings table with each player's stats columns added (see MJ_STANDINGS);
    ``where``: each played game's row in the range."""
    games = []
    for k, (names, fins) in enumerate(played):
        row = raw[k] if raw else []
        points = None if not row or _blank_row(row) else _raw_scores(row, len(names), where[k])
        games.append((names, fins, None, points))
    by_name = {p.name: p for p in player_stats(games, rule)}
    out = [table[0] + ["Top-two rate", "Bust rate", "Average raw", "Top streak",
                       "Top-two streak", "No-last streak"]]
    for line in table[1:]:
        p = by_name[line[1]]
        out.append(line + [p.top_two_rate, "" if p.bust_rate is None else p.bust_rate,
                           "" if p.average_raw is None else p.average_raw,
                           p.top_streak, p.top_two_streak, p.no_last_streak])
    return out


def _raw_scores(row: list[Any], players: int, where: int) -> list[int]:
    """A row of MJ_STANDINGS's raw scores as whole points, read as settle reads scores (a
    number, or a text of one; finite, not huge, a multiple of 100; TRUE/FALSE is no score),
    or one sentence naming the row."""
    if len(row) != players:
        raise UmaokaExcelError(f"row {where} of scores has {len(row)} cells but that game has "
                               f"{players} players; select scores as wide as players, one raw "
                               "score per player.")
    points = []
    for seat, value in enumerate(row, 1):
        try:
            d = to_points(value, f"score {seat}")
        except UmaokaError as e:
            if isinstance(value, str) and value.strip():
                raise UmaokaExcelError(f"row {where} of scores holds a value that is not a "
                                       f'number (score {seat}, "{excerpt(value)}"); fix it or '
                                       "clear that row of scores.") from None
            raise UmaokaExcelError(f"row {where} of scores: {e}") from None
        if d % 100:
            raise UmaokaExcelError(f"row {where} of scores: score {seat} ({d:,}) is not a whole "
                                   "multiple of 100; raw points always end in 00, so check it "
                                   "for a typo.")
        points.append(int(d))
    return points
