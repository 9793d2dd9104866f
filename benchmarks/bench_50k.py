"""`umaoka demo --games 50000` and `umaoka settle` of its output, now and as a git ref had
them, in the same run (so a busy machine slows both alike), e.g.::

    python benchmarks/bench_50k.py --against HEAD~3 [--games 50000] [--runs 2]

Each command runs in its own process (peak RSS is its own), the variants taken in turn.
Printed per command: seconds inside ``main``, CPU seconds (a loaded machine inflates the
first, much less the second), peak memory, and "x base": CPU seconds against the baseline
measured in the same run (openpyxl's write-only mode saving one plain row of 25 cells per
game, see ``bench_workbooks.BASELINE``). "after/before" is this tree's CPU seconds
against the ref's. Goal: under 5 s and 300 MB each on an unloaded machine.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from bench_workbooks import BASELINE, CHILD, run

ROOT = Path(__file__).resolve().parent.parent
PARTS = ("engine", "addin", "templates")  # the import package's three parts


def checkout(ref: str, into: Path) -> Path:
    """The tree of ``ref`` under ``into``, laid out as the package ``umaoka`` (a folder
    to put first on PYTHONPATH, ahead of the editable install of this tree)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", ref, *PARTS],
                          capture_output=True, check=True).stdout
    src = into / "src"
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(src, filter="data")
    pkg = into / "path" / "umaoka"
    pkg.mkdir(parents=True)
    for part in PARTS:
        (pkg / part).symlink_to(src / part, target_is_directory=True)
    return into / "path"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--against", help="a git ref to time beside this tree")
    parser.add_argument("--this", help="a git ref to time as this tree (e.g. HEAD, so that "
                        "editing the tree meanwhile does not change what is timed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        variants: dict[str, dict[str, str]] = {}
        for name, ref in (("this tree", args.this), (args.against, args.against)):
            if name is None:
                continue
            env = {}
            if ref:
                path = checkout(ref, Path(tmp) / f"ref{len(variants)}")
                env["PYTHONPATH"] = os.pathsep.join(
                    filter(None, [str(path), os.environ.get("PYTHONPATH")]))
            variants[name] = env
        best: dict[tuple[str, str], tuple[float, float, float, float]] = {}
        for _ in range(max(1, args.runs)):
            for name, env in variants.items():
                os.environ.update(env)
                try:
                    folder = Path(tempfile.mkdtemp(dir=tmp))
                    got = {
                        "baseline": run([str(args.games)], BASELINE),
                        "demo": run(["demo", str(folder), "--games", str(args.games)], CHILD),
                        "settle": run(["settle", str(folder / "demo_league.xlsx"),
                                       "-o", str(folder / "again.xlsx")], CHILD),
                    }
                finally:
                    for key in env:
                        os.environ.pop(key, None)
                for command, result in got.items():
                    old = best.get((name, command))
                    if old is None or result[2] < old[2]:
                        best[(name, command)] = (*result[:3], max(result[3], old[3] if old
                                                                   else 0))
    print(f"{args.games:,} games, least CPU time of {args.runs} run(s); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'variant':12} {'command':8} {'main s':>7} {'CPU s':>7} {'x base':>6} "
          f"{'peak MB':>7} {'after/before':>12}")
    this = "this tree"
    for name in variants:
        base = best[(name, "baseline")][2]
        for command in ("baseline", "demo", "settle"):
            _wall, inner, cpu, mb = best[(name, command)]
            ratio = ""
            if name == this and args.against and command != "baseline":
                ratio = f"{cpu / best[(args.against, command)][2]:12.2f}"
            print(f"{name:12} {command:8} {inner:7.1f} {cpu:7.1f} {cpu / base:6.2f} "
                  f"{mb:7.0f} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
