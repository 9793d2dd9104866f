"""The draw: which players share a table in each round, and who sits out.

Where an exact design exists it is used: the affine plane AG(2,q) seats q*q players at q
tables of q for q+1 rounds so that every two players meet exactly once (16 players at
tables of 4 over 5 rounds; 9 players at tables of 3 over 4 rounds), and :mod:`.designs`
ships the others (resolvable 2-(n,4,1) designs, Kirkman triple systems) and the best known
schedules for some player counts without one (20 to 48 players);
one player short of a design plays it with one seat empty. Otherwise, and to repair pins
and pairs kept apart, a seeded simulated annealing swaps players between tables of a round,
with a step bound, so the same seed always gives the same draw.

>>> affine_plane(3)[0]
[[0, 3, 6], [1, 4, 7], [2, 5, 8]]
"""

from __future__ import annotations

import math
import random

from umaoka.engine.seating.designs import packing, resolvable

#: Most search steps by default (about a second); ``steps=`` asks for more or fewer.
STEPS = 120_000
#: Cost weight of a pair that should be kept apart (a normal pair weighs 1).
AVOID_WEIGHT = 64
#: Annealing temperatures (in cost units) at the start and the end of the search.
_HOT, _COLD = 3.0, 0.05
#: Share of search moves that start from a player in a pair met more often than the ceiling.
_FOCUS = 0.7

#: Pins of one round: player -> (table, seat or None), 0-based.
Pinned = dict[int, tuple[int, "int | None"]]


_GF = {  # addition and multiplication tables of the fields with 3 and 4 elements
    3: ([[(a + b) % 3 for b in range(3)] for a in range(3)],
        [[(a * b) % 3 for b in range(3)] for a in range(3)]),
    # GF(4) = {0, 1, a, a+1} coded 0..3: addition is XOR; a*a = a+1.
    4: ([[a ^ b for b in range(4)] for a in range(4)],
        [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]),
}


def affine_plane(q: int) -> list[list[list[int]]]:
    """The q+1 parallel classes of AG(2,q) (q = 3 or 4) over points ``x*q + y``.

    Each class is a round: q tables of q points; every two points share exactly one table.

    >>> affine_plane(3)[0]
    [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    """
    add, mul = _GF[q]
    classes = []
    for slope in range(q):  # lines y = slope*x + c
        classes.append([[x * q + add[mul[slope][x]][c] for x in range(q)] for c in range(q)])
    classes.append([[c * q + y for y in range(q)] for c in range(q)])  # vertical lines x = c
    return classes


def known_design(n: int, size: int) -> tuple[list[list[list[int]]] | None, str]:
    """The exact design for ``n`` players at tables of ``size`` and its name, if one is known:
    every two players meet exactly once over its rounds (more rounds repeat it in turn)."""
    if n == size * size:
        return affine_plane(size), f"affine plane AG(2,{size})"
    rounds = resolvable(n, size)
    if rounds is None:
        rounds = packing(n, size)
        if rounds is None:
            return None, "search"
        return rounds, f"known schedule of {n} players ({len(rounds)} rounds)"
    if size == 3:
        return rounds, f"Kirkman triple system KTS({n})"
    return rounds, f"resolvable design 2-({n},4,1)"


