"""What the league workbook's formulas compute, so the file can carry them as saved values.

A program that does not recalculate on open shows a formula's saved (cached) value. umaoka
works these values out when it writes a workbook of games: the final scores are the
engine's, exactly as ``MJ_SETTLE`` returns them for a block (blank rows blank, a bad row's
message in its first cell), and every native formula of the layout (check, places,
standings helpers, the visible standings, the chart's table) is mirrored here step by step,
so the saved value is what Excel or LibreOffice computes from the same cells. The tests
compare both, cell by cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from umaoka.engine import Ruleset, UmaokaError, settle
from umaoka.engine.settle import refuse_text
from umaoka.templates.book.labels import label
from umaoka.templates.book.model import Game, League
from umaoka.templates.book.results import check_text, given_places, roster_flag, score_flag

#: The sort key of a roster slot without games (a formula constant of the standings).
NO_GAMES_KEY = -1000000000
#: The average place of a slot without games (sorts it last among equal keys).
NO_GAMES_PLACE = 99


def _blank(value: Any) -> bool:
    """An empty cell as MJ_SETTLE sees it (desktop Excel sends 0 for empty cells)."""
    return value is None or value == "" or (type(value) in (int, float) and value == 0)


def _number(value: Decimal) -> int | Decimal:
    return int(value) if value == value.to_integral_value() else value


def settle_row(game: Game, rules: Ruleset, lang: str = "en") -> list[Any]:
    """One row of ``MJ_SETTLE(scores, rules, deposits, penalties)`` for a block of games;
    a row with platform finals shows them (all of them, else a message)."""
    n = rules.players
    if game.has_given():
        given = (list(game.given) + [None] * n)[:n]
        if all(_is_number(v) for v in given):
            return [_number(Decimal(str(v))) for v in given]
        return [label("given_missing", lang)] + [""] * (n - 1)
    scores = list(game.scores[:n]) + [None] * (n - len(game.scores[:n]))
    if all(_blank(s) for s in scores):
        return [""] * n
    deposits = 0 if _blank(game.deposits) else game.deposits
    pens = list(game.penalties or [])
    penalties = None if all(_blank(p) for p in pens) else pens
    try:
        refuse_text(scores)  # as MJ_SETTLE refuses a score stored as text
        return [_number(v) for v in settle(scores, rules, deposits, penalties).final]
    except UmaokaError as e:
        return [str(e)] + [""] * (n - 1)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, Decimal)) and not isinstance(value, bool)


def places_row(scores: Sequence[Any], results: Sequence[Any], ties: str,
               given: Sequence[Any] = ()) -> list[Any]:
    """The Places formulas of a row: 1 + higher scores (+ equal earlier seats under seat);
    from the platform finals when every seat has one."""
    if given and len(given) == len(results) and all(_is_number(v) for v in given):
        return [p if _is_number(r) else "" for p, r in zip(given_places(given), results)]
    out: list[Any] = []
    nums = [s if _is_number(s) else None for s in scores]
    for s, (score, result) in enumerate(zip(nums, results)):
        if not _is_number(result) or score is None:
            out.append("")
            continue
        place = 1 + sum(1 for t in nums if t is not None and t > score)
        if ties == "seat":
            place += sum(1 for t in nums[:s] if t is not None and t == score)
        out.append(place)
    return out


@dataclass
class LeagueValues:
    """Saved values of a league tab's formulas, one entry per game row of the tab."""

    players: list[list[str]] = field(default_factory=list)
    sessions: list[Any] = field(default_factory=list)
    check: list[str] = field(default_factory=list)
    #: the Check's helper cells: the scores' message and the names' (see LeagueCols)
    check_scores: list[str] = field(default_factory=list)
    check_names: list[str] = field(default_factory=list)
    results: list[list[Any]] = field(default_factory=list)
    places: list[list[Any]] = field(default_factory=list)
    last: list[int] = field(default_factory=list)


def league_values(league: League, rules: Ruleset, rows: int, lang: str,
                  roster: Sequence[str] | None = None) -> LeagueValues:
    """The check, final scores, places and last-place helper of every row of a league tab."""
    n = rules.players
    lv = LeagueValues()
    for i in range(rows):
        g = league.games[i] if i < len(league.games) else Game()
        res = settle_row(g, rules, lang)
        scores = list(g.scores[:n]) + [None] * (n - len(g.scores[:n]))
        given = (list(g.given) + [None] * n)[:n] if g.given else []
        pl = places_row(scores, res, rules.ties, given)
        lv.players.append([("" if p is None else str(p)) for p in
                           (list(g.players[:n]) + [None] * (n - len(g.players[:n])))])
        lv.sessions.append(g.session)
        lv.check.append(check_text(g, rules, lang, roster) if i < len(league.games) else "")
        lv.check_scores.append(score_flag(g, rules, lang))
        lv.check_names.append((roster_flag(g, roster, lang) or "") if roster is not None
                              else "")
        lv.results.append(res)
        lv.places.append(pl)
        lv.last.append(max(p for p in pl if _is_number(p)) if _is_number(pl[0]) else 0)
    return lv


