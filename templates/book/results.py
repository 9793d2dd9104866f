"""Settling the games of a :class:`~umaoka.templates.book.model.Book` with the engine.

The settled copy of a workbook and the tests use these values; the template's own
formulas (MJ_SETTLE, native standings) compute the same numbers in Excel.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from openpyxl.utils import get_column_letter

from umaoka.engine import PlayerStanding, Ruleset, Settlement, UmaokaError, settle, standings
from umaoka.engine.settle import refuse_text
from umaoka.engine.standings import as_on_roster, roster_spellings
from umaoka.templates.book.labels import label, seat_label
from umaoka.templates.book.layout import LeagueCols
from umaoka.templates.book.model import Book, Game, League

#: First data row of a league tab (rows 1-4: title, note, block headers, column headers).
FIRST_ROW = 5


@dataclass(slots=True)  # a league holds up to 50,000: no __dict__ each
class Outcome:
    """One entered game: its settlement, or the engine's message when its scores are bad."""

    settlement: Settlement | None = None
    error: str | None = None


def _penalties(game: Game) -> list[Any] | None:
    pens = game.penalties
    if not pens or all(p is None or (isinstance(p, str) and not p.strip()) for p in pens):
        return None
    return list(pens)


@dataclass(frozen=True)
class Platform:
    """A game settled by an online platform: its finals kept as they are, in seat order.

    Places follow the finals, equal finals by seat (players are entered in the platform's
    finishing order). Stands in for a :class:`~umaoka.engine.Settlement` in standings.
    """

    final: tuple[Decimal, ...]
    places: tuple[int, ...]


def given_places(finals: Sequence[Any]) -> tuple[int, ...]:
    """Places of platform finals: 1 + higher finals + equal finals of earlier seats.

    >>> given_places([12, 30, 12, -54])
    (2, 1, 3, 4)
    """
    return tuple(1 + sum(1 for g in finals if g > f) + sum(1 for g in finals[:s] if g == f)
                 for s, f in enumerate(finals))


def platform_outcome(game: Game, n: int) -> Outcome:
    """A row with platform finals: kept when every seat has one, else its message."""
    given = (list(game.given) + [None] * n)[:n]
    values = []
    for v in given:
        if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
            return Outcome(error="a platform final score is missing or not a number; give "
                           "every seat's platform final, or clear them all.")
        values.append(Decimal(str(v)))
    return Outcome(Platform(tuple(values), given_places(values)))  # type: ignore[arg-type]


def score_cells(game: Game, n: int) -> list[str] | None:
    """The addresses of a league tab row's score cells (None when the game has no row)."""
    if not game.row:
        return None
    return [f"{get_column_letter(c)}{game.row}" for c in LeagueCols(n).scores]


def settle_game(game: Game, rules: Ruleset) -> Outcome | None:
    """Settle one row (None for a blank row); platform finals, when given, are kept. A
    score cell stored as text is refused, naming the cell (the tab's own formulas cannot
    read it); a CSV line's text (``source``) is no cell: the engine reads its numbers."""
    if game.is_blank():
        return None
    if game.has_given():
        return platform_outcome(game, rules.players)
    deposits = game.deposits
    if deposits is None or (isinstance(deposits, str) and not deposits.strip()):
        deposits = 0
    try:
        if game.source is None and any(type(s) is str for s in game.scores):  # a cell's
            refuse_text(game.scores, score_cells(game, rules.players))
        return Outcome(settle(game.scores, rules, deposits, _penalties(game)))
    except UmaokaError as e:
        return Outcome(error=seat_named(str(e), game))


#: The engine's "score 3 ..." / "penalty 2 ...": a seat by its number in the scores given.
_SEAT_SUBJECT = re.compile(r"(score|penalty) ([1-4])\b")


def seat_named(error: str, game: Game) -> str:
    """The engine's message with its seat number told as the row's seat and player.

    The engine knows scores only as a list ("score 3"); on a league tab the manager looks
    for a seat and a name, so "score 3 (1,650) is ..." reads "West (Chie)'s score (1,650) is ...".

    >>> seat_named("score 3 (1,650) is not a whole multiple of 100.",
    ...            Game(players=["Aki", "Ben", "Chie", "Dan"]))
    "West (Chie)'s score (1,650) is not a whole multiple of 100."
    """
    m = _SEAT_SUBJECT.match(error)
    if m is None:
        return error
    seat = int(m[2]) - 1
    name = str(game.players[seat]).strip() if seat < len(game.players) \
        and game.players[seat] is not None else ""
    who = f"{seat_label(seat)} ({name})" if name else seat_label(seat)
    return f"{who}'s {m[1]}{error[m.end():]}"


def settle_league(league: League, rules: Ruleset) -> list[Outcome | None]:
    return [settle_game(g, rules) for g in league.games]


