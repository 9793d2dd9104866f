"""A league season: stages in order, carry-over and cuts, teams, penalties, chips, substitutes.

Each stage has its own ruleset and ranking; the top ``advance`` of a stage (players, or
teams in a team competition) go on to the next stage, taking ``carry`` times their
total with them (M.League: half of the regular season into the semifinal, half of the
semifinal's total into the final). Carried points are rounded by the receiving stage's
``carry_rounding``; by default as its ruleset rounds final scores, and a ruleset that does
not round keeps 0.1 with a half going up, as M.League does (see :func:`carry_points`).

One module, not two: a stage's settings, the carry-over between stages and the season
run are one loop over the stages in order; ranking, teams, substitutes, penalties and
the game log are modules of their own beside it.

>>> from decimal import Decimal
>>> carry_points(Decimal("123.5"), Decimal("0.5"), ruleset("mleague"))
Decimal('61.8')
>>> carry_points(Decimal("-8.7"), Decimal("0.5"), ruleset("mleague"))
Decimal('-4.3')
>>> carry_points(Decimal("-45"), Decimal("0.5"), ruleset("standard"))
Decimal('-23')
>>> carry_points(Decimal("8.7"), Decimal("0.5"), ruleset("mleague"), "exact")
Decimal('4.35')
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError
from umaoka.engine.resolve import ruleset
from umaoka.engine.rules import CHOICES, Ruleset
from umaoka.engine.season.gamelog import (
    GameRecord,
    SeatCredit,
    check_players,
    game_record,
    result_of,
    seat_credits,
)
from umaoka.engine.season.parts import (
    Entry,
    Part,
    Placed,
    Problem,
    SettledGames,
    exact,
    merge_part,
    tally_games,
)
from umaoka.engine.season.penalties import Penalty, penalty
from umaoka.engine.season.ranking import (
    DEFAULT_TIE_BREAKS,
    SEEDED,
    StandingLine,
    Tally,
    rank_lines,
)
from umaoka.engine.season.teams import GameCaps, Teams, team_of
from umaoka.engine.standings import as_on_roster, roster_spellings

COMPETITIONS = ("individual", "team")


@dataclass(frozen=True)
class Seed:
    """A player (a team in a team competition) who enters a stage whatever the cut before
    it, e.g. the defending title holder in a title final; ``carry``: the points they bring
    in (0: none)."""

    name: str
    carry: Decimal = Decimal(0)

    def text(self) -> str:
        """``Holder`` or ``Holder: 12.5``, as a season file writes it."""
        return self.name if not self.carry else f"{self.name}: {self.carry}"


@dataclass(frozen=True)
class Stage:
    """One stage of a season: its ruleset, how it ranks, who goes on and what they carry."""

    name: str
    ruleset: Ruleset = field(default_factory=lambda: ruleset("standard"))
    advance: int | None = None  # how many go on to the next stage (None: everybody)
    carry: Decimal = Decimal(0)  # share of the previous stage's total carried into this one
    carry_rounding: str | None = None  # how carried points round (None: see carry_points)
    ranking: str = "total"
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    min_games: int = 0  # fewer games: listed, not ranked, no place in a cut (advance)
    game_caps: GameCaps | None = None
    chip_value: Decimal = Decimal(0)  # final points per chip
    substitutes: str = "team"
    absent_result: Decimal = Decimal(-30)
    #: who enters this stage whatever the previous stage's cut (and takes no place in it)
    seeds: tuple[Seed, ...] = ()


@dataclass(frozen=True)
class Season:
    """A season's definition; see :func:`umaoka.engine.season.settings.season_settings`."""

    name: str
    stages: tuple[Stage, ...]
    teams: Teams = ()
    players: tuple[str, ...] = ()  # the roster, optional: catches misspelt names
    competition: str = "individual"  # what advances and carries: players, or teams

    def __post_init__(self) -> None:
        _check_season(self)

    @property
    def roster(self) -> tuple[str, ...]:
        """Every player named in the definition, roster first, then teams' players."""
        names = list(self.players)
        names += [p for _, members in self.teams for p in members if p not in names]
        return tuple(names)

    def stage(self, name: str | None, what: str = "game") -> Stage:
        """The stage of that name (case-insensitive); blank means the only stage (``what``
        has none otherwise: "game" or "penalty", for the message)."""
        if not name:
            if len(self.stages) == 1:
                return self.stages[0]
            raise UmaokaError(f"the {what} has no stage; the season has "
                              f"{len(self.stages)} stages ({_names(self.stages)}), so say "
                              "which one.")
        for s in self.stages:
            if s.name.casefold() == str(name).strip().casefold():
                return s
        hint = closest_name(name, [s.name for s in self.stages])
        raise UmaokaError(f'"{name}" is not a stage of this season; use one of '
                          f"{_names(self.stages)}.{hint}")


