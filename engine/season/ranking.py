"""Ranking a stage's standings: the ranking key, qualification and the tie-break order.

Lines are ranked by the ranking key (``total``, ``average`` or ``average_place``); lines
equal on it are ordered by the tie-breaks, in the order given. Each line says which
tie-break decided its place, and lines that no tie-break separates share a rank.
Players with fewer games than the minimum are not ranked: they are listed after the
ranked players, in the same order, with no rank.

>>> parse_tie_breaks("best, places, earlier")
('best', 'places', 'earlier')
>>> parse_tie_breaks("more 1sts")
('firsts',)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt
from umaoka.engine.rules import _closest, _unknown_value

#: What standings are ordered by, one plain-words line each.
RANKINGS: dict[str, str] = {
    "total": "highest total first (carried points, game points, chips and penalties)",
    "average": "highest average per game first (this stage's points, chips and penalties "
               "over its games)",
    "average_place": "lowest average place first",
}

#: The tie-breaks a season can list, in words a league manager would use.
TIE_BREAKS: dict[str, str] = {
    "total": "higher total",
    "average": "higher average per game",
    "average_place": "lower average place",
    "best": "better best single game",
    "places": "more 1st places, then more 2nds, then more 3rds",
    "firsts": "more 1st places",
    "fewer_lasts": "fewer last places",
    "previous": "better place in the previous stage",
    "earlier": "earlier on the roster (the season's team and player lists, then the order "
               "of first games)",
}

#: The tie-breaks in Japanese (the words of :data:`TIE_BREAKS`).
TIE_BREAKS_JA: dict[str, str] = {
    "total": "合計が多い",
    "average": "平均が高い",
    "average_place": "平均着順が良い",
    "best": "最高スコアが高い",
    "places": "1着の数、次に2着、3着の数が多い",
    "firsts": "1着の数が多い",
    "fewer_lasts": "ラスの数が少ない",
    "previous": "前ステージの順位が上",
    "earlier": "名簿で先",
}

#: Used when a season names no tie-breaks: best game, then 1sts, 2nds..., then roster order.
DEFAULT_TIE_BREAKS = ("best", "places", "earlier")

#: The flag of a line seeded into its stage (a stage's ``seeds``), and its Japanese.
SEEDED = "seeded"
SEEDED_JA = "シード"


def flag_words(p: StandingLine, lang: str | None, caps: Any = None) -> str:
    """A line's flags as a Flags cell shows them: the engine's words, or in Japanese (the
    game-cap flag from ``caps``, the stage's game caps)."""
    if lang != "ja" or not p.flags:
        return "; ".join(p.flags)
    words = [SEEDED_JA for f in p.flags if f == SEEDED]
    if caps is not None and any(f != SEEDED for f in p.flags):
        words.insert(0, caps.flag(p.games - p.substituted, "ja") or "")
    return "; ".join(w for w in words if w)

_ALIASES = {
    "best_game": "best", "best_single_game": "best", "top_game": "best",
    "more_1sts": "firsts", "1sts": "firsts", "more_firsts": "firsts", "tops": "firsts",
    "more_tops": "firsts", "place_counts": "places", "placings": "places",
    "lasts": "fewer_lasts", "fewer_4ths": "fewer_lasts", "avg_place": "average_place",
    "average_rank": "average_place", "avg": "average", "points": "total",
    "previous_stage": "previous", "earlier_stage": "previous", "roster": "earlier",
    "registration": "earlier", "none": "",
}

_TWO = Decimal("0.01")


@dataclass(frozen=True)
class StandingLine:
    """One player's (or team's) line in a stage: exact totals, rank and notes.

    ``points`` are the game results without their game-row penalties; ``penalties`` are
    those plus the penalty log; ``chips`` are chip counts times the chip value. The
    stage's own points are ``stage_total``; with the ``carried`` points, ``total``.
    """

    name: str
    team: str | None = None  # a player's team (None for team lines and leagues without teams)
    games: int = 0
    substituted: int = 0  # games counted for this player that a substitute played
    carried: Decimal = Decimal(0)
    points: Decimal = Decimal(0)
    chip_count: int = 0
    chips: Decimal = Decimal(0)
    penalties: Decimal = Decimal(0)
    places: tuple[int, ...] = (0, 0, 0, 0)  # 1st, 2nd, ... finishes
    best: Decimal | None = None  # best and worst single game (final score), None without games
    worst: Decimal | None = None
    rank: int | None = None  # None when not qualified
    qualified: bool = True
    advanced: bool = False
    tie_break: str | None = None  # the tie-break that decided this place, if one did
    flags: tuple[str, ...] = ()  # game-cap flags

    @property
    def stage_total(self) -> Decimal:
        """This stage's points: games, chips and penalties."""
        return self.points + self.chips + self.penalties

    @property
    def total(self) -> Decimal:
        """Carried points plus this stage's points."""
        return self.carried + self.stage_total

    @property
    def average(self) -> Decimal | None:
        """This stage's points per game, to 0.01 (None without games)."""
        if not self.games:
            return None
        return (self.stage_total / self.games).quantize(_TWO, ROUND_HALF_UP)

    @property
    def average_place(self) -> Decimal | None:
        """Average place, to 0.01 (None without games)."""
        if not self.games:
            return None
        return (Decimal(_place_sum(self)) / self.games).quantize(_TWO, ROUND_HALF_UP)


def _place_sum(line: StandingLine) -> int:
    return sum(place * count for place, count in enumerate(line.places, 1))


class Tally:
    """Adds up one player's or team's seats and penalties in a stage, then gives its line."""

    __slots__ = ("name", "team", "games", "substituted", "points", "chip_count", "chips",
                 "penalties", "places", "best", "worst")

    def __init__(self, name: str, team: str | None = None, players: int = 4) -> None:
        self.name, self.team = name, team
        self.games = self.substituted = self.chip_count = 0
        self.points = self.chips = self.penalties = Decimal(0)
        self.places = [0] * players
        self.best: Decimal | None = None
        self.worst: Decimal | None = None

    def add_seat(self, points: Decimal, penalty: Decimal, chips: int, chip_value: Decimal,
                 place: int, substituted: bool = False) -> None:
        """One game's seat: its final score (points + row penalty), chips and place."""
        final = points + penalty
        self.games += 1
        self.substituted += substituted
        self.points += points
        self.penalties += penalty
        self.chip_count += chips
        self.chips += chips * chip_value
        self.places[place - 1] += 1
        best = self.best  # comparisons, not max()/min(): the stage tallies' hottest line
        if best is None:
            self.best = self.worst = final
        elif final > best:
            self.best = final
        elif final < self.worst:  # type: ignore[operator]
            self.worst = final

    def add_penalty(self, points: Decimal) -> None:
        """A penalty from the log."""
        self.penalties += points

    def copy(self) -> Tally:
        """Another tally with the same counts (a block's tally stays as it was kept)."""
        t = Tally(self.name, self.team, 0)
        t.games, t.substituted, t.chip_count = self.games, self.substituted, self.chip_count
        t.points, t.chips, t.penalties = self.points, self.chips, self.penalties
        t.places, t.best, t.worst = list(self.places), self.best, self.worst
        return t

    def merge(self, later: Tally) -> None:
        """Add the seats of ``later``, a tally of games that come after this one's: the
        same as adding them one by one when the sums are exact (the caller's decimal
        context is), the best and worst being the first highest and first lowest game."""
        self.games += later.games
        self.substituted += later.substituted
        self.points += later.points
        self.penalties += later.penalties
        self.chip_count += later.chip_count
        self.chips += later.chips
        self.places = [a + b for a, b in zip(self.places, later.places)]
        if later.best is None:
            return
        if self.best is None:
            self.best, self.worst = later.best, later.worst
            return
        if later.best > self.best:
            self.best = later.best
        if later.worst < self.worst:  # type: ignore[operator]
            self.worst = later.worst

    def line(self, carried: Decimal = Decimal(0)) -> StandingLine:
        return StandingLine(self.name, self.team, self.games, self.substituted, carried,
                            self.points, self.chip_count, self.chips, self.penalties,
                            tuple(self.places), self.best, self.worst)


# ------------------------------------------------------------------------------------------------
# Sort keys: smaller is better. Averages are exact fractions, so 0.01 rounding never ties.

_NO_GAMES = (1, Fraction(0))


def _key_average(line: StandingLine) -> tuple[int, Fraction]:
    return (0, -Fraction(line.stage_total) / line.games) if line.games else _NO_GAMES


def _key_average_place(line: StandingLine) -> tuple[int, Fraction]:
    return (0, Fraction(_place_sum(line), line.games)) if line.games else _NO_GAMES


def _keys(previous: Mapping[str, int], order: Mapping[str, int]
          ) -> dict[str, Callable[[StandingLine], Any]]:
    last = len(order)
    return {
        "total": lambda p: -p.total,
        "average": _key_average,
        "average_place": _key_average_place,
        "best": lambda p: (p.best is None, -(p.best or 0)),
        "places": lambda p: tuple(-c for c in p.places[:-1]),
        "firsts": lambda p: -p.places[0],
        "fewer_lasts": lambda p: p.places[-1],
        "previous": lambda p: previous.get(p.name, 10**9),
        "earlier": lambda p: order.get(p.name, last),
    }


def parse_ranking(value: Any) -> str:
    """A ranking key: ``total``, ``average`` or ``average_place``."""
    text = _word(value)
    text = _ALIASES.get(text, text)
    if text not in RANKINGS:
        raise UmaokaError(_unknown_value("ranking", value, RANKINGS))
    return text


def parse_tie_breaks(value: Any) -> tuple[str, ...]:
    """A tie-break order from a list or a comma-separated text (blank or none: no tie-breaks)."""
    items = value if isinstance(value, (list, tuple)) else as_text(value or "").split(",")
    out: list[str] = []
    for item in items:
        text = _word(item)
        text = _ALIASES.get(text, text)
        if not text:
            continue
        if text not in TIE_BREAKS:
            raise UmaokaError(f'"{excerpt(as_text(item).strip())}" is not a tie-break; use any of '
                              f'{", ".join(TIE_BREAKS)}, in order.{_closest(text, TIE_BREAKS)}')
        if text not in out:
            out.append(text)
    return tuple(out)


def _word(value: Any) -> str:
    return as_text(value or "").strip().lower().replace("-", "_").replace(" ", "_")


def rank_lines(lines: Iterable[StandingLine], ranking: str = "total",
               tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS, min_games: int = 0,
               previous: Mapping[str, int] | None = None,
               order: Mapping[str, int] | None = None) -> tuple[StandingLine, ...]:
    """Lines in standings order with rank, qualified and tie_break filled in.

    ``previous`` maps names to their place in the previous stage (for ``previous``),
    ``order`` names to their roster position (for ``earlier``). Qualified lines come
    first; lines with fewer than ``min_games`` games follow, unranked.
    """
    keys = _keys(previous or {}, order or {})
    chain = [ranking, *(t for t in tie_breaks if t != ranking)]
    fns = [keys[k] for k in chain]

    def sort_key(p: StandingLine) -> tuple[Any, ...]:
        return (*(f(p) for f in fns), p.name)

    out: list[StandingLine] = []
    for qualified in (True, False):
        group = sorted((p for p in lines if (p.games >= min_games) == qualified), key=sort_key)
        values = [[f(p) for f in fns] for p in group]
        decided: list[str | None] = [None] * len(group)
        ranks = list(range(1, len(group) + 1))
        for i in range(1, len(group)):
            if values[i][0] != values[i - 1][0]:
                continue
            step = next((k for k in range(1, len(fns)) if values[i][k] != values[i - 1][k]),
                        None)
            if step is None:  # nothing separates them: they share the place
                ranks[i] = ranks[i - 1]
                continue
            decided[i] = chain[step]
            decided[i - 1] = decided[i - 1] or chain[step]
        for i, p in enumerate(group):
            out.append(replace(p, rank=ranks[i] if qualified else None, qualified=qualified,
                               tie_break=decided[i]))
    return tuple(out)


#: The columns of :func:`standing_rows`, for sheets and Excel functions.
STANDING_HEADER = ("Rank", "Name", "Team", "Games", "Carried", "Points", "Chips", "Penalties",
                   "Total", "Average", "Avg place", "1st", "2nd", "3rd", "4th", "Best", "Worst",
                   "Advanced", "Tie-break", "Flags")


def standing_rows(lines: Iterable[StandingLine], lang: str | None = None,
                  caps: Any = None) -> list[list[Any]]:
    """A header row and one row of plain values per line (blank for none), e.g. for a sheet.

    With ``lang`` ("en" or "ja") the Tie-break column says the tie-break in words and the
    Flags column is in that language (``caps``: the stage's game caps); without it, the
    tie-break's key (``best``) and the engine's flags.

    >>> header, row = standing_rows([StandingLine("Aki", games=1, points=Decimal(46),
    ...                                            places=(1, 0, 0), rank=1)])
    >>> dict(zip(header, row))["Total"], "4th" in header, len(header) == len(row)
    (Decimal('46'), False, True)
    >>> standing_rows([StandingLine("Aki", tie_break="best")], "ja")[1][-2]
    '最高スコアが高い'
    """
    words = None if lang is None else TIE_BREAKS_JA if lang == "ja" else TIE_BREAKS
    rows: list[list[Any]] = []
    size = 3
    for p in lines:
        size = max(size, len(p.places))
        decided = p.tie_break or ""
        flags = flag_words(p, lang, caps)
        if words is not None:
            decided = words.get(decided, decided)
        rows.append([
            "" if p.rank is None else p.rank, p.name, p.team or "", p.games, p.carried,
            p.points, p.chips, p.penalties, p.total, "" if p.average is None else p.average,
            "" if p.average_place is None else p.average_place, *p.places,
            *([""] * (4 - len(p.places))), "" if p.best is None else p.best,
            "" if p.worst is None else p.worst, "yes" if p.advanced else "", decided, flags])
    header = list(STANDING_HEADER)
    if size == 3:
        header.remove("4th")
        for r in rows:
            del r[14]
    return [header, *rows]
