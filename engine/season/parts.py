"""A season's games added up in blocks of rows, so a run after one changed game adds that
block again and takes the others as they were.

:func:`~umaoka.engine.season.stages.run_season` places each row of the game log: the stage
it counts in with its seats, or the sentence that keeps it out. With a
:class:`SettledGames`, the rows are cut in blocks of :data:`BLOCK` rows, and each block's
tallies of each stage (per player and team: games, points, chips, places, best...) are kept
with the placements they came from. The next run takes a block's tallies when its rows are
placed as before (the very same placements: rows that did not change; a stage whose
entrants changed adds all its blocks again) and merges the blocks in order.

Why merging gives the same result as adding the games one by one: a stage's sums are made
in a decimal context of the largest precision (:func:`exact`), so every sum is exact, and
an exact sum is the same Decimal, value and exponent, whichever way its terms are grouped;
counts are integers; the best and worst game are the first highest and first lowest, which
merging keeps (see :meth:`~umaoka.engine.season.ranking.Tally.merge`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from decimal import MAX_PREC, Decimal, localcontext
from itertools import compress, count
from operator import is_, is_not
from typing import Any

from umaoka.engine.season.gamelog import GameRecord, SeatCredit
from umaoka.engine.season.ranking import Tally

#: Rows of the game log per block: an edit adds this many rows' seats again, and every run
#: merges one block's tallies per this many rows.
BLOCK = 128

#: A row seated in a stage: (its number in the log, its record, its seats' credits).
Entry = tuple[int, GameRecord, tuple[SeatCredit, ...]]
#: A problem: ((0 for games or 1 for penalties, row number), sentence), sorted by the key.
Problem = tuple[tuple[int, int], str]
#: What a row came to: (stage name, Entry), (None, Problem), or None for a blank row.
Placed = tuple[str, Entry] | tuple[None, Problem] | None


def exact() -> Any:
    """A decimal context in which sums and products are never rounded (see the module)."""
    return localcontext(prec=MAX_PREC)


class Part:
    """One block's tallies in one stage: players, teams, games counted, rows left out."""

    __slots__ = ("people", "squads", "played", "problems")

    def __init__(self) -> None:
        self.people: dict[str, Tally] = {}
        self.squads: dict[str, Tally] = {}
        self.played = 0
        self.problems: list[Problem] = []


def tally_games(entries: Sequence[Entry], stage_name: str, eligible: Callable[..., bool] | None,
                by_team: bool, chip_value: Decimal, players: int, teams: dict[str, str],
                people: dict[str, Tally], squads: dict[str, Tally],
                problems: list[Problem]) -> int:
    """Add the seats of ``entries`` to ``people`` and ``squads`` (a game with a player or team
    who did not advance is left out, in ``problems``); the number of games counted.
    ``eligible(player, team)``: who may play in the stage (None: everybody)."""
    played = 0
    for i, g, credits in entries:
        if eligible is not None:
            outsider = next((c for c in credits
                             if not eligible(g.players[c.seat], c.team)), None)
            if outsider is not None:
                who = outsider.team if by_team else g.players[outsider.seat]
                problems.append(((0, i), f"{g.label}: {who} did not advance to {stage_name}; "
                                 "fix the name or the stage."))
                continue
        played += 1
        for c in credits:
            if c.player is not None:
                t = people.get(c.player)
                if t is None:
                    t = people[c.player] = Tally(c.player, teams.get(c.player), players)
                t.add_seat(c.points, c.penalty, c.chips, chip_value, c.place,
                           c.substitute is not None)
            if c.team is not None:
                t = squads.get(c.team)
                if t is None:
                    t = squads[c.team] = Tally(c.team, None, players)
                t.add_seat(c.points, c.penalty, c.chips, chip_value, c.place)
    return played


def merge_part(part: Part, people: dict[str, Tally], squads: dict[str, Tally],
               problems: list[Problem]) -> int:
    """Merge a block's tallies into the stage's (names new to the stage are added in the
    block's order, as adding its games would); the block's games counted."""
    for mine, theirs in ((people, part.people), (squads, part.squads)):
        for name, t in theirs.items():
            have = mine.get(name)
            if have is None:
                mine[name] = t.copy()
            else:
                have.merge(t)
    problems.extend(part.problems)
    return part.played


