"""Times `umaoka demo --games 10000` and `umaoka settle` on its output, with peak memory.

Each command runs in its own process (so peak RSS is that command's own), e.g.::

    python benchmarks/bench_workbooks.py [--games 10000]

Goal: under 10 s and 500 MB each.
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
sys.stderr.write(f"BENCH {time.perf_counter() - t:.3f} "
                 f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n")
sys.exit(code)
"""


def run(args: list[str]) -> tuple[float, float, float]:
    """(wall seconds incl. start-up, seconds inside main, peak RSS in MB) of one command."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                            text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"umaoka {' '.join(args)} failed: {result.stderr.strip()}")
    line = next(x for x in result.stderr.splitlines() if x.startswith("BENCH "))
    inner, rss_kb = line.split()[1:]
    return wall, float(inner), int(rss_kb) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = [("demo", *run(["demo", str(folder), "--games", str(args.games)]))]
        filled = folder / "demo_league.xlsx"
        out = folder / "settled_again.xlsx"
        rows.append(("settle", *run(["settle", str(filled), "-o", str(out)])))
        size = filled.stat().st_size / 2**20
    print(f"{args.games} games (filled template {size:.1f} MB)")
    print(f"{'command':8} {'wall s':>8} {'in main s':>10} {'peak MB':>8}  goal: < 10 s, < 500 MB")
    ok = True
    for name, wall, inner, mb in rows:
        good = wall < 10 and mb < 500
        ok &= good
        print(f"{name:8} {wall:8.2f} {inner:10.2f} {mb:8.0f}  {'ok' if good else 'SLOW'}")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
