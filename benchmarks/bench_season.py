"""Run a three-stage team season of random games and print games per second.

Run by hand: ``python benchmarks/bench_season.py [--games N]``. Games are given as rows
of named columns (the way ``umaoka season`` reads CSV files), with chips, so the figure
includes reading rows, settling, substitutes, carry-over and ranking.
"""

from __future__ import annotations

import argparse
import random
import time

from umaoka.engine.season.settings import season_settings
from umaoka.engine.season.stages import run_season

SEATS = ("east", "south", "west", "north")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    rng = random.Random(1)
    players = [f"P{i}" for i in range(40)]
    teams = {f"T{i}": players[i * 4:(i + 1) * 4] for i in range(10)}
    season = season_settings({
        "competition": "team", "ruleset": "mleague", "chip_value": 1, "teams": teams,
        "stages": [{"name": "Regular", "advance": 10}, {"name": "Semifinal", "carry": "half",
                                                        "advance": 10},
                   {"name": "Final", "carry": "half"}]})
    rows = []
    for i in range(args.games):
        cuts = sorted(rng.randint(-50, 1050) for _ in range(3))
        scores = [(b - a) * 100 for a, b in zip([0, *cuts], [*cuts, 1000])]
        row = {"stage": ("Regular", "Semifinal", "Final")[i * 3 // args.games]}
        for seat, name, score in zip(SEATS, rng.sample(players, 4), scores):
            row[seat], row[f"{seat}_score"] = name, score
        row["east_chips"], row["south_chips"] = "1", "-1"
        if rng.random() < 0.02:
            row["west_sub"] = "Zed"
        rows.append(row)
    start = time.perf_counter()
    result = run_season(season, rows)
    elapsed = time.perf_counter() - start
    assert not result.problems, result.problems[:3]
    print(f"{args.games:,} games, 3 stages, 10 teams: {elapsed:.2f} s, "
          f"{args.games / elapsed:,.0f} games/s")


if __name__ == "__main__":
    main()
