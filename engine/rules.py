"""Rulesets: the fields of a league's settlement rules (docs/rules.md) and how each is read.

A :class:`Ruleset` holds one value per field; this module reads and checks each value
(uma texts, roundings, switches...). Turning what a user writes (a preset name, a text
such as ``"mleague; ties=seat"``, a key/value table) into a Ruleset is
:func:`umaoka.engine.resolve.ruleset`, which also knows the presets.

One module, not two: it is the list of the ruleset's fields, one reader per field,
and the :class:`Ruleset` that holds them; a field's reader sits next to the field.

>>> parse_uma("10-30")
(Decimal('30'), Decimal('10'), Decimal('-10'), Decimal('-30'))
>>> Ruleset(uma=parse_uma("15/5/-5/-15"), oka=False, target=25000).oka_points
0
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt
from umaoka.engine.typed_numbers import NumberError, read_number

#: The longest ruleset text read: a preset name and every field overridden fit in a few
#: hundred characters; longer texts are refused at once (an Excel cell holds 32,767).
MAX_TEXT = 2000

#: Excel's error values, as a cell holding one arrives (Office.js sends them as text too).
EXCEL_ERRORS = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A",
                          "#GETTING_DATA", "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!",
                          "#CONNECT!", "#BUSY!", "#UNKNOWN!", "#PYTHON!", "#EXTERNAL!"})

FIELDS = (
    "players",
    "start",
    "target",
    "oka",
    "uma",
    "floating",
    "rounding",
    "round_on",
    "adjust",
    "ties",
    "leftover",
    "scoring",
    "shared_place",
)

#: The fixed choices of each field that has them (used for errors and Excel dropdowns).
CHOICES: dict[str, tuple[str, ...]] = {
    "players": ("4", "3"),
    "oka": ("on", "off"),
    "rounding": ("none", "half_down", "half_up", "half_toward_zero", "half_away_from_zero",
                 "floor", "ceil", "toward_zero"),
    "round_on": ("difference", "raw"),
    "adjust": ("first", "last", "none"),
    "ties": ("seat", "split", "split_uma"),
    "leftover": ("first", "lost"),
    "scoring": ("points", "places"),
    "shared_place": ("better", "worse", "split"),
}

#: One plain-words line per field, for help texts and the rules sheet.
FIELD_HELP: dict[str, str] = {
    "players": "Number of players: 4, or 3 for sanma.",
    "start": "Starting points of each player, e.g. 25000.",
    "target": "Return (target) points, e.g. 30000; with oka on, (target - start) x players "
    "goes to 1st.",
    "oka": "on: 1st receives the oka; off: scores are measured from the starting points.",
    "uma": "Place bonus in thousands, 1st to last, e.g. 20/10/-10/-20 or 10-20.",
    "floating": "off, shift (uma follows who is above target), or a table "
    "1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12.",
    "rounding": "How scores are rounded to whole points: none (exact to 0.1), half_down (五捨六入, "
    "-7.5 -> -8), half_up (四捨五入, -7.5 -> -7), half_toward_zero (-10.5 -> -10), "
    "half_away_from_zero (Excel's ROUND, -10.5 -> -11), floor, ceil, toward_zero (drop the "
    "fraction).",
    "round_on": "What is rounded: difference ((raw - target)/1000, the usual way) or raw (the raw "
    "points to the thousand, then target/1000 is subtracted: Tenhou's integer era, -3,500 -> "
    "-4 - 30 = -34).",
    "adjust": "Who absorbs the rounding error so the scores sum to zero: first, last, none.",
    "ties": "Equal raw scores: seat (earlier seat ranks higher), split (tied players share oka "
    "and uma) or split_uma (they share the uma; the oka goes to the earlier seat).",
    "leftover": "Riichi sticks left at the end: first (to 1st place) or lost.",
    "scoring": "points (the raw-score difference plus the place bonus) or places (the place "
    "bonus alone: uma, and the oka to 1st with oka on; the raw scores only decide the places).",
    "shared_place": "How the standings count a place shared by tied players (counts, rates, "
    "average place): better (tied for 3rd-4th counts as 3rd), worse (as 4th) or split (half a "
    "3rd and half a 4th).",
}

_ON = {"on", "true", "yes", "1", "y", "はい", "あり", "有り"}
_OFF = {"off", "false", "no", "0", "n", "いいえ", "なし", "無し"}

# Other names of the choices, so a rules sheet can be filled in either language. The
# traditional words keep the meaning they always had here (四捨五入 = half_up, 五捨六入 =
# half_down, 切り捨て = floor); the symmetric modes use the standard wording "絶対値で"
# (on the absolute value, as JIS Z 8401 describes 四捨五入 of negative numbers) and
# "0への丸め" (rounding toward zero). Keys are compared lower-cased, "-" and " " as "_".
_VALUE_ALIASES: dict[str, dict[str, str]] = {
    "rounding": {
        "五捨六入": "half_down",
        "四捨五入": "half_up",
        "切り捨て": "floor",
        "切捨て": "floor",
        "切り上げ": "ceil",
        "切上げ": "ceil",
        "round_half_down": "half_down",
        "round_half_up": "half_up",
        "halfdown": "half_down",
        "halfup": "half_up",
        "絶対値で五捨六入": "half_toward_zero",
        "絶対値五捨六入": "half_toward_zero",
        "絶対値で四捨五入": "half_away_from_zero",
        "絶対値四捨五入": "half_away_from_zero",
        "0への丸め": "toward_zero",
        "ゼロへの丸め": "toward_zero",
        "負の無限大への丸め": "floor",
        "正の無限大への丸め": "ceil",
        "trunc": "toward_zero",
        "truncate": "toward_zero",
    },
    "round_on": {
        "diff": "difference",
        "差": "difference",
        "差分": "difference",
        "素点": "raw",
        "raw_score": "raw",
        "raw_points": "raw",
    },
    "ties": {
        "equalize_uma": "split_uma",  # MahjongPantheon's name for this rule
        "splituma": "split_uma",
    },
    "scoring": {
        "place": "places",
        "placement": "places",
        "placement_only": "places",
        "place_only": "places",
        "順位": "places",
        "順位点": "places",
        "point": "points",
        "素点": "points",
    },
    "shared_place": {
        "higher": "better",
        "upper": "better",
        "lower": "worse",
        "share": "split",
        "shared": "split",
    },
}

# Seed 002's shorthands: what 3rd pays 2nd - what last pays 1st.
UMA_SHORTHANDS = {
    "5-10": (10, 5, -5, -10),
    "10-20": (20, 10, -10, -20),
    "10-30": (30, 10, -10, -30),
    "20-30": (30, 20, -20, -30),
}


def _tenths(value: Decimal) -> int:
    """An uma value in thousands as an integer count of tenths (100 points)."""
    return int(value * 10)


@dataclass(frozen=True)
class Ruleset:
    """One league's settlement rules: every field of docs/rules.md.

    ``uma`` is in thousands, 1st place first. ``floating`` is ``"off"``,
    ``"shift"`` or ``"table"``; with ``"table"``, ``floating_table[k - 1]`` is the
    uma vector when ``k`` players (1 to 3) are at or above target.
    """

    players: int = 4
    start: int = 25000
    target: int = 30000
    oka: bool = True
    uma: tuple[Decimal, ...] = tuple(Decimal(v) for v in (20, 10, -10, -20))
    floating: str = "off"
    floating_table: tuple[tuple[Decimal, ...], ...] = ()
    rounding: str = "half_down"
    round_on: str = "difference"
    adjust: str = "first"
    ties: str = "seat"
    leftover: str = "first"
    #: ``points``: the raw-score difference counts (steps 3-5); ``places``: the place bonus
    #: alone (placement-only leagues).
    scoring: str = "points"
    #: How the standings count a place shared by split-tied players: ``better``, ``worse``
    #: or ``split`` (see :func:`umaoka.engine.standings.place_shares`); not a settlement rule.
    shared_place: str = "better"
    #: Where the ruleset came from (preset name, or ``"custom"``); not part of the rules.
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        _validate(self)
        # Integer views in tenths of a final point (100 raw points), for the fast path.
        t = self.target if self.oka else self.start
        object.__setattr__(self, "_t", t // 100)
        object.__setattr__(self, "_oka", (self.target - self.start) * self.players // 100
                           if self.oka else 0)
        object.__setattr__(self, "_uma", tuple(_tenths(u) for u in self.uma))
        object.__setattr__(self, "_table", tuple(tuple(_tenths(u) for u in vec)
                                                 for vec in self.floating_table))
        object.__setattr__(self, "_unit", 1 if self.rounding == "none" else 10)
        # Step 4's result for each points value met so far (filled by settle).
        object.__setattr__(self, "_rounded", {})

    # -- derived values a league manager recognises -------------------------------------------
    @property
    def oka_points(self) -> int:
        """The oka in raw points: (target - start) x players with oka on, else 0."""
        return (self.target - self.start) * self.players if self.oka else 0

    @property
    def uma_text(self) -> str:
        """The uma as ``20/10/-10/-20``."""
        return format_uma(self.uma)

    @property
    def floating_text(self) -> str:
        """``off``, ``shift`` or the table as ``1:12/-1/-3/-8|2:...``."""
        if self.floating != "table":
            return self.floating
        return "|".join(f"{k}:{format_uma(v)}" for k, v in enumerate(self.floating_table, 1))

    def values(self) -> dict[str, Any]:
        """The fields as plain values (numbers and texts), the way a rules sheet shows them."""
        return {
            "players": self.players,
            "start": self.start,
            "target": self.target,
            "oka": "on" if self.oka else "off",
            "uma": self.uma_text,
            "floating": self.floating_text,
            "rounding": self.rounding,
            "round_on": self.round_on,
            "adjust": self.adjust,
            "ties": self.ties,
            "leftover": self.leftover,
            "scoring": self.scoring,
            "shared_place": self.shared_place,
        }

    def text(self) -> str:
        """A ruleset text that resolves back to this ruleset.

        >>> Ruleset(ties="split").text()
        'players=4 start=25000 target=30000 oka=on uma=20/10/-10/-20 floating=off \
rounding=half_down round_on=difference adjust=first ties=split leftover=first \
scoring=points shared_place=better'

        """
        return " ".join(f"{k}={v}" for k, v in self.values().items())

    def with_changes(self, **changes: Any) -> Ruleset:
        """A copy with some fields changed (validated like any ruleset)."""
        return replace(self, name="custom", **changes)


def format_uma(values: Iterable[Decimal]) -> str:
    """``(20, 10, -10, -20)`` as ``20/10/-10/-20``."""
    return "/".join(_plain(v) for v in values)


def _plain(v: Decimal) -> str:
    s = format(v.normalize(), "f") if isinstance(v, Decimal) else str(v)
    return "0" if s in ("-0", "0.0") else s


# ------------------------------------------------------------------------------------------------
# Validation of a whole ruleset: every message says what is wrong and how to fix it.


def _validate(r: Ruleset) -> None:
    if r.players not in (3, 4):
        raise UmaokaError(f"players must be 4 or 3 (got {r.players}).")
    for key in ("start", "target"):
        v = getattr(r, key)
        if v <= 0 or v % 100:
            raise UmaokaError(
                f"{key} must be a positive whole number of points in steps of 100 (got {v}); "
                "write it in full, e.g. 25000."
            )
    if r.oka and r.target < r.start:
        raise UmaokaError(
            f"target ({r.target:,}) is below start ({r.start:,}) with oka on; raise target to at "
            "least start, or set oka=off."
        )
    _check_uma(r.uma, r.players, "uma")
    for choice in ("rounding", "round_on", "adjust", "ties", "leftover", "scoring",
                   "shared_place"):
        if getattr(r, choice) not in CHOICES[choice]:
            raise UmaokaError(_unknown_value(choice, getattr(r, choice)))
    if r.floating not in ("off", "shift", "table"):
        raise UmaokaError(
            f"floating must be off, shift or a table such as 1:12/-1/-3/-8|2:8/4/-4/-8|"
            f"3:8/3/1/-12 (got {r.floating!r})."
        )
    if r.floating != "off" and r.players != 4:
        raise UmaokaError(
            "floating uma is defined for four players only; set floating=off for a "
            "three-player ruleset."
        )
    if r.floating == "table":
        if len(r.floating_table) != 3:
            raise UmaokaError(
                "a floating uma table needs one uma vector for each of 1, 2 and 3 floating "
                "players, e.g. 1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12."
            )
        for k, vec in enumerate(r.floating_table, 1):
            _check_uma(vec, r.players, f"the floating uma for {k} floating")
    elif r.floating_table:
        raise UmaokaError("a floating uma table was given but floating is not 'table'.")


def _check_uma(uma: tuple[Decimal, ...], players: int, what: str) -> None:
    if len(uma) != players:
        example = "20/0/-20" if players == 3 else "20/10/-10/-20"
        raise UmaokaError(
            f"{what} has {len(uma)} values but the ruleset has {players} players; give "
            f"{players} values from 1st to last, e.g. {example}."
        )
    for u in uma:
        if not isinstance(u, Decimal) or not u.is_finite() or u != u.quantize(Decimal("0.1")):
            raise UmaokaError(
                f"{what} value {u} is not a number in thousands with at most one decimal "
                "place; write e.g. 20/10/-10/-20."
            )


# ------------------------------------------------------------------------------------------------
# Parsing of field values.


def _closest(word: str, options: Iterable[str]) -> str:
    if len(word) > 40:  # no option is that long; difflib's time grows with the word squared
        return ""
    match = difflib.get_close_matches(word.lower(), list(options), n=1, cutoff=0.6)
    return f' Did you mean "{match[0]}"?' if match else ""


def _unknown_value(key: str, value: Any, options: Iterable[str] | None = None) -> str:
    opts = list(CHOICES[key] if options is None else options)
    return (
        f'{key} cannot be "{excerpt(value)}"; use one of {", ".join(opts)}.'
        f"{_closest(as_text(value), opts)}"
    )


def _number(key: str, value: Any) -> int:
    if isinstance(value, bool):
        raise UmaokaError(f"{key} must be a number of points, e.g. 25000 (got {value}).")
    try:
        d = read_number(value, key, "write a number of points, e.g. 25000", 10**9)
    except NumberError as e:
        if e.kind == "text":
            raise UmaokaError(f'{key} must be a number of points, e.g. 25000 (got '
                              f'"{excerpt(value)}").') from None
        d = None
    if d is None or d != d.to_integral_value():  # exact: d is below 10**9
        raise UmaokaError(f"{key} must be a whole number of points below 1,000,000,000, e.g. "
                          f"25000 (got {excerpt(value)}).")
    return int(d)


def _switch(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = as_text(value).strip().lower()
    if text in _ON:
        return True
    if text in _OFF:
        return False
    raise UmaokaError(_unknown_value(key, value, ("on", "off")))


def _choice(key: str, value: Any) -> str:
    text = as_text(value).strip().lower().replace("-", "_").replace(" ", "_")
    text = _VALUE_ALIASES.get(key, {}).get(text, text)
    if text not in CHOICES[key]:
        raise UmaokaError(_unknown_value(key, value))
    return text


def parse_uma(value: Any, what: str = "uma") -> tuple[Decimal, ...]:
    """An uma vector from a list, ``20/10/-10/-20``, ``+20,+10,-10,-20`` or a shorthand.

    >>> parse_uma("5-10")
    (Decimal('10'), Decimal('5'), Decimal('-5'), Decimal('-10'))
    >>> parse_uma("+20,+10,-10,-20") == parse_uma([20, 10, -10, -20])
    True
    >>> parse_uma(0) == parse_uma("none") == ()
    True
    """
    if isinstance(value, str):
        text = value.strip().replace("＋", "+").replace("－", "-").replace("−", "-")
        if text.lower() in ("", "none", "off", "0"):
            return ()  # "no uma": filled with zeros of the right length by the caller
        if text in UMA_SHORTHANDS:
            return tuple(Decimal(v) for v in UMA_SHORTHANDS[text])
        parts = [p for p in re.split(r"[/,;\s]+", text) if p]
    elif isinstance(value, Iterable):
        parts = list(value)
    elif (type(value) in (int, float) and value == 0) or (type(value) is Decimal
                                                         and value.is_zero()):
        return ()  # the number 0, as the text "0": no uma (a rules sheet's typed 0)
    else:
        parts = [value]
    if len(parts) > 8:
        raise UmaokaError(f"{what} has {len(parts)} values; give one per player from 1st to "
                          "last, e.g. 20/10/-10/-20.")
    out = []
    for p in parts:
        try:
            if isinstance(p, bool):
                raise InvalidOperation
            d = read_number(p, what, "write 20/10/-10/-20", 10**6, commas=False)
        except (InvalidOperation, NumberError):
            raise UmaokaError(
                f'{what} "{excerpt(value)}" is not a list of numbers in thousands; write it as '
                "20/10/-10/-20, +20,+10,-10,-20, or a shorthand 5-10, 10-20, 10-30, 20-30."
            ) from None
        out.append(d)  # read_number gives 0 for -0
    return tuple(out)


def _parse_floating(value: Any) -> tuple[str, tuple[tuple[Decimal, ...], ...]]:
    if isinstance(value, Mapping):
        entries = {}
        for k, vec in value.items():
            try:
                entries[k if type(k) is int else int(str(k).strip())] = vec
            except ValueError:
                raise UmaokaError(
                    f'floating table key "{excerpt(k)}" should be a floating count 1, 2 or 3, '
                    'e.g. {1: "12/-1/-3/-8", 2: "8/4/-4/-8", 3: "8/3/1/-12"}.'
                ) from None
    elif isinstance(value, bool):
        return ("shift" if value else "off"), ()
    else:
        text = as_text(value).strip().lower()
        if text in _OFF or text == "":
            return "off", ()
        if text in ("shift", "on", "sliding"):
            return "shift", ()
        if ":" not in text:
            raise UmaokaError(
                f'floating cannot be "{excerpt(value)}"; use off, shift, or a table such as '
                "1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12."
                + _closest(text, ("off", "shift"))
            )
        entries = {}
        for part in re.split(r"[|;]", text):
            if not part.strip():
                continue
            k, _, vec = part.partition(":")
            try:
                entries[int(k.strip())] = vec
            except ValueError:
                raise UmaokaError(
                    f'floating table entry "{excerpt(part.strip())}" should look like 2:8/4/-4/-8 '
                    "(floating count, colon, uma)."
                ) from None
    if sorted(entries) != [1, 2, 3]:
        raise UmaokaError(
            "a floating uma table needs one uma vector for each of 1, 2 and 3 floating players "
            f"(got {excerpt(sorted(entries))}), e.g. 1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12."
        )
    return "table", tuple(
        parse_uma(entries[k], f"the floating uma for {k} floating") for k in (1, 2, 3)
    )


# ------------------------------------------------------------------------------------------------
# Resolving any form of ruleset.

_KEY_ALIASES = {"return": "target", "returns": "target", "tie": "ties", "deposits": "leftover",
                "roundon": "round_on",
                "preset": "preset", "ruleset": "preset", "base": "preset", "name": "preset"}


def _key(raw_key: Any) -> str:
    """A key as written (any case, spaces, other names) as the field it names, or as is."""
    key = as_text(raw_key).strip().lower().replace(" ", "_")
    return _KEY_ALIASES.get(key, key)


def _check_value(key: str, value: Any) -> None:
    """Refuse a blank, an Excel error or an overlong text as a key's value, naming the key."""
    if isinstance(value, Mapping) and "basicValue" in value and (
            key != "floating" or value.get("type") == "Error"):
        value = value.get("basicValue")  # an Office.js cell entity, e.g. an error value
    if value is None or (isinstance(value, str) and not value.strip()):
        example = "mleague" if key == "preset" else Ruleset().values()[key]
        raise UmaokaError(f"{key} has no value (it is blank); give one, e.g. {key}={example}, "
                          f"or leave {key} out.")
    if isinstance(value, str):
        if value.strip().upper() in EXCEL_ERRORS:
            raise UmaokaError(f"the value of {key} is the Excel error {value.strip().upper()}; "
                              "fix the cell it comes from or type the value.")
        if len(value) > MAX_TEXT:
            raise UmaokaError(f'the value of {key} is {len(value):,} characters long '
                              f'("{excerpt(value)}"); give a short value such as '
                              f"{key}=" + ("mleague" if key == "preset" else
                                           str(Ruleset().values()[key])) + ".")


def _text_pairs(text: str) -> tuple[str | None, list[tuple[str, str]]]:
    """Split ``"mleague; ties=seat uma=20, 10, -10, -20"`` into a preset name and pairs."""
    if len(text) > MAX_TEXT:
        raise UmaokaError(
            f'the ruleset text "{excerpt(text)}" is {len(text):,} characters long; a ruleset is '
            f"a preset name and a few key=value overrides, at most {MAX_TEXT:,} characters."
        )
    # A key starts where no word character precedes it, so each word is tried once.
    matches = list(re.finditer(r"(?<!\w)([A-Za-z_]\w*)\s*=\s*", text))
    head = text[: matches[0].start()] if matches else text
    head = head.strip().strip(";,").strip()
    pairs = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        value = text[m.end():end].strip().rstrip(";,").strip()
        pairs.append((m.group(1), value))
    if head and (" " in head or ";" in head):
        raise UmaokaError(
            f'cannot read the ruleset "{excerpt(text)}"; write a preset name first, then key=value '
            'overrides, e.g. "mleague; ties=seat".'
        )
    return (head or None), pairs
