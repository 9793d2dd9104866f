"""How long hostile ruleset texts take to be answered, engine and Excel function.

Run by hand: ``python benchmarks/bench_rulesets.py``. Before bounded parsing, a
32,767-character text (a full Excel cell) took 5.7 s and a 1 MB text did not finish in
11 minutes; both should now be answered in well under a millisecond.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("XLWINGS_ON_SERVER", "true")  # the Office.js path, as in the tests
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

from umaoka.addin import udfs  # noqa: E402
from umaoka.engine import UmaokaError, ruleset  # noqa: E402
from umaoka.engine.rules import _from_text  # noqa: E402

TEXTS = {
    "32,767 x 'x'": "x" * 32_767,
    "32,767 of key=value": ("start=1 " * 5_000)[:32_767],
    "1 MB of one word": "a" * 1_000_000,
    "1,999 of key=value": ("ties=seat " * 200)[:1_999],
    "1,999 of one word": "w" * 1_999,
}


def timed(call) -> tuple[float, str]:
    best, message = float("inf"), ""
    for _ in range(5):
        _from_text.cache_clear()
        start = time.perf_counter()
        try:
            call()
        except (UmaokaError, udfs.UmaokaExcelError) as e:
            message = str(e)
        best = min(best, time.perf_counter() - start)
    return best, message


def main() -> None:
    print(f"{'text':<22}{'engine ms':>10}{'MJ_SETTLE ms':>14}{'message chars':>15}")
    for label, text in TEXTS.items():
        engine, message = timed(lambda t=text: ruleset(t))
        udf, _ = timed(lambda t=text: udfs.MJ_SETTLE([[35700, 32400, 22200, 9700]], t))
        print(f"{label:<22}{engine * 1000:>10.3f}{udf * 1000:>14.3f}{len(message):>15}")


if __name__ == "__main__":
    main()
