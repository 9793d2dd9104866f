"""Hand rules: the scoring options of a table (kiriage, kazoe, aotenjou, honba, sanma, pao).

A hand-rules text lists rules separated by ``;``, ``,`` or spaces; a bare rule name
turns it on, ``key=value`` sets it. The same rules come as a mapping or as the
key/value rows of a rules range in a sheet.

>>> hand_rules("kiriage; kazoe=unlimited").kazoe
'unlimited'
>>> hand_rules("sanma").honba_points
200
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from umaoka.engine.errors import UmaokaError, as_repr, as_text, excerpt
from umaoka.engine.rules import _closest, _switch, _unknown_value
from umaoka.engine.typed_numbers import NumberError, read_number

#: The rule keys a hand-rules text or mapping may use.
HAND_RULE_KEYS: tuple[str, ...] = (
    "kiriage",
    "kazoe",
    "aotenjou",
    "basengo",
    "sanma",
    "multiple_yakuman",
    "honba_value",
    "pao_honba",
)

#: What 13 or more counted han is worth: one yakuman, sanbaiman, or one yakuman per 13 han.
KAZOE_CHOICES: tuple[str, ...] = ("yakuman", "sanbaiman", "unlimited")

#: Who pays the honba when a yakuman with a liable player (pao) is won by ron.
PAO_HONBA_CHOICES: tuple[str, ...] = ("discarder", "liable")

#: One plain-words line per hand rule, for help texts and a rules sheet.
HAND_RULE_HELP: dict[str, str] = {
    "kiriage": "on: 4 han 30 fu and 3 han 60 fu (1920 basic points) are rounded up to mangan.",
    "kazoe": "What 13+ counted han are worth: yakuman (kazoe yakuman), sanbaiman (capped), or "
             "unlimited (a yakuman per 13 han: 26 han double, 39 triple).",
    "aotenjou": "on: no limits at all; every hand pays fu x 2^(2+han), yakuman count 13 han each.",
    "basengo": "on: a honba is worth five times as much (1500, or 1000 in sanma).",
    "sanma": "on: three players; a tsumo is paid by the two others only (tsumo loss).",
    "multiple_yakuman": "on: double/triple yakuman pay 2x/3x; off: every yakuman pays one.",
    "honba_value": "Points one honba adds (300; 200 in sanma), split between the payers on tsumo.",
    "pao_honba": "Who pays the honba of a ron on a hand with a liable player (pao): discarder "
                 "(usual) or liable. On a tsumo the liable player pays them all.",
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
    "sekinin_barai_honba": "pao_honba",
    "liable_honba": "pao_honba",
}

# Other names of kazoe=unlimited (the mahjong package calls it "no limit").
_KAZOE_ALIASES = {
    "multiple": "unlimited",
    "no_limit": "unlimited",
    "nolimit": "unlimited",
    "limitless": "unlimited",
    "multiple_yakuman": "unlimited",
}
_PAO_HONBA_ALIASES = {"discarder": "discarder", "ron": "discarder", "houjuu": "discarder",
                      "放銃者": "discarder", "liable": "liable", "pao": "liable", "包": "liable",
                      "責任者": "liable"}


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

    ``kazoe=unlimited`` pays a yakuman per full 13 counted han (26 han: double yakuman,
    39: triple), the ``mahjong`` package's "no limit"; it needs ``multiple_yakuman`` on.
    ``pao_honba`` says who pays the honba when a hand with a liable player is won by ron:
    the discarder (the usual rule, and the one of the EMA and WRC rule books) or the liable
    player; on a tsumo the liable player always pays them.

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
    pao_honba: str = "discarder"

    def __post_init__(self) -> None:
        for key in ("kiriage", "aotenjou", "basengo", "sanma", "multiple_yakuman"):
            if not isinstance(getattr(self, key), bool):
                raise UmaokaError(f"{key} must be True or False (got {getattr(self, key)!r}).")
        if self.kazoe not in KAZOE_CHOICES:
            raise UmaokaError(_unknown_value("kazoe", self.kazoe, KAZOE_CHOICES))
        if self.pao_honba not in PAO_HONBA_CHOICES:
            raise UmaokaError(_unknown_value("pao_honba", self.pao_honba, PAO_HONBA_CHOICES))
        if self.kazoe == "unlimited" and not self.multiple_yakuman:
            raise UmaokaError(
                "kazoe=unlimited pays 26 counted han as a double yakuman, but "
                "multiple_yakuman=off pays every yakuman as one; keep one of them."
            )
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
        'kiriage=on kazoe=yakuman aotenjou=off basengo=off sanma=on multiple_yakuman=on \
pao_honba=discarder'
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


# ------------------------------------------------------------------------------------------------
# Reading rules.


def _whole(name: str, value: Any, minimum: int, hint: str, maximum: int = 100_000) -> int:
    """A whole number from an int, a whole float (3.0 from Excel) or a numeric text, at most
    ``maximum`` (far beyond any real hand, so huge values never reach the arithmetic)."""
    n: int | None = None
    if not isinstance(value, bool) and value is not None:
        try:
            d = read_number(value, name, hint)
            if d == d.to_integral_value():  # exact: d is bounded
                n = int(d) if d.copy_abs() <= 10**9 else maximum + 1
        except NumberError as e:
            if e.kind == "large":
                n = maximum + 1
    shown = f'"{excerpt(value)}"' if isinstance(value, str) else excerpt(value)
    if n is None or n < minimum:
        raise UmaokaError(
            f"{name} must be a whole number of {minimum} or more (got {shown}); {hint}."
        )
    if n > maximum:
        raise UmaokaError(f"{name} must be a whole number from {minimum} to {maximum:,} "
                          f"(got {shown}); {hint}.")
    return n


def _word(value: Any) -> str:
    return re.sub(r"[\s-]+", "_", as_text(value).strip().lower())


def _kazoe(value: Any) -> str:
    if value is None:
        raise UmaokaError("kazoe needs a value: write kazoe=yakuman, kazoe=sanbaiman or "
                          "kazoe=unlimited.")
    text = _word(value)
    text = _KAZOE_ALIASES.get(text, text)
    if text == "none":  # "no limit" or "no kazoe yakuman"? Both are real rules.
        raise UmaokaError(
            'kazoe=none could mean either rule: write kazoe=unlimited (no limit: 26 han is '
            "a double yakuman) or kazoe=sanbaiman (no kazoe yakuman: 13 han is sanbaiman)."
        )
    if text not in KAZOE_CHOICES:
        raise UmaokaError(_unknown_value("kazoe", value, KAZOE_CHOICES))
    return text


def _pao_honba(value: Any) -> str:
    if value is None:
        raise UmaokaError("pao_honba needs a value: write pao_honba=discarder or "
                          "pao_honba=liable.")
    text = _PAO_HONBA_ALIASES.get(_word(value))
    if text is None:
        raise UmaokaError(_unknown_value("pao_honba", value, PAO_HONBA_CHOICES))
    return text


def _apply(pairs: Iterable[tuple[Any, Any]]) -> HandRules:
    """Hand rules from key/value pairs; a value of ``None`` is a bare flag (on)."""
    changes: dict[str, Any] = {}
    for raw_key, value in pairs:
        key = _word(raw_key)
        key = _KEY_ALIASES.get(key, key)
        if key not in HAND_RULE_KEYS:
            raise UmaokaError(
                f'"{excerpt(raw_key)}" is not a hand rule; use {", ".join(HAND_RULE_KEYS)}.'
                f"{_closest(key, HAND_RULE_KEYS)}"
            )
        if key in changes:
            raise UmaokaError(f"{key} is given twice in the hand rules; keep one of them.")
        if key == "kazoe":
            changes[key] = _kazoe(value)
        elif key == "pao_honba":
            changes[key] = _pao_honba(value)
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
                f'cannot read "{excerpt(token)}" in the hand rules; write key=value or a bare rule '
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
    >>> hand_rules("kazoe=multiple").kazoe
    'unlimited'
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
        f"(got {excerpt(as_repr(spec))})."
    )


def _from_text_pairs(text: str) -> list[tuple[str, Any]]:
    rules = _from_text(text.strip())
    return [(k, getattr(rules, k)) for k in HAND_RULE_KEYS
            if getattr(rules, k) != getattr(HandRules(), k)]
