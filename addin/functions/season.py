"""MJ_SEASON: a league season's standings (stages, teams, carry-over) from the workbook."""

from __future__ import annotations

import datetime
from typing import Any

import xlwings as xw

from umaoka.addin.functions.cells import (
    _EXCEL_EPOCH,
    _JS_NULL,
    RULESET_DOC,
    Cells,
    UmaokaExcelError,
    _blank_row,
    _cell,
    _excel_function,
    _grid,
    _is_blank,
    _no_errors,
    _numbers,
    _option,
    _rules,
)
from umaoka.addin.functions.season_cache import FAST, GridMemo, SeasonRuns
from umaoka.engine import (
    UmaokaError,
)
from umaoka.engine.errors import excerpt
from umaoka.engine.season.gamelog import game_record
from umaoka.engine.season.ranking import standing_rows
from umaoka.engine.season.settings import check_stage_table, season_settings
from umaoka.engine.season.stage_rows import blank_or_zero, stage_row
from umaoka.engine.season.stages import SettledGames, run_season

# ------------------------------------------------------------------------------------------------
# A season's standings (no rules here: the engine's run_season ranks, carries and cuts).

_SEAT_KEYS = ("east", "south", "west", "north")
_PENALTY_KEYS = ("date", "stage", "player", "team", "points", "reason")


def _season_stages(stages: Cells) -> list[dict[str, Any]]:
    """The Season sheet's stage rows (stage, ruleset shown, advance, carry, then the
    stage's own settings in :data:`STAGE_TABLE` order, where a range has those columns)
    as the engine's stage settings; blank rows are skipped, and a blank setting cell (or
    0, desktop Excel's blank) is the season's value from the settings range."""
    out: list[dict[str, Any]] = []
    for row in _grid(stages):
        stage = stage_row(row, first=not out, blank=blank_or_zero)  # the workbook's reader
        if stage is not None:
            shown = row[1] if len(row) > 1 else None
            out.append({**stage, "shown": None if _is_blank(shown) else shown})
    return out


def _season_games(grid: list[list[Any]], stage: str, n: int,
                  platform: bool = False, memo: GridMemo | None = None) -> list[Any]:
    """A league tab's game rows (players, scores, deposits, penalties, then optional chips
    and substitutes blocks, then with ``platform`` the platform-finals block) as the
    engine's named columns; rows without scores or finals are skipped. A single extra
    block of n columns is chips when any of its cells holds a number (a chip count typed
    as text then gets its own message), else substitutes (names). Messages name a row by
    its place in the range ("Final games row 3").

    With ``memo`` (the cells as Excel sent them, numbers, texts and blanks only), each row
    is the engine's record, made again only for rows that changed since the last run (see
    :mod:`.season_cache`), and a blank row is None (numbered, so a game typed into it
    moves no other row)."""
    width = len(grid[0]) if grid else 0
    given = width - n if platform and width >= 4 * n + 1 else None  # the last n columns
    end = width if given is None else given
    blocks = [c for c in range(3 * n + 1, end, n) if c + n <= end]
    chips = subs = None
    if blocks:
        def numeric(c: int) -> bool:
            return any(not _is_blank(v) and type(v) in (int, float) for r in grid
                       for v in r[c:c + n])
        chips, subs = (blocks[0], blocks[1] if len(blocks) > 1 else None) \
            if len(blocks) > 1 or numeric(blocks[0]) else (None, blocks[0])

    def game(i: int, raw: list[Any]) -> dict[str, Any] | None:
        row = [_cell(v) for v in raw] if memo is not None else raw
        finals = [] if given is None else row[given:given + n]
        if all(_is_blank(v) for v in [*row[n:3 * n + 1], *finals]):  # nothing entered
            return None
        out: dict[str, Any] = {"stage": stage, "deposits": row[2 * n] if len(row) > 2 * n
                               else None, "_label": f"{stage} games row {i}", "_cells": True}
        for k, seat in enumerate(_SEAT_KEYS[:n]):
            out[seat] = None if _is_blank(row[k]) else row[k]  # desktop Excel: 0
            out[f"{seat}_score"] = row[n + k] if len(row) > n + k else None
            out[f"{seat}_penalty"] = row[2 * n + 1 + k] if len(row) > 2 * n + 1 + k else None
            if chips is not None:
                out[f"{seat}_chips"] = row[chips + k]
            if subs is not None and not _is_blank(row[subs + k]):
                out[f"{seat}_sub"] = row[subs + k]
            if finals and not _is_blank(finals[k]):
                out[f"{seat}_final"] = finals[k]
        return out

    if memo is None:
        return [g for i, row in enumerate(grid, 1) if (g := game(i, row)) is not None]

    def record(i: int, raw: list[Any]) -> Any:
        g = game(i, raw)
        if g is None:
            return None
        try:
            return game_record(g, n, g["_label"])
        except UmaokaError:  # the season run reports it, with the row's label
            return g

    return memo.records((stage, n, chips, subs, given, width), grid, record)


