"""The command line as a newcomer meets it: counts that add up, options that exist, one
sentence for every mistake, hand payments, Japanese headers, and files others can read."""

from __future__ import annotations

import io
import os
import stat
import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook
from rich.cells import cell_len

from umaoka.addin import cli
from umaoka.engine import ruleset
from umaoka.templates.demo import demo_book


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, code: int, expected: int = 2) -> str:
    lines = err.strip().splitlines()
    assert code == expected and len(lines) == 1 and lines[0].startswith("umaoka: error: "), err
    assert "Traceback" not in err
    return lines[0]


def fits_80(text: str) -> None:
    lines = text.splitlines()
    assert lines and max(cell_len(line) for line in lines) <= 80, text


# ------------------------------------------------------------------------------------------------
# Item 3: settled games and rows not settled never overlap


def _league_with_bad_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "league.xlsx"
    assert run(capsys, "new", str(path), "--players", "Aki,Ben,Chie,Dan,Emi")[0] == 0
    wb = load_workbook(path)
    ws = wb["League"]
    good = [35700, 32400, 22200, 9700]
    rows = [
        (["Aki", "Ben", "Chie", "Dan"], good),
        (["Ben", "Chie", "Dan", "Emi"], good),
        (["Aki", "Ben", "Chie", "Dan"], [35700, 32400, 22200, 9000]),   # 700 missing
        (["Chie", "Dan", "Emi", "Aki"], good),
        (["Aki", "Aki", "Chie", "Dan"], good),                          # same player twice
        (["Dan", "Emi", "Aki", "Ben"], good),
        (["Emi", "Aki", "Ben", "Chie"], [35700, 32400, 22200, "x"]),    # not a number
        (["Aki", "Ben", "Chie", "Dan"], good),
    ]
    for r, (names, scores) in enumerate(rows, 7):
        for c, v in zip("EFGHIJKL", names + scores):
            ws[f"{c}{r}"] = v
    wb.save(path)
    return path


def test_settle_counts_only_settled_games_and_prints_standings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _league_with_bad_rows(tmp_path, capsys)
    code, out, err = run(capsys, "settle", str(path))
    assert code == 0, err
    # 8 rows entered: 5 settled, 3 listed; before, the 3 were counted as settled too.
    assert out.strip().endswith("5 games settled, 3 rows not settled"), out
    assert "8 games" not in out
    warnings = err.strip().splitlines()
    assert len(warnings) == 3 and all(w.startswith("umaoka: warning: League!row ") for w in
                                      warnings)
    # the standings, as `demo` prints them: Aki played rows 7, 10, 12 and 14 -> 4 games
    table = out.split("wrote")[0]
    assert "Player" in table and "Total" in table
    aki = next(line for line in table.splitlines() if " Aki " in f" {line} ")
    assert aki.split()[2] == "4"


def test_settle_standings_in_japanese_fit_80_columns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], screen: io.StringIO) -> None:
    path = _league_with_bad_rows(tmp_path, capsys)
    assert cli.main(["settle", str(path), "--lang", "ja"]) == 0
    text = screen.getvalue()
    fits_80(text)
    for head in ("順位", "選手", "対局数", "合計"):
        assert head in text
    assert "Player" not in text


