"""The settlement engine against the seeds' worked examples, every preset and every rule."""

from decimal import Decimal as D

import pytest

from umaoka.engine import (
    PRESETS,
    Ruleset,
    UmaokaError,
    parse_uma,
    rank,
    ruleset,
    settle,
    shortcut,
    standings,
    standings_table,
)


def finals(*args, **kwargs):
    return [str(f) for f in settle(*args, **kwargs).final]


# -- the seeds' worked examples -------------------------------------------------------------------


def test_seed_000_standard_example():
    assert finals([35700, 32400, 22200, 9700], "standard") == ["46", "12", "-18", "-40"]


def test_seed_002_uma_10_20_example():
    assert finals([45000, 33000, 18000, 4000], "uma=10-20") == ["55", "13", "-22", "-46"]


def test_seed_004_winner_takes_the_rest():
    # A 43,600, B 14,500, C 15,400, D 26,500: A +33, B -15, C -15, D -3.
    result = settle([43600, 14500, 15400, 26500], "uma=0/0/0/0 rounding=half_up")
    assert [str(f) for f in result.final] == ["33", "-15", "-15", "-3"]
    assert result.places == (1, 4, 3, 2)
    assert result.adjustment == (D(-1), D(0), D(0), D(0))


def test_seed_000_half_down_examples():
    # 9,500 raw at target 30,000 -> -21; -7.5 -> -8 (五捨六入).
    r = settle([55500, 22500, 12500, 9500], "uma=0/0/0/0")
    assert r.rounded == (D(25), D(-8), D(-18), D(-21))
    assert r.base[1] == D("-7.5")


def test_half_up_examples():
    r = settle([31500, 22500, 26000, 20000], "uma=0/0/0/0 rounding=half_up")
    assert r.rounded == (D(2), D(-7), D(-4), D(-10))


def test_explain_rows_carry_every_step():
    rows = settle([35700, 32400, 22200, 9700]).explain()
    assert rows[0] == ["Seat", "Raw", "Deposits", "Place", "Base", "Rounded", "Adjustment", "Oka",
                       "Uma", "Penalty", "Final"]
    assert rows[1] == ["East", 35700, 0, 1, D("5.7"), D(6), D(0), D(20), D(20), D(0), D(46)]
    assert rows[4] == ["North", 9700, 0, 4, D("-20.3"), D(-20), D(0), D(0), D(-20), D(0), D(-40)]
    for row in rows[1:]:
        assert row[5] + row[6] + row[7] + row[8] + row[9] == row[10]


def test_steps_text_names_the_rules():
    text = "\n".join(settle([35700, 32400, 22200, 9700], "mleague").steps())
    assert "tied players share places" in text
    assert "(raw - 30,000) / 1000" in text
    assert "Oka 20,000 to 1st; uma 30/10/-10/-30" in text


# -- every preset on a real game ------------------------------------------------------------------

FOUR_25 = [41300, 28700, 18500, 11500]
FOUR_30 = [48200, 33100, 22400, 16300]
THREE_35 = [52300, 31600, 21100]

PRESET_CASES = {
    "standard": (FOUR_25, ["52", "9", "-22", "-39"]),
    "tenhou": (FOUR_25, ["51.3", "8.7", "-21.5", "-38.5"]),
    "tenhou-classic": (FOUR_25, ["50", "9", "-21", "-38"]),
    "tenhou-sanma": (THREE_35, ["47.3", "-8.4", "-38.9"]),
    "mahjongsoul": (FOUR_25, ["31.3", "8.7", "-11.5", "-28.5"]),
    "mahjongsoul-sanma": (THREE_35, ["32.3", "-3.4", "-28.9"]),
    "mleague": (FOUR_25, ["61.3", "8.7", "-21.5", "-48.5"]),
    "ema": (FOUR_30, ["33.2", "8.1", "-12.6", "-28.7"]),
    "wrc": (FOUR_30, ["33.2", "8.1", "-12.6", "-28.7"]),
    "jpml-a": (FOUR_30, ["26.2", "7.1", "-11.6", "-21.7"]),
}


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_settles_a_real_game(name):
    scores, expected = PRESET_CASES[name]
    assert finals(scores, name) == expected


