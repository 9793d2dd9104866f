"""MJ_SEASON: a season stage's standings through xlwings' Office.js path, equal to the engine
on the demo season (two stages with a cut and half carried, teams, chips, a substitute and
a penalty log); a bad game row shows its message below the table and the rest still rank."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from openpyxl import load_workbook
from test_officejs import call

from umaoka.addin.cli.app import main
from umaoka.engine.season.ranking import standing_rows
from umaoka.templates.book.model import Book
from umaoka.templates.book.season_book import season_result
from umaoka.templates.demo import season_demo_book
from umaoka.templates.settle_book import read_book


def _excel(value: Any) -> Any:
    """A cell as Excel sends it: blank as "", numbers as floats, dates as serial numbers."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date):
        return float((value - dt.date(1899, 12, 30)).days)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def season_args(book: Book) -> list[Any]:
    """MJ_SEASON's ranges for a season book, as the sheet's cells would hold them."""
    spec = book.season
    stages = [[_excel(s.name), "", _excel(s.advance), _excel(s.carry)] for s in spec.stages]
    settings = [[k, _excel(v)] for k, v in spec.settings.items()]
    players = [[p, _excel(book.teams.get(p))] for p in book.players]
    penalties = [[_excel(e.get(k)) for k in ("date", "stage", "player", "team", "points",
                                               "reason")] for e in book.penalties]
    games: list[Any] = []
    for lg in book.leagues:
        n = book.rules_of(lg).ruleset.players
        rows = []
        for g in lg.games:
            def seats(values: list[Any], n: int = n) -> list[Any]:
                return [_excel(v) for v in (list(values) + [None] * n)[:n]]
            rows.append([*seats(g.players), *seats(g.scores), _excel(g.deposits),
                         *seats(g.penalties), *(seats(g.chips) if lg.chips else []),
                         *(seats(g.subs) if lg.subs else [])])
        games += [rows, book.rules_of(lg).ruleset.name]
    return [stages, settings, players, penalties, games]


def mj_season(args: list[Any], stage: str, what: str) -> Any:
    stages, settings, players, penalties, games = args
    return call("MJ_SEASON", stages, settings, players, penalties, stage, what, *games)


def _cells(table: list[list[Any]]) -> list[list[Any]]:
    """The engine's rows as Excel gets them (exact decimals as numbers, blanks as "")."""
    return [[float(v) if not isinstance(v, str) else v for v in row] for row in table]


@pytest.fixture(scope="module")
def demo() -> Book:
    return season_demo_book(60)


def test_demo_season_equals_the_engine(demo: Book) -> None:
    result = season_result(demo)
    assert len(result.stages) == 2 and not result.problems
    args = season_args(demo)
    for sr in result.stages:
        players = mj_season(args, sr.stage.name, "players")
        assert _cells(players) == _cells(standing_rows(sr.players))
        teams = mj_season(args, sr.stage.name, "teams")
        assert _cells(teams) == _cells(standing_rows(sr.teams))
    regular, final = result.stages
    # the real features are exercised: a cut, half carried, chips, penalties, teams
    assert regular.advanced and all(p.carried for p in final.players)
    assert any(p.chips for p in regular.players) and any(p.penalties for p in regular.teams)
    header = mj_season(args, final.stage.name, "players")[0]
    assert header[:3] == ["Rank", "Name", "Team"] and "Carried" in header


def test_one_bad_row_shows_its_message_and_the_rest_still_rank(demo: Book) -> None:
    args = season_args(demo)
    before = mj_season(args, demo.leagues[0].name, "players")
    regular = args[4][0]
    bad = [list(r) for r in regular]
    n = 4
    bad[2][n] = bad[2][n] + 100.0  # the scores of the third game no longer add up
    args[4][0] = bad
    name = demo.leagues[0].name
    table = mj_season(args, name, "players")
    messages = [r[0] for r in table if isinstance(r[0], str) and r[0].startswith(name)]
    assert len(messages) == 1 and messages[0].startswith(f"{name} games row 3: ")
    assert "add up" in messages[0] or "total" in messages[0]
    ranked = [r for r in table[1:] if r not in [m for m in table if m[0] in messages]]
    # every other game still counts: four seats fewer than without the bad row
    assert sum(r[3] for r in ranked) == sum(r[3] for r in before[1:]) - n
    assert ranked[0][0] == 1


def test_bad_inputs_are_one_sentence(demo: Book) -> None:
    args = season_args(demo)
    with pytest.raises(Exception, match='"Semi" is not a stage of this season'):
        mj_season(args, "Semi", "players")
    with pytest.raises(Exception, match='what cannot be "rank"; use players or teams'):
        mj_season(args, demo.leagues[1].name, "rank")
    stages, settings, players, penalties, games = args
    with pytest.raises(Exception, match="Season sheet|stage Final|carry"):
        call("MJ_SEASON", [[demo.leagues[0].name, "", 4, ""], [demo.leagues[1].name, "", "", "most"]],
             settings, players, penalties, demo.leagues[1].name, "players", *games)


def test_the_season_doc_example_on_the_demo_workbook(tmp_path: Any) -> None:
    """docs/season.md's ranges of the real demo workbook (values as its cells hold them, the
    rulesets taken from the Season sheet's stage rows) give the engine's standings."""
    assert main(["demo", str(tmp_path), "--games", "60"]) == 0
    path = tmp_path / "demo_league.xlsx"
    result = season_result(read_book(path))
    wb = load_workbook(path, data_only=True)
    regular, final = (sr.stage.name for sr in result.stages)

    def cells(sheet: str, rng: str) -> list[list[Any]]:
        return [[_excel(c.value) for c in row] for row in wb[sheet][rng]]

    args = [cells("Season", "A5:L6"), cells("Season", "A10:B19"), cells("Players", "A5:B40"),
            cells("Penalties", "A5:F104")]
    for sr in result.stages:
        got = call("MJ_SEASON", *args, sr.stage.name, "players", cells(regular, "E5:Y200"),
                   None, cells(final, "E5:Y40"))
        assert _cells(got) == _cells(standing_rows(sr.players))


def test_lang_gives_the_tie_break_and_flags_in_words(demo: Book) -> None:
    """lang "en"/"ja": the Season standings sheet's words (the live template uses "ja" in
    a Japanese workbook); blank keeps the engine's keys; anything else is one sentence."""
    result = season_result(demo)
    args = season_args(demo)
    stages, settings, players, penalties, games = args
    regular = result.stages[0]
    for lang in ("en", "ja"):
        got = call("MJ_SEASON", stages, settings, players, penalties, regular.stage.name,
                   "players", *games, *([""] * (8 - len(games))), lang)
        want = standing_rows(regular.players, lang, regular.stage.game_caps)
        assert _cells(got) == _cells(want)
    ja = _cells(standing_rows(regular.players, "ja", regular.stage.game_caps))
    assert any(r[-1].endswith("超過）") for r in ja[1:])  # the demo's game cap, in Japanese
    assert all(r[-2] in ("", "最高スコアが高い", "1着の数、次に2着、3着の数が多い", "名簿で先")
               for r in ja[1:])
    with pytest.raises(Exception, match='lang cannot be "fr"; use en or ja'):
        call("MJ_SEASON", stages, settings, players, penalties, regular.stage.name,
             "players", *games, *([""] * (8 - len(games))), "fr")