def closest_name(word: str, names: Iterable[str]) -> str:
    """`` Did you mean "Aki"?`` for a misspelt name (case-insensitive, the name as written)."""
    key = str(word).strip().casefold()
    if len(key) > 100:  # no name is that long; difflib's time grows with the word squared
        return ""
    # One order whatever order the names come in (a set's changes with Python's hash
    # seed): the closest name, and among equally close ones the first in that order
    # (names equal but for case too: "AKI" before "Aki").
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(key)
    best, shown = 0.6, ""
    for name in sorted(set(names), key=lambda n: (n.casefold(), n)):
        matcher.set_seq1(name.casefold())
        if matcher.real_quick_ratio() >= best and matcher.quick_ratio() >= best:
            score = matcher.ratio()
            if score > best or (score == best and not shown):
                best, shown = score, name
    return f' Did you mean "{shown}"?' if shown else ""


def _names(stages: Iterable[Stage]) -> str:
    return ", ".join(s.name for s in stages)


def _check_season(s: Season) -> None:
    if not s.stages:
        raise UmaokaError("the season has no stages; give at least one.")
    seen: set[str] = set()
    for i, st in enumerate(s.stages):
        if st.name.casefold() in seen or not st.name.strip():
            raise UmaokaError(f'stage names must be filled in and different ("{st.name}" is '
                              "blank or used twice).")
        seen.add(st.name.casefold())
        if st.ruleset.players != s.stages[0].ruleset.players:
            raise UmaokaError(f"stage {st.name} is for {st.ruleset.players} players but "
                              f"{s.stages[0].name} for {s.stages[0].ruleset.players}; a season's "
                              "stages use one player count.")
        if i == len(s.stages) - 1 and st.advance is not None:
            raise UmaokaError(f"the last stage ({st.name}) says advance = {st.advance}, but no "
                              "stage follows it; remove advance or add the next stage.")
        if i == 0 and st.carry:
            raise UmaokaError(f"the first stage ({st.name}) has nothing to carry over; remove "
                              "its carry.")
        if i == 0 and st.seeds:
            raise UmaokaError(f"the first stage ({st.name}) has seeds, but no stage before it "
                              "has a cut to pass; everybody may play the first stage, so "
                              "remove its seeds.")
        _check_seeds(s, st)
        if st.advance is not None and st.advance < 1:
            raise UmaokaError(f"stage {st.name}: advance must be at least 1 (got {st.advance}).")
        if not 0 <= st.carry <= 1:
            raise UmaokaError(f"stage {st.name}: carry must be between 0 and 1 (got "
                              f"{st.carry}); write full, half, zero or a factor such as 0.5.")
        if st.carry_rounding is not None and st.carry_rounding not in CARRY_ROUNDINGS:
            raise UmaokaError(f'stage {st.name}: carry_rounding cannot be "{st.carry_rounding}"; '
                              f"use one of {', '.join(CARRY_ROUNDINGS)}.")
        unit = Decimal("0.1") if st.ruleset.rounding == "none" else Decimal(1)
        if st.absent_result % unit:
            raise UmaokaError(f"stage {st.name}: absent_result {st.absent_result} is not in "
                              f"the ruleset's unit of {unit} final points; round it.")
    if s.competition not in COMPETITIONS:
        raise UmaokaError(f'competition cannot be "{s.competition}"; use individual or team.')
    if s.competition == "team" and not s.teams:
        raise UmaokaError("a team competition needs teams; list each team with its players.")
    roster_spellings(s.roster)  # aki and AKI: one player to SUMIFS, so not two here either
    clash = {t for t, _ in s.teams} & set(s.roster)
    if clash:
        raise UmaokaError(f'"{sorted(clash)[0]}" is both a team and a player; give the team '
                          "another name.")


