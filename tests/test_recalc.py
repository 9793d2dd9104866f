"""MJ_SETTLE's recalculation: a block settles again only where it changed, and always gives
what a full settlement of the block gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.addin import udfs
from umaoka.addin.functions import cells as cells_fns
from umaoka.addin.functions import settle as settle_fns
from umaoka.addin.functions import standings as standings_fns
from umaoka.addin.functions.recalc import Blocks
from umaoka.addin.udfs import MJ_SETTLE

GOOD = [[35700.0, 32400.0, 22200.0, 9700.0], [32000.0, 32000.0, 20000.0, 16000.0],
        [25000.0, 25000.0, 25000.0, 25000.0]]


@pytest.fixture(autouse=True)
def fresh_caches():
    for cache in (settle_fns._BLOCKS, settle_fns._SETTLED):
        cache.items.clear()
    yield
    for cache in (settle_fns._BLOCKS, settle_fns._SETTLED):
        cache.items.clear()


def uncached(*args):
    """MJ_SETTLE as it settles anything but a block of plain cells, row by row, with no
    caches at all: the reference."""
    size, saved = settle_fns._SETTLED.size, dict(settle_fns._SETTLED.items)
    real = settle_fns._changed_rows
    try:
        settle_fns._SETTLED.size = 0
        settle_fns._changed_rows = lambda *a: None
        return MJ_SETTLE(*args)
    finally:
        settle_fns._changed_rows = real
        settle_fns._SETTLED.size = size
        settle_fns._SETTLED.items.clear()
        settle_fns._SETTLED.items.update(saved)


def test_one_changed_row_is_the_only_one_settled_again(monkeypatch):
    block = [list(r) for r in GOOD * 3]
    assert MJ_SETTLE(block, "mleague") == uncached(block, "mleague")
    calls = []
    real = settle_fns.settle
    monkeypatch.setattr(settle_fns, "settle", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    # the key holds the engine's settle: patched, it is a new engine; settle once to remember
    MJ_SETTLE(block, "mleague")
    calls.clear()
    block = [list(r) for r in block]
    block[4] = [36700.0, 31400.0, 22200.0, 9700.0]
    got = MJ_SETTLE(block, "mleague")
    assert calls == [[36700, 31400, 22200, 9700]]
    assert got == uncached(block, "mleague")


def test_a_row_changed_in_place_after_the_call_is_seen():
    block = [list(r) for r in GOOD]
    MJ_SETTLE(block, "standard")
    block[0][0], block[0][1] = 36700.0, 31400.0  # the same list objects, new values
    assert MJ_SETTLE(block, "standard") == uncached(block, "standard")


def test_true_is_not_taken_for_one():
    block = [[1.0, 2.0, 3.0, 99994.0], [35700.0, 32400.0, 22200.0, 9700.0]]
    MJ_SETTLE(block)
    changed = [[True, 2.0, 3.0, 99994.0], block[1]]
    got = MJ_SETTLE(changed)
    assert got == uncached(changed)
    assert "TRUE" in got[0][0]


def test_returned_rows_are_the_callers():
    block = [list(r) for r in GOOD]
    first = MJ_SETTLE(block)
    first[0][0] = "scribbled"
    assert MJ_SETTLE([list(r) for r in block]) == uncached(block)


def test_ruleset_deposits_and_penalties_are_part_of_what_changed():
    block = [list(r) for r in GOOD]
    deposits = [[None], [1000.0], [None]]
    penalties = [[None] * 4, [None] * 4, [-20.0, None, None, None]]
    for args in ((block, "standard"), (block, "mleague"), (block, "mleague", [[2000.0]]),
                 (block, "mleague", deposits), (block, "mleague", deposits, penalties)):
        assert MJ_SETTLE(*args) == uncached(*args)
    deposits[0] = [2000.0]
    penalties[1] = [None, -10.0, None, None]
    assert MJ_SETTLE(block, "mleague", deposits, penalties) == uncached(
        block, "mleague", deposits, penalties)
    assert MJ_SETTLE(block, "mleague", [[1000.0]]) == uncached(block, "mleague", [[1000.0]])


def test_bad_shapes_still_get_their_one_sentence():
    block = [list(r) for r in GOOD]
    with pytest.raises(udfs.UmaokaExcelError, match="deposits has 2 cells"):
        MJ_SETTLE(block, None, [[0.0], [0.0]])
    with pytest.raises(udfs.UmaokaExcelError, match="penalties has 2 rows"):
        MJ_SETTLE(block, None, None, [[0.0] * 4, [0.0] * 4])


def test_the_number_of_blocks_kept_is_bounded():
    blocks = Blocks(size=2)
    for n in range(2, 7):
        rows = [[i] for i in range(n)]
        assert blocks.rows("k", (rows,), lambda i, rows=rows: [rows[i][0] * 2]) == [
            [2 * i] for i in range(n)]
    assert len(blocks.items) == 2


cell = st.one_of(
    st.sampled_from([None, "", 0.0, 25000.0, 35700.0, 9700.0, 22200.0, 32400.0, 30000.0,
                     20000.0, 10000.0, 40000.0, True, False, "x", "25,000", float("nan"),
                     25000, -5000.0]),
    st.integers(-100, 1000).map(lambda n: n * 100.0))


@settings(max_examples=120, deadline=None)
@given(rows=st.lists(st.lists(cell, min_size=4, max_size=4), min_size=2, max_size=8),
       edits=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 3), cell), max_size=6),
       rules=st.sampled_from([None, "mleague", "tenhou-classic", "ema"]),
       deposit=st.sampled_from([None, [[1000.0]], "column"]))
def test_any_edits_give_what_a_full_settlement_gives(rows, edits, rules, deposit):
    deposits = ([[1000.0 * (i % 2)] for i in range(len(rows))] if deposit == "column"
                else deposit)

    def both(block):
        try:
            want = uncached(block, rules, deposits)
        except udfs.UmaokaExcelError as e:
            want = str(e)
        try:
            got = MJ_SETTLE(block, rules, deposits)
        except udfs.UmaokaExcelError as e:
            got = str(e)
        assert repr(got) == repr(want)  # repr: nan-safe, and 1 and 1.0 and True differ

    block = [list(r) for r in rows]
    both(block)
    for row, seat, value in edits:
        block = [list(r) for r in block]
        block[row % len(block)][seat] = value
        both(block)


# ------------------------------------------------------------------------------------------------
# MJ_STANDINGS: the games it read last are checked again only where a row changed.


def standings_uncached(*args):
    """MJ_STANDINGS as it counts anything but a block of plain cells: the reference."""
    real = standings_fns._standings_block
    try:
        standings_fns._standings_block = lambda *a: None
        return udfs.MJ_STANDINGS(*args)
    finally:
        standings_fns._standings_block = real


def same_standings(names, finals):
    """MJ_STANDINGS (with what it remembers) gives the full count's table or sentence."""

    def answer(function):
        try:
            return repr(function(names, finals))
        except udfs.UmaokaExcelError as e:
            return repr(str(e))

    assert answer(udfs.MJ_STANDINGS) == answer(standings_uncached)


