"""MJ_SEASON's shared season run (umaoka.addin.functions.season_cache) never changes a result: after
random edits of a random demo season (scores, names, types of values, penalties, settings,
stages, rulesets, substitutes, blanked and copied rows, the table shown), the cached call
equals a call computed from nothing, errors included; going back to an earlier version
gives that version's table, never a stale one; and what the cache keeps stays bounded.

The engine's run after an edit (umaoka.engine.season.parts: rows placed again only where
they changed, stage tallies kept per block of rows) equals a run from nothing, to the last
digit and exponent of every Decimal, on random two-stage seasons (cuts, carry, ties,
min_games, teams, substitutes, chips, penalties, platform finals) and random edits,
with blocks of a few rows so that blocks are kept, merged and made again."""

from __future__ import annotations

import copy
from decimal import Decimal as D
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mjseason import season_args
from test_season_properties import PLAYERS, TEAMS, game

from umaoka.addin import udfs
from umaoka.addin.functions import season as season_fns
from umaoka.addin.functions.season_cache import SeasonRuns, fingerprint
from umaoka.engine import ruleset
from umaoka.engine.season import parts
from umaoka.engine.season.gamelog import GameRecord
from umaoka.engine.season.penalties import Penalty
from umaoka.engine.season.stages import Season, SettledGames, Stage, run_season
from umaoka.templates.demo import season_demo_book

BOOKS = {seed: season_demo_book(24 + seed * 6, seed=seed) for seed in (1, 2, 3)}
N = 4  # the demo season's players per game


def _call(args: list[Any], stage: str, what: str, lang: str | None) -> Any:
    stages, settings_, players, penalties, games = args
    try:
        return ("ok", udfs.MJ_SEASON(stages, settings_, players, penalties, stage, what,
                                      *games, *([None] * (8 - len(games))), lang))
    except Exception as e:  # the one sentence Excel would show
        return ("error", type(e).__name__, str(e))


def _fresh(args: list[Any], stage: str, what: str, lang: str | None) -> Any:
    """The call with nothing remembered: a new, empty, size-0 memory."""
    kept = season_fns._SEASONS
    season_fns._SEASONS = SeasonRuns(0, kept.fast)
    try:
        return _call(copy.deepcopy(args), stage, what, lang)
    finally:
        season_fns._SEASONS = kept


def _edit(args: list[Any], kind: str, a: int, b: int, value: Any) -> None:
    """One change of a cell of the arguments, in place (as a person typing would)."""
    stages, settings_, players, penalties, games = args
    if kind == "ruleset":
        games[1 if a % 2 else 3] = ["standard", "mleague", "ema", "", "mleague; ties=seat",
                                    None][b % 6]
        return
    if kind in ("blank", "copy", "sub"):
        grid = games[0] if a % 2 else games[2]
        if not grid:
            return
        k = b % len(grid)
        if kind == "blank":  # a game cleared: its row becomes blank
            grid[k] = [None] * len(grid[k])
        elif kind == "copy":  # another row's game typed into this row
            grid[k] = list(grid[(k + a) % len(grid)])
        elif len(grid[k]) > 4 * N + 1:  # a substitute named or cleared
            grid[k][4 * N + 1 + a % N] = [None, "Zed", grid[k][a % N], ""][int(abs(value)) % 4]
        return
    if kind in ("score", "type", "player", "deposit", "penalty", "chips"):
        grid = games[0] if a % 2 else games[2]
        if not grid:
            return
        row = grid[b % len(grid)]
        if kind == "score":
            k = N + a % N
            row[k] = (row[k] if isinstance(row[k], float) else 0.0) + value
            row[N + (a + 1) % N] = (row[N + (a + 1) % N] if isinstance(row[N + (a + 1) % N],
                                                                       float) else 0.0) - value
        elif kind == "type":  # the same number as int (as Pyodide sends it), a blank, TRUE
            # or text
            k = N + a % N
            row[k] = [int(row[k]) if isinstance(row[k], float) else row[k], "", None, True,
                      str(row[k])][b % 5]
        elif kind == "player":
            names = [r[0] for r in players] + ["Zed", "", None]
            row[a % N] = names[b % len(names)]
        elif kind == "deposit":
            row[2 * N] = [0.0, 1000.0, 2000.0, "", -1000.0][b % 5]
        elif kind == "penalty":
            row[2 * N + 1 + a % N] = [0.0, -20.0, -10.5, "", 5.0][b % 5]
        else:
            if len(row) > 3 * N + 1:
                row[3 * N + 1 + a % N] = [1.0, -1.0, "", 2.5, "x"][b % 5]
        return
    if kind == "fine":  # the penalty log
        if penalties:
            row = penalties[b % len(penalties)]
            row[4] = [-10.0, -20.0, "", 5.0, "lots"][a % 5]
        return
    if kind == "setting":
        row = settings_[b % len(settings_)]
        row[1] = {"min_games": [0.0, 1.0, 3.0, 99.0, ""], "chip_value": [0.0, 1.0, 2.0, "", "x"]
                  }.get(str(row[0]), [row[1], "", row[1], row[1], row[1]])[a % 5]
        return
    if kind == "stage":
        row = stages[b % len(stages)]
        if b % len(stages) == 0:
            row[2] = [2.0, 4.0, 6.0, "", 0.0][a % 5]  # advance
        else:
            row[3] = ["half", "full", "zero", "", 0.25][a % 5]  # carry