def test_presets_match_the_settlement_table():
    table = {  # name: players, start, target, oka, uma, floating, rounding, round_on, adjust, ties, leftover
        "standard": (4, 25000, 30000, "on", "20/10/-10/-20", "off", "half_down", "difference", "first", "seat",
                     "first"),
        "tenhou": (4, 25000, 30000, "on", "20/10/-10/-20", "off", "none", "difference", "first", "seat",
                   "first"),
        "tenhou-classic": (4, 25000, 30000, "on", "20/10/-10/-20", "off", "half_away_from_zero", "raw", "first",
                           "seat", "first"),
        "tenhou-sanma": (3, 35000, 40000, "on", "20/0/-20", "off", "none", "difference", "first", "seat",
                         "first"),
        "mahjongsoul": (4, 25000, 25000, "off", "15/5/-5/-15", "off", "none", "difference", "first", "seat",
                        "first"),
        "mahjongsoul-sanma": (3, 35000, 35000, "off", "15/0/-15", "off", "none", "difference", "first", "seat",
                              "first"),
        "mleague": (4, 25000, 30000, "on", "30/10/-10/-30", "off", "none", "difference", "first", "split",
                    "first"),
        "ema": (4, 30000, 30000, "off", "15/5/-5/-15", "off", "none", "difference", "first", "split", "first"),
        "wrc": (4, 30000, 30000, "off", "15/5/-5/-15", "off", "none", "difference", "first", "split", "lost"),
        "jpml-a": (4, 30000, 30000, "off", "8/4/-4/-8", "1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12",
                   "none", "difference", "first", "split", "lost"),
    }
    assert list(PRESETS) == list(table)
    for name, values in table.items():
        got = tuple(ruleset(name).values().values())
        # then scoring and shared_place, not in the table: every preset scores points and
        # counts a shared place as the better place
        assert got[:11] == values and got[11:] == ("points", "better"), name
        assert PRESETS[name].description and PRESETS[name].source


def test_wrc_loses_leftover_deposits_and_ema_gives_them_to_first():
    scores = [48200, 33100, 22400, 15300]
    assert finals(scores, "wrc", deposits=1000) == ["33.2", "8.1", "-12.6", "-29.7"]
    assert finals(scores, "ema", deposits=1000) == ["34.2", "8.1", "-12.6", "-29.7"]


# -- each rule -------------------------------------------------------------------------------------


def test_oka_off_measures_from_start():
    assert finals([35700, 32400, 22200, 9700], "oka=off") == ["31", "17", "-13", "-35"]


def test_adjust_last_and_none():
    scores = [43600, 14500, 15400, 26500]
    assert finals(scores, "uma=0 rounding=half_up adjust=last") == ["34", "-16", "-15", "-3"]
    assert finals(scores, "uma=0 rounding=half_up adjust=none") == ["34", "-15", "-15", "-3"]


def test_floor_and_ceil():
    scores = [43600, 14500, 15400, 26500]
    assert finals(scores, "uma=0 rounding=floor") == ["35", "-16", "-15", "-4"]
    assert finals(scores, "uma=0 rounding=ceil") == ["32", "-15", "-14", "-3"]


def test_deposits_go_to_first():
    r = settle([35700, 32400, 22200, 8700], deposits=1000)
    assert [str(f) for f in r.final] == ["47", "12", "-18", "-41"]
    assert r.deposit_shares == (1000, 0, 0, 0)


def test_ties_seat_earlier_seat_ranks_higher():
    r = settle([30000, 30000, 25000, 15000])
    assert r.places == (1, 2, 3, 4)
    assert [str(f) for f in r.final] == ["40", "10", "-15", "-35"]


def test_ties_split_share_oka_and_uma_with_remainder_to_earliest_seat():
    r = settle([30000, 30000, 30000, 10000], "mleague")
    assert [str(f) for f in r.final] == ["16.8", "16.6", "16.6", "-50.0"]
    assert r.places == (1, 1, 1, 4)
    # The explanation's oka and uma columns each add up.
    assert sum(r.oka) == 20 and sum(r.uma) == 30 - 30


def test_ties_split_for_third():
    assert finals([40000, 30000, 25000, 25000], "ema") == ["25.0", "5.0", "-15.0", "-15.0"]


