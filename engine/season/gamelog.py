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

A game whose result is known only as finals (M.League's published results, an online
lobby's line: the finishing order and each player's final score, no raw points) gives
``east_final``... instead of scores, or, as ``umaoka import`` writes them, ``first``/
``first_final``, ``second``/``second_final``... in finishing order:

>>> g = game_record({"first": "Aki", "first_final": "+52.1", "second": "Ben",
...                  "second_final": "8.3", "third": "Chie", "third_final": "▲19.4",
...                  "fourth": "Dan", "fourth_final": "-41.0"})
>>> g.players, [str(f) for f in g.finals]
(('Aki', 'Ben', 'Chie', 'Dan'), ['52.1', '8.3', '-19.4', '-41.0'])
>>> platform_result(g).places
(1, 2, 3, 4)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from umaoka.engine.errors import UmaokaError, excerpt
from umaoka.engine.season.substitutes import credit
from umaoka.engine.settle import Settlement, _check_penalties, refuse_text, settle
from umaoka.engine.typed_numbers import NumberError, read_number

SEATS = ("east", "south", "west", "north")
#: The columns of a finals CSV (``umaoka import``): players in finishing order.
ORDER = ("first", "second", "third", "fourth")


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
    finals: tuple[Decimal | None, ...] | None = None  # platform finals per seat, or None


@dataclass(frozen=True, slots=True)
class PlatformResult:
    """A game settled elsewhere (a platform, a league's published table): its finals as
    given, places from them (equal finals in seat order), the row penalties added on.
    Stands in for a :class:`~umaoka.engine.settle.Settlement` in :func:`seat_credits`."""

    final: tuple[Decimal, ...]
    penalty: tuple[Decimal, ...]
    places: tuple[int, ...]


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
    try:  # bounded by its exponent before any arithmetic: 9e999999 or 1e-9999999 cost nothing
        d: Decimal | None = None if isinstance(value, bool) else read_number(
            value, f"{label}: {seat}'s chips", "give the chip count, e.g. 2 or -1", MAX_CHIPS + 1,
            commas=False)
    except NumberError as e:
        d = Decimal(MAX_CHIPS + 1) if e.kind == "large" else None
    if d is not None and d.copy_abs() > MAX_CHIPS:
        raise UmaokaError(f'{label}: {seat}\'s chips "{excerpt(value)}" are beyond '
                          f"{MAX_CHIPS:,}; give the chip count, e.g. 2 or -1.")
    if d is None or d != d.to_integral_value():  # exact: d is bounded
        raise UmaokaError(f'{label}: {seat}\'s chips "{excerpt(value)}" are not a whole number; '
                          "give the chip count, e.g. 2 or -1.")
    return int(d)


def game_record(row: Mapping[str, Any], players: int = 4, label: str = "game") -> GameRecord:
    """A game record from named columns (case-insensitive; blank cells are empty).

    Columns: ``stage``, ``date``, ``east``/``east_score``/``east_penalty``/
    ``east_chips``/``east_sub`` and the same for south, west (and north with four
    players), ``deposits``. Other columns (session, table, game...) are ignored. A row
    with ``_cells`` true was read from a sheet's cells, where a score stored as text is
    refused (:func:`~umaoka.engine.settle.refuse_text`); a CSV file's text is read.
    """
    v = {str(k or "").strip().lower(): _cell(x) for k, x in row.items()}
    seats = SEATS[:players]
    if not any(v.get(s) is not None for s in seats) and any(
            v.get(f"{o}_final") is not None for o in ORDER):
        seats = ORDER[:players]  # a finals CSV: finishing order stands for the seats
        if players == 3 and v.get("fourth") is not None:
            raise UmaokaError(f"{label} names a fourth player, but the season is for three "
                              "players; clear the fourth column.")
        if players == 4 and v.get("fourth") is None and v.get("fourth_final") is None:
            raise UmaokaError(f"{label} is a three-player game (no fourth player), but the "
                              "season is for four players; leave it out or run it in a "
                              "three-player season.")
    names = [v.get(s) for s in seats]
    finals = tuple(given_final(v.get(f"{s}_final"), label, s) for s in seats)
    scores = tuple(v.get(f"{s}_score") for s in seats)
    if v.get("_cells") and all(f is None for f in finals):
        refuse_text(scores)  # read from a sheet's cells: a score stored as text is refused
    return GameRecord(
        players=tuple("" if n is None else str(n).strip() for n in names),
        scores=scores,
        stage=None if v.get("stage") is None else str(v["stage"]).strip(),
        deposits=v.get("deposits") or 0,
        penalties=tuple(v.get(f"{s}_penalty") for s in seats),
        chips=tuple(_chips(v.get(f"{s}_chips"), label, s) for s in seats),
        substitutes=tuple(None if v.get(f"{s}_sub") is None else str(v[f"{s}_sub"])
                          for s in seats),
        date=v.get("date"),
        label=label,
        finals=finals if any(f is not None for f in finals) else None,
    )


