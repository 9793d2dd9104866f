"""The season's game log: one record per game, and whom each seat's result counts for.

A game record holds what a score sheet holds: the stage, the players in seat order
(East first), raw scores, leftover deposits, game-row penalties, chips (祝儀) and
substitute marks. :func:`game_record` reads one from a row of named columns, the
columns of ``umaoka batch``'s CSV files plus ``stage``, ``east_chips``... and
``east_sub``...:

>>> g = game_record({"stage": "Regular", "east": "Aki", "east_score": "45000",
...                  "south": "Ben", "south_score": "30000", "west": "Chie",
...                  "west_score": "15000", "north": "Dan", "north_score": "10000",
...                  "east_chips": "2", "north_sub": "Zed"})
>>> g.players, g.chips, g.substitutes
(('Aki', 'Ben', 'Chie', 'Dan'), (2, 0, 0, 0), (None, None, None, 'Zed'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from .errors import UmaokaError, excerpt
from .settle import Settlement
from .substitutes import credit

SEATS = ("east", "south", "west", "north")


#: The most chips a seat may win or pay in one game (the league tab's own check allows
#: the same): beyond it is a typing slip, refused before any arithmetic.
MAX_CHIPS = 1000


@dataclass(frozen=True, slots=True)  # many per league: no __dict__ each
class GameRecord:
    """One game of the season as entered; ``label`` names it in messages (file and row)."""

    players: tuple[str, ...]
    scores: tuple[Any, ...]
    stage: str | None = None
    deposits: Any = 0
    penalties: tuple[Any, ...] | None = None
    chips: tuple[int, ...] | None = None
    substitutes: tuple[str | None, ...] | None = None  # per seat: who stood in, or None
    date: Any = None
    label: str = "game"


@dataclass(frozen=True, slots=True)  # many per league: no __dict__ each
class SeatCredit:
    """What one seat's result counts for: a player (or nobody) and a team (or none)."""

    seat: int
    player: str | None
    team: str | None
    points: Decimal  # the final score without the row penalty
    penalty: Decimal  # the row penalty
    chips: int
    place: int
    substitute: str | None = None  # who actually sat, when a substitute did


def _cell(value: Any) -> Any:
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return value


def _chips(value: Any, label: str, seat: str) -> int:
    value = _cell(value)
    if value is None:
        return 0
    try:
        if isinstance(value, bool):
            raise InvalidOperation
        d = Decimal(repr(value)) if isinstance(value, float) else Decimal(
            str(value).replace("−", "-"))
    except (InvalidOperation, ValueError):  # ValueError: an int of over 4,300 digits
        d = Decimal("NaN")
    # bounded before any arithmetic: 9e999999 would take minutes to make whole
    if d.is_finite() and abs(d) > MAX_CHIPS:
        raise UmaokaError(f'{label}: {seat}\'s chips "{excerpt(value)}" are beyond '
                          f"{MAX_CHIPS:,}; give the chip count, e.g. 2 or -1.")
    if not d.is_finite() or d != d.to_integral_value():
        raise UmaokaError(f'{label}: {seat}\'s chips "{excerpt(value)}" are not a whole number; '
                          "give the chip count, e.g. 2 or -1.")
    return int(d)


def game_record(row: Mapping[str, Any], players: int = 4, label: str = "game") -> GameRecord:
    """A game record from named columns (case-insensitive; blank cells are empty).

    Columns: ``stage``, ``date``, ``east``/``east_score``/``east_penalty``/
    ``east_chips``/``east_sub`` and the same for south, west (and north with four
    players), ``deposits``. Other columns (session, table, game...) are ignored.
    """
    v = {str(k or "").strip().lower(): _cell(x) for k, x in row.items()}
    seats = SEATS[:players]
    names = [v.get(s) for s in seats]
    return GameRecord(
        players=tuple("" if n is None else str(n).strip() for n in names),
        scores=tuple(v.get(f"{s}_score") for s in seats),
        stage=None if v.get("stage") is None else str(v["stage"]).strip(),
        deposits=v.get("deposits") or 0,
        penalties=tuple(v.get(f"{s}_penalty") for s in seats),
        chips=tuple(_chips(v.get(f"{s}_chips"), label, s) for s in seats),
        substitutes=tuple(None if v.get(f"{s}_sub") is None else str(v[f"{s}_sub"])
                          for s in seats),
        date=v.get("date"),
        label=label,
    )


def check_players(game: GameRecord) -> None:
    """Every seat has a player, and no player sits twice."""
    if any(not p for p in game.players):
        raise UmaokaError(f"{game.label} has a blank player name; fill in every seat's player.")
    if len(set(game.players)) != len(game.players):
        raise UmaokaError(f"{game.label} lists the same player twice ({', '.join(game.players)}); "
                          "each seat needs a different player.")


def seat_credits(game: GameRecord, result: Settlement, team_of: Mapping[str, str],
                 substitutes: str = "team", absent_result: Decimal = Decimal(-30)
                 ) -> tuple[SeatCredit, ...]:
    """Whom each seat's result counts for, after the season's substitute treatment."""
    chips: Sequence[int] = game.chips or (0,) * len(game.players)
    subs: Sequence[str | None] = game.substitutes or (None,) * len(game.players)
    finals, penalties = result.final, result.penalty
    out = []
    for seat, name in enumerate(game.players):
        pen = penalties[seat]
        points = finals[seat] - pen if pen else finals[seat]  # the same Decimal, not a copy
        player: str | None = name
        chip, place = chips[seat], result.places[seat]
        if subs[seat]:
            player, points, pen, chip, place = credit(
                substitutes, name, points, pen, chip, place, len(game.players), absent_result)
        out.append(SeatCredit(seat, player, team_of.get(name), points, pen, chip, place,
                              subs[seat]))
    return tuple(out)
