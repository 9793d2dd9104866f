"""Resolving a ruleset: a preset name, a ruleset text, a mapping or a key/value table,
as a user writes it, into a :class:`~umaoka.engine.rules.Ruleset`.

It sits above the field parsing (:mod:`.rules`) and the preset table (:mod:`.presets`),
so the engine reads bottom-up: rules -> presets -> resolve -> settle.
:func:`ruleset` turns any spec into a Ruleset once; settle thousands of games with that.

>>> r = ruleset("mleague; ties=seat")
>>> r.uma, r.ties
((Decimal('30'), Decimal('10'), Decimal('-10'), Decimal('-30')), 'seat')
>>> ruleset("start=30000 target=30000 uma=15/5/-5/-15").oka_points
0
>>> ruleset("uma=10-30").uma_text
'30/10/-10/-30'
>>> r = ruleset("tenhou-classic")
>>> r.rounding, r.round_on
('half_away_from_zero', 'raw')
>>> ruleset("rounding=絶対値で四捨五入; ties=equalize_uma").ties
'split_uma'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import Decimal
from functools import lru_cache
from typing import Any

from umaoka.engine.errors import UmaokaError, as_repr, as_text, excerpt
from umaoka.engine.presets import PRESETS
from umaoka.engine.rules import (
    FIELDS,
    Ruleset,
    _check_value,
    _choice,
    _closest,
    _key,
    _number,
    _parse_floating,
    _switch,
    _text_pairs,
    parse_uma,
)


def _apply(base: Ruleset, pairs: Iterable[tuple[Any, Any]]) -> Ruleset:
    """Apply key/value overrides to a ruleset; a ``preset`` key first picks the base."""
    changes: dict[str, Any] = {}
    given: dict[str, Any] = {}
    for raw_key, value in pairs:
        key = _key(raw_key)
        if key != "preset" and key not in FIELDS:
            raise UmaokaError(
                f'"{excerpt(raw_key)}" is not a ruleset field; use {", ".join(FIELDS)} '
                f"(or preset).{_closest(key, FIELDS)}"
            )
        _check_value(key, value)
        if key == "preset":
            base = preset(as_text(value))
            continue
        if key in given:
            raise UmaokaError(
                f'{key} is given twice ("{excerpt(given[key], 20)}", then '
                f'"{excerpt(value, 20)}"); keep the one you mean and remove the other.'
            )
        given[key] = value
    for key, value in given.items():
        if key in ("start", "target"):
            changes[key] = _number(key, value)
        elif key == "players":
            n = _number(key, value)
            if n not in (3, 4):
                raise UmaokaError(f"players must be 4 or 3 (got {value}).")
            changes[key] = n
        elif key == "oka":
            changes[key] = _switch(key, value)
        elif key == "uma":
            changes[key] = parse_uma(value)
        elif key == "floating":
            changes["floating"], changes["floating_table"] = _parse_floating(value)
        else:
            changes[key] = _choice(key, value)
    if changes.get("uma") == ():
        changes["uma"] = (Decimal(0),) * changes.get("players", base.players)
    if not changes:
        return base
    return replace(base, name="custom", **changes)


def preset(name: str) -> Ruleset:
    """The preset of that name (case-insensitive); unknown names suggest the closest.

    >>> preset("MLeague").uma_text
    '30/10/-10/-30'
    """
    key = as_text(name).strip().lower().replace("_", "-").replace(" ", "-")
    if key in PRESETS:
        return PRESETS[key].ruleset
    raise UmaokaError(
        f'"{excerpt(name)}" is not a preset; use one of {", ".join(PRESETS)}.'
        f"{_closest(key, PRESETS)}"
    )


@lru_cache(maxsize=512)
def _from_text(text: str) -> Ruleset:
    head, pairs = _text_pairs(text)
    base = preset(head) if head else preset("standard")
    return _apply(base, pairs)


def ruleset(spec: Any = None) -> Ruleset:
    """Resolve a preset name, ruleset text, mapping or list of key/value pairs to a Ruleset.

    Missing fields come from ``standard`` (or from the preset named first).

    >>> ruleset({"oka": "off", "uma": [15, 5, -5, -15]}).oka
    False
    >>> ruleset([["preset", "ema"], ["ties", "seat"]]).start
    30000
    """
    if spec is None:
        return preset("standard")
    if isinstance(spec, Ruleset):
        return spec
    if isinstance(spec, str):
        text = spec.strip()
        return _from_text(text) if text else preset("standard")
    if isinstance(spec, Mapping):
        return _apply(preset("standard"), spec.items())
    if isinstance(spec, Iterable):
        pairs = []
        for row in spec:
            cells = list(row) if isinstance(row, (list, tuple)) else [row]
            if len(cells) >= 2 and _key(cells[0]) in (*FIELDS, "preset") and _blank(cells[1]):
                pairs.append((cells[0], cells[1]))  # a key with a blank value: _apply says so
                continue
            cells = [c for c in cells if not _blank(c)]
            if not cells:
                continue  # blank row of a rules range
            if len(cells) == 1:
                # A one-cell row is a preset name or a text (a one-column range of rules).
                pairs.extend(_row_text(str(cells[0])))
                continue
            pairs.append((cells[0], cells[1]))
        return _apply(preset("standard"), pairs)
    raise UmaokaError(
        "a ruleset must be a preset name, a ruleset text or a key/value table "
        f"(got {excerpt(as_repr(spec))})."
    )


def _blank(cell: Any) -> bool:
    """A blank cell of a rules range (None, empty text, or an Office.js blank entity)."""
    if isinstance(cell, Mapping) and "basicValue" in cell:
        cell = cell.get("basicValue")
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _row_text(text: str) -> list[tuple[str, str]]:
    head, pairs = _text_pairs(text)
    return ([("preset", head)] if head else []) + pairs
