"""``umaoka season``: a season from a season file and CSV files, printed in 80 columns."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from umaoka.addin.cli.app import main
from umaoka.addin.cli.season import table

DATA = Path(__file__).parent / "data"

HEADER = ("stage,date,east,east_score,south,south_score,west,west_score,north,north_score,"
          "deposits,east_chips,south_chips,west_chips,north_chips,north_sub,east_penalty")


def write_games(path: Path, rows: list[dict[str, object]]) -> Path:
    cols = HEADER.split(",")
    lines = [HEADER] + [",".join(str(r.get(c) or "") for c in cols) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fits(text: str) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= 80, line


def test_the_mleague_like_season(capsys: pytest.CaptureFixture[str]) -> None:
    season, games, pens = (DATA / f"mleague_like{x}" for x in (".ini", "_games.csv",
                                                               "_penalties.csv"))
    code, out, err = run(capsys, "season", str(season), str(games), "--penalties", str(pens))
    assert code == 0 and err == ""
    fits(out)
    lines = out.splitlines()
    assert lines[0] == "M.League-like 2026"
    assert "Regular season: 3 games, mleague rules, ranked by total" in lines
    assert ("Carried in: half of each team's total in the previous stage, to 0.1 (half_up)."
            in lines)
    # The semifinal's team table: carried, points, penalties, total, average, advanced.
    assert "1  A     2    +24.1    +7.4      0  +31.5  +3.70  on" in lines
    assert "2  C     2    +15.5   +20.4  -20.0  +15.9  +0.20  on" in lines
    assert "4  F     2    -16.9   -18.6      0  -35.5  -9.30" in lines
    assert "1  C     2     +8.0   +35.0  +43.0  +17.50" in lines  # the final: C wins
    assert any(line.startswith("2  A1") and line.endswith("tb:earlier") for line in lines)
    assert "on: goes on to Final (top 2)." in lines
    assert "2026-02-07  Semifinal  C1              -20  chombo" in lines

    code, out, _ = run(capsys, "season", str(season), str(games), "--stage", "final")
    assert code == 0
    assert "Semifinal:" not in out and "Final: 1 game, mleague rules" in out


def test_json_season_chips_subs_and_warnings(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    season = tmp_path / "club.json"
    season.write_text(json.dumps({
        "name": "Club", "chip_value": 2, "substitutes": "player",
        "stages": [{"name": "Spring", "min_games": 2, "game_caps": "2-3"}],
        "teams": {"Kadokawa Sakura Knights and a very long team name": ["佐藤太郎の長い名前です",
                                                                        "Bartholomew Smythe"],
                  "Phoenix": ["Chie", "Dan"]}}), encoding="utf-8")
    games = write_games(tmp_path / "games.csv", [
        {"east": "佐藤太郎の長い名前です", "east_score": 35700, "south": "Bartholomew Smythe",
         "south_score": 32400, "west": "Chie", "west_score": 22200, "north": "Dan",
         "north_score": 9700, "east_chips": 5, "south_chips": -1, "west_chips": -2,
         "north_chips": -2, "north_sub": "Zed", "east_penalty": -20},
        {"east": "Chie", "east_score": 30000, "south": "Dan", "south_score": 30000,
         "west": "佐藤太郎の長い名前です", "west_score": 25000, "north": "Bartholomew Smythe",
         "north_score": 15000},
        {"east": "Chie", "east_score": 30000, "south": "Dan", "south_score": 30000,
         "west": "Bartholomew Smythe", "west_score": 25000, "north": "Quentin",
         "north_score": 15000},
    ])
    code, out, err = run(capsys, "season", str(season), str(games))
    assert code == 0
    fits(out)
    assert err.splitlines() == [
        "umaoka: warning: games.csv row 4: Quentin is not on the season's roster or any team; fix "
        "the name or add the player."]
    assert "Chips" in out and "Pen." in out and "Not ranked (fewer than 2 games):" not in out
    assert "Dan played 2 games" not in out
    assert "Spring: Dan played 1 game, fewer than the minimum of 2" in out
    assert "…" in out  # long names are shortened to fit


@pytest.mark.parametrize("files, words", [
    ({"s.ini": "[stage A]\nadvance = 2\n"}, "s.ini: the last stage (A) says advance = 2"),
    ({"s.ini": "[season]\nrulset = mleague\n"}, 'Did you mean "ruleset"'),
    ({"s.json": "[1, 2]"}, "one object of settings"),
    ({"s.ini": "[stage A]\n[stage B]\ncarry = half\n", "g.csv": "east,east_score\n"},
     "g.csv lacks the column(s) stage, south, south_score"),
])
def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             files: dict[str, str], words: str) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    season = next(n for n in files if n.startswith("s."))
    games = tmp_path / "g.csv"
    if not games.exists():
        games.write_text(HEADER + "\n", encoding="utf-8")
    code, _, err = run(capsys, "season", str(tmp_path / season), str(games))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("umaoka: error: ")
    assert words in err


def test_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "season", str(tmp_path / "none.ini"), "g.csv")
    assert code == 2 and "none.ini does not exist" in err
    (tmp_path / "s.ini").write_text("name = x\n", encoding="utf-8")
    (tmp_path / "p.csv").write_text("who,what\nAki,-5\n", encoding="utf-8")
    write_games(tmp_path / "g.csv", [])
    code, _, err = run(capsys, "season", str(tmp_path / "s.ini"), str(tmp_path / "g.csv"),
                       "--penalties", str(tmp_path / "p.csv"))
    assert code == 2 and "p.csv needs the columns points and player (or team)" in err


def test_table_shrinks_names_to_fit() -> None:
    rows = [["1", "A" * 60, "B" * 40, "+12.5"]]
    lines = table(["#", "Player", "Team", "Total"], rows, left=(1, 2))
    assert all(cell_len(x) <= 80 for x in lines)
    assert lines[1].endswith("+12.5") and "…" in lines[1]


@pytest.mark.parametrize("name", [
    "umaoka.engine.season.stages", "umaoka.engine.season.settings", "umaoka.engine.season.ranking",
    "umaoka.engine.season.teams", "umaoka.engine.season.gamelog", "umaoka.engine.season.penalties",
    "umaoka.engine.season.substitutes"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_games_saved_by_japanese_excel_read_as_shift_jis(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # plain "CSV" from Japanese Excel is Shift-JIS (cp932): names read as written
    season = tmp_path / "s.ini"
    season.write_text("[season]\nname = 冬\n\n[stage 1]\nname = 予選\nruleset = mleague\n",
                      encoding="utf-8")
    games = write_games(tmp_path / "g.csv", [{
        "stage": "予選", "east": "高橋", "east_score": 45000, "south": "佐藤",
        "south_score": 30000, "west": "鈴木", "west_score": 15000, "north": "田中",
        "north_score": 10000}])
    games.write_bytes(games.read_text(encoding="utf-8").encode("cp932"))
    code, out, err = run(capsys, "season", str(season), str(games))
    assert code == 0 and err == ""
    assert "高橋" in out and "+65.0" in out
    games.write_bytes(b"\x81\xff\xfe\x00bad")
    code, _, err = run(capsys, "season", str(season), str(games))
    assert code == 2 and "is not text in UTF-8, UTF-16 or Shift-JIS" in err


# ------------------------------------------------------------------------------------------------
# The league workbook itself: `umaoka add --stage --carry --advance`, `umaoka season BOOK`.


def _cli_stages(out: str) -> dict[str, dict[str, dict[str, str]]]:
    """`umaoka season`'s player tables: stage -> player -> column -> text."""
    stages: dict[str, dict[str, dict[str, str]]] = {}
    lines = out.splitlines()
    stage = header = None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and set(lines[i + 1]) == {"="}:
            stage, header = line.split(":")[0], None
        elif stage and line.split()[:2] == ["#", "Player"]:
            header = line.split()
        elif stage and header and line.strip() and line.split()[0] in ("-",) + tuple(
                str(k) for k in range(1, 100)):
            cells = line.split()
            stages.setdefault(stage, {})[cells[1]] = dict(zip(header, cells))
        elif not line.strip() and header and stages.get(stage):
            header = None if not lines[i + 1:i + 2] or "Not ranked" not in lines[i + 1] \
                else header
    return stages