@dataclass
class Slot:
    """One roster slot's hidden standings helpers (one row of the helper columns); under
    ``shared_place=split`` the place sum, counts and lasts may hold fractions (floats, as
    the sheet's SUMPRODUCT gives them)."""

    name: str
    games: int = 0
    total: Decimal = Decimal(0)
    psum: Any = 0
    counts: list[Any] = field(default_factory=list)
    lasts: Any = 0
    avgp: Any = NO_GAMES_PLACE
    key: Any = NO_GAMES_KEY
    order: Any = ""
    index: Any = ""


def _round(value: Decimal, places: int) -> Decimal:
    """Excel's ROUND (half away from zero) of an exact decimal."""
    q = Decimal(1).scaleb(-places)
    return value.quantize(q, rounding=ROUND_HALF_UP)


def _row_shares(pl: Sequence[Any], rule: str) -> list[list[tuple[int, Fraction]]] | None:
    """The places of a tab row as the standings' helpers count them under ``rule``
    (see :func:`umaoka.engine.standings.place_shares`), or None when the row has no
    places; worse and split follow the sheet's formulas: a seat's worst place is how many
    seats have a place at most its own, its share 1 / how many have the same place."""
    if not all(_is_number(p) for p in pl):
        return None
    out = []
    for p in pl:
        worst = sum(1 for q in pl if q <= p)
        tied = sum(1 for q in pl if q == p)
        if rule == "worse":
            out.append([(worst, Fraction(1))])
        elif rule == "split":
            out.append([(k, Fraction(1, tied)) for k in range(int(p), worst + 1)])
        else:
            out.append([(p, Fraction(1))])
    return out


def _plain(value: Fraction) -> Any:
    """A helper's value as the sheet holds it: a whole number, or a float."""
    return int(value) if value.denominator == 1 else float(value)


def _named_slots(names: Sequence[str], n: int) -> tuple[list[Slot], dict[str, list[Slot]]]:
    """A slot per roster row, and the slots of each lower-case name (one pass over the tab
    serves every slot of a name)."""
    slots = [Slot(name, counts=[0] * n) for name in names]
    by_name: dict[str, list[Slot]] = {}
    for slot in slots:
        if slot.name != "":
            by_name.setdefault(slot.name.lower(), []).append(slot)
    return slots, by_name


def league_slots(names: Sequence[str], lv: LeagueValues, n: int,
                 extras: dict[str, Decimal] | None = None,
                 shared_place: str = "better") -> list[Slot]:
    """The helper columns of a league's standings (SUMIFS/COUNTIFS over the league tab);
    ``extras``: a season's chips and logged penalties per lower-case name;
    ``shared_place``: the ruleset's rule for a shared place (better, worse or split)."""
    if shared_place != "better":
        return _slots_by_rule(names, lv, n, extras, shared_place)
    slots, by_name = _named_slots(names, n)
    totals = {x: Decimal(0) for x in by_name}
    tallies = {x: [0, 0, [0] * n, 0] for x in by_name}  # psum, games, counts, lasts
    for players, res, pl in zip(lv.players, lv.results, lv.places):
        for s in range(n):
            x = players[s].lower()
            tally = tallies.get(x)
            if tally is None:
                continue
            v = res[s]
            if _is_number(v):
                totals[x] += v if type(v) is int or type(v) is Decimal else Decimal(str(v))
            p = pl[s]
            if _is_number(p):
                tally[0] += p
                if p > 0:
                    tally[1] += 1
                if 1 <= p <= n:
                    tally[2][p - 1] += 1
                if p == n:  # last: place n (a shared last counts as the better place)
                    tally[3] += 1
    for x, group in by_name.items():
        psum, games, counts, lasts = tallies[x]
        total = _round(totals[x] + (extras or {}).get(x, Decimal(0)), 1)
        for slot in group:
            slot.psum, slot.games, slot.counts, slot.lasts = psum, games, list(counts), lasts
            slot.total = total
    return _ranked(slots)


