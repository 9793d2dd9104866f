"""Time the Excel functions inside the real xlwings Lite runtime (Pyodide) against CPython.

For each Pyodide line of tests/pyodide (0.27.x and 314.x), main.py (``umaoka lite``) is
loaded as xlwings Lite loads it and called as Excel calls it (tests/pyodide_lite.py): one
game with MJ_SETTLE once warm, then a block of 10,000 games in one MJ_SETTLE call, each timed
inside node around the runtime's custom_functions_call (JS to Python conversion, xlwings,
umaoka, and back). The same calls go through CPython's Office.js path
(``xlwings.server.custom_functions_call``, as xlwings Server runs it) in this process, and
the table gives the ratio Pyodide / CPython.

Needs node and ``npm ci`` in tests/pyodide. Run by hand:

    python benchmarks/bench_pyodide.py [--games 10000] [--repeat 200] [--wheels newest|floor]
"""

from __future__ import annotations

import os

os.environ["XLWINGS_ON_SERVER"] = "true"  # before xlwings is imported: the Office.js path
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import xlwings as xw  # noqa: E402
import xlwings.server  # noqa: E402
from pyodide_lite import LINES, answer, missing, start, wheel_sets  # noqa: E402
from umaoka.addin import udfs  # noqa: E402
from umaoka.addin.lite import write_lite  # noqa: E402

GAME = [35700, 32400, 22200, 9700]


def block(games: int) -> list[list[int]]:
    """Valid games as Excel sends them: a row of four scores per game."""
    rows = []
    for i in range(games):
        a, b = 100 * (i % 173), 100 * (i % 61)
        rows.append([38000 - a, 31000 + b, 21000 + a, 10000 - b])
    return rows


def cpython(func: str, args: list[Any], repeat: int) -> tuple[float, float, Any]:
    """Median and least ms of ``repeat`` warm calls through CPython's Office.js path."""
    loop = asyncio.new_event_loop()
    body = {"func_name": func, "args": args, "caller_address": "[umaoka.xlsx]Games!K2",
            "version": xw.__version__, "runtime": "1.4", "client": "Office.js",
            "culture_info_name": "en-US", "date_format": "M/d/yyyy"}
    out = loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
        times.append((time.perf_counter() - started) * 1e3)
    loop.close()
    return statistics.median(times), min(times), out


def row(name: str, one: tuple[float, float], many: tuple[float, float],
        base: tuple[tuple[float, float], tuple[float, float]]) -> str:
    """One line of the table: median and least ms, and the ratio of the least to CPython's."""
    return (f"{name:27s} {one[0]:7.2f} {one[1]:7.2f} {one[1] / base[0][1]:5.1f}x "
            f"{many[0]:8.0f} {many[1]:8.0f} {many[1] / base[1][1]:5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=200, help="warm one-game calls")
    parser.add_argument("--wheels", choices=("newest", "floor"), default="newest")
    options = parser.parse_args()
    reason = missing()
    if reason:
        raise SystemExit(f"cannot run Pyodide here: {reason}")
    rows = block(options.games)
    one = [[GAME]]
    many = [rows, [["mleague"]]]
    calls = [{"id": "one", "func": "MJ_SETTLE", "args": one, "repeat": options.repeat},
             {"id": "block", "func": "MJ_SETTLE", "args": many, "repeat": 5}]
    with tempfile.TemporaryDirectory() as folder:
        main_py = write_lite(folder)[0]
        run = {"name": options.wheels, "wheels": wheel_sets()[options.wheels],
               "main_py": main_py, "calls": calls}
        lines = {line: answer(start(line, [run])) for line in LINES}  # one after the other
    one_median, one_least, _ = cpython("MJ_SETTLE", one + [None] * 3, options.repeat)
    many_median, many_least, expected = cpython("MJ_SETTLE", many + [None] * 2, 5)
    base = ((one_median, one_least), (many_median, many_least))

    print(f"MJ_SETTLE warm calls in ms: one game, then {options.games:,} games "
          "(ratio: least / CPython)")
    print(f"{'runtime':27s} {'median':>7s} {'least':>7s} {'ratio':>6s} {'median':>8s} "
          f"{'least':>8s} {'ratio':>6s}")
    print(row("CPython (Office.js path)", base[0], base[1], base))
    for line, out in lines.items():
        got = out["runs"][0]
        if "error" in got:
            raise SystemExit(f"main.py did not load in {line}:\n{got['error']}")
        if got["results"]["block"].get("value") != expected:
            raise SystemExit(f"{line} settled the block differently from CPython")
        one_ms, many_ms = (got["results"][k]["warm_ms"] for k in ("one", "block"))
        print(row(f"Pyodide {out['pyodide']} (py {out['python']})",
                  (one_ms["median"], one_ms["min"]), (many_ms["median"], many_ms["min"]), base))
    print(f"CPython {sys.version.split()[0]}, xlwings {xw.__version__}: "
          f"{many_least / options.games * 1e3:.0f} us per game in the block")
    for line, out in lines.items():
        got = out["runs"][0]
        per_game = got["results"]["block"]["warm_ms"]["min"] / options.games * 1e3
        print(f"{line}: {per_game:.0f} us/game, start {out['load_ms'] / 1e3:.1f} s, main.py "
              f"{got['register_ms']:.0f} ms; xlwings {got['versions']['xlwings']}, mahjong "
              f"{got['versions']['mahjong']}")


if __name__ == "__main__":
    main()
