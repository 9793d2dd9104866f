"""Time the template's live Season standings after one typed score, in CPython.

``umaoka demo --games N`` writes the demo season; its own formulas and cells are called
as Excel calls them, through xlwings' Office.js path (``xlwings.server.
custom_functions_call``, as xlwings Server and xlwings Lite run it), with empty cells sent
as Excel on the web sends them (null) and as desktop Excel does (0): one cold MJ_SEASON
call (every memory of the functions emptied first), then one score typed in the regular
season: the tab's MJ_SETTLE block and all four MJ_SEASON formulas (each stage's players
and teams). Goal: the four MJ_SEASON calls after the edit together at most 1.5x one cold
call. The baseline is the same calls with MJ_SEASON's memory off (each call runs the season).

``--server`` times instead what xlwings Server does: each request's arguments decoded
afresh from JSON, 40 recalculations, each after one score typed in a random game; it
prints the median and 90th percentile of a whole recalculation, and how many of Python's
full (oldest-generation) garbage collections ran inside a request. Goal: p90 under 100 ms
at 10,000 games, no full collection inside a request.

    python benchmarks/bench_live_season.py [--games 2000 10000] [--blanks web desktop]
    python benchmarks/bench_live_season.py --server [--games 10000]
"""

from __future__ import annotations

import os

os.environ["XLWINGS_ON_SERVER"] = "true"  # before xlwings is imported: the Office.js path
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import argparse  # noqa: E402
import asyncio  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
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
    """Every memory of the functions emptied: the next call computes from nothing. A
    memory that is not where this benchmark looks is an error, never skipped: a "cold"
    call that found the last run's result would time nothing."""
    for cache in (settle_fns._BLOCKS, settle_fns._SETTLED, standings_fns._LINES):
        cache.items.clear()
    season_fns._forget_seasons()
    if season_fns._SEASONS.items or season_fns._SEASONS._last is not None:
        raise SystemExit("MJ_SEASON's memory was not emptied: the benchmark is out of date")


def request(call: dict[str, Any], fresh: bool = False) -> dict[str, Any]:
    """The body xlwings' Office.js path gets for a call (``fresh``: its arguments decoded
    from JSON, new objects at every request, as xlwings Server receives them)."""
    args = json.loads(json.dumps(call["args"])) if fresh else call["args"]
    return {"func_name": call["func"], "args": args,
            "caller_address": "[umaoka.xlsx]Season standings!R5", "version": xw.__version__,
            "runtime": "1.4", "client": "Office.js", "culture_info_name": "en-US",
            "date_format": "M/d/yyyy"}


