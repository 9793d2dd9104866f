"""Time the Excel functions inside the real xlwings Lite runtime (Pyodide) against CPython.

For each Pyodide line of tests/pyodide (0.27.x and 314.x), main.py (``umaoka lite``) is
loaded as xlwings Lite loads it and called as Excel calls it (tests/pyodide_lite.py), each
call timed inside node around the runtime's custom_functions_call (JS to Python conversion,
xlwings, umaoka, and back): one game with MJ_SETTLE once warm; a block of 50,000 games in
one MJ_SETTLE call, first with empty caches, then five times with one more row changed (as
Excel recalculates a league tab after an edit); MJ_STANDINGS over the finals likewise. The
same calls go through CPython's Office.js path (``xlwings.server.custom_functions_call``,
as xlwings Server runs it) in this process, and the table gives the ratio Pyodide / CPython.

``--season N ...`` times instead the template's live Season standings after one typed score
(benchmarks/live_season.py: ``umaoka demo --games N``, the workbook's own formulas and cells):
one cold MJ_SEASON call, and the whole recalculation after the edit (the league tab's
MJ_SETTLE block and all four MJ_SEASON formulas, as Excel calls them), with the CPython
figure beside it.

Needs node and ``npm ci`` in tests/pyodide. Run by hand:

    python benchmarks/bench_pyodide.py [--games 50000] [--repeat 100] [--wheels newest|floor]
    python benchmarks/bench_pyodide.py --season 2000 10000 [--blanks web desktop]
"""

from __future__ import annotations

import os

os.environ["XLWINGS_ON_SERVER"] = "true"  # before xlwings is imported: the Office.js path
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import xlwings as xw  # noqa: E402
import xlwings.server  # noqa: E402
from live_season import demo_workbook, recalc_calls  # noqa: E402
from pyodide_lite import LINES, NotReady, answer, missing, start, wheel_sets  # noqa: E402

from umaoka.addin import udfs  # noqa: E402
from umaoka.addin.functions import season as season_fns  # noqa: E402
from umaoka.addin.functions import settle as settle_fns
from umaoka.addin.functions import standings as standings_fns
from umaoka.addin.install.lite import write_lite  # noqa: E402

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
    for cache in (settle_fns._BLOCKS, settle_fns._SETTLED, standings_fns._LINES):
        cache.items.clear()
    season_fns._forget_seasons()
    gc.collect()  # the demo workbooks read to make the calls: not collected inside a call
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
    parser.add_argument("--blanks", nargs="+", choices=("web", "desktop"),
                        default=["web", "desktop"], help="--season: empty cells sent as "
                        "null (Excel on the web) or 0 (desktop Excel)")
    parser.add_argument("--season", type=int, nargs="+", metavar="GAMES",
                        help="time the live season after one typed score at these sizes")
    options = parser.parse_args()
    try:
        reason = missing()  # installs Pyodide with npm ci when it is not there yet
    except NotReady as e:
        reason = str(e)
    if reason:
        raise SystemExit(f"cannot run Pyodide here: {reason}")
    if options.season:
        season(options.season, options.wheels, options.blanks)
        return
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


def season(sizes: list[int], wheels: str, blanks: list[str]) -> None:
    """The live season after one typed score, in each Pyodide line and in CPython, with
    empty cells sent as Excel on the web (null) and desktop Excel (0) send them."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for games, blank in ((g, b) for g in sizes for b in blanks):
            path = Path(folder) / str(games) / "demo_league.xlsx"
            if not path.exists():
                demo_workbook(games, path.parent)
            calls, groups = recalc_calls(path, blank)
            for c in calls:
                c["conversion"] = c["id"].startswith(("settle edit", "season edit"))
            main_py = write_lite(Path(folder) / f"lite{games}{blank}")[0]
            run = {"name": wheels, "wheels": wheel_sets()[wheels], "main_py": main_py,
                   "calls": calls}
            lines = {line: answer(start(line, [run]), timeout=3600) for line in LINES}
            expected = cpython(calls)
            results = {"CPython (xlwings Srv)": expected}
            for line, out in lines.items():
                got = out["runs"][0]
                if "error" in got:
                    raise SystemExit(f"main.py did not load in {line}:\n{got['error']}")
                for key in expected:
                    if got["results"][key].get("value") != expected[key]["value"]:
                        raise SystemExit(f"{line} answered {key} differently from CPython")
                results[f"Pyodide {out['pyodide']}"] = got["results"]
            rows.append((games, blank, groups, results))
    print("ms through the Office.js path, the template's live season after one typed score")
    print("(baseline: before, each MJ_SEASON formula ran the whole season: 4 x cold and more)")
    print(f"{'games':>7s} {'blanks':7s} {'runtime':22s} {'1 cold':>8s} {'baseline':>9s} "
          f"{'4 after':>8s} {'ratio':>6s} {'SETTLE':>7s} {'recalc':>8s} {'args':>6s} "
          f"{'goal':>6s}")
    for games, blank, groups, results in rows:
        goal = 100 if games <= 2000 else 300
        for name, res in results.items():
            ms = {k: sum(res[i]["first_ms"] for i in ids) for k, ids in groups.items()}
            to_py = sum(res[i].get("to_py_ms", 0) for i in groups["edit"])
            print(f"{games:7,d} {blank:7s} {name:22s} {ms['cold']:8.1f} {4 * ms['cold']:9.1f} "
                  f"{ms['seasons']:8.1f} "
                  f"{ms['seasons'] / ms['cold']:5.2f}x {ms['edit'] - ms['seasons']:7.1f} "
                  f"{ms['edit']:8.1f} {to_py:6.0f} {'< ' + str(goal):>6s}")
    print("4 after: the four MJ_SEASON formulas after the edit, every call each names (goal "
          "<= 1.5x one cold call); recalc: those and the tab's MJ_SETTLE block (goal: "
          "2,000 games < 100 ms, 10,000 < 300 ms); args: of which the runtime's conversion "
          "of the arguments (JavaScript to Python)")


if __name__ == "__main__":
    main()
