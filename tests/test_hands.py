"""Hand payments (seed 003): the scoring table, every limit, every rule, every bad input."""

import dataclasses
import doctest
import importlib

import pytest
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import Aotenjou, ScoresCalculator

from umaoka.engine.errors import UmaokaError
from umaoka.engine.hands import (
    FU_VALUES,
    HandResult,
    HandRules,
    hand,
    hand_rules,
    hand_table,
)


def up100(x):
    return -(-x // 100) * 100


def legal(han, fu, tsumo):
    """Whether han/fu/win can happen, written out independently of engine/hands.py."""
    if fu == 20:
        return tsumo and han >= 2
    if fu == 25:
        return han >= 3 if tsumo else han >= 2
    if fu == 110 and tsumo:  # needs three kans, or two kans and two triplets: 2 han
        return han >= 2
    return True


def mahjong_payments(han, fu, dealer, tsumo, honba=0, three_player=False, is_yakuman=False,
                     **options):
    """(payments, total) straight from the mahjong package, in HandResult's shape."""
    config = HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH,
                        tsumi_number=honba,
                        options=OptionalRules(is_three_player=three_player, **options))
    s = ScoresCalculator.calculate_scores(han, fu, config, is_yakuman=is_yakuman)
    if not tsumo:
        payments = (s["main"] + s["main_bonus"],)
    elif dealer:
        payments = (s["main"] + s["main_bonus"],)
    else:
        payments = (s["additional"] + s["additional_bonus"], s["main"] + s["main_bonus"])
    return payments, s["total"]


# -- seed 003's example ---------------------------------------------------------------------------


def test_seed_003_non_dealer_mangan_tsumo_two_honba():
    r = hand(5, tsumo=True, honba=2)
    assert r.payments == (2200, 4200)
    assert r.total == 8600
    assert r.label == "2200/4200"
    assert r.limit == "mangan"
    assert r.basic == 2000


# -- the standard table, cell by cell against the mahjong package ---------------------------------

CELLS = [(han, fu, dealer, tsumo) for han in (1, 2, 3, 4) for fu in FU_VALUES
         for dealer in (False, True) for tsumo in (False, True)]


@pytest.mark.parametrize("han,fu,dealer,tsumo", [c for c in CELLS if legal(c[0], c[1], c[3])])
@pytest.mark.parametrize("honba", [0, 3])
def test_standard_table_matches_mahjong(han, fu, dealer, tsumo, honba):
    r = hand(han, fu, dealer=dealer, tsumo=tsumo, honba=honba)
    payments, total = mahjong_payments(han, fu, dealer, tsumo, honba)
    assert r.payments == payments
    assert r.total == total
    # and against the seed's formula: basic points x multiplier, each rounded up to 100
    basic = min(fu * 2 ** (2 + han), 2000)
    assert r.basic == basic
    if not tsumo:
        assert r.payments == (up100((6 if dealer else 4) * basic) + 300 * honba,)
    elif dealer:
        assert r.payments == (up100(2 * basic) + 100 * honba,)
    else:
        assert r.payments == (up100(basic) + 100 * honba, up100(2 * basic) + 100 * honba)


@pytest.mark.parametrize("han,fu,dealer,tsumo", [c for c in CELLS if legal(c[0], c[1], c[3])])
def test_sanma_matches_mahjong_three_player(han, fu, dealer, tsumo):
    r = hand(han, fu, dealer=dealer, tsumo=tsumo, honba=2, rules="sanma")
    assert (r.payments, r.total) == mahjong_payments(han, fu, dealer, tsumo, 2,
                                                     three_player=True)


@pytest.mark.parametrize("han,fu,dealer,tsumo", [c for c in CELLS if not legal(c[0], c[1], c[3])])
def test_impossible_cells_raise(han, fu, dealer, tsumo):
    with pytest.raises(UmaokaError, match="fu"):
        hand(han, fu, dealer=dealer, tsumo=tsumo)


