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
* input validation: impossible han/fu combinations, text from Excel cells, rule texts.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import Aotenjou, ScoresCalculator

from .errors import UmaokaError
from .rules import _OFF, _ON, _closest, _switch, _unknown_value

#: Every fu a winning hand can have: 20 (pinfu tsumo), 25 (chiitoitsu), 30 to 110 by tens.
FU_VALUES: tuple[int, ...] = (20, 25, *range(30, 120, 10))

#: The rule keys a hand-rules text or mapping may use.
HAND_RULE_KEYS: tuple[str, ...] = (
    "kiriage",
    "kazoe",
    "aotenjou",
    "basengo",
    "sanma",
    "multiple_yakuman",
    "honba_value",
)

#: What 13 or more counted han is worth.
KAZOE_CHOICES: tuple[str, ...] = ("yakuman", "sanbaiman")

#: One plain-words line per hand rule, for help texts and a rules sheet.
HAND_RULE_HELP: dict[str, str] = {
    "kiriage": "on: 4 han 30 fu and 3 han 60 fu (1920 basic points) are rounded up to mangan.",
    "kazoe": "What 13+ han counts as: yakuman (kazoe yakuman) or sanbaiman (capped).",
    "aotenjou": "on: no limits at all; every hand pays fu x 2^(2+han), yakuman count 13 han each.",
    "basengo": "on: a honba is worth five times as much (1500, or 1000 in sanma).",
    "sanma": "on: three players; a tsumo is paid by the two others only (tsumo loss).",
    "multiple_yakuman": "on: double/triple yakuman pay 2x/3x; off: every yakuman pays one.",
    "honba_value": "Points one honba adds (300; 200 in sanma), split between the payers on tsumo.",
}

_KEY_ALIASES = {
    "kiriage_mangan": "kiriage",
    "kazoe_limit": "kazoe",
    "no_limit": "aotenjou",
    "no_limits": "aotenjou",
    "three_player": "sanma",
    "three_players": "sanma",
    "3p": "sanma",
    "double_yakuman": "multiple_yakuman",
    "multi_yakuman": "multiple_yakuman",
    "multiple_yakumans": "multiple_yakuman",
    "honba": "honba_value",
}

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
# A limit name entered instead of the han: the least han of that limit.
_LIMIT_HAN = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11,
              "満貫": 5, "跳満": 6, "倍満": 8, "三倍満": 11}


@dataclass(frozen=True)
class HandRules:
    """The hand-scoring options (all off by default: four players, kazoe yakuman).

    ``honba_value`` is the points one honba adds to a win: the discarder pays it all on
    ron, the payers share it equally on tsumo. ``None`` means the usual value: 300 (100
    from each of three payers), or 200 in sanma (100 from each of two payers, as the
    ``mahjong`` package and Tenhou do); basengo makes it five times that (1500, or 1000 in
    sanma, 500 from each payer on tsumo). Some sanma rules use 1000 per honba without
    basengo: write ``sanma; honba_value=1000``. Under ``aotenjou`` there are no limits, so
    ``kiriage``, ``kazoe`` and ``multiple_yakuman`` play no part (a yakuman adds 13 han).

    >>> HandRules(sanma=True).honba_points
    200
    >>> HandRules(basengo=True).honba_points
    1500
    """

    kiriage: bool = False
    kazoe: str = "yakuman"
    aotenjou: bool = False
    basengo: bool = False
    sanma: bool = False
    multiple_yakuman: bool = True
    honba_value: int | None = None

    def __post_init__(self) -> None:
        for key in ("kiriage", "aotenjou", "basengo", "sanma", "multiple_yakuman"):
            if not isinstance(getattr(self, key), bool):
                raise UmaokaError(f"{key} must be True or False (got {getattr(self, key)!r}).")
        if self.kazoe not in KAZOE_CHOICES:
            raise UmaokaError(_unknown_value("kazoe", self.kazoe, KAZOE_CHOICES))
        hv = self.honba_value
        if hv is None:
            return
        if isinstance(hv, bool) or not isinstance(hv, int) or hv < 0:
            raise UmaokaError(
                f"honba_value must be a whole number of points of 0 or more (got {hv!r}), "
                "e.g. 300."
            )
        if self.basengo:
            raise UmaokaError(
                "basengo and honba_value both set the value of a honba; keep one of them "
                "(basengo is honba_value=1500, or 1000 in sanma)."
            )
        if hv % self.tsumo_payers:
            raise UmaokaError(
                f"honba_value {hv} cannot be split evenly between the {self.tsumo_payers} "
                f"payers of a tsumo; use a multiple of {self.tsumo_payers}, e.g. "
                f"{'200 or 1000' if self.sanma else '300 or 1500'}."
            )

    @property
    def tsumo_payers(self) -> int:
        """How many players pay a tsumo: 3, or 2 in sanma (there is no North player)."""
        return 2 if self.sanma else 3

    @property
    def honba_points(self) -> int:
        """Points one honba adds to a win (ron or tsumo)."""
        if self.honba_value is not None:
            return self.honba_value
        return (200 if self.sanma else 300) * (5 if self.basengo else 1)

    def text(self) -> str:
        """A hand-rules text that resolves back to these rules.

        >>> hand_rules("kiriage; sanma").text()
        'kiriage=on kazoe=yakuman aotenjou=off basengo=off sanma=on multiple_yakuman=on'
        >>> hand_rules(hand_rules("sanma honba_value=1000").text()).honba_points
        1000
        """
        parts = []
        for key in HAND_RULE_KEYS:
            value = getattr(self, key)
            if key == "honba_value":
                if value is not None:
                    parts.append(f"{key}={value}")
            elif isinstance(value, bool):
                parts.append(f"{key}={'on' if value else 'off'}")
            else:
                parts.append(f"{key}={value}")
        return " ".join(parts)


