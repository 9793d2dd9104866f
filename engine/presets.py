"""The named rulesets (docs/rules.md), each with a one-line description and its source.

>>> PRESETS["tenhou-classic"].ruleset.text()
'players=4 start=25000 target=30000 oka=on uma=20/10/-10/-20 floating=off \
rounding=half_away_from_zero round_on=raw adjust=first ties=seat leftover=first \
scoring=points shared_place=better'
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from umaoka.engine.rules import Ruleset


def _u(*values: int) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


@dataclass(frozen=True)
class Preset:
    """A named ruleset with what it is and where it comes from."""

    name: str
    ruleset: Ruleset
    description: str
    source: str


def _p(name: str, description: str, source: str, **fields: object) -> Preset:
    return Preset(name, Ruleset(name=name, **fields), description, source)  # type: ignore[arg-type]


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        _p("standard", "25,000 start, 30,000 target, oka, uma 20/10/-10/-20, 五捨六入 to whole "
           "points, winner absorbs rounding.",
           "Common Japanese rules (五捨六入, winner absorbs rounding)"),
        _p("tenhou", "Tenhou ranked lobby today: 25,000/30,000 with oka, uma 20/10/-10/-20, "
           "exact to 0.1.", "Tenhou ranked lobby, current", rounding="none"),
        _p("tenhou-classic", "Tenhou ranked lobby of the integer era: as tenhou but each raw "
           "score rounded to the thousand, .5 away from zero, before 30 is taken off "
           "(-3,500 -> -4 - 30 = -34).", "Tenhou ranked lobby, integer era (whole-point "
           "results)", rounding="half_away_from_zero", round_on="raw"),
        _p("tenhou-sanma", "Tenhou three-player: 35,000/40,000 with oka, uma 20/0/-20, exact "
           "to 0.1.", "Tenhou 3-player", players=3, start=35000, target=40000,
           uma=_u(20, 0, -20), rounding="none"),
        _p("mahjongsoul", "Mahjong Soul ranked game score: 25,000 start, no oka, uma "
           "15/5/-5/-15, exact to 0.1.", "Mahjong Soul ranked game score", target=25000,
           oka=False, uma=_u(15, 5, -5, -15), rounding="none"),
        _p("mahjongsoul-sanma", "Mahjong Soul three-player: 35,000 start, no oka, uma "
           "15/0/-15, exact to 0.1.", "Mahjong Soul 3-player", players=3, start=35000,
           target=35000, oka=False, uma=_u(15, 0, -15), rounding="none"),
        _p("mleague", "M.League: 25,000/30,000 with oka, uma 30/10/-10/-30, exact to 0.1, "
           "tied players split oka and uma.", "M.League", uma=_u(30, 10, -10, -30),
           rounding="none", ties="split"),
        _p("ema", "EMA Riichi Competition Rules: 30,000 start, no oka, uma 15/5/-5/-15, ties "
           "split.", "EMA Riichi Competition Rules", start=30000, target=30000, oka=False,
           uma=_u(15, 5, -5, -15), rounding="none", ties="split"),
        _p("wrc", "World Riichi Championship: as EMA, leftover riichi sticks are lost.",
           "World Riichi Championship rules", start=30000, target=30000, oka=False,
           uma=_u(15, 5, -5, -15), rounding="none", ties="split", leftover="lost"),
        _p("jpml-a", "JPML: 30,000 start, no oka, floating uma by how many finish at 30,000 or "
           "more, ties split, leftover sticks lost.", "JPML", start=30000, target=30000,
           oka=False, uma=_u(8, 4, -4, -8), floating="table",
           floating_table=(_u(12, -1, -3, -8), _u(8, 4, -4, -8), _u(8, 3, 1, -12)),
           rounding="none", ties="split", leftover="lost"),
    )
}
