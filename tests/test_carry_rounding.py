"""Carried points: M.League's published carries (a half-tenth goes up, toward +infinity,
for negative totals too), ``carry_rounding`` (a ruleset rounding or ``exact``), and games
known only by their finals (M.League's published results, Tenhou lobby lines) counting in
the season like any game: through the engine, ``umaoka season``, MJ_SEASON and the
workbook (its saved values and the settled copy)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_mjseason import _cells, mj_season, season_args
from test_officejs import call

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError
from umaoka.engine.resolve import ruleset
from umaoka.engine.season.gamelog import game_record, platform_result
from umaoka.engine.season.ranking import standing_rows
from umaoka.engine.season.settings import read_season, season_settings
from umaoka.engine.season.stages import CARRY_ROUNDINGS, carry_points, run_season
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.season_book import SETTINGS, SeasonSpec, StageRow, season_result
from umaoka.templates.build import write_league
from umaoka.templates.settle_book import read_book, write_settled

#: M.League's published carries (m-league.jp season results, abema times, fan sites
#: copying the official semifinal tables): total, then the half carried into the next stage.
PUBLISHED = [("-8.7", "-4.3"), ("-80.1", "-40.0"), ("-202.3", "-101.1"), ("-210.5", "-105.2"),
             ("-41.5", "-20.7"), ("281.7", "140.9"), ("495.5", "247.8"), ("273.9", "137.0"),
             ("284.7", "142.4")]

#: One mleague game per published total: the team's player first (its raw points), then
#: three fillers; e.g. 11,300 in 2nd: (11,300 - 30,000) / 1000 + 10 = -8.7.
RAW = {"-8.7": [11300, 70000, 10000, 8700], "-80.1": [-20100, 50000, 40100, 30000],
       "-202.3": [-142300, 90000, 80000, 72300], "-210.5": [-150500, 90000, 85000, 75500],
       "-41.5": [18500, 30000, 26000, 25500], "281.7": [261700, -50000, -55000, -56700],
       "495.5": [475500, -120000, -125000, -130500], "273.9": [253900, -50000, -51000, -52900],
       "284.7": [264700, -54000, -55000, -55700]}

TEAMS = [f"T{i}" for i in range(1, len(PUBLISHED) + 1)]  # team Tn = player Pn
FILLERS = ["F1", "F2", "F3"]


def test_mleague_carries_a_half_tenth_up() -> None:
    rules = ruleset("mleague")
    for total, carried in PUBLISHED:
        assert str(carry_points(D(total), D("0.5"), rules)) == carried
        assert carry_points(D(total), D("0.5"), rules, "exact") == D(total) / 2
    # Excel's ROUND (half away from zero) is one of the choices, and differs on negatives
    assert carry_points(D("-8.7"), D("0.5"), rules, "half_away_from_zero") == D("-4.4")
    assert carry_points(D("-8.7"), D("0.5"), rules, "half_down") == D("-4.4")
    assert carry_points(D("-8.7"), D("0.5"), rules, "toward_zero") == D("-4.3")
    # a whole-point ruleset rounds at its unit, with its own rounding unless told
    standard = ruleset("standard")
    assert carry_points(D("-45"), D("0.5"), standard) == -23  # half_down
    assert carry_points(D("-45"), D("0.5"), standard, "half_up") == -22
    assert carry_points(D("-45"), D("0.5"), standard, "exact") == D("-22.5")


def test_carry_rounding_setting_is_checked() -> None:
    base = "[stage A]\n[stage B]\ncarry = half\n"
    s = read_season("carry_rounding = exact\n" + base + "carry_rounding = 四捨五入")
    assert [st.carry_rounding for st in s.stages] == ["exact", "half_up"]
    assert read_season(base).stages[1].carry_rounding is None
    spec = {"stages": [{"name": "A"}, {"name": "B", "carry": "half",
                                       "carry_rounding": "half-away-from-zero"}]}
    assert season_settings(spec).stages[1].carry_rounding == "half_away_from_zero"
    for bad, words in [("none", 'cannot be "none"; write exact'),
                       ("round", f"use one of {', '.join(CARRY_ROUNDINGS)}"),
                       ("exakt", 'Did you mean "exact"?')]:
        with pytest.raises(UmaokaError, match=words):
            read_season(base + f"carry_rounding = {bad}")


def _season_ini(rounding: str = "") -> str:
    teams = "\n".join(f"{t} = P{t[1:]}" for t in TEAMS)
    extra = f"carry_rounding = {rounding}\n" if rounding else ""
    return ("[season]\nname = Published carries\ncompetition = team\nruleset = mleague\n"
            f"\n[stage Regular]\n\n[stage Semifinal]\ncarry = half\n{extra}"
            f"\n[teams]\n{teams}\nFill = {', '.join(FILLERS)}\n")


def _raw_games_csv() -> str:
    lines = ["stage,east,east_score,south,south_score,west,west_score,north,north_score"]
    for team, (total, _) in zip(TEAMS, PUBLISHED):
        names = [f"P{team[1:]}", *FILLERS]
        lines.append("Regular," + ",".join(f"{n},{r}" for n, r in zip(names, RAW[total])))
    return "\n".join(lines) + "\n"


def _carried(out: str, team: str) -> str:
    """The Carried cell of a team's line in the Semifinal's team table."""
    part = out.split("Semifinal:")[1]
    for line in part.splitlines():
        cells = line.split()
        if len(cells) > 3 and cells[1] == team:
            return cells[3]
    raise AssertionError(f"{team} not in {part}")


@pytest.mark.parametrize("rounding", ["", "exact"])
def test_umaoka_season_reproduces_the_published_carries(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], rounding: str) -> None:
    season = tmp_path / "season.ini"
    season.write_text(_season_ini(rounding), encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text(_raw_games_csv(), encoding="utf-8")
    assert main(["season", str(season), str(games)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    for team, (total, carried) in zip(TEAMS, PUBLISHED):
        want = D(total) / 2 if rounding else D(carried)
        assert _carried(out, team) == f"{want:+}"
    words = "exact" if rounding else "to 0.1 (half_up)"
    assert f"Carried in: half of each team's total in the previous stage, {words}." in out


def test_exact_carries_keep_every_digit_to_the_total(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A private league publishes 4.35 + 31.3 = 35.65: the half carried is not rounded.
    Its games are given as published: finishing order and finals, no raw points."""
    season = tmp_path / "season.json"
    season.write_text('{"name": "Private", "ruleset": "mleague", "carry_rounding": "exact",'
                      ' "stages": [{"name": "Spring"}, {"name": "Autumn", "carry": "half"}]}',
                      encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("stage,first,first_final,second,second_final,third,third_final,fourth,"
                     "fourth_final\n"
                     "Spring,Ben,+40.3,Aki,+8.7,Chie,▲19.0,Dan,-30.0\n"
                     "Autumn,Aki,+31.3,Chie,10.0,Dan,-11.3,Ben,-30.0\n", encoding="utf-8")
    assert main(["season", str(season), str(games)]) == 0
    out = capsys.readouterr().out
    autumn = out.split("Autumn:")[1]
    aki = next(line.split() for line in autumn.splitlines() if " Aki " in f" {line} ")
    # one table, one number of decimals: the exact carry's two (#35 item 7)
    assert aki[:6] == ["1", "Aki", "1", "+4.35", "+31.30", "+35.65"]
    ben = next(line.split() for line in autumn.splitlines() if " Ben " in f" {line} ")
    assert ben[3:6] == ["+20.15", "-30.00", "-9.85"]
    assert "Autumn: 1 game, mleague rules" in out


# ------------------------------------------------------------------------------------------------
# Games known only by their finals.


def _finals_row(*seats: tuple[str, Any], **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for seat, (name, final) in zip(("east", "south", "west", "north"), seats):
        row[seat], row[f"{seat}_final"] = name, final
    return {**row, **extra}


def test_finals_only_games_count_like_any_game() -> None:
    season = season_settings({"ruleset": "mleague", "chip_value": 2,
                              "stages": [{"name": "Regular"}]})
    games = [
        # a lobby line: finishing order, platform finals (no raw points)
        _finals_row(("Aki", "+45.3"), ("Ben", 9.1), ("Chie", "-14.6"), ("Dan", "▲39.8")),
        # a published result typed by seat: Dan first; a chombo row penalty; chips
        _finals_row(("Aki", "-20.0"), ("Ben", -30), ("Chie", 10), ("Dan", 40),
                    east_penalty=-20, north_chips=2),
        # a typed game with raw points, settled by the rules
        {"east": "Aki", "east_score": 40000, "south": "Ben", "south_score": 30000,
         "west": "Chie", "west_score": 20000, "north": "Dan", "north_score": 10000},
    ]
    result = run_season(season, games)
    assert result.problems == ()
    lines = {p.name: p for p in result.stages[0].players}
    assert result.stages[0].games == 3
    # Aki: 45.3 - 20.0 + 60.0 = 85.3 and -20 penalty; Dan: -39.8 + 40 - 50 + 2 x 2 chips
    assert (lines["Aki"].points, lines["Aki"].penalties, lines["Aki"].total) == (
        D("85.3"), D(-20), D("65.3"))
    assert (lines["Dan"].points, lines["Dan"].chips, lines["Dan"].total) == (
        D("-49.8"), D(4), D("-45.8"))
    assert lines["Ben"].total == D("-10.9") and lines["Chie"].total == D("-24.6")
    assert lines["Dan"].places[:2] == (1, 0)  # 1st in the second game


def test_finals_only_ties_follow_the_order_given() -> None:
    g = game_record(_finals_row(("Aki", 5), ("Ben", 25), ("Chie", 5), ("Dan", -35)))
    assert platform_result(g).places == (2, 1, 3, 4)
    g = game_record({"first": "Chie", "first_final": "5", "second": "Aki",
                     "second_final": "5", "third": "Ben", "third_final": "-10"}, players=3)
    assert g.players == ("Chie", "Aki", "Ben") and platform_result(g).places == (1, 2, 3)


@pytest.mark.parametrize("row, words", [
    ({"first": "A", "first_final": "+75.0", "second": "B", "second_final": "-13.0",
      "third": "C", "third_final": "-62.0"}, "is a three-player game (no fourth player)"),
    (_finals_row(("A", 10), ("B", None), ("C", -5), ("D", -5)),
     "has a platform final for some seats but not others"),
    (_finals_row(("A", 10), ("B", 0), ("C", -5), ("D", -5), deposits=1000),
     "the finals already hold the sticks, so clear deposits"),
    (_finals_row(("A", "ten"), ("B", 0), ("C", -5), ("D", -5)),
     "east's final \"ten\" is not a final score"),
])
def test_bad_finals_rows_are_one_sentence(row: dict[str, Any], words: str) -> None:
    season = season_settings({"stages": [{"name": "Regular"}]})
    games = [{**row, "_label": "games.csv row 2"},
             _finals_row(("A", 10), ("B", 0), ("C", -5), ("D", -5))]
    result = run_season(season, games)
    assert len(result.problems) == 1 and words in result.problems[0]
    assert result.problems[0].startswith("games.csv row 2")
    assert result.stages[0].games == 1  # the other game still counts


def test_substitute_fixed_on_a_finals_only_game() -> None:
    season = season_settings({"ruleset": "mleague", "substitutes": "fixed",
                              "teams": {"Red": ["A", "B"], "Blue": ["C", "D"]},
                              "stages": [{"name": "Regular"}]})
    row = _finals_row(("A", "50.0"), ("B", "10.0"), ("C", "-20.0"), ("D", "-40.0"),
                      east_sub="Zed")
    lines = {p.name: p for p in run_season(season, [row]).stages[0].players}
    assert lines["A"].total == -30 and lines["A"].places == (0, 0, 0, 1)


# ------------------------------------------------------------------------------------------------
# The workbook: the Season sheet's carry_rounding, MJ_SEASON, saved values, the settled copy.


def _published_book(rounding: str = "") -> Any:
    players = [f"P{t[1:]}" for t in TEAMS] + FILLERS
    book = make_book(["mleague"], ["Regular", "Semifinal"], players)
    book.teams = {f"P{t[1:]}": t for t in TEAMS} | {f: "Fill" for f in FILLERS}
    regular = book.leagues[0]
    day = dt.date(2019, 3, 1)
    regular.games = [Game(date=day, session=1, table=1, number=i,
                          players=[f"P{t[1:]}", *FILLERS], scores=RAW[total])
                     for i, (t, (total, _)) in enumerate(zip(TEAMS, PUBLISHED), 1)]
    book.season = SeasonSpec([StageRow("Regular"), StageRow("Semifinal", None, "half")],
                             dict(SETTINGS, name="Published", competition="team",
                                  carry_rounding=rounding))
    return book


def _semifinal_teams(ws: Any) -> dict[str, Any]:
    """Team -> Carried of the Season standings' "Semifinal: teams" table."""
    rows = list(ws.iter_rows(values_only=True))
    start = next(i for i, r in enumerate(rows) if r[0] == "Semifinal: teams")
    out = {}
    for r in rows[start + 2:]:
        if not r[1]:
            break
        out[r[1]] = r[3]
    return out


@pytest.mark.parametrize("rounding", ["", "exact"])
def test_the_workbook_reproduces_the_published_carries(tmp_path: Path, rounding: str) -> None:
    book = _published_book(rounding)
    want = {t: (D(total) / 2 if rounding else D(carried))
            for t, (total, carried) in zip(TEAMS, PUBLISHED)}
    # the engine on the workbook's season
    semi = season_result(book).stages[1]
    assert {p.name: p.carried for p in semi.teams if p.name != "Fill"} == want
    # MJ_SEASON, as the live Season standings call it
    table = mj_season(season_args(book), "Semifinal", "teams")
    col = table[0].index("Carried")
    assert {r[1]: D(str(r[col])) for r in table[1:] if r[1] in want} == want
    # the written workbook: its Season sheet read back, its saved values, the settled copy
    src = write_league(book, tmp_path / "published.xlsx")
    back = read_book(src)
    assert back.season.settings["carry_rounding"] in (rounding, None)
    saved = _semifinal_teams(load_workbook(src, data_only=True)["Season standings"])
    assert {t: D(str(v)) for t, v in saved.items() if t in want} == want
    out = tmp_path / "published_settled.xlsx"
    write_settled(back, out, source=src.name)
    ws = load_workbook(out)["Season standings"]
    settled = _semifinal_teams(ws)
    assert {t: D(str(v)) for t, v in settled.items() if t in want} == want
    # exact carries are shown with their digits (+4.35), rounded ones to 0.1 (-4.3)
    cell = next(r[3] for r in ws.iter_rows() if r[1].value == "T1")
    assert cell.number_format == ("+0.0##;-0.0##;0.0" if rounding else "+0.0;-0.0;0.0")


def test_platform_rows_count_in_the_workbook_season(tmp_path: Path) -> None:
    """A league tab with imported lobby results (platform finals, no raw points) beside a
    typed game: the season standings and the settled copy count both."""
    book = make_book(["mleague"], ["Regular"], ["Aki", "Ben", "Chie", "Dan"])
    lg = book.leagues[0]
    lg.given = True
    day = dt.date(2026, 4, 4)
    lg.games = [Game(date=day, session=1, table=1, number=1,
                     players=["Aki", "Ben", "Chie", "Dan"], scores=[None] * 4,
                     given=[45.3, 9.1, -14.6, -39.8]),
                Game(date=day, session=1, table=1, number=2,
                     players=["Dan", "Chie", "Ben", "Aki"], scores=[40000, 30000, 20000, 10000])]
    book.season = SeasonSpec([StageRow("Regular")], dict(SETTINGS, name="Lobby"))
    result = season_result(book)
    assert result.problems == ()
    totals = {p.name: p.total for p in result.stages[0].players}
    assert totals == {"Aki": D("-4.7"), "Ben": D("-10.9"), "Chie": D("-4.6"), "Dan": D("20.2")}
    src = write_league(book, tmp_path / "lobby.xlsx")
    out = tmp_path / "lobby_settled.xlsx"
    write_settled(read_book(src), out, source=src.name)
    rows = list(load_workbook(out)["Season standings"].iter_rows(values_only=True))
    got = {r[1]: D(str(r[9])) for r in rows if r[1] in totals and isinstance(r[0], int)}
    assert got == totals
    assert not any(isinstance(r[0], str) and "blank" in r[0] for r in rows)


# ------------------------------------------------------------------------------------------------
# MJ_SEASON with a platform-finals block: the live Season standings count platform rows.


def _lobby_book() -> Any:
    """Regular: a Tenhou lobby line (platform finals, no raw points), a result typed as
    M.League publishes it (finals only, a chombo in the row), a typed game; Final: half
    carried (M.League's rounding), one published result."""
    book = make_book(["mleague"], ["Regular", "Final"], ["Aki", "Ben", "Chie", "Dan"])
    day = dt.date(2026, 4, 4)
    for lg in book.leagues:
        lg.given = True
    regular, final = book.leagues
    regular.games = [
        Game(date=day, session=1, table=1, number=1, players=["Aki", "Ben", "Chie", "Dan"],
             scores=[None] * 4, given=[45.3, 9.1, -14.6, -39.8]),
        Game(date=day, session=1, table=1, number=2, players=["Dan", "Chie", "Ben", "Aki"],
             scores=[None] * 4, penalties=[None, None, None, -20],
             given=[52.1, 8.3, -19.4, -41.0]),
        Game(date=day, session=1, table=1, number=3, players=["Dan", "Chie", "Ben", "Aki"],
             scores=[40000, 30000, 20000, 10000]),
    ]
    final.games = [Game(date=day, session=2, table=1, number=1,
                        players=["Chie", "Aki", "Ben", "Dan"], scores=[None] * 4,
                        given=[31.3, 10.0, -11.3, -30.0])]
    book.season = SeasonSpec([StageRow("Regular", 4), StageRow("Final", None, "half")],
                             dict(SETTINGS, name="Lobby"))
    return book


def _rows(book: Any, i: int) -> list[list[Any]]:
    """Stage i's tab range as MJ_SEASON gets it: players, scores, deposits, penalties,
    then the platform-finals block (blank cells as "")."""
    out = []
    for g in book.leagues[i].games:
        def seats(values: Any) -> list[Any]:
            return ["" if v is None else v for v in (list(values or []) + [None] * 4)[:4]]
        out.append([*seats(g.players), *seats(g.scores), "", *seats(g.penalties),
                    *seats(g.given)])
    return out


def test_mj_season_counts_platform_rows() -> None:
    book = _lobby_book()
    result = season_result(book)
    assert result.problems == ()
    regular, final = result.stages
    # Aki: 45.3 - 41.0 - 50.0 - 20 (chombo) = -65.7; Dan: -39.8 + 52.1 + 60.0 = 72.3
    assert {p.name: p.total for p in regular.players} == {
        "Dan": D("72.3"), "Ben": D("-30.3"), "Chie": D("3.7"), "Aki": D("-65.7")}
    # half carried, a half-tenth up: Dan 36.15 -> 36.2, Ben -15.15 -> -15.1, Aki -32.85 ->
    # -32.8, Chie 1.85 -> 1.9
    assert {p.name: p.carried for p in final.players} == {
        "Chie": D("1.9"), "Dan": D("36.2"), "Ben": D("-15.1"), "Aki": D("-32.8")}
    args = [[["Regular", "", 4, ""], ["Final", "", "", "half"]],
            [[k, v] for k, v in SETTINGS.items()], [[p, ""] for p in book.players], [[""] * 6]]
    for stage, sr in (("Regular", regular), ("Final", final)):
        table = call("MJ_SEASON", *args, stage, "players", _rows(book, 0), "mleague",
                     _rows(book, 1), "mleague", "", "", "", "", "en", "1,2")
        want = standing_rows(sr.players, "en")
        assert _cells(table) == _cells(want)
    # without the platform argument the last block is read as chips: the row is left out
    table = call("MJ_SEASON", *args, "Regular", "players", _rows(book, 0), "mleague",
                 _rows(book, 1), "mleague", "", "", "", "", "en")
    assert any(str(r[0]).startswith("Regular games row 2: east's chips") for r in table)
    with pytest.raises(Exception, match='platform cannot be "5"'):
        call("MJ_SEASON", *args, "Regular", "players", _rows(book, 0), "mleague",
             _rows(book, 1), "mleague", "", "", "", "", "en", "5")


def test_live_season_standings_count_platform_rows(tmp_path: Path) -> None:
    """The written workbook's live Season standings (pycel with umaoka's functions plugged
    in) equal the engine's with platform rows, also after a platform final is changed."""
    import test_live_season as live
    from pycel import ExcelCompiler
    from test_pycel import pycel_functions

    book = _lobby_book()
    path = write_league(book, tmp_path / "lobby.xlsx")
    ws = load_workbook(path)["Season standings"]
    calls = [c.value.text for row in ws.iter_rows() for c in row
             if hasattr(c.value, "text") and "MJ_SEASON" in c.value.text.upper()]
    assert calls and all(c.rstrip(")").endswith(',"en","1,2"),') or '"1,2"' in c
                         for c in calls)
    try:
        with pycel_functions("umaoka_platform_season_plugin", mj_season=live.mj_season,
                             _xldudf_mj_season=live.mj_season,
                             error_type=live.error_type) as plugin:
            live.MODE["now"] = "on"
            xl = ExcelCompiler(filename=str(path), plugins=[plugin])
            headers = live._headers(path)
            assert len(headers) == 2  # two stages, players only (no teams)

            def shown() -> list[list[list[Any]]]:
                return [live._table(xl, h, 15) for h in headers]

            live._same(shown(), season_result(book))
            # Aki's lobby final +45.3 -> +5.3 (and Dan's -39.8 -> +0.2): the tables follow
            lg = book.leagues[0]
            from umaoka.templates.build import LeagueCols
            cols = LeagueCols(4, given=True)
            aki, dan = (f"'{lg.name}'!{chr(64 + c)}5" for c in (cols.given_cols[0],
                                                                 cols.given_cols[3]))
            xl.set_value(aki, 5.3)
            xl.set_value(dan, 0.2)
            lg.games[0].given = [5.3, 9.1, -14.6, 0.2]
            after = season_result(book)
            live._same(shown(), after)
            assert {p.name: p.total for p in after.stages[0].players}["Aki"] == D("-105.7")
    finally:
        live.MODE["now"] = "on"


def test_libreoffice_keeps_the_platform_season_and_warns_when_a_final_changes(
        tmp_path: Path) -> None:
    """Without umaoka's functions (LibreOffice, hard recalculation) the Season standings
    keep the engine's values, platform rows counted; a changed platform final is warned
    about in row 3."""
    from test_alive import hard_recalculated

    from umaoka.templates.build import LeagueCols

    book = _lobby_book()
    src = write_league(book, tmp_path / "lobby.xlsx")
    saved = load_workbook(src, data_only=True)["Season standings"]
    back = load_workbook(hard_recalculated(src, "xlsx", tmp_path), data_only=True)
    ws = back["Season standings"]
    assert ws["A3"].value in (None, "")
    for row_b, row_s in zip(ws.iter_rows(values_only=True, max_col=15),
                            saved.iter_rows(values_only=True, max_col=15)):
        for a, b in zip(row_b, row_s):
            assert (a == b or (a in (None, "") and b in (None, ""))
                    or (isinstance(a, float) and abs(a - float(b)) < 1e-9)), (a, b)
    lines = [r for r in ws.iter_rows(values_only=True, max_col=15) if isinstance(r[0], int)]
    regular, final = lines[:4], lines[4:]  # each stage's players (no teams)
    assert {r[1]: r[9] for r in regular} == {"Dan": 72.3, "Chie": 3.7, "Ben": -30.3,
                                             "Aki": -65.7}
    assert {r[1]: r[4] for r in final} == {"Chie": 1.9, "Dan": 36.2, "Ben": -15.1,
                                           "Aki": -32.8}
    wb = load_workbook(src)
    wb["Regular"].cell(5, LeagueCols(4, given=True).given_cols[0]).value = 5.3
    wb.save(tmp_path / "edited.xlsx")
    edited = load_workbook(hard_recalculated(tmp_path / "edited.xlsx", "xlsx", tmp_path),
                           data_only=True)
    assert edited["Season standings"]["A3"].value.startswith("⚠ Games or penalties changed")


def test_umaoka_season_runs_an_imported_lobby_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``umaoka import``'s finals CSV (Tenhou lobby lines: platform finals, no raw points)
    is a games file of ``umaoka season`` as it is."""
    log = Path(__file__).parent / "data" / "imports" / "sca20260404.log"
    night = tmp_path / "night.csv"
    assert main(["import", str(log), "-o", str(night)]) == 0
    capsys.readouterr()
    season = tmp_path / "lobby.ini"
    season.write_text("[season]\nname = Lobby\nruleset = standard\n", encoding="utf-8")
    assert main(["season", str(season), str(night)]) == 0
    out, err = capsys.readouterr()
    assert "Lobby: 5 games, standard rules" in out
    assert "row 5 is a three-player game (no fourth player)" in err  # the 三 lobby's line
    header = next(line.split() for line in out.splitlines() if line.lstrip().startswith("#"))
    lines = {line.split()[1]: dict(zip(header, line.split())) for line in out.splitlines()
             if line[:3].strip().isdigit()}
    shown = [[lines[name][k] for k in ("G", "Points", "Total")]
             for name in ("しきさん", "NoName")]
    assert shown == [["1", "+61.0", "+61.0"], ["1", "0", "0"]]
    assert "blank" not in err


def test_umaoka_new_season_keeps_carry_rounding(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    season = tmp_path / "s.ini"
    season.write_text("[season]\nruleset = mleague\n[stage Regular]\nadvance = 4\n"
                      "[stage Final]\ncarry = half\ncarry_rounding = exact\n", encoding="utf-8")
    out = tmp_path / "club.xlsx"
    assert main(["new", str(out), "--season", str(season)]) == 0
    capsys.readouterr()
    back = read_book(out)
    assert back.season.settings["carry_rounding"] == "exact"
    assert season_result(back).stages[1].stage.carry_rounding == "exact"
