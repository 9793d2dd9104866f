"""Times `umaoka demo --games 10000` and `umaoka settle` on its output, with peak memory.

Each command runs in its own process (so peak RSS is that command's own), e.g.::

    python benchmarks/bench_workbooks.py [--games 1000,10000,50000]

Goal: under 5 s and 300 MB each at 50,000 games; the last column is the memory each
further game costs (KB, against the previous size measured in the same run).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = """
import resource, sys, time
from umaoka.addin.cli import main
t = time.perf_counter()
code = main(sys.argv[1:])
use = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"BENCH {time.perf_counter() - t:.3f} {use.ru_utime + use.ru_stime:.3f} "
                 f"{use.ru_maxrss}\\n")
sys.exit(code)
"""


def run(args: list[str]) -> tuple[float, float, float, float]:
    """(wall seconds incl. start-up, seconds inside main, CPU seconds, peak RSS in MB) of one
    command; CPU seconds tell a busy machine (wall far above CPU) from a slow program."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                            text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"umaoka {' '.join(args)} failed: {result.stderr.strip()}")
    line = next(x for x in result.stderr.splitlines() if x.startswith("BENCH "))
    inner, cpu, rss_kb = line.split()[1:]
    return wall, float(inner), float(cpu), int(rss_kb) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="1000,10000,50000",
                        help="comma-separated numbers of games")
    args = parser.parse_args()
    sizes = [int(x) for x in args.games.split(",")]
    print(f"{'games':>6} {'command':7} {'wall s':>6} {'main s':>6} {'CPU s':>6} {'peak MB':>7}"
          f" {'file MB':>7} {'KB/game':>7}  goal < 5 s, < 300 MB")
    ok = True
    last: dict[str, tuple[int, float]] = {}
    for games in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            filled = folder / "demo_league.xlsx"
            out = folder / "settled_again.xlsx"
            rows = [("demo", *run(["demo", str(folder), "--games", str(games)]))]
            rows.append(("settle", *run(["settle", str(filled), "-o", str(out)])))
            size = filled.stat().st_size / 2**20
        for name, wall, inner, cpu, mb in rows:
            good = wall < 5 and mb < 300
            ok &= good
            prev = last.get(name)
            per = f"{(mb - prev[1]) * 1024 / (games - prev[0]):7.1f}" if prev else f"{'':7}"
            last[name] = (games, mb)
            print(f"{games:6} {name:7} {wall:6.1f} {inner:6.1f} {cpu:6.1f} {mb:7.0f} {size:7.1f}"
                  f" {per}  {'ok' if good else 'SLOW'}")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
