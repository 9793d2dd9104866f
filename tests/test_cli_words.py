"""What the command line says (issue 24, items 13-15): counts that do not overlap, a seat
named by its wind and player, the Check column in the engine's words, Japanese reports,
tables that fit 80 columns when piped, and the small things (folders, dates, rooms)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter
from pycel import ExcelCompiler
from rich.cells import cell_len

from umaoka.addin import cli
from umaoka.engine import UmaokaError, ruleset, settle
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.results import check_text
from umaoka.templates.book.runtime import runtime
from umaoka.templates.build import LeagueCols, write_league
from umaoka.templates.settle_book import runtime_path

DATA = Path(__file__).parent / "data"
README = Path(__file__).parent.parent / "README.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, code: int) -> str:
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("umaoka: error: "), err
    return lines[0]


def _league(tmp_path: Path, rows: list[tuple[list[str], list[object]]],
            deposits: dict[int, int] | None = None) -> Path:
    """A league of ``rows`` (names, scores); ``deposits`` by row index."""
    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan", "Emi"])
    for i, (names, scores) in enumerate(rows):
        book.leagues[0].games.append(Game(players=names, scores=scores, penalties=[None] * 4,
                                          deposits=(deposits or {}).get(i)))
    return write_league(book, tmp_path / "league.xlsx")


GOOD = [35700, 32400, 22200, 9700]


# ------------------------------------------------------------------------------------------------
# Item 13: settle's summary


def test_settle_counts_rows_not_settled_apart_from_warnings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _league(tmp_path, [
        (["Aki", "Ben", "Chie", "Dan"], GOOD),
        (["Aki", "Ben", "Chie", "Dan"], [35700, 32400, 1650, 30250]),   # row 6: West's 1,650
        (["Aki", "Ben", "chie", "Dan"], GOOD),                          # row 7: case only
        (["Aki", "Ben", "Chie", "Dan"], [35.7, 32.4, 22.2, 9.7]),       # row 8: thousands
        (["Aki", "Bob", "Chie", "Dan"], GOOD),                          # row 9: not on roster
        (["Emi", "Ben", "Chie", "Dan"], GOOD),
    ])
    code, out, err = run(capsys, "settle", str(path))
    assert code == 0, err
    # 6 rows: 4 settled (2 of them with a warning), 2 not settled
    assert out.strip().endswith(": 4 games settled, 2 rows not settled, 2 warnings"), out
    lines = err.strip().splitlines()
    assert len(lines) == 4 and all(line.count("warning:") == 1 for line in lines), err
    assert ("umaoka: warning: League!row 6: West (Chie)'s score (1,650) is not a whole "
            "multiple of 100") in err
    assert "League!row 8: the scores look typed in thousands (35.7 for 35,700)" in err
    assert 'League!row 7: "chie" differs from "Chie"' in err
    assert 'League!row 9: "Bob" is not on the Players sheet' in err


def test_check_column_says_typed_in_thousands_as_the_engine_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The live Check formula (pycel), the saved value (check_text) and the engine agree."""
    from pycel import excelwrapper
    from test_pycel import _defined_names

    monkeypatch.setattr(excelwrapper.ExcelOpxWrapper, "defined_names",
                        property(_defined_names))
    rows = {
        "Typed in thousands": [35.7, 32.4, 22.2, 9.7],
        "Typed in hundreds": [357, 324, 222, 97],
        "Off by -100": [35700, 32400, 22200, 9600],
        "Not x100": [35750, 32350, 22200, 9700],
        "OK": GOOD,
        "Typed in thousands ": [35.7, 32.4, 22.2, 8.7],  # with 1 (1,000) in deposits
    }
    path = _league(tmp_path, [(["Aki", "Ben", "Chie", "Dan"], s) for s in rows.values()],
                   deposits={5: 1})
    xl = ExcelCompiler(filename=str(path))
    col = get_column_letter(LeagueCols(4).check)
    rules = ruleset("standard")
    saved = load_workbook(path, data_only=True)["League"]
    for row, (want, scores) in enumerate(rows.items(), 5):
        want = want.strip()
        assert xl.evaluate(f"League!{col}{row}") == want, (row, scores)
        game = Game(players=["Aki", "Ben", "Chie", "Dan"], scores=scores,
                    deposits=1 if row == 10 else None)
        assert check_text(game, rules, "en") == want
        assert saved[f"{col}{row}"].value == want
    with pytest.raises(UmaokaError, match="typed in thousands"):
        settle([35.7, 32.4, 22.2, 8.7], rules, 1)
    assert check_text(Game(players=["A", "B", "C", "D"], scores=rows["Typed in thousands"]),
                      rules, "ja") == "千点単位で入力"
    with pytest.raises(UmaokaError, match="typed in thousands"):
        settle(rows["Typed in thousands"], rules)
    with pytest.raises(UmaokaError, match="typed in hundreds"):
        settle(rows["Typed in hundreds"], rules)


