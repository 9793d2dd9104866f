"""What a season adds to a league tab's standings besides the game results.

In a workbook with a Season sheet, a player's total on a league tab's standings (and so
on the overall Standings) is the same as the Season standings' stage points before
carry-over: the final scores of the games, plus **chips** times the stage's
``chip_value`` (games with a place only), plus the **Penalties** sheet's rows for that
player in that stage (a blank stage counts when the season has one stage; a team's
penalty counts for the team only). A seat played by a substitute counts here for the
player named in the seat, as the tab shows it; the Season standings apply the season's
substitute rule.

The template writes this as SUMIFS terms (:func:`total_terms`); its saved values and the
settled copy add the same amounts (:func:`extras`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from umaoka.engine import PlayerStanding
from umaoka.engine.season.gamelog import MAX_CHIPS
from umaoka.engine.season.penalties import MAX_POINTS
from umaoka.engine.typed_numbers import NumberError, read_number
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import PENALTIES_FIRST, SPARE_PENALTIES, stage_helper
from umaoka.templates.book.model import Book, League
from umaoka.templates.xlsx.styles import exact, exact_text, quote

_TWO = Decimal("0.01")


def _number(value: Any, most: int = MAX_POINTS) -> Decimal | None:
    """A number cell as SUMIFS adds it (text, blanks and TRUE/FALSE are left out); beyond
    ``most`` (a penalty of -1E+30, chips of 1E+300) not counted: the engine reports the
    row and leaves it out too."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    try:  # bounded by its exponent before any arithmetic: 1E+9999999 would overflow abs()
        d = read_number(value, below=most + 1)
    except NumberError:
        return None
    return d if d.copy_abs() <= most else None


def chip_value(book: Book, league: League) -> Decimal:
    """A league tab's stage's chip_value on the Season sheet (its stage row's, else the
    settings table's) as ``IFERROR(--cell, 0)`` reads it."""
    from umaoka.templates.book.season_book import stage_setting

    if book.season is None:
        return Decimal(0)
    v = stage_setting(book.season, league.name, "chip_value")
    if isinstance(v, str):
        if not v.strip():
            return Decimal(0)
        try:
            d = read_number(v, below=MAX_POINTS + 1, commas=False)
        except NumberError:
            return Decimal(0)
        return d if d.copy_abs() <= MAX_POINTS else Decimal(0)
    return _number(v) or Decimal(0)


def _single_stage(book: Book) -> bool:
    return book.season is not None and sum(
        1 for s in book.season.stages if s.name is not None and str(s.name).strip()) <= 1


def log_points(book: Book, league: League) -> dict[str, Decimal]:
    """Penalties sheet points per player (lower-case name) for this league tab's stage."""
    out: dict[str, Decimal] = {}
    if book.season is None:
        return out
    single = _single_stage(book)
    for row in book.penalties:
        player, stage, pts = row.get("player"), row.get("stage"), _number(row.get("points"))
        if pts is None or player is None or not str(player).strip():
            continue
        stage_text = "" if stage is None else str(stage).strip()
        if stage_text.lower() == league.name.lower() or (single and not stage_text):
            key = str(player).strip().lower()
            out[key] = out.get(key, Decimal(0)) + pts
    return out


def extras(book: Book, league: League,
           seats: Iterable[tuple[Sequence[Any], Sequence[Any]]]) -> dict[str, Decimal]:
    """Chips and logged penalties per player (lower-case name). ``seats``: the players
    and chips of every game row that has places (that counts in the standings)."""
    out = log_points(book, league)
    value = chip_value(book, league)
    if value and league.chips:
        counts: dict[Any, Decimal | None] = {}  # chip cells and names repeat: each read once
        keys: dict[Any, str] = {}
        for players, chips in seats:
            for p, c in zip(players, chips):
                got = counts.get(c, _UNSEEN) if type(c) is int else _UNSEEN
                if got is _UNSEEN:
                    got = _number(c, MAX_CHIPS)
                    if type(c) is int:
                        counts[c] = got
                if got is not None and p is not None:
                    key = keys.get(p) if type(p) is str else None
                    if key is None:
                        key = str(p).strip().lower()
                        if type(p) is str:
                            keys[p] = key
                    if key:
                        out[key] = out.get(key, Decimal(0)) + got * value
    return out


_UNSEEN: Any = object()


def with_extras(rows: list[PlayerStanding], more: dict[str, Decimal]) -> list[PlayerStanding]:
    """Standings with each player's extras added to the total (and average), re-sorted as
    the engine sorts standings."""
    if not any(more.values()):
        return rows
    out = []
    for p in rows:
        add = more.get(p.name.lower(), Decimal(0))
        if add:
            total = p.total + add
            p = replace(p, total=total,
                        average=(total / Decimal(p.games)).quantize(_TWO, ROUND_HALF_UP))
        out.append(p)
    out.sort(key=lambda p: (-p.total, p.average_place, p.name))
    return out


def total_terms(book: Book, league: League, lang: str, x: str, players: Sequence[str],
                places: Sequence[str], chips: Sequence[str]) -> str:
    """The formula terms added to a player's total (``+...``), or "" without a season.

    ``x`` is the cell with the player's name; ``players``, ``places`` and ``chips`` the
    league tab's ranges per seat.
    """
    if book.season is None:
        return ""
    log_rows = len(book.penalties) + SPARE_PENALTIES
    terms = ""
    if league.chips and chips:
        cell = stage_helper(book, league, "chip_value")  # its stage's chip value
        counted = "+".join(f'SUMIFS({c},{p},{exact(x)},{pl},">0")'
                           for c, p, pl in zip(chips, players, places))
        terms += f"+{cell}*({counted})"
    pen = quote(label("sheet_penalties", lang))
    last = PENALTIES_FIRST + log_rows - 1

    def rng(col: str) -> str:
        return f"{pen}!${col}${PENALTIES_FIRST}:${col}${last}"

    terms += f'+SUMIFS({rng("E")},{rng("C")},{exact(x)},{rng("B")},"="&"{exact_text(league.name)}")'
    if _single_stage(book):
        terms += f'+SUMIFS({rng("E")},{rng("C")},{exact(x)},{rng("B")},"=")'
    return terms
