"""Hand rules real systems use: pao (sekinin barai), kazoe without a limit, aotenjou fu to 170.

Worked examples first (the reason of each number in a comment), then the fu a hand can have
derived again here by going through every shape of hand, then properties, then the Excel
function through xlwings' Office.js path.
"""

from __future__ import annotations

import doctest
import importlib
import itertools
import sys
import types
from functools import lru_cache

import pytest
import xlwings as xw
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import Aotenjou, ScoresCalculator
from mahjong.meld import Meld
from mahjong.tile import TilesConverter
from test_officejs import call

from umaoka.addin.install.lite import lite_source
from umaoka.engine.errors import UmaokaError
from umaoka.engine.hands import (
    HAND_RULE_HELP,
    HAND_RULE_KEYS,
    HandRules,
    hand,
    hand_rules,
    hand_table,
)
from umaoka.engine.hands.fu import ALL_FU, MAX_FU


def up100(x: int) -> int:
    return -(-x // 100) * 100


def payers(r) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for who, points in r.payers:
        out.setdefault(who, []).append(points)
    return out


# -- pao: single yakuman (the source's rule) -----------------------------------------------------


def test_pao_non_dealer_tsumo_liable_pays_all_and_300_per_honba():
    # Daisangen by tsumo, 1 honba: the liable player pays the whole yakuman as if he had dealt
    # in (32,000) and all the honba (300); the others pay nothing.
    r = hand("yakuman", tsumo=True, honba=1, pao=1)
    assert (r.liable, r.payments, r.total, r.pao) == (32300, (0, 0), 32300, 1)
    assert payers(r) == {"liable": [32300], "dealer": [0], "non-dealer": [0]}
    assert r.label == "32300 liable"
    # the winner gains what a tsumo without pao gains: 8100 + 8100 + 16100
    assert r.total == hand("yakuman", tsumo=True, honba=1).total
    # 3 honba: 900 more, all from the liable player
    assert hand("yakuman", tsumo=True, honba=3, pao=1).liable == 32900


def test_pao_dealer_tsumo():
    # The dealer's yakuman is 48,000; 2 honba add 600, all paid by the liable player.
    r = hand("yakuman", dealer=True, tsumo=True, honba=2, pao=True)
    assert (r.liable, r.payments, r.total) == (48600, (0,), 48600)
    assert payers(r) == {"liable": [48600], "non-dealer": [0, 0]}


def test_pao_ron_split_and_the_discarder_pays_the_honba():
    # Daisangen won by ron from a third player, 2 honba: 32,000 split in halves; the
    # discarder also pays the 600 of honba.
    r = hand("yakuman", honba=2, pao=1)
    assert (r.liable, r.payments, r.total) == (16000, (16600,), 32600)
    assert payers(r) == {"liable": [16000], "discarder": [16600]}
    assert r.label == "16000 liable + 16600"
    # pao_honba=liable moves the honba to the liable player (RiichiEnv's replayed game:
    # 16,000 from the discarder, 16,600 from the liable player); the total is the same.
    s = hand("yakuman", honba=2, pao=1, rules="pao_honba=liable")
    assert (s.liable, s.payments, s.total) == (16600, (16000,), 32600)


def test_pao_dealer_ron():
    # 48,000 halved; the discarder pays the 300 of the honba.
    r = hand("yakuman", dealer=True, honba=1, pao=1)
    assert (r.liable, r.payments, r.total) == (24000, (24300,), 48300)


# -- pao: only some of the yakuman liable ------------------------------------------------------------


def test_double_yakuman_one_liable_dealer_tsumo_and_ron():
    # The dealer wins daisuushii (liable: the fourth wind was a pon) and tsuuiisou.
    # Tsumo: the liable player pays daisuushii as a ron (48,000) and his share of tsuuiisou
    # (16,000); the two others pay their tsuuiisou shares. 96,000 in all, as without pao.
    t = hand("double yakuman", dealer=True, tsumo=True, pao=1)
    assert (t.liable, t.payments, t.total) == (64000, (16000,), 96000)
    assert payers(t) == {"liable": [64000], "non-dealer": [16000, 16000]}
    # Ron from a third player: daisuushii halved (24,000 each), tsuuiisou from the discarder.
    r = hand("double yakuman", dealer=True, pao=1)
    assert (r.liable, r.payments, r.total) == (24000, (72000,), 96000)


def test_double_yakuman_one_liable_non_dealer_tsumo_with_honba():
    # South wins daisangen (West liable) and tsuuiisou by tsumo, 1 honba: West pays
    # daisangen in full with the honba (32,300) and his tsuuiisou share (8,000); East (the
    # dealer) pays 16,000 and North 8,000 of tsuuiisou.
    r = hand("double yakuman", tsumo=True, honba=1, pao=1)
    assert (r.liable, r.payments, r.total) == (40300, (8000, 16000), 64300)
    assert payers(r) == {"liable": [40300], "dealer": [16000], "non-dealer": [8000]}
    assert r.label == "40300 liable + 8000/16000"
    # The liable player is the dealer: his tsuuiisou share is the dealer's 16,000.
    d = hand("double yakuman", tsumo=True, honba=1, pao=1, liable_dealer=True)
    assert (d.liable, d.payments, d.total) == (48300, (8000, None), 64300)
    assert payers(d) == {"liable": [48300], "non-dealer": [8000, 8000]}
    assert d.label == "48300 liable + 8000/-"


def test_daisuushii_double_and_liable_plus_tsuuiisou_ron():
    # Where daisuushii is a double yakuman, daisuushii (liable) + tsuuiisou is a triple:
    # pao=2. Dealer's ron: daisuushii (96,000) halved, tsuuiisou (48,000) from the discarder.
    r = hand("triple yakuman", dealer=True, pao=2)
    assert (r.liable, r.payments, r.total) == (48000, (96000,), 144000)


def test_pao_on_the_whole_hand():
    # A rule where the liable player answers for the whole hand: pao = every yakuman.
    t = hand("double yakuman", tsumo=True, honba=1, pao="all")
    assert (t.liable, t.payments, t.total) == (64300, (0, 0), 64300)
    assert hand("double yakuman", tsumo=True, honba=1, pao=2) == t
    r = hand("double yakuman", honba=1, pao=True)
    assert (r.liable, r.payments, r.total) == (32000, (32300,), 64300)


def test_pao_with_multiple_yakuman_off_is_the_single_yakuman():
    # Without multiple yakuman the hand pays one yakuman, and it is liable.
    r = hand("double yakuman", tsumo=True, pao=1, rules="multiple_yakuman=off")
    assert (r.liable, r.payments, r.total, r.yakuman) == (32000, (0, 0), 32000, 1)


def test_pao_in_sanma():
    # Three players, 1 honba (200): the liable player pays the yakuman as a ron (32,000,
    # no tsumo loss on it) and the honba; a sanma tsumo without pao is 8,000 + 16,000.
    r = hand("yakuman", tsumo=True, honba=1, pao=1, rules="sanma")
    assert (r.liable, r.payments, r.total) == (32200, (None, 0), 32200)
    assert payers(r) == {"liable": [32200], "dealer": [0]}
    assert hand("yakuman", tsumo=True, honba=1, rules="sanma").total == 24200
    # Double yakuman, one liable, a non-dealer liable: the dealer pays his 16,000 share.
    d = hand("double yakuman", tsumo=True, pao=1, rules="sanma")
    assert (d.liable, d.payments, d.total) == (40000, (None, 16000), 56000)
    # Dealer's win: 48,000 from the liable player, the other non-dealer pays 16,000.
    e = hand("double yakuman", dealer=True, tsumo=True, pao=1, rules="sanma")
    assert (e.liable, e.payments, e.total) == (64000, (16000,), 80000)
    # Ron: as in four players (the honba is 200 in sanma).
    f = hand("yakuman", honba=1, pao=1, rules="sanma")
    assert (f.liable, f.payments, f.total) == (16000, (16200,), 32200)


def test_pao_with_basengo():
    # A honba is 1500: all of it from the liable player on a tsumo.
    assert hand("yakuman", tsumo=True, honba=2, pao=1, rules="basengo").liable == 35000


@pytest.mark.parametrize("kwargs,fragment", [
    ({"han": 3, "fu": 30, "pao": 1}, "pao is for yakuman such as daisangen or daisuushii; a "
                                     "hand of 3 counted han has none"),
    ({"han": 13, "pao": 1}, "a kazoe yakuman has no liable player"),
    ({"han": "yakuman", "fu": 40, "pao": 1, "rules": "aotenjou"},
     "under aotenjou a yakuman is only 13 more han"),
    ({"han": "yakuman", "pao": 2}, "pao is 2 but the hand has 1 yakuman"),
    ({"han": "yakuman", "pao": -1}, "pao must be a whole number of 0 or more (got -1)"),
    ({"han": "yakuman", "pao": "maybe"}, 'pao must be a whole number of 0 or more (got "maybe")'),
    ({"han": "yakuman", "dealer": True, "tsumo": True, "pao": 1, "liable_dealer": True},
     "the dealer won, so the liable player cannot be the dealer"),
    ({"han": "yakuman", "liable_dealer": True}, "but there is no pao"),
    ({"han": "yakuman", "pao": 1, "liable_dealer": "perhaps"}, "liable_dealer must be on/off"),
])
def test_pao_errors(kwargs, fragment):
    with pytest.raises(UmaokaError) as err:
        hand(**kwargs)
    assert fragment in str(err.value)
    assert str(err.value).endswith(".") and "\n" not in str(err.value)


# -- kazoe without a limit ------------------------------------------------------------------------


def test_kazoe_unlimited_26_han_is_a_double_yakuman():
    # 26 counted han = 2 x 13: a double yakuman, 64,000 for a non-dealer's ron.
    r = hand(26, rules="kazoe=unlimited")
    assert (r.total, r.limit, r.yakuman, r.basic) == (64000, "kazoe double yakuman", 2, 16000)
    # 25 han is still one yakuman, 39 a triple; the dealer's 26 han tsumo is 32,000 all.
    assert hand(25, rules="kazoe=unlimited").limit == "kazoe yakuman"
    assert hand(39, rules="kazoe=unlimited").total == 96000
    assert hand(26, dealer=True, tsumo=True, rules="kazoe=unlimited").label == "32000 all"
    # Under the usual kazoe rule 26 han is one yakuman.
    assert hand(26).total == 32000


@pytest.mark.parametrize("han", [13, 20, 26, 38, 39, 52, 78, 91])
@pytest.mark.parametrize("dealer,tsumo", [(False, False), (True, False), (False, True),
                                          (True, True)])
def test_kazoe_unlimited_matches_mahjong(han, dealer, tsumo):
    config = HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH, options=OptionalRules(
        kazoe_limit=HandConfig.KAZOE_NO_LIMIT, limit_to_sextuple_yakuman=False))
    s = ScoresCalculator.calculate_scores(han, 30, config)
    r = hand(han, 30, dealer=dealer, tsumo=tsumo, rules="kazoe=unlimited")
    assert r.total == s["total"]
    assert r.yakuman == han // 13


