"""One league, one truth: a season built as a manager builds it, through umaoka's own
commands, gives the same stage standings in every view.

The season: ``umaoka new --season`` (two stages, Spring with its own min_games and chip
value, Summer carrying everything; two teams; substitutes count for the absent player),
games typed into the Spring tab as in Excel (names, raw scores, chips, one seat played by
a substitute), a penalty typed on the Penalties sheet, Tenhou lobby lines imported into
Spring, results as M.League publishes them (finishing order and finals, no raw points)
imported into Summer, ``umaoka add --stage Final`` once games exist, Summer's Advance and
the Final's Carry typed on the Season sheet, a game typed into the Final and one imported.

The views: ``umaoka season`` (the same games as CSV files, the season as a file), the
engine on the workbook's sheets, the workbook's saved values, MJ_SEASON evaluated by pycel
with the workbook's own ranges, the settled copy (``umaoka settle``) and LibreOffice's
hard recalculation (no umaoka functions). Compared: each stage's player and team tables
(rank, games, carried, points, chips, penalties, total, average place, advanced, the
"not ranked" flag) and each tab's standings (the stage's points; the season adds no
carried points there, and substitutes = player counts the seat alike).

What this found, and what now holds: the settled copy listed players under min_games
under a heading but without the live table's "Not ranked: fewer than N games" flag;
``umaoka season`` printed them in a table of their own whose numbers stood under the
ranked table's headers; settle's summary showed a platform final of -40.0 as "-40";
imported table numbers were text.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.addin.cli.season import game_rows, load_season, penalty_rows
from umaoka.engine.season.stages import SeasonResult, run_season
from umaoka.templates.book.season_book import season_result
from umaoka.templates.settle_book import read_book

PLAYERS = ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi"]
TEAMS = ["Red", "Blue"]
SEASON = """[season]
name = Club 2026
ruleset = mleague
players = Aki, Ben, Chie, Dan, Eri, Fumi
substitutes = player

[stage Spring]
min_games = 3
chip_value = 2

[stage Summer]
carry = full