# ------------------------------------------------------------------------------------------------
# Item 14: --lang ja


def test_season_report_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    season, games, pens = (DATA / f"mleague_like{x}" for x in (".ini", "_games.csv",
                                                               "_penalties.csv"))
    code, out, err = run(capsys, "season", str(season), str(games), "--penalties", str(pens),
                         "--lang", "ja")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    assert "Regular season: 3局、mleague ルール、合計順" in lines
    assert "持ち越し: 前ステージの各チームの合計の半分、0.1単位（half_up）。" in lines
    team_head = next(line for line in lines if line.startswith("順位") and "持越" in line)
    assert team_head.split() == ["順位", "チーム", "局", "持越", "ポイント", "罰符", "合計",
                                 "平均", "備考"]
    assert "進出: Finalへ進出（上位2名）。" in lines
    assert "   1  A        2  +24.1      +7.4      0  +31.5  +3.70  進出" in lines
    assert "罰符記録" in lines
    for english in ("games,", "ranked by", "Team", "Points", "Carried in", "Penalty log"):
        assert english not in out, english


def test_settle_summary_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", str(tmp_path), "--games", "40", "--lang", "ja"]) == 0
    capsys.readouterr()
    book = tmp_path / "demo_league.xlsx"
    code, out, err = run(capsys, "settle", str(book), "-o", str(tmp_path / "ja.xlsx"),
                         "--lang", "ja")
    assert code == 0, err
    last = out.strip().splitlines()[-1]
    assert last == f"{tmp_path / 'ja.xlsx'} を書き出しました: 40局を精算", last
    assert "局、mleague ルール、合計順" in out and "ranked by" not in out
    assert "demo_league.xlsx: 40局" in out


def test_demo_and_batch_lines_in_japanese(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo", str(tmp_path), "--games", "24", "--lang", "ja")
    assert code == 0, err
    assert "デモリーグ: 24局、2ステージ、ルール mleague" in out
    assert f"{tmp_path / 'demo_league_settled.xlsx'} を書き出しました（確定版" in out
    assert "wrote" not in out and "ranked by" not in out
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "night.csv").write_text(
        "date,session,table,game,east,east_score,south,south_score,west,west_score,north,"
        "north_score\n2026-04-04,1,1,1,Aki,35700,Ben,32400,Chie,22200,Dan,9700\n"
        "2026-04-04,1,1,2,Aki,35700,Ben,32400,Chie,22200,Dan,9600\n", encoding="utf-8")
    code, out, err = run(capsys, "batch", str(folder), "--lang", "ja")
    assert code == 0, err
    assert out.strip() == (f"{folder / 'night.xlsx'} を書き出しました: 1局を精算、"
                           "精算できない行 1")


# ------------------------------------------------------------------------------------------------
# Tables fit an 80-column terminal, also when the output is not a terminal


def test_piped_tables_take_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["demo", str(tmp_path), "--games", "60"]) == 0
    out = capsys.readouterr().out
    tables = [line for line in out.splitlines() if not line.startswith("wrote ")]
    assert max(cell_len(line) for line in tables) <= 80, max(map(cell_len, tables))
    header = next(line for line in tables if "Player" in line)
    assert "Total" in header and "Best" not in header  # dropped to fit, not cut


def test_piped_tables_without_columns_keep_every_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert cli.main(["demo", str(tmp_path), "--games", "60"]) == 0
    header = next(line for line in capsys.readouterr().out.splitlines() if "Player" in line)
    assert "Best" in header and "Worst" in header


def test_screen_fixture_reaches_the_commands(tmp_path: Path, screen: io.StringIO) -> None:
    assert cli.main(["demo", str(tmp_path), "--games", "40"]) == 0
    assert "Player" in screen.getvalue()  # the standings went to the 80-column screen


# ------------------------------------------------------------------------------------------------
# Item 15: the small ones