KINDS = ("score", "type", "player", "deposit", "penalty", "chips", "fine", "setting", "stage",
         "ruleset", "blank", "copy", "sub")
EDITS = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 50), st.integers(0, 500),
                           st.sampled_from([100.0, -300.0, 1000.0, 0.5, 30000.0, 3.0])),
                 min_size=1, max_size=8)
VIEWS = st.tuples(st.integers(0, 1), st.sampled_from(["players", "teams", "", "rank"]),
                  st.sampled_from([None, "en", "ja"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(sorted(BOOKS)), edits=EDITS,
       views=st.lists(VIEWS, min_size=1, max_size=4), back=st.integers(0, 8),
       block=st.sampled_from([2, 5, parts.BLOCK]))
def test_cached_equals_fresh_after_random_edits(seed: int, edits: list[Any],
                                                views: list[Any], back: int, block: int) -> None:
    kept, parts.BLOCK = parts.BLOCK, block  # small blocks: kept, merged and made again
    try:
        _cached_equals_fresh(seed, edits, views, back)
    finally:
        parts.BLOCK = kept


def _cached_equals_fresh(seed: int, edits: list[Any], views: list[Any], back: int) -> None:
    book = BOOKS[seed]
    names = [lg.name for lg in book.leagues]
    args = season_args(book)
    versions = [copy.deepcopy(args)]
    for edit in edits:
        for stage, what, lang in views:
            got = _call(args, names[stage], what, lang)
            assert got == _fresh(args, names[stage], what, lang)
        _edit(args, *edit)
        versions.append(copy.deepcopy(args))
    # an earlier version again (an undo): its own table, not the last one's
    old = versions[back % len(versions)]
    for stage, what, lang in views:
        assert _call(copy.deepcopy(old), names[stage], what, lang) == _fresh(
            old, names[stage], what, lang)


@st.composite
def _season_case(draw: Any) -> tuple[Season, list[Any], list[Penalty]]:
    """A two-stage season (a cut, carry, min_games, ties left undecided or not, players or
    teams advancing), its games in both stages (some blank rows) and a penalty log."""
    rules = ruleset(draw(st.sampled_from(["standard", "mleague", "tenhou", "ema"])))
    by_team = draw(st.booleans())
    kw = {"chip_value": draw(st.sampled_from([D(0), D(1), D("0.5")])),
          "substitutes": draw(st.sampled_from(["team", "player", "fixed"])),
          "tie_breaks": draw(st.sampled_from([(), ("best",), ("places", "earlier")])),
          "min_games": draw(st.integers(0, 3))}
    first = Stage("A", rules, advance=draw(st.integers(1, 3 if by_team else 6)), **kw)
    second = Stage("B", rules, carry=draw(st.sampled_from([D(0), D("0.5"), D(1)])), **kw)
    season = Season("S", (first, second), TEAMS,
                    players=PLAYERS if draw(st.booleans()) else (),
                    competition="team" if by_team else "individual")
    games: list[Any] = [replace_stage(g, draw(st.sampled_from(["A", "A", "B"])))
                        for g in draw(st.lists(game(rules), min_size=1, max_size=30))]
    games = [None if draw(st.integers(0, 9)) == 0 else g for g in games]
    pens = [Penalty(D(draw(st.integers(-300, 100))) / 10, stage=draw(st.sampled_from("AB")),
                    player=draw(st.sampled_from(PLAYERS)))
            for _ in range(draw(st.integers(0, 3)))]
    return season, games, pens


def replace_stage(g: GameRecord, stage: str) -> GameRecord:
    return GameRecord(g.players, g.scores, stage, chips=g.chips, substitutes=g.substitutes,
                      label=g.label)


#: Platform finals with the same values written with other exponents (5 and 5.0): a run
#: must keep each game's own digits, as a run from nothing does.
FINALS = [(D("30.0"), D("10"), D("-10.00"), D("-30")), (D("30"), D("10.0"), D("-10"),
                                                       D("-30.0")),
          (D("5.5"), D("5.5"), D("-5.50"), D("-5.5"))]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_season_case(), block=st.sampled_from([1, 3, 8, parts.BLOCK]),
       edits=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(
           ["game", "blank", "stage", "swap", "tie", "finals", "same", "append"]),
           st.integers(0, 60)), min_size=1, max_size=10),
       data=st.data())
