"""Hand payments: what a win of so many han and fu pays, with honba, as exact integers.

The standard scoring table (basic points = fu x 2^(2+han), the limits from mangan to
yakuman, the payment multipliers and the rounding up to 100) comes from the ``mahjong``
package's :class:`~mahjong.hand_calculating.scores.ScoresCalculator` (and its ``Aotenjou``
variant). This module adds what that package lacks or gets wrong for a scorer:

* honba computed here for every rule (the package knows 300 / 200-in-sanma only, not
  basengo nor a custom ``honba_value``);
* three-player tsumo-loss payments and totals (the per-payer amounts are the four-player
  ones; only the number of payers changes);
* the limit name and the basic points (the package's ``yaku_level`` says ``"yakuman"`` for
  a kazoe hand, ``""`` for a capped 4 han 40 fu hand when kiriage is on, and ``"6x yakuman"``
  for seven yakuman);
* kazoe without a limit named as such (``kazoe double yakuman`` at 26 han);
* pao (sekinin barai), which the package does not know: see :mod:`umaoka.engine.hands.pao`;
* input validation: impossible han/fu combinations (:mod:`umaoka.engine.hands.fu`), text from
  Excel cells, rule texts (:mod:`umaoka.engine.hands.rules`).

One module, not two: the payments, honba, the three-player loss, the limit names and
pao all work on one hand's basic points; the parts that stand alone (fu, hand rules,
pao's split) are modules of their own beside it.

>>> hand(5, tsumo=True, honba=2).payments
(2200, 4200)
>>> hand(3, 30, dealer=True, tsumo=True).label
'2000 all'
>>> hand("double yakuman").total
64000
>>> hand(4, 30, rules="kiriage").limit
'kiriage mangan'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import Aotenjou, ScoresCalculator

from umaoka.engine.errors import UmaokaError, as_repr, as_text, excerpt
from umaoka.engine.hands.fu import FU_VALUES, MAX_FU, check_fu
from umaoka.engine.hands.pao import pao_payments, read_pao
from umaoka.engine.hands.rules import (
    HandRules,
    _whole,
    hand_rules,
)
from umaoka.engine.rules import _OFF, _ON, _closest

# The public names of the hand modules, importable from here as before the split.

# Basic points of each limit (8000 per yakuman).
_LIMIT_BASIC = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000}
_YAKUMAN_WORDS = {
    1: "yakuman",
    2: "double yakuman",
    3: "triple yakuman",
    4: "quadruple yakuman",
    5: "quintuple yakuman",
    6: "sextuple yakuman",
}
_YAKUMAN_COUNTS = {
    "yakuman": 1,
    "single yakuman": 1,
    "kazoe yakuman": 1,
    "double yakuman": 2,
    "triple yakuman": 3,
    "quadruple yakuman": 4,
    "quintuple yakuman": 5,
    "sextuple yakuman": 6,
    "役満": 1,
    "ダブル役満": 2,
    "トリプル役満": 3,
}
#: Points of one riichi stick, and the most sticks a win may collect (far beyond any real
#: table: 100 sticks are all the points of a four-player game).
RIICHI_STICK = 1000
RIICHI_MAX = 100
#: The most honba a hand may have: far beyond any real table (records are near 20), and it
#: catches a date typed or sent where the honba go (a serial number such as 45,000).
HONBA_MAX = 100
# A limit name entered instead of the han: the least han of that limit.
_LIMIT_HAN = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11,
              "満貫": 5, "跳満": 6, "倍満": 8, "三倍満": 11}


@dataclass(frozen=True)
class HandResult:
    """What one win pays.

    ``payments`` are written the way scorers say them, honba included: ``(ron,)`` for a
    ron; ``(from each non-dealer, from the dealer)`` for a non-dealer tsumo; ``(from each
    player,)`` for a dealer tsumo. ``total`` is what the winner gains: the payments, plus
    1,000 for each of the ``riichi`` sticks collected from the table. ``han`` is 0 for a
    hand entered as yakuman (under aotenjou: the han counted, 13 per yakuman); ``fu`` is 0
    when it was not given (limit hands); ``yakuman`` is the number of yakuman paid (a kazoe
    yakuman counts 1). ``basic`` is the basic points after limits. ``limit`` is ``""``
    below mangan, else one of ``mangan``, ``kiriage mangan``, ``haneman``, ``baiman``,
    ``sanbaiman``, ``kazoe sanbaiman``, ``kazoe yakuman``, ``yakuman``, ``double
    yakuman``, ``triple yakuman`` ... ``sextuple yakuman``, then ``7x yakuman`` and so on;
    under ``kazoe=unlimited``, ``kazoe double yakuman`` (26 han), ``kazoe triple
    yakuman`` ...

    ``payers`` has one ``(who, points)`` per paying player (who: ``discarder``, ``dealer``,
    ``non-dealer`` or ``liable``); they add up to ``total`` less the riichi sticks. With
    pao, ``pao`` is the number of liable yakuman (as paid), ``liable`` what the liable
    player pays in all, and ``payments`` what the others pay, in the same layout (ron: the
    discarder; non-dealer tsumo: each other non-dealer, the dealer; dealer tsumo: each
    other player), ``None`` where there is no such player (the liable player is the
    dealer; sanma).

    >>> r = hand(3, 40, tsumo=True, honba=1)
    >>> r.payments, r.total, r.label, r.basic
    ((1400, 2700), 5500, '1400/2700', 1280)
    >>> r.payers
    (('dealer', 2700), ('non-dealer', 1400), ('non-dealer', 1400))
    """

    han: int
    fu: int
    yakuman: int
    dealer: bool
    tsumo: bool
    honba: int
    basic: int
    limit: str
    payments: tuple[int | None, ...]
    total: int
    label: str
    pao: int = 0
    liable: int = 0
    payers: tuple[tuple[str, int], ...] = ()
    riichi: int = 0


# ------------------------------------------------------------------------------------------------
# Input values.


def _flag(name: str, value: Any, words: dict[str, bool]) -> bool:
    if isinstance(value, bool):
        return value
    text = as_text(value).strip().lower()
    if text in words:
        return words[text]
    if text in _ON:
        return True
    if text in _OFF:
        return False
    named = "/".join(f"'{w}'" for w in words)
    raise UmaokaError(
        f"{name} must be on/off (yes/no, true/false, 1/0) or {named} "
        f"(got {excerpt(as_repr(value))})."
    )


_TSUMO_WORDS = {"tsumo": True, "ron": False}
_DEALER_WORDS = {"dealer": True, "oya": True, "non-dealer": False, "ko": False}


def _parse_han(han: Any) -> tuple[int, int, bool]:
    """``(han, yakuman count, given as a limit name)`` from a number or a text."""
    hint = "enter the han count, or 'yakuman'"
    if isinstance(han, str):
        text = re.sub(r"\s+", " ", han.strip().lower().replace("_", " ").replace("-", " "))
        if text in _YAKUMAN_COUNTS:
            return 0, _YAKUMAN_COUNTS[text], False
        # At most three digits: a count of yakuman, never a number too long to read.
        m = (re.fullmatch(r"(\d{1,3}) ?(?:x|×)? ?yakuman", text)
             or re.fullmatch(r"yakuman ?(?:x|×) ?(\d{1,3})", text)
             or re.fullmatch(r"x ?(\d{1,3}) yakuman", text)
             or re.fullmatch(r"y ?(\d{1,3})", text))
        if m:
            count = int(m.group(1))
            if count < 1:
                raise UmaokaError(
                    f'"{excerpt(han)}" has no yakuman in it; write yakuman, double yakuman or '
                    "Y2, ..."
                )
            return 0, count, False
        if text in _LIMIT_HAN:
            return _LIMIT_HAN[text], 0, True
        if not re.fullmatch(r"[\d.,_+\s-]+", text):
            words = [*_YAKUMAN_COUNTS, *_LIMIT_HAN]
            raise UmaokaError(
                f'han cannot be "{excerpt(han)}"; enter the han count (a whole number), a limit '
                f"(mangan, haneman, baiman, sanbaiman) or a yakuman (yakuman, double yakuman, "
                f"Y2, ...).{_closest(text, words)}"
            )
    return _whole("han", han, 1, hint, 500), 0, False


def _check_fu(fu: Any, han: int, tsumo: bool, aotenjou: bool) -> int:
    """The fu, read from a cell and checked against the han and the win (see the fu module)."""
    if isinstance(fu, bool):
        raise UmaokaError(f"fu must be a number such as 30 (got {fu}).")
    top = MAX_FU[aotenjou, False]
    n = _whole("fu", fu, 0, f"enter 20, 25, or 30 to {top} in steps of 10")
    check_fu(n, han, tsumo, aotenjou)
    return n


# ------------------------------------------------------------------------------------------------
# Scoring.


_KAZOE_LIMITS = {"yakuman": HandConfig.KAZOE_LIMITED, "sanbaiman": HandConfig.KAZOE_SANBAIMAN,
                 "unlimited": HandConfig.KAZOE_NO_LIMIT}


@lru_cache(maxsize=64)
def _config(dealer: bool, tsumo: bool, kiriage: bool, kazoe: str) -> HandConfig:
    """A ``mahjong`` HandConfig without honba (honba are added here for every rule)."""
    options = OptionalRules(
        kiriage=kiriage,
        kazoe_limit=_KAZOE_LIMITS[kazoe],
        has_double_yakuman=True,
        limit_to_sextuple_yakuman=False,
    )
    return HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH, options=options)


def _limit(han: int, fu: int, rules: HandRules) -> tuple[str, int, int]:
    """``(limit name, basic points, yakuman)`` of a counted hand, limits applied.

    The ``mahjong`` package decides the payments, but its ``yaku_level`` label cannot be
    used for this: it reads ``"yakuman"`` for a kazoe hand, ``"sanbaiman"`` for a hand
    capped by kazoe=sanbaiman, and ``""`` for a capped 4 han 40 fu hand when kiriage is on.
    """
    if han >= 13:
        if rules.kazoe == "sanbaiman":
            return "kazoe sanbaiman", _LIMIT_BASIC["sanbaiman"], 0
        count = han // 13 if rules.kazoe == "unlimited" else 1
        return f"kazoe {_yakuman_name(count)}", 8000 * count, count
    if han >= 11:
        return "sanbaiman", _LIMIT_BASIC["sanbaiman"], 0
    if han >= 8:
        return "baiman", _LIMIT_BASIC["baiman"], 0
    if han >= 6:
        return "haneman", _LIMIT_BASIC["haneman"], 0
    if han == 5:
        return "mangan", _LIMIT_BASIC["mangan"], 0
    basic = fu * 2 ** (2 + han)
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return "kiriage mangan", _LIMIT_BASIC["mangan"], 0
    if basic > 2000:
        return "mangan", _LIMIT_BASIC["mangan"], 0
    return "", basic, 0


# Instances, so that mahjong 1.x (instance methods) and 2.x (static methods) both work.
_SCORES = ScoresCalculator()
_AOTENJOU = Aotenjou()


def _yakuman_name(count: int) -> str:
    return _YAKUMAN_WORDS.get(count, f"{count}x yakuman")


def _liable(pao: Any, liable_dealer: Any, count: int, paid: int, counted: str | None,
            dealer: bool) -> tuple[int, bool]:
    """``(liable yakuman as paid, liable player is the dealer)``, checked against the hand.

    ``counted`` says why the hand cannot have a liable player (kazoe, aotenjou), if so.
    """
    wanted = read_pao(pao)
    is_liable_dealer = _flag("liable_dealer", False if liable_dealer is None else liable_dealer,
                             _DEALER_WORDS)
    if wanted == 0:
        if is_liable_dealer:
            raise UmaokaError(
                "liable_dealer says the liable player is the dealer, but there is no pao; "
                "enter pao (how many yakuman he is liable for) or leave liable_dealer blank."
            )
        return 0, False
    if counted:
        raise UmaokaError(f"pao is for yakuman such as daisangen or daisuushii; {counted}.")
    if dealer and is_liable_dealer:
        raise UmaokaError(
            "the dealer won, so the liable player cannot be the dealer; set liable_dealer to "
            "FALSE."
        )
    if wanted is None:
        return paid, is_liable_dealer
    if wanted > count:
        raise UmaokaError(
            f"pao is {wanted} but the hand has {count} yakuman; pao counts how many of the "
            "hand's yakuman the liable player answers for (TRUE or \"all\" for all of them)."
        )
    # With multiple_yakuman=off the hand pays one yakuman, liable as soon as any of it is.
    return min(wanted, paid), is_liable_dealer


def hand(
    han: Any = None,
    fu: Any = None,
    dealer: Any = False,
    tsumo: Any = False,
    honba: Any = 0,
    rules: Any = None,
    yakuman: Any = 0,
    pao: Any = 0,
    liable_dealer: Any = False,
    riichi: Any = 0,
) -> HandResult:
    """What a win of ``han`` and ``fu`` pays, honba and riichi sticks included.

    ``han`` is a whole number of 1 or more, a limit name (``"mangan"``, ``"haneman"``,
    ``"baiman"``, ``"sanbaiman"``: the least han of it) or a yakuman (``"yakuman"``,
    ``"double yakuman"``, ``"2x yakuman"``, ``"Y2"``, ...); or give ``yakuman=N`` and the
    han is ignored. ``fu`` is needed below mangan (and always under aotenjou); it may be
    left out from 5 han. Fu go from 20 to 140 (three concealed kans), to 170 under aotenjou
    (four concealed kans); fu no hand of that han can have are refused with the reason.
    Numbers may be ints, whole floats (3.0 from Excel) or texts ("3"). ``dealer`` and
    ``tsumo`` also take on/off, yes/no, 1/0, "dealer", "tsumo", "ron". ``rules`` is
    anything :func:`hand_rules` takes.

    ``pao`` is how many of the hand's yakuman a liable player answers for (sekinin barai:
    he discarded the tile that confirmed them): 0 or blank for none, a number, or True /
    ``"all"`` for the whole hand; see :mod:`umaoka.engine.hands.pao` for who pays what.
    ``liable_dealer`` says the liable player is the dealer: it matters on a non-dealer's
    tsumo when only some of the yakuman are liable (he then pays the dealer's share of the
    others). When the liable player is the one who dealt in, it is an ordinary ron: leave
    ``pao`` out.

    ``riichi`` is the number of 1,000-point riichi sticks the winner collects from the
    table, those declared in this hand included: each adds 1,000 to ``total``; the payments
    do not change.

    >>> hand(1, 30).label
    '1000'
    >>> hand(1, 30, tsumo=True).label
    '300/500'
    >>> hand(4, 30).total, hand(4, 30, rules="kiriage").total
    (7700, 8000)
    >>> hand(2, 25).total
    1600
    >>> r = hand("mangan", tsumo=True, honba=2)
    >>> r.payments, r.total, r.label, r.limit
    ((2200, 4200), 8600, '2200/4200', 'mangan')
    >>> r = hand(5, dealer=True, tsumo=True, rules="sanma")
    >>> r.payments, r.total, r.label
    ((4000,), 8000, '4000 all')
    >>> hand(13, 40, rules="aotenjou").total
    5242900
    >>> r = hand("yakuman", tsumo=True, honba=1, pao=1)
    >>> r.liable, r.payments, r.total, r.label
    (32300, (0, 0), 32300, '32300 liable')
    >>> r = hand("yakuman", honba=1, pao=1)
    >>> r.liable, r.payments, r.payers
    (16000, (16300,), (('liable', 16000), ('discarder', 16300)))
    >>> hand(26, rules="kazoe=unlimited").limit
    'kazoe double yakuman'
    >>> r = hand(6, 40, dealer=True, riichi=3)
    >>> r.total, r.payments
    (21000, (18000,))
    >>> try:
    ...     hand(0)
    ... except UmaokaError as error:
    ...     print(error)
    han must be a whole number of 1 or more (got 0); enter the han count, or 'yakuman'.
    """
    r = hand_rules(rules)
    is_dealer = _flag("dealer", dealer, _DEALER_WORDS)
    is_tsumo = _flag("tsumo", tsumo, _TSUMO_WORDS)
    n_honba = _whole("honba", honba, 0, "enter the number of honba (repeat counters), 0 if none",
                     HONBA_MAX)
    n_riichi = _whole("riichi", 0 if riichi is None else riichi, 0,
                      "enter the number of 1,000-point riichi sticks the winner collects, 0 if "
                      "none", RIICHI_MAX)
    sticks = RIICHI_STICK * n_riichi
    count = _whole("yakuman", 0 if yakuman is None else yakuman, 0,
                   "enter how many yakuman the hand has, e.g. 2 for a double yakuman")
    named_limit = False
    if count:
        han_n = 0
    else:
        han_n, count, named_limit = _parse_han(han)
    in_hand = count  # yakuman in the hand, before multiple_yakuman=off pays them as one
    no_pao: str | None = None  # why this hand cannot have a liable player, if it cannot

    if r.aotenjou:
        if named_limit:
            raise UmaokaError(
                f'there are no limits under aotenjou, so "{han}" has no value; enter the han '
                "count and the fu."
            )
        if fu is None:
            raise UmaokaError(
                "fu is needed under aotenjou, where every hand pays fu x 2^(2+han); enter the "
                "fu, e.g. 30."
            )
        # Yakuman count as 13 han each (as their han values in the mahjong package).
        counted = han_n + 13 * count
        fu_n = _check_fu(fu, counted, is_tsumo, True)
        config = _config(is_dealer, is_tsumo, False, "yakuman")
        score = _AOTENJOU.calculate_scores(counted, fu_n, config)
        limit, basic, han_n = "", fu_n * 2 ** (2 + counted), counted
        no_pao = ("under aotenjou a yakuman is only 13 more han, so there is no yakuman to "
                  "split; turn aotenjou off or leave pao out")
    elif count:
        paid = count if r.multiple_yakuman else 1
        fu_n = 0
        score = _SCORES.calculate_scores(
            13 * paid, 0, _config(is_dealer, is_tsumo, r.kiriage, r.kazoe), is_yakuman=True)
        limit, basic, count = _yakuman_name(paid), 8000 * paid, paid
    else:
        if fu is None:
            if han_n <= 4:
                raise UmaokaError(
                    f"fu is needed for a {han_n} han hand (below mangan the fu decides the "
                    "payment); enter the fu, e.g. 30."
                )
            fu_n = 0
        else:
            fu_n = _check_fu(fu, han_n, is_tsumo, False)
        score = _SCORES.calculate_scores(
            han_n, fu_n, _config(is_dealer, is_tsumo, r.kiriage, r.kazoe))
        limit, basic, count = _limit(han_n, fu_n, r)
        no_pao = (f"a hand of {han_n} counted han has none (a kazoe yakuman has no liable "
                  "player); enter the yakuman, e.g. han=\"yakuman\"")

    liable, is_liable_dealer = _liable(pao, liable_dealer, in_hand, count, no_pao, is_dealer)
    if liable:
        split = pao_payments(count, liable, is_dealer, is_tsumo, is_liable_dealer, n_honba, r)
        return HandResult(
            han=han_n, fu=fu_n, yakuman=count, dealer=is_dealer, tsumo=is_tsumo,
            honba=n_honba, basic=basic, limit=limit, payments=split.others,
            total=split.total + sticks, label=split.label, pao=liable, liable=split.liable,
            payers=split.payers, riichi=n_riichi,
        )

    # Honba and the number of payers are computed here: the package's HandConfig has no
    # basengo nor honba value, and its three-player ron honba (200) is only one sanma rule.
    per_payer = r.honba_points // r.tsumo_payers * n_honba
    payers: tuple[tuple[str, int], ...]
    if not is_tsumo:
        payments: tuple[int, ...] = (score["main"] + r.honba_points * n_honba,)
        payers = (("discarder", payments[0]),)
        label = str(payments[0])
    elif is_dealer:
        payments = (score["main"] + per_payer,)
        payers = (("non-dealer", payments[0]),) * r.tsumo_payers
        label = f"{payments[0]} all"
    else:
        payments = (score["additional"] + per_payer, score["main"] + per_payer)
        payers = (("dealer", payments[1]),) + (("non-dealer", payments[0]),) * (
            r.tsumo_payers - 1)
        label = f"{payments[0]}/{payments[1]}"
    return HandResult(
        han=han_n, fu=fu_n, yakuman=count, dealer=is_dealer, tsumo=is_tsumo, honba=n_honba,
        basic=basic, limit=limit, payments=payments, total=sum(p for _, p in payers) + sticks,
        label=label, payers=payers, riichi=n_riichi,
    )


# ------------------------------------------------------------------------------------------------
# The scoring table.

_TABLE_LIMITS = (
    ("mangan (5 han)", 5),
    ("haneman (6-7 han)", 6),
    ("baiman (8-10 han)", 8),
    ("sanbaiman (11-12 han)", 11),
    ("yakuman (13+ han)", 13),
)


def _cell(han: int, fu: int | None, dealer: bool, rules: HandRules) -> str:
    parts = []
    for tsumo in (False, True):
        try:
            r = hand(han, fu, dealer=dealer, tsumo=tsumo, rules=rules)
        except UmaokaError:
            parts.append("-")  # an impossible hand (e.g. a 20 fu ron)
            continue
        if not tsumo:
            parts.append(str(r.payments[0]))
        elif dealer:
            parts.append(f"{r.payments[0]} all")
        else:
            parts.append(f"{r.payments[0]}-{r.payments[1]}")
    return "" if parts == ["-", "-"] else " / ".join(parts)


def hand_table(dealer: Any = False, rules: Any = None) -> list[list[str]]:
    """The payment table of winning hands (han by fu) as rows of texts, a header row first.

    Header: ``["han", "fu 20", "fu 25", "fu 30", ..., "fu 110"]``. Then one row per han
    from 1 to 4 (1 to 13 under aotenjou, which has no limits): the han, then for each fu
    ``"ron / tsumo"``, the tsumo as ``"non-dealer-dealer"`` (e.g. ``"1300 / 400-700"``) or
    ``"each all"`` for the dealer table (``"2000 / 700 all"``). A half that cannot happen is
    ``"-"`` (a 20 fu ron); a cell that cannot happen at all is ``""`` (1 han 20 or 25 fu).
    Then, except under aotenjou, one row per limit (mangan, haneman, baiman, sanbaiman,
    yakuman; with ``kazoe=unlimited`` also the double yakuman of 26 counted han) with its
    payments under ``fu 20`` and the other cells ``""``. Every row has the header's length,
    so the table prints or pastes into a sheet as it is. Hands above 110 fu (three or four
    kans) have 4 han or more, so they are mangan or more, except under aotenjou: their
    payments come from :func:`hand`.

    >>> table = hand_table()
    >>> table[0][:4]
    ['han', 'fu 20', 'fu 25', 'fu 30']
    >>> table[1][:4]
    ['1', '', '', '1000 / 300-500']
    >>> table[2][1:3]
    ['- / 400-700', '1600 / -']
    >>> table[5][:2]
    ['mangan (5 han)', '8000 / 2000-4000']
    >>> hand_table(dealer=True)[3][3]
    '5800 / 2000 all'
    >>> for row in hand_table()[:3]:
    ...     print("  ".join(cell.ljust(15) for cell in row[:5]).rstrip())
    han              fu 20            fu 25            fu 30            fu 40
    1                                                  1000 / 300-500   1300 / 400-700
    2                - / 400-700      1600 / -         2000 / 500-1000  2600 / 700-1300
    """
    is_dealer = _flag("dealer", dealer, _DEALER_WORDS)
    r = hand_rules(rules)
    header = ["han"] + [f"fu {fu}" for fu in FU_VALUES]
    rows = [header]
    for han in range(1, 14 if r.aotenjou else 5):
        rows.append([str(han)] + [_cell(han, fu, is_dealer, r) for fu in FU_VALUES])
    if not r.aotenjou:
        for name, han in _TABLE_LIMITS:
            if han == 11 and r.kazoe == "sanbaiman":
                name = "sanbaiman (11+ han)"
            if han == 13:
                name = {"sanbaiman": "yakuman", "unlimited": "yakuman (13-25 han)"}.get(
                    r.kazoe, name)
                cell = _cell_yakuman(is_dealer, r)
            else:
                cell = _cell(han, None, is_dealer, r)
            rows.append([name, cell] + [""] * (len(header) - 2))
        if r.kazoe == "unlimited":
            rows.append(["double yakuman (26-38 han)", _cell_yakuman(is_dealer, r, 2)]
                        + [""] * (len(header) - 2))
    return rows


def _cell_yakuman(dealer: bool, rules: HandRules, count: int = 1) -> str:
    ron = hand(yakuman=count, dealer=dealer, rules=rules)
    tsumo = hand(yakuman=count, dealer=dealer, tsumo=True, rules=rules)
    each = f"{tsumo.payments[0]} all" if dealer else "-".join(map(str, tsumo.payments))
    return f"{ron.payments[0]} / {each}"