def _saved_stages(path: Path) -> dict[str, dict[str, list[object]]]:
    """The Season standings' saved values: stage -> player -> row (rank, name, team, games,
    carried, points, chips, penalties, stage, total...)."""
    from openpyxl import load_workbook

    ws = load_workbook(path, data_only=True)["Season standings"]
    out: dict[str, dict[str, list[object]]] = {}
    stage = heading = None
    for row in ws.iter_rows(min_row=4, values_only=True):
        first = row[0]
        if isinstance(first, str) and row[1] is None:
            heading = first
        elif first == "Rank":  # a player table's header; a team table's ends the stage
            stage = str(heading).split(" (")[0] if row[1] == "Player" else None
        elif stage and row[1] is not None and isinstance(row[3], int):
            out.setdefault(stage, {})[str(row[1])] = list(row)
    return out


def test_add_stage_with_carry_and_cut_then_season_of_the_workbook(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from decimal import ROUND_HALF_UP, Decimal

    from umaoka.templates.settle_book import read_book

    assert main(["demo", str(tmp_path), "--games", "60"]) == 0
    book = tmp_path / "demo_league.xlsx"
    capsys.readouterr()
    code, out, err = run(capsys, "add", str(book), "--stage", "Playoff", "--carry", "half",
                         "--advance", "2")
    assert code == 0 and err == ""
    assert out.splitlines()[-1] == ("Playoff carries half of Final 2026's points; the top 2 "
                                    "players of Final 2026 go on.")
    rows = read_book(book).season.stages
    assert [(r.name, r.advance, r.carry) for r in rows] == [
        ("Regular 2026", 4, None), ("Final 2026", 2, "half"), ("Playoff", None, "half")]
    # a bad carry or cut changes nothing
    before = book.read_bytes()
    code, _, err = run(capsys, "add", str(book), "--stage", "X", "--carry", "twice")
    assert code == 2 and 'carry "twice" is not a share of points' in err
    code, _, err = run(capsys, "add", str(book), "--stage", "X", "--advance", "-3")
    assert code == 2 and "advance" in err and book.read_bytes() == before
    code, _, err = run(capsys, "add", str(book), "--carry", "half")
    assert code == 2 and "go with --stage" in err

    # `umaoka season BOOK` prints what the Season standings show, every stage
    code, out, err = run(capsys, "season", str(book))
    assert code == 0
    fits(out)
    cli, saved = _cli_stages(out), _saved_stages(book)
    assert list(cli) == ["Regular 2026", "Final 2026", "Playoff"] == list(saved)
    for stage, players in saved.items():
        assert set(cli[stage]) == set(players), stage
        for name, row in players.items():
            line = cli[stage][name]
            assert line["#"] == ("-" if row[0] in (None, "") else str(row[0]))
            assert int(line["G"]) == row[3]
            assert Decimal(line["Total"]) == Decimal(str(row[9])), (stage, name)
            if "Carried" in line:
                assert Decimal(line["Carried"]) == Decimal(str(row[4] or 0))
    # the Playoff carries half of each finalist's Final total (to 0.1, half up), nothing
    # else yet: the top 2 of the Final
    finals = {n: Decimal(str(r[9])) for n, r in saved["Final 2026"].items()}
    playoff = {n: Decimal(cli["Playoff"][n]["Total"]) for n in cli["Playoff"]}
    assert set(playoff) == set(sorted(finals, key=finals.__getitem__)[-2:])
    assert all(playoff[n] == (finals[n] / 2).quantize(Decimal("0.1"), ROUND_HALF_UP)
               for n in playoff)
    # the workbook holds its own games: no CSV files with it
    code, _, err = run(capsys, "season", str(book), str(tmp_path / "games.csv"))
    assert code == 2 and "holds its own games" in err


def test_season_of_a_workbook_without_a_season_sheet(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "plain.xlsx")]) == 0
    capsys.readouterr()
    code, _, err = run(capsys, "season", str(tmp_path / "plain.xlsx"))
    assert code == 2 and "has no Season sheet" in err and "Traceback" not in err
    code, _, err = run(capsys, "season", str(DATA / "mleague_like.ini"))
    assert code == 2 and "give the CSV files of games" in err