def test_kazoe_rule_words():
    for text in ("kazoe=unlimited", "kazoe=multiple", "kazoe_limit=no_limit",
                 "kazoe=no-limit", {"kazoe": "Unlimited"}):
        assert hand_rules(text).kazoe == "unlimited"
    with pytest.raises(UmaokaError, match="kazoe=none could mean either rule"):
        hand_rules("kazoe=none")
    with pytest.raises(UmaokaError, match="multiple_yakuman=off pays every yakuman as one"):
        hand_rules("kazoe=unlimited; multiple_yakuman=off")
    rules = hand_rules("kazoe=unlimited; pao_honba=liable")
    assert hand_rules(rules.text()) == rules == HandRules(kazoe="unlimited", pao_honba="liable")


def test_kazoe_unlimited_table_rows():
    t = hand_table(rules="kazoe=unlimited")
    assert [row[0] for row in t[-2:]] == ["yakuman (13-25 han)", "double yakuman (26-38 han)"]
    assert t[-1][1] == "64000 / 16000-32000"


# -- fu above 110 and aotenjou --------------------------------------------------------------------


def _four_concealed_kans(tsumo: bool):
    """Kans of 1m, 9m, 1p and white, a pair of East (seat and round wind), won on East."""
    tiles = TilesConverter.string_to_136_array(man="11119999", pin="1111", honors="555511")
    win = TilesConverter.string_to_136_array(honors="1")[0]
    melds = [Meld(meld_type=Meld.KAN, opened=False, tiles=TilesConverter.string_to_136_array(**k))
             for k in ({"man": "1111"}, {"man": "9999"}, {"pin": "1111"}, {"honors": "5555"})]
    config = HandConfig(is_tsumo=tsumo, player_wind=EAST, round_wind=EAST)
    return HandCalculator.estimate_hand_value(tiles, win, melds=melds, config=config,
                                              scores_calculator_factory=Aotenjou)


