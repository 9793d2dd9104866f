"""Symmetric roundings, round_on=raw, ties=split_uma and tenhou-classic, everywhere a
ruleset appears: engine, ruleset texts, shortcut, Excel functions (Office.js path), the
command line, the rules sheet and `umaoka settle` of a workbook older than round_on."""

from __future__ import annotations

import itertools
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from test_officejs import call
from test_properties import games, zero_sum_uma

from umaoka.addin.cli.app import main
from umaoka.engine import CHOICES, PRESETS, Ruleset, UmaokaError, offsets, rank, ruleset, settle
from umaoka.engine.settle import TRANSLATION_INVARIANT, _round
from umaoka.engine.shortcut import shortcut, shortcut_problem
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.build import LeagueCols, build_workbook
from umaoka.templates.settle_book import read_book, settle_file, write_settled
from umaoka.templates.xlsx.io import save_workbook

TENHOU_GAME = [47400, 31600, 24500, -3500]
NEW_ROUNDINGS = ["half_toward_zero", "half_away_from_zero", "toward_zero"]
ALL_ROUNDINGS = list(CHOICES["rounding"])


def finals(scores: list[int], rules: Any, deposits: int = 0) -> list[str]:
    return [str(v) for v in settle(scores, rules, deposits).final]


def rounded(scores: list[int], rules: Any) -> list[str]:
    return [str(v) for v in settle(scores, rules).rounded]


# ------------------------------------------------------------------------------------------------
# The roundings on worked examples (uma 0 and adjust none, so the rounded values show as is)

NO_BONUS = "uma=0/0/0/0 adjust=none"
HALVES = [40500, 19500, 20000, 20000]  # base +10.5, -10.5, -10, -10
SEVENS = [40700, 19300, 20000, 20000]  # base +10.7, -10.7, -10, -10


@pytest.mark.parametrize("mode, halves, sevens", [
    # 五捨六入: .5 goes toward minus infinity on both sides
    ("half_down", ["10", "-11", "-10", "-10"], ["11", "-11", "-10", "-10"]),
    # 四捨五入 as calculators apply it to the difference: .5 toward plus infinity
    ("half_up", ["11", "-10", "-10", "-10"], ["11", "-11", "-10", "-10"]),
    # symmetric 五捨六入 (MahjongRepository/ronin): .5 toward zero, -10.5 -> -10
    ("half_toward_zero", ["10", "-10", "-10", "-10"], ["11", "-11", "-10", "-10"]),
    # symmetric 四捨五入 (Excel's ROUND): .5 away from zero, -10.5 -> -11
    ("half_away_from_zero", ["11", "-11", "-10", "-10"], ["11", "-11", "-10", "-10"]),
    # truncation: the fraction is dropped, -10.7 -> -10 (floor would give -11)
    ("toward_zero", ["10", "-10", "-10", "-10"], ["10", "-10", "-10", "-10"]),
    ("floor", ["10", "-11", "-10", "-10"], ["10", "-11", "-10", "-10"]),
    ("ceil", ["11", "-10", "-10", "-10"], ["11", "-10", "-10", "-10"]),
])
def test_each_rounding_on_halves_and_fractions(mode: str, halves: list[str],
                                               sevens: list[str]) -> None:
    assert rounded(HALVES, f"{NO_BONUS} rounding={mode}") == halves
    assert rounded(SEVENS, f"{NO_BONUS} rounding={mode}") == sevens


def test_round_helper_in_tenths() -> None:
    # -10.5 is -105 tenths: toward zero -10, away from zero -11; the old modes unchanged
    assert _round(-105, "half_toward_zero") == -100
    assert _round(-105, "half_away_from_zero") == -110
    assert _round(105, "half_toward_zero") == 100
    assert _round(105, "half_away_from_zero") == 110
    assert _round(-75, "half_down") == -80 and _round(-75, "half_up") == -70
    assert _round(-107, "toward_zero") == -100 and _round(107, "toward_zero") == 100
    assert _round(-107, "floor") == -110 and _round(-103, "ceil") == -100
    assert _round(-105, "none") == -105