def test_batch_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    head = "date,session,table,game,east,east_score,south,south_score,west,west_score,north," \
           "north_score\n"
    (folder / "one.csv").write_text(head + "2026-04-04,1,1,1,Aki,35700,Ben,32400,Chie,22200,"
                                    "Dan,9700\n", encoding="utf-8")
    (folder / "spring.csv").write_text(
        head + "".join(f"2026-04-04,1,1,{g},Aki,35700,Ben,32400,Chie,22200,Dan,{s}\n"
                       for g, s in enumerate([9700, 9000, 9700], 1)), encoding="utf-8")
    (folder / "junk.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    code, out, err = run(capsys, "batch", str(folder))
    assert code == 2  # junk.csv could not be read
    assert "one.xlsx: 1 game settled\n" in out
    assert "spring.xlsx: 2 games settled, 1 row not settled" in out
    assert "umaoka: warning: spring.csv line 3: scores add up to 99,300" in err
    assert "umaoka: error: junk.csv lacks the columns date, session" in err
    # a file the output cannot replace: the name, a colon, then what is wrong
    code, out, err = run(capsys, "batch", str(folder))
    assert "umaoka: error: one.csv: " in err and "already exists; use --force" in err


# ------------------------------------------------------------------------------------------------
# Item 11: calc --penalties and one number format; subcommand help; demo --ruleset


def test_calc_penalties_and_one_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "calc", "--ruleset", "mleague", "--penalties", "-20,0,0,0",
                         "35700", "32400", "22200", "9700")
    assert code == 0, err
    # M.League: (35.7-30)+20+30 = 55.7, then -20 chombo; (32.4-30)+10 = 12.4;
    # (22.2-30)-10 = -17.8; (9.7-30)-30 = -50.3. Every final with one decimal and a sign.
    assert "Final: +35.7  +12.4  -17.8  -50.3" in out
    assert " 0.0 " in out and "-20.0" in out  # the Penalty row in the same format
    code, out, _ = run(capsys, "calc", "25000", "25000", "-6200", "56200", "--ruleset",
                       "mleague")
    assert "Final: -5.0  -5.0  -66.2  +76.2" in out
    code, out, _ = run(capsys, "calc", "25000", "25000", "25000", "25000")
    assert "Final: +35  +5  -15  -25" in out


def test_calc_penalties_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "calc", "--penalties", "-20,0", "35700", "32400", "22200",
                       "9700")
    assert "one value per seat (4" in one_error(err, code)
    code, _, err = run(capsys, "calc", "--penalties", "x,0,0,0", "35700", "32400", "22200",
                       "9700")
    one_error(err, code)


@pytest.mark.parametrize("argv, helps", [
    (["demo", "--bogus"], "umaoka demo --help"),
    (["settle", "x.xlsx", "--wide"], "umaoka settle --help"),
    (["--bogus"], "umaoka --help"),
])
def test_unknown_flag_points_to_the_commands_help(capsys: pytest.CaptureFixture[str],
                                                  argv: list[str], helps: str) -> None:
    code, _, err = run(capsys, *argv)
    line = one_error(err, code)
    assert f"(see `{helps}`)" in line and "unrecognized arguments" in line


def test_demo_ruleset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "demo", "--ruleset", "ema", str(tmp_path / "dd"),
                         "--games", "16")
    assert code == 0, err
    assert "Demo league: 16 games, 2 stages, ruleset ema" in out
    assert (tmp_path / "dd" / "demo_league_settled.xlsx").exists()
    code, _, err = run(capsys, "demo", "--ruleset", "ema dd", str(tmp_path / "x"))
    assert 'cannot read the ruleset "ema dd"' in one_error(err, code)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("spec", ["ema", "tenhou-sanma", "mahjongsoul-sanma",
                                  "start=30000 target=30000 oka=off"])
def test_demo_book_games_are_valid_for_any_ruleset(spec: str) -> None:
    rules = ruleset(spec)
    book = demo_book(40, rules=spec)
    games = [g for league in book.leagues for g in league.games]
    assert len(games) == 40
    for g in games:
        assert len(g.players) == len(g.scores) == rules.players
        assert len(set(g.players)) == rules.players
        assert sum(g.scores) + (g.deposits or 0) == rules.start * rules.players


def test_demo_three_player_in_japanese(tmp_path: Path, screen: io.StringIO) -> None:
    assert cli.main(["demo", str(tmp_path), "--ruleset", "tenhou-sanma", "--games", "12",
                     "--lang", "ja"]) == 0
    text = screen.getvalue()
    fits_80(text)
    # no 4th-place column (the shared-place rule's sentence below names 3rd-4th as its example)
    table = text.split("同点で分け合った着順")[0]
    assert "順位" in table and "選手" in table and "4着" not in table


# ------------------------------------------------------------------------------------------------
# Inputs: missing or unreadable is bad input (2); other spreadsheet formats named


def _xlsx(path: Path) -> None:
    from openpyxl import Workbook

    Workbook().save(path.with_suffix(".xlsx"))
    path.with_suffix(".xlsx").rename(path)


