"""Seating schedules: who plays whom, at which table and in which seat, round after round.

A schedule spreads meetings evenly. Where a design is known it is exact: 16, 28, 40, 52 or
64 players at tables of 4 (9, 15, 21, 27, 33, 39, 51, 57 or 63 at tables of 3) meet every
other player exactly once over 5, 9, 13, 17 or 21 rounds (4 to 31); otherwise a search comes
close, and docs/seating.md lists where it reaches the best known spread and where not (12
players at three tables of 4 cannot avoid repeats: from round 2 on, any four of them
include two who shared a table in round 1). It balances the seats (each player starts as East about
equally often, and seats rotate), rotates sit-outs (抜け番) fairly when the player count
is not a multiple of the table size, keeps pinned seats from a file and keeps apart the
pairs you name (teammates).
The same players, rounds and seed always give the same schedule.

One module, not two: the schedule, the rules it must keep (fixed seats, pairs kept apart,
fair sit-outs) and its checks are read together; the search and the designs it starts
from are modules of their own beside it.

>>> s = schedule(16, rounds=5, seed=7)
>>> s.max_meetings, s.min_meetings, s.method
(1, 1, 'affine plane AG(2,4)')
>>> s.tables[0]
Table(round=1, number=1, seats=('P4', 'P14', 'P13', 'P16'))
>>> t = schedule(["Aki", "Ben", "Chie", "Dan", "Emi"], rounds=5, seed=1)
>>> sorted(t.sit_out_counts().values())
[1, 1, 1, 1, 1]
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from umaoka.engine.errors import UmaokaError
from umaoka.engine.online.imported import csv_rows, name_problem
from umaoka.engine.seating.draw import STEPS, Draw, Pinned
from umaoka.engine.settle import seat_names

#: Largest schedules we draw (the search takes a few seconds at this size).
MAX_PLAYERS = 400
MAX_ROUNDS = 60
#: Most search steps ``--steps`` may ask for (the default is at most 120,000).
MAX_STEPS = 1_000_000


@dataclass(frozen=True)
class Table:
    """One table in one round: round and table numbers from 1, players East first."""

    round: int
    number: int
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Pin:
    """A player fixed to a table (and, with ``seat`` 0-3, to a seat) in one round."""

    round: int
    table: int
    name: str
    seat: int | None = None


@dataclass(frozen=True)
class Schedule:
    """A drawn schedule: every table of every round, and who sits out each round."""

    players: tuple[str, ...]
    table_size: int
    tables: tuple[Table, ...]
    sit_outs: tuple[tuple[str, ...], ...]  # per round
    seed: int
    method: str  # how the tables were drawn
    avoid: tuple[tuple[str, str], ...] = field(default=())
    #: When the tables are a perfect or best known design's rounds as they are: the players
    #: in the design's order and the design round the first round is, so that a later night
    #: with the same players goes on with the next rounds (``resume`` of :func:`schedule`).
    design: tuple[str, ...] = field(default=())
    design_from: int = 0

    @property
    def rounds(self) -> int:
        return len(self.sit_outs)

    def round_tables(self, number: int) -> list[Table]:
        """The tables of round ``number`` (from 1)."""
        return [t for t in self.tables if t.round == number]

    def meetings(self) -> dict[tuple[str, str], int]:
        """Games each pair of players shares, for every pair (0 for pairs who never meet)."""
        index = {p: i for i, p in enumerate(self.players)}
        counts = {(a, b): 0 for i, a in enumerate(self.players) for b in self.players[i + 1:]}
        for t in self.tables:
            seated = sorted(t.seats, key=index.__getitem__)
            for i, a in enumerate(seated):
                for b in seated[i + 1:]:
                    counts[a, b] += 1
        return counts

    @property
    def max_meetings(self) -> int:
        return max(self.meetings().values(), default=0)

    @property
    def min_meetings(self) -> int:
        return min(self.meetings().values(), default=0)

    def wind_counts(self) -> dict[str, tuple[int, ...]]:
        """Per player, how often they start in each seat (East first)."""
        counts = {p: [0] * self.table_size for p in self.players}
        for t in self.tables:
            for seat, p in enumerate(t.seats):
                counts[p][seat] += 1
        return {p: tuple(c) for p, c in counts.items()}

    def games(self) -> dict[str, int]:
        """Games each player plays."""
        return {p: sum(c) for p, c in self.wind_counts().items()}

    def sit_out_counts(self) -> dict[str, int]:
        """Rounds each player sits out."""
        counts = dict.fromkeys(self.players, 0)
        for names in self.sit_outs:
            for p in names:
                counts[p] += 1
        return counts

    def avoided_meetings(self) -> list[tuple[str, str, int]]:
        """Pairs asked to be kept apart that still meet, with how often (best effort)."""
        met = self.meetings()
        index = {p: i for i, p in enumerate(self.players)}
        out = []
        for a, b in self.avoid:
            key = (a, b) if index[a] < index[b] else (b, a)
            if met[key]:
                out.append((a, b, met[key]))
        return out

    def rows(self) -> list[list[object]]:
        """A header row and one row per table: Round, Table and the seats, East first."""
        header: list[object] = ["Round", "Table", *seat_names(self.table_size)]
        return [header] + [[t.round, t.number, *t.seats] for t in self.tables]

    def summary(self) -> list[str]:
        """The figures a manager checks, one sentence per line."""
        east = [c[0] for c in self.wind_counts().values()]
        sits = list(self.sit_out_counts().values())
        lines = [
            f"{len(self.players)} players, {self.rounds} rounds, tables of "
            f"{self.table_size} ({self.method}, seed {self.seed}).",
            f"Meetings per pair: at most {self.max_meetings}, at least {self.min_meetings}.",
            f"Starts as East: {_span(east)} times per player.",
        ]
        if any(sits):
            lines.append(f"Sit-outs: {_span(sits)} per player.")
        for a, b, n in self.avoided_meetings():
            lines.append(f"{a} and {b} were to be kept apart but meet {n} time(s): too few "
                         "tables to separate them.")
        return lines


def _span(values: list[int]) -> str:
    lo, hi = min(values), max(values)
    return str(lo) if lo == hi else f"{lo}-{hi}"


# ------------------------------------------------------------------------------------------------
# Input: players, pins and pairs to keep apart.


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """A count as ``P1..Pn``, or a list of names checked for blanks and repeats.

    >>> player_names(3)
    ('P1', 'P2', 'P3')
    """
    if isinstance(players, bool):
        raise UmaokaError("give the players as a count (e.g. 16) or a list of names.")
    if isinstance(players, int):
        if players < 1 or players > MAX_PLAYERS:
            raise UmaokaError(f"the player count ({players}) must be between 1 and "
                              f"{MAX_PLAYERS}.")
        return tuple(f"P{i}" for i in range(1, players + 1))
    names = tuple(str(p).strip() for p in players)
    if any(not n for n in names):
        raise UmaokaError("a player name is blank; give every player a name.")
    message = next(filter(None, map(name_problem, names)), None)
    if message:
        raise UmaokaError(message)
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise UmaokaError(f'"{n}" is listed twice; give each player once (add an initial '
                              "to tell two players of the same name apart).")
        seen.add(n)
    if len(names) > MAX_PLAYERS:
        raise UmaokaError(f"{len(names)} players is more than {MAX_PLAYERS}; draw the "
                          "schedule in groups.")
    return names


def parse_avoid(text: str) -> list[tuple[str, str]]:
    """Pairs to keep apart from ``"A+B,C+D"``; ``"A+B+C"`` keeps all three apart.

    >>> parse_avoid("Aki+Ben, Chie+Dan+Emi")
    [('Aki', 'Ben'), ('Chie', 'Dan'), ('Chie', 'Emi'), ('Dan', 'Emi')]
    """
    pairs: list[tuple[str, str]] = []
    for group in (text or "").split(","):
        if not group.strip():
            continue
        names = [n.strip() for n in group.split("+")]
        if len(names) < 2 or any(not n for n in names):
            raise UmaokaError(f'"{group.strip()}" is not a group to keep apart; write names '
                              'joined by +, groups separated by commas, e.g. "Aki+Ben,Chie+Dan".')
        pairs += [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    return pairs


def parse_pins(text: str, table_size: int = 4) -> list[Pin]:
    """Fixed seats from CSV text: ``round,table,east,south,west,north`` (blank cells are free).

    A header row is optional; a row with only a round, a table and names in some seats pins
    just those players.

    >>> parse_pins("round,table,east,south,west,north\\n1,2,Aki,,,Ben")
    [Pin(round=1, table=2, name='Aki', seat=0), Pin(round=1, table=2, name='Ben', seat=3)]
    """
    pins: list[Pin] = []
    try:
        rows = list(csv_rows(text))
    except UmaokaError as e:
        raise UmaokaError(f"fixed seating {e}") from None
    for line, row in enumerate(rows, 1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        if line == 1 and cells[0].lower() == "round":
            continue
        try:
            rnd, table = int(cells[0]), int(cells[1])
        except (ValueError, IndexError):
            raise UmaokaError(f"fixed seating line {line} must start with a round and a table "
                              "number, e.g. 1,2,Aki,Ben,Chie,Dan.") from None
        names = cells[2:]
        if len(names) > table_size:
            raise UmaokaError(f"fixed seating line {line} names {len(names)} seats but tables "
                              f"have {table_size}.")
        pins += [Pin(rnd, table, n, seat) for seat, n in enumerate(names) if n]
    return pins


# ------------------------------------------------------------------------------------------------
# The draw.


def schedule(players: int | Sequence[str], rounds: int, table_size: int = 4, seed: int = 0,
             pins: Iterable[Pin] = (), avoid: Iterable[tuple[str, str]] = (),
             steps: int | None = None, met: Mapping[tuple[str, str], int] | None = None,
             sat: Mapping[str, int] | None = None,
             seats: Mapping[str, Sequence[int]] | None = None,
             resume: tuple[Sequence[str], int] | None = None) -> Schedule:
    """Draw a schedule of ``rounds`` rounds for ``players`` (a count or names).

    ``table_size`` is 4, or 3 for sanma; ``pins`` fix players to tables and seats;
    ``avoid`` names pairs to keep apart; ``steps`` bounds the search (default grows with the
    size). Deterministic: the same arguments give the same schedule.

    Earlier nights of a season (see :mod:`.nights`): ``met`` counts the games each pair
    has shared so far (pairs of names, either order), ``sat`` the rounds each player sat
    out and ``seats`` how often each started in each seat; the draw spreads the season's
    meetings, sit-outs and seats, not only tonight's. ``resume`` (a design's players in its
    order and its next round) goes on with a design in progress when tonight's players are
    exactly its players.
    """
    names = player_names(players)
    n = len(names)
    if steps is not None and (isinstance(steps, bool) or not 0 <= steps <= MAX_STEPS):
        raise UmaokaError(f"the search steps ({steps}) must be between 0 and {MAX_STEPS:,}.")
    if table_size not in (3, 4):
        raise UmaokaError(f"tables seat 4 players (or 3 for sanma), not {table_size}.")
    if n < table_size:
        raise UmaokaError(f"{n} players cannot fill a table of {table_size}.")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise UmaokaError(f"the number of rounds ({rounds}) must be between 1 and "
                          f"{MAX_ROUNDS}.")
    index = {p: i for i, p in enumerate(names)}
    tables = n // table_size
    fixed = _check_pins(list(pins), index, rounds, tables, table_size)
    avoid_pairs = _check_avoid(list(avoid), index)
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    offset = 0
    if resume is not None and not fixed and sorted(resume[0]) == sorted(names):
        order, offset = [index[p] for p in resume[0]], max(0, int(resume[1]))
    prior = [[0] * n for _ in range(n)]
    for (a, b), k in (met or {}).items():
        if a in index and b in index and a != b:
            prior[index[a]][index[b]] += k
            prior[index[b]][index[a]] += k
    draw = Draw(n, rounds, table_size, rng, order, fixed, avoid_pairs, prior,
                [(sat or {}).get(p, 0) for p in names], offset)
    method = draw.start()
    if offset and draw.design_start is not None:
        method += f", rounds {offset + 1}-{offset + rounds} of the season's design"
    # on top of earlier nights the search has more to even out: the full default budget
    budget = STEPS if draw.prior else min(STEPS, 2000 * rounds * tables)
    draw.search(steps if steps is not None else budget)
    before = [list((seats or {}).get(p, ())) for p in names]
    seated = _assign_seats(draw, [(b + [0] * table_size)[:table_size] for b in before])
    out = [Table(r + 1, t + 1, tuple(names[p] for p in seated[r][t]))
           for r in range(rounds) for t in range(tables)]
    sits = tuple(tuple(names[p] for p in sorted(draw.sit_out[r], key=order.index))
                 for r in range(rounds))
    kept = tuple((names[a], names[b]) for a, b in sorted(avoid_pairs))
    design = tuple(names[p] for p in order) if draw.design_kept() else ()
    return Schedule(names, table_size, tuple(out), sits, seed, method, kept, design,
                    offset if design else 0)


def _check_pins(pins: list[Pin], index: dict[str, int], rounds: int, tables: int,
                size: int) -> dict[int, Pinned]:
    """Pins by round: player -> (table, seat or None), all 0-based, checked."""
    fixed: dict[int, Pinned] = {}
    taken: set[tuple[int, int, int]] = set()
    for pin in pins:
        where = f"the fixed seat of {pin.name} (round {pin.round}, table {pin.table})"
        if pin.name not in index:
            raise UmaokaError(f"{where} names a player who is not in the list; check the "
                              "spelling or add the player.")
        if not 1 <= pin.round <= rounds:
            raise UmaokaError(f"{where} is outside rounds 1-{rounds}.")
        if not 1 <= pin.table <= tables:
            raise UmaokaError(f"{where} is outside tables 1-{tables}.")
        p, r, t = index[pin.name], pin.round - 1, pin.table - 1
        if pin.seat is not None and not 0 <= pin.seat < size:
            raise UmaokaError(f"{where} has no seat {pin.seat + 1} at a table of {size}.")
        old = fixed.setdefault(r, {}).get(p)
        if old is not None and (old[0] != t or (pin.seat is not None and old[1] not in
                                                (None, pin.seat))):
            raise UmaokaError(f"{pin.name} is fixed to two places in round {pin.round}; keep "
                              "one.")
        seat = pin.seat if pin.seat is not None else (old[1] if old else None)
        if seat is not None:
            if (r, t, seat) in taken and (old is None or old[1] != seat):
                raise UmaokaError(f"two players are fixed to the same seat of table "
                                  f"{pin.table} in round {pin.round}; keep one.")
            taken.add((r, t, seat))
        fixed[r][p] = (t, seat)
    for r, pinned in fixed.items():
        for t in range(tables):
            if sum(1 for tt, _ in pinned.values() if tt == t) > size:
                raise UmaokaError(f"more than {size} players are fixed to table {t + 1} in "
                                  f"round {r + 1}.")
    return fixed


def _check_avoid(pairs: list[tuple[str, str]], index: dict[str, int]) -> set[tuple[int, int]]:
    out = set()
    for a, b in pairs:
        for name in (a, b):
            if name not in index:
                raise UmaokaError(f'"{name}" (in the pairs to keep apart) is not a player; '
                                  "check the spelling.")
        if a == b:
            raise UmaokaError(f'"{a}+{a}" pairs a player with themself; name two players.')
        i, j = sorted((index[a], index[b]))
        out.add((i, j))
    return out


# ------------------------------------------------------------------------------------------------
# Seats: East balanced over the whole schedule first, then the other winds round by round.


def _assign_seats(draw: Draw, before: list[list[int]]) -> list[list[list[int]]]:
    """Seats for every table; ``before``: each player's seats on earlier nights."""
    size = draw.size
    pos = {p: k for k, p in enumerate(draw.order)}
    east_count = [b[0] for b in before]
    east: dict[tuple[int, int], int] = {}
    for r, groups in enumerate(draw.groups):
        pinned = draw.fixed.get(r, {})
        for t, g in enumerate(groups):
            forced = [p for p in g if pinned.get(p, (None, None))[1] == 0]
            if forced:
                east[r, t] = forced[0]
            else:
                free = [p for p in g if pinned.get(p, (None, None))[1] is None]
                east[r, t] = min(free, key=lambda p: (east_count[p], pos[p]))
            east_count[east[r, t]] += 1
    _balance_east(draw, east, east_count)

    seats: list[list[list[int]]] = []
    counts = [b[:] for b in before]
    for r, groups in enumerate(draw.groups):
        pinned = draw.fixed.get(r, {})
        round_seats = []
        for t, g in enumerate(groups):
            order: list[int | None] = [None] * size
            order[0] = east[r, t]
            for p in g:
                s = pinned.get(p, (None, None))[1]
                if s is not None:
                    order[s] = p
            rest = [p for p in g if p not in order]
            open_seats = [s for s in range(size) if order[s] is None]
            best = min(permutations(rest),
                       key=lambda perm: (sum(counts[p][s] for p, s in zip(perm, open_seats)),
                                         [pos[p] for p in perm]))
            for p, s in zip(best, open_seats):
                order[s] = p
            final = [p for p in order if p is not None]
            for s, p in enumerate(final):
                counts[p][s] += 1
            round_seats.append(final)
        seats.append(round_seats)
    _rotate_seats(draw, seats, counts, max((max(b) for b in before), default=0))
    return seats