def test_symmetric_roundings_keep_the_zero_sum_through_the_adjust_player() -> None:
    # 40,500/19,500/20,000/20,000 with oka: base +10.5 -10.5 -10 -10 (sum -20 = -oka).
    # half_away_from_zero rounds to 11 -11 -10 -10: no error, 1st needs no adjustment.
    # Places: East 1st, West 2nd and North 3rd (equal, seat order), South 4th.
    g = settle(HALVES, "rounding=half_away_from_zero")
    assert [str(v) for v in g.adjustment] == ["0", "0", "0", "0"]
    assert [str(v) for v in g.final] == ["51", "-31", "0", "-20"]
    # toward_zero on SEVENS: 10 -10 -10 -10 sums to -20 too
    assert finals(SEVENS, "rounding=toward_zero") == ["50", "-30", "0", "-20"]
    # half_toward_zero on the Tenhou game's -33.5: -33, and 1st absorbs the +1
    g = settle(TENHOU_GAME, "rounding=half_toward_zero")
    assert [str(v) for v in g.rounded] == ["17", "2", "-5", "-33"]
    assert [str(v) for v in g.final] == ["56", "12", "-15", "-53"]
    assert sum(g.final) == 0


# ------------------------------------------------------------------------------------------------
# The worked examples everyone knows still come out as stated


def test_classic_worked_examples() -> None:
    assert finals([35700, 32400, 22200, 9700], "standard") == ["46", "12", "-18", "-40"]
    assert finals([45000, 33000, 18000, 4000], "uma=10-20") == ["55", "13", "-22", "-46"]
    # no uma, half_up, winner takes the rest: A +33, B -15, C -15, D -3
    assert finals([43600, 14500, 15400, 26500], "uma=0/0/0/0 rounding=half_up") == \
        ["33", "-15", "-15", "-3"]
    assert finals([30000, 30000, 30000, 10000], "mleague") == ["16.8", "16.6", "16.6", "-50.0"]


# ------------------------------------------------------------------------------------------------
# round_on=raw and Tenhou's integer era


def test_tenhou_integer_era_examples() -> None:
    g = settle(TENHOU_GAME, "tenhou-classic")
    # -3,500 raw rounds away from zero to -4,000: -4 - 30 = -34, and 4th's uma -20 -> -54.
    # 24,500 rounds to 25,000: 25 - 30 = -5 (rounding -5.5 itself would give -6).
    assert [str(v) for v in g.rounded] == ["17", "2", "-5", "-34"]
    assert [str(v) for v in g.final] == ["57", "12", "-15", "-54"]
    assert g.raw_rounded == (47000, 32000, 25000, -4000)
    # The old reading (half_up on the difference) gave -33 and -53 for the last place.
    assert finals(TENHOU_GAME, "tenhou; rounding=half_up") == ["56", "12", "-15", "-53"]
    # half_away_from_zero on the difference gives -6 for 24,500, not Tenhou's -5.
    assert rounded(TENHOU_GAME, "rounding=half_away_from_zero")[2] == "-6"


def test_tenhou_classic_preset() -> None:
    r = ruleset("tenhou-classic")
    assert (r.rounding, r.round_on, r.uma_text, r.start, r.target) == \
        ("half_away_from_zero", "raw", "20/10/-10/-20", 25000, 30000)
    assert "seeds" not in PRESETS["tenhou-classic"].source.lower()
    assert "-34" in PRESETS["tenhou-classic"].description


def test_round_on_raw_with_a_target_that_is_not_a_whole_thousand() -> None:
    # target 30,500: 35,700 rounds to 36,000 first, then 30.5 comes off -> +5.5;
    # rounding the difference 5.2 instead gives +5.
    rules = "start=25500 target=30500 uma=0/0/0/0 adjust=none"
    g = settle([35700, 32400, 22200, 11700], rules + " round_on=raw")
    assert [str(v) for v in g.rounded] == ["5.5", "1.5", "-8.5", "-18.5"]
    assert rounded([35700, 32400, 22200, 11700], rules) == ["5", "2", "-8", "-19"]


def test_round_on_raw_differs_for_negative_scores_under_half_down() -> None:
    # half_down on raw -3,500 -> -4,000 -> -34; on the difference -33.5 -> -34 too;
    # but raw -2,500 -> -3,000 -> -33 while the difference -32.5 -> -33: equal. Positive
    # 29,500 -> 29,000 -> -1 and -0.5 -> -1: equal (half_down is translation-invariant).
    for score in (-3500, -2500, 29500, 24500):
        a = settle([score, 50000, 25000, 100000 - 75000 - score], "round_on=raw")
        b = settle([score, 50000, 25000, 100000 - 75000 - score], "standard")
        assert a.rounded[0] == b.rounded[0]