def test_aotenjou_four_concealed_kans_170_fu():
    # 20 + 4 x 32 (concealed kans of terminals and honors) + 4 (double-wind pair) + 2 (the
    # single wait) + 10 (concealed ron) = 164, rounded up to 170 fu; the mahjong package
    # counts the same. Its han: suukantsu 13 + suuankou tanki 26 + honroutou 2 + white 1 = 42.
    ron = _four_concealed_kans(tsumo=False)
    assert (ron.fu, ron.han) == (170, 42)
    r = hand(42, 170, dealer=True, rules="aotenjou")
    assert r.total == ron.cost["total"] == up100(6 * 170 * 2 ** 44) == 17944029765304400
    # The same hand by tsumo: 2 fu for the tsumo instead of 10: 156 -> 160 fu.
    tsumo = _four_concealed_kans(tsumo=True)
    assert (tsumo.fu, tsumo.han) == (160, 43)
    t = hand(43, 160, dealer=True, tsumo=True, rules="aotenjou")
    assert t.payments == (up100(2 * 160 * 2 ** 45),) and t.total == tsumo.cost["total"]
    # A non-dealer's ron of the least such hand (two yakuman, 26 han): 4 x 170 x 2^28.
    assert hand(26, 170, rules="aotenjou").total == up100(4 * 170 * 2 ** 28) == 182536110100