def test_runs_after_edits_equal_runs_from_nothing(case: Any, block: int, edits: list[Any],
                                                  data: Any) -> None:
    """Edits that change who advances, ties, substitutes, stages, blank rows, new games:
    the run with SettledGames equals the run from nothing, repr for repr (every Decimal's
    digits and exponent); only the rows that changed are placed again."""
    season, games, pens = case
    rules = season.stages[0].ruleset
    kept, parts.BLOCK = parts.BLOCK, block
    try:
        settled = SettledGames()
        assert repr(run_season(season, games, pens, settled)) == repr(
            run_season(season, games, pens))
        for pos, kind, other in edits:
            games = list(games)  # a new list each run, as MJ_SEASON gives
            k = pos % len(games)
            g = games[k]
            if kind == "game":
                games[k] = replace_stage(data.draw(game(rules)), "AB"[other % 2])
            elif kind == "blank":
                games[k] = None
            elif kind == "append":
                games.append(games[other % len(games)])
            elif kind == "same":  # the same game, another record object
                games[k] = None if g is None else replace_stage(g, g.stage)
            elif g is None:
                games[k] = games[other % len(games)]
            elif kind == "stage":
                games[k] = replace_stage(g, "B" if g.stage == "A" else "A")
            elif kind == "swap":  # seats moved: other places, other credits
                games[k] = GameRecord(g.players[::-1], g.scores, g.stage, chips=g.chips,
                                      substitutes=g.substitutes)
            elif kind == "tie":  # everybody level: shared places
                games[k] = GameRecord(g.players, (rules.start,) * 4, g.stage, chips=g.chips,
                                      substitutes=g.substitutes)
            else:
                games[k] = GameRecord(g.players, (None,) * 4, g.stage, chips=g.chips,
                                      substitutes=g.substitutes,
                                      finals=FINALS[other % len(FINALS)])
            assert repr(run_season(season, games, pens, settled)) == repr(
                run_season(season, games, pens)), (kind, k)
    finally:
        parts.BLOCK = kept