[teams]
Red = Aki, Ben, Chie
Blue = Dan, Eri, Fumi
"""
#: The same season once the Final is added and the Season sheet says Advance/Carry.
SEASON3 = SEASON.replace("carry = full\n", "carry = full\nadvance = 4\n\n"
                         "[stage Final]\ncarry = half\n")

#: Spring, typed: (players, raw scores, chips, the seat a substitute played or None).
SPRING = [
    (["Aki", "Ben", "Chie", "Dan"], [41200, 28700, 19100, 11000], [1, 0, 0, -1], None),
    (["Ben", "Chie", "Dan", "Eri"], [35300, 30100, 20200, 14400], [0, 0, 0, 0], None),
    (["Fumi", "Dan", "Aki", "Ben"], [45100, 25500, 18000, 11400], [0, 2, 0, -2], 0),
    (["Ben", "Eri", "Aki", "Chie"], [38800, 31200, 17300, 12700], [0, 0, 0, 0], None),
]
#: Spring, Tenhou lobby lines (finishing order, the lobby's finals).
LOBBY = ("L1002 | 20:05 | 四般南喰赤－ | Chie(+52.0) Dan(+8.0) Aki(-20.0) Fumi(-40.0)\n"
         "L1002 | 21:10 | 四般南喰赤－ | Dan(+47.3) Fumi(+9.1) Chie(-16.6) Aki(-39.8)\n")
#: Summer, as M.League publishes results: finishing order and finals, no raw points.
MLEAGUE = [("Aki", "+52.1", "Dan", "8.3", "Chie", "▲19.4", "Ben", "-41.0"),
           ("Aki", "+61.2", "Chie", "-11.6", "Dan", "-11.6", "Ben", "-38.0")]  # equal finals
#: The Final: one game typed, one imported as published.
FINAL_TYPED = (["Aki", "Ben", "Fumi", "Dan"], [33300, 29900, 22600, 14200])
FINAL_PUBLISHED = [("Dan", "+44.0", "Fumi", "+6.5", "Aki", "-12.5", "Ben", "-38.0")]
PENALTY = ("Spring", "Dan", -10, "late")
FINALS_HEAD = ("date,time,table,first,first_final,second,second_final,third,third_final,"
               "fourth,fourth_final")


def _finals_csv(path: Path, rows: list[tuple[str, ...]], day: str,
                stage: str | None = None) -> Path:
    head = ("stage," if stage else "") + FINALS_HEAD
    lines = [head] + [(f"{stage}," if stage else "") + f"{day},19:{10 * i:02d},1," +
                      ",".join(r) for i, r in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _type_games(ws: Any, games: list[tuple[list[str], list[int], list[int], Any]],
                first: int, day: dt.date, subs: bool) -> None:
    """What a manager types in Excel: date, session, table, game, names, raw scores,
    chips and a substitute mark (columns as the tab's header row names them)."""
    head = {ws.cell(4, c).value: c for c in range(1, ws.max_column + 1)}
    seats = ("East", "South", "West", "North")
    for i, (players, scores, chips, sub) in enumerate(games):
        r = first + i
        ws.cell(r, head["Date"]).value = day
        ws.cell(r, head["Session"]).value = 1
        ws.cell(r, head["Table"]).value = 1
        ws.cell(r, head["Game"]).value = i + 1
        for s, seat in enumerate(seats):
            ws.cell(r, head[seat]).value = players[s]
            ws.cell(r, head[f"{seat} pts"]).value = scores[s]
            if chips[s]:
                ws.cell(r, head[f"{seat} chips"]).value = chips[s]
        if subs and sub is not None:
            ws.cell(r, head[f"{seats[sub]} sub"]).value = "x"


def build(tmp: Path) -> Path:
    """The league, through umaoka's commands and typing."""
    (tmp / "season.ini").write_text(SEASON, encoding="utf-8")
    book = tmp / "league.xlsx"
    assert main(["new", str(book), "--season", str(tmp / "season.ini"), "--players",
                 ",".join(PLAYERS), "--chips", "--subs"]) == 0
    wb = load_workbook(book)
    _type_games(wb["Spring"], SPRING, 5, dt.date(2026, 4, 4), True)
    pen = wb["Penalties"]
    pen["A5"], pen["B5"], pen["C5"], pen["E5"], pen["F5"] = (
        dt.date(2026, 4, 4), *PENALTY)
    wb.save(book)
    (tmp / "sca20260411.log").write_text(LOBBY, encoding="utf-8")
    assert main(["import", str(tmp / "sca20260411.log"), "--into", str(book),
                 "--league", "Spring"]) == 0
    assert main(["import", str(_finals_csv(tmp / "summer.csv", MLEAGUE, "2026-06-06")),
                 "--into", str(book), "--league", "Summer"]) == 0
    assert main(["add", str(book), "--stage", "Final"]) == 0
    wb = load_workbook(book)
    season = wb["Season"]
    rows = {season.cell(r, 1).value: r for r in range(5, 9)}
    season.cell(rows["Summer"], 3).value = 4  # Advance, as typed
    season.cell(rows["Final"], 4).value = "half"  # Carry, from the dropdown
    players, scores = FINAL_TYPED
    _type_games(wb["Final"], [(players, scores, [0] * 4, None)], 5, dt.date(2026, 9, 5),
                False)
    wb.save(book)
    assert main(["import", str(_finals_csv(tmp / "final.csv", FINAL_PUBLISHED,
                                           "2026-09-06")),
                 "--into", str(book), "--league", "Final"]) == 0
    return book


def engine(tmp: Path) -> SeasonResult:
    """The season as ``umaoka season`` runs it, from files: the season file, the typed
    games as a games CSV, the imported results as finals CSVs, the penalty log."""
    (tmp / "season3.ini").write_text(SEASON3, encoding="utf-8")
    seats = ("east", "south", "west", "north")
    head = ["stage", "date", *[c for s in seats for c in (s, f"{s}_score")],
            *(f"{s}_chips" for s in seats), *(f"{s}_sub" for s in seats)]
    lines = [",".join(head)]
    typed = [("Spring", "2026-04-04", g) for g in SPRING] + [
        ("Final", "2026-09-05", (*FINAL_TYPED, [0] * 4, None))]
    for stage, day, (players, scores, chips, sub) in typed:
        pairs = [v for p, s in zip(players, scores) for v in (p, str(s))]
        marks = ["x" if k == sub else "" for k in range(4)]
        lines.append(",".join([stage, day, *pairs, *map(str, chips), *marks]))
    (tmp / "games.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lobby = [tuple(v for n, f in re.findall(r"(\S+)\(([-+.\d]+)\)", line) for v in (n, f))
             for line in LOBBY.splitlines()]
    files = [tmp / "games.csv", _finals_csv(tmp / "s_lobby.csv", lobby, "2026-04-11", "Spring"),
             _finals_csv(tmp / "s_summer.csv", MLEAGUE, "2026-06-06", "Summer"),
             _finals_csv(tmp / "s_final.csv", FINAL_PUBLISHED, "2026-09-06", "Final")]
    (tmp / "penalties.csv").write_text(
        "date,stage,player,team,points,reason\n"
        f"2026-04-04,{PENALTY[0]},{PENALTY[1]},,{PENALTY[2]},{PENALTY[3]}\n", encoding="utf-8")
    season = load_season(tmp / "season3.ini")
    games = [row for f in files for row in game_rows(f, season)]
    return run_season(season, games, penalty_rows(tmp / "penalties.csv"))


CENT = D("0.01")


def _avg_place(p: Any) -> D | None:
    games = sum(p.places)
    if not games:
        return None
    mean = D(sum(k * n for k, n in enumerate(p.places, 1))) / games
    return mean.quantize(CENT, rounding=ROUND_HALF_UP)


def lines(result: SeasonResult) -> list[list[tuple[Any, ...]]]:
    """Each stage's player table, then its team table, as compared across views: name,
    rank (None: not ranked), games, carried, points, chips, penalties, total, average
    place (players), advanced, not ranked (below min_games); amounts to 0.01."""
    out = []
    for sr in result.stages:
        for kind, table in (("players", sr.players), ("teams", sr.teams)):
            out.append([(p.name, p.rank, p.games, p.carried.quantize(CENT),
                         p.points.quantize(CENT), p.chips.quantize(CENT),
                         p.penalties.quantize(CENT), p.total.quantize(CENT),
                         _avg_place(p) if kind == "players" else None, p.advanced,
                         not p.qualified) for p in table])
    return [t for t in out if t]


def _num(v: Any) -> D:
    return D(str(v or 0)).quantize(CENT, rounding=ROUND_HALF_UP)


def sheet_lines(rows: list[list[Any]]) -> list[tuple[Any, ...]]:
    """The same from Season standings rows: a player table's (Rank, Player, Team, Games,
    Carried, Points, Chips, Penalties, Stage, Total, Average, Avg place, Advanced,
    Decided by, Flags) or a team table's (Rank, Team, Games, Carried, Points, Chips,
    Penalties, Stage, Total, Average, Advanced, Decided by)."""
    out = []
    for r in rows:
        team = r[1] not in PLAYERS
        k = -1 if team else 0  # a team table has no Team column
        out.append((r[1], None if r[0] in ("", None) else int(r[0]), int(r[3 + k]),
                    _num(r[4 + k]), _num(r[5 + k]), _num(r[6 + k]), _num(r[7 + k]),
                    _num(r[9 + k]), None if team or r[11] in ("", None) else _num(r[11]),
                    r[10 if team else 12] not in ("", None),
                    not team and "Not ranked" in str(r[14] or "")))
    return out


def tables(ws: Any) -> list[list[list[Any]]]:
    """The player and team tables of a Season standings sheet (live or settled): the
    rows naming a player or team under each "Rank" header, up to the first that names
    neither (the chart's table of team totals below is not one of them); the settled
    copy's "Not qualified" line heads the rest of the same table."""
    out: list[list[list[Any]]] = []
    inside = False
    for row in ws.iter_rows(min_row=4, max_col=15, values_only=True):
        if str(row[0]).startswith("Not qualified"):
            continue
        if row[0] == "Rank":
            out.append([])
            inside = True
        elif inside and row[1] in (*PLAYERS, *TEAMS):
            out[-1].append(list(row))
        else:
            inside = False
    return [t for t in out if t]


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, SeasonResult]:
    tmp = tmp_path_factory.mktemp("truth")
    return build(tmp), engine(tmp)