def _check_seeds(s: Season, st: Stage) -> None:
    """A stage's seeds are each named once and are players of the season (teams in a team
    competition), when the season lists them."""
    names = [seed.name for seed in st.seeds]
    twice = {n for n in names if names.count(n) > 1}
    if twice:
        raise UmaokaError(f"stage {st.name}: {sorted(twice)[0]} is seeded twice; name each "
                          "seed once.")
    if s.competition == "team":
        known = [t for t, _ in s.teams]
        what = "team"
    else:
        known, what = list(s.roster), "player"
    for n in names:
        if known and n not in known:
            raise UmaokaError(f"stage {st.name}: the seed {n} is not a {what} of this season; "
                              f"fix the name.{closest_name(n, known)}")


# ------------------------------------------------------------------------------------------------
# Carry-over.

#: How carried points may be rounded: the rulesets' roundings (at the stage's unit) and
#: ``exact`` (every digit kept). ``none`` is left out: say ``exact`` or how to round.
CARRY_ROUNDINGS: tuple[str, ...] = (*(r for r in CHOICES["rounding"] if r != "none"), "exact")

_MODES = {  # (for a positive value, for a negative value)
    "half_down": (ROUND_HALF_DOWN, ROUND_HALF_UP),  # a half toward -infinity
    "half_up": (ROUND_HALF_UP, ROUND_HALF_DOWN),  # a half toward +infinity
    "half_toward_zero": (ROUND_HALF_DOWN, ROUND_HALF_DOWN),
    "half_away_from_zero": (ROUND_HALF_UP, ROUND_HALF_UP),  # Decimal's HALF_UP: away from 0
    "floor": (ROUND_FLOOR, ROUND_FLOOR),
    "ceil": (ROUND_CEILING, ROUND_CEILING),
    "toward_zero": (ROUND_DOWN, ROUND_DOWN),
}


def carry_rounding_of(stage_rounding: str | None, rules: Ruleset) -> str:
    """The carry rounding a stage uses: its own ``carry_rounding``, else the ruleset's
    rounding, and for a ruleset that does not round ``half_up`` (M.League's rule).

    >>> carry_rounding_of(None, ruleset("mleague")), carry_rounding_of(None, ruleset("standard"))
    ('half_up', 'half_down')
    """
    if stage_rounding:
        return stage_rounding
    return "half_up" if rules.rounding == "none" else rules.rounding


def carry_points(total: Decimal, factor: Decimal, rules: Ruleset,
                 rounding: str | None = None) -> Decimal:
    """``total`` x ``factor``, rounded with ``rounding`` (see :data:`CARRY_ROUNDINGS`) at
    the unit of ``rules``: 0.1 for a ruleset that does not round, else whole points.

    Without ``rounding``, a ruleset that rounds to whole points rounds the carry its own
    way (half_down: a half goes toward minus infinity, so -22.5 carries as -23), and a
    ruleset that does not round (rounding ``none``, M.League) keeps 0.1 and sends a half
    (0.05) **up, toward +infinity**, for negative totals too: -8.7 / 2 = -4.35 carries as
    -4.3, 281.7 / 2 = 140.85 as 140.9. That is M.League's published carries (2018-19 to
    2022-23; see docs/season.md). ``exact`` keeps every digit (-4.35).
    """
    value = total * factor
    mode = carry_rounding_of(rounding, rules)
    if mode == "exact":
        return value + 0
    if mode not in _MODES:
        raise UmaokaError(f'carried points cannot be rounded with "{mode}"; use one of '
                          f"{', '.join(CARRY_ROUNDINGS)}.")
    unit = Decimal("0.1") if rules.rounding == "none" else Decimal(1)
    return value.quantize(unit, _MODES[mode][value < 0]) + 0


