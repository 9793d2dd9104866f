"""The shortcut: final = round(raw / 1000) + offset[place], and when it holds.

Before a session, work out once what each place adds to a player's rounded raw score
(the "uma compare" table); after each game, round the raw score to the thousand,
divide by 1000 and add the offset of the place.

>>> sc = shortcut("standard", [35700, 32400, 22200, 9700])
>>> [row[-1] for row in sc.table()[1:]]
[Decimal('10'), Decimal('-20'), Decimal('-40'), Decimal('-50')]

It holds when rounding (raw - target) / 1000 is the same as rounding raw / 1000 and
then subtracting target / 1000: always with ``rounding=none`` or ``round_on=raw``;
with ``round_on=difference`` only for a target in whole thousands and a rounding that
moves by whole points with its input (none, half_down, half_up, floor, ceil). For the
other rulesets :func:`shortcut` refuses with a sentence saying why:

>>> shortcut("rounding=half_away_from_zero")
Traceback (most recent call last):
...
umaoka.engine.errors.UmaokaError: the shortcut final = round(raw/1000) + offset does not \
hold for rounding=half_away_from_zero with round_on=difference: this rounding is symmetric \
around zero, so rounding (raw - 30,000)/1000 differs from rounding raw/1000 for scores \
between 0 and 30,000 (29,500 settles as -1 + uma, the shortcut gives 30 - 30 = 0); settle \
each game with MJ_SETTLE, or set round_on=raw if your league rounds the raw score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError
from umaoka.engine.resolve import ruleset as resolve
from umaoka.engine.rules import Ruleset
from umaoka.engine.settle import (
    TRANSLATION_INVARIANT,
    _floating_uma,
    _round,
    settle,
    tenths_to_decimal,
)

#: What tied players do with the offsets, as the note row of the table says it.
TIE_NOTES = {
    "split": "players with equal raw scores share the offsets of their places (oka "
             "included) instead of taking one each",
    "split_uma": "players with equal raw scores share the uma of their places; the oka in "
                 "1st's offset goes to the tied player with the earliest seat",
}


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
        """A header row, a row per place, one offset row per floating count, then a note
        row ``["Ties", ...]`` when tied players share places (ties=split or split_uma)."""
        out: list[list[Any]] = [list(self.HEADER)] + [list(r) for r in self.rows]
        if self.ruleset.floating != "off":
            for count, offs in self.offsets.items():
                out.append([f"{count} floating"] + list(offs) + [""] * (5 - len(offs)))
        if self.ruleset.ties in TIE_NOTES:
            out.append(["Ties", TIE_NOTES[self.ruleset.ties]] + [""] * 4)
        return out


def offsets(r: Ruleset, floating: int | None = None) -> tuple[Decimal, ...]:
    """offset[place] = uma[place] - T/1000 (+ oka/1000 for 1st), in final points."""
    uma = r._uma if floating is None else _floating_uma(r, floating)  # type: ignore[attr-defined]
    t, oka = r._t, r._oka  # type: ignore[attr-defined]
    whole = r.rounding != "none"
    return tuple(tenths_to_decimal(u - t + (oka if k == 0 else 0), whole)
                 for k, u in enumerate(uma))


def shortcut_problem(ruleset: Any) -> str | None:
    """Why the shortcut does not hold for a ruleset (one sentence), or None when it does.

    >>> shortcut_problem("tenhou-classic") is None
    True
    >>> shortcut_problem("start=25500 target=30500").split(":")[0]
    'the shortcut final = round(raw/1000) + offset does not hold for target 30,500 with \
round_on=difference'
    """
    r = resolve(ruleset)
    if r.scoring == "places":
        return ("the shortcut final = round(raw/1000) + offset does not hold with "
                "scoring=places: the final is the place bonus alone (uma, and the oka to 1st); "
                "settle each game with MJ_SETTLE.")
    if r.rounding == "none" or r.round_on == "raw":
        return None
    t = r.target if r.oka else r.start
    what = "target" if r.oka else "start (oka off)"
    head = "the shortcut final = round(raw/1000) + offset does not hold for"
    fix = ("settle each game with MJ_SETTLE, or set round_on=raw if your league rounds the "
           "raw score.")
    example = _counterexample(r, t)
    if t % 1000:
        return (f"{head} {what} {t:,} with round_on=difference: (raw - {t:,})/1000 is rounded "
                f"as a whole, which is not round(raw/1000) - {_thousands(t)}{example}; {fix}")
    if r.rounding not in TRANSLATION_INVARIANT:
        return (f"{head} rounding={r.rounding} with round_on=difference: this rounding is "
                f"symmetric around zero, so rounding (raw - {t:,})/1000 differs from rounding "
                f"raw/1000 for scores between 0 and {t:,}{example}; {fix}")
    return None


def _thousands(t: int) -> Decimal:
    return tenths_to_decimal(t // 100, True)


def _counterexample(r: Ruleset, t: int) -> str:
    """`` (29,500 settles as -1 + uma, the shortcut gives 30 - 30 = 0)``, or "" if none."""
    for raw in range(t - 100, -t - 1000, -100):
        settled = _round(raw // 100 - t // 100, r.rounding)
        rounded = _round(raw // 100, r.rounding)
        if settled != rounded - t // 100:
            return (f" ({raw:,} settles as {tenths_to_decimal(settled, True)} + uma, the "
                    f"shortcut gives {tenths_to_decimal(rounded, True)} - {_thousands(t)} = "
                    f"{tenths_to_decimal(rounded - t // 100, True)})")
    return ""


def shortcut(ruleset: Any = "standard", scores: Sequence[Any] | None = None) -> Shortcut:
    """The shortcut table for a ruleset, on given raw scores (default: everybody at start).

    B is the full procedure's end score (places by seat order on equal scores). When the
    rounding errors do not cancel, 1st place (the adjust player) differs from A + offset
    by the adjustment: the winner takes the rest of the zero sum. With floating uma
    there is one offset row per number of players at or above target; with shared ties
    a last row says how tied players use the offsets. Rulesets for which the shortcut
    does not hold (see :func:`shortcut_problem`) raise an error that says why.
    """
    r = resolve(ruleset)
    problem = shortcut_problem(r)
    if problem:
        raise UmaokaError(problem)
    seat_rule = r if r.ties == "seat" else r.with_changes(ties="seat")
    raw = [r.start] * r.players if scores is None else list(scores)
    result = settle(raw, seat_rule)
    whole = r.rounding != "none"
    rows = []
    for k, s in enumerate(result.order):
        tenths = result.points[s] // 100
        rounded = _round(tenths, r.rounding)
        a = tenths_to_decimal(rounded, whole)
        b = result.final[s]
        rows.append((k + 1, result.scores[s], rounded * 100, a, b, b - a))
    table = {None: offsets(r)}
    if r.floating != "off":
        table = {c: offsets(r, c) for c in (1, 2, 3)}
    return Shortcut(r, tuple(rows), table)
