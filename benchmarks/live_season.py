"""The template's live season as Excel recalculates it after one typed score: the calls.

``umaoka demo --games N`` writes the demo season workbook; :func:`recalc_calls` reads its
own formulas and cells (the league tab's ``MJ_SETTLE`` block and every ``MJ_SEASON`` block of
the Season standings sheet) and gives the calls Excel makes, with the arguments as Excel
sends them (numbers as floats, dates as serial numbers, blank cells as null as Excel on
the web sends them, or as 0 as desktop Excel does: ``blank``): one cold ``MJ_SEASON`` call, then,
after one score of the regular season is changed by 100 points (and the next seat's by
-100, so the game still adds up), the tab's ``MJ_SETTLE`` block and all four ``MJ_SEASON``
formulas. Used by benchmarks/bench_live_season.py (CPython) and bench_pyodide.py.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

from openpyxl.utils.cell import range_boundaries

from umaoka.addin.cli.app import main
from umaoka.templates.xlsx.io import load_quietly

CALL = re.compile(r"_xldudf_(MJ_SEASON|MJ_SETTLE)\(")


def demo_workbook(games: int, folder: Path) -> Path:
    """``umaoka demo --games N`` into ``folder`` (its filled workbook)."""
    with contextlib.redirect_stdout(io.StringIO()):
        main(["demo", str(folder), "--games", str(games), "--force"])
    return folder / "demo_league.xlsx"


def _first_call(formula: str) -> tuple[str, list[str]]:
    """The first umaoka call of a formula: its function and argument texts."""
    m = CALL.search(formula)
    assert m is not None, formula
    args, depth, start, i = [], 0, m.end(), m.end()
    quoted = False
    while True:
        ch = formula[i]
        if ch in "'\"":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            if depth == 0:
                args.append(formula[start:i])
                return m.group(1), args
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            args.append(formula[start:i])
            start = i + 1
        i += 1


#: How each Excel client sends an empty cell to a custom function (office-js #4702).
BLANKS = {"web": None, "desktop": 0.0}


def _cell(value: Any, blank: Any = None) -> Any:
    """A cell as Excel sends it to a custom function: numbers as floats, a date as its
    serial number, an empty cell as ``blank``."""
    if value is None:
        return blank
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dt.datetime):
        return float((value - dt.datetime(1899, 12, 30)).total_seconds() / 86400)
    if isinstance(value, dt.date):
        return float((value - dt.date(1899, 12, 30)).days)
    raise TypeError(f"a cell value Excel would not send: {value!r}")


class _Book:
    def __init__(self, path: Path, blank: Any = None) -> None:
        self.wb = load_quietly(path, data_only=True)
        self.formulas = load_quietly(path)
        self.blank = blank

    def value(self, text: str, here: str) -> Any:
        """An argument's value: a range or defined name's cells, a text, or null."""
        text = text.strip()
        if not text:
            return None
        if text.startswith('"'):
            return text[1:-1].replace('""', '"')
        if text in self.wb.defined_names:
            text = self.wb.defined_names[text].attr_text
        sheet, _, ref = text.rpartition("!")
        sheet = sheet.strip("'").replace("''", "'") or here
        ws = self.wb[sheet]
        c1, r1, c2, r2 = range_boundaries(ref.replace("$", ""))
        return [[_cell(c.value, self.blank) for c in row]
                for row in ws.iter_rows(min_row=r1, max_row=r2, min_col=c1, max_col=c2)]

    def blocks(self) -> list[tuple[str, str, str]]:
        """(sheet, function, formula) of every umaoka array formula, in sheet order."""
        out = []
        for ws in self.formulas:
            for row in ws.iter_rows():
                for c in row:
                    text = getattr(c.value, "text", None)
                    if text and CALL.search(text):
                        out.append((ws.title, CALL.search(text).group(1), text))
        return out


def recalc_calls(path: Path, blanks: str = "web"
                 ) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """The calls (empty cells sent as ``blanks`` sends them, see :data:`BLANKS`), in order:
    ``season cold`` (one MJ_SEASON call, nothing computed before),
    then ``season warm`` (the four again, unchanged), then after one typed score
    ``settle edit`` (the regular tab's MJ_SETTLE block) and ``season edit 0..3`` (each as
    many times as its formula names the call: Excel may evaluate every one); and the
    groups of ids the benchmarks add up."""
    book = _Book(path, BLANKS[blanks])
    blocks = book.blocks()
    seasons = [(sheet, _first_call(f)[1]) for sheet, func, f in blocks if func == "MJ_SEASON"]
    # how many times each MJ_SEASON formula names its call: Excel may evaluate each one
    named = [len(CALL.findall(f)) for _, func, f in blocks if func == "MJ_SEASON"]
    settle_sheet, settle_args = next((s, _first_call(f)[1]) for s, func, f in blocks
                                     if func == "MJ_SETTLE")
    season_args = [[book.value(a, sheet) for a in args] for sheet, args in seasons]
    settle_values = [book.value(a, settle_sheet) for a in settle_args]
    # the typed score: the regular tab's first game, in both its MJ_SETTLE scores and the
    # MJ_SEASON games range (its scores start at the games range's column of seat count n)
    scores = settle_values[0]
    games_arg = next(i for i, a in enumerate(seasons[0][1]) if a.startswith(f"'{settle_sheet}'!"))
    n = len(scores[0])
    edited = [list(r) for r in scores]
    edited[0][0] += 100
    edited[0][1] -= 100
    settle_edit = [edited, *settle_values[1:]]
    season_edit = []
    for args in season_args:
        grid = [list(r) for r in args[games_arg]]
        grid[0][n] += 100
        grid[0][n + 1] -= 100
        season_edit.append([*args[:games_arg], grid, *args[games_arg + 1:]])
    calls = [{"id": "season cold", "func": "MJ_SEASON", "args": season_args[0]}]
    calls += [{"id": f"season warm {k}", "func": "MJ_SEASON", "args": a, "named": named[k]}
              for k, a in enumerate(season_args)]
    calls.append({"id": "settle before", "func": "MJ_SETTLE", "args": settle_values,
                  "games_arg": games_arg})
    calls.append({"id": "settle edit", "func": "MJ_SETTLE", "args": settle_edit})
    edits = [f"season edit {k}" + (f" #{j + 1}" if j else "")
             for k in range(len(season_edit)) for j in range(named[k])]
    calls += [{"id": f"season edit {k}" + (f" #{j + 1}" if j else ""), "func": "MJ_SEASON",
               "args": a} for k, a in enumerate(season_edit) for j in range(named[k])]
    groups = {"cold": ["season cold"],
              "seasons": edits, "edit": ["settle edit", *edits]}
    return calls, groups
