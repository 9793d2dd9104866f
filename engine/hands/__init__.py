"""Hands: what one winning hand pays, and who pays what.

``payment`` turns han, fu, honba and riichi sticks into payments; ``rules`` reads a
table's hand rules (kiriage, kazoe, double-wind fu...); ``fu`` knows which han and fu can
occur together; ``pao`` splits a liable player's share.

>>> from umaoka.engine.hands import hand
>>> hand(3, 30, dealer=True, tsumo=True).label
'2000 all'
"""

from umaoka.engine.hands.fu import ALL_FU, FU_VALUES, MAX_FU
from umaoka.engine.hands.payment import HandResult, hand, hand_table
from umaoka.engine.hands.rules import (
    HAND_RULE_HELP,
    HAND_RULE_KEYS,
    KAZOE_CHOICES,
    PAO_HONBA_CHOICES,
    HandRules,
    hand_rules,
)

__all__ = [
    "ALL_FU",
    "FU_VALUES",
    "HAND_RULE_HELP",
    "HAND_RULE_KEYS",
    "KAZOE_CHOICES",
    "MAX_FU",
    "PAO_HONBA_CHOICES",
    "HandResult",
    "HandRules",
    "hand",
    "hand_rules",
    "hand_table",
]
