"""Nothing lost: racing writers, killed runs, and CSV files as Excel writes them in any locale."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.engine import UmaokaError, ruleset
from umaoka.templates.batch import decode_csv, read_csv, run_batch
from umaoka.templates.xlsx.io import STALE_SECONDS, write_atomic

HEADER = ("date,session,table,game,east,east_score,south,south_score,west,west_score,"
          "north,north_score,deposits\n")


# ------------------------------------------------------------------------------------------------
# Publishing a file


def test_publish_never_replaces_a_file_that_appeared_meanwhile(tmp_path: Path):
    target = tmp_path / "out.xlsx"

    def write(tmp: Path) -> None:
        tmp.write_bytes(b"ours")
        target.write_bytes(b"theirs")  # another run finished first, while we were writing

    with pytest.raises(UmaokaError, match="out.xlsx already exists .*--force"):
        write_atomic(target, write)
    assert target.read_bytes() == b"theirs"
    assert [p.name for p in tmp_path.iterdir()] == ["out.xlsx"]  # our temporary is gone


def test_publish_with_force_replaces_and_keeps_permissions_readable(tmp_path: Path):
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"old")
    write_atomic(target, lambda tmp: tmp.write_bytes(b"new"), force=True)
    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o044  # not mkstemp's private 0600
    write_atomic(tmp_path / "fresh.xlsx", lambda tmp: tmp.write_bytes(b"x"))
    assert (tmp_path / "fresh.xlsx").read_bytes() == b"x"


def test_a_killed_runs_temporary_is_removed_by_the_next_write(tmp_path: Path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".league.xlsx.umaoka-{dead}-abc123.tmp"
    stale.write_bytes(b"half a workbook")
    fresh = tmp_path / f".league.xlsx.umaoka-{dead}-def456.tmp"
    fresh.write_bytes(b"maybe still being written")
    old = time.time() - STALE_SECONDS - 5
    os.utime(stale, (old, old))
    alive = tmp_path / f".league.xlsx.umaoka-{os.getppid()}-ghi789.tmp"  # a live process
    alive.write_bytes(b"in progress")
    os.utime(alive, (old, old))
    mine = tmp_path / ".notes.tmp"  # not ours: never touched
    mine.write_bytes(b"user file")
    os.utime(mine, (old, old))
    write_atomic(tmp_path / "other.xlsx", lambda tmp: tmp.write_bytes(b"x"))
    assert not stale.exists()
    assert fresh.exists() and alive.exists() and mine.exists()


def test_two_settle_runs_racing_for_one_output(tmp_path: Path):
    exe = Path(sys.executable).with_name("umaoka")
    subprocess.run([str(exe), "demo", str(tmp_path), "--games", "200"], check=True,
                   capture_output=True)
    source = tmp_path / "demo_league.xlsx"
    for attempt in range(3):
        out = tmp_path / f"out{attempt}.xlsx"
        runs = [subprocess.Popen([str(exe), "settle", str(source), "-o", str(out)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        results = [(p.wait(), p.stdout.read(), p.stderr.read()) for p in runs]  # type: ignore
        codes = sorted(code for code, _, _ in results)
        assert codes == [0, 2], results
        loser = next(err for code, _, err in results if code == 2)
        assert "already exists" in loser and "Traceback" not in loser
        assert load_workbook(out, read_only=True).sheetnames  # a whole workbook
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------------------------------------------------------
# CSV files as Excel saves them


GAMES = ["2026-04-04,1,1,1,007,35700,+1,32400,1e3,22200,秋山,9700,",
         "2026-04-04,1,1,2,7,40000,+1,30000,1e3,20000,秋山,10000,"]


def test_names_that_look_like_numbers_stay_text(tmp_path: Path):
    path = tmp_path / "names.csv"
    path.write_text(HEADER + "\n".join(GAMES) + "\n", encoding="utf-8")
    games = read_csv(path, ruleset("standard")).league.games
    assert games[0].players == ["007", "+1", "1e3", "秋山"]
    assert games[1].players[0] == "7"  # "007" and "7" are two players
    assert games[0].scores == [35700, 32400, 22200, 9700]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932", "utf-16"])
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_every_encoding_and_delimiter_excel_writes(tmp_path: Path, encoding: str,
                                                   delimiter: str):
    text = (HEADER + "\n".join(GAMES) + "\n").replace(",", delimiter)
    path = tmp_path / "j.csv"
    path.write_bytes(text.encode(encoding))
    league = read_csv(path, ruleset("standard")).league
    assert [g.players for g in league.games] == [["007", "+1", "1e3", "秋山"],
                                                 ["7", "+1", "1e3", "秋山"]]
    assert league.games[1].scores == [40000, 30000, 20000, 10000]


def test_decode_refuses_binary_with_a_sentence():
    with pytest.raises(UmaokaError, match="save it from Excel as \"CSV UTF-8"):
        decode_csv(b"\x81\x00\xff\xfe\x80" * 3 + b"\xfd")


def test_deposits_column_is_optional_and_numbers_exact(tmp_path: Path):
    path = tmp_path / "d.csv"
    path.write_text("date,session,table,game,east,east_score,south,south_score,west,"
                    "west_score,north,north_score\n,1,1,1,A,35700,B,32400,C,22200,D,9700\n")
    game = read_csv(path, ruleset("standard")).league.games[0]
    assert game.deposits is None and game.scores == [35700, 32400, 22200, 9700]
    assert game.source == "line 2"


def test_batch_reports_bad_files_and_writes_the_good_ones(tmp_path: Path):
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "good.csv").write_text(HEADER + "\n".join(GAMES) + "\n")
    (folder / "semi.csv").write_bytes((HEADER + GAMES[0] + "\n").replace(",", ";")
                                      .encode("cp932"))
    (folder / "control.csv").write_text(HEADER + GAMES[0].replace("007", "A\x01B") + "\n")
    (folder / "nan.csv").write_text(HEADER + GAMES[0].replace("35700", "NaN") + "\n"
                                    + GAMES[1].replace("40000", "inf") + "\n"
                                    + GAMES[1].replace("40000", "1e999999") + "\n"
                                    + GAMES[1].replace(",1,1,2,", ",x,1,2,")
                                    .replace("2026-04-04", "04/11/2026") + "\n")
    (folder / "'quote.csv").write_text(HEADER + GAMES[0] + "\n")
    results = {r.source.name: r for r in run_batch(folder, ruleset("standard"), "standard")}
    assert results["control.csv"].error == (
        "line 2: the east field holds a control character (U+0001), which a workbook cannot "
        "store; remove it and run again.")
    for name in ("good.csv", "semi.csv", "nan.csv", "'quote.csv"):
        assert results[name].error is None, results[name].error
    warnings = results["nan.csv"].warnings
    assert 'line 5: session "x" is not a number' in warnings[0]
    assert 'line 5: date "04/11/2026" is not written as YYYY-MM-DD' in warnings[1]
    # the seat by its wind and player ("score 1" to the engine)
    assert warnings[2] == ("line 2: East (007)'s score (NaN) is not a finite number; enter raw "
                           "points such as 32400.")
    assert warnings[3].startswith("line 3: East (7)'s score (inf)")
    assert warnings[4].startswith("line 4: East (7)'s score")
    assert results["nan.csv"].report is not None
    ws = load_workbook(folder / "good.xlsx")["good"]
    names = [ws.cell(5, c).value for c in range(5, 9)]
    assert names == ["007", "+1", "1e3", "秋山"]
    quoted = load_workbook(folder / "'quote.xlsx")
    assert "quote" in quoted.sheetnames