def test_three_concealed_kans_140_fu_without_aotenjou_is_mangan_or_more():
    # Kans of 1m, 9m and white, 234p, a pair of South in the South round, won on South by
    # South: sanankou, sankantsu and white (5 han), 20 + 96 + 4 + 2 + 10 = 132 -> 140 fu
    # (by tsumo 124 -> 130). The mahjong package agrees.
    tiles = TilesConverter.string_to_136_array(man="11119999", pin="234", honors="555522")
    melds = [Meld(meld_type=Meld.KAN, opened=False, tiles=TilesConverter.string_to_136_array(**k))
             for k in ({"man": "1111"}, {"man": "9999"}, {"honors": "5555"})]
    win = TilesConverter.string_to_136_array(honors="2")[0]
    for tsumo, fu in ((False, 140), (True, 130)):
        result = HandCalculator.estimate_hand_value(tiles, win, melds=melds, config=HandConfig(
            is_tsumo=tsumo, player_wind=SOUTH, round_wind=SOUTH))
        assert result.fu == fu
        assert hand(result.han, fu, tsumo=tsumo).total == result.cost["total"]
    # 4 han is the least above 110 fu: 4 han 120 fu is a mangan.
    assert hand(4, 120).total == 8000 and hand(4, 140).limit == "mangan"


