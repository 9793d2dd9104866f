"""Time MJ_SETTLE over a 50,000-game block (without caches, first call, one row changed) and
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
from umaoka.addin.functions import settle as settle_fns  # noqa: E402
from umaoka.addin.functions import standings as standings_fns

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


def settle_figures(label: str, scores: list[list[float]], *more: Any) -> list[Any]:
    """MJ_SETTLE over the block: without caches (the baseline), first call, one row changed."""
    games = len(scores)
    caches = (settle_fns._SETTLED, settle_fns._BLOCKS)
    sizes = [c.size for c in caches]
    for c in caches:  # every row settled again: the baseline
        c.size = 0
        c.items.clear()
    base, median, finals = timed(3, "MJ_SETTLE", scores, "mleague", *more)
    for c, size in zip(caches, sizes):
        c.size = size
    print(f"MJ_SETTLE {label}, {games:,} games x 4")
    print(f"  no caches (baseline): best {base * 1000:7.1f} ms, median {median * 1000:7.1f} ms "
          f"({base / games * 1e6:.1f} us/game)")
    first, _, _ = timed(1, "MJ_SETTLE", scores, "mleague", *more)
    print(f"  first call (empty caches): {first * 1000:7.1f} ms "
          f"({first / base:.2f} x baseline; goal < 500 ms)")
    times = []
    for k in range(5):  # one score changed (and the next one, so the game still adds up)
        scores = [list(row) for row in scores]  # Excel sends new lists every call
        scores[k * 7][0] += 100
        scores[k * 7][1] -= 100
        times.append(timed(1, "MJ_SETTLE", scores, "mleague", *more)[0])
    print(f"  one row changed: best {min(times) * 1000:7.1f} ms, median "
          f"{sorted(times)[2] * 1000:7.1f} ms ({min(times) / base:.2f} x baseline; "
          "goal < 100 ms)")
    return finals


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    scores, names = league(games)
    call("MJ_SETTLE", scores[:10], "mleague")  # warm up imports and caches
    finals = settle_figures("(scores, ruleset)", scores)
    # the league tab's formula: deposits and penalties columns too, mostly blank
    deposits = [[1000.0 if i % 9 == 0 else None] for i in range(games)]
    penalties = [[None] * 4 for _ in range(games)]
    settle_figures("(scores, ruleset, deposits, penalties), as the league tab calls it",
                   scores, deposits, penalties)
    standings_figures(names, finals)


def standings_figures(names: list[list[str]], finals: list[list[Any]]) -> None:
    """MJ_STANDINGS over the finals: without caches (the baseline), first call, one row
    changed (as after MJ_SETTLE settled a changed game again)."""
    size = standings_fns._LINES.size
    standings_fns._LINES.size = 0
    standings_fns._LINES.items.clear()
    base, median, table = timed(3, "MJ_STANDINGS", names, finals)
    standings_fns._LINES.size = size
    print(f"MJ_STANDINGS {len(names):,} games -> {len(table) - 1} players")
    print(f"  no caches (baseline): best {base * 1000:7.1f} ms, median {median * 1000:7.1f} ms")
    first, _, _ = timed(1, "MJ_STANDINGS", names, finals)
    print(f"  first call (empty caches): {first * 1000:7.1f} ms ({first / base:.2f} x baseline)")
    times = []
    for k in range(5):
        finals = [list(row) for row in finals]
        finals[k * 7][0] += 1
        finals[k * 7][1] -= 1
        times.append(timed(1, "MJ_STANDINGS", names, finals)[0])
    print(f"  one row changed: best {min(times) * 1000:7.1f} ms, median "
          f"{sorted(times)[2] * 1000:7.1f} ms ({min(times) / base:.2f} x baseline; "
          "goal < 200 ms)")


if __name__ == "__main__":
    main()