def _penalty_row(row: list[Any], i: int) -> dict[str, Any]:
    """A Penalties sheet row as the engine's named columns: blank cells (0 from desktop
    Excel) as None, an Excel date serial number as the date. Points of 0 too: a row whose
    points cell is empty is listed as having no points on every Excel, and a penalty of 0
    would change nothing."""
    out: dict[str, Any] = {k: None if _is_blank(v) else v for k, v in zip(_PENALTY_KEYS, row)}
    date = out.get("date")
    # Excel's dates run from serial 1 to 2958465 (9999-12-31); any other number (1E+12)
    # stays a number, which the log reports as not a date
    if type(date) in (int, float) and 1 <= date < 2958466:
        out["date"] = _EXCEL_EPOCH + datetime.timedelta(days=int(date))
    out["_label"] = f"penalties row {i}"
    return out

#: Season settings whose default is not 0, while 0 is a value one may mean: an empty value
#: cell (0 from desktop Excel) cannot say which, so it is refused instead of guessed.
_ZERO_MEANT = {"absent_result": "-30"}


def _season_values(grid: list[list[Any]]) -> dict[str, Any]:
    """The Season sheet's settings rows as name: value; a row whose value is blank (or 0,
    desktop Excel's empty cell) keeps the default, except where 0 is a value of its own."""
    values: dict[str, Any] = {}
    for row in grid:
        if len(row) < 2 or _is_blank(row[0]):
            continue
        key = str(row[0]).strip()
        if not _is_blank(row[1]):
            values[key] = row[1]
        elif key.lower().replace(" ", "_").replace("-", "_") in _ZERO_MEANT:
            example = _ZERO_MEANT[key.lower().replace(" ", "_").replace("-", "_")]
            raise UmaokaExcelError(
                f"{key} has no value (its cell is blank, or 0, which is how desktop Excel "
                f"sends an empty cell); give the points, e.g. {example} (for 0 type \"0\" as "
                "text), or delete the row for the default.")
    return values


@xw.func
@xw.arg("stages", "raw", ndim=2,
        doc="The Season sheet's stage rows in order: stage (a tab's name), ruleset, advance, "
            "carry; then the stage's own carry_rounding, min_games, ranking, tie_breaks, "
            "game_caps, chip_value, substitutes, absent_result (blank: the settings').")
@xw.arg("settings", "raw", ndim=2,
        doc="The Season sheet's two-column settings (name, competition, min_games, ranking, "
            "tie_breaks, substitutes, absent_result, chip_value, game_caps, carry_rounding), "
            "for every stage whose row leaves them blank. Blank: defaults.")
@xw.arg("players", "raw", ndim=2,
        doc="The Players sheet's rows: name, team (the team column may be blank).")
@xw.arg("penalties", "raw", ndim=2,
        doc="The Penalties sheet's rows: date, stage, player, team, points, reason. Blank: "
            "none.")
@xw.arg("stage", "raw", doc="The stage to show (a stage's name). Blank: the only stage.")
@xw.arg("what", "raw", doc='"players" (blank) or "teams": which table of the stage.')
@xw.arg("games1", "raw", ndim=2,
        doc="The first stage's game rows: players, scores, deposits, penalties, then chips "
            "and substitutes if the tab has them (its columns from the first player on).")
@xw.arg("ruleset1", "raw", ndim=2,
        doc=RULESET_DOC.replace("Blank: standard.", "Blank: the stage row's ruleset."))