name = st.sampled_from(["Aki", "Ben", "Chie", "Dan", "Emi", " Aki", "", None, 7.0, True])
final = st.sampled_from([None, "", 45.7, 12.0, -18, -40.0, 0.0, 30.5, "x", True, "12.5",
                         float("nan"), -0.0, 45.7])


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.permutations(["Aki", "Ben", "Chie", "Dan"]),
                               st.lists(st.integers(-60, 60).map(lambda n: n / 2),
                                        min_size=4, max_size=4)), min_size=2, max_size=8),
       edits=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 3), st.booleans(),
                                st.one_of(name, final)), max_size=5))
def test_standings_after_any_edits_are_what_a_full_count_gives(rows, edits):
    names = [list(n) for n, _ in rows]
    finals = [list(f) for _, f in rows]

    same_standings(names, finals)
    for row, seat, is_name, value in edits:
        names, finals = [list(r) for r in names], [list(r) for r in finals]
        (names if is_name else finals)[row % len(names)][seat] = value
        same_standings(names, finals)


def test_standings_block_checks_only_the_changed_game(monkeypatch):
    names = [["Aki", "Ben", "Chie", "Dan"], ["Ben", "Aki", "Dan", "Chie"]] * 3
    finals = [[46.0, 12.0, -18.0, -40.0], [32.0, 32.0, -20.0, -44.0]] * 3
    want = standings_uncached(names, finals)
    assert udfs.MJ_STANDINGS(names, finals) == want
    seen = []
    real = standings_fns.standings_line
    monkeypatch.setattr(standings_fns, "standings_line", lambda g, i: seen.append(g) or real(g, i))
    udfs.MJ_STANDINGS(names, finals)  # a new checker is a new key: remembered from here
    seen.clear()
    finals = [list(r) for r in finals]
    finals[3] = [42.0, 22.0, -20.0, -44.0]
    got = udfs.MJ_STANDINGS(names, finals)
    assert seen == [(["Ben", "Aki", "Dan", "Chie"], [42, 22, -20, -44])]
    assert got == standings_uncached(names, finals) != want


cell = st.one_of(name, final, st.integers(-90, 90).map(lambda n: n / 4),
                 st.sampled_from(["Fumi", "Goro", 1e300, float("inf"), 12, 10**30]))


def test_quick_lines_leave_a_row_with_an_odd_cell_to_the_full_check():
    """A cell no worksheet holds (a dict, say) leaves its row to standings_line; the
    others are read quickly as ever."""
    from umaoka.engine.standings import quick_lines

    good = (["Aki", "Ben", "Chie", "Dan"], [12.0, 8.0, -5.0, -15.0])
    for odd_names, odd_finals in [(["Aki", {"x": 1}, "Chie", "Dan"], good[1]),
                                  (good[0], [12.0, {"x": 1}, -5.0, -15.0])]:
        got = quick_lines([odd_names, good[0]], [odd_finals, good[1]])
        assert got[0] is None and got[1] is not None and got[1][2] == (1, 2, 3, 4)


