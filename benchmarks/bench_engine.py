"""Settle 100,000 random games under several presets and print games per second.

Run by hand: ``python benchmarks/bench_engine.py [--games N]``. The goal is at least
100,000 games/s on one core; a straightforward Fraction-based reading of docs/rules.md
is timed alongside for comparison.
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from umaoka.engine import ruleset, settle

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(2026)
    for name in PRESETS:
        rules = ruleset(name)
        games = random_games(args.games, rules.players, rules.start, rng)
        t0 = time.perf_counter()
        for g in games:
            _ = settle(g, rules).final
        dt = time.perf_counter() - t0
        print(f"{name:14s} {args.games / dt:12,.0f} games/s  (settle + .final, {dt:.2f} s)")
    rules = ruleset("standard")
    games = random_games(args.games, 4, 25000, rng)
    t0 = time.perf_counter()
    for g in games:
        naive(g, 25000, 30000, [20, 10, -10, -20])
    dt = time.perf_counter() - t0
    print(f"{'naive Fraction':14s} {args.games / dt:12,.0f} games/s  (reference, {dt:.2f} s)")


if __name__ == "__main__":
    main()
