"""Time the Excel functions inside the real xlwings Lite runtime (Pyodide) against CPython.

For each Pyodide line of tests/pyodide (0.27.x and 314.x), main.py (``umaoka lite``) is
loaded as xlwings Lite loads it and called as Excel calls it (tests/pyodide_lite.py), each
call timed inside node around the runtime's custom_functions_call (JS to Python conversion,
xlwings, umaoka, and back): one game with MJ_SETTLE once warm; a block of 50,000 games in
one MJ_SETTLE call, first with empty caches, then five times with one more row changed (as
Excel recalculates a league tab after an edit); MJ_STANDINGS over the finals likewise. The
same calls go through CPython's Office.js path (``xlwings.server.custom_functions_call``,
as xlwings Server runs it) in this process, and the table gives the ratio Pyodide / CPython.

Needs node and ``npm ci`` in tests/pyodide. Run by hand:

    python benchmarks/bench_pyodide.py [--games 50000] [--repeat 100] [--wheels newest|floor]
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
from pyodide_lite import LINES, NotReady, answer, missing, start, wheel_sets  # noqa: E402
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


PEOPLE = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Goro", "Hana"]


def changed(rows: list[list[Any]], k: int, step: float) -> list[list[Any]]:
    """The block with row k * 7 changed (two values, so a game still adds up)."""
    rows = [list(r) for r in rows]
    rows[k * 7][0] += step
    rows[k * 7][1] -= step
    return rows


def sequence(games: int, repeat: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The calls, in order: one game (warm, repeated), the block's first call, five calls each
    with one more row changed, then MJ_STANDINGS likewise; and the ids of the timed ones."""
    rows = block(games)
    names = [[PEOPLE[(i * 3 + k) % len(PEOPLE)] for k in range(4)] for i in range(games)]
    calls = [{"id": "one", "func": "MJ_SETTLE", "args": [[GAME]], "repeat": repeat},
             {"id": "settle first", "func": "MJ_SETTLE", "args": [rows, [["mleague"]]]}]
    for k in range(5):
        rows = changed(rows, k, 100)
        calls.append({"id": f"settle changed {k}", "func": "MJ_SETTLE",
                      "args": [rows, [["mleague"]]], "conversion": k == 4})
    finals = udfs.MJ_SETTLE(rows, "mleague")
    calls.append({"id": "standings first", "func": "MJ_STANDINGS", "args": [names, finals]})
    for k in range(5):
        finals = changed(finals, k, 1)
        calls.append({"id": f"standings changed {k}", "func": "MJ_STANDINGS",
                      "args": [names, finals], "conversion": k == 4})
    return calls, [c["id"] for c in calls]


def cpython(calls: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The same calls through CPython's Office.js path: each call's ms (warm ones: median and
    least), and its value."""
    for cache in (udfs._BLOCKS, udfs._SETTLED, udfs._LINES):
        cache.items.clear()
    loop = asyncio.new_event_loop()
    out = {}
    for call in calls:
        args = call["args"] + [None] * (4 - len(call["args"]))
        body = {"func_name": call["func"], "args": args,
                "caller_address": "[umaoka.xlsx]Games!K2", "version": xw.__version__,
                "runtime": "1.4", "client": "Office.js", "culture_info_name": "en-US",
                "date_format": "M/d/yyyy"}
        started = time.perf_counter()
        value = loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
        got: dict[str, Any] = {"first_ms": (time.perf_counter() - started) * 1e3,
                               "value": value}
        if call.get("repeat"):
            times = []
            for _ in range(call["repeat"]):
                started = time.perf_counter()
                loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
                times.append((time.perf_counter() - started) * 1e3)
            got["warm_ms"] = {"median": statistics.median(times), "min": min(times)}
        out[call["id"]] = got
    loop.close()
    return out


def figures(results: dict[str, dict[str, Any]]) -> list[float]:
    """One game (least warm ms), first block call, least one-row change; for both functions."""
    def least(prefix: str) -> float:
        return min(v["first_ms"] for k, v in results.items() if k.startswith(prefix))
    return [results["one"]["warm_ms"]["min"], results["settle first"]["first_ms"],
            least("settle changed"), results["standings first"]["first_ms"],
            least("standings changed")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=100, help="warm one-game calls")
    parser.add_argument("--wheels", choices=("newest", "floor"), default="newest")
    options = parser.parse_args()
    try:
        reason = missing()  # installs Pyodide with npm ci when it is not there yet
    except NotReady as e:
        reason = str(e)
    if reason:
        raise SystemExit(f"cannot run Pyodide here: {reason}")
    calls, ids = sequence(options.games, options.repeat)
    with tempfile.TemporaryDirectory() as folder:
        main_py = write_lite(folder)[0]
        run = {"name": options.wheels, "wheels": wheel_sets()[options.wheels],
               "main_py": main_py, "calls": calls}
        lines = {line: answer(start(line, [run]), timeout=1800) for line in LINES}
    expected = cpython(calls)
    base = figures(expected)
    heads = ("one game", "SETTLE 1st", "1 row chg", "STAND 1st", "1 row chg")
    print(f"ms per call through the Office.js path; {options.games:,} games; ratio to CPython")
    print(f"{'runtime':22s}" + "".join(f" {h:>10s}" for h in heads))
    print(f"{'CPython (xlwings Srv)':22s}" + "".join(f" {v:10.1f}" for v in base))
    for line, out in lines.items():
        got = out["runs"][0]
        if "error" in got:
            raise SystemExit(f"main.py did not load in {line}:\n{got['error']}")
        for key in ids:
            if got["results"][key].get("value") != expected[key]["value"]:
                raise SystemExit(f"{line} answered {key} differently from CPython")
        mine = figures(got["results"])
        print(f"{'Pyodide ' + out['pyodide']:22s}" + "".join(f" {v:10.1f}" for v in mine))
        print(f"{'  ratio':22s}" + "".join(f" {m / b:9.1f}x" for m, b in zip(mine, base)))
        for func in ("settle", "standings"):
            last = got["results"][f"{func} changed 4"]
            took = last["first_ms"]
            runtime = last["to_py_ms"] + last["to_js_ms"]
            print(f"  {func}, one row changed: {took:.0f} ms, of which the runtime's own "
                  f"conversion {runtime:.0f} ms (arguments {last['to_py_ms']:.0f}, answer "
                  f"{last['to_js_ms']:.0f}): {runtime / took:.0%}")
    print("goals: first MJ_SETTLE < 500 ms; one row changed: MJ_SETTLE < 100 ms, "
          "MJ_STANDINGS < 200 ms")
    for line, out in lines.items():
        got = out["runs"][0]
        print(f"{line}: start {out['load_ms'] / 1e3:.1f} s, main.py {got['register_ms']:.0f} ms; "
              f"xlwings {got['versions']['xlwings']}, mahjong {got['versions']['mahjong']}")


if __name__ == "__main__":
    main()