@dataclass(frozen=True)
class HandResult:
    """What one win pays.

    ``payments`` are written the way scorers say them, honba included: ``(ron,)`` for a
    ron; ``(from each non-dealer, from the dealer)`` for a non-dealer tsumo; ``(from each
    player,)`` for a dealer tsumo. ``total`` is what the winner gains from them (riichi
    deposits not included). ``han`` is 0 for a hand entered as yakuman (under aotenjou:
    the han counted, 13 per yakuman); ``fu`` is 0 when it was not given (limit hands);
    ``yakuman`` is the number of yakuman paid (a kazoe yakuman counts 1). ``basic`` is the
    basic points after limits. ``limit`` is ``""`` below mangan, else one of ``mangan``,
    ``kiriage mangan``, ``haneman``, ``baiman``, ``sanbaiman``, ``kazoe sanbaiman``,
    ``kazoe yakuman``, ``yakuman``, ``double yakuman``, ``triple yakuman`` ... ``sextuple
    yakuman``, then ``7x yakuman`` and so on.

    >>> r = hand(3, 40, tsumo=True, honba=1)
    >>> r.payments, r.total, r.label, r.basic
    ((1400, 2700), 5500, '1400/2700', 1280)
    """

    han: int
    fu: int
    yakuman: int
    dealer: bool
    tsumo: bool
    honba: int
    basic: int
    limit: str
    payments: tuple[int, ...]
    total: int
    label: str


# ------------------------------------------------------------------------------------------------
# Rules.


def _apply(pairs: Iterable[tuple[Any, Any]]) -> HandRules:
    """Hand rules from key/value pairs; a value of ``None`` is a bare flag (on)."""
    changes: dict[str, Any] = {}
    for raw_key, value in pairs:
        key = re.sub(r"[\s-]+", "_", str(raw_key).strip().lower())
        key = _KEY_ALIASES.get(key, key)
        if key not in HAND_RULE_KEYS:
            raise UmaokaError(
                f'"{raw_key}" is not a hand rule; use {", ".join(HAND_RULE_KEYS)}.'
                f"{_closest(key, HAND_RULE_KEYS)}"
            )
        if key in changes:
            raise UmaokaError(f"{key} is given twice in the hand rules; keep one of them.")
        if key == "kazoe":
            if value is None:
                raise UmaokaError("kazoe needs a value: write kazoe=yakuman or kazoe=sanbaiman.")
            text = str(value).strip().lower()
            if text not in KAZOE_CHOICES:
                raise UmaokaError(_unknown_value("kazoe", value, KAZOE_CHOICES))
            changes[key] = text
        elif key == "honba_value":
            if value is None:
                raise UmaokaError(
                    "honba_value needs a number: write e.g. honba_value=300 (or 1000 in sanma)."
                )
            changes[key] = _whole("honba_value", value, 0, "write the points of one honba, "
                                  "e.g. honba_value=300")
        else:
            changes[key] = True if value is None else _switch(key, value)
    return HandRules(**changes)


