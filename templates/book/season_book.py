"""A league workbook's season: the Season sheet's stages and settings, the teams of the
Players sheet and the Penalties sheet, turned into the engine's season and run.

Each stage is a league tab; the stage's ruleset is that tab's ruleset. The engine
(:func:`umaoka.engine.season.stages.run_season`) does the rest: chips, substitutes, penalties,
carry-over, cuts, qualification and tie-breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from umaoka.engine import UmaokaError
from umaoka.engine.errors import excerpt
from umaoka.engine.season.gamelog import MAX_CHIPS, SEATS, GameRecord, given_final
from umaoka.engine.season.settings import (
    STAGE_TABLE,
    check_stage_table,
    parse_carry,
    season_settings,
)
from umaoka.engine.season.stage_rows import stage_row
from umaoka.engine.season.stages import (
    Season,
    SeasonResult,
    SettledGames,
    run_season,
)
from umaoka.engine.settle import refuse_text
from umaoka.engine.typed_numbers import NumberError, read_whole
from umaoka.templates.book.model import Book, Game, League, check_names
from umaoka.templates.book.results import score_cells, seat_named
from umaoka.templates.book.season_spec import (  # noqa: F401  (kept importable from here)
    SETTING_CHOICES,
    SETTING_HELP_JA,
    SETTINGS,
    SeasonSpec,
    StageRow,
    _blank,
    default_spec,
    setting_help,
    spec_from_season,
    stage_setting,
    unset,
)


def season_of(book: Book) -> Season:
    """The engine's season of a book with a Season sheet (one clear sentence if wrong)."""
    spec: SeasonSpec = book.season
    leagues = {lg.name.casefold(): lg for lg in book.leagues}
    stages = []
    for row in spec.stages:
        cells = [row.name, None, row.advance, row.carry,
                 *(row.settings.get(k) for k in STAGE_TABLE)]
        stage = stage_row(cells, first=not stages)  # the one reader, MJ_SEASON's too
        if stage is None:
            continue
        lg = leagues.get(stage["name"].casefold())
        if lg is None:
            raise UmaokaError(f'Season sheet: stage "{row.name}" is not a league tab of this '
                              f"workbook; use one of {', '.join(x.name for x in book.leagues)}.")
        stages.append({**stage, "name": lg.name, "ruleset": book.rules_of(lg).ruleset})
    if not stages:
        raise UmaokaError("Season sheet: no stage is listed; write the league tabs of the "
                          "season in the Stage column, in order.")
    values: dict[str, Any] = {k: v for k, v in spec.settings.items()
                              if k in SETTINGS and not _blank(v)}
    teams: dict[str, list[str]] = {}
    for player in book.players:
        team = book.teams.get(player)
        if team:
            teams.setdefault(team, []).append(player)
    try:
        check_stage_table(stages)  # a stage row's own setting: named with its stage
        return season_settings({**values, "stages": stages, "teams": teams,
                                "players": list(book.players)})
    except UmaokaError as e:
        raise UmaokaError(f"Season sheet: {e}") from None


def game_record(league: League, game: Game, n: int) -> GameRecord | None:
    """A league tab's row as a season game, None for a row without scores. A row with
    platform finals (an imported lobby line or finals CSV, a result typed as M.League
    publishes it) counts by those finals, as the tab's own standings count it."""
    if game.is_blank():
        return None
    where = f"{league.name}!row {game.row}" if game.row else f"{league.name} game"
    finals = None
    if game.has_given():
        finals = tuple(given_final(v, where, s)
                       for v, s in zip((list(game.given) + [None] * n)[:n], SEATS))
    chips: tuple[int, ...] | None = None  # most leagues keep no chips nor substitutes
    if any(c is not None for c in game.chips[:n]):
        chips = tuple(_chip(c) for c in (list(game.chips) + [None] * n)[:n])
    subs: tuple[str | None, ...] | None = None
    if any(s is not None for s in game.subs[:n]):
        subs = tuple(None if _blank(s) else str(s).strip()
                     for s in (list(game.subs) + [None] * n)[:n])
    pens = list(game.penalties or [])
    scores = tuple((list(game.scores) + [None] * n)[:n])
    if finals is None and game.source is None and any(type(s) is str for s in scores):
        try:  # a score cell stored as text: refused, as the tab's own formulas skip it
            refuse_text(scores, score_cells(game, n))
        except UmaokaError as e:
            raise UmaokaError(seat_named(str(e), game)) from None
    return GameRecord(
        players=tuple("" if p is None else str(p).strip()
                      for p in (list(game.players) + [None] * n)[:n]),
        scores=scores,
        stage=league.name, deposits=game.deposits or 0,
        penalties=tuple(pens + [None] * (n - len(pens)))[:n] if pens else None,
        chips=chips if chips and any(chips) else None,
        substitutes=subs if subs and any(subs) else None, date=game.date, label=where,
        finals=finals)