@pytest.mark.parametrize("call_,message", [
    (lambda: hand(1, 25),
     "1 han 25 fu is impossible: 25 fu is only chiitoitsu, which is 2 han by itself; check the "
     "han or the fu."),
    (lambda: hand(2, 20),
     "a ron cannot be 20 fu: pinfu ron is 30 fu (20 fu is only a pinfu tsumo); use fu=30."),
    (lambda: hand(3, 35),
     "fu must be 20, 25 or a multiple of 10 from 30 to 140 (got 35); round the fu up to the next "
     "10 (40)."),
    (lambda: hand(3, 115, rules="aotenjou"),
     "fu must be 20, 25 or a multiple of 10 from 30 to 170 (got 115); round the fu up to the "
     "next 10 (120)."),
    (lambda: hand(3, 120),
     "3 han 120 fu is impossible: more than 110 fu needs three or four kans, which come with "
     "sankantsu and sanankou (4 han) or suukantsu; check the han or the fu."),
    (lambda: hand(1, 110, tsumo=True),
     "1 han 110 fu cannot be won by tsumo: 110 fu by tsumo needs three kans, or two kans and two "
     "triplets (sankantsu, toitoi or sanankou: 2 han or more); check the han or the fu."),
    (lambda: hand(5, 150),
     "fu must be 20, 25 or a multiple of 10 from 30 to 140 (got 150); a hand without a yakuman "
     "has at most 140 fu (three concealed kans of terminals or honors); more needs four "
     "concealed kans, which are yakuman (suukantsu and suuankou): enter it as yakuman, or use "
     "aotenjou to count its fu."),
    (lambda: hand(6, 140, tsumo=True),
     "a tsumo cannot have 140 fu: a tsumo without a yakuman has at most 130 fu; 140 fu by tsumo "
     "needs four kans, the yakuman suukantsu: enter it as yakuman."),
    (lambda: hand(30, 180, rules="aotenjou"),
     "fu must be 20, 25 or a multiple of 10 from 30 to 170 (got 180); 170 is the most fu a hand "
     "can have: four concealed kans of terminals or honors, a double-wind pair and a single "
     "wait, won by ron (164, rounded up)."),
    (lambda: hand(30, 170, tsumo=True, rules="aotenjou"),
     "a tsumo cannot have 170 fu: a tsumo has at most 160 fu: the tsumo adds 2 fu where a "
     "concealed ron adds 10."),
    (lambda: hand(13, 150, rules="aotenjou"),
     "150 fu needs four concealed kans: suukantsu and suuankou, two yakuman (26 han under "
     "aotenjou); check the han or the fu."),
    (lambda: hand(12, 140, tsumo=True, rules="aotenjou"),
     "140 fu by tsumo needs four kans, the yakuman suukantsu (13 han under aotenjou); check the "
     "han or the fu."),
])
def test_impossible_fu_refused_with_one_sentence(call_, message):
    with pytest.raises(UmaokaError) as err:
        call_()
    assert str(err.value) == message


# The fu a hand can have, derived again: every shape of four sets, a pair, a wait and a win.
_SETS = [("chow", False, True), ("chow", False, False)] + [
    (kind, terminal, concealed) for kind in ("triplet", "kan") for terminal in (False, True)
    for concealed in (True, False)]


def _set_fu(kind: str, terminal: bool, concealed: bool) -> int:
    if kind == "chow":
        return 0
    return (2 if kind == "triplet" else 8) * (2 if terminal else 1) * (2 if concealed else 1)


