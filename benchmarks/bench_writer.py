"""Saving a big league workbook: umaoka's fast writer against openpyxl's ``wb.save``,
with and without lxml (each in its own process, ``OPENPYXL_LXML=True/False``).

    python benchmarks/bench_writer.py [--games 10000]

Prints seconds and the ratio openpyxl / fast writer for both XML back-ends.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

CHILD = """
import sys, tempfile, time, pathlib, openpyxl
from umaoka.templates.build import build_workbook
from umaoka.templates.demo import demo_book
from umaoka.templates.xlsx.writer import save_fast
book = demo_book(int(sys.argv[1]))
folder = pathlib.Path(tempfile.mkdtemp())
took = {}
for name, save in (("fast", save_fast), ("openpyxl", lambda wb, p: wb.save(p))):
    best = None
    for _ in range(2):
        wb = build_workbook(book)
        t = time.perf_counter()
        save(wb, folder / f"{name}.xlsx")
        run = time.perf_counter() - t
        best = run if best is None else min(best, run)
    took[name] = best
print(openpyxl.LXML, took["fast"], took["openpyxl"])
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000)
    args = parser.parse_args()
    print(f"saving the {args.games:,}-game league workbook (best of 2)")
    print(f"{'XML back-end':14} {'fast s':>8} {'openpyxl s':>11} {'ratio':>7}")
    for env in ("True", "False"):
        out = subprocess.run([sys.executable, "-c", CHILD, str(args.games)], text=True,
                             capture_output=True, env={**os.environ, "OPENPYXL_LXML": env})
        if out.returncode:
            sys.exit(out.stderr[-2000:])
        lxml, fast, plain = out.stdout.split()
        name = "lxml" if lxml == "True" else "ElementTree"
        print(f"{name:14} {float(fast):8.2f} {float(plain):11.2f} "
              f"{float(plain) / float(fast):6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
