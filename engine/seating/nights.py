"""A season seated night by night: who has met whom so far, and tonight's draw on top of it.

A manager seats one night at a time, often with different players present. The season so
far is every table of the earlier nights' seating plans and every game typed or imported
in the league (a game row pre-filled from a plan counts once: a planned table whose
players match a game counts through the game). Tonight's draw spreads the season's
meetings, sit-outs and seats over the players present, and a perfect design in progress
goes on with its next rounds when the same players come.

>>> from umaoka.engine.seating.plan import schedule
>>> first = schedule(16, rounds=2, seed=7)
>>> so_far = season_so_far([first])
>>> second = draw_night(so_far, first.players, rounds=2, seed=8)
>>> spread(season_tables([first, second])), second.design_from
({1: 96}, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from umaoka.engine.seating.plan import Schedule, schedule

Pair = tuple[str, str]


@dataclass(frozen=True)
class SoFar:
    """The season before tonight: the tables that met, sit-outs, seats and the design in
    progress (its players in order and its next round), if the last night kept one."""

    tables: tuple[tuple[str, ...], ...] = ()
    sat: dict[str, int] = field(default_factory=dict)
    seats: dict[str, tuple[int, ...]] = field(default_factory=dict)
    design: tuple[str, ...] = ()
    design_next: int = 0
    nights: int = 0
    rounds: int = 0

    def met(self) -> dict[Pair, int]:
        """Games each pair that met has shared (names in sorted order)."""
        return meetings(self.tables)


def meetings(tables: Iterable[Sequence[str]]) -> dict[Pair, int]:
    """Games each pair shares over ``tables`` (pairs in sorted order; blank seats skipped).

    >>> meetings([("Aki", "Ben", "Chie"), ("Ben", "Aki", "Dan")])[("Aki", "Ben")]
    2
    """
    out: Counter[Pair] = Counter()
    for t in tables:
        names = sorted({p for p in t if p})
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                out[a, b] += 1
    return dict(out)


def season_tables(nights: Sequence[Any], played: Iterable[Sequence[str]] = ()
                  ) -> tuple[tuple[str, ...], ...]:
    """Every table of the season: the games ``played`` (players of each game row) and the
    planned tables of ``nights`` (schedules) that no game row holds (yet)."""
    games = [tuple(p for p in g if p) for g in played]
    games = [g for g in games if len(g) >= 2]
    left = Counter(frozenset(g) for g in games)
    out = list(games)
    for night in nights:
        for t in night.tables:
            key = frozenset(p for p in t.seats if p)
            if left[key]:
                left[key] -= 1
            else:
                out.append(tuple(p for p in t.seats if p))
    return tuple(out)


def season_so_far(nights: Sequence[Schedule], played: Iterable[Sequence[str]] = ()) -> SoFar:
    """The season before tonight from the earlier nights' plans and the games played."""
    sat: Counter[str] = Counter()
    seats: dict[str, list[int]] = {}
    for night in nights:
        for names in night.sit_outs:
            sat.update(names)
        for t in night.tables:
            for k, p in enumerate(t.seats):
                if p:
                    counts = seats.setdefault(p, [0] * len(t.seats))
                    if k < len(counts):
                        counts[k] += 1
    last = nights[-1] if nights else None
    design, nxt = (), 0
    if last is not None and last.design:
        design, nxt = last.design, last.design_from + last.rounds
    return SoFar(season_tables(nights, played), dict(sat),
                 {p: tuple(c) for p, c in seats.items()}, design, nxt, len(nights),
                 sum(night.rounds for night in nights))


def draw_night(so_far: SoFar, players: int | Sequence[str], rounds: int, **options: Any
               ) -> Schedule:
    """Tonight's schedule for the ``players`` present, on top of the season ``so_far``
    (``options``: those of :func:`.plan.schedule`, table size, seed, pins, pairs apart)."""
    return schedule(players, rounds, met=so_far.met(), sat=so_far.sat, seats=so_far.seats,
                    resume=(so_far.design, so_far.design_next) if so_far.design else None,
                    **options)


def spread(tables: Iterable[Sequence[str]]) -> dict[int, int]:
    """Pairs by the games they shared, for the pairs that met: ``{1: 120, 2: 6}``."""
    return dict(sorted(Counter(meetings(tables).values()).items()))


def repeats(tables: Iterable[Sequence[str]]) -> int:
    """Meetings beyond each pair's first: 0 when no two players met twice."""
    return sum(k - 1 for k in meetings(tables).values() if k > 1)


def fewest_repeats(nights: Sequence[Schedule], played: Iterable[Sequence[str]] = ()) -> int:
    """A lower bound on :func:`repeats` for any seating of the same nights (same players
    present, same rounds and tables): no pair can meet for the first time twice, so the
    meetings beyond the pairs that could meet at all are repeats, player by player and pair
    by pair (the larger of the two counts)."""
    tables = season_tables(nights, played)
    could: set[Pair] = set(meetings(tables))
    for night in nights:
        present = sorted(night.players)
        could.update((a, b) for i, a in enumerate(present) for b in present[i + 1:])
    games: Counter[str] = Counter()
    met_with: Counter[str] = Counter()
    for t in tables:
        names = {p for p in t if p}
        for p in names:
            games[p] += len(names) - 1
    for a, b in could:
        met_with[a] += 1
        met_with[b] += 1
    total = sum(meetings(tables).values())
    by_pair = max(0, total - len(could))
    by_player = sum(max(0, games[p] - met_with[p]) for p in games)
    return max(by_pair, -(-by_player // 2))


def season_line(tables: Iterable[Sequence[str]], nights: int, rounds: int) -> str:
    """The season's meeting spread in one sentence, for the terminal."""
    tables = tuple(tables)
    counts = spread(tables)
    parts = ", ".join(f"{n} pair{'s' if n != 1 else ''} {_times(k)}" for k, n in counts.items())
    return (f"Season so far ({nights} night{'s' if nights != 1 else ''}, {rounds} rounds): "
            f"{parts or 'no pair has met'}; {repeats(tables)} repeat meeting(s).")


def _times(k: int) -> str:
    return {1: "met once", 2: "met twice"}.get(k, f"met {k} times")