@lru_cache(maxsize=1)
def _least_han() -> dict[tuple[int, bool, bool], int]:
    """``{(fu, tsumo, yakuman allowed): least counted han}`` over every hand shape.

    A lower bound of the han the shape itself brings: menzen tsumo, pinfu, sankantsu,
    sanankou, toitoi, and any yaku (1 han); a yakuman (suukantsu, suuankou) is 13 han.
    """
    # chiitoitsu: 25 fu, 2 han (3 with menzen tsumo)
    least = {(25, tsumo, yakuman): 2 + tsumo for tsumo in (False, True)
             for yakuman in (False, True)}
    for sets in itertools.combinations_with_replacement(_SETS, 4):
        kans = sum(kind == "kan" for kind, _, _ in sets)
        closed = all(concealed for _, _, concealed in sets)
        for pair, wait, tsumo in itertools.product((0, 2, 4), ("ryanmen", "kanchan", "tanki",
                                                               "shanpon"), (False, True)):
            if wait in ("ryanmen", "kanchan"):  # the winning tile completes a concealed chow
                winners = [i for i, s in enumerate(sets) if s[0] == "chow" and s[2]]
            elif wait == "shanpon":  # ... or a concealed triplet
                winners = [i for i, s in enumerate(sets) if s[0] == "triplet" and s[2]]
            else:
                winners = [-1]
            for w in winners:
                fu, concealed_sets = 20 + pair, 0
                for i, (kind, terminal, concealed) in enumerate(sets):
                    if i == w and wait == "shanpon" and not tsumo:
                        concealed = False  # a triplet completed by ron counts as open
                    fu += _set_fu(kind, terminal, concealed)
                    concealed_sets += concealed and kind != "chow"
                pinfu = closed and pair == 0 and wait == "ryanmen" and all(
                    s[0] == "chow" for s in sets)
                fu += (2 if wait in ("kanchan", "tanki") else 0) + (
                    10 if closed and not tsumo else 2 if tsumo and not pinfu else 0)
                fu = 30 if fu == 20 and not tsumo else up100(fu * 10) // 10
                yakuman = (kans == 4) + (concealed_sets == 4)
                han = 13 * yakuman or max(1, (closed and tsumo) + pinfu + 2 * (kans == 3)
                                          + 2 * (concealed_sets == 3)
                                          + 2 * all(s[0] != "chow" for s in sets))
                for key in ((fu, tsumo, True), (fu, tsumo, False)) if not yakuman else (
                        (fu, tsumo, True),):
                    least[key] = min(least.get(key, 99), han)
    return least


def test_accepted_fu_are_exactly_the_fu_of_real_hands():
    least = _least_han()
    assert max(fu for fu, tsumo, _ in least if not tsumo) == 170 == MAX_FU[True, False]
    assert max(fu for fu, tsumo, _ in least if tsumo) == 160 == MAX_FU[True, True]
    assert max(fu for fu, tsumo, y in least if not tsumo and not y) == 140 == MAX_FU[False, False]
    assert max(fu for fu, tsumo, y in least if tsumo and not y) == 130 == MAX_FU[False, True]
    assert sorted({fu for fu, _, _ in least}) == list(ALL_FU)
    for fu in range(10, 200, 5):
        for tsumo, aotenjou in itertools.product((False, True), (False, True)):
            for han in range(1, 30):
                needed = least.get((fu, tsumo, aotenjou))
                possible = needed is not None and han >= needed
                try:
                    hand(han, fu, tsumo=tsumo, rules="aotenjou" if aotenjou else None)
                except UmaokaError:
                    assert not possible, (han, fu, tsumo, aotenjou)
                else:
                    assert possible, (han, fu, tsumo, aotenjou)


# -- properties -----------------------------------------------------------------------------------


@st.composite
def hands(draw):
    """A yakuman hand with or without pao, under random table rules."""
    sanma = draw(st.booleans())
    honba_rule = draw(st.sampled_from(["", "basengo", "honba_value=600" if not sanma else
                                       "honba_value=1000"]))
    multiple = draw(st.booleans())
    rules = ";".join(x for x in ("sanma" if sanma else "", honba_rule,
                                 "" if multiple else "multiple_yakuman=off",
                                 draw(st.sampled_from(["", "pao_honba=liable"]))) if x)
    count = draw(st.integers(1, 6))
    dealer, tsumo = draw(st.booleans()), draw(st.booleans())
    pao = draw(st.integers(0, count))
    liable_dealer = bool(pao) and not dealer and draw(st.booleans())
    return dict(yakuman=count, dealer=dealer, tsumo=tsumo, honba=draw(st.integers(0, 8)),
                rules=rules, pao=pao, liable_dealer=liable_dealer)


