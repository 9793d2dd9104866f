"""Fu: which fu a winning hand can have, and with how few han.

Fu are 20 (the base) plus the sets, the pair, the wait and the win, rounded up to the
next 10; chiitoitsu is always 25. The scoring table has the columns 20 to 110, but kans
reach further: three concealed kans of terminals or honors make 140 fu, and four
concealed kans (two yakuman: suukantsu and suuankou) 170 fu, which only matters under
aotenjou, where yakuman are counted as han.

>>> check_fu(170, 26, tsumo=False, aotenjou=True)
>>> try:
...     check_fu(35, 3, tsumo=False, aotenjou=False)
... except UmaokaError as error:
...     print(error)
fu must be 20, 25 or a multiple of 10 from 30 to 140 (got 35); round the fu up to the next 10 (40).
"""

from __future__ import annotations

from umaoka.engine.errors import UmaokaError

# How the largest fu are derived. Fu = 20 + sets + pair + wait + win, rounded up to 10, where
#   a set is worth at most 32 (a concealed kan of terminals or honors; open 16),
#   the pair at most 4 (a double wind: seat wind = round wind; some rules count it 2),
#   the wait at most 2 (kanchan, penchan or tanki),
#   the win 10 for a ron with a concealed hand (concealed kans keep it concealed), 2 for a tsumo.
# Four concealed kans of terminals or honors, a double-wind pair and a tanki wait (with four
# kans the wait can only be on the pair), won by ron: 20 + 4 x 32 + 4 + 2 + 10 = 164 -> 170 fu
# (the mahjong package's HandCalculator gives this hand 170 fu too); by tsumo 156 -> 160. With
# one kan open the hand is no longer concealed: 20 + 3 x 32 + 16 + 4 + 2 = 138 -> 140. So 150
# fu and more need four concealed kans, which are suukantsu and suuankou: two yakuman.
# Without a yakuman there are at most three kans and never four concealed sets: three
# concealed kans of terminals or honors (96) and a fourth set with its wait worth at most 4 (a
# terminal triplet completed by ron on a double wait counts as open: 4 + 0; a chow with a
# closed wait: 0 + 2), a double-wind pair and a concealed ron: 20 + 96 + 4 + 4 + 10 = 134 ->
# 140 fu. By tsumo the drawn triplet would make suuankou, so: 20 + 96 + 2 + 4 + 2 = 124 -> 130.
# The least han of each fu (MIN_HAN below) come from going through every shape of four sets,
# pair, wait and win (tests/test_hand_rules.py does it again, independently): above 110 fu a
# hand has three or four kans, always with sankantsu and sanankou (4 han) or suukantsu; 110 fu
# by tsumo needs three kans, or two kans and two triplets (toitoi or sanankou): 2 han. And no
# tsumo has 150 fu: four concealed kans by tsumo make 20 + 112 + 0..4 + 2 + 2 = 136..140 with
# one kan of simples, 152..156 without.

#: The fu columns of the scoring table: 20 (pinfu tsumo), 25 (chiitoitsu), 30 to 110 by tens.
FU_VALUES: tuple[int, ...] = (20, 25, *range(30, 120, 10))

#: Every fu a winning hand can have (150 to 170 only with four concealed kans, a yakuman).
ALL_FU: tuple[int, ...] = (20, 25, *range(30, 180, 10))

#: The most fu of a ron and of a tsumo: under aotenjou (yakuman counted as han), and without.
MAX_FU = {(True, False): 170, (True, True): 160, (False, False): 140, (False, True): 130}

_CHECK = "check the han or the fu"


def _too_many(tsumo: bool, aotenjou: bool) -> str:
    """Why a fu above ``MAX_FU[aotenjou, tsumo]`` is more than any such hand can have."""
    if aotenjou and tsumo:
        return "a tsumo has at most 160 fu: the tsumo adds 2 fu where a concealed ron adds 10"
    if aotenjou:
        return ("170 is the most fu a hand can have: four concealed kans of terminals or "
                "honors, a double-wind pair and a single wait, won by ron (164, rounded up)")
    if tsumo:
        return ("a tsumo without a yakuman has at most 130 fu; 140 fu by tsumo needs four kans, "
                "the yakuman suukantsu: enter it as yakuman")
    return ("a hand without a yakuman has at most 140 fu (three concealed kans of terminals or "
            "honors); more needs four concealed kans, which are yakuman (suukantsu and "
            "suuankou): enter it as yakuman, or use aotenjou to count its fu")


