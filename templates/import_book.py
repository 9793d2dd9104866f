"""Imported online games appended to a league tab of a workbook (``umaoka import --into``).

Two kinds of row go in, as :mod:`umaoka.engine.online.imports` reads them:

* games **settled by the platform** (Tenhou lobby lines, a finals CSV): players in the
  platform's finishing order, East to North, and its finals in the tab's *platform finals*
  block (the block is added to the tab when the first such game comes in). The final
  scores keep them; places follow them; the check column says "By platform";
* **game logs** (tenhou.net/6 JSON, mjlog): raw end points and leftover sticks typed in
  seat order, settled under the league's own ruleset like any typed game.

A game either goes in whole or not at all: a log the league's ruleset cannot settle, a
three-player game for a four-player league, a game already in the tab (or twice in the
files) is a problem naming its file and line, and is skipped. Games without a session
go into the session after the tab's last (one session for the whole import). A name on
the Players sheet in another case (``aki`` for ``Aki``) is written as the sheet spells it,
and a game already in the tab is found whatever the case of its names. A chip lobby's
chips go into the tab's Chips block (none: they are left out, and the report says so).
The book is
handed to ``write`` (the command line updates the workbook in place, keeping sheets added
by hand: :mod:`umaoka.addin.install.update`). Players new to the Players sheet are added to it (a
platform's names are not typos).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from openpyxl.utils.datetime import from_excel

from umaoka.engine import UmaokaError, settle
from umaoka.engine.online.imported import ImportedGame, ImportResult, Problem
from umaoka.engine.online.imports import drop_duplicates
from umaoka.engine.seating.nights import SoFar, season_so_far
from umaoka.engine.standings import as_on_roster, roster_spellings
from umaoka.templates.book.model import MAX_SESSION, Book, Game, League, Night, seating_nights
from umaoka.templates.build import write_league
from umaoka.templates.settle_book import read_book


@dataclass
class BookImport:
    """What ``import_into`` did: the file written, the league, the games added, problems."""

    path: Path
    league: str
    added: list[ImportedGame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: Players not on the Players sheet before, added to it (platform names are no typos).
    new_players: list[str] = field(default_factory=list)
    #: Names on the Players sheet in another case, written as it spells them ("aki", "Aki").
    respelt: list[tuple[str, str]] = field(default_factory=list)
    #: Games whose chips (a chip lobby's 枚) were left out: the tab has no Chips block.
    chips_left_out: int = 0


def imported_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}_imported.xlsx")


def pick_league(book: Book, name: str | None) -> League:
    """The league named ``name`` (case-insensitive), or the only league of the book."""
    names = [lg.name for lg in book.leagues]
    if name is None:
        if len(book.leagues) == 1:
            return book.leagues[0]
        raise UmaokaError(f"the workbook has {len(names)} leagues ({', '.join(names)}); say "
                          "which one with --league NAME.")
    for lg in book.leagues:
        if lg.name.casefold() == name.strip().casefold():
            return lg
    raise UmaokaError(f'the workbook has no league "{name}"; its leagues: {", ".join(names)}.')


def _minute(value: Any) -> tuple[str, str] | None:
    """A date cell (a date, a datetime or an Excel serial) as (YYYY-MM-DD, HH:MM)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            value = from_excel(value)
        except (ValueError, OverflowError):
            return None
    if isinstance(value, dt.datetime):
        value = value + dt.timedelta(seconds=30)  # serials carry float noise: round
        minute = value.strftime("%H:%M")
        return value.date().isoformat(), "" if minute == "00:00" else minute
    if isinstance(value, dt.date):
        return value.isoformat(), ""
    return None


def _num(value: Any) -> Any:
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        d = Decimal(str(value))
        return d.normalize() if d == d.to_integral_value() else d
    return value


def row_key(game: Game) -> tuple[object, ...] | None:
    """What identifies a row of the tab: platform rows by day, minute, players and finals;
    typed rows by players, raw points and leftover sticks."""
    # names in any case: "aki" and "Aki" are one player to the tab's SUMIFS and COUNTIFS,
    # so a game imported as "aki" and fixed to "Aki" is still the same game
    names = tuple(("" if p is None else str(p)).strip().casefold() for p in game.players)
    if game.has_given():
        return ("platform", _minute(game.date), names, tuple(_num(v) for v in game.given))
    if all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in game.scores):
        return ("raw", names, tuple(_num(s) for s in game.scores), _num(game.deposits or 0))
    return None


def next_session(league: League, rounds: int = 1) -> int:
    """The session after the last one typed in the tab (1 for an empty tab): games
    imported without a session go there, so that they count in the cumulative chart.
    One sentence when ``rounds`` sessions from there would pass :data:`MAX_SESSION`."""
    played = [g.session for g in league.games
              if isinstance(g.session, (int, float)) and not isinstance(g.session, bool)
              and math.isfinite(g.session)]
    last = max(played, default=0)
    if last > MAX_SESSION - rounds:
        raise UmaokaError(f"the last session in {league.name} is {int(last):,}, so the next "
                          f"would be beyond {MAX_SESSION:,}, the largest session number; give "
                          "the session with --session.")
    return int(last) + 1