def _rotate_seats(draw: Draw, seats: list[list[list[int]]], counts: list[list[int]],
                  earlier: int = 0) -> None:
    """Re-seat one table at a time while that evens out every player's seats (sum of
    squared seat counts, East weighted above all others, so the East balance holds;
    ``earlier``: the most starts in one seat on earlier nights)."""
    weight = [draw.n * (draw.rounds + earlier) + 1] + [1] * (draw.size - 1)
    for _ in range(20):  # each change lowers the total, so this settles; 20 passes at most
        changed = False
        for r, round_seats in enumerate(seats):
            pinned = draw.fixed.get(r, {})
            for table in round_seats:
                free = [s for s, p in enumerate(table) if pinned.get(p, (None, None))[1] is None]
                players = [table[s] for s in free]
                for s, p in zip(free, players):
                    counts[p][s] -= 1
                cost = _seat_cost(weight, counts, free)
                best = min(permutations(players), key=cost)
                if cost(best) < cost(tuple(players)):
                    for s, p in zip(free, best):
                        table[s] = p
                    changed = True
                for s in free:
                    counts[table[s]][s] += 1
        if not changed:
            return


def _seat_cost(weight: list[int], counts: list[list[int]], seats: list[int]) -> Any:
    """What seating players in ``seats`` adds to the sum of weighted squared seat counts."""
    def cost(perm: Sequence[int]) -> int:
        return sum(weight[s] * (2 * counts[p][s] + 1) for p, s in zip(perm, seats))
    return cost