@xw.arg("games2", "raw", ndim=2, doc="The second stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset2", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("games3", "raw", ndim=2, doc="The third stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset3", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("games4", "raw", ndim=2, doc="The fourth stage's game rows, as games1. Blank: none.")
@xw.arg("ruleset4", "raw", ndim=2, doc="As ruleset1.")
@xw.arg("lang", "raw", doc='"en" or "ja": the tie-break and flags in words of that '
        "language. Blank: the tie-break's key and the flags in English.")
@xw.arg("platform", Cells, doc="The stages (1 to 4) whose games range ends with the tab's "
        "platform-finals block (one column per seat: imported online or published results, "
        'counted by those finals), e.g. "1" or "1,3". Blank: none.')
@_excel_function
def MJ_SEASON(stages: Cells, settings: Cells = None, players: Cells = None,
              penalties: Cells = None, stage: Cells = None, what: Cells = None,
              games1: Cells = None, ruleset1: Cells = None, games2: Cells = None,
              ruleset2: Cells = None, games3: Cells = None, ruleset3: Cells = None,
              games4: Cells = None, ruleset4: Cells = None, lang: Cells = None,
              platform: Cells = None) -> Any:
    """A season stage's standings of players or teams, as umaoka settle ranks them; rows
    that cannot count are listed below. E.g. =MJ_SEASON(Season!A5:L6, Season!A10:B19,
    Players!A5:B40, Penalties!A5:F104, "Final", , Regular!E5:Y200, , Final!E5:Y40).

    The table: carried points, this stage's points, chips, penalties, total, rank, who
    advanced and which tie-break decided; games or penalties that cannot count are listed
    below the table with the reason, the rest still rank. lang "en" or "ja" writes the
    tie-break and flags in words of that language; platform names the stages whose games
    end with a platform-finals block."""
    stages, settings, players, penalties, stage, what, lang = map(_read, (
        stages, settings, players, penalties, stage, what, lang))
    ruleset1, ruleset2, ruleset3, ruleset4 = map(_read, (ruleset1, ruleset2, ruleset3, ruleset4))
    try:
        return _season_table(stages, settings, players, penalties, stage, what,
                             [games1, games2, games3, games4],
                             [ruleset1, ruleset2, ruleset3, ruleset4], lang, platform)
    except UmaokaError as e:  # a message quoting a whole long cell: one line, clipped
        raise UmaokaExcelError(excerpt(str(e), 400)) from None


def _read(value: Cells) -> Cells:
    """An argument MJ_SEASON takes "raw" (the games excepted), each cell read by
    :func:`_cell` with "" as blank: an error cell as its text ("#N/A" must be named, never
    pass for an empty cell), as xlwings' ``err_to_str`` gives every other function's
    arguments; without xlwings' cost per cell (0.37 looks for Pyodide once per cell
    outside it)."""
    if type(value) in _SEQUENCES:  # type(), not isinstance: in xlwings Lite isinstance
        # asks a blank cell (JavaScript's null) for its class, a call into JavaScript
        return [_read(c) if type(c) in _SEQUENCES else _read_cell(c) for c in value]
    return _read_cell(value)


_SEQUENCES = (list, tuple)


def _read_cell(value: Any) -> Any:
    cell = _cell(value)
    return None if type(cell) is str and cell == "" else cell


def _platform_stages(value: Cells, count: int) -> set[int]:
    """MJ_SEASON's ``platform``: the stage numbers (from 1) whose games end with platform
    finals, e.g. "1,3" (or one number); blank: none."""
    text = _option(value, "platform")
    if text is None:
        return set()
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    words = [w.strip() for w in str(text).replace(";", ",").split(",") if w.strip()]
    if not all(w.isdigit() and 1 <= int(w) <= count for w in words):
        raise UmaokaExcelError(f'platform cannot be "{excerpt(text)}"; give the '
                               f"numbers of the stages (1 to {count}) whose games end with "
                               'platform finals, e.g. "1" or "1,3", or leave it blank.')
    return {int(w) for w in words}


def _season_table(stages: Cells, settings: Cells, players: Cells, penalties: Cells,
                  stage: Cells, what: Cells, games: list[Cells], rules: list[Cells],
                  lang: Cells = None, platform: Cells = None) -> list[list[Any]]:
    """MJ_SEASON's table (see there): the season run of these inputs, shared by every
    MJ_SEASON call with the same inputs whichever table it shows (see :data:`_SEASONS`)."""
    platform_stages = _platform_stages(platform, len(games))
    language = _option(lang, "lang")
    words = None if language is None else str(language).strip().lower()
    if words not in (None, "en", "ja"):
        raise UmaokaExcelError(f'lang cannot be "{excerpt(language)}"; use en or ja, '
                               "or leave it blank.")
    shown_name, kind = _option(stage, "stage"), _option(what, "what", "players")
    for grid, name in ((stages, "stages"), (settings, "settings"), (players, "players")):
        _no_errors(_grid(grid), name)
    season, result = _SEASONS.run(
        (run_season, stages, settings, players, penalties, *games, *rules,
         "platform " + ",".join(map(str, sorted(platform_stages)))),
        lambda memo, settled: _season_run(stages, settings, players, penalties, games, rules,
                                          memo, settled, platform_stages))
    if shown_name is None and len(season.stages) > 1:
        raise UmaokaExcelError(f"stage is blank but the season has {len(season.stages)} "
                               f"stages ({', '.join(s.name for s in season.stages)}); give "
                               "the stage to show.")
    shown = season.stage(None if shown_name is None else str(shown_name))
    sr = next(r for r in result.stages if r.stage is shown)
    if str(kind).strip().lower() not in ("players", "teams", "player", "team"):
        raise UmaokaExcelError(f'what cannot be "{excerpt(kind)}"; use players or teams.')
    kind = str(kind).strip().lower()
    table = [_numbers(r) for r in standing_rows(sr.teams if kind.startswith("team")
                                                else sr.players, words, shown.game_caps)]
    width = len(table[0])
    mine = [p for p in result.problems if p.startswith(f"{shown.name} games row ")
            or f"stage {shown.name}" in p or p.startswith("penalties row")]
    return table + [[text] + [""] * (width - 1) for text in (*sr.notes, *mine)]


def _season_run(stages: Cells, settings: Cells, players: Cells, penalties: Cells,
                games: list[Cells], rules: list[Cells], memo: GridMemo | None = None,
                settled: SettledGames | None = None,
                platform_stages: set[int] | frozenset[int] = frozenset()) -> tuple[Any, Any]:
    """The season of MJ_SEASON's arguments and its run. ``memo``: game rows' records kept
    between runs (used for ranges of numbers, texts and blanks only); ``settled``: the
    games settled in earlier runs (see :class:`~umaoka.engine.season.stages.SettledGames`);
    ``platform_stages``: the stages (from 1) whose games end with platform finals."""
    specs = _season_stages(stages)
    if len(specs) > len(games):
        raise UmaokaExcelError(f"the season has {len(specs)} stages but MJ_SEASON takes the "
                               f"games of {len(games)}; merge stages or use umaoka settle.")
    for i, spec in enumerate(specs):  # blank: the ruleset the stage row shows
        given = _grid(rules[i])
        spec["ruleset"] = _rules(rules[i], f"ruleset{i + 1}") if given and not _blank_row(
            given[0]) else _rules(spec.pop("shown"), f"stage {spec['name']}'s ruleset")
        spec.pop("shown", None)
    values = _season_values(_grid(settings))
    roster = [r for r in _grid(players) if r and not _is_blank(r[0])]
    teams: dict[str, list[str]] = {}
    for r in roster:
        if len(r) > 1 and not _is_blank(r[1]):
            teams.setdefault(str(r[1]).strip(), []).append(str(r[0]).strip())
    check_stage_table(specs)  # a stage row's own setting: named with its stage
    season = season_settings({**values, "stages": specs, "teams": teams,
                              "players": [str(r[0]).strip() for r in roster]})
    records: list[Any] = []
    for i, st in enumerate(season.stages):
        grid, given = games[i], i + 1 in platform_stages
        if memo is not None and _plain_rows(grid, memo):
            records += _season_games(grid, st.name, st.ruleset.players, given, memo)
        else:
            records += _season_games(_grid(grid), st.name, st.ruleset.players, given)
    log = [_penalty_row(row, i) for i, row in enumerate(_grid(penalties), 1)
           if not _blank_row(row)]
    return season, run_season(season, records, log, settled)


def _plain_rows(grid: Cells, memo: GridMemo) -> bool:
    """Whether a range argument is a list of rows of the same length holding numbers as
    Excel sends them (floats), texts and blanks only (rows kept by their cells)."""
    if not isinstance(grid, list) or not grid or set(map(type, grid)) != {list}:
        return False
    return len(set(map(len, grid))) == 1 and memo.plain(grid)


#: The last season runs MJ_SEASON made, by their inputs: the template's four MJ_SEASON
#: formulas (each stage's players and teams) share one run, and a run after one typed score
#: settles that game only.
_SEASONS = SeasonRuns(4, FAST | {_JS_NULL} if _JS_NULL is not None else FAST)


def _forget_seasons() -> None:
    """Empty MJ_SEASON's memory (benchmarks: the next call computes from nothing)."""
    _SEASONS.clear()