def _chip(value: Any) -> int:
    if _blank(value):
        return 0
    try:  # 9e999999, 1e30 and 1e-9999999 are no chip counts: none is counted
        return read_whole(None if isinstance(value, bool) else value, below=MAX_CHIPS + 1,
                          commas=False)
    except NumberError:
        raise UmaokaError(f'chips "{excerpt(value)}" are not a whole number from '
                          f"-{MAX_CHIPS:,} to {MAX_CHIPS:,}; give the chip count, e.g. 2 or "
                          "-1.") from None


def season_games(book: Book, season: Season) -> tuple[list[GameRecord], list[str]]:
    """The games of the season's stages, tab by tab in stage order, and one sentence per
    row that cannot be read (e.g. chips that are not a whole number)."""
    out, bad = [], []
    for st in season.stages:
        lg = next(x for x in book.leagues if x.name == st.name)
        n = st.ruleset.players
        for i, g in enumerate(lg.games):
            if g.row is None:
                g.row = 5 + i  # the template's first game row (for messages)
            try:
                rec = game_record(lg, g, n)
            except UmaokaError as e:
                bad.append(f"{lg.name}!row {g.row}: {e}")
                continue
            if rec is not None:
                out.append(rec)
    return out, bad


def penalty_rows(book: Book) -> list[dict[str, Any]]:
    """The Penalties sheet's rows for the engine, each labelled with its row."""
    return [dict(r) for r in book.penalties]


def season_result(book: Book, settled: SettledGames | None = None) -> SeasonResult:
    """The season of a book with a Season sheet, run by the engine (``settled``: games
    settled by an earlier run of the same season, see :class:`SettledGames`)."""
    season = season_of(book)
    games, bad = season_games(book, season)
    result = run_season(season, games, penalty_rows(book), settled)
    return replace(result, problems=(*bad, *result.problems)) if bad else result


def stage_names(book: Book) -> Sequence[str]:
    return [lg.name for lg in book.leagues]


def parse_teams_text(text: str) -> dict[str, str]:
    """``"Dragons=Aki,Ben; Tigers=Chie,Dan"`` as each player's team (``umaoka new
    --teams``).

    >>> parse_teams_text("Dragons=Aki,Ben; Tigers: Chie")
    {'Aki': 'Dragons', 'Ben': 'Dragons', 'Chie': 'Tigers'}
    """
    from umaoka.engine.season.teams import parse_teams

    pairs = []
    for part in str(text).split(";"):
        if not part.strip():
            continue
        team, sep, members = part.replace(":", "=", 1).partition("=")
        if not sep:
            raise UmaokaError(f'--teams: "{part.strip()}" has no players; write each team as '
                              "TEAM=PLAYER,PLAYER and separate teams with ;.")
        pairs.append((team.strip(), members))
    teams = parse_teams(pairs)
    check_names((n for t, members in teams for n in (t, *members)), "--teams")
    return {p: team for team, players in teams for p in players}