@lru_cache(maxsize=256)
def _from_text(text: str) -> HandRules:
    text = re.sub(r"\s*[=:]\s*", "=", text)
    pairs: list[tuple[str, Any]] = []
    for token in re.split(r"[;,\s]+", text):
        if not token:
            continue
        key, sep, value = token.partition("=")
        if not key:
            raise UmaokaError(
                f'cannot read "{token}" in the hand rules; write key=value or a bare rule '
                'name, e.g. "kiriage; kazoe=sanbaiman".'
            )
        pairs.append((key, value if sep else None))
    return _apply(pairs)


def hand_rules(spec: Any = None) -> HandRules:
    """Resolve ``None``, a :class:`HandRules`, a mapping, key/value rows or a text to rules.

    A text lists rules separated by ``;``, ``,`` or spaces: a bare rule name turns it on,
    ``key=value`` sets it (values on/off, true/false, yes/no, 1/0; case-insensitive).

    >>> hand_rules("kiriage; basengo; kazoe=sanbaiman; sanma") == HandRules(
    ...     kiriage=True, basengo=True, kazoe="sanbaiman", sanma=True)
    True
    >>> hand_rules("Kiriage=on aotenjou=off").kiriage
    True
    >>> hand_rules({"multiple_yakuman": "no"}).multiple_yakuman
    False
    >>> try:
    ...     hand_rules("kirage")
    ... except UmaokaError as error:
    ...     print(error)  # doctest: +ELLIPSIS
    "kirage" is not a hand rule; use kiriage, kazoe, ... Did you mean "kiriage"?
    """
    if spec is None:
        return HandRules()
    if isinstance(spec, HandRules):
        return spec
    if isinstance(spec, str):
        return _from_text(spec.strip())
    if isinstance(spec, Mapping):
        return _apply(spec.items())
    if isinstance(spec, Iterable):
        pairs: list[tuple[Any, Any]] = []
        for row in spec:
            cells = list(row) if isinstance(row, (list, tuple)) else [row]
            cells = [c for c in cells if c is not None and str(c).strip() != ""]
            if not cells:
                continue  # a blank row of a rules range
            if len(cells) == 1:  # one cell: a bare rule name or a whole text
                pairs.extend(_from_text_pairs(str(cells[0])))
            else:
                pairs.append((cells[0], cells[1]))
        return _apply(pairs)
    raise UmaokaError(
        f"hand rules must be a text such as \"kiriage; sanma\", a mapping or key/value rows "
        f"(got {spec!r})."
    )


def _from_text_pairs(text: str) -> list[tuple[str, Any]]:
    rules = _from_text(text.strip())
    return [(k, getattr(rules, k)) for k in HAND_RULE_KEYS
            if getattr(rules, k) != getattr(HandRules(), k)]


# ------------------------------------------------------------------------------------------------
# Input values.


def _whole(name: str, value: Any, minimum: int, hint: str) -> int:
    """A whole number from an int, a whole float (3.0 from Excel) or a numeric text."""
    n: int | None = None
    if not isinstance(value, bool) and value is not None:
        try:
            d = Decimal(str(value).replace(",", "").replace("_", "").strip())
            if d.is_finite() and d == d.to_integral_value():
                n = int(d)
        except InvalidOperation:
            pass
    if n is None or n < minimum:
        shown = f'"{value}"' if isinstance(value, str) else value
        raise UmaokaError(
            f"{name} must be a whole number of {minimum} or more (got {shown}); {hint}."
        )
    return n


