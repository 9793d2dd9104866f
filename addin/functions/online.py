"""MJ_RANKPOINTS: Tenhou and Mahjong Soul rank points for online games."""

from __future__ import annotations

from typing import Any

import xlwings as xw

from umaoka.addin.functions.cells import (
    Cells,
    UmaokaExcelError,
    _each_game,
    _excel_function,
    _grid,
    _line,
    _number,
    _one_blank,
    _option,
    _per_game,
    _zero,
)
from umaoka.engine.online.rankpoints import game_rank_points, rank_points


def _cells_per_game(value: Cells, games: list[list[Any]], what: str) -> list[Any]:
    """A value for each game: one for all, one per game, or one per cell in results' shape
    (a list for a game of several players). None when omitted."""
    grid = _grid(value)
    if not grid or (len(grid) == 1 and len(grid[0]) == 1):
        return [grid[0][0] if grid else None] * len(games)
    if len(games) == 1 and len(_line(value) or []) == len(games[0]):
        return [_line(value)]  # one table's values given as a row or a column
    if len(grid) == len(games) and all(len(r) in (1, len(g)) for r, g in zip(grid, games)):
        return [r if len(g) > 1 and len(r) > 1 else r[0] for r, g in zip(grid, games)]
    raise UmaokaExcelError(f"{what} has {len(grid)} rows of {len(grid[0])} cells but results has "
                           f"{len(games)} games; give one {what} for all, one per game, or one "
                           "per player in the same shape as results.")


@xw.func
@xw.arg("results", "raw", ndim=2,
        doc="Places (1 = top) or raw end scores in seat order: a row for one table (a column "
            "of raw scores works too), a block with one table per row, or one player's "
            "places, one game per row.")
@xw.arg("system", ndim=2, doc='"tenhou" (天鳳) or "mahjongsoul" (雀魂): one, or one per game.')
@xw.arg("room", ndim=2, doc="Tenhou: general, upper, expert, phoenix (一般 上級 特上 鳳凰); "
        "Mahjong Soul: bronze, silver, gold, jade, throne (銅 銀 金 玉 王座).")
@xw.arg("rank", "raw", ndim=2,
        doc='Rank of the player(s): Tenhou dan (七段, 7dan, 2級, 新人, 天鳳位) or Mahjong Soul '
            'rank ("Expert 2", 雀傑2, E2, Celestial); one, one per game, or one per player.')
@xw.arg("length", Cells, ndim=2, doc='"east" (東風) or "south" (hanchan, 半荘). Blank: south.')
@xw.arg("players", Cells, ndim=2, doc="4, or 3 for sanma. Blank: 4.")
@xw.arg("scores", "raw", ndim=2,
        doc="Mahjong Soul: raw end scores in the shape of results, when results holds places. "
            "Blank: none.")
@_excel_function
def MJ_RANKPOINTS(results: Cells, system: Cells, room: Cells, rank: Cells,
                  length: Cells = None, players: Cells = None, scores: Cells = None) -> Any:
    """Online rank points (Tenhou dan points, Mahjong Soul rank points) in the shape of
    results. E.g. =MJ_RANKPOINTS(B2:E2, "mahjongsoul", "jade", "Master 1")."""
    grid = _grid(results)
    size = _option(players, "players", 4)
    column = len(grid) > 1 and all(len(row) == 1 for row in grid)
    if column and len(grid) == size and not all(
            type(row[0]) is int and 1 <= row[0] <= size for row in grid):
        games = [[row[0] for row in grid]]  # one table's raw scores as a column
    else:
        games, column = grid, False
    count = len(games)
    systems = _words(_per_game(system, count, "system"), "system")
    rooms = _words(_per_game(room, count, "room"), "room")
    lengths = _words(_per_game(length, count, "length"), "length", "south")
    sizes = _words(_per_game(players, count, "players"), "players", 4)
    ranks = [_words(r, "rank") if isinstance(r, list) else _words([r], "rank")[0]
             for r in _cells_per_game(rank, games, "rank")]
    # a single blank cell for scores (0 from desktop Excel): none
    raws = _cells_per_game(None if _one_blank(scores) else scores, games, "scores")

    def compute(i: int, row: list[Any]) -> list[Any]:
        row = _places(row, sizes[i])
        if len(row) == 1:
            one = raws[i][0] if isinstance(raws[i], list) else raws[i]
            return [_number(rank_points(row[0], one, systems[i], rooms[i], ranks[i],
                                        lengths[i], sizes[i]).points)]
        return [_number(p.points) for p in game_rank_points(
            row, systems[i], rooms[i], ranks[i], lengths[i], sizes[i], raws[i])]

    return _each_game(games, column, compute)


def _places(row: list[Any], size: Any) -> list[Any]:
    """A table's results with its empty cells as None: "" always, and 0 (desktop Excel's
    empty cell) when the other cells are places (1 to the number of players), where 0 is no
    place; among raw scores a 0 is a score."""
    row = [None if c == "" else c for c in row]
    if len(row) > 1 and any(_zero(c) for c in row):
        rest = [c for c in row if c is not None and not _zero(c)]
        if all(type(c) is int and 1 <= c <= (size if type(size) is int else 4) for c in rest):
            row = [None if _zero(c) else c for c in row]
    return row


def _words(values: list[Any], name: str, default: Any = None) -> list[Any]:
    """Cells where 0 is never valid (a system, room, rank, length, player count): blank, ""
    and 0 give the default; an Excel error is refused, naming the argument."""
    return [_option([[v]], name, default) for v in values]