def _ods(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    return path


@pytest.mark.parametrize("name, make, words", [
    ("league.ods", _ods, "league.ods is an OpenDocument spreadsheet (LibreOffice, .ods); "
     "save it as Excel Workbook (.xlsx)."),
    ("league.xls", lambda p: p.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + bytes(504)),
     "league.xls is an old Excel 97-2003 workbook (.xls); save it as Excel Workbook (.xlsx)."),
    ("league.xlsx", _ods, "league.xlsx is an OpenDocument spreadsheet"),  # bytes decide
    ("league.csv", lambda p: p.write_text("date,session\n"), "league.csv is a text (CSV) "
     "file, not a workbook; settle a folder of CSV files with `umaoka batch`"),
    ("league.numbers", lambda p: p.mkdir(), "league.numbers is an Apple Numbers spreadsheet"),
    ("missing.xlsx", lambda p: None, "missing.xlsx does not exist."),
    ("renamed.ods", lambda p: _xlsx(p), "renamed.ods looks like an Excel workbook with "
     "another name; rename it to end in .xlsx."),
])
def test_other_spreadsheets_get_one_sentence(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             name: str, make: object, words: str) -> None:
    path = tmp_path / name
    make(path)  # type: ignore[operator]
    for argv in (["settle", str(path)], ["runtime", str(path), "--to", "classic"],
                 ["lite", "--into", str(path)]):
        code, _, err = run(capsys, *argv)
        line = one_error(err, code, 2)
        assert words in line, line
        assert "zip" not in line.lower() and "openpyxl" not in line


def test_missing_csv_inputs_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (["stats", "nope.csv"], ["import", "nope.csv"],
                 ["season", "nope.ini", "nope.csv"]):
        code, _, err = run(capsys, *argv)
        assert "nope." in one_error(err, code, 2)


def test_failing_to_write_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.csv").write_text("date,session,table,game,east,east_score,south,south_score,"
                                  "west,west_score,north,north_score\n", encoding="utf-8")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "batch", str(folder), "-o", str(blocker / "out"))
    assert "cannot create the output folder" in one_error(err, code, 1)


# ------------------------------------------------------------------------------------------------
# Issue 9 through the CLI: umaoka hand


def _payments(out: str) -> dict[str, list[int]]:
    paid: dict[str, list[int]] = {}
    for line in out.splitlines():
        words = line.strip().rsplit(" ", 1)
        if len(words) == 2 and words[1].replace(",", "").isdigit():
            paid.setdefault(words[0].strip(), []).append(int(words[1].replace(",", "")))
    return paid


def test_hand_worked_example(capsys: pytest.CaptureFixture[str], screen: io.StringIO) -> None:
    # 3 han 40 fu: basic 40 x 2^5 = 1280; non-dealer tsumo: 1280 -> 1300 from each
    # non-dealer, 2560 -> 2600 from the dealer; 1 honba adds 100 to each payer: 1400/2700.
    assert cli.main(["hand", "3", "40", "--tsumo", "--honba", "1"]) == 0
    out = screen.getvalue()
    fits_80(out)
    assert out.splitlines()[0] == "3 han 40 fu, non-dealer tsumo, 1 honba"
    paid = _payments(out)
    assert paid["the dealer"] == [2700] and paid["a non-dealer"] == [1400, 1400]
    assert paid["the winner gains"] == [5500]
    assert "1400/2700" in out and "Basic points 1,280." in out


def test_hand_pao(capsys: pytest.CaptureFixture[str], screen: io.StringIO) -> None:
    # Pao on a tsumo: the liable player pays the whole yakuman (32000) and every honba (300).
    assert cli.main(["hand", "yakuman", "--tsumo", "--honba", "1", "--pao", "all"]) == 0
    paid = _payments(screen.getvalue())
    assert paid["the liable player (pao)"] == [32300] and paid["the winner gains"] == [32300]
    assert paid["the dealer"] == [0] and paid["a non-dealer"] == [0]
    fits_80(screen.getvalue())
    # On a ron: half each, the discarder paying the honba.
    screen.truncate(0)
    screen.seek(0)
    assert cli.main(["hand", "yakuman", "--honba", "1", "--pao", "1"]) == 0
    paid = _payments(screen.getvalue())
    assert paid["the liable player (pao)"] == [16000] and paid["the discarder"] == [16300]


