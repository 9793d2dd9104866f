"""Time MJ_SETTLE over a 50,000-game block (no row cache, first call, one row changed) and
MJ_STANDINGS over its results, as Excel calls them.

Both go through xlwings' Office.js call path (``xlwings.server.custom_functions_call``, as
xlwings Server and xlwings Lite run it), argument and result conversion included.

    python benchmarks/bench_udfs.py [GAMES]
"""

from __future__ import annotations

import os

os.environ["XLWINGS_ON_SERVER"] = "true"  # before xlwings is imported: the Office.js path
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

import asyncio  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

import xlwings as xw  # noqa: E402
import xlwings.server  # noqa: E402
from umaoka.addin import udfs  # noqa: E402

PEOPLE = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Goro", "Hana"]


def payload(func_name: str, *args: Any) -> dict[str, Any]:
    return {"func_name": func_name, "args": list(args), "caller_address": "League!K2",
            "formula_name": func_name, "version": xw.__version__, "runtime": "1.4",
            "client": "Office.js", "culture_info_name": "en-US", "date_format": "M/d/yyyy"}


def call(func_name: str, *args: Any) -> Any:
    return asyncio.run(xlwings.server.custom_functions_call(payload(func_name, *args), udfs))


def league(games: int) -> tuple[list[list[float]], list[list[str]]]:
    """Scores as Excel sends them (floats) and the players of each game."""
    scores, names = [], []
    for i in range(games):
        a = 100 * (i % 173)
        b = 100 * (i % 61)
        scores.append([float(38000 - a), float(31000 + b), float(21000 + a), float(10000 - b)])
        names.append([PEOPLE[(i * 3 + k) % len(PEOPLE)] for k in range(4)])
    return scores, names


def timed(runs: int, func_name: str, *args: Any) -> tuple[float, float, Any]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = call(func_name, *args)
        times.append(time.perf_counter() - start)
    return min(times), sorted(times)[len(times) // 2], out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    scores, names = league(games)
    call("MJ_SETTLE", scores[:10], "mleague")  # warm up imports and caches
    uncached = udfs._SETTLED.size
    udfs._SETTLED.size = 0  # every row settled again: the baseline
    base, median, finals = timed(3, "MJ_SETTLE", scores, "mleague")
    udfs._SETTLED.size = uncached
    print(f"MJ_SETTLE    {games:,} games x 4, no row cache: best {base * 1000:7.1f} ms, "
          f"median {median * 1000:7.1f} ms ({base / games * 1e6:.1f} us/game)")
    udfs._SETTLED.items.clear()
    first, _, _ = timed(1, "MJ_SETTLE", scores, "mleague")
    print(f"  first call (empty cache): {first * 1000:7.1f} ms "
          f"({first / base:.2f} x baseline; goal < 500 ms)")
    times = []
    for k in range(5):  # one score changed (and the next one, so the game still adds up)
        scores[k * 7][0] += 100
        scores[k * 7][1] -= 100
        times.append(timed(1, "MJ_SETTLE", scores, "mleague")[0])
    print(f"  one row changed: best {min(times) * 1000:7.1f} ms, median "
          f"{sorted(times)[2] * 1000:7.1f} ms ({min(times) / base:.2f} x baseline; "
          "goal < 100 ms)")
    best, median, table = timed(5, "MJ_STANDINGS", names, finals)
    print(f"MJ_STANDINGS {games:,} games -> {len(table) - 1} players: best "
          f"{best * 1000:7.1f} ms, median {median * 1000:7.1f} ms (goal < 200 ms)")


if __name__ == "__main__":
    main()