def add_season(book: Book, season: Season | None = None, teams: str | None = None,
               chips: bool = False, subs: bool = False) -> Book:
    """Give a fresh book a Season sheet (``umaoka new --season/--teams/--chips/--subs``).

    With a season file, its stages become the league tabs (in order, each with its
    ruleset) unless the book names its own leagues; its teams and roster fill Players.
    """
    if season is None and not (teams or chips or subs):
        return book
    if season is not None:
        names = [lg.name for lg in book.leagues]
        stages = [st.name for st in season.stages]
        if [n.casefold() for n in names] != [n.casefold() for n in stages]:
            raise UmaokaError(f"the season's stages ({', '.join(stages)}) must be the league "
                              f"tabs, in order; leave out --leagues or give --leagues "
                              f"\"{','.join(stages)}\".")
        for lg, st in zip(book.leagues, season.stages):
            if book.rules_of(lg).ruleset != st.ruleset:
                raise UmaokaError(f"stage {st.name}'s ruleset differs from the league tab's; "
                                  "leave out --ruleset (the season file sets them).")
        check_names(season.roster, "a player of the season")
        check_names((n for t, members in season.teams for n in (t, *members)),
                    "a team of the season")
        for p in season.roster:
            if p not in book.players:
                book.players.append(p)
        book.teams.update({p: t for t, members in season.teams for p in members})
        book.season = spec_from_season(season, book)
        chips = chips or any(st.chip_value for st in season.stages)
    else:
        book.season = default_spec(book)
    if teams:
        book.teams.update(parse_teams_text(teams))
        for p in book.teams:
            if p not in book.players:
                book.players.append(p)
    for lg in book.leagues:
        lg.chips, lg.subs = lg.chips or chips, lg.subs or subs
    return book


def _rules_index(book: Book, spec: str | None, rules: Any = None) -> int:
    """The index of the book's ruleset equal to ``rules`` (or ``spec``'s), added if new."""
    from umaoka.engine import PRESETS, ruleset
    from umaoka.templates.book.model import Rules, rules_name

    wanted = rules if rules is not None else ruleset(spec or "standard")
    for i, r in enumerate(book.rules):
        if r.ruleset == wanted:
            return i
    text = spec or next((name for name, p in PRESETS.items() if p.ruleset == wanted),
                        wanted.text())
    book.rules.append(Rules(rules_name(text, {r.name for r in book.rules}), wanted))
    return len(book.rules) - 1


def extend_book(book: Book, season: Season | None = None, stage: str | None = None,
                rules: str | None = None, teams: str | None = None, chips: bool = False,
                subs: bool = False, players: Sequence[str] = (), carry: Any = None,
                advance: Any = None) -> list[str]:
    """Add to a league that already has games (``umaoka add``): the stages of a season
    file (new ones become league tabs, existing tabs keep their games), one more stage
    (``stage`` with ``rules``, default the last tab's; ``carry``: what it carries of the
    stage before, default zero; ``advance``: the cut of the stage before, how many go on),
    teams, chip or substitute columns, players. Returns what was added, in words (nothing
    added is an error)."""
    from umaoka.templates.book.model import check_sheet_name

    if (carry is not None or advance is not None) and not stage:
        raise UmaokaError("--carry and --advance go with --stage NAME (what the new stage "
                          "carries, and how many of the stage before go on to it).")
    if carry is not None:
        parse_carry(carry)  # one sentence before anything changes
    if advance is not None:
        check_stage_table([{"name": book.leagues[-1].name, "advance": advance}])
        text = str(advance).strip()
        advance = int(text) if text.isdigit() else text  # a number cell on the Season sheet

    done: list[str] = []
    if season is not None:
        have = {lg.name.casefold(): lg for lg in book.leagues}
        stages = {st.name.casefold() for st in season.stages}
        missing = [lg.name for lg in book.leagues if lg.name.casefold() not in stages]
        if missing:
            raise UmaokaError(f"the season file leaves out the league tab(s) "
                              f"{', '.join(missing)}; list every tab of the workbook as a "
                              "stage, in order.")
        leagues = []
        for st in season.stages:
            lg = have.get(st.name.casefold())
            if lg is None:
                lg = League(check_sheet_name(st.name, "stage name"),
                            _rules_index(book, None, st.ruleset))
                done.append(f"stage {st.name}")
            elif book.rules_of(lg).ruleset != st.ruleset:
                raise UmaokaError(f"stage {st.name}'s ruleset in the season file differs from "
                                  f"the league tab's ({book.rules_of(lg).name}); make them the "
                                  "same (the tab's games were settled under it).")
            leagues.append(lg)
        book.leagues[:] = leagues
        add_season(book, season)
        done.append("the season file's settings")
    if stage:
        name = check_sheet_name(stage, "stage name")
        if any(lg.name.casefold() == name.casefold() for lg in book.leagues):
            raise UmaokaError(f'the workbook already has a league tab "{name}"; give the new '
                              "stage another name.")
        index = _rules_index(book, rules) if rules else book.leagues[-1].rules
        if book.season is None and (carry is not None or advance is not None):
            book.season = default_spec(book)  # a carry or a cut needs a Season sheet
            done.append("a Season sheet")
        book.leagues.append(League(name, index, chips=book.leagues[-1].chips,
                                   subs=book.leagues[-1].subs))
        if book.season is not None:
            rows = book.season.stages
            before = next((r for r in reversed(rows) if not _blank(r.name)), None)
            if before is not None and advance is not None:
                before.advance = advance
            rows.append(StageRow(name, None, "zero" if carry is None else str(carry).strip()))
        done.append(f"stage {name}")
    if teams or ((chips or subs) and book.season is None):
        if book.season is None:
            book.season = default_spec(book)
            done.append("a Season sheet")
    if teams:
        book.teams.update(parse_teams_text(teams))
        for p in book.teams:
            if p not in book.players:
                book.players.append(p)
        done.append("teams")
    for flag, what in ((chips, "chip columns"), (subs, "substitute columns")):
        if flag:
            for lg in book.leagues:
                if what == "chip columns":
                    lg.chips = True
                else:
                    lg.subs = True
            done.append(what)
    check_names(players, "a player")
    known = {p.casefold(): p for p in book.players}
    for p in players:
        was = known.get(str(p).strip().casefold())
        if was is not None and was != str(p).strip():
            raise UmaokaError(f'"{str(p).strip()}" differs from "{was}" on the Players sheet '
                              "only by case; give the name as it is there, or leave it out.")
    new = [p for p in dict.fromkeys(str(p).strip() for p in players)
           if p and p not in book.players]
    if new:
        book.players.extend(new)
        done.append(f"players {', '.join(new)}")
    if not done:
        raise UmaokaError("nothing to add; give --season, --stage, --teams, --chips, --subs "
                          "or --players.")
    return done