def given_final(value: Any, label: str, seat: str) -> Decimal | None:
    """A platform's final score from a cell (``+52.1``, ``▲19.4``, a number), or None."""
    value = _cell(value)
    if value is None:
        return None
    d: Decimal | None = None
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        d = Decimal(value)
    elif isinstance(value, float):
        d = Decimal(repr(value))
    elif isinstance(value, str) and len(value) < 40:
        text = value.strip().replace("−", "-").replace("－", "-").replace("＋", "+")
        text = "-" + text[1:] if text.startswith("▲") else text  # Japanese minus
        try:
            d = Decimal(text) if re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", text) else None
        except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
            d = None
    if d is None or not d.is_finite() or abs(d) >= 10**6:
        raise UmaokaError(f'{label}: {seat}\'s final "{excerpt(value)}" is not a final score; '
                          "give it as the platform shows it, e.g. +52.1, -19.4 or ▲19.4.")
    return d + 0


def platform_result(game: GameRecord) -> PlatformResult:
    """The result of a game given by its finals (see :class:`PlatformResult`): every seat
    needs a final; leftover sticks cannot be given (the finals hold them already)."""
    finals = game.finals or ()
    if len(finals) != len(game.players) or any(f is None for f in finals):
        raise UmaokaError(f"{game.label} has a platform final for some seats but not others; "
                          "give every seat's final, or clear them all and give raw scores.")
    given: tuple[Decimal, ...] = tuple(f for f in finals if f is not None)
    deposits = _cell(game.deposits)
    if deposits is not None and _nonzero(deposits):
        raise UmaokaError(f"{game.label} gives finals and leftover sticks ({excerpt(deposits)}); "
                          "the finals already hold the sticks, so clear deposits.")
    pens = _check_penalties(game.penalties, len(given))
    penalty = tuple(Decimal(p) / 10 for p in pens)
    places = tuple(1 + sum(1 for g in given if g > f) + sum(1 for g in given[:s] if g == f)
                   for s, f in enumerate(given))
    final = tuple(f + p if p else f for f, p in zip(given, penalty))
    return PlatformResult(final, penalty, places)


def _nonzero(value: Any) -> bool:
    """Whether a deposits cell holds anything but zero (text that is no number counts)."""
    try:
        return isinstance(value, bool) or read_number(value) != 0
    except NumberError:  # 1e-9999999 is not 0, nor is 1e9999999
        return True


def result_of(game: GameRecord, rules: Any) -> Settlement | PlatformResult:
    """A game's result: its finals when it gives them (a platform's or a published
    result, see :func:`platform_result`), else its raw scores settled under ``rules``."""
    if game.finals is not None:
        return platform_result(game)
    return settle(game.scores, rules, game.deposits, game.penalties)


def check_players(game: GameRecord) -> None:
    """Every seat has a player, and no player sits twice."""
    if any(not p for p in game.players):
        raise UmaokaError(f"{game.label} has a blank player name; fill in every seat's player.")
    if len(set(game.players)) != len(game.players):
        raise UmaokaError(f"{game.label} lists the same player twice ({', '.join(game.players)}); "
                          "each seat needs a different player.")


def seat_credits(game: GameRecord, result: Settlement | PlatformResult, team_of: Mapping[str, str],
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
