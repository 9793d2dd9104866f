"""Numbers as people type them: the one reader for every cell, file and argument.

A score, a deposit, a penalty, a chip count, a ruleset's ``start=`` or ``uma=``, a hand's
``--riichi``, a season's ``chip_value``: each comes from a cell, a CSV, a season file or the
command line, and each is read here before any arithmetic touches it. The reader bounds the
value by its text (at most :data:`MAX_TEXT` characters), its magnitude and its decimal places
by comparing exponents and digits only, so ``1e9999999``, ``1e-9999999``, ``NaN``, ``inf``
or ``1_000`` are refused in one sentence and never reach a ``Decimal`` operation (where the
default context would raise ``decimal.Overflow`` or quietly round to 0).

>>> read_number("1,250.5", "start", "give points")
Decimal('1250.5')
>>> read_number("1e9999999", "start", "give points")
Traceback (most recent call last):
...
umaoka.engine.typed_numbers.NumberError: start ("1e9999999") is far too large; give points.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from umaoka.engine.errors import UmaokaError, excerpt

#: Most characters of a typed number (after surrounding spaces): 100 digits is no score.
MAX_TEXT = 100
#: Most decimal places a number may have (trailing zeros aside): an Excel float such as
#: 0.30000000000000004 has 17; ``1e-9999999`` has nine million.
MAX_PLACES = 20

# A plain decimal: sign, digits with at most one point, an optional exponent. Each part is
# matched one way only, so the pattern runs in linear time on any text. No underscores (Python
# reads 1_000 as 1000; no spreadsheet does), no NaN or Infinity.
_PLAIN = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_DIGITS = re.compile(r"[+-]?\d+")
_NOT_FINITE = frozenset(("nan", "snan", "inf", "infinity"))


class NumberError(UmaokaError):
    """A value that is not a bounded, finite number; ``kind`` says why, for callers that word
    their own sentence: ``"text"`` (not a number), ``"infinite"`` (NaN or infinity),
    ``"large"`` (at or beyond the bound) or ``"fine"`` (too many decimal places)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _refuse(kind: str, value: Any, what: str, hint: str, below: int) -> NumberError:
    number = isinstance(value, (int, float, Decimal)) or value is None
    shown = excerpt(value) if number else f'"{excerpt(value)}"'  # text (or a date) quoted
    problem = {"text": "is not a number", "infinite": "is not a finite number",
               "large": "is far too large",
               "fine": f"has more than {MAX_PLACES} decimal places"}[kind]
    return NumberError(f"{what} ({shown}) {problem}; {hint}.", kind)


def read_number(value: Any, what: str = "the value", hint: str = "enter a number",
                below: int = 10**12, commas: bool = True) -> Decimal:
    """``value`` (an int, a float, a Decimal or text such as ``"1,250.5"`` or ``"−20"``) as
    an exact Decimal whose magnitude is below ``below`` and which has at most
    :data:`MAX_PLACES` decimal places; otherwise a :class:`NumberError` naming ``what``, with
    ``hint`` saying what to enter. Commas are thousands separators (``1,250``) unless
    ``commas`` is false (where a comma would rather be a decimal comma). Blank values are
    the caller's to handle (they mean different things in different cells); here they are
    not numbers.

    >>> read_number(-0.0), read_number("0E-9999999"), read_number(2.5)
    (Decimal('0'), Decimal('0'), Decimal('2.5'))
    >>> read_number("1e-9999999", "deposits", "enter points")
    Traceback (most recent call last):
    ...
    umaoka.engine.typed_numbers.NumberError: deposits ("1e-9999999") has more than 20 decimal ...
    """
    if type(value) is int:
        if -below < value < below:
            return Decimal(value)
        raise _refuse("large", value, what, hint, below)
    if isinstance(value, bool) or value is None:
        raise _refuse("text", value, what, hint, below)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _refuse("infinite", value, what, hint, below)
        d = Decimal(repr(value))
    elif isinstance(value, Decimal):
        d = value
    elif isinstance(value, int):  # an int subclass (numpy's are not, but an IntEnum is)
        return read_number(int(value), what, hint, below)
    else:
        try:
            text = value if isinstance(value, str) else str(value)
        except ValueError:  # pragma: no cover - str() of an int is handled above
            raise _refuse("text", value, what, hint, below) from None
        text = text.strip().replace("\u2212", "-")
        if commas:
            text = text.replace(",", "")
        if len(text) > MAX_TEXT:
            kind = "large" if _DIGITS.fullmatch(text) else "text"
            raise _refuse(kind, value, what, hint, below)
        if not _PLAIN.fullmatch(text):
            kind = "infinite" if text.lstrip("+-").lower() in _NOT_FINITE else "text"
            raise _refuse(kind, value, what, hint, below)
        try:
            d = Decimal(text)
        except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
            raise _refuse("text", value, what, hint, below) from None
    return _bounded(d, value, what, hint, below)


def _bounded(d: Decimal, value: Any, what: str, hint: str, below: int) -> Decimal:
    """``d`` checked by its exponent and digits only (no arithmetic, so no context limits)."""
    if not d.is_finite():
        raise _refuse("infinite", value, what, hint, below)
    if not d:
        return Decimal(0)  # -0, 0.000 and 0E-9999999 are all 0, kept short
    if d.adjusted() >= len(str(below)) or d.copy_abs() >= below:  # exponents compared first
        raise _refuse("large", value, what, hint, below)
    exponent = int(d.as_tuple().exponent)
    if exponent < -MAX_PLACES:  # 2.500000000000000000000000 is 2.5; 1e-9999999 is refused
        sign, digits, _ = d.as_tuple()  # bounded: adjusted() < 13 and, for text, 100 digits
        trailing = _trailing_zeros(digits)
        if exponent + trailing < -MAX_PLACES:
            raise _refuse("fine", value, what, hint, below)
        keep = min(trailing, -exponent)
        d = Decimal((sign, digits[:len(digits) - keep], exponent + keep))
    return d


def _trailing_zeros(digits: tuple[int, ...]) -> int:
    n = 0
    for x in reversed(digits):
        if x:
            break
        n += 1
    return n


def read_whole(value: Any, what: str = "the value", hint: str = "enter a whole number",
               below: int = 10**12, commas: bool = True) -> int:
    """:func:`read_number`, then a whole number (``3.0`` from Excel is 3), as an int;
    otherwise a :class:`NumberError` of kind ``"fraction"``.

    >>> read_whole("1,000"), read_whole(3.0)
    (1000, 3)
    """
    if type(value) is int and -below < value < below:
        return value
    d = read_number(value, what, hint, below, commas)
    if d.as_tuple().exponent < 0 and d != d.to_integral_value():  # exact: d is bounded
        shown = f'"{excerpt(value)}"' if isinstance(value, str) else excerpt(value)
        raise NumberError(f"{what} ({shown}) is not a whole number; {hint}.", "fraction")
    return int(d)