def _slots_by_rule(names: Sequence[str], lv: LeagueValues, n: int,
                   extras: dict[str, Decimal] | None, rule: str) -> list[Slot]:
    """:func:`league_slots` under ``shared_place`` worse or split: the counts and place
    sum of the SUMPRODUCT formulas (last = the count of place n under every rule)."""
    slots, by_name = _named_slots(names, n)
    totals = {x: Decimal(0) for x in by_name}
    tallies: dict[str, list[Any]] = {x: [Fraction(0), 0, [Fraction(0)] * n] for x in by_name}
    for players, res, pl in zip(lv.players, lv.results, lv.places):
        shares = _row_shares(pl, rule)
        for s in range(n):
            x = players[s].lower()
            tally = tallies.get(x)
            if tally is None:
                continue
            v = res[s]
            if _is_number(v):
                totals[x] += v if type(v) is int or type(v) is Decimal else Decimal(str(v))
            if shares is None:
                continue
            if pl[s] > 0:
                tally[1] += 1
            for place, share in shares[s]:
                tally[0] += place * share
                if 1 <= place <= n:
                    tally[2][place - 1] += share
    for x, group in by_name.items():
        psum, games, counts = tallies[x]
        total = _round(totals[x] + (extras or {}).get(x, Decimal(0)), 1)
        for slot in group:
            slot.psum, slot.games = _plain(psum), games
            slot.counts = [_plain(c) for c in counts]
            slot.lasts = slot.counts[n - 1]
            slot.total = total
    return _ranked(slots)


def overall_slots(names: Sequence[str], leagues: Sequence[list[Slot]], n: int) -> list[Slot]:
    """The overall standings' helpers: each league's helpers added up slot by slot."""
    slots = []
    for i, name in enumerate(names):
        slot = Slot(name, counts=[0] * n)
        for lg in leagues:
            one = lg[i]
            slot.games += one.games
            slot.total += one.total
            slot.psum += one.psum
            slot.lasts += one.lasts
            for p, c in enumerate(one.counts):
                slot.counts[p] += c
        slot.total = _round(slot.total, 1)
        slots.append(slot)
    return _ranked(slots)


def _ranked(slots: list[Slot]) -> list[Slot]:
    """avg place, sort key, order and index: the last helper columns."""
    for s in slots:
        if s.games > 0:
            s.avgp = _round(Decimal(s.psum) / Decimal(s.games), 2)
            s.key = s.total
        else:
            s.avgp, s.key = NO_GAMES_PLACE, NO_GAMES_KEY
    for i, s in enumerate(slots):
        if s.games > 0:
            s.order = (1 + sum(1 for t in slots if t.key > s.key)
                       + sum(1 for t in slots if t.key == s.key and t.avgp < s.avgp)
                       + sum(1 for t in slots[:i] if t.key == s.key and t.avgp == s.avgp))
        else:
            s.order = ""
    for i, s in enumerate(slots):
        s.index = next((j + 1 for j, t in enumerate(slots) if t.order == i + 1), "")
    return slots


def visible_rows(slots: Sequence[Slot], n: int) -> list[list[Any]]:
    """The visible standings table: Rank, Player, Games, Total, Average, Avg place, counts,
    rates, Last-avoid rate (``""`` everywhere on rows past the last player)."""
    width = 6 + 2 * n + 1
    rows = []
    for s in slots:
        if s.index == "":
            rows.append([""] * width)
            continue
        p = slots[s.index - 1]
        g = p.games
        rank = 1 + sum(1 for t in slots if t.key > p.key)
        total = _number(p.total)
        row: list[Any] = [rank, p.name, g, total, float(p.total) / g, p.psum / g]
        row += list(p.counts)
        row += [c / g for c in p.counts]
        row += [1 - p.lasts / g]
        rows.append(row)
    return rows


def chart_sessions(lv: LeagueValues) -> list[Any]:
    """The chart's rows: each numbered session present, in order (what the sheet's
    ``SMALL``/``COUNTIF`` column lists). One row a session played, never one a session
    number, so a typed 1000000 or a date costs one row, not a million."""
    return sorted({s for s in lv.sessions if _is_number(s)})


def chart_values(names: Sequence[str], lv: LeagueValues, n: int, count: int
                 ) -> list[list[Any]]:
    """The chart's table: cumulative points of each plotted name after each numbered
    session present (:func:`chart_sessions`), ``count`` rows.

    ``None`` stands for ``#N/A`` (a name slot without a player, or a row after the last
    session played), which the chart leaves out.
    """
    wanted = {name.lower() for name in names if name != "-"}
    # points of each plotted name by session, then added up session by session
    by_session: dict[Any, dict[str, Decimal]] = {}
    for players, res, sess in zip(lv.players, lv.results, lv.sessions):
        if not _is_number(sess):
            continue
        for s in range(n):
            x = players[s].lower()
            if x in wanted and _is_number(res[s]):
                bucket = by_session.setdefault(sess, {})
                bucket[x] = bucket.get(x, Decimal(0)) + Decimal(str(res[s]))
    order = chart_sessions(lv)
    out = []
    running: dict[str, Decimal] = {}
    for j in range(count):
        if j < len(order):
            for x, v in by_session.get(order[j], {}).items():
                running[x] = running.get(x, Decimal(0)) + v
        out.append([None if name == "-" or j >= len(order)
                    else _number(_round(running.get(name.lower(), Decimal(0)), 1))
                    for name in names])
    return out