def stage_flow(book: Book, name: str) -> str:
    """One sentence: what stage ``name`` of the Season sheet carries from the stage before
    and who goes on to it, as the engine reads the sheet.

    For ``umaoka add --stage``: "Final carries half of Semifinal's points; the top 4 of
    Semifinal go on."
    """
    season = season_of(book)
    names = [st.name for st in season.stages]
    if name not in names:
        return f"{name} is not a stage of the Season sheet."
    i = names.index(name)
    if i == 0:
        return f"{name} is the first stage."
    st, prev = season.stages[i], season.stages[i - 1]
    share = {Decimal(1): "all", Decimal("0.5"): "half", Decimal(0): "none"}.get(
        st.carry, f"{st.carry.normalize():f} x")
    carried = (f"{name} carries nothing of {prev.name}'s points" if share == "none" else
               f"{name} carries {share} of {prev.name}'s points")
    who = "teams" if season.competition == "team" else "players"
    goes = (f"everyone in {prev.name} goes on" if prev.advance is None else
            f"the top {prev.advance} {who} of {prev.name} go on")
    return f"{carried}; {goes}."


def cap_maximum(value: Any) -> int | None:
    """The most games of the Season sheet's game_caps (None without one or when unreadable:
    the Season sheet's own check says why)."""
    from umaoka.engine.season.teams import parse_game_caps

    try:
        caps = parse_game_caps(value)
    except UmaokaError:
        return None
    return caps.maximum if caps else None


def over_cap(league: League, n: int, maximum: int | None) -> list[str | None]:
    """Per row of a league tab, the first player (seat order) named in more rows so far
    than ``maximum`` (what the check column's COUNTIF shows; case-insensitive)."""
    if not maximum:
        return []
    seen: dict[str, int] = {}
    out: list[str | None] = []
    for g in league.games:
        names = [str(p) for p in g.players[:n] if not _blank(p)]
        keys = [p.strip().casefold() for p in names]
        for k in keys:
            seen[k] = seen.get(k, 0) + 1
        out.append(next((p for p, k in zip(names, keys) if seen[k] > maximum), None))
    return out