def test_japanese_flags_warnings_and_check(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """#35 item 6: with --lang ja the Flags, the warnings' prefix and the tab's Check
    column's OK are Japanese (a row's problem itself stays the engine's English sentence,
    docs/season.md)."""
    from openpyxl import load_workbook

    season = tmp_path / "club.json"
    season.write_text(json.dumps({"name": "Club", "stages": [
        {"name": "Spring", "min_games": 1, "game_caps": "2-3"}]}), encoding="utf-8")
    games = write_games(tmp_path / "games.csv", [
        {"east": "Aki", "east_score": 35700, "south": "Ben", "south_score": 32400,
         "west": "Chie", "west_score": 22200, "north": "Dan", "north_score": 9700},
        {"east": "Aki", "east_score": 35700, "south": "Ben", "south_score": 32400,
         "west": "Chie", "west_score": 22200, "north": "Dan", "north_score": 9000},
    ])
    code, out, err = run(capsys, "season", str(season), str(games), "--lang", "ja")
    assert code == 0
    assert err.startswith("umaoka: 警告: games.csv row 3: ")
    assert "Spring: Aki 1局（最少 2局 未満）" in out and "played" not in out
    code, out, err = run(capsys, "season", str(season), str(games))
    assert err.startswith("umaoka: warning: games.csv row 3: ")
    assert "Spring: Aki played 1 game, fewer than the minimum of 2" in out

    assert main(["demo", str(tmp_path / "ja"), "--games", "60", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    flags = out[out.index("注意\n"):]
    assert "局（最多" in flags or "局（最少" in flags
    assert "played" not in flags and "more than" not in flags
    wb = load_workbook(tmp_path / "ja" / "demo_league.xlsx", data_only=True)
    tab = wb.worksheets[2]
    seen = {c for row in tab.iter_rows(min_row=5, max_row=40, values_only=True) for c in row
            if isinstance(c, str)}
    assert "正常" in seen and "OK" not in seen


@pytest.mark.parametrize("rules, points, chips, pen, total", [
    ("standard", "+45", "+2", "-20", "+27"),  # whole points: no .0 from a final typed 45.0
    ("tenhou", "+45.3", "+2.0", "-20.0", "+27.3"),  # tenths: every column with one decimal
])
def test_one_table_one_number_of_decimals(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          rules: str, points: str, chips: str, pen: str,
                                          total: str) -> None:
    """#35 item 7: a whole-point stage prints +45 as `settle` does (a final typed or
    imported as 45.0 included); Chips and Pen. have the decimals of Points."""
    season = tmp_path / "s.ini"
    season.write_text(f"[season]\nruleset = {rules}\nchip_value = 2\n[stage A]\n",
                      encoding="utf-8")
    final = "45.0" if rules == "standard" else "45.3"
    other = "-45.0" if rules == "standard" else "-45.3"
    games = tmp_path / "g.csv"
    games.write_text("east,east_final,south,south_final,west,west_final,north,north_final,"
                     "east_chips,south_chips,west_chips,north_chips,east_penalty\n"
                     f"Aki,{final},Ben,10.0,Chie,-10.0,Dan,{other},1,0,0,-1,-20\n",
                     encoding="utf-8")
    code, out, err = run(capsys, "season", str(season), str(games))
    assert code == 0 and err == ""
    aki = next(line.split() for line in out.splitlines() if " Aki " in f" {line} ")
    assert aki[3:7] == [points, chips, pen, total]