def _flag(name: str, value: Any, words: dict[str, bool]) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in words:
        return words[text]
    if text in _ON:
        return True
    if text in _OFF:
        return False
    named = "/".join(f"'{w}'" for w in words)
    raise UmaokaError(
        f"{name} must be on/off (yes/no, true/false, 1/0) or {named} (got {value!r})."
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
        m = (re.fullmatch(r"(\d+) ?(?:x|×)? ?yakuman", text)
             or re.fullmatch(r"yakuman ?(?:x|×) ?(\d+)", text)
             or re.fullmatch(r"x ?(\d+) yakuman", text)
             or re.fullmatch(r"y ?(\d+)", text))
        if m:
            count = int(m.group(1))
            if count < 1:
                raise UmaokaError(
                    f'"{han}" has no yakuman in it; write yakuman, double yakuman or Y2, ...'
                )
            return 0, count, False
        if text in _LIMIT_HAN:
            return _LIMIT_HAN[text], 0, True
        if not re.fullmatch(r"[\d.,_+\s-]+", text):
            words = [*_YAKUMAN_COUNTS, *_LIMIT_HAN]
            raise UmaokaError(
                f'han cannot be "{han}"; enter the han count (a whole number), a limit '
                f"(mangan, haneman, baiman, sanbaiman) or a yakuman (yakuman, double yakuman, "
                f"Y2, ...).{_closest(text, words)}"
            )
    return _whole("han", han, 1, hint), 0, False


def _check_fu(fu: Any, han: int, tsumo: bool) -> int:
    """The fu, checked against the han and the win (20 and 25 fu only come from some hands)."""
    if isinstance(fu, bool):
        raise UmaokaError(f"fu must be a number such as 30 (got {fu}).")
    n = _whole("fu", fu, 0, "enter 20, 25, or 30 to 110 in steps of 10")
    if n not in FU_VALUES:
        if n < 20:
            how = "every hand has at least 20 fu"
        elif n > 110:
            how = "110 is the most fu a hand can have"
        else:
            how = f"round the fu up to the next 10 ({-(-n // 10) * 10})"
        raise UmaokaError(
            f"fu must be 20, 25 or a multiple of 10 from 30 to 110 (got {n}); {how}."
        )
    if n == 20 and not tsumo:
        raise UmaokaError(
            "a ron cannot be 20 fu: pinfu ron is 30 fu (20 fu is only a pinfu tsumo); "
            "use fu=30."
        )
    if n == 20 and han < 2:
        raise UmaokaError(
            "1 han 20 fu is impossible: a 20 fu pinfu tsumo already has 2 han (pinfu and "
            "menzen tsumo); check the han or the fu."
        )
    if n == 25 and han < 2:
        raise UmaokaError(
            "1 han 25 fu is impossible: 25 fu is only chiitoitsu, which is 2 han by itself; "
            "check the han or the fu."
        )
    if n == 25 and han < 3 and tsumo:
        raise UmaokaError(
            "2 han 25 fu cannot be won by tsumo: a chiitoitsu tsumo also has menzen tsumo, "
            "so it is 3 han or more; check the han."
        )
    return n


# ------------------------------------------------------------------------------------------------
# Scoring.


@lru_cache(maxsize=64)
def _config(dealer: bool, tsumo: bool, kiriage: bool, kazoe: str) -> HandConfig:
    """A ``mahjong`` HandConfig without honba (honba are added here for every rule)."""
    options = OptionalRules(
        kiriage=kiriage,
        kazoe_limit=(HandConfig.KAZOE_LIMITED if kazoe == "yakuman"
                     else HandConfig.KAZOE_SANBAIMAN),
        has_double_yakuman=True,
        limit_to_sextuple_yakuman=False,
    )
    return HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH, options=options)


def _limit(han: int, fu: int, rules: HandRules) -> tuple[str, int]:
    """``(limit name, basic points)`` of a counted (non-yakuman) hand, limits applied.

    The ``mahjong`` package decides the payments, but its ``yaku_level`` label cannot be
    used for this: it reads ``"yakuman"`` for a kazoe hand, ``"sanbaiman"`` for a hand
    capped by kazoe=sanbaiman, and ``""`` for a capped 4 han 40 fu hand when kiriage is on.
    """
    if han >= 13:
        if rules.kazoe == "sanbaiman":
            return "kazoe sanbaiman", _LIMIT_BASIC["sanbaiman"]
        return "kazoe yakuman", 8000
    if han >= 11:
        return "sanbaiman", _LIMIT_BASIC["sanbaiman"]
    if han >= 8:
        return "baiman", _LIMIT_BASIC["baiman"]
    if han >= 6:
        return "haneman", _LIMIT_BASIC["haneman"]
    if han == 5:
        return "mangan", _LIMIT_BASIC["mangan"]
    basic = fu * 2 ** (2 + han)
    if rules.kiriage and (han, fu) in ((4, 30), (3, 60)):
        return "kiriage mangan", _LIMIT_BASIC["mangan"]
    if basic > 2000:
        return "mangan", _LIMIT_BASIC["mangan"]
    return "", basic


# Instances, so that mahjong 1.x (instance methods) and 2.x (static methods) both work.
_SCORES = ScoresCalculator()
_AOTENJOU = Aotenjou()


def _yakuman_name(count: int) -> str:
    return _YAKUMAN_WORDS.get(count, f"{count}x yakuman")