@given(hands())
@settings(max_examples=400, deadline=None)
def test_payments_add_up_and_pao_keeps_the_total(kw):
    r = hand(**kw)
    rules = hand_rules(kw["rules"])
    assert sum(points for _, points in r.payers) == r.total
    assert all(points >= 0 for _, points in r.payers)
    # one payer on a ron (two with pao), else every player but the winner
    assert len(r.payers) == ((2 if r.pao else 1) if not kw["tsumo"] else rules.tsumo_payers)
    plain = hand(**{**kw, "pao": 0, "liable_dealer": False})
    if not kw["tsumo"] or not rules.sanma:
        # pao only moves who pays: the winner gains the same
        assert r.total == plain.total
    else:
        # in sanma the liable yakuman is paid as a ron, without the tsumo loss
        loss = 16000 if kw["dealer"] else 8000
        assert r.total == plain.total + r.pao * loss
    if r.pao:
        assert r.payers[0] == ("liable", r.liable)
        honba = rules.honba_points * kw["honba"]
        ron = (48000 if kw["dealer"] else 32000) * r.pao
        if kw["tsumo"]:
            # the liable yakuman in full, all the honba, and his usual share of the rest
            assert r.liable >= ron + honba
            assert r.liable - ron - honba <= max(plain.payers[i][1] for i in
                                                 range(len(plain.payers)))
        else:
            on_liable = honba if rules.pao_honba == "liable" else 0
            assert r.liable == ron // 2 + on_liable
            assert r.payments[0] == plain.total - ron // 2 - on_liable
        if r.pao == r.yakuman and kw["tsumo"]:
            assert all(points == 0 for _, points in r.payers[1:])


@given(st.integers(1, 40), st.sampled_from(ALL_FU), st.booleans(), st.booleans(),
       st.integers(0, 5), st.sampled_from(["", "kiriage", "sanma", "aotenjou", "kazoe=unlimited",
                                           "kazoe=sanbaiman; basengo", "sanma; aotenjou"]))
@settings(max_examples=300, deadline=None)
def test_counted_hands_payments_add_up(han, fu, dealer, tsumo, honba, rules):
    try:
        r = hand(han, fu, dealer=dealer, tsumo=tsumo, honba=honba, rules=rules)
    except UmaokaError as error:  # no such hand: said in one sentence
        assert "fu" in str(error) and str(error).endswith(".")
        return
    assert sum(points for _, points in r.payers) == r.total
    assert len(r.payers) == (hand_rules(rules).tsumo_payers if tsumo else 1)
    assert r.pao == 0 and r.liable == 0


