"""Pao (sekinin barai): who pays a yakuman when a player is liable for it.

A player who discarded the tile that confirmed another player's yakuman (the third dragon
pon of daisangen, the fourth wind pon of daisuushii, in some rules the fourth kan of
suukantsu) is liable for it:

* won by tsumo, the liable player pays the whole yakuman, as if he had dealt in, and all
  the honba (300 each); the others pay nothing;
* won by ron from another player, the discarder and the liable player each pay half the
  yakuman, and the discarder pays the honba (``pao_honba=liable`` gives them to the liable
  player instead).

When only some of a hand's yakuman are liable (daisuushii confirmed by a pon, plus
tsuuiisou), the liable player answers for those only and the others are paid as usual:
on tsumo he pays the liable yakuman in full, all the honba, and his usual share of the
rest, which the other players share as in any tsumo; on ron he pays half of the liable
yakuman and the discarder the rest. Liability follows the yakuman the liable player
confirmed, so this is the default: it is Mahjong Soul's rule ("separate responsibility
for each yakuman"), the Japanese Wikipedia article on sekinin barai's, and what
Pantheon's ron does. Tenhou, according to RiichiEnv (a simulator checked against Tenhou
and Mahjong Soul game records), makes the liable player answer for the whole hand: give
``pao`` all the hand's yakuman (True, ``"all"``) for that. The EMA and WRC rules count
every yakuman as one, so for them the question does not arise. Written rules mostly have
the discarder pay the honba of a ron ("only the discarder pays for any counters"); some
descriptions give them to the liable player: ``pao_honba=liable``. The ``mahjong``
package has no pao.

In sanma the liable yakuman of a tsumo is also paid as a ron (32,000 for a non-dealer,
48,000 for the dealer), so there is no tsumo loss on it; the rest is a sanma tsumo.

>>> p = pao_payments(1, 1, dealer=False, tsumo=True, liable_dealer=False, honba=1,
...                  rules=HandRules())
>>> p.liable, p.payers, p.total
(32300, (('liable', 32300), ('dealer', 0), ('non-dealer', 0)), 32300)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text
from umaoka.engine.hands.rules import HandRules, _whole
from umaoka.engine.rules import _OFF, _ON

_YAKUMAN_BASIC = 8000


@dataclass(frozen=True)
class PaoPayments:
    """Who pays what for a yakuman with a liable player.

    ``liable`` is what the liable player pays in all (honba and his share of yakuman that
    are not liable included). ``others`` is what the other payers pay, in the layout
    scorers use: ``(discarder,)`` on ron; ``(each other non-dealer, dealer)`` on a
    non-dealer's tsumo, ``None`` where there is no such player (the dealer is the liable
    one; no other non-dealer in sanma); ``(each other player,)`` on the dealer's tsumo.
    ``payers`` has one ``(who, points)`` per paying player, liable first; they add up to
    ``total``, what the winner gains.
    """

    liable: int
    others: tuple[int | None, ...]
    payers: tuple[tuple[str, int], ...]
    total: int
    label: str


def read_pao(value: Any) -> int | None:
    """How many yakuman are liable: 0 for none, ``None`` for all of them (TRUE, "all").

    >>> read_pao(None), read_pao(""), read_pao(False), read_pao(2.0), read_pao(True)
    (0, 0, 0, 2, None)
    >>> read_pao("all"), read_pao("1")
    (None, 1)
    """
    if value is None or value is False:
        return 0
    if value is True:
        return None
    text = as_text(value).strip().lower()
    if text == "":
        return 0
    if text in ("all", "whole", "full", "全額", "すべて") or (text in _ON and text != "1"):
        return None
    if text in _OFF and text != "0":
        return 0
    return _whole("pao", value, 0, "enter how many of the hand's yakuman the liable player "
                  'answers for (1, 2 ...), TRUE or "all" for the whole hand, or leave it blank')


def pao_payments(yakuman: int, liable: int, dealer: bool, tsumo: bool, liable_dealer: bool,
                 honba: int, rules: HandRules) -> PaoPayments:
    """The payments of ``yakuman`` yakuman (as paid) of which ``liable`` have a liable player.

    ``liable_dealer`` says the liable player is the dealer (he then also pays the dealer's
    share of the yakuman that are not liable, on a non-dealer's tsumo).

    >>> p = pao_payments(2, 1, dealer=False, tsumo=False, liable_dealer=False, honba=1,
    ...                  rules=HandRules())
    >>> p.payers, p.total, p.label
    ((('liable', 16000), ('discarder', 48300)), 64300, '16000 liable + 48300')
    """
    if not 1 <= liable <= yakuman:
        raise UmaokaError(f"the liable yakuman must be 1 to {yakuman} (got {liable}).")
    free = yakuman - liable
    honba_points = rules.honba_points * honba
    ron = (6 if dealer else 4) * _YAKUMAN_BASIC  # a yakuman paid by one player
    if not tsumo:
        half = liable * ron // 2
        to_liable = honba_points if rules.pao_honba == "liable" else 0
        liable_pays = half + to_liable
        discarder = free * ron + half + honba_points - to_liable
        return PaoPayments(liable_pays, (discarder,), (("liable", liable_pays),
                           ("discarder", discarder)), liable_pays + discarder,
                           f"{liable_pays} liable + {discarder}")
    payers: tuple[tuple[str, int], ...]
    others: tuple[int | None, ...]
    if dealer:
        share = free * 2 * _YAKUMAN_BASIC
        liable_pays = liable * ron + honba_points + share
        payers = (("liable", liable_pays),) + (("non-dealer", share),) * (rules.tsumo_payers - 1)
        others = (share,)
        rest = f"{share} each"
    else:
        from_dealer, from_non_dealer = free * 2 * _YAKUMAN_BASIC, free * _YAKUMAN_BASIC
        if liable_dealer:
            liable_pays = liable * ron + honba_points + from_dealer
            payers = (("liable", liable_pays),) + (
                ("non-dealer", from_non_dealer),) * (rules.tsumo_payers - 1)
            others = (from_non_dealer, None)
        else:
            liable_pays = liable * ron + honba_points + from_non_dealer
            count = rules.tsumo_payers - 2  # non-dealers other than the liable one
            payers = (("liable", liable_pays), ("dealer", from_dealer)) + (
                ("non-dealer", from_non_dealer),) * count
            others = (from_non_dealer if count else None, from_dealer)
        rest = "/".join("-" if v is None else str(v) for v in others)
    total = sum(points for _, points in payers)
    label = f"{liable_pays} liable" + (f" + {rest}" if free else "")
    return PaoPayments(liable_pays, others, payers, total, label)
