"""settle_many gives what settle gives, game by game: finals, places, every step, errors."""

from __future__ import annotations

import math
from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import rulesets

from umaoka.engine import CHOICES, PRESETS, Ruleset, UmaokaError, ruleset, settle, settle_many

ROUNDINGS = CHOICES["rounding"]


def one(game, rules, dep=0, pen=None):
    try:
        return settle(game, rules, dep, pen)
    except UmaokaError as e:
        return e


def same(got, want):
    if isinstance(want, UmaokaError):
        assert isinstance(got, UmaokaError) and str(got) == str(want)
    else:
        assert got.explain() == want.explain()
        assert (got.final, got.places, got.order) == (want.final, want.places, want.order)


@st.composite
def any_rules(draw):
    if draw(st.booleans()):
        return ruleset(draw(st.sampled_from(sorted(PRESETS))))
    r = draw(rulesets())
    fields = {k: getattr(r, k) for k in ("players", "start", "target", "oka", "uma", "floating",
                                          "adjust", "leftover")}
    for key in ("rounding", "ties", "adjust", "round_on"):
        fields[key] = draw(st.sampled_from(CHOICES[key]))
    try:
        return Ruleset(**fields)
    except (UmaokaError, TypeError, ValueError):
        return r


odd = st.sampled_from([None, "", "x", True, False, math.nan, math.inf, 25000.0, 25050, 1e30,
                       10**13, "25,000", D("25000"), [1]])


@st.composite
def game(draw, rules):
    n = rules.players
    total = rules.start * n // 100
    cuts = sorted(draw(st.lists(st.integers(-100, total + 100), min_size=n - 1, max_size=n - 1)))
    parts = [(b - a) * 100 for a, b in zip([0, *cuts], [*cuts, total])]
    kind = draw(st.sampled_from(["good", "good", "tie", "ties", "odd", "short", "off"]))
    if kind == "tie":
        parts[1] = parts[0]
        parts[-1] = rules.start * n - sum(parts[:-1])
    elif kind == "ties":  # three or four tied players, or two pairs
        how = draw(st.sampled_from(["all", "three", "pairs"]))
        if how == "all":
            parts = [rules.start] * n
        elif how == "three" or n == 3:
            parts[1] = parts[2] = parts[0]
            parts[-1] = rules.start * n - sum(parts[:-1])
        else:
            a = parts[0]
            parts = [a, 2 * rules.start - a, a, 2 * rules.start - a]
    elif kind == "odd":
        parts[draw(st.integers(0, n - 1))] = draw(odd)
    elif kind == "short":
        parts = parts[:-1]
    elif kind == "off":
        parts[0] += 1000
    return draw(st.sampled_from([list, tuple]))(parts)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_settle_many_is_settle_game_by_game(data):
    rules = data.draw(any_rules())
    count = data.draw(st.integers(1, 8))
    games = [data.draw(game(rules)) for _ in range(count)]
    deposits = data.draw(st.one_of(st.none(), st.lists(
        st.sampled_from([0, 0, 1000, 2000, 150, -1000, None]), min_size=count, max_size=count)))
    penalties = data.draw(st.one_of(st.none(), st.lists(
        st.one_of(st.none(), st.lists(st.sampled_from([0, -20, None, 5.5]),
                                      min_size=rules.players, max_size=rules.players)),
        min_size=count, max_size=count)))
    got = settle_many(games, rules, deposits, penalties)
    finals = got.finals()
    assert len(got) == len(finals) == count
    for i, g in enumerate(games):
        want = one(g, rules, 0 if deposits is None else deposits[i],
                   None if penalties is None else penalties[i])
        same(got[i], want)
        if isinstance(want, UmaokaError):
            assert str(finals[i]) == str(want)
        else:
            assert finals[i] == want.final
            assert [str(x) for x in finals[i]] == [str(x) for x in want.final]


def test_a_bad_game_does_not_stop_the_others():
    got = settle_many([[35700, 32400, 22200, 9700], ["x", 1, 2, 3], [25000] * 4], "mleague")
    finals = got.finals()
    assert finals[0] == settle([35700, 32400, 22200, 9700], "mleague").final
    assert isinstance(finals[1], UmaokaError) and "score 1" in str(finals[1])
    assert finals[2] == settle([25000] * 4, "mleague").final
    assert got[-1].final == finals[2]
    assert [s.final for s in got[0:3:2]] == [finals[0], finals[2]]


def test_wrong_numbers_of_deposits_or_penalties_say_so():
    import pytest
    with pytest.raises(UmaokaError, match="deposits has 1 values but there are 2 games"):
        settle_many([[25000] * 4] * 2, deposits=[0])
    with pytest.raises(UmaokaError, match="penalties has 3 rows but there are 2 games"):
        settle_many([[25000] * 4] * 2, penalties=[None] * 3)