# -- known values ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args,kwargs,label,total", [
    ((1, 30), {}, "1000", 1000),
    ((1, 30), {"tsumo": True}, "300/500", 1100),
    ((3, 30), {"dealer": True, "tsumo": True}, "2000 all", 6000),
    ((2, 25), {}, "1600", 1600),
    ((4, 30), {}, "7700", 7700),
    ((4, 30), {"dealer": True}, "11600", 11600),
    ((2, 20), {"tsumo": True}, "400/700", 1500),
    ((3, 25), {"tsumo": True}, "800/1600", 3200),
    ((1, 110), {}, "3600", 3600),
    ((3, 70), {}, "8000", 8000),
])
def test_known_values(args, kwargs, label, total):
    r = hand(*args, **kwargs)
    assert (r.label, r.total) == (label, total)


# -- every limit ----------------------------------------------------------------------------------


@pytest.mark.parametrize("han,limit,non_dealer,dealer", [
    (5, "mangan", 8000, 12000),
    (6, "haneman", 12000, 18000),
    (7, "haneman", 12000, 18000),
    (8, "baiman", 16000, 24000),
    (10, "baiman", 16000, 24000),
    (11, "sanbaiman", 24000, 36000),
    (12, "sanbaiman", 24000, 36000),
    ("yakuman", "yakuman", 32000, 48000),
    ("double yakuman", "double yakuman", 64000, 96000),
    ("triple yakuman", "triple yakuman", 96000, 144000),
])
def test_limits(han, limit, non_dealer, dealer):
    assert hand(han).total == non_dealer
    assert hand(han, dealer=True).total == dealer
    assert hand(han).limit == hand(han, dealer=True).limit == limit
    # tsumo: the same total split 1/1/2 (non-dealer) or evenly (dealer)
    t = hand(han, tsumo=True)
    assert t.payments == (non_dealer // 4, non_dealer // 2)
    assert t.total == non_dealer
    assert hand(han, dealer=True, tsumo=True).payments == (dealer // 3,)
    assert hand(han, dealer=True, tsumo=True).label == f"{dealer // 3} all"


def test_limit_hands_may_carry_fu():
    assert hand(6, 40).total == 12000 and hand(6, 40).fu == 40
    assert hand(5).fu == 0


def test_limit_names_as_han():
    assert hand("mangan").total == 8000
    assert hand("Haneman", dealer=True).total == 18000
    assert hand("baiman").han == 8
    assert hand("sanbaiman", tsumo=True).label == "6000/12000"


@pytest.mark.parametrize("text,count", [
    ("yakuman", 1), ("Yakuman", 1), ("double yakuman", 2), ("Double-Yakuman", 2),
    ("triple yakuman", 3), ("2x yakuman", 2), ("2 x yakuman", 2), ("yakuman x3", 3),
    ("Y2", 2), ("y1", 1), ("Y 4", 4), ("sextuple yakuman", 6), ("役満", 1), ("ダブル役満", 2),
])
def test_yakuman_texts(text, count):
    r = hand(text)
    assert r.yakuman == count
    assert r.total == 32000 * count
    assert r.han == 0 and r.basic == 8000 * count


def test_yakuman_keyword_ignores_han():
    assert hand(yakuman=2).total == 64000
    assert hand(3, 30, yakuman=1).total == 32000
    assert hand("Y7", tsumo=True).limit == "7x yakuman"
    assert hand("Y7").total == 7 * 32000
    assert hand(yakuman="2").limit == "double yakuman"


def test_yakuman_matches_mahjong():
    for n in (1, 2, 3, 4, 5, 6):
        for dealer in (False, True):
            for tsumo in (False, True):
                r = hand(yakuman=n, dealer=dealer, tsumo=tsumo, honba=1)
                assert (r.payments, r.total) == mahjong_payments(
                    13 * n, 0, dealer, tsumo, 1, is_yakuman=True)


def test_kazoe_yakuman_at_13_han():
    for han in (13, 14, 26, 40):
        r = hand(han)
        assert (r.total, r.limit, r.yakuman, r.han) == (32000, "kazoe yakuman", 1, han)
    assert hand(12).limit == "sanbaiman"
    assert hand(13, dealer=True, tsumo=True).label == "16000 all"


def test_kazoe_sanbaiman_caps_at_sanbaiman():
    rules = "kazoe=sanbaiman"
    r = hand(13, rules=rules)
    assert (r.total, r.limit, r.yakuman, r.basic) == (24000, "kazoe sanbaiman", 0, 6000)
    assert hand(20, dealer=True, rules=rules).total == 36000
    # a real yakuman is not a counted one
    assert hand("yakuman", rules=rules).total == 32000
    assert hand("double yakuman", rules=rules).total == 64000


def test_multiple_yakuman_off_caps_at_one_yakuman():
    rules = "multiple_yakuman=off"
    r = hand("double yakuman", rules=rules)
    assert (r.total, r.limit, r.yakuman) == (32000, "yakuman", 1)
    assert hand(yakuman=3, dealer=True, rules=rules).total == 48000


# -- kiriage --------------------------------------------------------------------------------------


def test_kiriage_mangan():
    k = "kiriage"
    assert hand(4, 30, rules=k).total == 8000
    assert hand(4, 30, dealer=True, rules=k).total == 12000
    assert hand(3, 60, rules=k).total == 8000
    assert hand(3, 60, dealer=True, rules=k).total == 12000
    assert hand(4, 30, tsumo=True, rules=k).payments == (2000, 4000)
    assert hand(3, 60, dealer=True, tsumo=True, rules=k).label == "4000 all"
    assert hand(4, 30, rules=k).limit == "kiriage mangan"
    assert hand(4, 30, rules=k).basic == 2000
    # without kiriage: 1920 basic points
    assert hand(4, 30).total == 7700 and hand(4, 30).limit == "" and hand(4, 30).basic == 1920
    assert hand(3, 60, dealer=True).total == 11600
    # other hands are not touched, and capped ones still say mangan
    assert hand(4, 25, rules=k).total == 6400
    assert hand(3, 50, rules=k).total == 6400
    assert hand(4, 40, rules=k).limit == "mangan"


def test_kiriage_matches_mahjong():
    for han, fu, dealer, tsumo in CELLS:
        if legal(han, fu, tsumo):
            r = hand(han, fu, dealer=dealer, tsumo=tsumo, rules="kiriage")
            assert (r.payments, r.total) == mahjong_payments(han, fu, dealer, tsumo,
                                                             kiriage=True)


# -- aotenjou -------------------------------------------------------------------------------------


def test_aotenjou_has_no_limit():
    r = hand(13, 40, rules="aotenjou")
    assert r.total == up100(40 * 2 ** 15 * 4) == 5242900
    assert (r.limit, r.basic, r.yakuman) == ("", 40 * 2 ** 15, 0)
    assert hand(5, 30, rules="aotenjou").total == up100(30 * 2 ** 7 * 4) == 15400
    assert hand(4, 30, rules="aotenjou, kiriage").total == 7700
    big = hand(40, 110, dealer=True, rules="aotenjou")
    assert big.total == up100(6 * 110 * 2 ** 42)
    t = hand(13, 40, tsumo=True, rules="aotenjou")
    assert t.payments == (up100(40 * 2 ** 15), up100(2 * 40 * 2 ** 15))
    assert t.total == 2 * t.payments[0] + t.payments[1]


def test_aotenjou_matches_mahjong():
    for han in (1, 4, 5, 9, 13, 20, 30):
        for fu in (30, 40, 110):
            for dealer in (False, True):
                for tsumo in (False, True):
                    if not legal(han, fu, tsumo):
                        continue
                    r = hand(han, fu, dealer=dealer, tsumo=tsumo, rules="aotenjou")
                    config = HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH)
                    s = Aotenjou.calculate_scores(han, fu, config)
                    assert r.total == s["total"]


def test_aotenjou_yakuman_counts_13_han_and_honba_still_counts():
    r = hand("double yakuman", 30, rules="aotenjou")
    assert r.han == 26 and r.total == up100(4 * 30 * 2 ** 28)
    assert hand(13, 40, honba=2, rules="aotenjou").total == 5242900 + 600


def test_aotenjou_always_needs_fu():
    with pytest.raises(UmaokaError, match="fu is needed under aotenjou"):
        hand(8, rules="aotenjou")
    with pytest.raises(UmaokaError, match="fu is needed under aotenjou"):
        hand("yakuman", rules="aotenjou")
    with pytest.raises(UmaokaError, match="no limits under aotenjou"):
        hand("mangan", 30, rules="aotenjou")


# -- honba, basengo, sanma ------------------------------------------------------------------------


def test_honba():
    assert hand(1, 30, honba=1).total == 1300
    assert hand(1, 30, tsumo=True, honba=1).payments == (400, 600)
    assert hand(1, 30, dealer=True, tsumo=True, honba=2).label == "700 all"
    assert hand(1, 30, dealer=True, tsumo=True, honba=2).total == 2100
    assert hand(1, 30, honba=0).total == 1000


def test_basengo():
    assert hand(1, 30, honba=1, rules="basengo").total == 1000 + 1500
    t = hand(1, 30, tsumo=True, honba=1, rules="basengo")
    assert t.payments == (800, 1000) and t.total == 1100 + 1500
    assert hand(5, dealer=True, tsumo=True, honba=2, rules="basengo").payments == (5000,)
    assert hand(5, honba=2, rules="basengo").total == 8000 + 3000
    # in sanma a basengo honba is 1000: 500 from each of the two payers on tsumo
    assert hand(5, honba=1, rules="basengo sanma").total == 9000
    assert hand(5, tsumo=True, honba=1, rules="basengo sanma").payments == (2500, 4500)


def test_sanma_tsumo_loss():
    s = "sanma"
    r = hand(5, tsumo=True, rules=s)
    assert (r.payments, r.total, r.label) == ((2000, 4000), 6000, "2000/4000")
    r = hand(5, dealer=True, tsumo=True, rules=s)
    assert (r.payments, r.total, r.label) == ((4000,), 8000, "4000 all")
    assert hand(1, 30, tsumo=True, rules=s).total == 800
    # ron is unchanged
    assert hand(5, rules=s).total == 8000
    assert hand(5, dealer=True, rules=s).total == 12000
    # honba: 100 from each payer on tsumo, 200 on ron (the mahjong package's sanma rule)
    assert hand(5, tsumo=True, honba=1, rules=s).payments == (2100, 4100)
    assert hand(5, dealer=True, tsumo=True, honba=1, rules=s).total == 8200
    assert hand(5, honba=1, rules=s).total == 8200


def test_honba_value_option():
    r = hand(5, tsumo=True, honba=1, rules="sanma; honba_value=1000")
    assert r.payments == (2500, 4500) and r.total == 7000
    assert hand(5, honba=2, rules="sanma honba_value=1000").total == 10000
    assert hand(5, honba=1, rules="honba_value=600").total == 8600
    assert hand(5, tsumo=True, honba=1, rules="honba_value=600").payments == (2200, 4200)
    assert hand(5, honba=3, rules="honba_value=0").total == 8000


def test_riichi_sticks_go_to_the_winner_payments_stay():
    # MahjongPantheon's Mimir tests (PointsCalcTest::testRiichiBets): a dealer ron of 6 han
    # 40 fu with 3 sticks on the table gains 21,000, the discarder paying 18,000; a dealer
    # tsumo of 5 han 30 fu with 4 sticks gains 16,000, 4,000 from each.
    r = hand(6, 40, dealer=True, riichi=3)
    assert (r.total, r.payments, r.payers, r.riichi) == (21000, (18000,),
                                                         (("discarder", 18000),), 3)
    r = hand(5, 30, dealer=True, tsumo=True, riichi=4)
    assert (r.total, r.payments, r.label) == (16000, (4000,), "4000 all")
    # honba and sticks together; the payments are those without sticks
    plain, sticks = hand(3, 40, tsumo=True, honba=1), hand(3, 40, tsumo=True, honba=1, riichi=2)
    assert sticks.payments == plain.payments and sticks.total == plain.total + 2000
    assert sum(p for _, p in sticks.payers) == plain.total
    # with pao the sticks still go to the winner, the liable player pays the same
    r = hand("yakuman", tsumo=True, honba=1, pao=1, riichi=1)
    assert (r.total, r.liable, r.payments) == (33300, 32300, (0, 0))
    # blank, zero, whole floats and texts from Excel or the command line
    assert hand(3, 30, riichi=None) == hand(3, 30) == hand(3, 30, riichi=0)
    assert hand(3, 30, riichi=2.0) == hand(3, 30, riichi="2")
    assert hand(3, 30, riichi=100).total == 3900 + 100_000


@pytest.mark.parametrize("riichi,fragment", [
    (-1, "riichi must be a whole number of 0 or more (got -1)"),
    (1.5, "riichi must be a whole number of 0 or more (got 1.5)"),
    ("two", 'riichi must be a whole number of 0 or more (got "two")'),
    (True, "riichi must be a whole number of 0 or more (got True)"),
    (float("inf"), "riichi must be a whole number of 0 or more (got inf)"),
    (101, "riichi must be a whole number from 0 to 100 (got 101)"),
    ("9" * 5000, "riichi must be a whole number from 0 to 100"),
])
def test_riichi_bad_values_are_one_sentence(riichi, fragment):
    with pytest.raises(UmaokaError) as err:
        hand(3, 30, riichi=riichi)
    text = str(err.value)
    assert text.startswith(fragment) and text.endswith("0 if none.") and "\n" not in text
    assert len(text) < 300


# -- input forms ----------------------------------------------------------------------------------


def test_numbers_from_excel_and_text():
    assert hand(3.0, 30.0, honba=1.0) == hand(3, 30, honba=1)
    assert hand("3", " 30 ", honba="1") == hand(3, 30, honba=1)
    assert hand(3, 30, dealer="yes", tsumo="tsumo") == hand(3, 30, dealer=True, tsumo=True)
    assert hand(3, 30, dealer="oya", tsumo="ron") == hand(3, 30, dealer=True)
    assert hand(3, 30, dealer=0, tsumo=1) == hand(3, 30, tsumo=True)


def test_result_is_frozen():
    r = hand(3, 30)
    assert isinstance(r, HandResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.total = 0


# -- errors ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("call,fragment", [
    (lambda: hand(0, 30), "han must be a whole number of 1 or more (got 0)"),
    (lambda: hand(-2, 30), "han must be a whole number of 1 or more (got -2)"),
    (lambda: hand(2.5, 30), "han must be a whole number of 1 or more (got 2.5)"),
    (lambda: hand(True, 30), "han must be a whole number"),
    (lambda: hand(None), "han must be a whole number"),
    (lambda: hand("three", 30), 'han cannot be "three"'),
    (lambda: hand("yakumann"), 'Did you mean "yakuman"?'),
    (lambda: hand("Y0"), "has no yakuman"),
    (lambda: hand(3), "fu is needed for a 3 han hand"),
    (lambda: hand(1, tsumo=True), "fu is needed for a 1 han hand"),
    (lambda: hand(3, 32), "round the fu up to the next 10 (40)"),
    (lambda: hand(3, 15), "at least 20 fu"),
    (lambda: hand(3, 120), "3 han 120 fu is impossible"),
    (lambda: hand(5, 150), "at most 140 fu"),
    (lambda: hand(3, 35.5), "fu must be a whole number"),
    (lambda: hand(3, "abc"), "fu must be a whole number"),
    (lambda: hand(3, True), "fu must be a number"),
    (lambda: hand(2, 20), "a ron cannot be 20 fu: pinfu ron is 30 fu"),
    (lambda: hand(6, 20), "a ron cannot be 20 fu"),
    (lambda: hand(1, 20, tsumo=True), "1 han 20 fu is impossible"),
    (lambda: hand(1, 25), "1 han 25 fu is impossible"),
    (lambda: hand(1, 25, tsumo=True), "1 han 25 fu is impossible"),
    (lambda: hand(2, 25, tsumo=True), "2 han 25 fu cannot be won by tsumo"),
    (lambda: hand(3, 30, honba=-1), "honba must be a whole number of 0 or more (got -1)"),
    (lambda: hand(3, 30, honba=1.5), "honba must be a whole number"),
    (lambda: hand(3, 30, honba="x"), "honba must be a whole number"),
    (lambda: hand(yakuman=-1), "yakuman must be a whole number of 0 or more"),
    (lambda: hand(3, 30, tsumo="maybe"), "tsumo must be on/off"),
    (lambda: hand(3, 30, dealer="sometimes"), "dealer must be on/off"),
    (lambda: hand(3, 30, rules="kiriag"), 'Did you mean "kiriage"?'),
])
def test_bad_input_raises_with_a_message(call, fragment):
    with pytest.raises(UmaokaError) as err:
        call()
    assert fragment in str(err.value)
    assert isinstance(err.value, ValueError)