@settings(max_examples=200, deadline=None)
@given(width=st.integers(3, 4), data=st.data())
def test_quick_lines_are_what_standings_line_makes(width, data):
    """The first call's quick path gives each common game exactly standings_line's line
    (the same names, Decimals written the same way, places), and leaves every other row
    to the full check."""
    from umaoka.engine.standings import quick_lines, standings_line

    rows = data.draw(st.lists(st.tuples(
        st.one_of(st.permutations(["Aki", "Ben", "Chie", "Dan"][:width]),
                  st.lists(cell, min_size=width, max_size=width)),
        st.lists(cell, min_size=width, max_size=width)), min_size=1, max_size=6))
    names, finals = [list(n) for n, _ in rows], [list(f) for _, f in rows]
    for i, quick in enumerate(quick_lines(names, finals)):
        if quick is None:
            continue
        want = standings_line(([cells_fns._cell(v) for v in names[i]],
                               [cells_fns._cell(v) for v in finals[i]]), 1)
        assert repr(quick) == repr(want)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.one_of(st.permutations(["Aki", "Ben", "Chie", "Dan"]),
                                         st.lists(name, min_size=4, max_size=4)),
                               st.lists(cell, min_size=4, max_size=4)),
                     min_size=2, max_size=8))
def test_standings_first_call_of_any_block_is_what_a_full_count_gives(rows):
    standings_fns._LINES.items.clear()
    same_standings([list(n) for n, _ in rows], [list(f) for _, f in rows])


def tally_seat_by_seat(lines, rule="better"):
    """The standings counted one seat at a time, the plainest way: the reference. A seat
    tied with others covers the places from its own (1 + how many finished higher) to
    1 + how many finished higher or level, minus 1; ``rule`` counts it as the first of
    them (better), the last (worse) or a share of each (split); last = the game's size."""
    from decimal import Decimal
    from fractions import Fraction

    seen: dict[str, list] = {}
    for names, finals, places in lines:
        for name, f, p in zip(names, finals, places):
            lo, hi = p, sum(q <= p for q in places)
            covered = {"better": [lo], "worse": [hi], "split": list(range(lo, hi + 1))}[rule]
            shares = {k: Fraction(1, len(covered)) for k in covered}
            seen.setdefault(name, []).append((f, shares, shares.get(len(places), 0)))
    size = max(len(n) for n, _, _ in lines)

    def count(c):
        return int(c) if c.denominator == 1 else Decimal(c.numerator) / c.denominator

    out = {}
    for name, games in seen.items():
        fs = [f for f, _, _ in games]
        out[name] = (len(games), sum(fs, Decimal(0)), max(fs), min(fs),
                     [count(sum((s.get(k, 0) for _, s, _ in games), Fraction(0)))
                      for k in range(1, max(size, 3) + 1)],
                     sum(k * share for _, s, _ in games for k, share in s.items()),
                     sum(last for _, _, last in games))
    return out


@settings(max_examples=200, deadline=None)
@given(games=st.lists(st.tuples(
    st.sampled_from([3, 4]), st.permutations(["Aki", "Ben", "Chie", "Dan", "Emi"]),
    st.lists(st.integers(-4, 4), min_size=4, max_size=4)), min_size=1, max_size=12))
def test_tally_counts_what_a_seat_by_seat_count_gives(games):
    """Ties for last (counted by each shared-place rule), three-player games among
    four-player ones, players in only some games."""
    from decimal import Decimal
    from fractions import Fraction

    from umaoka.engine.standings import _places_from_finals, tally

    lines = []
    for size, people, points in games:
        finals = [Decimal(p) / 2 for p in points[:size]]
        lines.append((list(people[:size]), finals, _places_from_finals(finals)))
    for rule in ("better", "worse", "split"):
        rows = tally(lines, shared_place=rule)
        got = {p.name: (p.games, p.total, p.best, p.worst) for p in rows}
        want = tally_seat_by_seat(lines, rule)
        assert got == {n: w[:4] for n, w in want.items()}
        for p in rows:
            games_, _, _, _, counts, place_sum, lasts = want[p.name]
            # split counts are shown to 0.01
            assert [Decimal(c) for c in p.places] == [
                Decimal(c).quantize(Decimal("0.01"), "ROUND_HALF_UP") for c in counts]
            avg, avoid = Fraction(place_sum) / games_, 1 - Fraction(lasts) / games_
            assert p.average_place == (Decimal(avg.numerator) / avg.denominator).quantize(
                Decimal("0.01"), "ROUND_HALF_UP")
            assert p.last_avoid_rate == (Decimal(avoid.numerator) / avoid.denominator
                                         ).quantize(Decimal("0.0001"), "ROUND_HALF_UP")
