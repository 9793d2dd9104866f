"""Seating quality against the best known designs: meetings spread and time, printed.

Run by hand::

    python benchmarks/bench_seating.py                 # the checked sizes, seeds 0 1 2
    python benchmarks/bench_seating.py --sweep 4       # every roster 8-64 at tables of 4
    python benchmarks/bench_seating.py --sweep 3 --seeds 0 --players 9-33

For each players x rounds it prints the fewest-most meetings of any pair that umaoka
reaches on each seed, the best known (the counting bound: total meetings spread as evenly
as the pairs allow, unless a published result says more is needed), and the slowest draw.
The sweep prints one line per player count: the round counts where every seed reaches the
best known, and the others with what umaoka reaches.
"""

from __future__ import annotations

import argparse
import time

from umaoka.engine.seating.plan import schedule

#: The sizes the docs and the tests check: the issue's five, the shipped schedules, the
#: exact designs, and some rosters one player short of a design.
CHECKED = [(20, 5, 4), (20, 7, 4), (28, 9, 4), (32, 10, 4), (32, 11, 4),
           (20, 6, 4), (24, 7, 4), (24, 8, 4), (36, 11, 4), (48, 15, 4),
           (16, 5, 4), (40, 13, 4), (52, 17, 4), (64, 21, 4),
           (9, 4, 3), (15, 7, 3), (21, 10, 3), (27, 13, 3), (33, 16, 3), (39, 19, 3), (45, 22, 3),
           (51, 25, 3), (57, 28, 3), (63, 31, 3), (27, 9, 4), (63, 21, 4), (32, 16, 3),
           (44, 22, 3), (24, 11, 3), (30, 14, 3), (36, 17, 3),
           (42, 20, 3), (48, 23, 3), (60, 19, 4), (31, 10, 4), (54, 26, 3)]


def counting_bound(n: int, rounds: int, size: int) -> tuple[int, int]:
    """Fewest and most meetings per pair if the meetings were spread perfectly evenly."""
    pairs = n * (n - 1) // 2
    total = rounds * (n // size) * size * (size - 1) // 2
    return total // pairs, -(-total // pairs)


def best_known(n: int, rounds: int, size: int) -> tuple[int, int, str]:
    """The best known fewest-most meetings, and where it comes from."""
    lo, hi = counting_bound(n, rounds, size)
    if size == 4 and n in (8, 12) and rounds >= 2 and hi == 1:
        # any four of them include two who shared a round-1 table
        return 0, 2, "pigeonhole"
    if (n, rounds, size) == (20, 6, 4):
        return 0, 2, "5-4-6 has no solution (Harvey's tables)"
    return lo, hi, "counting bound"


def useful_rounds(n: int, size: int) -> int:
    """Rounds until every two players could have met once."""
    return -(-(n - 1) // (size - 1))


def run(n: int, rounds: int, size: int, seeds: list[int]) -> tuple[list[tuple[int, int]], float]:
    spreads, slowest = [], 0.0
    for seed in seeds:
        start = time.perf_counter()
        s = schedule(n, rounds, size, seed=seed)
        slowest = max(slowest, time.perf_counter() - start)
        spreads.append((s.min_meetings, s.max_meetings))
    return spreads, slowest


def at_best(spread: tuple[int, int], best: tuple[int, int]) -> bool:
    """As good as the best known: the most no higher and, at that, the fewest no lower."""
    return spread[1] < best[1] or (spread[1] == best[1] and spread[0] >= best[0])


def checked(seeds: list[int]) -> None:
    print(f"{'players':>7} {'rounds':>6} {'table':>5}  {'best known':<10} "
          f"{'umaoka per seed':<22} {'slowest s':>9}  method")
    for n, rounds, size in CHECKED:
        lo, hi, _ = best_known(n, rounds, size)
        spreads, slowest = run(n, rounds, size, seeds)
        got = " ".join(f"{a}-{b}" for a, b in spreads)
        mark = "" if all(at_best(s, (lo, hi)) for s in spreads) else "  short"
        method = schedule(n, rounds, size, seed=seeds[0]).method
        print(f"{n:>7} {rounds:>6} {size:>5}  {f'{lo}-{hi}':<10} {got:<22} {slowest:>9.2f}"
              f"  {method}{mark}")


def sweep(size: int, players: range, seeds: list[int]) -> None:
    for n in players:
        if n < 2 * size:
            continue
        good, short, slowest = [], [], 0.0
        for rounds in range(1, useful_rounds(n, size) + 1):
            lo, hi, _ = best_known(n, rounds, size)
            spreads, took = run(n, rounds, size, seeds)
            slowest = max(slowest, took)
            if all(at_best(s, (lo, hi)) for s in spreads):
                good.append(rounds)
            else:
                worst = max(spreads, key=lambda s: (s[1], -s[0]))
                short.append(f"{rounds}: {worst[0]}-{worst[1]} (best {lo}-{hi})")
        print(f"{n:>3} players, tables of {size}: best known at rounds {_ranges(good)}"
              + (f"; short at {', '.join(short)}" if short else "")
              + f"; slowest {slowest:.1f} s", flush=True)


def _ranges(values: list[int]) -> str:
    out: list[str] = []
    for v in values:
        if out and out[-1].split("-")[-1] == str(v - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{v}"
        else:
            out.append(str(v))
    return ", ".join(out) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--sweep", type=int, choices=[3, 4])
    parser.add_argument("--players", default="8-64", help="a range such as 8-64")
    parser.add_argument("--step", type=int, default=1, help="every STEP-th player count")
    args = parser.parse_args()
    if args.sweep:
        first, last = (int(x) for x in args.players.split("-"))
        sweep(args.sweep, range(first, last + 1, args.step), args.seeds)
    else:
        checked(args.seeds)


if __name__ == "__main__":
    main()