def test_settle_makes_the_output_folder(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = _league(tmp_path, [(["Aki", "Ben", "Chie", "Dan"], GOOD)])
    out = tmp_path / "settled" / "spring" / "x.xlsx"
    code, text, err = run(capsys, "settle", str(path), "-o", str(out))
    assert code == 0, err
    assert out.is_file() and text.strip().endswith(f"wrote {out}: 1 game settled")
    # a settled copy is a report: settling it is refused with one sentence
    code, _, err = run(capsys, "settle", str(out))
    assert one_error(err, code) == (f"umaoka: error: {out} is a settled copy (a report, from "
                                    "league.xlsx); settle the league workbook instead.")


def test_seating_into_takes_the_date_and_checks_the_league_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "club.xlsx"
    assert run(capsys, "new", str(book), "--players", "Aki,Ben,Chie,Dan")[0] == 0
    code, out, err = run(capsys, "seating", "Aki,Ben,Chie,Dan", "--rounds", "2", "--into",
                         str(book), "--league", "Nope")
    assert out == ""  # no plan printed before the failure
    assert one_error(err, code) == ('umaoka: error: the workbook has no league "Nope"; its '
                                    "leagues: League.")
    code, _, err = run(capsys, "seating", "Aki,Ben,Chie,Dan", "--rounds", "2", "--date", "4/4")
    assert "give it as YYYY-MM-DD" in one_error(err, code)
    code, out, err = run(capsys, "seating", "Aki,Ben,Chie,Dan", "--rounds", "2", "--into",
                         str(book), "--date", "2026-04-04")
    assert code == 0, err
    ws = load_workbook(book)["League"]
    assert [ws.cell(r, 1).value.date().isoformat() for r in (5, 6)] == ["2026-04-04"] * 2
    assert [ws.cell(r, 2).value for r in (5, 6)] == [1, 2]
    assert ws.cell(7, 1).value is None


def test_runtime_names_do_not_double_the_suffix() -> None:
    assert runtime_path(Path("X_classic.xlsx"), runtime("classic")).name == "X_classic.xlsx"
    assert runtime_path(Path("X_classic.xlsx"), runtime("lite")).name == "X_lite.xlsx"
    assert runtime_path(Path("club.xlsx"), runtime("server")).name == "club_server.xlsx"
    assert runtime_path(Path("_lite.xlsx"), runtime("classic")).name == "_lite_classic.xlsx"


def test_rankpoints_room_of_the_other_system(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rankpoints", "--room", "jade", "1")
    assert one_error(err, code) == ("umaoka: error: jade is a Mahjong Soul room; add --system "
                                    "mahjongsoul (the default system is tenhou).")
    code, _, err = run(capsys, "rankpoints", "--room", "鳳凰", "--system", "mahjongsoul", "1")
    assert one_error(err, code) == "umaoka: error: 鳳凰 is a Tenhou room; use --system tenhou."
    from umaoka.engine.online.rankpoints import rank_points

    with pytest.raises(UmaokaError, match='room "jade" is a Mahjong Soul room; give the '
                       "system mahjongsoul"):
        rank_points(1, room="jade", rank="七段")
    code, out, err = run(capsys, "rankpoints", "--room", "jade", "--system", "mahjongsoul",
                         "--rank", "雀豪1", "1", "--score", "41200")
    assert code == 0, err


def test_settle_help_has_a_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["settle", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Writes a report beside the league workbook" in " ".join(out.split())


def test_readme_quick_start_names_no_placeholder() -> None:
    text = README.read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "<umaoka repository>" not in text and "<" not in quick.split("```bash")[1]
    assert "pip install . && umaoka demo demo" in quick


def test_check_column_in_libreoffice_says_the_same(tmp_path: Path) -> None:
    """LibreOffice, computing the Check formulas from scratch, shows what umaoka saved."""
    from test_alive import needs_lo, recalculated_alike

    if needs_lo.args[0]:
        pytest.skip("LibreOffice (soffice) is not installed")
    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    for scores in ([35.7, 32.4, 22.2, 9.7], [357, 324, 222, 97], [35700, 32400, 22200, 9600],
                   [35750, 32350, 22200, 9700], GOOD, [35.7, 32.4, 22.2, 8.7]):
        book.leagues[0].games.append(Game(players=["Aki", "Ben", "Chie", "Dan"], scores=scores,
                                          penalties=[None] * 4,
                                          deposits=1 if scores[-1] == 8.7 else None))
    saved, theirs, checked = recalculated_alike(book, tmp_path)
    col = get_column_letter(LeagueCols(4).check)
    assert [theirs[("League", f"{col}{r}")] for r in range(5, 11)] == [
        "Typed in thousands", "Typed in hundreds", "Off by -100", "Not x100", "OK",
        "Typed in thousands"]
    assert checked > 100