def test_round_on_explained() -> None:
    g = settle(TENHOU_GAME, "tenhou-classic")
    rows = g.explain()
    assert rows[0] == ["Seat", "Raw", "Deposits", "Place", "Base", "Raw rounded", "Rounded",
                       "Adjustment", "Oka", "Uma", "Penalty", "Final"]
    assert rows[3][1:7] == [24500, 0, 3, D("-5.5"), 25000, D(-5)]
    step4 = g.steps()[3]
    assert step4.startswith("4. Rounding of the raw points to the thousand, .5 away from zero "
                            "(half_away_from_zero), then 30 taken off:")
    assert "West 24,500 -> 25 - 30 = -5" in step4 and "North -3,500 -> -4 - 30 = -34" in step4
    # round_on=difference keeps the usual columns and says what it rounds
    plain = settle(TENHOU_GAME, "rounding=half_toward_zero")
    assert "Raw rounded" not in plain.explain()[0]
    assert plain.steps()[3] == ("4. Rounding of the base values: half_toward_zero, .5 toward "
                                "zero: -10.5 -> -10, +10.5 -> +10.")
    # rounding=none: round_on changes nothing and the explanation has no extra column
    exact = settle(TENHOU_GAME, "tenhou; round_on=raw")
    assert exact.final == settle(TENHOU_GAME, "tenhou").final
    assert exact.raw_rounded is None and exact.steps()[3] == "4. Rounding: none, exact to 0.1."


def test_deposits_are_rounded_with_the_raw_points() -> None:
    # 1st's 46,900 + a 1,000 stick = 47,900 -> 48,000 -> +18 before uma and oka
    g = settle([46900, 31600, 24500, -4000], "tenhou-classic", deposits=1000)
    assert g.raw_rounded[0] == 48000 and str(g.rounded[0]) == "18"
    assert sum(g.final) == 0


# ------------------------------------------------------------------------------------------------
# ties=split_uma


def test_split_uma_tie_for_first() -> None:
    # South and North tie for 1st on 35,000: they share the uma of 1st and 2nd (20 + 10)
    # = 15 each; the oka (20) goes whole to South, the earlier seat.
    scores = [10000, 35000, 20000, 35000]
    g = settle(scores, "standard; ties=split_uma")
    assert g.places == (4, 1, 3, 1)
    assert [str(v) for v in g.oka] == ["0", "20", "0", "0"]
    assert [str(v) for v in g.uma] == ["-20", "15", "-10", "15"]
    assert [str(v) for v in g.final] == ["-40", "40", "-20", "20"]
    # ties=split shares the oka too (25 each); ties=seat gives South 1st outright
    assert finals(scores, "standard; ties=split") == ["-40", "30", "-20", "30"]
    assert finals(scores, "standard") == ["-40", "45", "-20", "15"]


def test_split_uma_m_league_three_way_tie() -> None:
    # uma 30 + 10 - 10 = 30 shared three ways (10 each); the oka 20 to East alone
    assert finals([30000, 30000, 30000, 10000], "mleague; ties=split_uma") == \
        ["30.0", "10.0", "10.0", "-50.0"]


def test_split_uma_remainder_goes_to_the_earliest_seat() -> None:
    # three tied for 2nd-4th share 10 - 10 - 20 = -20: floor share -7 each, the rest
    # (+1) to the earliest seat, South: -6, -7, -7
    g = settle([70000, 10000, 10000, 10000], "standard; ties=split_uma")
    assert [str(v) for v in g.uma] == ["20", "-6", "-7", "-7"]
    assert [str(v) for v in g.final] == ["80", "-26", "-27", "-27"]


def test_split_uma_deposits_are_shared_by_players_tied_for_first() -> None:
    # 1,000 in deposits split 500/500; the oka only to East; uma (30 + 10) / 2 = 20 each
    g = settle([35000, 35000, 20000, 9000], "mleague; ties=split_uma", deposits=1000)
    assert g.deposit_shares == (500, 500, 0, 0)
    assert [str(v) for v in g.final] == ["45.5", "25.5", "-20.0", "-51.0"]
    assert "tied players share the uma, the oka goes to the earliest seat" in g.steps()[5]


def test_split_uma_ranks_like_split() -> None:
    assert rank([35000, 35000, 20000, 10000], "ties=split_uma") == (1, 1, 3, 4)


# ------------------------------------------------------------------------------------------------
# Writing the new options: texts, aliases, old texts


