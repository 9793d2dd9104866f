"""Substitutes: a seat played by someone standing in for a registered player.

The game row names the registered (absent) player in the seat and marks the seat as
played by a substitute (the substitute's name, or any mark such as ``x``). What the
seat's result counts for is a season setting:

- ``team``: the result counts for the absent player's team, not for any player.
- ``player``: the result counts for the absent player, as if they had played.
- ``fixed``: the absent player (and so their team) gets a fixed result instead,
  ``absent_result`` final points (default -30) and last place; what the substitute
  scored, including chips and row penalties, counts for nobody.

The default -30 is MahjongPantheon's rule for replacement players (taken from the EMA):
a replacement's result is taken as -15,000 points plus last place's -15 uma, whatever
they really scored, i.e. -30,000 in the points Pantheon shows, which is -30 in final
points (thousands). A fixed *final* score is used, not a raw score, because a raw score
alone is no result: it needs the other seats to be ranked and settled.

>>> parse_substitutes("counts for the team")
'team'
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError
from umaoka.engine.rules import _unknown_value

#: The treatments, one plain-words line each.
SUBSTITUTES: dict[str, str] = {
    "team": "the substitute's result counts for the absent player's team, not for any player",
    "player": "the substitute's result counts for the absent player",
    "fixed": "the absent player gets a fixed result (absent_result, last place) instead",
}

#: Pantheon/EMA: -15 for the score and last place's -15 uma, in final points.
DEFAULT_ABSENT_RESULT = Decimal(-30)

_ALIASES = {
    "counts_for_the_team": "team", "team_only": "team", "for_team": "team",
    "counts_for_the_player": "player", "absent_player": "player", "for_player": "player",
    "counts_for_the_absent_player": "player", "fixed_result": "fixed", "penalty": "fixed",
}


def parse_substitutes(value: Any) -> str:
    """A substitute treatment: ``team``, ``player`` or ``fixed``."""
    text = str(value or "").strip().lower().replace("-", "_").replace(" ", "_")
    text = _ALIASES.get(text, text)
    if text not in SUBSTITUTES:
        raise UmaokaError(_unknown_value("substitutes", value, SUBSTITUTES))
    return text


def credit(treatment: str, name: str, points: Decimal, penalty: Decimal, chips: int,
           place: int, players: int, absent_result: Decimal
           ) -> tuple[str | None, Decimal, Decimal, int, int]:
    """Whom a substitute's seat counts for and what it counts: (player or None, points,
    penalty, chips, place); the team is always the absent player's team."""
    if treatment == "team":
        return None, points, penalty, chips, place
    if treatment == "player":
        return name, points, penalty, chips, place
    return name, absent_result, Decimal(0), 0, players
