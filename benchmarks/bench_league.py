"""Seating draws, lobby-line imports and stats/ratings: time and quality, printed.

Run by hand: ``python benchmarks/bench_league.py``. For each schedule size it prints the
time, the most and fewest meetings of any pair, and the least possible "most meetings"
(the pair meetings spread evenly); then lobby lines and games per second.
"""

from __future__ import annotations

import math
import random
import time
from decimal import Decimal

from umaoka.engine.online.imports import read_results
from umaoka.engine.online.rating import ratings
from umaoka.engine.season.stats import head_to_head, player_stats
from umaoka.engine.seating.plan import schedule

SIZES = [(16, 5, 4), (12, 3, 4), (12, 3, 3), (15, 7, 3), (20, 5, 4), (24, 7, 4),
         (32, 8, 4), (40, 10, 4), (13, 6, 4), (100, 20, 4), (400, 60, 4)]


def bench_seating() -> None:
    print(f"{'players':>7} {'rounds':>6} {'size':>4} {'seconds':>8} {'max':>4} {'min':>4} "
          f"{'best max':>8}  method")
    for n, rounds, size in SIZES:
        start = time.perf_counter()
        s = schedule(n, rounds, size, seed=1)
        took = time.perf_counter() - start
        pairs = n * (n - 1) // 2
        total = rounds * (n // size) * size * (size - 1) // 2
        print(f"{n:>7} {rounds:>6} {size:>4} {took:>8.2f} {s.max_meetings:>4} "
              f"{s.min_meetings:>4} {math.ceil(total / pairs):>8}  {s.method}")


def bench_import(lines: int = 100_000) -> None:
    rng = random.Random(1)
    rows = []
    for k in range(lines):
        finals = sorted((rng.randint(-600, 800) for _ in range(3)), reverse=True)
        finals.append(-sum(finals))
        finals.sort(reverse=True)
        names = [f"名前{rng.randint(1, 500)}(仮)" for _ in range(4)]
        results = " ".join(f"{n}({f / 10:+.1f})" for n, f in zip(names, finals))
        rows.append(f"L1002 | {k % 24:02d}:{k % 60:02d} | 四般南喰赤－ | {results}")
    data = "\r\n".join(rows).encode()
    start = time.perf_counter()
    result = read_results("sca20260404.log", data)
    took = time.perf_counter() - start
    print(f"lobby lines: {len(result.games):,} read in {took:.2f} s "
          f"({len(result.games) / took:,.0f} lines/s)")


def bench_stats(games: int = 20_000) -> None:
    rng = random.Random(2)
    players = [f"P{i}" for i in range(40)]
    data = []
    for _ in range(games):
        table = rng.sample(players, 4)
        finals = [Decimal(rng.randint(-500, 500)) / 10 for _ in range(3)]
        finals.append(-sum(finals))
        data.append((table, finals, None, [rng.randint(-50, 600) * 100 for _ in range(4)]))
    for label, run in [("player stats", player_stats), ("head to head", head_to_head),
                       ("R ratings", ratings)]:
        start = time.perf_counter()
        run(data)
        took = time.perf_counter() - start
        print(f"{label}: {games:,} games in {took:.2f} s ({games / took:,.0f} games/s)")


if __name__ == "__main__":
    bench_seating()
    bench_import()
    bench_stats()