def _balance_east(draw: Draw, east: dict[tuple[int, int], int], count: list[int]) -> None:
    """Hand East along chains of tables until no player has two more Easts than another
    player they can pass one to (augmenting paths, so the most Easts anyone has is least)."""
    movable: dict[int, list[tuple[int, int]]] = {}
    for (r, t), p in east.items():
        pinned = draw.fixed.get(r, {})
        if pinned.get(p, (None, None))[1] is None:
            movable.setdefault(p, []).append((r, t))
    while True:  # each pass lowers the sum of squared counts, so this ends
        low = min(count)
        for top in sorted((p for p in range(draw.n) if count[p] >= low + 2),
                          key=lambda p: -count[p]):
            path = _east_path(draw, east, count, movable, top)
            if path:
                for (r, t), new in path:
                    old = east[r, t]
                    movable[old].remove((r, t))
                    movable.setdefault(new, []).append((r, t))
                    east[r, t] = new
                count[top] -= 1
                count[path[-1][1]] += 1
                break
        else:
            return


def _east_path(draw: Draw, east: dict[tuple[int, int], int], count: list[int],
               movable: dict[int, list[tuple[int, int]]], start: int
               ) -> list[tuple[tuple[int, int], int]] | None:
    """Breadth-first: a chain of tables passing one East from ``start`` to a player with at
    least two fewer, or None."""
    back: dict[int, tuple[int, tuple[int, int]] | None] = {start: None}
    queue = [start]
    for u in queue:
        for r, t in movable.get(u, []):
            pinned = draw.fixed.get(r, {})
            for v in draw.groups[r][t]:
                if v in back or pinned.get(v, (None, None))[1] is not None:
                    continue
                back[v] = (u, (r, t))
                if count[v] <= count[start] - 2:
                    path = []
                    node = v
                    while back[node] is not None:
                        prev, table = back[node]  # type: ignore[misc]
                        path.append((table, node))
                        node = prev
                    return path[::-1]
                queue.append(v)
    return None