def test_the_season_is_what_it_should_be(season: tuple[Path, SeasonResult]) -> None:
    """Worked by hand where a slip would hide: the substitute's seat counts for Fumi, the
    penalty for Dan, lobby and M.League finals count like typed games, Eri (2 games) is
    not ranked in Spring, and the Final ranks everybody it has."""
    _, result = season
    spring, summer, final = result.stages
    sp = {p.name: p for p in spring.players}
    # Fumi: the substituted seat (45,100 1st: +15.1 + 30 + 20 = 65.1) and two lobby games
    assert sp["Fumi"].games == 3 and sp["Fumi"].total == D("65.1") - 40 + D("9.1")
    assert sp["Dan"].penalties == D(-10)
    assert [p.name for p in spring.players if p.rank is None] == ["Eri"]
    assert all(p.rank is not None for p in summer.players)
    assert all(p.rank is not None for p in final.players)


def printed(out: str) -> list[list[tuple[Any, ...]]]:
    """The player tables ``umaoka season`` prints: (name, rank, games, total) per line,
    read by the table's header (its columns vary with what the stage has)."""
    stages: list[list[tuple[Any, ...]]] = []
    header: list[str] = []
    for line in out.splitlines():
        cells = line.split()
        if cells[:2] == ["#", "Player"]:  # one player table a stage
            header = cells
            stages.append([])
        elif header and len(cells) > 1 and cells[1] in PLAYERS:
            row = dict(zip(header, cells))
            stages[-1].append((row["Player"], None if row["#"] == "-" else int(row["#"]),
                               int(row["G"]), D(row["Total"]).quantize(CENT)))
    return stages