# ------------------------------------------------------------------------------------------------
# Results.


@dataclass(frozen=True)
class StageResult:
    """A stage's standings: player lines, team lines, who advanced, and notes."""

    stage: Stage
    players: tuple[StandingLine, ...]  # ranked lines first, then those not qualified
    teams: tuple[StandingLine, ...]
    advanced: tuple[str, ...]  # players or teams going on, best first
    games: int
    penalties: tuple[Penalty, ...]  # the log's entries applied in this stage
    notes: tuple[str, ...] = ()  # e.g. a cut that falls inside an undecided tie


@dataclass(frozen=True)
class SeasonResult:
    """Every stage's result, the penalty log as applied, and rows that were left out."""

    season: Season
    stages: tuple[StageResult, ...]
    penalties: tuple[Penalty, ...]
    problems: tuple[str, ...]  # one sentence per game or penalty row left out

    @property
    def flags(self) -> tuple[str, ...]:
        """Game-cap flags of every stage, e.g. ``Regular: Aki played 8 games, fewer...``."""
        return tuple(f"{r.stage.name}: {p.name} {f}" for r in self.stages for p in r.players
                     for f in p.flags if f != SEEDED)


# ------------------------------------------------------------------------------------------------
# Running a season.


def run_season(season: Season, games: Iterable[GameRecord | Mapping[str, Any]],
               penalties: Iterable[Penalty | Mapping[str, Any]] = (),
               settled: SettledGames | None = None) -> SeasonResult:
    """Every stage's standings from the game log and the penalty log.

    Games are :class:`GameRecord` s or rows of named columns (see
    :func:`umaoka.engine.season.gamelog.game_record`), penalties :class:`Penalty` s or rows
    (see :func:`umaoka.engine.season.penalties.penalty`); a row's ``_label`` key (e.g.
    ``games.csv row 5``) names it in messages. A bad game or penalty is left out and
    reported in ``problems`` (one sentence each); the others still count. A row that is
    None (a blank row of a sheet) is skipped but numbered. ``settled`` keeps the games'
    seats and the stages' tallies between runs of the same season, so a run after a few
    rows changed works on those rows only (see :class:`SettledGames`).
    """
    memo = settled.seats(season) if settled is not None else None
    players = season.stages[0].ruleset.players
    teams = team_of(season.teams)
    known = set(season.roster)
    spellings = roster_spellings(season.roster)  # "aki" counts as the roster's "Aki"
    stages: dict[str | None, Stage] = {}  # the stage named in a game, by the name as given

    def place(i: int, row: Any) -> Placed:
        if row is None:  # a blank row of a sheet: counted in the numbering, nothing else
            return None
        g = row if isinstance(row, GameRecord) else None
        if g is not None and g.label == "game":  # unnamed records are numbered
            g = replace(g, label=f"game {i}")
        label = g.label if g else str(row.get("_label") or f"game {i}")
        try:
            if g is None:
                g = game_record(row, players, label)
            if spellings and (spelt := as_on_roster(g.players, spellings)) is not g.players:
                g = replace(g, players=tuple(spelt))
            named = g.stage if g.stage is None or type(g.stage) is str else None
            stage = stages.get(named) if named == g.stage else None
            if stage is None:
                stage = season.stage(g.stage)
                if named == g.stage:  # a name, not some other value: looked up once
                    stages[named] = stage
            credits = _seen(memo, g)
            if credits is None:
                check_players(g)
                for p in g.players:
                    if known and p not in known:
                        raise UmaokaError(f"{p} is not on the season's roster or any team; fix "
                                          f"the name or add the player.{closest_name(p, known)}")
                result = result_of(g, stage.ruleset)  # finals when given, else settled
                credits = seat_credits(g, result, teams, stage.substitutes, stage.absent_result)
                if memo is not None:
                    _remember(memo, g, credits)
        except UmaokaError as e:
            return None, ((0, i), _labelled(label, e))
        return stage.name, (i, g, credits)

    rows = list(games)
    if settled is not None and memo is not None:
        placed = settled.placements(rows, place)
    else:
        placed = [place(i, row) for i, row in enumerate(rows, 1)]
    problems: list[Problem] = [p[1] for p in placed  # type: ignore[misc]
                               if p is not None and p[0] is None]
    order = {name: i for i, name in enumerate(season.roster)}
    if not known:  # no roster: players are ordered by their first game (with one, no other
        for p in placed:  # player can be seated)
            if p is not None and p[0] is not None:
                for name in p[1][1].players:
                    order.setdefault(name, len(order))
    log: dict[str, list[tuple[int, Penalty]]] = {s.name: [] for s in season.stages}
    for i, row in enumerate(penalties, 1):
        try:
            p = penalty(row, row.label if isinstance(row, Penalty)
                        else str(row.get("_label") or f"penalty {i}"))
        except UmaokaError as e:
            problems.append(((1, i), str(e)))
            continue
        if p.player and spellings.get(p.player.casefold(), p.player) != p.player:
            p = replace(p, player=spellings[p.player.casefold()])  # as a game's "aki"
        try:
            stage = season.stage(p.stage, "penalty")
            if p.team and p.team not in {t for t, _ in season.teams}:
                raise UmaokaError(f'"{p.team}" is not a team of this season; fix the name.'
                                  + closest_name(p.team, [t for t, _ in season.teams]))
            if p.player and p.player not in (known or order):
                raise UmaokaError(f"{p.player} is not a player of this season; fix the name."
                                  + closest_name(p.player, known or order))
        except UmaokaError as e:
            problems.append(((1, i), _labelled(p.label, e)))
            continue
        log[stage.name].append((i, p))
    results: list[StageResult] = []
    for k, stage in enumerate(season.stages):
        prev = results[-1] if results else None
        following = season.stages[k + 1] if k + 1 < len(season.stages) else None
        results.append(_run_stage(season, stage, prev, placed, log[stage.name], teams, order,
                                  problems, settled if memo is not None else None, following))
    if settled is not None and memo is not None:
        settled.finish()
    applied = tuple(p for r in results for p in r.penalties)
    problems.sort(key=lambda x: x[0])
    return SeasonResult(season, tuple(results), applied, tuple(text for _, text in problems))


