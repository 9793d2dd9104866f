"""Known designs: rounds in which every two players share a table a set number of times.

A *resolvable* design seats ``n`` players at tables of ``k`` round after round so that every
two players meet exactly once over ``(n - 1) / (k - 1)`` rounds (the social golfer problem
solved perfectly). For tables of 4 these are the resolvable 2-(n,4,1) designs, which exist
for every n = 4 mod 12; for tables of 3 the Kirkman triple systems, for every n = 3 mod 6
(Handbook of Combinatorial Designs, part II). umaoka ships those for 9 to 64 players:

=========  =====  ======  ================================================================
players    table  rounds  construction
=========  =====  ======  ================================================================
9          3      4       affine plane AG(2,3)
15         3      7       base round over Z7 acting on two copies of Z7, plus a fixed point
21         3      10      two base rounds over Z5 acting on four copies of Z5, plus a point
27         3      13      1-rotational over Z26 (a base round fixed by +13), plus a point
33         3      16      1-rotational over Z32 (fixed by +16), plus a point
39         3      19      base round over Z19 acting on two copies of Z19, plus a point
45         3      22      three copies of KTS(15) and a resolvable transversal design
51         3      25      1-rotational over Z50 (fixed by +25), plus a point
57         3      28      1-rotational over Z56 (fixed by +28), plus a point
63         3      31      base round over Z31 acting on two copies of Z31, plus a point
16         4      5       affine plane AG(2,4)
28         4      9       1-rotational over Z3 x Z3 x Z3 (fixed by (0,0,1)), plus a point
40         4      13      1-rotational over Z39 (fixed by +13), plus a point
52         4      17      1-rotational over Z51 (fixed by +17), plus a point
64         4      21      1-rotational over Z63 (fixed by +21), plus a point
=========  =====  ======  ================================================================

Each is a base round (or two) over a small group, found by a search and checked here and
in the tests: a round is the base round with the group added to every point (the extra
point stays put); KTS(45) is built from KTS(15). The data is small and every design is
verified pair by pair the first time it is used.

Where no resolvable design exists umaoka ships the best known schedule for some counts
(``packing``): 20 players at tables of 4 (5 rounds without a repeat, the most possible,
then every pair met once or twice after 7); 24, 36, 48 and 60 players (7, 11, 15 and 19
rounds without a repeat: every player meets all but two others); 32 players (the social
golfer 8-4-10: 10 rounds without a repeat, everyone missing one other, then an 11th
round after which every pair has met once or twice); at tables of 3, 24, 30, 36, 42, 48
and 54 players (11, 14, 17, 20, 23 and 26 rounds without a repeat, everyone missing one
other).

>>> rounds = resolvable(15, 3)
>>> len(rounds), len(rounds[0]), rounds[0][0]
(7, 5, [14, 1, 10])
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

#: (players, table size) -> (group moduli, copies of the group, translations, base rounds).
#: Points ``c * |G| + g`` are element g (mixed radix over the moduli) of copy c; points from
#: ``copies * |G|`` up are fixed. Base rounds are separated by ``|``, tables by ``/``.
_BASE: dict[tuple[int, int], tuple[tuple[int, ...], int, tuple[int, ...] | range, str]] = {
    (15, 3): ((7,), 2, range(7),
              "14 1 10 / 0 3 7 / 2 12 4 / 5 6 11 / 8 13 9"),
    (21, 3): ((5,), 4, range(5),
              "20 10 18 / 0 1 7 / 2 5 16 / 3 8 11 / 4 15 14 / 6 12 13 / 9 19 17 | "
              "20 5 1 / 0 2 17 / 3 14 16 / 4 11 13 / 6 18 9 / 7 8 12 / 10 19 15"),
    (27, 3): ((26,), 1, range(13),
              "26 0 13 / 1 23 24 / 14 10 11 / 2 7 21 / 15 20 8 / 3 12 18 / 16 25 5 / "
              "4 6 22 / 17 19 9"),
    (33, 3): ((32,), 1, range(16),
              "32 0 16 / 1 5 12 / 17 21 28 / 2 19 29 / 18 3 13 / 4 6 30 / 20 22 14 / "
              "7 25 26 / 23 9 10 / 8 11 31 / 24 27 15"),
    (39, 3): ((19,), 2, range(19),
              "38 0 22 / 1 35 27 / 2 11 14 / 3 19 7 / 4 17 28 / 5 6 25 / 8 33 16 / "
              "9 37 32 / 10 20 12 / 13 31 18 / 15 36 29 / 21 30 34 / 23 24 26"),
    (51, 3): ((50,), 1, range(25),
              "50 0 25 / 1 3 36 / 26 28 11 / 2 5 10 / 27 30 35 / 4 15 33 / 29 40 8 / "
              "6 37 46 / 31 12 21 / 7 19 41 / 32 44 16 / 9 22 45 / 34 47 20 / 13 39 43 / "
              "38 14 18 / 17 23 24 / 42 48 49"),
    (57, 3): ((56,), 1, range(28),
              "56 0 28 / 1 32 42 / 29 4 14 / 2 5 35 / 30 33 7 / 3 37 38 / 31 9 10 / "
              "6 15 20 / 34 43 48 / 8 46 53 / 36 18 25 / 11 23 50 / 39 51 22 / 12 16 52 / "
              "40 44 24 / 13 26 45 / 41 54 17 / 19 21 27 / 47 49 55"),
    (63, 3): ((31,), 2, range(31),
              "62 28 31 / 0 60 45 / 1 54 29 / 2 3 14 / 4 26 42 / 5 7 38 / 6 21 36 / "
              "8 59 49 / 9 30 51 / 10 18 23 / 11 46 35 / 12 44 16 / 13 27 50 / "
              "15 55 32 / 17 43 24 / 19 37 25 / 20 47 33 / 22 61 58 / 34 53 40 / "
              "39 41 48 / 52 57 56"),
    (28, 4): ((3, 3, 3), 1, (0, 3, 6, 9, 12, 15, 18, 21, 24),
              "27 0 1 2 / 3 24 14 6 / 4 25 12 7 / 5 26 13 8 / 9 21 17 19 / 10 22 15 20 / "
              "11 23 16 18"),
    (40, 4): ((39,), 1, range(13),
              "39 0 13 26 / 1 5 8 25 / 14 18 21 38 / 27 31 34 12 / 2 3 11 36 / "
              "15 16 24 10 / 28 29 37 23 / 4 6 22 33 / 17 19 35 7 / 30 32 9 20"),
    (52, 4): ((51,), 1, range(17),
              "51 0 17 34 / 1 3 23 31 / 18 20 40 48 / 35 37 6 14 / 2 13 26 38 / "
              "19 30 43 4 / 36 47 9 21 / 5 8 15 50 / 22 25 32 16 / 39 42 49 33 / "
              "7 11 12 44 / 24 28 29 10 / 41 45 46 27"),
    (64, 4): ((63,), 1, range(21),
              "63 0 21 42 / 1 14 36 48 / 22 35 57 6 / 43 56 15 27 / 2 4 34 40 / "
              "23 25 55 61 / 44 46 13 19 / 3 8 47 62 / 24 29 5 20 / 45 50 26 41 / "
              "7 52 59 60 / 28 10 17 18 / 49 31 38 39 / 9 12 32 58 / 30 33 53 16 / "
              "51 54 11 37"),
}


#: Schedules for player counts without a resolvable design, in the same form as ``_BASE``
#: plus how many of the first rounds seat no pair twice. Every first r rounds are as even as
#: the best known: see ``SPREADS`` (checked by the tests).
_PACKINGS: dict[tuple[int, int],
                tuple[tuple[int, ...], int, tuple[int, ...] | range, str, int]] = {
    # 20 players: 5 rounds without a repeat (5-4-6 has no solution), then 2 rounds after
    # which every pair has met once or twice. Found by an annealing search; written out
    # round by round (the trivial group).
    (20, 4): ((1,), 20, (0,),
              "1 5 14 15 / 12 19 9 11 / 6 7 17 3 / 16 8 10 0 / 18 2 4 13 | "
              "10 9 3 18 / 11 1 17 0 / 12 7 5 2 / 13 19 15 8 / 16 6 4 14 | "
              "5 11 16 3 / 1 6 10 13 / 4 0 19 7 / 15 9 17 2 / 18 14 12 8 | "
              "0 14 3 2 / 11 4 10 15 / 16 13 17 12 / 9 1 8 7 / 18 6 5 19 | "
              "3 12 4 1 / 11 6 2 8 / 13 0 5 9 / 15 7 16 18 / 17 19 10 14 | "
              "1 2 19 16 / 0 18 11 17 / 12 7 5 10 / 6 9 4 14 / 15 13 8 3 | "
              "15 0 12 6 / 4 8 17 5 / 10 2 3 19 / 13 11 14 7 / 18 9 1 16", 5),
    # 32 players, 10 rounds without a repeat (the social golfer 8-4-10, the most possible):
    # each misses only its partner 2k <-> 2k+1, so the 11th round that packing() adds meets
    # every pair. Found by a SAT solver on a smaller problem: swapping every player with
    # its partner maps each round onto itself, so a round is 16 partner pairs in 4 quads
    # plus which partner sits at the first table of each quad. Written out round by round.
    (32, 4): ((1,), 32, (0,),
              "0 2 4 6 / 8 10 12 14 / 16 18 20 22 / 24 26 28 30 / "
              "1 3 5 7 / 9 11 13 15 / 17 19 21 23 / 25 27 29 31 | "
              "0 11 22 25 / 3 12 17 26 / 5 14 21 31 / 7 8 19 29 / "
              "1 10 23 24 / 2 13 16 27 / 4 15 20 30 / 6 9 18 28 | "
              "0 5 8 24 / 2 14 17 20 / 11 12 28 31 / 6 19 22 27 / "
              "1 4 9 25 / 3 15 16 21 / 10 13 29 30 / 7 18 23 26 | "
              "0 13 14 23 / 6 8 20 31 / 11 17 24 27 / 2 5 19 28 / "
              "1 12 15 22 / 7 9 21 30 / 10 16 25 26 / 3 4 18 29 | "
              "0 12 20 29 / 7 15 17 25 / 3 10 19 31 / 4 8 22 26 / "
              "1 13 21 28 / 6 14 16 24 / 2 11 18 30 / 5 9 23 27 | "
              "0 10 18 21 / 9 14 26 29 / 4 16 23 31 / 3 6 13 25 / "
              "1 11 19 20 / 8 15 27 28 / 5 17 22 30 / 2 7 12 24 | "
              "0 7 16 28 / 15 18 24 31 / 2 9 10 22 / 4 12 21 27 / "
              "1 6 17 29 / 14 19 25 30 / 3 8 11 23 / 5 13 20 26 | "
              "0 9 17 31 / 4 13 19 24 / 6 11 21 26 / 3 14 22 28 / "
              "1 8 16 30 / 5 12 18 25 / 7 10 20 27 / 2 15 23 29 | "
              "0 3 27 30 / 21 22 24 29 / 8 13 17 18 / 4 7 11 14 / "
              "1 2 26 31 / 20 23 25 28 / 9 12 16 19 / 5 6 10 15 | "
              "0 15 19 26 / 5 11 16 29 / 6 12 23 30 / 2 8 21 25 / "
              "1 14 18 27 / 4 10 17 28 / 7 13 22 31 / 3 9 20 24", 10),
    # 24 players, 7 rounds without a repeat: each misses only the two others of its
    # triple {(0,x), (1,x), (2,x)} or {21, 22, 23} (a resolvable group divisible design of
    # type 3^8, 6-4-7). A base round over Z7 on three copies of Z7, plus three fixed points.
    (24, 4): ((7,), 3, range(7),
              "16 1 0 5 / 9 7 10 4 / 20 3 11 22 / 15 18 17 12 / 13 2 14 21 / 6 19 23 8", 7),
    # The same for 36 and 48 players (types 3^12 and 3^16: 9-4-11, 12-4-15), over Z11 and
    # Z15; each base round is also unchanged when the three copies (and the three fixed
    # points) are rotated, which let a SAT solver find it in a second.
    (36, 4): ((11,), 3, range(11),
              "0 2 26 32 / 1 14 17 18 / 4 10 11 13 / 3 6 7 23 / 12 25 28 29 / 5 20 30 33 / "
              "9 19 27 35 / 8 16 31 34 / 15 21 22 24", 11),
    (48, 4): ((15,), 3, range(15),
              "0 9 17 42 / 1 3 8 29 / 2 27 30 39 / 4 28 35 47 / 5 19 43 45 / 6 7 10 26 / "
              "14 31 33 38 / 11 36 37 40 / 21 22 25 41 / 12 15 24 32 / 13 20 34 46 / "
              "16 18 23 44", 15),
    # 60 players (type 3^20, 15-4-19) over Z19, found the same way in about 25 seconds.
    (60, 4): ((19,), 3, range(19),
              "0 31 39 57 / 44 48 51 53 / 14 21 49 55 / 3 23 46 47 / 5 16 26 56 / "
              "1 19 50 58 / 6 10 13 15 / 11 17 33 40 / 8 9 22 42 / 18 24 35 45 / "
              "12 20 38 59 / 25 29 32 34 / 2 30 36 52 / 4 27 28 41 / 7 37 43 54", 19),
    # 24 players at tables of 3: 11 rounds without a repeat, everyone missing one other
    # (a nearly Kirkman triple system, 8-3-11), over Z11 on two copies plus two points;
    # the base round is unchanged when the copies and the two points swap.
    (24, 3): ((11,), 2, range(11),
              "0 4 9 / 1 17 23 / 2 3 21 / 11 15 20 / 10 13 14 / 5 8 18 / 6 12 22 / "
              "7 16 19", 11),
    # The same for 36 and 48 players (12-3-17 over Z17, 16-3-23 over Z23; the second base
    # round is also unchanged when the copies and the two points swap).
    (36, 3): ((17,), 2, range(17),
              "0 1 3 / 2 6 17 / 4 9 27 / 5 11 19 / 7 14 33 / 8 16 29 / 12 24 34 / 10 26 30 / "
              "13 18 20 / 15 25 35 / 23 28 31 / 21 22 32", 17),
    (48, 3): ((23,), 2, range(23),
              "0 2 11 / 1 27 33 / 4 10 24 / 3 22 41 / 5 38 47 / 8 32 42 / 6 7 36 / 9 19 31 / "
              "35 40 43 / 16 37 44 / 18 26 45 / 13 29 30 / 12 17 20 / 15 28 46 / 14 21 39 / "
              "23 25 34", 23),
    # 30 and 42 players (10-3-14, 14-3-20) over Z14 and Z20 on two copies plus two points:
    # each player misses the one half-way round their own copy (or the other fixed point).
    (30, 3): ((14,), 2, range(14),
              "0 1 21 / 19 22 27 / 2 20 28 / 3 18 29 / 4 16 26 / 5 14 15 / 6 12 17 / "
              "7 11 24 / 8 10 13 / 9 23 25", 14),
    (42, 3): ((20,), 2, range(20),
              "0 1 3 / 2 6 13 / 4 9 20 / 5 11 31 / 7 15 25 / 8 23 30 / 10 22 34 / 12 26 37 / "
              "14 21 27 / 16 24 39 / 17 36 38 / 18 35 41 / 19 28 40 / 29 32 33", 20),
    # 54 players (18-3-26) over Z26 the same way: found by a SAT solver in about two minutes.
    (54, 3): ((26,), 2, range(26),
              "0 28 52 / 8 45 53 / 12 22 24 / 13 33 40 / 7 46 47 / 10 16 41 / 30 42 51 / 5 20 50 / "
              "4 36 39 / 6 11 29 / 1 44 48 / 14 21 43 / 3 27 37 / 23 38 49 / 2 25 35 / 15 19 31 / "
              "26 32 34 / 9 17 18", 26),
}

#: Kirkman triple systems built from one of a third the size (see ``_tripled``).
_TRIPLED = {(45, 3)}


def sizes() -> list[tuple[int, int]]:
    """(players, table size) of every shipped resolvable design beyond the affine planes."""
    return sorted({*_BASE, *_TRIPLED}, key=lambda key: (key[1], key[0]))


def packing_sizes() -> list[tuple[int, int]]:
    """(players, table size) of every shipped schedule without a resolvable design."""
    return sorted(_PACKINGS, key=lambda key: (key[1], key[0]))


def _tripled(v: int) -> list[list[list[int]]]:
    """KTS(3v) from KTS(v), v odd: three copies of the v players (point ``c*v + x`` is
    player x of copy c). The rounds of KTS(v), played in all three copies at once, seat
    every two players of one copy together once; then v more rounds, one per s in Z_v, seat
    x of copy 0 with x+s of copy 1 and x+2s of copy 2 (a resolvable transversal design
    over Z_v): two players of different copies meet in exactly one of those, because s is
    their difference (halved between copies 0 and 2, which needs v odd)."""
    small = resolvable(v, 3)
    if small is None or v % 2 == 0:
        raise AssertionError(f"no Kirkman triple system of {v} to triple")
    rounds = [[[c * v + x for x in t] for c in range(3) for t in tables] for tables in small]
    rounds += [[[x, v + (x + s) % v, 2 * v + (x + 2 * s) % v] for x in range(v)]
               for s in range(v)]
    return rounds


def _add(a: int, b: int, mods: tuple[int, ...]) -> int:
    """a + b in the group Z_m1 x Z_m2 x ..., elements numbered in mixed radix."""
    out, scale = 0, 1
    for m in reversed(mods):
        out += ((a % m + b % m) % m) * scale
        a, b, scale = a // m, b // m, scale * m
    return out


def _develop(mods: tuple[int, ...], copies: int, shifts: tuple[int, ...] | range,
             text: str) -> list[list[list[int]]]:
    """Every round: each base round with each translation added to its points."""
    order = 1
    for m in mods:
        order *= m
    fixed = copies * order
    rounds = []
    for base in text.split("|"):
        tables = [[int(p) for p in t.split()] for t in base.split("/")]
        for s in shifts:
            rounds.append([[p if p >= fixed else (p // order) * order + _add(p % order, s, mods)
                            for p in t] for t in tables])
    return rounds


@cache
def resolvable(n: int, size: int) -> list[list[list[int]]] | None:
    """The rounds of the shipped resolvable design for ``n`` players at tables of ``size``
    (points 0..n-1), checked pair by pair, or None when none is shipped."""
    if (n, size) in _TRIPLED:
        rounds = _tripled(n // 3)
    elif (n, size) in _BASE:
        rounds = _develop(*_BASE[n, size])
    else:
        return None
    if not is_resolvable(rounds, n, size):  # the data is fixed: this is a guard, not a branch
        raise AssertionError(f"the shipped design for {n} players is not exact")
    return rounds


@cache
def packing(n: int, size: int) -> list[list[list[int]]] | None:
    """The shipped rounds for ``n`` players at tables of ``size`` where no resolvable
    design exists (no pair twice in the first ones, the most such rounds known), checked,
    or None when none is shipped.

    Where every player misses exactly one other (a perfect matching of missed pairs) and
    tables seat 4, one more round seats two missed pairs at every table: then every pair
    has met, and none more than twice.

    >>> len(packing(20, 4)), len(packing(24, 4)), packing(12, 4)
    (7, 7, None)
    """
    if (n, size) not in _PACKINGS:
        return None
    *data, free = _PACKINGS[n, size]
    rounds = _develop(*data)
    met: set[tuple[int, int]] = set()
    for r, tables in enumerate(rounds):
        if sorted(p for t in tables for p in t) != list(range(n)):
            raise AssertionError(f"the shipped rounds for {n} players are not rounds")
        for t in tables:
            for pair in combinations(sorted(t), 2):
                if pair in met and r < free:
                    raise AssertionError(f"the shipped rounds for {n} players repeat a pair")
                met.add(pair)
    missed = [(a, b) for a in range(n) for b in range(a + 1, n) if (a, b) not in met]
    if (free == len(rounds) and size == 4
            and len({p for pair in missed for p in pair}) == n == 2 * len(missed)):
        rounds.append([[*missed[i], *missed[i + 1]] for i in range(0, len(missed), 2)])
    return rounds


def is_resolvable(rounds: list[list[list[int]]], n: int, size: int) -> bool:
    """Every round seats each of 0..n-1 once at tables of ``size``, and every two players
    share exactly one table over all the rounds."""
    met: set[tuple[int, int]] = set()
    for tables in rounds:
        if sorted(p for t in tables for p in t) != list(range(n)):
            return False
        for t in tables:
            if len(t) != size:
                return False
            for pair in combinations(sorted(t), 2):
                if pair in met:
                    return False
                met.add(pair)
    return len(met) == n * (n - 1) // 2