def test_umaoka_season_prints_it(season: tuple[Path, SeasonResult],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The printed tables, the not-ranked lines included, under their own headers."""
    path, result = season
    tmp = path.parent
    files = [str(tmp / n) for n in ("games.csv", "s_lobby.csv", "s_summer.csv",
                                    "s_final.csv")]
    assert main(["season", str(tmp / "season3.ini"), *files, "--penalties",
                 str(tmp / "penalties.csv")]) == 0
    out = capsys.readouterr().out
    assert "Not ranked (fewer than 3 games):" in out
    assert printed(out) == [[(p.name, p.rank, p.games, p.total.quantize(CENT))
                             for p in sr.players] for sr in result.stages]


def test_the_workbook_and_its_settled_copy(season: tuple[Path, SeasonResult],
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, result = season
    want = lines(result)
    # the published results' table numbers are numbers, as typed ones are
    assert load_workbook(path)["Summer"]["C5"].value == 1
    assert lines(season_result(read_book(path))) == want
    saved = tables(load_workbook(path, data_only=True)["Season standings"])
    assert [sheet_lines(t) for t in saved] == want
    out = tmp_path / "settled.xlsx"
    assert main(["settle", str(path), "-o", str(out)]) == 0
    # its summary: Fumi's worst game is the lobby's -40.0, in tenths like the typed games
    fumi = next(line for line in capsys.readouterr().out.splitlines() if " Fumi " in line)
    assert fumi.split()[-2:] == ["+65.1", "-40.0"]
    settled = tables(load_workbook(out)["Season standings"])
    assert [sheet_lines(t) for t in settled] == want
    # the tabs' standings: each stage's points (games, chips at the stage's value, the
    # penalty log; the substitute's seat counts for Fumi both ways with substitutes =
    # player), with no carried points and no min_games: totals only
    values = load_workbook(path, data_only=True)
    for sr in result.stages:
        assert tab_totals(values[f"{sr.stage.name} Standings"]) == stage_points(sr)


def stage_points(sr: Any) -> dict[str, D]:
    """A stage's points before carry-over, per player with games."""
    return {p.name: p.stage_total for p in sr.players if p.games}


def tab_totals(ws: Any, value: Any = None) -> dict[str, D]:
    """A league tab's standings: player -> Total (``value``: a cell's value by address)."""
    get = value or (lambda ref: ws[ref].value)
    out, r = {}, 5
    while get(f"B{r}") not in (None, ""):
        out[get(f"B{r}")] = D(str(get(f"D{r}"))).quantize(D("0.1"))
        r += 1
    return out


def test_the_live_workbook(season: tuple[Path, SeasonResult]) -> None:
    """pycel with umaoka's functions: each Season standings player table is MJ_SEASON
    called with the workbook's own ranges; the Final tab's standings its own formulas."""
    import test_live_season as live
    from pycel import ExcelCompiler
    from test_pycel import pycel_functions

    path, result = season
    with pycel_functions("umaoka_one_truth_plugin", mj_season=live.mj_season,
                         _xldudf_mj_season=live.mj_season,
                         error_type=live.error_type) as plugin:
        live.MODE["now"] = "on"
        xl = ExcelCompiler(filename=str(path), plugins=[plugin])
        ws = load_workbook(path, data_only=True)["Season standings"]
        heads = [c.row for c in ws["A"] if c.value == "Rank"]
        shown = []
        for h in heads:
            rows, r = [], h + 1
            while xl.evaluate(f"'Season standings'!B{r}") not in ("", None):
                rows.append([xl.evaluate(f"'Season standings'!{chr(65 + c)}{r}")
                             for c in range(15)])
                r += 1
            shown.append(rows)
        shown = [t for t in shown if t and t[0][1] in (*PLAYERS, *TEAMS)]
        assert [sheet_lines(t) for t in shown] == lines(result)
        # the Final's tab (typed and published games, a stage added after games): pycel
        # takes some 15 s a tab, and the saved values and LibreOffice cover the others
        final = result.stages[2]
        assert tab_totals(None, lambda ref: xl.evaluate(f"'Final Standings'!{ref}")) == \
            stage_points(final)


@pytest.mark.skipif(shutil.which("soffice") is None and shutil.which("libreoffice") is None,
                    reason="LibreOffice (soffice) is not installed")
def test_libreoffice_hard_recalculation(season: tuple[Path, SeasonResult],
                                        tmp_path: Path) -> None:
    """Without umaoka's functions (LibreOffice, every formula computed again): the
    Season standings keep the engine's tables, and the tabs' standings (the typed games'
    finals given as values, as Excel shows MJ_SETTLE's results) the stage points."""
    from test_alive import hard_recalculated

    from umaoka.engine import settle
    from umaoka.engine.resolve import ruleset

    path, result = season
    wb = load_workbook(path)
    rules = ruleset("mleague")
    for name, rows in (("Spring", [g[1] for g in SPRING]), ("Final", [FINAL_TYPED[1]])):
        ws = wb[name]
        head = {ws.cell(4, c).value: c for c in range(1, ws.max_column + 1)}
        for i, scores in enumerate(rows):
            final = settle(scores, rules).final
            for s, seat in enumerate(("East", "South", "West", "North")):
                ws.cell(5 + i, head[f"{seat} final"]).value = float(final[s])
    wb.save(tmp_path / "filled.xlsx")
    back = load_workbook(hard_recalculated(tmp_path / "filled.xlsx", "xlsx", tmp_path),
                         data_only=True)
    standings = back["Season standings"]
    assert [sheet_lines(t) for t in tables(standings)] == lines(result)
    assert standings["A3"].value in ("", None)  # nothing changed since they were written
    for sr in result.stages:
        assert tab_totals(back[f"{sr.stage.name} Standings"]) == stage_points(sr)
