"""The penalty log: penalties given outside the game rows (chombo, lateness, conduct...).

Each entry has a date, a stage, a player *or* a team, points in final points (usually
negative) and a reason. A player's penalty counts in the player's standing and in
their team's; a team's penalty only in the team's. Penalties written in a game row
(a seat's penalty column) are part of that game's result and keep working as before.

>>> p = penalty({"date": "2026-04-04", "player": "Aki", "points": "-20", "reason": "chombo"})
>>> p.points, p.reason
(Decimal('-20'), 'chombo')
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt
from umaoka.engine.typed_numbers import NumberError, read_number

#: Reasons a league usually writes; any other text is accepted as it is.
PENALTY_REASONS = ("chombo", "lateness", "absence", "conduct", "other")

#: The most final points a penalty, a chip's value or an absent player's result may be
#: (a game's final points are a few hundred at most): beyond it is a typing slip.
MAX_POINTS = 100_000

@dataclass(frozen=True)
class Penalty:
    """One entry of the penalty log; ``label`` names where it came from in messages."""

    points: Decimal
    player: str | None = None
    team: str | None = None
    stage: str | None = None
    date: dt.date | str | None = None
    reason: str = ""
    label: str = "penalty"

    @property
    def name(self) -> str:
        """The player or team penalised."""
        return self.player or self.team or ""


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = as_text(value).strip()
    return text or None


def _date(value: Any, label: str) -> dt.date | str | None:
    if value is None or isinstance(value, dt.date):
        return value.date() if isinstance(value, dt.datetime) else value
    text = as_text(value).strip()
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise UmaokaError(f'{label}: the date "{excerpt(text)}" is not a date; write it as '
                          "2026-04-04 or leave it blank.") from None


def penalty_points(value: Any, label: str) -> Decimal:
    """Points in final points with at most one decimal place, e.g. -20 or -2.5."""
    if value is None or isinstance(value, bool) or (isinstance(value, str) and not value.strip()):
        raise UmaokaError(f"{label} has no points; give the penalty in final points, e.g. -20.")
    try:  # bounded by its exponent before any arithmetic: 1E+300 or 1e-9999999 cost nothing
        d = read_number(value, label, "give the penalty in final points, e.g. -20",
                        MAX_POINTS + 1)
    except NumberError as e:
        if e.kind == "text":
            raise UmaokaError(f'{label}: "{excerpt(value)}" is not a number; give the penalty '
                              "in final points, e.g. -20.") from None
        d = None if e.kind != "large" else Decimal(MAX_POINTS + 1)
    if d is not None and d.copy_abs() > MAX_POINTS:
        raise UmaokaError(f"{label}: {excerpt(value)} is beyond {MAX_POINTS:,} final points; "
                          "write a number of final points such as -20.")
    if d is None or d != d.quantize(Decimal("0.1")):  # exact: d is bounded
        raise UmaokaError(f"{label}: {excerpt(value)} is not a number of final points with at "
                          "most one decimal place; write e.g. -20 or -2.5.")
    return d


def penalty(row: Mapping[str, Any] | Penalty, label: str = "penalty") -> Penalty:
    """A penalty from a mapping with keys date, stage, player or team, points, reason.

    Key names are case-insensitive and other keys are ignored; exactly one of player and
    team must be filled in.
    """
    if isinstance(row, Penalty):
        return row
    values: dict[str, Any] = {}
    for key, value in row.items():
        k = str(key or "").strip().lower()
        if k and value is not None and as_text(value).strip():
            values[k] = value
    player, team = _text(values.get("player")), _text(values.get("team"))
    if bool(player) == bool(team):
        raise UmaokaError(f"{label} needs a player or a team (one of them, not both): who is "
                          "penalised?")
    return Penalty(
        points=penalty_points(values.get("points"), label),
        player=player,
        team=team,
        stage=_text(values.get("stage")),
        date=_date(values.get("date"), label),
        reason=_text(values.get("reason")) or "",
        label=label,
    )