def check_fu(fu: int, han: int, tsumo: bool, aotenjou: bool) -> None:
    """Refuse fu that no hand of ``han`` counted han (won by tsumo or ron) can have.

    Under ``aotenjou`` the han include 13 per yakuman, and fu up to 170 are possible; without
    it a yakuman is entered as such, so the fu of a counted hand go up to 140. Raises
    :class:`UmaokaError` with the reason.

    >>> check_fu(140, 4, tsumo=False, aotenjou=False)
    >>> try:
    ...     check_fu(120, 3, tsumo=False, aotenjou=False)
    ... except UmaokaError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    3 han 120 fu is impossible: more than 110 fu needs three or four kans, ...
    """
    top = MAX_FU[aotenjou, False]
    if fu > top:
        raise UmaokaError(
            f"fu must be 20, 25 or a multiple of 10 from 30 to {top} (got {fu}); "
            f"{_too_many(False, aotenjou)}."
        )
    if fu not in ALL_FU:
        how = ("every hand has at least 20 fu" if fu < 20
               else f"round the fu up to the next 10 ({-(-fu // 10) * 10})")
        raise UmaokaError(
            f"fu must be 20, 25 or a multiple of 10 from 30 to {top} (got {fu}); {how}."
        )
    if tsumo and fu > MAX_FU[aotenjou, True]:
        raise UmaokaError(f"a tsumo cannot have {fu} fu: {_too_many(True, aotenjou)}.")
    if fu == 20 and not tsumo:
        raise UmaokaError(
            "a ron cannot be 20 fu: pinfu ron is 30 fu (20 fu is only a pinfu tsumo); "
            "use fu=30."
        )
    if fu == 20 and han < 2:
        raise UmaokaError(
            "1 han 20 fu is impossible: a 20 fu pinfu tsumo already has 2 han (pinfu and "
            f"menzen tsumo); {_CHECK}."
        )
    if fu == 25 and han < 2:
        raise UmaokaError(
            "1 han 25 fu is impossible: 25 fu is only chiitoitsu, which is 2 han by itself; "
            f"{_CHECK}."
        )
    if fu == 25 and han < 3 and tsumo:
        raise UmaokaError(
            "2 han 25 fu cannot be won by tsumo: a chiitoitsu tsumo also has menzen tsumo, "
            "so it is 3 han or more; check the han."
        )
    if fu == 110 and han < 2 and tsumo:
        raise UmaokaError(
            "1 han 110 fu cannot be won by tsumo: 110 fu by tsumo needs three kans, or two "
            "kans and two triplets (sankantsu, toitoi or sanankou: 2 han or more); "
            f"{_CHECK}."
        )
    if 120 <= fu <= 140 and han < 4:
        raise UmaokaError(
            f"{han} han {fu} fu is impossible: more than 110 fu needs three or four kans, "
            f"which come with sankantsu and sanankou (4 han) or suukantsu; {_CHECK}."
        )
    if aotenjou and fu == 140 and tsumo and han < 13:
        raise UmaokaError(
            "140 fu by tsumo needs four kans, the yakuman suukantsu (13 han under aotenjou); "
            f"{_CHECK}."
        )
    if fu == 150 and tsumo:
        raise UmaokaError(
            "150 fu cannot be won by tsumo: only four concealed kans reach it, and a tsumo "
            "with them makes 136 to 140 fu (one kan of simples) or 152 to 156 fu (none), so "
            "140 or 160 fu."
        )
    if fu >= 150 and han < 26:
        raise UmaokaError(
            f"{fu} fu needs four concealed kans: suukantsu and suuankou, two yakuman (26 han "
            f"under aotenjou); {_CHECK}."
        )