def test_every_argument_is_part_of_the_key() -> None:
    """Changing any one argument (but the table shown) makes another key; the table shown
    and lang are not in it."""
    args = season_args(BOOKS[1])
    stages, settings_, players, penalties, games = args
    flat = [stages, settings_, players, penalties, *games]
    base = fingerprint([season_fns.run_season, *flat])
    for i, value in enumerate(flat):
        changed = copy.deepcopy(flat)
        if isinstance(value, list) and value and isinstance(value[0], list):
            cell = changed[i][-1][-1]
            changed[i][-1][-1] = "changed" if cell != "changed" else "other"
        else:
            changed[i] = "standard" if value != "standard" else "ema"
        assert fingerprint([season_fns.run_season, *changed]) != base, i
    assert fingerprint([season_fns.run_season, *flat]) == base


def test_types_are_part_of_the_key() -> None:
    """1, TRUE and "1" are three different inputs (1.0 and 1 are Excel's one number, as
    Pyodide and xlwings Server send it); a value that cannot be hashed (an Office.js value
    object) is not remembered at all."""
    keys = {fingerprint([[[v]]]) for v in (1, True, "1")}
    assert len(keys) == 3 and fingerprint([[[1.0]]]) == fingerprint([[[1]]])
    assert fingerprint([[[{"type": "Double", "basicValue": 1.0}]]]) is None
    assert fingerprint([[1.0, "a"]]) != fingerprint([[[1.0, "a"]]])  # a row is not a block


def test_the_memory_is_bounded() -> None:
    """Many different seasons and edits: a few runs kept, the rows of the last run only,
    settled games in proportion to the games."""
    runs = season_fns._SEASONS
    runs.clear()
    book = BOOKS[3]
    args = season_args(book)
    name = book.leagues[0].name
    rows = sum(len(g) for g in args[4][0::2])
    for k in range(60):
        _edit(args, "score", k, k * 7, 100.0)
        _call(args, name, "players", None)
        assert len(runs.items) <= runs.size
        assert sum(len(kept[0]) for kept in runs._grids.values()) <= rows
        assert len(runs._settled) <= 2 * rows + 1024
    # edits of one season run from the last run (not looked up); other seasons' formulas
    # are looked up among the runs kept, at most size of them
    others = [season_args(b) for b in BOOKS.values()]
    for k in range(30):
        other = others[k % len(others)]
        _edit(other, "score", k, k * 7, 100.0)
        _call(other, BOOKS[1 + k % len(others)].leagues[0].name, "players", None)
        assert len(runs.items) <= runs.size
    assert len(runs.items) == min(runs.size, 30)


def test_a_failing_run_leaves_nothing_behind() -> None:
    runs = season_fns._SEASONS
    runs.clear()
    args = season_args(BOOKS[1])
    args[4][1] = "no such ruleset"
    got = _call(args, BOOKS[1].leagues[0].name, "players", None)
    assert got[0] == "error" and not runs.items
    assert got == _fresh(args, BOOKS[1].leagues[0].name, "players", None)


@pytest.fixture(autouse=True)
def _empty() -> Any:
    season_fns._SEASONS.clear()
    yield
    season_fns._SEASONS.clear()


@pytest.mark.parametrize("block", [1, 2, parts.BLOCK])
def test_equal_finals_written_differently_keep_their_own_digits(block: int) -> None:
    """A player's best and worst games equal in value but written with other exponents
    (99.0 and 99): the first one stays, whichever blocks they fall in and whatever changed."""
    finals = [(D("99.0"), D("1"), D("-40.00"), D("-60")), (D("99"), D("1.0"), D("-40"),
                                                           D("-60.0")),
              (D("99.00"), D("1.00"), D("-40.0"), D("-60.00"))]
    games: list[Any] = [GameRecord(("Aki", "Ben", "Chie", "Dan"), (None,) * 4, "A",
                                   finals=f) for f in finals * 2]
    season = Season("S", (Stage("A", ruleset("mleague")),))
    kept, parts.BLOCK = parts.BLOCK, block
    try:
        settled = SettledGames()
        for k in [None, 0, 2, 1, 5, 0]:
            if k is not None:
                games = list(games)
                games[k] = GameRecord(games[k].players, (None,) * 4, "A",
                                      finals=finals[(k + 1) % 3])
            assert repr(run_season(season, games, (), settled)) == repr(
                run_season(season, games))
    finally:
        parts.BLOCK = kept