@given(st.integers(13, 120), st.booleans(), st.booleans(), st.integers(0, 5))
@settings(max_examples=200, deadline=None)
def test_kazoe_unlimited_pays_one_yakuman_per_13_han(han, dealer, tsumo, honba):
    r = hand(han, dealer=dealer, tsumo=tsumo, honba=honba, rules="kazoe=unlimited")
    y = hand(yakuman=han // 13, dealer=dealer, tsumo=tsumo, honba=honba)
    assert (r.total, r.payments, r.yakuman) == (y.total, y.payments, han // 13)
    assert sum(p for _, p in r.payers) == r.total


# -- the rules' help texts and the modules' examples ------------------------------------------------


def test_every_hand_rule_has_a_help_line():
    assert set(HAND_RULE_HELP) == set(HAND_RULE_KEYS)
    assert "unlimited" in HAND_RULE_HELP["kazoe"] and "liable" in HAND_RULE_HELP["pao_honba"]


@pytest.mark.parametrize("name", ["umaoka.engine.hands.rules", "umaoka.engine.hands.fu",
                                  "umaoka.engine.hands.pao"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# -- through Excel's Office.js path -----------------------------------------------------------------


def test_officejs_pao_rows():
    # no pao: total, then the payments as before
    assert call("MJ_HAND", "yakuman", None, False, True, 1) == [[32300, 8100, 16100]]
    # pao on a tsumo: total, the liable player, each other non-dealer, the dealer
    assert call("MJ_HAND", "yakuman", None, False, True, 1, None, 1) == [[32300, 32300, 0, 0]]
    assert call("MJ_HAND", "yakuman", None, False, True, 1, None, True) == [[32300, 32300, 0, 0]]
    # pao on a ron: total, the liable player, the discarder (who pays the honba)
    assert call("MJ_HAND", "yakuman", None, False, False, 2, None, 1.0) == [[32600, 16000, 16600,
                                                                           ""]]
    assert call("MJ_HAND", "yakuman", None, False, False, 2, "pao_honba=liable", 1) == [
        [32600, 16600, 16000, ""]]
    # double yakuman, one liable, non-dealer's tsumo; then the liable player is the dealer
    assert call("MJ_HAND", "double yakuman", None, False, True, 1, None, 1) == [
        [64300, 40300, 8000, 16000]]
    assert call("MJ_HAND", "double yakuman", None, False, True, 1, None, 1, True) == [
        [64300, 48300, 8000, ""]]
    # the dealer's tsumo: total, the liable player, each other player
    assert call("MJ_HAND", "double yakuman", None, "dealer", "tsumo", 0, None, "1") == [
        [96000, 64000, 16000, ""]]
    # sanma: the only other non-dealer is the liable one
    assert call("MJ_HAND", "yakuman", None, False, True, 1, "sanma", 1) == [[32200, 32200, "", 0]]
    # Excel's empty cells (0 or None) mean no pao
    assert call("MJ_HAND", "yakuman", None, False, True, 0, None, 0, 0) == [[32000, 8000, 16000]]


def test_officejs_kazoe_unlimited_and_aotenjou_fu():
    assert call("MJ_HAND", 26.0, None, False, False, 0, "kazoe=unlimited") == [[64000, 64000, ""]]
    assert call("MJ_HAND", 39, None, True, True, 0, [["kazoe", "unlimited"]]) == [
        [144000, 48000, ""]]
    assert call("MJ_HAND", 26, 170, False, False, 0, "aotenjou") == [[182536110100, 182536110100,
                                                                      ""]]
    assert call("MJ_HAND", 4, 120.0) == [[8000, 8000, ""]]
    table = call("MJ_HAND_TABLE", False, "kazoe=unlimited")
    assert table[-1][:2] == ["double yakuman (26-38 han)", "64000 / 16000-32000"]


@pytest.mark.parametrize("args,message", [
    (("MJ_HAND", 3, 120), "3 han 120 fu is impossible"),
    (("MJ_HAND", 5, 150), "a hand without a yakuman has at most 140 fu"),
    (("MJ_HAND", 30, 180, None, None, None, "aotenjou"), "170 is the most fu"),
    (("MJ_HAND", 3, 30, None, None, None, None, 1), "pao is for yakuman"),
    (("MJ_HAND", "yakuman", None, None, None, None, None, 2), "pao is 2 but the hand has 1"),
    (("MJ_HAND", "yakuman", None, True, True, None, None, 1, True), "the dealer won"),
    (("MJ_HAND", 26, None, None, None, None, "kazoe=none"), "kazoe=none could mean either"),
    (("MJ_HAND", 3, 30, None, None, None, "pao_honba=winner"), 'pao_honba cannot be "winner"'),
])
def test_officejs_errors_are_one_sentence(args, message):
    with pytest.raises(xw.XlwingsError) as err:
        call(*args)
    assert message in str(err.value)
    assert "Traceback" not in str(err.value)


def test_lite_bundle_has_pao_and_the_new_rules(monkeypatch):
    # The single main.py of xlwings Lite carries the new modules (hand_rules, fu, pao).
    main = types.ModuleType("lite_main")
    monkeypatch.setitem(sys.modules, "lite_main", main)  # dataclasses look their module up
    exec(compile(lite_source(), "main.py", "exec"), main.__dict__)
    assert call("MJ_HAND", "double yakuman", None, False, True, 1, None, 1, module=main) == [
        [64300, 40300, 8000, 16000]]
    assert call("MJ_HAND", 26, None, None, None, None, "kazoe=unlimited", module=main) == [
        [64000, 64000, ""]]
    with pytest.raises(xw.XlwingsError, match="3 han 120 fu is impossible"):
        call("MJ_HAND", 3, 120, module=main)
