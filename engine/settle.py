"""The settlement procedure of docs/rules.md: raw end-of-game points to final scores.

Everything is computed in whole tenths of a final point (100 raw points), so the
arithmetic is exact integer arithmetic; results come out as ``Decimal``.

One module, not two: checking a game's scores, the steps of the settlement and the
:class:`Settlement` that explains them name the same steps in the same order; split,
each would reach into the others' private helpers.

>>> settle([35700, 32400, 22200, 9700]).final
(Decimal('46'), Decimal('12'), Decimal('-18'), Decimal('-40'))
>>> settle([32000, 32000, 20000, 16000], "mleague").final
(Decimal('32.0'), Decimal('32.0'), Decimal('-20.0'), Decimal('-44.0'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError, as_repr, excerpt
from umaoka.engine.resolve import ruleset as resolve
from umaoka.engine.rules import EXCEL_ERRORS, Ruleset
from umaoka.engine.typed_numbers import NumberError, read_number

_ORDINALS = ("1st", "2nd", "3rd", "4th")


# ------------------------------------------------------------------------------------------------
# Exact decimals from integer tenths, cached: a league re-uses the same few hundred values.

_TENTHS: dict[int, Decimal] = {}
_WHOLE: dict[int, Decimal] = {}


def tenths_to_decimal(t: int, whole: bool = False) -> Decimal:
    """``462`` tenths as ``Decimal('46.2')``; with ``whole`` and no fraction, ``Decimal('46')``."""
    if whole:
        d = _WHOLE.get(t)
        if d is None:
            d = _WHOLE[t] = Decimal(t // 10) if t % 10 == 0 else Decimal(t).scaleb(-1)
        return d
    d = _TENTHS.get(t)
    if d is None:
        d = _TENTHS[t] = Decimal(t).scaleb(-1)
    return d


class Settlement:
    """One settled game: places, every step's values, and the finals, in seat order.

    The step values are tuples of ``Decimal`` in final points (thousands of raw points):
    ``base`` (step 3), ``rounded`` (step 4), ``adjustment`` (step 5), ``oka`` and ``uma``
    (steps 6-8, each player's share), ``penalty`` (step 9) and ``final``.
    """

    __slots__ = ("ruleset", "scores", "deposits", "points", "places", "order", "floating",
                 "uma_used", "_base", "_rounded", "_adjust", "_oka", "_uma", "_penalty",
                 "_final")

    def __init__(self, ruleset: Ruleset, scores: tuple[int, ...], deposits: int,
                 points: tuple[int, ...], places: tuple[int, ...], order: tuple[int, ...],
                 floating: int | None, uma_used: tuple[int, ...], base: tuple[int, ...],
                 rounded: tuple[int, ...], adjust: tuple[int, ...], oka: tuple[int, ...],
                 uma: tuple[int, ...], penalty: tuple[int, ...], final: tuple[int, ...]):
        self.ruleset = ruleset
        #: raw points as entered, seat order
        self.scores = scores
        #: leftover riichi deposits in points
        self.deposits = deposits
        #: raw points after step 2 (leftover deposits given to 1st)
        self.points = points
        #: place of each seat (tied players under ties=split share the higher place)
        self.places = places
        #: seats from 1st to last (seat order among equal scores)
        self.order = order
        #: number of players at or above target when floating uma is on, else None
        self.floating = floating
        self.uma_used = uma_used
        self._base, self._rounded, self._adjust = base, rounded, adjust
        self._oka, self._uma, self._penalty, self._final = oka, uma, penalty, final

    def _whole(self) -> bool:
        return self.ruleset.rounding != "none"

    def _decimals(self, values: tuple[int, ...], whole: bool | None = None) -> tuple[Decimal, ...]:
        w = self._whole() if whole is None else whole
        cache = _WHOLE if w else _TENTHS
        try:
            return tuple([cache[v] for v in values])
        except KeyError:
            return tuple([tenths_to_decimal(v, w) for v in values])

    @property
    def final(self) -> tuple[Decimal, ...]:
        """Final scores in seat order."""
        return self._decimals(self._final)

    @property
    def base(self) -> tuple[Decimal, ...]:
        """Step 3: (raw - T) / 1000, exact."""
        return self._decimals(self._base, whole=False)

    @property
    def rounded(self) -> tuple[Decimal, ...]:
        """Step 4: the base values rounded with the ruleset's rounding."""
        return self._decimals(self._rounded)

    @property
    def adjustment(self) -> tuple[Decimal, ...]:
        """Step 5: the rounding error taken by the adjust player (0 for everybody else)."""
        return self._decimals(self._adjust)

    @property
    def oka(self) -> tuple[Decimal, ...]:
        """Step 6: each player's share of the oka."""
        return self._decimals(self._oka)

    @property
    def uma(self) -> tuple[Decimal, ...]:
        """Steps 6-8: each player's uma (shared between split-tied players)."""
        return self._decimals(self._uma)

    @property
    def penalty(self) -> tuple[Decimal, ...]:
        """Step 9: penalties added after settlement."""
        return self._decimals(self._penalty)

    @property
    def deposit_shares(self) -> tuple[int, ...]:
        """Step 2: raw points of leftover deposits each seat received."""
        return tuple(p - s for p, s in zip(self.points, self.scores))

    def __repr__(self) -> str:
        finals = ", ".join(str(f) for f in self.final)
        return f"Settlement(scores={list(self.scores)}, final=[{finals}])"

    EXPLAIN_HEADER = ("Seat", "Raw", "Deposits", "Place", "Base", "Rounded", "Adjustment",
                      "Oka", "Uma", "Penalty", "Final")

    @property
    def raw_rounded(self) -> tuple[int, ...] | None:
        """Step 4 with ``round_on=raw``: the raw points (after step 2) rounded to the
        thousand, in points; ``None`` when the ruleset rounds the difference (or not at all).
        """
        r = self.ruleset
        if r.round_on != "raw" or r.rounding == "none":
            return None
        return tuple(_round(p // 100, r.rounding) * 100 for p in self.points)

    def explain(self) -> list[list[Any]]:
        """A header row and one row per seat with every step of the procedure.

        With ``round_on=raw`` a column "Raw rounded" (the raw points rounded to the
        thousand) comes before "Rounded", which is that value / 1000 minus target / 1000.

        >>> settle([43600, 14500, 15400, 26500], "uma=0/0/0/0 rounding=half_up").explain()[1]
        ['East', 43600, 0, 1, Decimal('13.6'), Decimal('14'), Decimal('-1'), Decimal('20'), \
Decimal('0'), Decimal('0'), Decimal('33')]
        >>> rows = settle([47400, 31600, 24500, -3500], "tenhou-classic").explain()
        >>> rows[0][4:7], rows[4][4:7]
        (['Base', 'Raw rounded', 'Rounded'], [Decimal('-33.5'), -4000, Decimal('-34')])
        """
        seats = seat_names(len(self.scores))
        cols = (self.base, self.rounded, self.adjustment, self.oka, self.uma, self.penalty,
                self.final)
        shares = self.deposit_shares
        header = list(self.EXPLAIN_HEADER)
        raw_rounded = self.raw_rounded
        if raw_rounded is not None:
            header.insert(5, "Raw rounded")
        rows: list[list[Any]] = [header]
        for i in range(len(self.scores)):
            row = [seats[i], self.scores[i], shares[i], self.places[i]] + [c[i] for c in cols]
            if raw_rounded is not None:
                row.insert(5, raw_rounded[i])
            rows.append(row)
        return rows

    def steps(self) -> list[str]:
        """The procedure in words, one line per step, for the command line and MJ_EXPLAIN.

        >>> settle([47400, 31600, 24500, -3500], "tenhou-classic").steps()[3]
        '4. Rounding of the raw points to the thousand, .5 away from zero \
(half_away_from_zero), then 30 taken off: East 47,400 -> 47 - 30 = 17, South 31,600 -> \
32 - 30 = 2, West 24,500 -> 25 - 30 = -5, North -3,500 -> -4 - 30 = -34.'
        """
        r = self.ruleset
        t = r.target if r.oka else r.start
        names = seat_names(len(self.scores))
        lines = [
            "1. Places by raw score ("
            + ("earlier seat wins ties" if r.ties == "seat" else "tied players share places")
            + "): "
            + ", ".join(f"{names[s]} {_ordinal(self.places[s])}" for s in self.order) + ".",
            f"2. Leftover deposits {self.deposits:,}: "
            + ("none." if not self.deposits else
               ("lost." if r.leftover == "lost" else "to 1st place.")),
            *(_PLACES_ONLY if r.scoring == "places" else (
                f"3. Base = (raw - {t:,}) / 1000.",
                "4. " + self._rounding_words(t, names),
                f"5. Rounding error absorbed by: {r.adjust}.")),
            f"6. Oka {r.oka_points:,} to 1st; uma {_fmt_uma(self.uma_used)}"
            + (f" (floating: {self.floating} at or above {r.target:,})"
               if self.floating is not None else "")
            + _TIE_WORDS[r.ties] + ".",
        ]
        if any(self._penalty):
            lines.append("9. Penalties added after settlement.")
        return lines

    def _rounding_words(self, t: int, names: tuple[str, ...]) -> str:
        """Step 4 in words: the mode, and with round_on=raw what became of each raw score."""
        r = self.ruleset
        how = _ROUNDING_WORDS[r.rounding]
        raw_rounded = self.raw_rounded
        if raw_rounded is None:
            return (f"Rounding: {how}." if r.rounding == "none" else
                    f"Rounding of the base values: {how}.")
        offset = tenths_to_decimal(t // 100, True)
        each = ", ".join(
            f"{names[i]} {p:,} -> {_fmt(Decimal(q) / 1000)} - {offset} = {self.rounded[i]}"
            for i, (p, q) in enumerate(zip(self.points, raw_rounded)))
        return (f"Rounding of the raw points to the thousand, {_MODE_ONLY[r.rounding]} "
                f"({r.rounding}), then {offset} taken off: {each}.")


#: Steps 3-5 of a placement-only ruleset (scoring=places), in words.
_PLACES_ONLY = (
    "3. Base = 0 for everyone: scoring=places, the raw scores only decide the places.",
    "4. Rounding: nothing to round.",
    "5. Rounding error: none.",
)

_ROUNDING_WORDS = {
    "none": "none, exact to 0.1",
    "half_down": "half_down (五捨六入), .5 down: -7.5 -> -8",
    "half_up": "half_up (四捨五入), .5 up: -7.5 -> -7",
    "half_toward_zero": "half_toward_zero, .5 toward zero: -10.5 -> -10, +10.5 -> +10",
    "half_away_from_zero": "half_away_from_zero, .5 away from zero: -10.5 -> -11, +10.5 -> +11",
    "floor": "floor, down to the whole point: -7.2 -> -8",
    "ceil": "ceil, up to the whole point: -7.8 -> -7",
    "toward_zero": "toward_zero, the fraction dropped: -7.8 -> -7, +7.8 -> +7",
}

# The same, as the words for rounding the raw points to the thousand.
_MODE_ONLY = {
    "half_down": ".5 down",
    "half_up": ".5 up",
    "half_toward_zero": ".5 toward zero",
    "half_away_from_zero": ".5 away from zero",
    "floor": "down",
    "ceil": "up",
    "toward_zero": "toward zero",
}

_TIE_WORDS = {
    "seat": "",
    "split": "; tied players share oka and uma",
    "split_uma": "; tied players share the uma, the oka goes to the earliest seat",
}


def _fmt_uma(tenths: tuple[int, ...]) -> str:
    return "/".join(str(tenths_to_decimal(t, True)) for t in tenths)


def _ordinal(place: int) -> str:
    return _ORDINALS[place - 1] if 0 < place <= 4 else f"{place}th"


def seat_names(n: int) -> tuple[str, ...]:
    """Initial seat winds, East first."""
    return ("East", "South", "West", "North")[:n]


# ------------------------------------------------------------------------------------------------
# Input checks. Every message is one sentence: what is wrong, and how to fix it.


#: Largest raw score, deposit or penalty accepted (in points): far beyond any real game, and
#: small enough that exact arithmetic on it stays cheap and within Decimal's context.
MAX_POINTS = 10**12


def _to_decimal(value: Any, what: str, hint: str = "enter raw points such as 32400"
                ) -> Decimal:
    """Any cell or CSV value as an exact, finite, bounded Decimal, or one clear sentence.

    Numbers from outside enter the engine through :func:`read_number`: text with thousands
    separators, Excel's floats, huge, tiny or non-finite values (``1E+30``, ``1e-9999999``,
    ``NaN``, ``inf``) are bounded by their exponent before any arithmetic.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        raise UmaokaError(f"{what} is blank; enter every player's raw points (0 if they ended "
                          "on exactly zero).")
    if isinstance(value, bool):
        raise UmaokaError(f"{what} is {str(value).upper()}, not a number; {hint}.")
    try:
        return read_number(value, what, hint, MAX_POINTS)
    except NumberError as e:
        if e.kind == "large":
            raise UmaokaError(f"{what} ({excerpt(value)}) is far too large for points; "
                              f"{hint}.") from None
        if e.kind == "infinite":
            raise UmaokaError(f"{what} ({excerpt(value)}) is not a finite number; "
                              f"{hint}.") from None
        raise


def typed_as_text(value: Any) -> bool:
    """Whether a score *cell* holds text rather than a number: ``"32400"``, ``"31,500"``,
    ``"32400 "`` pasted from a chat, full-width ``"３２４００"``, a cell formatted as Text.

    A spreadsheet's own formulas (COUNT, SUM, COUNTIF) skip such a cell, so a workbook
    refuses the row rather than reading the text as a number: every view of the row (the
    Check, the places, the standings, the settled copy) then says the same. Blank text and
    an error value (``#N/A``) are not text typed for a score.

    >>> [typed_as_text(v) for v in ("32400", " ", "#N/A", 32400, None)]
    [True, False, False, False, False]
    """
    return isinstance(value, str) and bool(value.strip()) \
        and value.strip().upper() not in EXCEL_ERRORS


def refuse_text(scores: Sequence[Any], cells: Sequence[str] | None = None) -> None:
    """Scores read from spreadsheet cells: the first one stored as text is refused with one
    sentence (``cells``: the cells' addresses, to name it). Text given on a command line or
    in a CSV file is no cell: :func:`settle` reads it as the number it shows.

    >>> refuse_text([35700, "32400", 22200, 9700], ["E5", "F5", "G5", "H5"])
    Traceback (most recent call last):
    ...
    umaoka.engine.errors.UmaokaError: score 2 in F5 ("32400") is stored as text; type it \
again as a number (a cell formatted as Text keeps what is typed as text: format it as Number).
    """
    for i, s in enumerate(scores):
        if type(s) is str and typed_as_text(s):
            where = f" in {cells[i]}" if cells and i < len(cells) else ""
            if not _shows_a_number(s):  # "x", "abc": no number typed the wrong way
                raise UmaokaError(f'score {i + 1}{where} ("{excerpt(s)}") is not a number; '
                                  "enter raw points such as 32400.")
            raise UmaokaError(f'score {i + 1}{where} ("{excerpt(s)}") is stored as '
                              "text; type it again as a number (a cell formatted as Text keeps "
                              "what is typed as text: format it as Number).")


def _shows_a_number(text: str) -> bool:
    """Whether a text shows a number as a person reads it: ``"32400 "``, ``"31,500"``,
    full-width ``"３２４００"``, ``"-2,000"`` (digits, at most one point, a sign first).

    >>> [_shows_a_number(t) for t in ("31,500", "３２４００", " -700", "x", "1e3", "")]
    [True, True, True, False, False, False]
    """
    import unicodedata

    plain = unicodedata.normalize("NFKC", text).strip().replace(",", "").replace("\u2212", "-")
    plain = plain[1:] if plain[:1] in "+-" else plain
    whole, _, part = plain.partition(".")
    return bool(whole or part) and (whole + part).isdigit() and (whole + part).isascii()


def _values(value: Any, what: str, n: int, example: str) -> list[Any]:
    """A per-seat argument as a list, or one sentence when it is not a list of values."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise UmaokaError(f"{what} must be a list of {n} values, one per player in seat order, "
                          f"e.g. {example} (got {excerpt(as_repr(value))}).")
    return list(value)


def _fmt(d: Decimal | int) -> str:
    d = Decimal(d)
    if d == d.to_integral_value():
        return f"{int(d):,}"
    return f"{d:,}"


def _check_scores(scores: Sequence[Any], deposits: Any, r: Ruleset) -> tuple[tuple[int, ...],
                                                                                int]:
    """Validate scores and deposits; return them as integers of raw points."""
    n = r.players
    # Fast path: a list or tuple of whole numbers of points that add up (most games).
    if type(scores) in (list, tuple) and len(scores) == n and type(deposits) is int \
            and deposits >= 0:
        for s in scores:
            if type(s) is not int or s % 100:
                break
        else:
            if sum(scores) + deposits == r.start * n:
                return tuple(scores), deposits
    if isinstance(scores, str):
        scores = [scores]  # one cell's text: the count check below says what is wrong
    elif not isinstance(scores, Sequence):
        scores = _values(scores, "scores", n, "[35700, 32400, 22200, 9700]")
    if len(scores) != n:
        raise UmaokaError(
            f"expected {n} scores (one per player, in seat order) but got {len(scores)}; "
            + ("use a three-player ruleset such as tenhou-sanma for sanma."
               if len(scores) == 3 and n == 4 else
               "use a four-player ruleset for four players." if len(scores) == 4 and n == 3
               else f"enter exactly {n} raw scores.")
        )
    # Fast path: whole numbers already (Python callers, and most of Excel's floats).
    if all(type(s) is int and -MAX_POINTS < s < MAX_POINTS for s in scores):
        raw = tuple(scores)
    else:
        dec = [_to_decimal(s, f"score {i + 1}") for i, s in enumerate(scores)]
        _check_typed_scale(dec, deposits, r)
        for i, d in enumerate(dec):
            if d % 100:
                raise UmaokaError(
                    f"score {i + 1} ({_fmt(d)}) is not a whole multiple of 100; raw points "
                    "always end in 00, so check it for a typo."
                )
        raw = tuple(int(d) for d in dec)
    if type(deposits) is not int or deposits % 100 or not -MAX_POINTS < deposits < MAX_POINTS:
        deposits = (_to_decimal(deposits, "deposits", "enter the leftover riichi sticks in points, "
                                "e.g. 1000 for one stick") if deposits is not None else Decimal(0))
        if deposits % 100:
            raise UmaokaError(
                f"deposits ({_fmt(deposits)}) must be in points, a multiple of 100 (1,000 per "
                "riichi stick), e.g. 2000 for two sticks."
            )
        deposits = int(deposits)
    if deposits < 0:
        raise UmaokaError(f"deposits ({deposits:,}) cannot be negative; enter the leftover "
                          "riichi sticks in points, e.g. 1000 for one stick, or 0.")
    for i, s in enumerate(raw):
        if s % 100:
            _check_typed_scale([Decimal(x) for x in raw], deposits, r)
            raise UmaokaError(
                f"score {i + 1} ({s:,}) is not a whole multiple of 100; raw points always end "
                "in 00, so check it for a typo."
            )
    total = sum(raw) + deposits
    expected = r.start * n
    if total != expected:
        _check_typed_scale([Decimal(x) for x in raw], deposits, r)
        diff = expected - total
        with_dep = f" plus {deposits:,} in deposits" if deposits else ""
        raise UmaokaError(
            f"scores add up to {sum(raw):,}{with_dep} but {n} x {r.start:,} = {expected:,}: "
            f"{abs(diff):,} {'missing' if diff > 0 else 'too many'}; "
            + ("enter the leftover riichi sticks as deposits or fix a score."
               if diff > 0 and diff % 1000 == 0 else "fix a score or the deposits.")
        )
    return raw, deposits


def _check_typed_scale(dec: list[Decimal], deposits: Any, r: Ruleset) -> None:
    """Spot scores typed in thousands (35.7) or hundreds (357) and say so."""
    total = sum(dec)
    expected = r.start * r.players
    try:  # deposits not read yet: a bad value is said by its own check, after this one
        dep = read_number(deposits) if isinstance(deposits, (int, Decimal)) else Decimal(0)
    except NumberError:
        dep = Decimal(0)
    if total * 1000 + dep == expected or (total + dep) * 1000 == expected:
        raise UmaokaError(
            f"the scores look typed in thousands ({_fmt(dec[0])} for "
            f"{_fmt(dec[0] * 1000)}); enter full raw points such as 32400."
        )
    if total * 100 + dep == expected or (total + dep) * 100 == expected:
        raise UmaokaError(
            f"the scores look typed in hundreds ({_fmt(dec[0])} for {_fmt(dec[0] * 100)}); "
            "enter full raw points such as 32400."
        )


def _check_penalties(penalties: Any, n: int) -> tuple[int, ...]:
    if penalties is None:
        return (0,) * n
    pens = _values(penalties, "penalties", n, "[-20, 0, 0, 0] in final points")
    if len(pens) != n:
        raise UmaokaError(f"expected {n} penalties (one per player, 0 for none) but got "
                          f"{len(pens)}.")
    out = []
    for i, p in enumerate(pens):
        if p is None or (isinstance(p, str) and not p.strip()):
            out.append(0)
            continue
        d = _to_decimal(p, f"penalty {i + 1}", "give penalties in final points, e.g. -20") * 10
        if abs(d) >= 10_000:  # 1,000 final points: no penalty is that big, raw points are
            raise UmaokaError(f"penalty {i + 1} ({excerpt(p)}) looks like raw points; give "
                              "penalties in final points, e.g. -20 for a 20,000-point chombo.")
        if d != d.to_integral_value():
            raise UmaokaError(f"penalty {i + 1} ({p}) has more than one decimal place; give "
                              "penalties in final points, e.g. -20 or -2.5.")
        out.append(int(d))
    return tuple(out)


# ------------------------------------------------------------------------------------------------
# The procedure.


# Step 4 as a table: whether a remainder of 0-9 tenths (after floor division) rounds up.
# Modes that treat negative values differently (symmetric around zero) have 20 entries:
# the first ten for values >= 0, the next ten for values < 0.
_HALF_DOWN = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
_HALF_UP = (0, 0, 0, 0, 0, 1, 1, 1, 1, 1)
_FLOOR = (0,) * 10
_CEIL = (0,) + (1,) * 9
_BUMP: dict[str, tuple[int, ...]] = {
    "half_down": _HALF_DOWN,  # .5 toward minus infinity: -7.5 -> -8
    "half_up": _HALF_UP,  # .5 toward plus infinity: -7.5 -> -7
    "floor": _FLOOR,
    "ceil": _CEIL,
    "half_toward_zero": _HALF_DOWN + _HALF_UP,  # -10.5 -> -10, +10.5 -> +10
    "half_away_from_zero": _HALF_UP + _HALF_DOWN,  # -10.5 -> -11, +10.5 -> +11
    "toward_zero": _FLOOR + _CEIL,  # -5.3 -> -5, +5.3 -> +5
}

#: Roundings whose result moves by exactly k when the value moves by a whole k; only with
#: these is rounding (raw - target) the same as rounding raw and then subtracting target.
TRANSLATION_INVARIANT = frozenset({"none", "half_down", "half_up", "floor", "ceil"})


def _round(v: int, mode: str) -> int:
    """Round tenths ``v`` to whole points (still in tenths), per step 4 of docs/rules.md.

    >>> [_round(v, "half_toward_zero") for v in (-105, 105)]
    [-100, 100]
    >>> [_round(v, "half_away_from_zero") for v in (-105, 105)]
    [-110, 110]
    >>> [_round(v, "toward_zero") for v in (-53, 53)]
    [-50, 50]
    """
    if mode == "none":
        return v
    bump = _BUMP[mode]
    q, r = divmod(v, 10)  # floor division: q is toward minus infinity, 0 <= r < 10
    return (q + bump[r + 10 if v < 0 and len(bump) > 10 else r]) * 10


_MEMO_MAX = 50_000  # distinct point values remembered per ruleset (a few KB each thousand)


def _rounded_points(r: Ruleset, points: int) -> int:
    """Step 4 for one player's points (after step 2), in tenths of a final point."""
    t = r._t  # type: ignore[attr-defined]
    if r.round_on == "raw":  # the raw points to the thousand, then the target taken off
        value = _round(points // 100, r.rounding) - t
    else:
        value = _round(points // 100 - t, r.rounding)
    memo = r._rounded  # type: ignore[attr-defined]
    if len(memo) < _MEMO_MAX:
        memo[points] = value
    return value


def _split(total: int, k: int, unit: int) -> list[int]:
    """Share ``total`` among ``k`` players in ``unit``s: floor shares, the rest to the first."""
    share = total // (k * unit) * unit
    return [total - share * (k - 1)] + [share] * (k - 1)


_NO_PENALTY = {3: (0, 0, 0), 4: (0, 0, 0, 0)}


def _floating_vectors(r: Ruleset) -> tuple[tuple[int, ...], ...]:
    """The uma vector for each count of floating players (0 to 4), worked out once per
    ruleset and kept on it (settle owns this cache so that rules need not import settle)."""
    vectors = r.__dict__.get("_floating_vectors")
    if vectors is None:
        vectors = tuple(_floating_uma(r, c) for c in range(r.players + 1))
        object.__setattr__(r, "_floating_vectors", vectors)
    return vectors


def _floating_uma(r: Ruleset, count: int) -> tuple[int, ...]:
    """The uma vector (tenths) for ``count`` players at or above target (step 7)."""
    if count in (0, r.players):
        count = 2  # as if two were above and two below (the usual reading)
    if r.floating == "table":
        return r._table[count - 1]  # type: ignore[attr-defined]
    uma = r._uma  # type: ignore[attr-defined]
    shifted = [max(u, 0) if i < count else min(u, 0) for i, u in enumerate(uma)]
    lost_plus = sum(u for i, u in enumerate(uma) if i >= count and u > 0)
    lost_minus = sum(u for i, u in enumerate(uma) if i < count and u < 0)
    shifted[0] += lost_plus
    shifted[-1] += lost_minus
    return tuple(shifted)


def settle(scores: Sequence[Any], ruleset: Any = "standard", deposits: Any = 0,
           penalties: Sequence[Any] | None = None) -> Settlement:
    """Settle one game: raw points in seat order (East first) to final scores.

    ``ruleset`` is a :class:`Ruleset`, a preset name, a ruleset text or a mapping;
    ``deposits`` are leftover riichi sticks in points; ``penalties`` (final points,
    one per seat) are added after settlement, outside the zero sum.

    >>> settle([45000, 33000, 18000, 4000], "uma=10-20").final
    (Decimal('55'), Decimal('13'), Decimal('-22'), Decimal('-46'))
    >>> settle([43600, 14500, 15400, 26500], "uma=0/0/0/0 rounding=half_up").final
    (Decimal('33'), Decimal('-15'), Decimal('-15'), Decimal('-3'))
    """
    r = ruleset if type(ruleset) is Ruleset else resolve(ruleset)
    raw, dep = _check_scores(scores, deposits, r)
    n = r.players
    pens = _NO_PENALTY[n] if penalties is None else _check_penalties(penalties, n)

    # 1. Places. sorted(..., reverse=True) is stable, so equal scores keep seat order.
    order = tuple(sorted(range(n), key=raw.__getitem__, reverse=True))
    places = [0] * n
    groups: list[list[int]] = []
    if r.ties != "seat" and len(set(raw)) < n:
        groups = _tie_groups(raw, order)
        for g in groups:
            for k in g:
                places[order[k]] = g[0] + 1
    else:
        places[order[0]] = 1
        for k in range(1, n):
            places[order[k]] = k + 1

    # 2. Leftover deposits: to 1st (shared in 100s by players split-tied for 1st), or lost.
    points = raw
    lost = 0
    if dep:
        if r.leftover == "first":
            points = list(raw)
            firsts = groups[0] if groups else [0]
            for k, share in zip(firsts, _split(dep // 100, len(firsts), 1)):
                points[order[k]] += share * 100
            points = tuple(points)
        else:
            lost = dep // 100

    # 3-4. Base values and rounding, in tenths (scoring=places: no raw-score difference).
    t = r._t  # type: ignore[attr-defined]
    if r.scoring == "places":
        base = _NO_PENALTY[n]
    else:
        base = tuple([p // 100 - t for p in points])
    if r.rounding == "none" or r.scoring == "places":
        rounded = base
    else:
        # Step 4 depends only on the player's points, and a league sees a few thousand
        # distinct values at most: look them up, work out and remember the others.
        memo = r._rounded  # type: ignore[attr-defined]
        try:
            rounded = tuple([memo[p] for p in points])
        except KeyError:
            rounded = tuple([_rounded_points(r, p) for p in points])

    # 5. Zero-sum adjustment: the rounding error goes to the adjust player.
    oka = r._oka  # type: ignore[attr-defined]
    adjust = [0] * n
    if r.adjust != "none" and r.scoring == "points":
        error = sum(rounded) + oka + lost
        if error:
            adjust[order[0] if r.adjust == "first" else order[-1]] = -error

    # 6-8. Place bonuses (uma, oka for 1st), shared by split-tied players.
    floating = None
    if r.floating == "off":
        uma_vec = r._uma  # type: ignore[attr-defined]
    else:
        target = r.target
        floating = 0
        for p in points:
            floating += p >= target
        uma_vec = _floating_vectors(r)[floating]
    oka_share = [0] * n
    if not groups:  # nobody shares a place: each seat takes its place's uma
        uma = [uma_vec[p - 1] for p in places]
        oka_share[order[0]] = oka
    else:
        uma = _shared_bonuses(groups, order, uma_vec, oka, oka_share, r._unit,  # type: ignore
                              r.ties == "split")

    final = tuple([a + b + c + d + e for a, b, c, d, e in zip(rounded, adjust, uma, oka_share,
                                                                 pens)])
    return Settlement(r, raw, dep, points, _shared(tuple(places)), _shared(order), floating,
                      uma_vec, base, rounded, _shared(tuple(adjust)), _shared(tuple(oka_share)),
                      _shared(tuple(uma)), pens, final)


#: Places, seat orders, oka and uma shares and adjustments take a few dozen values in a
#: league: one tuple each, shared by every game (a league of 50,000 games settled at once
#: holds a third less). Bounded.
_SHARED: dict[tuple[int, ...], tuple[int, ...]] = {}


def _shared(values: tuple[int, ...]) -> tuple[int, ...]:
    got = _SHARED.get(values)
    if got is None:
        if len(_SHARED) >= 20_000:
            _SHARED.clear()
        got = _SHARED[values] = values
    return got


def _tie_groups(points: Sequence[Any], order: Sequence[int]) -> list[list[int]]:
    """The runs of positions (0 = first) in ``order`` whose points are equal: the places
    split-tied players share (every position in a run of its own when nobody ties)."""
    groups: list[list[int]] = []
    for k in range(len(order)):
        if k and points[order[k]] == points[order[k - 1]]:
            groups[-1].append(k)
        else:
            groups.append([k])
    return groups


def _shared_bonuses(groups: list[list[int]], order: tuple[int, ...], uma_vec: tuple[int, ...],
                    oka: int, oka_share: list[int], unit: int, share_oka: bool) -> list[int]:
    """Steps 6 and 8 with shared places: each group of tied places shares its bonuses.

    With ``share_oka`` (ties=split) the bonus shared is uma plus oka, and the oka part is
    split the same way on its own so the explanation's oka and uma columns each add up;
    without it (ties=split_uma) only the uma is shared and the oka goes whole to the tied
    player with the earliest seat. Fills ``oka_share`` and returns the uma of each seat.
    """
    uma = [0] * len(order)
    for g in groups:
        seats = [order[k] for k in g]  # seat order: sorting by score kept it among equals
        with_oka = g[0] == 0
        if share_oka:
            bonus = _split(sum(uma_vec[k] for k in g) + (oka if with_oka else 0), len(g), unit)
            okas = _split(oka, len(g), unit) if with_oka else [0] * len(g)
        else:
            okas = [oka if with_oka and i == 0 else 0 for i in range(len(g))]
            bonus = [u + o for u, o in zip(_split(sum(uma_vec[k] for k in g), len(g), unit),
                                           okas)]
        for s, b, o in zip(seats, bonus, okas):
            oka_share[s] = o
            uma[s] = b - o
    return uma


def rank(scores: Sequence[Any], ruleset: Any = "standard") -> tuple[int, ...]:
    """Places of each seat by raw score, with the ruleset's tie rule.

    Scores are ranked as given (they need not add up); under ``ties=split`` or
    ``split_uma`` tied players share the higher place.

    >>> rank([30000, 30000, 25000, 15000])
    (1, 2, 3, 4)
    >>> rank([30000, 30000, 25000, 15000], "mleague")
    (1, 1, 3, 4)
    """
    r = ruleset if type(ruleset) is Ruleset else resolve(ruleset)
    n = r.players
    scores = _values(scores, "scores", n, "[30000, 30000, 25000, 15000]")
    if len(scores) != n:
        raise UmaokaError(f"expected {n} scores (one per player, in seat order) but got "
                          f"{len(scores)}; enter exactly {n} raw scores.")
    vals = [_to_decimal(s, f"score {i + 1}") for i, s in enumerate(scores)]
    order = sorted(range(n), key=vals.__getitem__, reverse=True)
    places = [0] * n
    for k, s in enumerate(order):
        tied_above = k and r.ties != "seat" and vals[s] == vals[order[k - 1]]
        places[s] = places[order[k - 1]] if tied_above else k + 1
    return tuple(places)