def last_session(first: int, rounds: int) -> int:
    """The session of the last of ``rounds`` rounds from session ``first``, or one sentence
    when it would pass :data:`MAX_SESSION`."""
    if first + rounds - 1 > MAX_SESSION:
        raise UmaokaError(f"{rounds} rounds from session {first:,} would end beyond "
                          f"{MAX_SESSION:,}, the largest session number; give an earlier "
                          "--session.")
    return first + rounds - 1


def game_row(g: ImportedGame, n: int, session: Any = None, chips: bool = False) -> Game:
    """A tab row for an imported game (platform finals or raw points); with ``chips`` (the
    tab has a Chips block) a chip lobby's chips too, in the players' order."""
    date: Any = g.date
    if g.date is not None and g.time:
        try:
            hours, minutes = (int(x) for x in g.time.split(":")[:2])
            date = dt.datetime.combine(g.date, dt.time(hours, minutes))
        except ValueError:
            date = g.date
    scores: list[Any] = list(g.scores) if g.scores else [None] * n
    given: list[Any] = [_cell(f) for f in g.finals] if g.settled and g.finals else []
    return Game(date=date, session=_whole(session if session is not None else g.session),
                table=_whole(g.table), number=_whole(g.game), players=list(g.names),
                scores=scores,
                deposits=(g.deposits or None) if not g.settled else None,
                penalties=[None] * n, given=given,
                chips=list(g.chips) if chips and g.chips else [])


def _whole(value: Any) -> Any:
    """A session, table or game number read from a CSV as a number, as the manager types
    it (a text "1" in the Table column would sort and count apart from a typed 1)."""
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 10:
        return int(value.strip())
    return value


def _cell(value: Decimal) -> int | float:
    """A platform final as a worksheet number (finals have at most one decimal)."""
    return int(value) if value == value.to_integral_value() else float(value)


def import_into(path: Path, result: ImportResult, league: str | None = None,
                out: Path | None = None, force: bool = False, keep_duplicates: bool = False,
                strict: bool = False, session: Any = None,
                warn: Callable[[list[Problem]], Any] | None = None,
                write: Callable[..., Any] = write_league, **write_args: Any) -> BookImport:
    """Append the games of ``result`` to a league tab of the workbook at ``path`` and write
    the workbook to ``out`` (default ``<name>_imported.xlsx``; never over ``path``).

    Nothing is written when no game can be added, or with ``strict`` when any line had a
    problem; ``warn`` is told the problems first. ``write`` saves the book (``write_args``
    go along, e.g. Lite's code).
    """
    path = Path(path)
    out = Path(out) if out else imported_path(path)
    book = read_book(path)
    target = pick_league(book, league)
    rules = book.rules_of(target).ruleset
    n = rules.players
    if not keep_duplicates:
        result = drop_duplicates(result)
    report = BookImport(out, target.name, problems=list(result.problems))
    seen: dict[tuple[object, ...], str] = {}
    for g in target.games:
        if (key := row_key(g)) is not None:
            seen.setdefault(key, f"{target.name}!row {g.row}")
    rows: list[Game] = []
    following: int | None = None  # the session after the tab's last, when one is needed
    spellings = roster_spellings(book.players)
    for g in result.games:
        if (spelt := as_on_roster(g.names, spellings)) is not g.names:
            report.respelt += [(a, b) for a, b in zip(g.names, spelt)
                               if a != b and (a, b) not in report.respelt]
            g = replace(g, names=tuple(spelt))
        problem = None
        if g.players != n:
            problem = (f"a {g.players}-player game cannot go into {target.name}, a "
                       f"{n}-player league; import it into a league of {g.players}.")
        elif not g.settled:
            try:
                settle(list(g.scores or ()), rules, g.deposits)
            except UmaokaError as e:
                problem = f"the league's rules cannot settle this game: {e}"
        if session is None and g.session is None and following is None:
            following = next_session(target)
        row = game_row(g, n, session if session is not None or g.session is not None
                       else following, chips=target.chips)
        key = row_key(row)
        if problem is None and not keep_duplicates and key in seen:
            problem = f"the same game as {seen[key]} (already in the workbook); skipped."
        if problem is not None:
            report.problems.append(Problem(g.source, g.line, problem))
            continue
        if key is not None:
            seen.setdefault(key, g.describe())
        rows.append(row)
        report.added.append(g)
        report.chips_left_out += bool(g.chips and any(g.chips) and not target.chips)
    if warn is not None:
        warn(report.problems)
    if strict and report.problems:
        raise UmaokaError(f"{len(report.problems)} problem(s) and --strict: nothing written.")
    if not rows:
        raise UmaokaError("no game could be added to the workbook; see the warnings above.")
    _trim(target)
    for row in rows:
        row.row = None
    target.games.extend(rows)
    if any(r.has_given() for r in rows):
        target.given = True
    report.new_players = _add_players(book, rows)
    write(book, out, force=force, inputs=(path,), **write_args)
    return report


