"""A place shared by tied players, counted by one rule in every statistic (the ruleset's
``shared_place``): the better place, the worse one, or a share of each."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from umaoka.engine.errors import UmaokaError, excerpt

_ONE = Fraction(1)

#: How the standings count a place shared by tied players (the ruleset's ``shared_place``).
SHARED_PLACES = ("better", "worse", "split")

#: The rule in words, as the standings show it beside the table.
SHARED_PLACE_WORDS = {
    "better": "a shared place counts as the better place (tied for 3rd-4th: 3rd)",
    "worse": "a shared place counts as the worse place (tied for 3rd-4th: 4th)",
    "split": "a shared place is split (tied for 3rd-4th: half a 3rd and half a 4th)",
}


def shared_place_words(rule: str) -> str:
    """The shared-place rule as a sentence beside a standings table.

    >>> shared_place_words("split")
    'Shared places: a shared place is split (tied for 3rd-4th: half a 3rd and half a 4th).'
    """
    return f"Shared places: {SHARED_PLACE_WORDS[check_shared_place(rule)]}."


def check_shared_place(rule: Any) -> str:
    """``rule`` as one of :data:`SHARED_PLACES`, or one sentence saying what to write."""
    text = str(rule).strip().lower() if rule is not None else "better"
    if text in SHARED_PLACES:
        return text
    raise UmaokaError(f'shared_place cannot be "{excerpt(str(rule))}"; use better, worse or '
                      "split.")


def place_spans(places: Sequence[int]) -> list[tuple[int, int]]:
    """Each seat's places from best to worst: (3, 4) for a player tied for 3rd-4th, (2, 2)
    for a place held alone (tied players may be given the better place or any other).

    >>> place_spans((1, 2, 3, 3))
    [(1, 1), (2, 2), (3, 4), (3, 4)]
    """
    return [(1 + sum(q < p for q in places), sum(q <= p for q in places)) for p in places]


def place_shares(places: Sequence[int], rule: str = "better"
                 ) -> list[list[tuple[int, Fraction]]]:
    """Each seat's places as the standings count them, with the share of a game each:
    ``better`` counts a shared place as the best of the places shared, ``worse`` as the
    worst, ``split`` a share of each (tied for 3rd-4th: half a 3rd and half a 4th).

    >>> [[(p, str(f)) for p, f in seat] for seat in place_shares((1, 2, 3, 3), "split")][2]
    [(3, '1/2'), (4, '1/2')]
    >>> place_shares((1, 2, 3, 3), "worse")[3]
    [(4, Fraction(1, 1))]
    """
    out = []
    for lo, hi in place_spans(places):
        if lo == hi or rule == "better":
            out.append([(lo, _ONE)])
        elif rule == "worse":
            out.append([(hi, _ONE)])
        else:
            share = Fraction(1, hi - lo + 1)
            out.append([(p, share) for p in range(lo, hi + 1)])
    return out
