"""Times `umaoka demo --games 10000` and `umaoka settle` on its output, with peak memory.

Each command runs in its own process (so peak RSS is that command's own), e.g.::

    python benchmarks/bench_workbooks.py [--games 1000,10000,50000] [--runs 3]

Goal: under 5 s and 300 MB each at 50,000 games. "x base": seconds inside the command
against the baseline measured in the same run (openpyxl's write-only mode saving one
plain row per game, see BASELINE); the last column is the memory each further game costs
(KB, against the previous size measured in the same run).
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
from umaoka.addin.cli.app import main
t = time.perf_counter()
code = main(sys.argv[1:])
use = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"BENCH {time.perf_counter() - t:.3f} {use.ru_utime + use.ru_stime:.3f} "
                 f"{use.ru_maxrss}\\n")
sys.exit(code)
"""


#: The baseline: openpyxl's write-only mode saving the games as plain rows (25 numbers and
#: names a game, about a league tab's width), the least any openpyxl-based writer does.
BASELINE = """
import resource, sys, tempfile, time
from pathlib import Path
from openpyxl import Workbook
t = time.perf_counter()
wb = Workbook(write_only=True)
ws = wb.create_sheet("Games")
names = ["Aki", "Ben", "Chie", "Dan"]
for i in range(int(sys.argv[1])):
    ws.append([i, 1, 1, 1, *names, 35700, 32400, 22200, 9700, None, None, None, None, None,
               "OK", 46, 12, -18, -40, 1, 2, 3, 4])
with tempfile.TemporaryDirectory() as tmp:
    wb.save(Path(tmp) / "plain.xlsx")
use = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write(f"BENCH {time.perf_counter() - t:.3f} {use.ru_utime + use.ru_stime:.3f} "
                 f"{use.ru_maxrss}\\n")
"""


def run(args: list[str], child: str = CHILD) -> tuple[float, float, float, float]:
    """(wall seconds incl. start-up, seconds inside main, CPU seconds, peak RSS in MB) of one
    command; CPU seconds tell a busy machine (wall far above CPU) from a slow program."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", child, *args], capture_output=True,
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
    parser.add_argument("--runs", type=int, default=1,
                        help="runs of each command, taken in turn; the least time is shown "
                        "(the machine's noise), with the most memory")
    args = parser.parse_args()
    sizes = [int(x) for x in args.games.split(",")]
    print(f"{'games':>6} {'command':8} {'wall s':>6} {'main s':>6} {'x base':>6} "
          f"{'peak MB':>7} {'file MB':>7} {'KB/game':>7}  goal < 5 s, < 300 MB")
    ok = True
    last: dict[str, tuple[int, float]] = {}
    for games in sizes:
        runs: dict[str, list[tuple[float, float, float, float]]] = {}
        for _ in range(max(1, args.runs)):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                filled = folder / "demo_league.xlsx"
                out = folder / "settled_again.xlsx"
                runs.setdefault("base", []).append(run([str(games)], BASELINE))
                runs.setdefault("demo", []).append(
                    run(["demo", str(folder), "--games", str(games)]))
                runs.setdefault("settle", []).append(
                    run(["settle", str(filled), "-o", str(out)]))
                size = filled.stat().st_size / 2**20
        best = {k: (*min(v, key=lambda x: x[1])[:3], max(x[3] for x in v))
                for k, v in runs.items()}
        base = best["base"]
        rows = [(name, *best[name]) for name in ("demo", "settle")]
        print(f"{games:6} {'baseline':8} {base[0]:6.1f} {base[1]:6.1f} {1:6.1f} {base[3]:7.0f}")
        for name, wall, inner, _cpu, mb in rows:
            good = wall < 5 and mb < 300
            ok &= good
            prev = last.get(name)
            per = f"{(mb - prev[1]) * 1024 / (games - prev[0]):7.1f}" if prev else f"{'':7}"
            last[name] = (games, mb)
            print(f"{games:6} {name:8} {wall:6.1f} {inner:6.1f} {inner / base[1]:6.1f} "
                  f"{mb:7.0f} {size:7.1f} {per}  {'ok' if good else 'SLOW'}")
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
