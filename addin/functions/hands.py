"""MJ_HAND and MJ_HAND_TABLE: what a winning hand pays."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import xlwings as xw

from umaoka.addin.functions.cells import (
    Cells,
    UmaokaExcelError,
    _amount,
    _excel_function,
    _flag,
    _hand_rules,
    _option,
)
from umaoka.engine.hands.payment import hand, hand_table


@xw.func
@xw.arg("han", doc='Han (1 or more), a limit such as "mangan", or a yakuman such as "yakuman" '
        'or "double yakuman".')
@xw.arg("fu", Cells,
        doc="Fu (20, 25, 30 ... 140; up to 170 under aotenjou); may be blank from 5 han "
        "(mangan) up.")
@xw.arg("dealer", doc='TRUE (or "dealer") if the winner is the dealer. Blank: FALSE.')
@xw.arg("tsumo", doc='TRUE (or "tsumo") for a self-drawn win, FALSE (or "ron") for a win off '
        "a discard. Blank: FALSE.")
@xw.arg("honba", doc="Repeat counters (honba) on the table. Blank: 0.")
@xw.arg("options", Cells, ndim=2,
        doc='Hand rules such as "kiriage; kazoe=unlimited; sanma", or a '
        "two-column key/value range. Blank: none.")
@xw.arg("pao", Cells,
        doc="Pao (sekinin barai): how many of the yakuman a liable player answers for "
        '(1, 2 ...), TRUE or "all" for the whole hand. Blank: no pao.')
@xw.arg("liable_dealer", Cells,
        doc="TRUE if the liable player is the dealer (it matters on a "
        "non-dealer's tsumo when only some yakuman are liable). Blank: FALSE.")
@xw.arg("riichi", Cells,
        doc="Riichi sticks (1,000 points each) the winner collects, this hand's "
        "declarations included: each adds 1,000 to the total, the payments stay. Blank: 0.")
@_excel_function
def MJ_HAND(han: Cells, fu: Cells = None, dealer: Cells = False, tsumo: Cells = False,
            honba: Cells = 0, options: Cells = None, pao: Cells = None,
            liable_dealer: Cells = None, riichi: Cells = None) -> Any:
    """What a win pays: the total the winner gains (riichi sticks included), then the
    payments as scorers write them. E.g. =MJ_HAND(3, 40, FALSE, TRUE, 1).

    Payments: ron, the discarder's payment; non-dealer tsumo, from each non-dealer, then
    from the dealer; dealer tsumo, from each. With pao: the total, what the liable player
    pays, then what the others pay in that layout (ron: the discarder; non-dealer tsumo:
    each other non-dealer, the dealer; dealer tsumo: each other player), blank where there
    is no such player. E.g. =MJ_HAND("yakuman", , FALSE, TRUE, 1, , 1). Amounts past
    2^53 (aotenjou's largest hands) are refused: Excel cannot hold them exactly."""
    count = _option(han, "han")
    if count is None:
        raise UmaokaExcelError("han is blank; enter the han count (1 or more), a limit such as "
                               "mangan, or yakuman.")
    result = hand(count, _option(fu, "fu"), _flag(dealer, "dealer"), _flag(tsumo, "tsumo"),
                  _amount(honba, "honba"), rules=_hand_rules(options),
                  pao=_option(pao, "pao", 0), liable_dealer=_flag(liable_dealer,
                                                                  "liable_dealer"),
                  riichi=_amount(riichi, "riichi"))
    if result.total > _EXACT:
        raise UmaokaExcelError(
            f"this hand pays {Decimal(result.total):.3E} points, more than an Excel cell holds "
            f"exactly (2^53, about {Decimal(_EXACT):.3E}); work it out with the command "
            "`umaoka hand` instead.")
    if result.pao:
        row = [result.total, result.liable,
               *("" if p is None else p for p in result.payments)]
        return [row + [""] * (4 - len(row))]
    return [[result.total, *result.payments] + [""] * (2 - len(result.payments))]


#: The largest whole number an Excel cell (a double) holds exactly.
_EXACT = 2**53


@xw.func
@xw.arg("dealer", doc='TRUE (or "dealer") for the dealer\'s table. Blank: the non-dealer\'s.')
@xw.arg("options", Cells, ndim=2,
        doc='Hand rules such as "kiriage" or "aotenjou", or a two-column '
        "key/value range. Blank: none.")
@_excel_function
def MJ_HAND_TABLE(dealer: Cells = False, options: Cells = None) -> Any:
    """The scoring table: a row per han, a column per fu, "ron / tsumo" in each cell, then
    the limits. E.g. =MJ_HAND_TABLE(TRUE)."""
    return hand_table(_flag(dealer, "dealer"), _hand_rules(options))