def test_hand_kazoe_unlimited_and_aotenjou(capsys: pytest.CaptureFixture[str]) -> None:
    # 26 counted han with kazoe=unlimited: a double yakuman, 2 x 32000 on a non-dealer ron.
    code, out, err = run(capsys, "hand", "26", "--rules", "kazoe=unlimited")
    assert code == 0, err
    assert "kazoe double yakuman" in out and _payments(out)["the winner gains"] == [64000]
    # Aotenjou counts 170 fu (four concealed kans, 26 han): 170 x 2^28 basic, x4 for a ron,
    # rounded up to 100.
    code, out, err = run(capsys, "hand", "26", "170", "--rules", "aotenjou")
    assert code == 0, err
    basic = 170 * 2 ** 28
    assert _payments(out)["the winner gains"] == [-(-basic * 4 // 100) * 100]
    # a yakuman may be written in words
    code, out, _ = run(capsys, "hand", "double", "yakuman", "--dealer")
    assert code == 0 and _payments(out)["the winner gains"] == [96000]


def test_hand_riichi_sticks(capsys: pytest.CaptureFixture[str], screen: io.StringIO) -> None:
    # MahjongPantheon's case: dealer ron, 6 han 40 fu, 3 sticks: 18,000 paid, 21,000 gained.
    assert cli.main(["hand", "6", "40", "--dealer", "--riichi", "3"]) == 0
    out = screen.getvalue()
    fits_80(out)
    assert out.splitlines()[0] == "6 han 40 fu (haneman), dealer ron, 3 riichi sticks"
    paid = _payments(out)
    assert paid["the discarder"] == [18000] and paid["riichi sticks (3)"] == [3000]
    assert paid["the winner gains"] == [21000]
    assert "Called at the table: 18000." in out and "Riichi sticks included." in out
    screen.truncate(0)
    screen.seek(0)
    assert cli.main(["hand", "5", "30", "--dealer", "--tsumo", "--riichi", "4"]) == 0
    paid = _payments(screen.getvalue())
    assert paid["a non-dealer"] == [4000] * 3 and paid["the winner gains"] == [16000]
    for bad in ("-1", "1.5", "1e9", "many"):
        code, _, err = run(capsys, "hand", "3", "30", "--riichi", bad)
        assert one_error(err, code).startswith("umaoka: error: riichi must be a whole number"), bad


def test_hand_errors_are_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "hand", "3", "170")
    assert "aotenjou" in one_error(err, code)
    code, _, err = run(capsys, "hand", "2", "25", "--tsumo")
    assert "cannot be won by tsumo" in one_error(err, code)
    for bad in ("x", "1_0"):  # read as --riichi is, by the engine (int() reads 1_0 as 10)
        code, _, err = run(capsys, "hand", "3", "40", "--honba", bad)
        assert one_error(err, code).startswith("umaoka: error: honba must be a whole number")


# ------------------------------------------------------------------------------------------------
# Item 13: lite files readable by others; no PyPI install anywhere


def test_lite_files_take_the_umask_mode(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = run(capsys, "lite", str(tmp_path / "lite"))
    finally:
        os.umask(old)
    assert code == 0, err
    for name in ("main.py", "requirements.txt"):
        assert stat.S_IMODE((tmp_path / "lite" / name).stat().st_mode) == 0o644
    assert not [p for p in (tmp_path / "lite").iterdir() if p.name.startswith(".")]
    code, _, err = run(capsys, "lite", str(tmp_path / "lite"))
    assert "--force" in one_error(err, code)


ROOT = Path(__file__).resolve().parent.parent


def test_no_install_from_pypi_and_no_pointers_nowhere(capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    texts = {p: p.read_text(encoding="utf-8") for p in
             [ROOT / "README.md", ROOT / "pyproject.toml", *(ROOT / "docs").glob("*.md")]}
    assert cli.main(["addin"]) == 0
    texts[Path("umaoka addin")] = capsys.readouterr().out
    for where, text in texts.items():
        for line in text.splitlines():
            # "pip install umaoka" only with a wheel after it, or saying it does not work
            if "pip install umaoka" in line:
                assert "umaoka-" in line or "not on PyPI" in line, (where, line)
        assert "../shared" not in text and "SETTLEMENT.md" not in text, where
    readme = texts[ROOT / "README.md"]
    assert "fonts-noto-cjk" in readme and "pip install ." in readme
    assert "### Week to week" in readme
    assert not (ROOT / "docs" / "README-addin.md").exists()
    assert not (ROOT / "docs" / "README-templates.md").exists()