# -- hand_rules -----------------------------------------------------------------------------------


def test_hand_rules_forms():
    full = HandRules(kiriage=True, basengo=True, kazoe="sanbaiman", sanma=True)
    assert hand_rules("kiriage; basengo; kazoe=sanbaiman; sanma") == full
    assert hand_rules("KIRIAGE, Basengo kazoe = SanBaiman  sanma=yes") == full
    assert hand_rules({"kiriage": True, "basengo": "on", "kazoe": "sanbaiman",
                       "sanma": 1}) == full
    assert hand_rules([["kiriage", "on"], ["basengo", "1"], ["kazoe", "sanbaiman"],
                       ["sanma"], [None, ""]]) == full
    assert hand_rules(full) is full
    assert hand_rules(None) == HandRules() == hand_rules("") == hand_rules({})
    assert hand_rules("kiriage=on aotenjou=off") == HandRules(kiriage=True)
    assert hand_rules("multiple-yakuman=false").multiple_yakuman is False
    assert hand_rules("three_player kiriage_mangan") == HandRules(sanma=True, kiriage=True)
    assert hand_rules("kiriage:no") == HandRules()
    assert hand_rules("sanma honba_value=1000").honba_points == 1000
    for rules in (full, HandRules(aotenjou=True, multiple_yakuman=False),
                  HandRules(sanma=True, honba_value=1000)):
        assert hand_rules(rules.text()) == rules