def names_problem(game: Game) -> str | None:
    """Why a settled game cannot count in the standings (blank or repeated player), or None."""
    names = [("" if p is None else str(p)).strip() for p in game.players]
    if "" in names:
        return "a player name is blank; fill in every seat's player for the standings."
    if len({n.casefold() for n in names}) != len(names):  # "aki" and "Aki": one player
        return "the same player sits twice; each seat needs a different player."
    return None


def counted(league: League, outcomes: Sequence[Outcome | None],
            roster: Sequence[str] = ()) -> list[tuple[Game, Settlement]]:
    """The games that count in the standings: settled, with four different names. A name
    on the ``roster`` in another case ("aki" for "Aki") counts as the roster's player, as
    the tab's own SUMIFS and COUNTIFS (which ignore case) count it: the game comes with
    the roster's spelling (the tab keeps what was typed, and its Check flags it)."""
    spellings = roster_spellings(roster)
    out = []
    for g, o in zip(league.games, outcomes):
        if o is not None and o.settlement is not None and names_problem(g) is None:
            if spellings:
                names = [("" if p is None else str(p)).strip() for p in g.players]
                if (spelt := as_on_roster(names, spellings)) is not names:
                    g = replace(g, players=spelt)
            out.append((g, o.settlement))
    return out


def league_standings(games: Sequence[tuple[Game, Settlement]],
                     shared_place: str | Sequence[str] = "better") -> list[PlayerStanding]:
    """The standings of counted games; ``shared_place``: the league's rule for a shared
    place (its ruleset's), or one per game when leagues of several rules add up."""
    return standings([([str(p).strip() for p in g.players], s) if isinstance(s, Settlement)
                      else ([str(p).strip() for p in g.players], s.final, s.places)
                      for g, s in games], shared_place=shared_place)


def problems(book: Book, all_outcomes: Sequence[Sequence[Outcome | None]]) -> list[str]:
    """One line per row left out of the standings: sheet name, row number and why."""
    return _rows(book, all_outcomes)[0]


def row_warnings(book: Book, all_outcomes: Sequence[Sequence[Outcome | None]]) -> list[str]:
    """One line per row that counts but looks wrong (a name not on the roster, or on it in
    another case): it is settled, so it is no problem row."""
    return _rows(book, all_outcomes)[1]


def _rows(book: Book, all_outcomes: Sequence[Sequence[Outcome | None]]
          ) -> tuple[list[str], list[str]]:
    """The rows left out of the standings, and the rows settled with a warning."""
    bad, doubtful = [], []
    for league, outcomes in zip(book.leagues, all_outcomes):
        for i, (game, o) in enumerate(zip(league.games, outcomes)):
            if o is None:
                continue
            where = game.source or f"{league.name}!row {game.row or FIRST_ROW + i}"
            if o.error:
                bad.append(f"{where}: {o.error}")
            elif (why := names_problem(game)) is not None:
                bad.append(f"{where}: {why}")
            elif book.players and (name := off_roster(game, book.players)) is not None:
                doubtful.append(f'{where}: "{name}" is not on the Players sheet; a typo '
                                "counts as a new player in the standings (fix the name or add "
                                "it).")
            elif book.players and (pair := case_only(game, book.players)) is not None:
                doubtful.append(f'{where}: "{pair[0]}" differs from "{pair[1]}" on the '
                                f"Players sheet only by case and counts as {pair[1]}; type it "
                                "as on the Players sheet.")
    return bad, doubtful


def check_text(game: Game, rules: Ruleset, lang: str,
               roster: Sequence[str] | None = None) -> str:
    """What the Check column's formula shows for a row (mirrors the formula of
    league_tab.py: the first message of its helper cells, :func:`score_flag` then
    :func:`roster_flag`); with ``roster``, a name not on it is flagged (likely a typo)."""
    if game.has_given():
        given = [v for v in game.given
                 if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)]
        if len(given) < rules.players:
            return label("given_missing", lang)
        if roster is not None and (flag := roster_flag(game, roster, lang)) is not None:
            return flag
        return label("by_platform", lang)
    if flag := score_flag(game, rules, lang):
        return flag
    if not _has_scores(game):
        return ""
    if roster is not None and (flag := roster_flag(game, roster, lang)) is not None:
        return flag
    return label("ok", lang)


def _has_scores(game: Game) -> bool:
    """A score or deposits typed (a row the Check looks at)."""
    nums = [s for s in game.scores
            if isinstance(s, (int, float, Decimal)) and not isinstance(s, bool)]
    dep = game.deposits if isinstance(game.deposits, (int, float, Decimal)) else 0
    return bool(nums or dep)