@pytest.mark.parametrize("text, field, value", [
    ("rounding=half-away-from-zero", "rounding", "half_away_from_zero"),
    ("rounding=Half Toward Zero", "rounding", "half_toward_zero"),
    ("rounding=絶対値で四捨五入", "rounding", "half_away_from_zero"),
    ("rounding=絶対値で五捨六入", "rounding", "half_toward_zero"),
    ("rounding=0への丸め", "rounding", "toward_zero"),
    ("rounding=trunc", "rounding", "toward_zero"),
    ("rounding=負の無限大への丸め", "rounding", "floor"),
    # the traditional words keep their meaning
    ("rounding=五捨六入", "rounding", "half_down"),
    ("rounding=四捨五入", "rounding", "half_up"),
    ("rounding=切り捨て", "rounding", "floor"),
    ("round_on=RAW", "round_on", "raw"),
    ("roundon=diff", "round_on", "difference"),
    ("ties=split-uma", "ties", "split_uma"),
    ("ties=equalize_uma", "ties", "split_uma"),
])
def test_aliases(text: str, field: str, value: str) -> None:
    assert getattr(ruleset(text), field) == value


def test_aliases_in_a_key_value_table() -> None:
    # a rules range may spell the key with a space and the value in Japanese (素点 = raw score)
    assert ruleset([["round on", "素点"], ["Ties", "Split UMA"]]).round_on == "raw"


def test_unknown_values_list_the_new_choices() -> None:
    with pytest.raises(UmaokaError, match='round_on cannot be "rwa"; use one of difference, '
                       'raw. Did you mean "raw"?'):
        ruleset("round_on=rwa")
    with pytest.raises(UmaokaError, match="use one of seat, split, split_uma"):
        ruleset("ties=shared")
    with pytest.raises(UmaokaError, match="toward_zero"):
        ruleset("rounding=bankers")
    with pytest.raises(UmaokaError, match="round_on"):
        Ruleset(round_on="both")


def test_old_rule_texts_read_round_on_as_difference() -> None:
    old = "players=4 start=25000 target=30000 oka=on uma=20/10/-10/-20 floating=off " \
          "rounding=half_up adjust=first ties=seat leftover=first"
    r = ruleset(old)
    assert r.round_on == "difference"
    assert ruleset(r.text()) == r and "round_on=difference" in r.text()
    assert ruleset([["rounding", "half_up"], ["ties", "split"]]).round_on == "difference"
    assert ruleset({"round_on": "raw"}).round_on == "raw"


# ------------------------------------------------------------------------------------------------
# The shortcut: where final = round(raw/1000) + offset[place] holds


def test_shortcut_holds_for_tenhou_classic() -> None:
    sc = shortcut("tenhou-classic", TENHOU_GAME)
    assert [row[-1] for row in sc.table()[1:]] == [D(10), D(-20), D(-40), D(-50)]
    assert [row[2] for row in sc.table()[1:]] == [47000, 32000, 25000, -4000]


@pytest.mark.parametrize("spec, words", [
    ("rounding=half_away_from_zero", "(29,500 settles as -1 + uma, the shortcut gives 30 - 30 = 0)"),
    ("rounding=half_toward_zero", "(29,500 settles as 0 + uma, the shortcut gives 29 - 30 = -1)"),
    ("rounding=toward_zero", "(29,900 settles as 0 + uma, the shortcut gives 29 - 30 = -1)"),
    ("start=25500 target=30500", "target 30,500 with round_on=difference"),
    ("oka=off start=27500 target=27500", "start (oka off) 27,500"),
])
def test_shortcut_refused_where_it_does_not_hold(spec: str, words: str) -> None:
    problem = shortcut_problem(spec)
    assert problem and words in problem and "set round_on=raw" in problem
    with pytest.raises(UmaokaError) as err:
        shortcut(spec)
    assert str(err.value) == problem and "\n" not in problem


@pytest.mark.parametrize("spec", [
    "standard", "tenhou", "mleague", "jpml-a", "tenhou-classic", "rounding=floor",
    "rounding=ceil", "rounding=half_up", "rounding=toward_zero round_on=raw",
    "start=25500 target=30500 round_on=raw", "start=25500 target=30500 rounding=none",
])
def test_shortcut_allowed(spec: str) -> None:
    assert shortcut_problem(spec) is None
    assert shortcut(spec).table()[0][0] == "Place"