# ------------------------------------------------------------------------------------------------
# A seating schedule into the workbook.


def seated_path(path: Path) -> Path:
    return path.with_name(f"{path.stem}_seated.xlsx")


@dataclass
class BookSeating:
    """What ``seat_into`` did: the file written, the league, rows pre-filled, sessions."""

    path: Path
    league: str
    rows: int
    sessions: tuple[int, int]
    new_players: list[str] = field(default_factory=list)


def _add_players(book: Book, rows: list[Game]) -> list[str]:
    """Names of ``rows`` not on the Players sheet, added to it (in order of appearance)."""
    known = {p.casefold() for p in book.players}
    new: list[str] = []
    for r in rows:
        for name in r.players:
            text = str(name).strip()
            if text and text.casefold() not in known:
                known.add(text.casefold())
                new.append(text)
    book.players.extend(new)
    return new


def _trim(league: League) -> None:
    """Drop trailing rows holding nothing at all (neither players nor scores)."""
    while league.games and league.games[-1].is_blank() and not any(
            p not in (None, "") for p in league.games[-1].players):
        league.games.pop()


def seating_target(book: Book, league: str | None, table_size: int) -> League:
    """The league tab a seating plan goes into, or one sentence why it cannot (called before
    the plan is shown, so nothing is printed for a league that is not there)."""
    target = pick_league(book, league)
    n = book.rules_of(target).ruleset.players
    if table_size != n:
        raise UmaokaError(f"the seating has tables of {table_size} but {target.name} is a "
                          f"{n}-player league; draw it with --tables-of {n}.")
    return target


def seating_so_far(book: Book, target: League) -> SoFar:
    """The season's seating before tonight: the nights of the Seating sheet and the games
    of the league tab ``target`` (typed, imported or pre-filled from a plan)."""
    return season_so_far(nights_as_played(book, target), seating_played(target))


def nights_as_played(book: Book, target: League) -> list[Any]:
    """The Seating sheet's nights, each planned table replaced by the tab's row of its
    session and table when that row names players (a seat swapped by hand on the tab is
    who really sat there), so a table is counted once, as played."""
    rows: dict[tuple[int, int], tuple[str, ...]] = {}
    for g in target.games:
        names = tuple(str(p).strip() for p in g.players if p is not None and str(p).strip())
        if names and _is_whole(g.session) and _is_whole(g.table):
            rows.setdefault((int(g.session), int(g.table)), names)
    out = []
    for night in seating_nights(book.seating):
        plan = night.schedule
        if night.session is not None:
            tables = tuple(replace(t, seats=rows.get((night.session + t.round - 1, t.number),
                                                     t.seats)) for t in plan.tables)
            plan = replace(plan, tables=tables)
        out.append(plan)
    return out


def _is_whole(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == int(
        value)


def seating_played(target: League) -> list[list[str]]:
    """The players of each game row of ``target`` (blank seats left out)."""
    return [[str(p).strip() for p in g.players if p is not None and str(p).strip()]
            for g in target.games]


def seat_into(path: Path, plan: Any, league: str | None = None, out: Path | None = None,
              force: bool = False, session: int | None = None,
              write: Callable[..., Any] = write_league, date: dt.date | None = None,
              book: Book | None = None, **write_args: Any) -> BookSeating:
    """Write the workbook at ``path`` again with tonight's ``plan`` (a drawn ``Schedule``)
    added as a night of the Seating sheet, below the earlier nights, and one pre-filled
    game row per table: date (``date``, else blank), session = round (the first round is
    ``session``, default the session after the tab's last), table, players East to North;
    the manager types only the scores. Never over ``path``: default ``<name>_seated.xlsx``.
    ``book``: the workbook at ``path`` when the caller has read it already.
    """
    path = Path(path)
    out = Path(out) if out else seated_path(path)
    book = book if book is not None else read_book(path)
    target = seating_target(book, league, plan.table_size)
    n = book.rules_of(target).ruleset.players
    if session is None:
        session = next_session(target, plan.rounds)
    last_session(session, plan.rounds)
    rows = [Game(date=date, session=session + t.round - 1, table=t.number, players=list(t.seats),
                 scores=[None] * n, penalties=[None] * n) for t in plan.tables]
    _trim(target)
    target.games.extend(rows)
    new = _add_players(book, [Game(players=list(plan.players))])
    book.seating = [*seating_nights(book.seating), Night(plan, date, session)]
    write(book, out, force=force, inputs=(path,), **write_args)
    return BookSeating(out, target.name, len(rows), (session, session + plan.rounds - 1), new)