class Draw:
    """Tables of every round as player numbers, and the meeting counts they add up to."""

    def __init__(self, n: int, rounds: int, size: int, rng: random.Random, order: list[int],
                 fixed: dict[int, Pinned],
                 avoid: set[tuple[int, int]], met: list[list[int]] | None = None,
                 sat: list[int] | None = None, offset: int = 0):
        self.n, self.rounds, self.size, self.rng, self.order = n, rounds, size, rng, order
        self.tables = n // size
        self.fixed = fixed
        self.weight = [[1] * n for _ in range(n)]
        for i, j in avoid:
            self.weight[i][j] = self.weight[j][i] = AVOID_WEIGHT
        # earlier nights of the season: meetings and sit-outs so far, and the design round
        # tonight starts at when it continues a design in progress (``order`` is then the
        # design's own order of the players)
        self.meet = [row[:] for row in met] if met else [[0] * n for _ in range(n)]
        self.met_before = [row[:] for row in self.meet]
        self.prior = any(any(row) for row in self.meet)
        self.sat_before = list(sat) if sat else [0] * n
        self.offset = offset
        #: The design rounds the tables started from, when they came from a design.
        self.design_start: list[list[list[int]]] | None = None
        self.groups: list[list[list[int]]] = []
        self.sit_out: list[list[int]] = []
        # True when the start is a shipped design used as it is (no pins, nobody kept
        # apart, no more rounds than it has): its spread is the best known, so the search
        # has nothing to gain and is skipped.
        self.settled = False
        self._plain = not avoid

    def start(self) -> str:
        """Sit-outs, then a first grouping per round (the exact design where one exists)."""
        n, size = self.n, self.size
        out = n - self.tables * size
        pos = {p: k for k, p in enumerate(self.order)}
        sat = self.sat_before[:]
        last = [-1] * n
        design, name = known_design(n, size) if not out else (None, "search")
        if design is not None and self.prior and not self.fixed:
            self._fit_design(design, n)
        if out == size - 1 and not self.fixed:
            design, name = known_design(n + 1, size)
            if design is not None and self.prior:
                self._fit_design(design, n)
            if design is not None and self._fair_less_one(design):
                self.settled = (self._plain and not self.prior
                                and self.offset + self.rounds <= len(design))
                return self._start_less_one(design, name)
            design, name = None, "search"
        self.settled = (design is not None and self._plain and not self.fixed
                        and not self.prior and self.offset + self.rounds <= len(design))
        for r in range(self.rounds):
            pinned = self.fixed.get(r, {})
            free = sorted((p for p in range(n) if p not in pinned),
                          key=lambda p: (sat[p], last[p], pos[p]))
            sits = free[:out]
            for p in sits:
                sat[p] += 1
                last[p] = r
            self.sit_out.append(sits)
            if design:
                cls = design[(self.offset + r) % len(design)]
                groups = [[self.order[pt] for pt in line] for line in cls]
            else:
                playing = [p for p in range(n) if p not in set(sits)]
                self.rng.shuffle(playing)
                groups = [playing[t * size:(t + 1) * size] for t in range(self.tables)]
            self.groups.append(self._apply_pins(groups, pinned))
        if design:
            self.design_start = [[g[:] for g in groups] for groups in self.groups]
        for groups in self.groups:
            for g in groups:
                self._count(g, 1)
        return name

    def _fit_design(self, design: list[list[list[int]]], empty: int) -> None:
        """Relabel the design's points (``self.order``) so that tonight's rounds of it seat
        together as few pairs as possible who met on earlier nights: swaps of two players'
        points while the meetings of earlier nights they add fall (a design stays a design
        under any relabelling, so tonight still repeats no pair of its own). Point
        ``empty`` (one past the players) is the empty seat of a design for one more."""
        partners: dict[int, list[int]] = {}
        for r in range(self.offset, self.offset + self.rounds):
            for line in design[r % len(design)]:
                for a in line:
                    if a != empty:
                        partners.setdefault(a, []).extend(b for b in line
                                                          if b != a and b != empty)
        order, met, rng = self.order, self.met_before, self.rng
        points = sorted(partners)
        if len(points) < 2:
            return

        def worth(pt: int, player: int, skip: int) -> int:
            row = met[player]
            return sum(row[order[q]] for q in partners[pt] if q != skip)

        total = sum(worth(pt, order[pt], -1) for pt in points)
        for _ in range(min(20_000, 40 * len(points) ** 2)):
            if total == 0:
                return
            i, j = points[int(rng.random() * len(points))], points[int(rng.random() * len(points))]
            if i == j:
                continue
            a, b = order[i], order[j]
            delta = (worth(i, b, j) + worth(j, a, i)) - (worth(i, a, j) + worth(j, b, i))
            if delta < 0:
                order[i], order[j] = b, a
                total += 2 * delta

    def _fair_less_one(self, design: list[list[list[int]]]) -> bool:
        """Whether playing ``design`` with one seat empty keeps the sit-outs fair after every
        round (nobody sits out twice more than another). A resolvable design always does;
        a best known schedule that is not one (some pairs never meet) may send the same
        players out again, above all when its rounds are played a second time."""
        empty, sat = self.n, self.sat_before[:]
        for r in range(self.offset, self.offset + self.rounds):
            for t in design[r % len(design)]:
                if empty in t:
                    for p in t:
                        if p != empty:
                            sat[self.order[p]] += 1
            if max(sat) - min(sat) > 1:
                return False
        return True

    def _start_less_one(self, design: list[list[list[int]]], name: str) -> str:
        """The design for one player more, with an empty seat: whoever would sit with the
        empty seat sits out, so everyone sits out once per pass through the design and no
        two players meet twice before every pair has met once."""
        empty = self.n  # the point nobody takes
        for r in range(self.offset, self.offset + self.rounds):
            tables = design[r % len(design)]
            self.sit_out.append(sorted((self.order[p] for t in tables if empty in t
                                        for p in t if p != empty), key=self.order.index))
            self.groups.append([[self.order[p] for p in t] for t in tables if empty not in t])
        self.design_start = [[g[:] for g in groups] for groups in self.groups]
        for groups in self.groups:
            for g in groups:
                self._count(g, 1)
        return f"{name}, one seat empty"

    def _apply_pins(self, groups: list[list[int]], pinned: Pinned
                    ) -> list[list[int]]:
        """Move each pinned player to their table by swapping with an unpinned player."""
        where = {p: t for t, g in enumerate(groups) for p in g}
        for p, (t, _) in pinned.items():
            if where[p] == t:
                continue
            other = next(q for q in groups[t] if q not in pinned or pinned[q][0] != t)
            src = where[p]
            groups[src][groups[src].index(p)] = other
            groups[t][groups[t].index(other)] = p
            where[p], where[other] = t, src
        return groups

    def _count(self, group: list[int], step: int) -> None:
        meet = self.meet
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                meet[a][b] += step
                meet[b][a] += step

    # A pair meeting m times costs m cubed (times its weight): convex, so the search spreads
    # meetings evenly, and steep, so it removes a third meeting before evening out the rest.

    def cost(self) -> int:
        w, m = self.weight, self.meet
        return sum(w[a][b] * m[a][b] ** 3 for a in range(self.n) for b in range(a + 1, self.n))

    def bound(self) -> int:
        """Least possible cost: tonight's pair meetings spread as evenly as the total allows
        over the meetings of the earlier nights (each added to a pair that has met least)."""
        return _fill(self._before(), self._total())[0]

    def _before(self) -> list[int]:
        m = self.met_before
        return [m[a][b] for a in range(self.n) for b in range(a + 1, self.n)]

    def _total(self) -> int:
        return self.rounds * self.tables * self.size * (self.size - 1) // 2

    def ceiling(self) -> int:
        """The most meetings any pair needs once tonight's tables are spread evenly."""
        return _fill(self._before(), self._total())[1]

    def design_kept(self) -> bool:
        """Whether the tables are still the design rounds they started from."""
        return self.design_start is not None and self.design_start == self.groups

    def search(self, steps: int) -> None:
        """Simulated annealing over swaps of two players between tables of one round."""
        if self.tables < 2 or steps <= 0 or self.settled:
            return
        movable = [[p for g in groups for p in g if p not in self.fixed.get(r, {})]
                   for r, groups in enumerate(self.groups)]
        rounds = [r for r in range(self.rounds) if len(movable[r]) >= 2]
        if not rounds:
            return
        where = [{p: t for t, g in enumerate(groups) for p in g} for groups in self.groups]
        where_free = [set(pool) for pool in movable]
        cost = self.cost()
        bound, most = _fill(self._before(), self._total())
        best = cost
        since_best: list[tuple[int, int, int]] = []  # swaps made since the best state
        rng, w, m = self.rng, self.weight, self.meet
        top = max(max(row) for row in m) + self.rounds + 2
        up = [(k + 1) ** 3 - k ** 3 for k in range(top)]  # one more meeting
        down = [(k - 1) ** 3 - k ** 3 if k else 0 for k in range(top)]  # one fewer
        hot, cold = _HOT, _COLD
        rand = rng.random  # faster than randrange in this loop, and just as reproducible
        nr = len(rounds)
        for step in range(steps):
            if cost <= bound:
                break
            r = rounds[int(rand() * nr)]
            pool = movable[r]
            a, b = pool[int(rand() * len(pool))], pool[int(rand() * len(pool))]
            if rand() < _FOCUS:  # most moves take a player from a table with a pair met too often
                g = self.groups[r][int(rand() * self.tables)]
                x = g[int(rand() * len(g))]
                if x in where_free[r] and any(m[x][y] > most or (w[x][y] > 1 and m[x][y])
                                              for y in g if y != x):
                    a = x
            ta, tb = where[r][a], where[r][b]
            if ta == tb:
                continue
            ga, gb = self.groups[r][ta], self.groups[r][tb]
            delta = 0
            wa, wb, ma, mb = w[a], w[b], m[a], m[b]
            for x in ga:
                if x != a:
                    delta += wa[x] * down[ma[x]] + wb[x] * up[mb[x]]
            for y in gb:
                if y != b:
                    delta += wb[y] * down[mb[y]] + wa[y] * up[ma[y]]
            if delta > 0:
                temp = hot * (cold / hot) ** (step / steps)
                if rand() >= math.exp(-delta / temp):
                    continue
            self._count(ga, -1)
            self._count(gb, -1)
            ga[ga.index(a)], gb[gb.index(b)] = b, a
            where[r][a], where[r][b] = tb, ta
            self._count(ga, 1)
            self._count(gb, 1)
            cost += delta
            if cost < best:
                best = cost
                since_best.clear()
            else:
                since_best.append((r, a, b))
        for r, a, b in reversed(since_best):  # back to the best state found
            ga, gb = self.groups[r][where[r][a]], self.groups[r][where[r][b]]
            self._count(ga, -1)
            self._count(gb, -1)
            ga[ga.index(a)], gb[gb.index(b)] = b, a
            where[r][a], where[r][b] = where[r][b], where[r][a]
            self._count(ga, 1)
            self._count(gb, 1)


def _fill(before: list[int], total: int) -> tuple[int, int]:
    """The least sum of cubed meeting counts when ``total`` meetings are added to pairs that
    have met ``before`` times (each to a pair that has met least: water filling), and the
    most meetings of any pair then.

    >>> _fill([0, 0, 0], 4)
    (10, 2)
    >>> _fill([2, 0, 0], 2)
    (10, 2)
    """
    hist: dict[int, int] = {}
    for k in before:
        hist[k] = hist.get(k, 0) + 1
    while total > 0 and hist:
        low = min(hist)
        count = hist.pop(low)
        nxt = min(hist) if hist else None
        room = count * (nxt - low) if nxt is not None else total + 1
        if total >= room:
            hist[nxt] += count  # type: ignore[index]
            total -= room
        else:
            q, rem = divmod(total, count)
            hist[low + q] = hist.get(low + q, 0) + count - rem
            if rem:
                hist[low + q + 1] = hist.get(low + q + 1, 0) + rem
            total = 0
    return sum(k ** 3 * c for k, c in hist.items()), max(hist, default=0)