def score_flag(game: Game, rules: Ruleset, lang: str) -> str:
    """What the Check's scores helper cell shows for a row: the scores' message (missing,
    typed in thousands or hundreds, off by, not in 100s), or "" for a row without scores
    or whose scores add up."""
    nums = [s for s in game.scores
            if isinstance(s, (int, float, Decimal)) and not isinstance(s, bool)]
    # COUNTA's cells that COUNT skips: text ("32400" typed as text), TRUE, an error
    other = len(nums) < len(game.scores) and any(
        s is not None and not (isinstance(s, str) and not s.strip())
        and (isinstance(s, bool) or not isinstance(s, (int, float, Decimal)))
        for s in game.scores)
    dep = game.deposits if isinstance(game.deposits, (int, float, Decimal)) else 0
    if not nums and not other and not dep:
        return ""
    # exact: whole numbers as they are (most cells), others through their text
    exact = [s if type(s) is int else Decimal(str(s)) for s in nums]
    dep = dep if type(dep) is int else Decimal(str(dep))
    diff = sum(exact) + dep - rules.start * rules.players
    if len(nums) < rules.players:
        return label("score_text" if other else "missing", lang)
    if diff or any(s % 100 for s in exact):
        # the engine's order: scores that add up once scaled were typed in thousands or
        # hundreds (35.7 for 35,700), which says more than "Off by -99,900"
        if (scale := typed_scale(sum(exact), dep, rules)) is not None:
            return label(scale, lang)
    if diff:
        return f"{label('off_by', lang)} {int(diff):+,}"
    if any(s % 100 for s in exact):
        return label("not_100", lang)
    return ""


def typed_scale(total: Any, deposits: Any, rules: Ruleset) -> str | None:
    """``in_thousands`` or ``in_hundreds`` when scores adding up to ``total`` were typed at
    that scale (as the engine's ``_check_typed_scale`` finds them), else None.

    >>> from umaoka.engine import ruleset
    >>> typed_scale(Decimal("100.0"), 0, ruleset("standard"))
    'in_thousands'
    """
    expected = rules.start * rules.players
    for key, times in (("in_thousands", 1000), ("in_hundreds", 100)):
        if total * times + deposits == expected or (total + deposits) * times == expected:
            return key
    return None


def roster_flag(game: Game, roster: Sequence[str], lang: str) -> str | None:
    """The check column's flag for the first seat whose name is not on the roster, or is on
    it only in another case (mirrors the formula: seat by seat)."""
    known = _known(tuple(roster))
    exact, _ = _spellings(tuple(roster))
    for p in game.players:
        if p is None or not str(p).strip():
            continue
        text = str(p)
        if text.strip().casefold() not in known:
            return f"{label('not_on_roster', lang)}: {text}"
        if text.strip() not in exact:
            return f"{label('case_differs', lang)}: {text}"
    return None


def off_roster(game: Game, roster: Sequence[str]) -> str | None:
    """The first name of the game not on the roster (as COUNTIF: case-insensitive)."""
    known = _known(tuple(roster))
    for p in game.players:
        if p is not None and str(p).strip() and str(p).strip().casefold() not in known:
            return str(p)
    return None


def case_only(game: Game, roster: Sequence[str]) -> tuple[str, str] | None:
    """The first name of the game on the roster only in another case ("chie" for "Chie"),
    with the roster's spelling: the standings count it as another player."""
    exact, folded = _spellings(tuple(roster))
    for p in game.players:
        name = "" if p is None else str(p).strip()
        if name and name not in exact and name.casefold() in folded:
            return name, folded[name.casefold()]
    return None


@functools.lru_cache(maxsize=8)
def _spellings(roster: tuple[Any, ...]) -> tuple[frozenset[str], dict[str, str]]:
    """A roster's names as typed, and by their case-folded form."""
    names = [str(r).strip() for r in roster]
    return frozenset(names), {n.casefold(): n for n in names}


@functools.lru_cache(maxsize=8)
def _known(roster: tuple[Any, ...]) -> frozenset[str]:
    """A roster's names as COUNTIF matches them (one set for every row of a tab)."""
    return frozenset(str(r).strip().casefold() for r in roster)


def session_key(value: Any) -> tuple[int, Any]:
    """Sessions sort as numbers first, then as text."""
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return (0, Decimal(str(value)))
    return (1, str(value))


def cumulative(games: Sequence[tuple[Game, Settlement]], names: Sequence[str]
               ) -> tuple[list[Any], dict[str, list[Decimal]]]:
    """Sessions in order and each player's cumulative total after each session."""
    sessions = sorted({g.session for g, _ in games if g.session not in (None, "")},
                      key=session_key)
    per: dict[Any, dict[str, Decimal]] = {s: {} for s in sessions}
    for g, s in games:
        if g.session in per:
            bucket = per[g.session]
            for name, final in zip(g.players, s.final):
                bucket[str(name).strip()] = bucket.get(str(name).strip(), Decimal(0)) + final
    out: dict[str, list[Decimal]] = {}
    for name in names:
        run, series = Decimal(0), []
        for session in sessions:
            run += per[session].get(name, Decimal(0))
            series.append(run)
        out[name] = series
    return sessions, out
