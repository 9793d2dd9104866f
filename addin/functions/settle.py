"""MJ_SETTLE, MJ_RANK, MJ_EXPLAIN, MJ_SHORTCUT, MJ_RULESET and MJ_PRESETS: one game or a block
of games settled with a ruleset, a few lines each around the engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import xlwings as xw

from umaoka.addin.functions.cells import (
    _JS_NULL,
    _NUMBERS,
    PLAIN_CELLS,
    RULESET_DOC,
    Cells,
    _amount,
    _blank_row,
    _cell,
    _each_game,
    _excel_function,
    _games,
    _is_blank,
    _line,
    _numbers,
    _penalty_rows,
    _per_game,
    _plain_cells,
    _Rows,
    _rules,
)
from umaoka.addin.functions.recalc import Blocks
from umaoka.engine import (
    PRESETS,
    UmaokaError,
    rank,
    settle,
    settle_many,
    shortcut,
)
from umaoka.engine.settle import refuse_text


@xw.func
@xw.ret(_Rows)
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points in seat order (East first): a row or column for one game, "
            "or a block with one game per row.")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("deposits", "raw", ndim=2,
        doc="Leftover riichi sticks in points (1000 per stick): one value, or one per game. "
            "Blank: 0.")
@xw.arg("penalties", "raw", ndim=2,
        doc="Penalties (chombo) in final points added after settlement: one per player, one "
            "row per game. Blank: none.")
@_excel_function
def MJ_SETTLE(scores: Cells, ruleset: Cells = None, deposits: Cells = None,
              penalties: Cells = None) -> Any:
    """Final scores with oka and uma, in seat order. E.g. =MJ_SETTLE(B2:E2, "mleague")."""
    rules = _rules(ruleset)
    block = _changed_rows(rules, scores, deposits, penalties)
    if block is not None:
        return block
    games, column = _games(scores)
    deps = [0 if _is_blank(d) else d for d in _per_game(deposits, len(games), "deposits")]
    pens = _penalty_rows(penalties, len(games))
    return _each_game(games, column, lambda i, row: _settle_row(rules, row, deps[i], pens[i]))


def _changed_rows(rules: Any, scores: Cells, deposits: Cells, penalties: Cells
                  ) -> list[list[Any]] | None:
    """A block of two or more games settled again only where its inputs changed since the
    last call with the same ruleset and shape (see :mod:`umaoka.addin.functions.recalc`); None when
    the arguments are not such a block (the caller settles them in full)."""
    if not isinstance(scores, list) or len(scores) < 2 or not isinstance(scores[0], list):
        return None
    width = len(scores[0])
    if width < 2 or not all(type(row) is list and len(row) == width for row in scores):
        return None
    one_deposit: Any = None
    if deposits is not None and type(deposits) is not _JS_NULL:
        if not isinstance(deposits, list) or not deposits or not isinstance(deposits[0], list):
            return None
        if len(deposits) == 1 and len(deposits[0]) == 1:  # one value for every game
            one_deposit, deposits = deposits[0][0], None
            if type(one_deposit) not in _BLOCKS.plain:
                return None
        elif len(deposits) != len(scores) or any(len(row) != 1 for row in deposits):
            return None
    else:
        deposits = None
    if penalties is None or type(penalties) is _JS_NULL:
        penalties = None
    elif not isinstance(penalties, list) or len(penalties) != len(scores):
        return None

    def settle_row(i: int) -> list[Any]:
        # what _each_game gives for row i of a block
        row = [_cell(v) for v in scores[i]]
        if _blank_row(row):
            return [""] * width
        deposit = _cell(deposits[i][0] if deposits is not None else one_deposit)
        pen = None
        if penalties is not None:
            pen = [_cell(v) for v in penalties[i]]
            pen = None if _blank_row(pen) else pen
        try:
            refuse_text(row)
            out = _numbers(settle(row, rules, 0 if _is_blank(deposit) else deposit, pen).final)
        except UmaokaError as e:
            out = [str(e)]
        return out + [""] * (width - len(out))

    def settle_all() -> list[list[Any]]:
        # every row as settle_row gives it, the games settled together (settle_many); the
        # cells are plain (Blocks checked): only whole floats and JavaScript's null change,
        # and a row is blank when no cell is truthy (None, "", 0)
        rows = [_plain_cells(r) for r in scores]
        played = [i for i, r in enumerate(rows) if any(r)]
        out = [[""] * width for _ in rows]
        typed = []  # a score stored as text refuses its row (the tab's formulas skip it)
        for i in played:
            if str in map(type, rows[i]):
                try:
                    refuse_text(rows[i])
                except UmaokaError as e:
                    out[i] = [str(e)] + [""] * (width - 1)
                    typed.append(i)
        if typed:
            refused = set(typed)
            played = [i for i in played if i not in refused]
        if deposits is not None:
            deps = [_plain_cells(deposits[i])[0] for i in played]
            deps = [d if d else 0 for d in deps]
        else:
            deps = [_cell(one_deposit) or 0] * len(played)
        pens = None
        if penalties is not None:
            pens = []
            for i in played:
                pen = _plain_cells(penalties[i])
                pens.append(pen if any(pen) else None)
        numbers = _NUMBERS
        finals = settle_many([rows[i] for i in played], rules, deps, pens).finals()
        for i, got in zip(played, finals):
            if isinstance(got, UmaokaError):
                out[i] = [str(got)] + [""] * (width - 1)
                continue
            try:
                mine = [numbers[v] for v in got]
            except KeyError:
                mine = _numbers(got)
            out[i] = mine if len(mine) == width else mine + [""] * (width - len(mine))
        return out

    key = (settle, rules, width, one_deposit, type(one_deposit))  # a reloaded engine: afresh
    return _BLOCKS.rows(key, (scores, deposits, penalties), settle_row, every=settle_all)


def _settle_row(rules: Any, row: list[Any], deposits: Any, penalties: Any) -> list[Any]:
    """One game's finals, from the recent results when its inputs are the same (the values'
    types are part of the key: True equals 1 but is not a score)."""
    pen = tuple(penalties) if penalties else ()
    key = (settle, rules, tuple(row), tuple(map(type, row)), deposits, type(deposits), pen,
           tuple(map(type, pen)))  # settle itself too: a new engine (reloaded) starts afresh

    def settled() -> list[Any]:
        refuse_text(row)  # a score stored as text: the tab's Check and places skip it too
        return _numbers(settle(row, rules, deposits, penalties).final)

    return _SETTLED.get(key, settled)


class _Recent:
    """Results of recent rows by their inputs (ruleset included), for the calls the block
    memory (:data:`_BLOCKS`) does not take: single games, and blocks holding TRUE/FALSE or
    Office.js value objects. Bounded: cleared when full."""

    def __init__(self, size: int) -> None:
        self.size, self.items = size, {}  # type: dict[Any, list[Any]]

    def get(self, key: Any, compute: Callable[[], list[Any]]) -> list[Any]:
        try:
            out = self.items.get(key)
        except TypeError:  # an unhashable cell value: just compute
            return compute()
        if out is None:
            if len(self.items) >= self.size:
                self.items.clear()
            out = self.items[key] = compute()
        return list(out)  # the caller's copy


_SETTLED = _Recent(120_000)
#: The last blocks MJ_SETTLE settled: a league tab's block, one score changed, settles one row.
_BLOCKS = Blocks(4, PLAIN_CELLS)


@xw.func
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points in seat order: a row or column for one game, or a block "
            "with one game per row.")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True,
        doc=RULESET_DOC + " Its ties rule decides equal scores.")
@_excel_function
def MJ_RANK(scores: Cells, ruleset: Cells = None) -> Any:
    """Place of each player by raw score (1 = top), ties by the ruleset. E.g. =MJ_RANK(B2:E2)."""
    rules = _rules(ruleset)
    return _each_game(*_games(scores), lambda i, row: list(rank(row, rules)))


@xw.func
@xw.arg("scores", "raw", ndim=2,
        doc="Raw end-of-game points of one game in seat order (a row or a column).")
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("deposits", "raw", ndim=2,
        doc="Leftover riichi sticks in points (1000 per stick). Blank: 0.")
@_excel_function
def MJ_EXPLAIN(scores: Cells, ruleset: Cells = None, deposits: Cells = None) -> Any:
    """Every step of one settlement: a header and a row per player. =MJ_EXPLAIN(B2:E2)."""
    rules, line = _rules(ruleset), _line(scores) or []
    if all(_is_blank(c) for c in line):  # a game not entered yet: blank, as MJ_SETTLE's
        return [[""]]
    game = settle(line, rules, _amount(deposits, "deposits"))
    return [_numbers(row) for row in game.explain()]


@xw.func
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@xw.arg("scores", "raw", ndim=2,
        doc="Raw points of one game to show (a row or a column). Blank: everybody at start.")
@_excel_function
def MJ_SHORTCUT(ruleset: Cells = None, scores: Cells = None) -> Any:
    """Shortcut table: final = round(raw/1000) + offset of the place; an error says why when
    the ruleset's rounding does not allow it. =MJ_SHORTCUT("standard")."""
    line = _line(scores)
    if line is not None and all(_is_blank(c) for c in line):
        line = None  # blank cells (no game adds up to 0 points: 0 from desktop Excel too)
    return [_numbers(row) for row in shortcut(_rules(ruleset), line).table()]


@xw.func
@xw.arg("ruleset", Cells, ndim=2, err_to_str=True, doc=RULESET_DOC)
@_excel_function
def MJ_RULESET(ruleset: Cells = None) -> Any:
    """The ruleset as a key/value table, usable as a ruleset range. =MJ_RULESET("ema")."""
    rules = _rules(ruleset)
    head = [["preset", rules.name]] if rules.name in PRESETS else []
    return head + [[key, value] for key, value in rules.values().items()]


@xw.func
@_excel_function
def MJ_PRESETS() -> Any:
    """Every preset with its description, main values and source. =MJ_PRESETS()."""
    fields = ["players", "start", "target", "oka", "uma", "floating", "rounding", "round_on",
              "adjust", "ties", "leftover"]
    table: list[list[Any]] = [["name", "description", *fields, "source"]]
    for p in PRESETS.values():
        values = p.ruleset.values()
        table.append([p.name, p.description, *(values[f] for f in fields), p.source])
    return table