def test_shortcut_notes_shared_ties() -> None:
    assert shortcut("mleague").table()[-1][:2] == [
        "Ties", "players with equal raw scores share the offsets of their places (oka "
        "included) instead of taking one each"]
    assert shortcut("standard; ties=split_uma").table()[-1][0] == "Ties"
    assert "earliest seat" in shortcut("standard; ties=split_uma").table()[-1][1]
    assert shortcut("standard").table()[-1][0] == 4


def _shortcut_agrees(r: Ruleset, raw: int) -> bool:
    """round(raw - T) == round(raw) - T for one raw score, under the ruleset's step 4."""
    t = r._t  # type: ignore[attr-defined]
    if r.round_on == "raw" and r.rounding != "none":
        settled = _round(raw // 100, r.rounding) - t
    else:
        settled = _round(raw // 100 - t, r.rounding)
    return settled == _round(raw // 100, r.rounding) - t


@given(st.sampled_from(ALL_ROUNDINGS), st.sampled_from(["difference", "raw"]),
       st.integers(250, 400).map(lambda k: k * 100), st.booleans())
def test_shortcut_validity_rule_matches_every_score(mode: str, on: str, start: int,
                                                    oka: bool) -> None:
    # The rule of shortcut_problem is exact: no complaint <=> every raw score agrees.
    r = Ruleset(start=start, target=start + (5000 if oka else 0), oka=oka, rounding=mode,
                round_on=on)
    agree = all(_shortcut_agrees(r, raw) for raw in range(-60000, 100001, 100))
    assert (shortcut_problem(r) is None) == agree


# ------------------------------------------------------------------------------------------------
# Properties


@st.composite
def new_rulesets(draw: Any, ties: str | None = None, rounding: str | None = None) -> Ruleset:
    players = draw(st.sampled_from([3, 4]))
    start = draw(st.sampled_from([25000, 30000, 35000]))
    oka = draw(st.booleans())
    target = start + draw(st.sampled_from([0, 500, 5000, 10000]))
    return Ruleset(
        players=players, start=start, target=target, oka=oka, uma=draw(zero_sum_uma(players)),
        floating=draw(st.sampled_from(["off", "shift"])) if players == 4 else "off",
        rounding=rounding or draw(st.sampled_from(ALL_ROUNDINGS)),
        round_on=draw(st.sampled_from(["difference", "raw"])),
        adjust=draw(st.sampled_from(["first", "last"])),
        ties=ties or draw(st.sampled_from(["seat", "split", "split_uma"])),
        leftover=draw(st.sampled_from(["first", "lost"])),
    )


@settings(max_examples=400, deadline=None)
@given(games(new_rulesets()))
def test_zero_sum_with_every_new_option(game: Any) -> None:
    # adjust=first/last promises: finals add up to zero, less the deposits lost
    r, scores, deposits = game
    g = settle(scores, r, deposits)
    lost = D(deposits) / 1000 if r.leftover == "lost" else 0
    assert sum(g.final) == -lost
    assert sum(g.oka) == D(r.oka_points) / 1000
    for row in g.explain()[1:]:
        assert sum(row[-6:-1]) == row[-1]  # rounded + adjustment + oka + uma + penalty


@settings(max_examples=300, deadline=None)
@given(games(new_rulesets()), st.permutations(range(4)))
def test_permuting_seats_permutes_finals_up_to_tie_remainders(game: Any,
                                                              perm: list[int]) -> None:
    # Players with different raw scores get exactly the same final in any seat. Among
    # players with equal scores, seat order decides remainders, the oka (split_uma) and
    # deposit shares, so only the group's finals as a whole are the same.
    r, scores, deposits = game
    perm = [p for p in perm if p < r.players]
    before = settle(scores, r, deposits).final
    after = settle([scores[p] for p in perm], r, deposits).final
    for value in set(scores):
        seats = [i for i, s in enumerate(scores) if s == value]
        moved = [i for i, p in enumerate(perm) if scores[p] == value]
        if len(seats) == 1:
            assert after[moved[0]] == before[seats[0]]
        else:
            assert sorted(after[i] for i in moved) == sorted(before[i] for i in seats)


@settings(max_examples=300, deadline=None)
@given(games(new_rulesets()))
def test_round_on_raw_equals_difference_for_whole_thousands(game: Any) -> None:
    # The property: whole-thousand nonnegative raw scores and target -> no difference.
    r, scores, deposits = game
    thousands = [max(0, s // 1000 * 1000) for s in scores]
    thousands[0] += r.start * r.players - deposits - sum(thousands)
    assume(thousands[0] >= 0 and r.target % 1000 == 0 and r.start % 1000 == 0)
    raw = r.with_changes(round_on="raw")
    diff = r.with_changes(round_on="difference")
    assert settle(thousands, raw, deposits).final == settle(thousands, diff, deposits).final


@settings(max_examples=300, deadline=None)
@given(games(new_rulesets()))
def test_round_on_raw_equals_difference_where_rounding_allows(game: Any) -> None:
    # Stronger: with a whole-thousand T, translation-invariant modes never differ, and the
    # symmetric modes differ only for a player strictly between 0 and T.
    r, scores, deposits = game
    t = r.target if r.oka else r.start
    assume(t % 1000 == 0)
    a = settle(scores, r.with_changes(round_on="raw"), deposits)
    b = settle(scores, r.with_changes(round_on="difference"), deposits)
    for p, x, y in zip(a.points, a.rounded, b.rounded):
        if r.rounding in TRANSLATION_INVARIANT or p >= t or p <= 0:
            assert x == y


@settings(max_examples=200, deadline=None)
@given(games(new_rulesets(ties="seat")))
def test_shortcut_offsets_reproduce_the_procedure_when_allowed(game: Any) -> None:
    r, scores, deposits = game
    assume(r.floating == "off" and shortcut_problem(r) is None)
    g = settle(scores, r, deposits)
    offs = offsets(r)
    adjust_seat = g.order[0] if r.adjust == "first" else g.order[-1]
    for place, seat in enumerate(g.order):
        a = D(_round(g.points[seat] // 100, r.rounding)) / 10
        expected = a + offs[place] + (g.adjustment[seat] if seat == adjust_seat else 0)
        assert g.final[seat] == expected


@settings(max_examples=100, deadline=None)
@given(new_rulesets())
def test_new_rulesets_round_trip_through_text_and_values(r: Ruleset) -> None:
    assert ruleset(r.text()) == r
    assert ruleset(list(r.values().items())) == r


# ------------------------------------------------------------------------------------------------
# Excel functions through xlwings' Office.js path


def test_officejs_settle_with_new_options() -> None:
    assert call("MJ_SETTLE", [[47400.0, 31600.0, 24500.0, -3500.0]], "tenhou-classic") == \
        [[57, 12, -15, -54]]
    rules = [["rounding", "half_away_from_zero"], ["round_on", "raw"]]
    assert call("MJ_SETTLE", [TENHOU_GAME], rules) == [[57, 12, -15, -54]]
    # no uma: East's +10.5 (half toward zero: 10) plus the oka 20; -10.5 -> -10
    assert call("MJ_SETTLE", [HALVES], "uma=0/0/0/0 adjust=none rounding=絶対値で五捨六入") == \
        [[30, -10, -10, -10]]
    assert call("MJ_SETTLE", [SEVENS], "uma=0/0/0/0 adjust=none rounding=toward_zero") == \
        [[30, -10, -10, -10]]
    assert call("MJ_SETTLE", [[10000, 35000, 20000, 35000]], "ties=split_uma") == \
        [[-40, 40, -20, 20]]
    assert call("MJ_RANK", [[10000, 35000, 20000, 35000]], "ties=split_uma") == [[4, 1, 3, 1]]


def test_officejs_ruleset_round_trip_and_presets() -> None:
    table = call("MJ_RULESET", "tenhou-classic")
    assert table[0] == ["preset", "tenhou-classic"]
    assert ["rounding", "half_away_from_zero"] in table and ["round_on", "raw"] in table
    assert call("MJ_SETTLE", [TENHOU_GAME], table) == [[57, 12, -15, -54]]
    assert call("MJ_SETTLE", [TENHOU_GAME], table[1:]) == [[57, 12, -15, -54]]
    custom = call("MJ_RULESET", "mleague; ties=split_uma; rounding=toward_zero")
    assert ["ties", "split_uma"] in custom and ["round_on", "difference"] in custom
    assert call("MJ_SETTLE", [[30000, 30000, 30000, 10000]], custom) == [[30, 10, 10, -50]]
    presets = call("MJ_PRESETS")
    header = presets[0]
    row = next(r for r in presets if r[0] == "tenhou-classic")
    assert row[header.index("rounding")] == "half_away_from_zero"
    assert row[header.index("round_on")] == "raw"
    assert "seeds" not in " ".join(str(r[-1]) for r in presets).lower()


def test_officejs_explain_shows_what_was_rounded() -> None:
    rows = call("MJ_EXPLAIN", [TENHOU_GAME], "tenhou-classic")
    assert rows[0][4:7] == ["Base", "Raw rounded", "Rounded"]
    assert rows[4][4:7] == [-33.5, -4000, -34] and rows[4][-1] == -54
    assert rows[3][4:7] == [-5.5, 25000, -5]


def test_officejs_shortcut_validity() -> None:
    with pytest.raises(xw.XlwingsError, match=r"^the shortcut final = round\(raw/1000\) \+ "
                       r"offset does not hold for rounding=half_away_from_zero"):
        call("MJ_SHORTCUT", "rounding=half_away_from_zero")
    table = call("MJ_SHORTCUT", "tenhou-classic", [TENHOU_GAME])
    assert [row[-1] for row in table[1:]] == [10, -20, -40, -50]
    note = call("MJ_SHORTCUT", "standard; ties=split_uma")[-1]
    assert note[0] == "Ties" and "earliest seat" in note[1]


# ------------------------------------------------------------------------------------------------
# The command line


def test_cli_calc_tenhou_classic(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["calc", "--ruleset", "tenhou-classic", "47400", "31600", "24500", "-3500"])
    out = capsys.readouterr().out
    assert code == 0 and "Final: +57  +12  -15  -54" in out
    assert "North -3,500 -> -4 - 30 = -34" in out and "Raw rounded" in out
    code = main(["calc", "--ruleset", "mleague; ties=split_uma", "30000", "30000", "30000",
                 "10000"])
    out = capsys.readouterr().out
    assert code == 0 and "Final: +30.0  +10.0  +10.0  -50.0" in out


def test_cli_presets_show_the_new_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["presets"]) == 0
    out = capsys.readouterr().out
    assert "round_on=raw" in out and "half_away_from_zero" in out
    assert "seeds" not in out.lower()


# ------------------------------------------------------------------------------------------------
# Workbooks: the rules sheet, umaoka settle, and a workbook written before round_on existed

OLD_BOOK = Path(__file__).parent / "data" / "league_v0_1.xlsx"


def test_rules_sheet_offers_the_new_choices(tmp_path: Path) -> None:
    for lang in ("en", "ja"):
        path = tmp_path / f"rules-{lang}.xlsx"
        save_workbook(build_workbook(make_book(["tenhou-classic"], lang=lang)), path)
        wb = load_workbook(path)
        ws = next(w for w in wb.worksheets if w.title.endswith("tenhou-classic"))
        table = {ws.cell(r, 1).value: (ws.cell(r, 2).value, ws.cell(r, 3).value)
                 for r in range(5, 16)}
        assert table["rounding"][0] == "half_away_from_zero" and table["round_on"][0] == "raw"
        assert "raw" in table["round_on"][1] and "split_uma" in table["ties"][1]
        assert "-10.5" in table["rounding"][1]
        lists = {dv.formula1 for dv in ws.data_validations.dataValidation if dv.type == "list"}
        assert '"difference,raw"' in lists and '"seat,split,split_uma"' in lists
        assert any("toward_zero" in x and "half_away_from_zero" in x for x in lists)


def test_edited_rules_sheet_settles_with_round_on(tmp_path: Path) -> None:
    # A league switches its standard rules sheet to Tenhou's integer-era rounding by hand.
    path = tmp_path / "league.xlsx"
    book = make_book(["standard"], ["Spring"], ["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].games.append(Game(session=1, table=1, number=1,
                                      players=["Aki", "Ben", "Chie", "Dan"],
                                      scores=TENHOU_GAME))
    save_workbook(build_workbook(book), path)
    wb = load_workbook(path)
    ws = wb["Rules - standard"]
    keys = {ws.cell(r, 1).value: r for r in range(5, 16)}
    ws.cell(keys["rounding"], 2).value = "絶対値で四捨五入"
    ws.cell(keys["round_on"], 2).value = "raw"
    wb.save(path)
    back = read_book(path)
    assert back.rules[0].ruleset == ruleset("tenhou-classic")
    report = settle_file(path, tmp_path / "settled.xlsx")
    ws = load_workbook(report.path)["Spring"]
    cols = LeagueCols(4)
    assert [ws.cell(5, c).value for c in cols.results] == [57, 12, -15, -54]


def test_workbook_written_before_round_on_still_settles(tmp_path: Path) -> None:
    # tests/data/league_v0_1.xlsx was written by umaoka 0.1 (ten rules rows, no round_on):
    # two leagues, standard and "mleague; ties=seat", four games each.
    book = read_book(OLD_BOOK)
    assert [r.ruleset.round_on for r in book.rules] == ["difference", "difference"]
    assert book.rules[0].ruleset == ruleset("standard")
    report = settle_file(OLD_BOOK, tmp_path / "settled.xlsx")
    assert report.games == 8 and not report.problems
    wb = load_workbook(report.path)
    cols = LeagueCols(4)
    spring = [[wb["Spring"].cell(5 + i, c).value for c in cols.results] for i in range(4)]
    assert spring[0] == [46, 12, -18, -40]  # the classic worked example
    assert spring[3] == [55, 13, -22, -46]  # 45,000/33,000/18,000/4,000, uma 10-20
    for i, g in enumerate(book.leagues[1].games):
        expected = settle(g.scores, "mleague; ties=seat").final
        assert [D(str(wb["Summer"].cell(5 + i, c).value)) for c in cols.results] == \
            list(expected)
    rules = wb["Rules - standard"]
    assert [rules.cell(r, 1).value for r in range(5, 16)][6:8] == ["rounding", "round_on"]


def test_settled_copy_of_new_options(tmp_path: Path) -> None:
    book = make_book(["tenhou-classic", "mleague; ties=split_uma"], ["A", "B"],
                     ["Aki", "Ben", "Chie", "Dan"])
    people = ["Aki", "Ben", "Chie", "Dan"]
    book.leagues[0].games.append(Game(session=1, table=1, number=1, players=people,
                                      scores=TENHOU_GAME))
    book.leagues[1].games.append(Game(session=1, table=1, number=1, players=people,
                                      scores=[30000, 30000, 30000, 10000]))
    report = write_settled(book, tmp_path / "out.xlsx")
    wb = load_workbook(report.path)
    cols = LeagueCols(4)
    assert [wb["A"].cell(5, c).value for c in cols.results] == [57, 12, -15, -54]
    assert [wb["B"].cell(5, c).value for c in cols.results] == [30, 10, 10, -50]
    assert [wb["B"].cell(5, c).value for c in cols.places] == [1, 1, 1, 4]


def test_every_rounding_is_a_valid_preset_combination() -> None:
    # every mode x round_on x ties resolves and settles the Tenhou game to a zero sum
    for mode, on, ties in itertools.product(ALL_ROUNDINGS, CHOICES["round_on"],
                                            CHOICES["ties"]):
        g = settle(TENHOU_GAME, f"rounding={mode} round_on={on} ties={ties}")
        assert sum(g.final) == 0, (mode, on, ties)


def test_template_formulas_with_new_options_in_pycel(tmp_path: Path) -> None:
    # A real formula evaluator computes the template: MJ_SETTLE reads the rules sheet's
    # range (with its round_on row), and the native Places formulas share tied places
    # under split_uma as under split.
    from pycel import ExcelCompiler
    from test_pycel import _col, pycel_functions

    with pycel_functions("umaoka_pycel_rounding") as plugin:
        people = ["Aki", "Ben", "Chie", "Dan"]
        book = make_book(["tenhou-classic", "standard; ties=split_uma"], ["A", "B"], people)
        book.leagues[0].games.append(Game(session=1, table=1, number=1, players=people,
                                          scores=TENHOU_GAME))
        book.leagues[1].games.append(Game(session=1, table=1, number=1, players=people,
                                          scores=[10000, 35000, 20000, 35000]))
        path = tmp_path / "pycel.xlsx"
        save_workbook(build_workbook(book), path)
        xl = ExcelCompiler(filename=str(path), plugins=[plugin])
        cols = LeagueCols(4)
        finals_a = [xl.evaluate(f"'A'!{_col(c)}5") for c in cols.results]
        finals_b = [xl.evaluate(f"'B'!{_col(c)}5") for c in cols.results]
        places_b = [xl.evaluate(f"'B'!{_col(c)}5") for c in cols.places]
    assert finals_a == [57, 12, -15, -54]
    assert finals_b == [-40, 40, -20, 20]
    assert places_b == [4, 1, 3, 1]