def test_hand_rules_honba_points():
    assert HandRules().honba_points == 300
    assert HandRules(sanma=True).honba_points == 200
    assert HandRules(basengo=True).honba_points == 1500
    assert HandRules(basengo=True, sanma=True).honba_points == 1000
    assert HandRules(honba_value=600).honba_points == 600
    assert HandRules(sanma=True).tsumo_payers == 2 and HandRules().tsumo_payers == 3


@pytest.mark.parametrize("spec,fragment", [
    ("kirage", '"kirage" is not a hand rule; use kiriage, kazoe, aotenjou, basengo, sanma, '
               'multiple_yakuman, honba_value, pao_honba. Did you mean "kiriage"?'),
    ({"sanmaa": True}, 'Did you mean "sanma"?'),
    ("kiriage=maybe", 'kiriage cannot be "maybe"; use one of on, off.'),
    ("kazoe=sanbaimen", 'kazoe cannot be "sanbaimen"; use one of yakuman, sanbaiman, unlimited. '
                        'Did you mean "sanbaiman"?'),
    ("kazoe", "kazoe needs a value"),
    ("honba_value", "honba_value needs a number"),
    ("honba_value=-300", "honba_value must be a whole number of 0 or more"),
    ("honba_value=abc", "honba_value must be a whole number"),
    ("honba_value=200", "cannot be split evenly between the 3 payers"),
    ("sanma honba_value=333", "cannot be split evenly between the 2 payers"),
    ("basengo honba_value=1500", "basengo and honba_value both set the value of a honba"),
    ("kiriage; kiriage=off", "kiriage is given twice"),
    ("=on", 'cannot read "=on"'),
    (42, "hand rules must be a text"),
])
def test_hand_rules_errors(spec, fragment):
    with pytest.raises(UmaokaError) as err:
        hand_rules(spec)
    assert fragment in str(err.value)