class SettledGames:
    """The games of one season settled so far, for running it again after games change.

    Pass the same object to each :func:`~umaoka.engine.season.stages.run_season` of a
    season: a game met again (an equal :class:`GameRecord`: same players, scores, stage,
    row label...) takes the seats worked out the first time instead of being checked and
    settled again, and a run over a game log of the same length as the last one's places
    again only the rows that are not the same objects as before (records are immutable)
    and adds up again only the blocks of rows that changed (see the module). The results
    are the same either way; a run of another season than the first ignores it. (The demo
    league runs the regular season to find its finalists, then the whole season with
    their final; MJ_SEASON runs its season again after each typed score.)

    >>> from umaoka.engine.season.settings import season_settings
    >>> from umaoka.engine.season.stages import run_season
    >>> season = season_settings({"name": "S", "stages": [{"name": "Regular"}]})
    >>> games = [{"east": "A", "south": "B", "west": "C", "north": "D",
    ...           "east_score": 40000, "south_score": 30000, "west_score": 20000,
    ...           "north_score": 10000}]
    >>> settled = SettledGames()
    >>> first = run_season(season, games, settled=settled)
    >>> len(settled)
    1
    >>> again = run_season(season, games, settled=settled)
    >>> again == first, again.stages[0].players[0].name
    (True, 'A')
    """

    def __init__(self) -> None:
        self.season: Any = None  # the season of the first run it served
        self._seats: dict[GameRecord, tuple[GameRecord, tuple[SeatCredit, ...]]] = {}
        self._rows: list[Any] = []  # the last run's game log, and what each row came to
        self._placed: list[Placed] = []
        self._loose: set[int] = set()  # rows that are not records (placed again each run)
        self._parts: dict[Hashable, tuple[list[Placed], Any, Part]] = {}
        self._next: dict[Hashable, tuple[list[Placed], Any, Part]] = {}

    def __len__(self) -> int:
        return len(self._seats)

    def seats(self, season: Any
              ) -> dict[GameRecord, tuple[GameRecord, tuple[SeatCredit, ...]]] | None:
        """The memo for a run of ``season``, or None when it served another season."""
        if self.season is None:
            self.season = season
        return self._seats if season == self.season else None

    def placements(self, rows: list[Any], place: Callable[[int, Any], Placed]) -> list[Placed]:
        """What each row comes to, ``place(number, row)``: rows that are the same objects
        as in the last run (of a log of the same length) are taken as placed then."""
        before, placed = self._rows, self._placed
        if len(before) == len(rows) and placed:
            placed = list(placed)
            redo = set(compress(count(), map(is_not, rows, before))) | self._loose
            for k in redo:
                placed[k] = place(k + 1, rows[k])
                if rows[k] is None or isinstance(rows[k], GameRecord):
                    self._loose.discard(k)
                else:
                    self._loose.add(k)
        else:
            placed = [place(k, row) for k, row in enumerate(rows, 1)]
            self._loose = {k for k, row in enumerate(rows)
                           if row is not None and not isinstance(row, GameRecord)}
        self._rows, self._placed = rows, placed
        self._next = {}
        return placed

    def parts(self, stage_name: str, placed: list[Placed], entrants: Any,
              make: Callable[[list[Entry]], Part]) -> list[Part]:
        """A stage's tallies block by block: kept, when the block's rows are placed as in
        the last run and the stage's ``entrants`` are the same, else ``make(entries)``."""
        out = []
        for start in range(0, len(placed), BLOCK):
            chunk = placed[start:start + BLOCK]
            kept = self._parts.get((stage_name, start))
            if kept is not None and kept[1] == entrants and len(kept[0]) == len(chunk) \
                    and all(map(is_, chunk, kept[0])):
                part = kept[2]
            else:
                part = make([p[1] for p in chunk  # type: ignore[misc]
                             if p is not None and p[0] == stage_name])
            self._next[(stage_name, start)] = (chunk, entrants, part)
            out.append(part)
        return out

    def finish(self) -> None:
        """The run is over: keep the blocks it used (and only those)."""
        self._parts, self._next = self._next, {}