def run(calls: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each call through CPython's Office.js path: its ms and value."""
    forget()
    gc.collect()  # the demo workbooks read to make the calls: not collected inside a call
    loop = asyncio.new_event_loop()
    out = {}
    for call in calls:
        body = request(call)
        started = time.perf_counter()
        value = loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
        out[call["id"]] = {"first_ms": (time.perf_counter() - started) * 1e3, "value": value}
    loop.close()
    return out


def edited(calls: list[dict[str, Any]], game: int, step: float) -> list[dict[str, Any]]:
    """The recalculation after a score typed in ``game`` (its first seat +step, the
    second -step, so it still adds up): the tab's MJ_SETTLE block and the four MJ_SEASON
    formulas, each call as many times as its formula names it."""
    settle = next(c for c in calls if c["id"] == "settle before")
    seasons = [c for c in calls if c["id"].startswith("season warm")]
    scores = [list(r) for r in settle["args"][0]]
    n = len(scores[0])
    scores[game][0] += step
    scores[game][1] -= step
    out = [{**settle, "args": [scores, *settle["args"][1:]]}]
    games_arg = settle["games_arg"]
    for c in seasons:
        grid = [list(r) for r in c["args"][games_arg]]
        grid[game][n] += step
        grid[game][n + 1] -= step
        args = [*c["args"][:games_arg], grid, *c["args"][games_arg + 1:]]
        out += [{**c, "args": args}] * c["named"]  # as often as its formula names the call
    return out


def server(calls: list[dict[str, Any]], rounds: int = 40
           ) -> tuple[list[float], int, int, float]:
    """``rounds`` recalculations as xlwings Server serves them, each after one typed score
    in a random game (each request's JSON decoded, then the call): each whole
    recalculation's ms, the full collections that ran inside a request and outside, and
    the ms of collections (of any generation) inside the requests of one recalculation."""
    forget()
    gc.collect()
    loop = asyncio.new_event_loop()
    inside = [False]
    full = {True: 0, False: 0}
    pause = [0.0, 0.0]  # when the running collection started; ms of collections inside

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            pause[0] = time.perf_counter()
            if info["generation"] == 2:
                full[inside[0]] += 1
        elif inside[0]:
            pause[1] += (time.perf_counter() - pause[0]) * 1e3

    for call in calls[:2]:  # the first calls: the season run once, as Excel does on opening
        loop.run_until_complete(xlwings.server.custom_functions_call(request(call, True), udfs))
    gc.callbacks.append(count)
    rng, times = random.Random(7), []
    scores = next(c for c in calls if c["id"] == "settle before")["args"][0]
    played = [i for i, r in enumerate(scores)  # the rows holding a game, not spare rows
              if all(isinstance(v, float) for v in r) and any(r)]
    try:
        for k in range(rounds):
            batch = [(c["func"], json.dumps(c["args"])) for c in
                     edited(calls, rng.choice(played), 100 if k % 2 else -100)]
            started = time.perf_counter()
            inside[0] = True
            for func, text in batch:  # each request: its JSON decoded, the call
                body = request({"func": func, "args": json.loads(text)})
                loop.run_until_complete(xlwings.server.custom_functions_call(body, udfs))
                del body  # freed as the server frees a request's JSON
            inside[0] = False
            times.append((time.perf_counter() - started) * 1e3)
    finally:
        gc.callbacks.remove(count)
        loop.close()
    return times, full[True], full[False], pause[1] / rounds


def totals(results: dict[str, dict[str, Any]], groups: dict[str, list[str]]) -> dict[str, float]:
    """ms of each group of calls: one cold MJ_SEASON, the four after the edit, and the whole
    recalculation after the edit (MJ_SETTLE block and the four)."""
    return {k: sum(results[i]["first_ms"] for i in ids) for k, ids in groups.items()}


def main_server(options: argparse.Namespace) -> None:
    print("xlwings Server's path in CPython: arguments decoded from JSON at every request;")
    print("a whole recalculation (MJ_SETTLE block + four MJ_SEASON) after one typed score, "
          f"{options.rounds} rounds; goal p90 < 100 ms, no full collection inside a request")
    print(f"{'games':>8s} {'blanks':8s} {'median':>8s} {'p90':>8s} {'max':>8s} "
          f"{'full gc in':>11s} {'outside':>8s} {'gc ms/recalc':>13s}")
    with tempfile.TemporaryDirectory() as folder:
        for games in options.games:
            path = demo_workbook(games, Path(folder) / str(games))
            for blanks in options.blanks:
                calls, _ = recalc_calls(path, blanks)
                times, inside, outside, gc_ms = server(calls, options.rounds)
                p90 = statistics.quantiles(times, n=10)[-1]
                print(f"{games:8,d} {blanks:8s} {statistics.median(times):8.1f} {p90:8.1f} "
                      f"{max(times):8.1f} {inside:11d} {outside:8d} {gc_ms:13.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2_000, 10_000])
    parser.add_argument("--runs", type=int, default=3, help="best of this many sequences")
    parser.add_argument("--blanks", nargs="+", choices=("web", "desktop"),
                        default=["web", "desktop"], help="how empty cells are sent: null "
                        "(Excel on the web) or 0 (desktop Excel)")
    parser.add_argument("--server", action="store_true", help="xlwings Server's path: "
                        "fresh arguments, 40 recalculations, p90 and collections")
    parser.add_argument("--rounds", type=int, default=40)
    options = parser.parse_args()
    if options.server:
        main_server(options)
        return
    print("ms through the Office.js path in CPython (best of "
          f"{options.runs}); goal: four MJ_SEASON after an edit <= 1.5x one cold call;")
    print("baseline: the same calls with MJ_SEASON's memory off (each call runs the season)")
    print(f"{'games':>8s} {'blanks':8s} {'':9s} {'1 cold':>9s} {'4 after edit':>13s} "
          f"{'ratio':>7s} {'MJ_SETTLE':>10s} {'whole recalc':>13s}")
    size = season_fns._SEASONS.size
    with tempfile.TemporaryDirectory() as folder:
        for games in options.games:
            path = demo_workbook(games, Path(folder) / str(games))
            for blanks in options.blanks:
                calls, groups = recalc_calls(path, blanks)
                for name, memory in (("baseline", 0), ("now", size)):
                    season_fns._SEASONS.size = memory
                    best: dict[str, float] = {}
                    for _ in range(options.runs):
                        got = totals(run(calls), groups)
                        best = {k: min(v, best.get(k, v)) for k, v in got.items()}
                    print(f"{games:8,d} {blanks:8s} {name:9s} {best['cold']:9.1f} "
                          f"{best['seasons']:13.1f} {best['seasons'] / best['cold']:6.2f}x "
                          f"{best['edit'] - best['seasons']:10.1f} {best['edit']:13.1f}")
    season_fns._SEASONS.size = size


if __name__ == "__main__":
    main()
