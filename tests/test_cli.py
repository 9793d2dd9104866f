"""The umaoka command line: every command, its errors, --force and atomic writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.engine import __version__


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("umaoka: error: ")
    assert "Traceback" not in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"umaoka {__version__}"


def test_new_and_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "league.xlsx"
    code, out, err = run(capsys, "new", str(path), "--ruleset", "mleague; ties=seat",
                         "--leagues", "Spring 2026,Summer 2026", "--players",
                         "Aki,=cmd|' /C calc'!A0,Ben", "--lang", "en")
    assert code == 0 and f"wrote {path}" in out and not err
    wb = load_workbook(path)
    assert "Rules - mleague-ties-seat" in wb.sheetnames
    assert wb["Players"]["A6"].value == "=cmd|' /C calc'!A0"
    assert wb["Players"]["A6"].data_type == "s"
    before = path.read_bytes()
    code, _, err = run(capsys, "new", str(path))
    assert code == 2
    one_line_error(err)
    assert "--force" in err and path.read_bytes() == before
    code, _, _ = run(capsys, "new", str(path), "--force", "--lang", "ja")
    assert code == 0 and "プレイヤー" in load_workbook(path).sheetnames
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files


@pytest.mark.parametrize("argv, words", [
    (["new", "x.xlsx", "--ruleset", "mleeague"], 'Did you mean "mleague"'),
    (["new", "x.txt"], "should end in .xlsx"),
    (["new", "nofolder/x.xlsx"], "does not exist"),
    (["new", "x.xlsx", "--leagues", "a:b"], "cannot be a sheet name"),
    (["calc", "25000", "25000", "25000"], "expected 4 scores"),
    (["calc", "25000", "25000", "25000", "24000"], "1,000 missing"),
    (["calc", "--deposits", "x", "25000", "25000", "25000", "25000"],
     'deposits ("x") is not a number'),
    (["calc", "--deposits", "1_000", "25000", "25000", "25000", "24000"],
     'deposits ("1_000") is not a number'),
    (["seating", "8", "--rounds", "1_0"], '"1_0" is not a whole number'),
    (["settle", "missing.xlsx"], "does not exist"),
    (["batch", "nofolder"], "not a folder"),
    (["frobnicate"], "invalid choice"),
    (["demo", "--games", "0"], "--games"),
])
def test_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch, argv: list[str],
                             words: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    one_line_error(err)
    assert words in err


def test_calc_negative_scores(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "calc", "45000", "33000", "-1200", "23200")
    assert code == 0, err
    assert "Final: +55  +13  -51  -17" in out
    code, out, _ = run(capsys, "calc", "--ruleset", "mleague", "--deposits", "1000",
                       "30000", "30000", "-2000", "41000")
    assert code == 0 and "Final:" in out and "Oka 20,000 to 1st" in out
    code, out, _ = run(capsys, "calc", "-1200", "45000", "33000", "23200", "--ruleset",
                       "standard")
    assert code == 0 and "Final: -51  +55  +13  -17" in out


def test_presets_and_addin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets")
    assert code == 0 and "mleague" in out and "jpml-a" in out
    code, out, _ = run(capsys, "addin")
    assert code == 0 and "UDF Modules" in out and "umaoka.addin.udfs" in out
    code, out, _ = run(capsys, "addin", "--config")
    assert code == 0 and out.startswith("UDF Modules\tumaoka.addin.udfs")


def test_lite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lite", str(tmp_path / "lite"))
    assert code == 0 and (tmp_path / "lite" / "main.py").exists()
    code, _, err = run(capsys, "lite", str(tmp_path / "lite"))
    assert code == 2
    one_line_error(err)
    code, _, _ = run(capsys, "lite", str(tmp_path / "lite"), "--force")
    assert code == 0


def test_demo_and_settle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo", str(tmp_path), "--games", "24")
    assert code == 0, err
    assert "Demo league: 24 games" in out and "Hana" in out
    filled, settled = tmp_path / "demo_league.xlsx", tmp_path / "demo_league_settled.xlsx"
    assert filled.exists() and settled.exists()
    code, _, err = run(capsys, "demo", str(tmp_path), "--games", "24")
    assert code == 2 and "already exists" in err
    # settle: default name, refuses to overwrite, never the input, -o
    import umaoka.templates.settle_book as settle_book

    def unread(_path: Path) -> None:
        raise AssertionError("the workbook was read before the output was checked")

    with pytest.MonkeyPatch.context() as mp:  # refused before seconds of reading
        mp.setattr(settle_book, "read_book", unread)
        code, _, err = run(capsys, "settle", str(filled))
    assert code == 2 and "already exists" in err  # demo_league_settled.xlsx is there
    code, out, err = run(capsys, "settle", str(filled), "--force")
    assert code == 0 and "24 games settled" in out, err
    assert ", mleague rules, ranked by" in out  # the preset read back keeps its name
    code, _, err = run(capsys, "settle", str(filled), "-o", str(filled), "--force")
    assert code == 2 and "input workbook" in err
    out_path = tmp_path / "copy.xlsx"
    code, out, _ = run(capsys, "settle", str(filled), "-o", str(out_path))
    assert code == 0 and out_path.exists()
    wb = load_workbook(out_path)
    assert not any(c.data_type == "f" for ws in wb.worksheets for row in ws.iter_rows()
                   for c in row)


def test_settle_warns_with_sheet_and_row(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "l.xlsx"
    assert run(capsys, "new", str(path), "--players", "A,B,C,D")[0] == 0
    wb = load_workbook(path)
    ws = wb["League"]
    for c, v in zip("EFGHIJKL", ["A", "B", "C", "D", 35700, 32400, 22200, 9000]):
        ws[f"{c}7"] = v
    wb.save(path)
    code, out, err = run(capsys, "settle", str(path))
    assert code == 0
    assert err.startswith("umaoka: warning: League!row 7: scores add up to 99,300")
    assert "0 games settled, 1 row not settled" in out


def test_settle_not_ours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"PK\x03\x04garbage")
    code, _, err = run(capsys, "settle", str(junk))
    assert code == 2
    one_line_error(err)


def test_batch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "csv"
    folder.mkdir()
    header = ("date,session,table,game,east,east_score,south,south_score,west,west_score,"
              "north,north_score,deposits,east_penalty\n")
    (folder / "spring.csv").write_text(
        header
        + "2026-04-04,1,1,1,Aki,35700,Ben,32400,Chie,22200,Dan,9700,,\n"
        + "2026-04-04,1,1,2,Ben,40000,=evil,30000,Chie,20000,Dan,10000,,-20\n"
        + "2026-04-04,1,1,3,Aki,40000,Ben,30000,Chie,20000,Dan,9000,,\n")
    (folder / "bad.csv").write_text("date,east\n1,2\n")
    code, out, err = run(capsys, "batch", str(folder), "--ruleset", "standard")
    assert code == 2
    assert "wrote" in out and "spring.xlsx: 2 games settled, 1 row not settled" in out
    assert "bad.csv lacks the columns session, table" in err
    assert "spring.csv line 4: scores add up to 99,000" in err
    ws = load_workbook(folder / "spring.xlsx")["spring"]
    assert [ws.cell(5, c).value for c in range(19, 23)] == [46, 12, -18, -40]
    assert ws["F6"].value == "=evil" and ws["F6"].data_type == "s"
    assert ws.cell(6, 19).value == 50 - 20  # penalty after settlement


def test_console_script_has_no_traceback(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("umaoka")
    result = subprocess.run([str(exe), "settle", str(tmp_path / "none.xlsx")],
                            capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"})
    assert result.returncode == 2
    assert result.stderr.strip() == f"umaoka: error: {tmp_path / 'none.xlsx'} does not exist."
