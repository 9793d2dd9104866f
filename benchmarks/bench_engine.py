"""Settle 100,000 random games under several presets and print games per second.

Run by hand: ``python benchmarks/bench_engine.py [--games N]``. The baseline, timed in the
same run, is a minimal integer-only loop of each preset's rule; ``settle`` one game at a
time and the batch entry point ``settle_many`` are printed as ratios to it (goal for
``settle_many``: within 2x). A literal Fraction-based reading of docs/rules.md is timed
too, for comparison.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from fractions import Fraction
from functools import partial
from typing import Any

from umaoka.engine import Ruleset, ruleset, settle, settle_many
from umaoka.engine.settle import _BUMP, _floating_vectors

PRESETS = ["standard", "tenhou", "tenhou-classic", "mleague", "jpml-a", "tenhou-sanma"]


def random_games(n: int, players: int, start: int, rng: random.Random) -> list[list[int]]:
    """Valid games: multiples of 100 that add up to start x players, with some ties."""
    games = []
    total = start * players // 100
    for _ in range(n):
        cuts = sorted(rng.randint(-60, total + 60) for _ in range(players - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, total])]
        if rng.random() < 0.05:
            parts[1] = parts[0]
            parts[-1] = total - sum(parts[:-1])
        games.append([p * 100 for p in parts])
    return games


def naive(scores: list[int], start: int, target: int, uma: list[int]) -> list[Fraction]:
    """The procedure read literally with Fractions (half_down, adjust first, ties by seat)."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
    base = [Fraction(s - target, 1000) for s in scores]
    rounded = []
    for b in base:
        f = b.numerator // b.denominator
        rounded.append(f + 1 if b - f > Fraction(1, 2) else f)
    oka = Fraction((target - start) * len(scores), 1000)
    error = sum(rounded) + oka
    final = list(map(Fraction, rounded))
    final[order[0]] -= error
    for k, seat in enumerate(order):
        final[seat] += uma[k] + (oka if k == 0 else 0)
    return final


def int_loop(games: list[list[int]], r: Ruleset) -> list[list[int]]:
    """The same rule as a minimal integer-only loop (no checks, no ties, no deposits): finals
    in tenths. The baseline the engine is measured against."""
    t, oka, uma, bump = r._t, r._oka, r._uma, _BUMP.get(r.rounding)  # type: ignore[attr-defined]
    vectors = None if r.floating == "off" else _floating_vectors(r)
    seats = range(r.players)
    first = r.adjust == "first"
    out = []
    for g in games:
        order = sorted(seats, key=g.__getitem__, reverse=True)
        final = []
        for p in g:
            v = p // 100 - t
            if bump is not None:
                q, rest = divmod(v, 10)
                v = (q + bump[rest + 10 if v < 0 and len(bump) > 10 else rest]) * 10
            final.append(v)
        error = sum(final) + oka
        if vectors is not None:
            uma = vectors[sum([p >= r.target for p in g])]
        for k, s in enumerate(order):
            final[s] += uma[k]
        final[order[0]] += oka - (error if first else 0)
        if not first:
            final[order[-1]] -= error
        out.append(final)
    return out


def each(games: list[list[int]], rules: Ruleset) -> list[Any]:
    return [settle(g, rules).final for g in games]


def many_finals(games: list[list[int]], rules: Ruleset) -> list[Any]:
    return settle_many(games, rules).finals()


def timed(run: Any) -> float:
    """Least seconds of three runs."""
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(2026)
    n = args.games
    print(f"games/s over {n:,} games (least of 3 runs); ratio: integer loop's speed / this "
          "one's\n(goal for settle_many: within 2x)")
    print(f"{'ruleset':14s} {'int loop':>10s} {'settle':>10s} {'ratio':>6s} {'many':>10s} "
          f"{'ratio':>6s} {'many+Dec':>10s} {'ratio':>6s}")
    for name in PRESETS:
        rules = ruleset(name)
        games = random_games(n, rules.players, rules.start, rng)
        distinct = [g for g in games if len(set(g)) == len(g)]
        loop = timed(partial(int_loop, distinct, rules)) * n / len(distinct)
        one = timed(partial(each, games, rules))
        many = timed(partial(settle_many, games, rules))
        dec = timed(partial(many_finals, games, rules))
        print(f"{name:14s} {n / loop:10,.0f} {n / one:10,.0f} {one / loop:5.1f}x "
              f"{n / many:10,.0f} {many / loop:5.1f}x {n / dec:10,.0f} {dec / loop:5.1f}x")
    print("settle: settle(game).final one by one; many: settle_many (finals as integer tenths, "
          "each\nSettlement made when asked for); many+Dec: and .finals() as Decimals. The "
          "integer loop\nis timed on the games without ties (it has no tie rule), per game.")
    games = random_games(n, 4, 25000, rng)
    t0 = time.perf_counter()
    for g in games:
        naive(g, 25000, 30000, [20, 10, -10, -20])
    dt = time.perf_counter() - t0
    print(f"{'naive Fraction':14s} {n / dt:10,.0f} games/s  (a literal reading with Fractions)")


if __name__ == "__main__":
    main()