def _seen(memo: dict[GameRecord, tuple[GameRecord, tuple[SeatCredit, ...]]] | None,
          g: GameRecord) -> tuple[SeatCredit, ...] | None:
    """The seats kept for a game equal to ``g``, when its numbers are written as in ``g``
    too: 99 and 99.0 are equal records, but a player's best game keeps its own digits."""
    if memo is None:
        return None
    try:
        got = memo.get(g)
    except TypeError:  # a value that cannot be hashed (never from a workbook or file)
        return None
    if got is None or (got[0] is not g and _digits(got[0]) != _digits(g)):
        return None
    return got[1]


def _digits(g: GameRecord) -> str:
    try:
        return repr((g.scores, g.deposits, g.penalties, g.finals))
    except ValueError:  # an int of over 4,300 digits: this record is equal only to itself
        return f"<record {id(g)}>"


def _remember(memo: dict[GameRecord, tuple[GameRecord, tuple[SeatCredit, ...]]],
              g: GameRecord, credits: tuple[SeatCredit, ...]) -> None:
    try:
        memo[g] = (g, credits)
    except TypeError:
        pass


def _labelled(label: str, e: UmaokaError) -> str:
    text = str(e)
    return text if text.startswith(label) else f"{label}: {text}"


def _run_stage(season: Season, stage: Stage, prev: StageResult | None, placed: list[Placed],
               log: list[tuple[int, Penalty]], teams: dict[str, str], order: dict[str, int],
               problems: list[Problem], settled: SettledGames | None,
               following: Stage | None = None) -> StageResult:
    """One stage's standings; with ``settled``, its games added up block by block, the
    blocks that did not change since the last run taken as they were (see :mod:`.parts`);
    ``following``: the next stage, whose seeds take no place in this stage's cut."""
    n = stage.ruleset.players
    by_team = season.competition == "team"
    cut = prev is not None and prev.stage.advance is not None
    seeds = {seed.name: seed.carry for seed in stage.seeds}
    entrants = set(prev.advanced) | set(seeds) if prev and cut else None

    def eligible(player: str | None, team: str | None) -> bool:
        return entrants is None or (team in entrants if by_team else player in entrants)

    people: dict[str, Tally] = {}
    squads: dict[str, Tally] = {}

    def person(name: str) -> Tally:
        t = people.get(name)
        if t is None:
            t = people[name] = Tally(name, teams.get(name), n)
        return t

    def squad(name: str) -> Tally:
        t = squads.get(name)
        if t is None:
            t = squads[name] = Tally(name, None, n)
        return t

    # Who is in the stage before any game: advanced units (or everybody), with carry.
    carried: dict[str, Decimal] = {}
    if prev is not None:
        lines = prev.teams if by_team else prev.players
        for line in lines:
            if (entrants is None or line.name in entrants) and line.name not in seeds:
                carried[line.name] = carry_points(line.total, stage.carry, stage.ruleset,
                                                   stage.carry_rounding)
                (squad if by_team else person)(line.name)
                if not by_team and line.name in teams:
                    squad(teams[line.name])
        for name, own in seeds.items():  # a seed brings its own carry, whatever the cut
            carried[name] = own
            (squad if by_team else person)(name)
            if not by_team and name in teams:
                squad(teams[name])
    elif by_team:
        for t, _ in season.teams:
            squad(t)
    check = None if entrants is None else eligible  # everybody is eligible: no look
    with exact():  # sums never rounded: blocks merge into the same totals (see .parts)
        if settled is None:
            seated = [p[1] for p in placed  # type: ignore[misc]
                      if p is not None and p[0] == stage.name]
            played = tally_games(seated, stage.name, check, by_team, stage.chip_value, n,
                                 teams, people, squads, problems)
        else:
            def make(entries: list[Entry]) -> Part:
                part = Part()
                part.played = tally_games(entries, stage.name, check, by_team,
                                          stage.chip_value, n, teams, part.people,
                                          part.squads, part.problems)
                return part
            played = sum(merge_part(part, people, squads, problems) for part in
                         settled.parts(stage.name, placed, entrants, make))
        applied = []
        for i, p in log:
            team = p.team or teams.get(p.player or "")
            if not eligible(p.player, team) and not (p.team and not by_team):
                problems.append(((1, i), f"{p.label}: {p.name} did not advance to "
                                 f"{stage.name}; fix the name or the stage."))
                continue
            applied.append(p)
            if p.player:
                person(p.player).add_penalty(p.points)
            if team:
                squad(team).add_penalty(p.points)

    previous = {} if prev is None else {
        line.name: line.rank for line in (prev.teams if by_team else prev.players)
        if line.rank is not None}
    player_lines = [people[k].line(Decimal(0) if by_team else carried.get(k, Decimal(0)))
                    for k in people]
    if stage.game_caps is not None:
        caps = stage.game_caps
        player_lines = [replace(p, flags=tuple(f for f in [caps.flag(p.games - p.substituted)]
                                               if f)) for p in player_lines]
    ranked_players = rank_lines(player_lines, stage.ranking, stage.tie_breaks,
                                stage.min_games, {} if by_team else previous, order)
    team_lines = []
    for k, tally in squads.items():
        if by_team:
            team_carry = carried.get(k, Decimal(0))
        else:  # a team carries what its players carried in
            team_carry = sum((p.carried for p in player_lines if p.team == k), Decimal(0))
        team_lines.append(tally.line(team_carry))
    team_order = {t: i for i, (t, _) in enumerate(season.teams)}
    ranked_teams = rank_lines(team_lines, stage.ranking, stage.tie_breaks, 0,
                              previous if by_team else {}, team_order)
    if seeds:  # the standings say who was seeded
        ranked_players, ranked_teams = (
            tuple(replace(p, flags=(*p.flags, SEEDED)) if p.name in seeds else p
                  for p in lines) for lines in (ranked_players, ranked_teams))
    ranked_players, ranked_teams, advanced, notes = _advance(
        stage, ranked_players, ranked_teams, by_team,
        frozenset(seed.name for seed in following.seeds) if following else frozenset())
    if seeds:
        notes = (f"Seeded into {stage.name} whatever the cut: "
                 + ", ".join(f"{name} (carried {_signed(own)})" if own else
                             f"{name} (nothing carried)" for name, own in seeds.items())
                 + ".", *notes)
    return StageResult(stage, ranked_players, ranked_teams, advanced, played, tuple(applied),
                       notes)


