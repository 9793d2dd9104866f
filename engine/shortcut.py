"""Seed 000's shortcut: final = round(raw / 1000) + offset[place].

>>> sc = shortcut("standard", [35700, 32400, 22200, 9700])
>>> [row[-1] for row in sc.table()[1:]]
[Decimal('10'), Decimal('-20'), Decimal('-40'), Decimal('-50')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .rules import Ruleset
from .rules import ruleset as resolve
from .settle import _floating_uma, _round, settle, tenths_to_decimal


@dataclass(frozen=True)
class Shortcut:
    """The "uma compare" table: one row per place, and the offsets per floating count.

    ``rows`` hold (place, raw, rounded, A, B, B - A) from 1st to last. ``offsets`` maps
    ``None`` (no floating uma) or a floating count (1 to 3) to the offset of each place.
    """

    ruleset: Ruleset
    rows: tuple[tuple[Any, ...], ...]
    offsets: dict[int | None, tuple[Decimal, ...]]

    HEADER = ("Place", "Raw", "Rounded", "Rounded/1000 (A)", "End score (B)", "B - A")

    def table(self) -> list[list[Any]]:
        """A header row, a row per place, then one offset row per floating count."""
        out: list[list[Any]] = [list(self.HEADER)] + [list(r) for r in self.rows]
        if self.ruleset.floating != "off":
            for count, offs in self.offsets.items():
                out.append([f"{count} floating"] + list(offs) + [""] * (5 - len(offs)))
        return out


def offsets(r: Ruleset, floating: int | None = None) -> tuple[Decimal, ...]:
    """offset[place] = uma[place] - T/1000 (+ oka/1000 for 1st), in final points."""
    uma = r._uma if floating is None else _floating_uma(r, floating)  # type: ignore[attr-defined]
    t, oka = r._t, r._oka  # type: ignore[attr-defined]
    whole = r.rounding != "none"
    return tuple(tenths_to_decimal(u - t + (oka if k == 0 else 0), whole)
                 for k, u in enumerate(uma))


def shortcut(ruleset: Any = "standard", scores: Sequence[Any] | None = None) -> Shortcut:
    """The shortcut table for a ruleset, on given raw scores (default: everybody at start).

    B is the full procedure's end score (places by seat order on equal scores). When the
    rounding errors do not cancel, 1st place (the adjust player) differs from A + offset
    by the adjustment: as seed 004 says, the winner takes the rest of the zero sum.
    """
    r = resolve(ruleset)
    seat_rule = r if r.ties == "seat" else r.with_changes(ties="seat")
    raw = [r.start] * r.players if scores is None else list(scores)
    result = settle(raw, seat_rule)
    whole = r.rounding != "none"
    rows = []
    for k, s in enumerate(result.order):
        tenths = result.points[s] // 100
        rounded = _round(tenths, r.rounding) if whole else tenths
        a = tenths_to_decimal(rounded, whole)
        b = result.final[s]
        rows.append((k + 1, result.scores[s], rounded * 100, a, b, b - a))
    table = {None: offsets(r)}
    if r.floating != "off":
        table = {c: offsets(r, c) for c in (1, 2, 3)}
    return Shortcut(r, tuple(rows), table)