def hand(
    han: Any = None,
    fu: Any = None,
    dealer: Any = False,
    tsumo: Any = False,
    honba: Any = 0,
    rules: Any = None,
    yakuman: Any = 0,
) -> HandResult:
    """What a win of ``han`` and ``fu`` pays, honba included.

    ``han`` is a whole number of 1 or more, a limit name (``"mangan"``, ``"haneman"``,
    ``"baiman"``, ``"sanbaiman"``: the least han of it) or a yakuman (``"yakuman"``,
    ``"double yakuman"``, ``"2x yakuman"``, ``"Y2"``, ...); or give ``yakuman=N`` and the
    han is ignored. ``fu`` is needed below mangan (and always under aotenjou); it may be
    left out from 5 han. Numbers may be ints, whole floats (3.0 from Excel) or texts
    ("3"). ``dealer`` and ``tsumo`` also take on/off, yes/no, 1/0, "dealer", "tsumo",
    "ron". ``rules`` is anything :func:`hand_rules` takes.

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
    >>> try:
    ...     hand(0)
    ... except UmaokaError as error:
    ...     print(error)
    han must be a whole number of 1 or more (got 0); enter the han count, or 'yakuman'.
    """
    r = hand_rules(rules)
    is_dealer = _flag("dealer", dealer, _DEALER_WORDS)
    is_tsumo = _flag("tsumo", tsumo, _TSUMO_WORDS)
    n_honba = _whole("honba", honba, 0, "enter the number of honba (repeat counters), 0 if none")
    count = _whole("yakuman", 0 if yakuman is None else yakuman, 0,
                   "enter how many yakuman the hand has, e.g. 2 for a double yakuman")
    named_limit = False
    if count:
        han_n = 0
    else:
        han_n, count, named_limit = _parse_han(han)

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
        fu_n = _check_fu(fu, counted, is_tsumo)
        config = _config(is_dealer, is_tsumo, False, "yakuman")
        score = _AOTENJOU.calculate_scores(counted, fu_n, config)
        limit, basic, han_n = "", fu_n * 2 ** (2 + counted), counted
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
            fu_n = _check_fu(fu, han_n, is_tsumo)
        score = _SCORES.calculate_scores(
            han_n, fu_n, _config(is_dealer, is_tsumo, r.kiriage, r.kazoe))
        limit, basic = _limit(han_n, fu_n, r)
        count = 1 if limit == "kazoe yakuman" else 0

    # Honba and the number of payers are computed here: the package's HandConfig has no
    # basengo nor honba value, and its three-player ron honba (200) is only one sanma rule.
    per_payer = r.honba_points // r.tsumo_payers * n_honba
    if not is_tsumo:
        payments: tuple[int, ...] = (score["main"] + r.honba_points * n_honba,)
        total = payments[0]
        label = str(total)
    elif is_dealer:
        payments = (score["main"] + per_payer,)
        total = payments[0] * r.tsumo_payers
        label = f"{payments[0]} all"
    else:
        payments = (score["additional"] + per_payer, score["main"] + per_payer)
        total = payments[0] * (r.tsumo_payers - 1) + payments[1]
        label = f"{payments[0]}/{payments[1]}"
    return HandResult(
        han=han_n, fu=fu_n, yakuman=count, dealer=is_dealer, tsumo=is_tsumo, honba=n_honba,
        basic=basic, limit=limit, payments=payments, total=total, label=label,
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
    """The scoring table (seed 003) as rows of texts, a header row first.

    Header: ``["han", "fu 20", "fu 25", "fu 30", ..., "fu 110"]``. Then one row per han
    from 1 to 4 (1 to 13 under aotenjou, which has no limits): the han, then for each fu
    ``"ron / tsumo"``, the tsumo as ``"non-dealer-dealer"`` (e.g. ``"1300 / 400-700"``) or
    ``"each all"`` for the dealer table (``"2000 / 700 all"``). A half that cannot happen is
    ``"-"`` (a 20 fu ron); a cell that cannot happen at all is ``""`` (1 han 20 or 25 fu).
    Then, except under aotenjou, one row per limit (mangan, haneman, baiman, sanbaiman,
    yakuman) with its payments under ``fu 20`` and the other cells ``""``. Every row has
    the header's length, so the table prints or pastes into a sheet as it is.

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
                name = "yakuman" if r.kazoe == "sanbaiman" else name
                cell = _cell_yakuman(is_dealer, r)
            else:
                cell = _cell(han, None, is_dealer, r)
            rows.append([name, cell] + [""] * (len(header) - 2))
    return rows


def _cell_yakuman(dealer: bool, rules: HandRules) -> str:
    ron = hand("yakuman", dealer=dealer, rules=rules)
    tsumo = hand("yakuman", dealer=dealer, tsumo=True, rules=rules)
    each = f"{tsumo.payments[0]} all" if dealer else "-".join(map(str, tsumo.payments))
    return f"{ron.payments[0]} / {each}"
