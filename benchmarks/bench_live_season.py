"""Time the template's live Season standings after one typed score, in CPython.

``umaoka demo --games N`` writes the demo season; its own formulas and cells are called
as Excel calls them, through xlwings' Office.js path (``xlwings.server.
custom_functions_call``, as xlwings Server and xlwings Lite run it): one cold MJ_SEASON
call (nothing computed before), then one score typed in the regular season: the tab's
MJ_SETTLE block and all four MJ_SEASON formulas (each stage's players and teams). Goal:
the four MJ_SEASON calls after the edit together at most 1.5x one cold call.

    python benchmarks/bench_live_season.py [--games 2000 10000]
"""

from __future__ import annotations

import os

os.environ["XLWINGS_ON_SERVER"] = "true"  # before xlwings is imported: the Office.js path
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import gc  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

import xlwings as xw  # noqa: E402
import xlwings.server  # noqa: E402
from live_season import demo_workbook, recalc_calls  # noqa: E402

from umaoka.addin import udfs  # noqa: E402
from umaoka.addin.functions import season as season_fns  # noqa: E402
from umaoka.addin.functions import settle as settle_fns
from umaoka.addin.functions import standings as standings_fns


def forget() -> None:
    """Every cache of the functions emptied: the next call computes from nothing."""
    for cache in (settle_fns._BLOCKS, settle_fns._SETTLED, standings_fns._LINES):
        cache.items.clear()
    forget_season = getattr(udfs, "_forget_seasons", None)
    if forget_season is not None:
        forget_season()


def run(calls: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each call through CPython's Office.js path: its ms and value."""
    forget()
    gc.collect()  # the demo workbooks read to make the calls: not collected inside a call
    loop = asyncio.new_event_loop()
    out = {}
    for call in calls:
        body = {"func_name": call["func"], "args": call["args"],
                "caller_address": "[umaoka.xlsx]Season standings!R5", "version": xw.__version__,
                "runtime": "1.4", "client": "Office.js", "culture_info_name": "en-US",
                "date_format": "M/d/yyyy"}
        started = time.perf_counter()
        value = loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
        out[call["id"]] = {"first_ms": (time.perf_counter() - started) * 1e3, "value": value}
    loop.close()
    return out


def totals(results: dict[str, dict[str, Any]], groups: dict[str, list[str]]) -> dict[str, float]:
    """ms of each group of calls: one cold MJ_SEASON, the four after the edit, and the whole
    recalculation after the edit (MJ_SETTLE block and the four)."""
    return {k: sum(results[i]["first_ms"] for i in ids) for k, ids in groups.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2_000, 10_000])
    parser.add_argument("--runs", type=int, default=3, help="best of this many sequences")
    options = parser.parse_args()
    print("ms through the Office.js path in CPython (best of "
          f"{options.runs}); goal: four MJ_SEASON after an edit <= 1.5x one cold call;")
    print("baseline: the same calls with MJ_SEASON's memory off (each call runs the season)")
    print(f"{'games':>8s} {'':9s} {'1 cold':>9s} {'4 after edit':>13s} {'ratio':>7s} "
          f"{'MJ_SETTLE':>10s} {'whole recalc':>13s}")
    size = season_fns._SEASONS.size
    with tempfile.TemporaryDirectory() as folder:
        for games in options.games:
            calls, groups = recalc_calls(demo_workbook(games, Path(folder) / str(games)))
            for name, memory in (("baseline", 0), ("now", size)):
                season_fns._SEASONS.size = memory
                best: dict[str, float] = {}
                for _ in range(options.runs):
                    got = totals(run(calls), groups)
                    best = {k: min(v, best.get(k, v)) for k, v in got.items()}
                print(f"{games:8,d} {name:9s} {best['cold']:9.1f} {best['seasons']:13.1f} "
                      f"{best['seasons'] / best['cold']:6.2f}x "
                      f"{best['edit'] - best['seasons']:10.1f} {best['edit']:13.1f}")
    season_fns._SEASONS.size = size


if __name__ == "__main__":
    main()