def test_ties_split_share_deposits_in_hundreds():
    r = settle([25000, 25000, 25000, 24000], "mleague", deposits=1000)
    assert r.deposit_shares == (400, 300, 300, 0)
    assert sum(r.final) == 0


def test_ties_split_with_integer_rounding_shares_in_whole_points():
    assert finals([30000, 30000, 30000, 10000], "ties=split") == ["14", "13", "13", "-40"]


def test_floating_shift_vectors_from_settlement_md():
    rules = "start=30000 target=30000 oka=off uma=15/5/-5/-15 floating=shift rounding=none"
    three = settle([31000, 31000, 31000, 27000], rules)
    assert three.floating == 3
    assert three.uma == (D(15), D(5), D(0), D(-20))
    one = settle([45000, 25000, 25000, 25000], rules)
    assert one.uma == (D(20), D(0), D(-5), D(-15))
    two = settle([35000, 35000, 25000, 25000], rules)
    assert two.uma == (D(15), D(5), D(-5), D(-15))
    nobody = settle([30000, 30000, 30000, 30000], rules)
    assert nobody.floating == 4 and nobody.uma == (D(15), D(5), D(-5), D(-15))


def test_floating_table_jpml():
    assert settle([40000, 35000, 30000, 15000], "jpml-a").uma == (D(8), D(3), D(1), D(-12))
    assert settle([40000, 29000, 26000, 25000], "jpml-a").uma == (D(12), D(-1), D(-3), D(-8))
    assert settle([40000, 35000, 25000, 20000], "jpml-a").uma == (D(8), D(4), D(-4), D(-8))


def test_three_player_game():
    assert finals([52300, 31600, 21100], "tenhou-sanma") == ["47.3", "-8.4", "-38.9"]


def test_penalties_are_added_after_settlement():
    r = settle([35700, 32400, 22200, 9700], penalties=[-20, 0, None, "-2.5"])
    assert [str(f) for f in r.final] == ["26", "12", "-18", "-42.5"]
    assert sum(r.final) == D("-22.5")


def test_exact_decimals_point_one_plus_point_two():
    a = settle([25100, 24900, 25000, 25000], "tenhou")
    b = settle([25200, 24800, 25000, 25000], "tenhou")
    assert a.base[0] + b.base[0] == D("-9.7")  # -4.9 + -4.8, exactly
    assert all(isinstance(x, D) for x in a.final)
    assert D("0.1") + D("0.2") == D("0.3")
    assert settle([25300, 24800, 25000, 24900], "tenhou").base[0] == D("-4.7")


def test_whole_float_and_text_scores_are_accepted():
    assert finals([35700.0, "32,400", D(22200), " 9700 "]) == ["46", "12", "-18", "-40"]


def test_negative_scores_are_legal():
    assert finals([62000, 28000, 11200, -1200]) == ["72", "8", "-29", "-51"]


# -- ruleset texts and forms ----------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("5-10", "10/5/-5/-10"), ("10-20", "20/10/-10/-20"), ("10-30", "30/10/-10/-30"),
    ("20-30", "30/20/-20/-30"), ("+20,+10,-10,-20", "20/10/-10/-20"),
    ("30/-5/-10/-15", "30/-5/-10/-15"), ("7.5/2.5/-2.5/-7.5", "7.5/2.5/-2.5/-7.5"),
])
def test_uma_forms(text, expected):
    assert ruleset({"uma": text}).uma_text == expected


def test_ruleset_text_forms():
    assert ruleset("mleague; ties=seat").ties == "seat"
    assert ruleset("MLEAGUE; TIES=SEAT") == ruleset("mleague; ties=seat")
    r = ruleset("start=30000 target=30000 uma=15/5/-5/-15")
    assert (r.start, r.target, r.oka_points, r.uma_text) == (30000, 30000, 0, "15/5/-5/-15")
    assert ruleset("uma=+20, +10, -10, -20; rounding=none").rounding == "none"
    assert ruleset("rounding=五捨六入").rounding == "half_down"
    assert ruleset("rounding=四捨五入").rounding == "half_up"
    assert ruleset("") == ruleset(None) == ruleset("standard")