def test_hand_rules_dataclass_validation():
    with pytest.raises(UmaokaError, match="kazoe cannot be"):
        HandRules(kazoe="double")
    with pytest.raises(UmaokaError, match="kiriage must be True or False"):
        HandRules(kiriage="yes")
    with pytest.raises(UmaokaError, match="honba_value must be"):
        HandRules(honba_value=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        HandRules().kiriage = True


# -- hand_table -----------------------------------------------------------------------------------


def test_hand_table_shape():
    table = hand_table()
    assert len(table) == 1 + 4 + 5
    assert table[0] == ["han", "fu 20", "fu 25"] + [f"fu {f}" for f in range(30, 120, 10)]
    assert all(len(row) == 12 for row in table)
    assert all(isinstance(cell, str) for row in table for cell in row)
    assert [row[0] for row in table[1:5]] == ["1", "2", "3", "4"]
    assert [row[0].split()[0] for row in table[5:]] == [
        "mangan", "haneman", "baiman", "sanbaiman", "yakuman"]


def test_hand_table_cells():
    t = hand_table()
    col = {h: i for i, h in enumerate(t[0])}
    assert t[1][col["fu 20"]] == "" and t[1][col["fu 25"]] == ""
    assert t[1][col["fu 30"]] == "1000 / 300-500"
    assert t[2][col["fu 20"]] == "- / 400-700"
    assert t[2][col["fu 25"]] == "1600 / -"
    assert t[3][col["fu 25"]] == "3200 / 800-1600"
    assert t[4][col["fu 30"]] == "7700 / 2000-3900"
    assert t[4][col["fu 40"]] == "8000 / 2000-4000"
    assert t[5][1:3] == ["8000 / 2000-4000", ""]
    assert t[9][1] == "32000 / 8000-16000"
    d = hand_table(dealer=True)
    assert d[3][col["fu 30"]] == "5800 / 2000 all"
    assert d[6][1] == "18000 / 6000 all"
    assert d[9][1] == "48000 / 16000 all"


def test_hand_table_every_cell_agrees_with_hand():
    for dealer in (False, True):
        t = hand_table(dealer=dealer)
        for han in (1, 2, 3, 4):
            for j, fu in enumerate(FU_VALUES, 1):
                cell = t[han][j]
                if legal(han, fu, False):
                    assert cell.split(" / ")[0] == hand(han, fu, dealer=dealer).label


def test_hand_table_rules():
    k = hand_table(rules="kiriage")
    assert k[4][3] == "8000 / 2000-4000"
    s = hand_table(rules="kazoe=sanbaiman")
    assert s[8][0] == "sanbaiman (11+ han)" and s[9][0] == "yakuman"
    assert s[9][1] == "32000 / 8000-16000"
    sanma = hand_table(dealer=True, rules="sanma")
    assert sanma[5][1] == "12000 / 4000 all"
    a = hand_table(rules="aotenjou")
    assert len(a) == 1 + 13 and all(len(row) == 12 for row in a)
    assert a[13][3] == f"{up100(4 * 30 * 2 ** 15)} / {up100(30 * 2 ** 15)}-{up100(60 * 2 ** 15)}"


# -- the docstring examples -----------------------------------------------------------------------


def test_docstring_examples():
    module = importlib.import_module("umaoka.engine.hands.payment")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


def test_honba_past_any_real_table_is_refused_in_one_sentence():
    """A date sent where the honba go (desktop Excel: a serial number) is not 45,000 honba."""
    assert hand(3, 30, honba=100).total == 3900 + 100 * 300
    with pytest.raises(UmaokaError, match=r"^honba must be a whole number from 0 to 100 "
                       r"\(got 45000\); enter the number of honba"):
        hand(3, 30, honba=45000)