def _signed(d: Decimal) -> str:
    return f"+{d}" if d > 0 else str(d)


def _advance(stage: Stage, players: tuple[StandingLine, ...], teams: tuple[StandingLine, ...],
             by_team: bool, seeded: frozenset[str] = frozenset()
             ) -> tuple[tuple[StandingLine, ...], tuple[StandingLine, ...], tuple[str, ...],
                        tuple[str, ...]]:
    """Mark the top ``advance`` lines (ties at the cut all go on, with a note); the next
    stage's ``seeded`` go on outside the cut: they take no place in it (advance = 3 sends
    the best three others) and are marked as going on."""
    if stage.advance is None:
        return players, teams, (), ()
    lines = teams if by_team else players
    ranked = [p for p in lines if p.rank is not None and p.name not in seeded]
    if seeded:  # the cut counts the others: their places as if the seeds were not there
        ranked = [replace(p, rank=1 + sum(q.rank < p.rank for q in ranked))  # type: ignore
                  for p in ranked]
    going = [p for p in ranked if p.rank <= stage.advance]  # type: ignore[operator]
    notes: tuple[str, ...] = ()
    if len(going) > stage.advance:
        shared = [p.name for p in going if p.rank == going[-1].rank]
        notes = (f"place {going[-1].rank} is shared by {', '.join(shared)} and no tie-break "
                 f"decides it, so {len(going)} advance instead of {stage.advance}; add a "
                 "tie-break such as earlier, or hold a play-off.",)
    elif 0 < len(going) < stage.advance:  # advance = 100 with 4 players: all of them go on
        unit = "teams" if by_team else "players"
        notes = (f"advance is {stage.advance} but only {len(going)} {unit} are ranked, so all "
                 f"{len(going)} go on.",)
    names = {p.name for p in going}
    seeds_here = [p.name for p in lines if p.name in seeded]
    if seeds_here:
        notes = (*notes, f"{', '.join(seeds_here)} {'go' if len(seeds_here) > 1 else 'goes'} "
                 f"on as seeded, outside the cut of {stage.advance}.")
    marked = tuple(replace(p, advanced=p.name in names or p.name in seeded) for p in lines)
    if by_team:
        return players, marked, tuple(p.name for p in going), notes
    return marked, teams, tuple(p.name for p in going), notes