def test_ruleset_mapping_and_pairs():
    r = ruleset({"oka": False, "uma": [15, 5, -5, -15], "floating": {1: "12/-1/-3/-8",
                 2: [8, 4, -4, -8], 3: "8/3/1/-12"}})
    assert r.oka is False and r.floating == "table"
    assert r.floating_table[0] == parse_uma("12/-1/-3/-8")
    pairs = [["preset", "ema"], [None, None], ["Ties", "Seat"], ["uma", "10-30"]]
    r2 = ruleset(pairs)
    assert (r2.start, r2.ties, r2.uma_text) == (30000, "seat", "30/10/-10/-30")
    assert ruleset([["mleague"]]) == ruleset("mleague")


@pytest.mark.parametrize("name", list(PRESETS))
def test_ruleset_round_trips_through_text_and_pairs(name):
    r = ruleset(name)
    assert ruleset(r.text()) == r
    assert ruleset(list(r.values().items())) == r
    assert isinstance(r, Ruleset) and r.name == name


def test_ruleset_is_frozen_and_hashable():
    r = ruleset("standard")
    with pytest.raises(AttributeError):
        r.start = 30000  # type: ignore[misc]
    assert hash(r) == hash(ruleset("standard"))


# -- bad input: one clear sentence each ------------------------------------------------------------

BAD_SCORES = [
    ([35700, 32400, 22200], {}, "expected 4 scores"),
    ([35700, 32400, 22200, 9700, 0], {}, "but got 5"),
    ([35700, 32400, 22200, float("inf")], {}, "not a finite number"),
    ([35700, 32400, 22200, float("nan")], {}, "not a finite number"),
    ([35700, "abc", 22200, 9700], {}, 'score 2 ("abc") is not a number'),
    ([35700, None, 22200, 9700], {}, "score 2 is blank"),
    ([35700, True, 22200, 9700], {}, "score 2 is TRUE"),
    ([35750, 32400, 22200, 9650], {}, "score 1 (35,750) is not a whole multiple of 100"),
    ([35.7, 32.4, 22.2, 9.7], {}, "look typed in thousands"),
    ([357, 324, 222, 97], {}, "look typed in hundreds"),
    ([35700, 32400, 22200, 8700], {}, "scores add up to 99,000 but 4 x 25,000 = 100,000: "
                                      "1,000 missing; enter the leftover riichi sticks as "
                                      "deposits"),
    ([35700, 32400, 22200, 10700], {}, "1,000 too many"),
    ([35700, 32400, 22200, 9700], {"deposits": -1000}, "cannot be negative"),
    ([35700, 32400, 22200, 8700], {"deposits": 1050}, "multiple of 100"),
    ([35700, 32400, 22200, 9700], {"penalties": [1, 2]}, "expected 4 penalties"),
]


@pytest.mark.parametrize("scores, kwargs, message", BAD_SCORES)
def test_bad_scores_raise_one_clear_sentence(scores, kwargs, message):
    with pytest.raises(UmaokaError) as err:
        settle(scores, **kwargs)
    text = str(err.value)
    assert message in text
    assert "\n" not in text and text.endswith((".", "?"))


BAD_RULES = [
    ("mleeague", 'Did you mean "mleague"'),
    ("tenhou-sama", 'Did you mean "tenhou-sanma"'),
    ("rounding=halfway", "use one of none, half_down, half_up, half_toward_zero, "
     "half_away_from_zero, floor, ceil, toward_zero"),
    ("ties=random", "use one of seat, split"),
    ("adjust=winner", "use one of first, last, none"),
    ("leftover=keep", "use one of first, lost"),
    ("oka=maybe", "use one of on, off"),
    ("umma=10-20", '"umma" is not a ruleset field'),
    ("uma=20/10/-10", "uma has 3 values but the ruleset has 4 players"),
    ("uma=20/ten/-10/-20", "is not a list of numbers"),
    ("uma=20.25/10/-10/-20.25", "at most one decimal place"),
    ("target=20000", "target (20,000) is below start (25,000) with oka on"),
    ("tenhou-sanma; floating=shift", "floating uma is defined for four players only"),
    ("floating=sometimes", "floating cannot be"),
    ("floating=1:10/0/0/-10|2:8/4/-4/-8", "one uma vector for each of 1, 2 and 3"),
    ("players=5", "players must be 4 or 3"),
    ("start=abc", "start must be a number"),
    ("start=25050", "steps of 100"),
    ("players=3", "uma has 4 values but the ruleset has 3 players"),
]


@pytest.mark.parametrize("spec, message", BAD_RULES)
def test_bad_rules_raise_one_clear_sentence(spec, message):
    with pytest.raises(UmaokaError) as err:
        ruleset(spec)
    assert message in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unknown_preset_lists_the_valid_ones():
    with pytest.raises(UmaokaError, match="use one of standard, tenhou, tenhou-classic"):
        ruleset("nonsense")


# -- rank, shortcut, standings ---------------------------------------------------------------------


def test_rank():
    assert rank([30000, 30000, 25000, 15000]) == (1, 2, 3, 4)
    assert rank([30000, 30000, 25000, 15000], "mleague") == (1, 1, 3, 4)
    assert rank([25000, 40000, 25000, 10000], "ema") == (2, 1, 2, 4)
    assert rank([1, 3, 2], "tenhou-sanma") == (3, 1, 2)


def test_shortcut_seed_000_tables():
    table = shortcut("standard").table()
    assert table[0] == ["Place", "Raw", "Rounded", "Rounded/1000 (A)", "End score (B)", "B - A"]
    assert [row[5] for row in table[1:]] == [10, -20, -40, -50]
    assert [row[4] for row in table[1:]] == [35, 5, -15, -25]
    example = shortcut("standard", [35700, 32400, 22200, 9700]).table()
    assert example[1] == [1, 35700, 36000, 36, 46, 10]
    assert example[4] == [4, 9700, 10000, 10, -40, -50]
    wide = shortcut("uma=30/15/-15/-30")
    assert [str(o) for o in wide.offsets[None]] == ["20", "-15", "-45", "-60"]


def test_shortcut_one_offset_row_per_floating_count():
    table = shortcut("jpml-a").table()
    # JPML splits ties, so a note row on sharing offsets follows the floating rows.
    assert [row[0] for row in table[-4:]] == ["1 floating", "2 floating", "3 floating", "Ties"]
    assert table[-2][1:5] == [D(-22), D(-27), D(-29), D(-42)]


def test_standings_cumulative_over_hanchan():
    g1 = (["Aki", "Ben", "Chie", "Dan"], settle([35700, 32400, 22200, 9700]))
    g2 = (["Ben", "Aki", "Dan", "Chie"], settle([40000, 30000, 20000, 10000]))
    g3 = (["Aki", "Ben", "Chie", "Dan"], ["5.5", "-1.5", D(-2), -2])
    rows = standings([g1, g2, g3])
    top = rows[0]
    assert (top.name, top.games, top.total, top.average) == ("Aki", 3, D("61.5"), D("20.50"))
    assert top.places == (2, 1, 0, 0)
    assert top.average_place == D("1.33") and top.top_rate == D("0.6667")
    assert (top.best, top.worst) == (D(46), D("5.5"))
    dan = next(p for p in rows if p.name == "Dan")
    assert dan.places == (0, 0, 2, 1)  # tied -2 finals share 3rd
    # last in game 1 only: tied for 3rd-4th in game 3 counts as 3rd (shared_place=better)
    assert dan.last_avoid_rate == D("0.6667") and dan.average_place == D("3.33")
    worse = {p.name: p for p in standings([g1, g2, g3], shared_place="worse")}["Dan"]
    assert (worse.places, worse.last_avoid_rate, worse.average_place) == (
        (0, 0, 1, 2), D("0.3333"), D("3.67"))
    table = standings_table(rows)
    assert table[0][:4] == ["Rank", "Player", "Games", "Total"]
    assert [r[1] for r in table[1:]] == ["Aki", "Ben", "Chie", "Dan"]


def test_standings_errors():
    with pytest.raises(UmaokaError, match="same player twice"):
        standings([(["A", "A", "B", "C"], [1, 2, 3, -6])])
    with pytest.raises(UmaokaError, match="blank player name"):
        standings([(["A", "", "B", "C"], [1, 2, 3, -6])])
    with pytest.raises(UmaokaError, match="game 1 has no final score for player 2"):
        standings([(["A", "B", "C", "D"], [1, "oops", 3, -4])])
