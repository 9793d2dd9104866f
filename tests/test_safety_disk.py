"""Nothing lost on a bad day: a run killed mid-write, a full disk, a read-only folder, two
runs writing one output at once -> a clear line or a complete file, never a broken or
silently replaced one, never a traceback.

The full disk and the read-only folder are small tmpfs mounts made by the tests: they need
root (CI runs as root) and are skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook

EXE = str(Path(sys.executable).with_name("umaoka"))
CSV = ("date,session,table,game,east,east_score,south,south_score,west,west_score,"
       "north,north_score,deposits\n"
       "2026-04-04,1,1,1,Aki,35700,Ben,32400,Chie,22200,Dan,9700,\n"
       "2026-04-04,1,1,2,Ben,40000,Aki,30000,Dan,20000,Chie,10000,\n")


def umaoka(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=300)


def one_line(run: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run failed with exactly one ``umaoka: error:`` line saying ``words``."""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("umaoka: error: "), run.stderr
    assert all(w in lines[0] for w in words), run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    return lines[0]


def workbook_is_whole(path: Path) -> None:
    wb = load_workbook(path, read_only=True)
    try:
        assert wb.sheetnames
    finally:
        wb.close()


def _mount(folder: Path, size: str, *remount: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    folder.mkdir()
    run = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                         capture_output=True, text=True)
    if run.returncode:
        pytest.skip(f"mount is not permitted here: {run.stderr.strip()}")
    if remount:
        subprocess.run(["mount", "-o", ",".join(("remount", *remount)), str(folder)],
                       check=True, capture_output=True)


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A filled league workbook and a folder of CSV games, to write elsewhere from."""
    folder = tmp_path_factory.mktemp("sources")
    assert umaoka("demo", folder, "--games", "3000").returncode == 0
    csvs = folder / "csv"
    csvs.mkdir()
    for name in ("spring", "summer", "autumn"):
        (csvs / f"{name}.csv").write_text(CSV, encoding="utf-8")
    return folder


# ------------------------------------------------------------------------------------------------
# kill -9


def test_kill_9_during_a_large_write_leaves_no_broken_file(tmp_path: Path):
    run = subprocess.Popen([EXE, "demo", str(tmp_path), "--games", "20000"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:  # wait until it is writing the workbook
            temps = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
            if temps and temps[0].stat().st_size > 0:
                break
            assert run.poll() is None, "the run ended before it was killed"
            time.sleep(0.05)
        else:
            pytest.fail("no temporary file appeared")
        time.sleep(0.2)
    finally:
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "demo_league.xlsx" not in names  # never a half-written target
    assert len([n for n in names if n.startswith(".demo_league.xlsx.umaoka-")]) == 1, names
    for p in tmp_path.iterdir():
        if p.name.endswith(".xlsx"):
            workbook_is_whole(p)  # anything published is whole
    # the next run in that folder removes the killed run's temporary once it is stale
    # (older than a minute: a run still writing is never touched); age it instead of waiting
    old = time.time() - 120
    for p in tmp_path.iterdir():
        os.utime(p, (old, old))
    assert umaoka("new", tmp_path / "next.xlsx").returncode == 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    workbook_is_whole(tmp_path / "next.xlsx")


# ------------------------------------------------------------------------------------------------
# A full disk


@pytest.fixture
def full(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB file system with about 8 kB left."""
    folder = tmp_path / "full"
    _mount(folder, "1m")
    try:
        st = os.statvfs(folder)
        (folder / "filler").write_bytes(b"\0" * (st.f_bavail * st.f_frsize - 8_000))
        yield folder
    finally:
        _unmount(folder)


def test_a_full_disk_is_one_line_and_leaves_nothing(full: Path, sources: Path):
    for args in (["new", full / "new.xlsx"],
                 ["demo", full, "--games", "200"],
                 ["settle", sources / "demo_league.xlsx", "-o", full / "settled.xlsx"],
                 ["runtime", sources / "demo_league.xlsx", "--to", "lite", "-o",
                  full / "lite.xlsx"],
                 ["lite", "--into", sources / "demo_league.xlsx", "-o", full / "into.xlsx"]):
        run = umaoka(*args)
        assert run.returncode == 1, (args, run.stderr)
        one_line(run, "No space left on device", "free some space", str(full))
        assert "Exception ignored" not in run.stderr
        assert sorted(p.name for p in full.iterdir()) == ["filler"], args  # nothing partial


def test_batch_onto_a_full_disk_reports_each_file(full: Path, sources: Path):
    run = umaoka("batch", sources / "csv", "-o", full)
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 3 and all("No space left on device" in x for x in lines), run.stderr
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr
    assert sorted(p.name for p in full.iterdir()) == ["filler"]


# ------------------------------------------------------------------------------------------------
# A read-only folder


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody may write into: a tmpfs mounted read-only when root (root ignores
    permissions), else a folder without write permission."""
    folder = tmp_path / "ro"
    if os.geteuid() != 0:
        folder.mkdir()
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    _mount(folder, "1m", "ro")
    try:
        yield folder
    finally:
        _unmount(folder)


def test_a_read_only_folder_is_one_line(read_only: Path, sources: Path):
    for args in (["new", read_only / "new.xlsx"],
                 ["demo", read_only, "--games", "20"],
                 ["settle", sources / "demo_league.xlsx", "-o", read_only / "settled.xlsx"]):
        run = umaoka(*args)
        assert run.returncode == 1, (args, run.stderr)
        line = one_line(run, str(read_only))
        assert "Read-only file system" in line or "permission denied" in line, line
        assert ".tmp" not in line  # names the file asked for, not our temporary
    assert list(read_only.iterdir()) == []


# ------------------------------------------------------------------------------------------------
# Two runs writing the same output at once


def _race(*args: str | Path) -> list[tuple[int, str, str]]:
    runs = [subprocess.Popen([EXE, *map(str, args)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    return [(p.wait(), *p.communicate()) for p in runs]


def test_two_new_runs_racing_for_one_output(tmp_path: Path):
    for attempt in range(3):
        out = tmp_path / f"league{attempt}.xlsx"
        results = _race("new", out, "--players", f"Aki,Ben,Run{attempt}")
        assert sorted(code for code, _, _ in results) == [0, 2], results
        loser = next(err for code, _, err in results if code == 2)
        assert "already exists" in loser and "Traceback" not in loser
        workbook_is_whole(out)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_two_batch_runs_racing_for_one_folder(tmp_path: Path, sources: Path):
    out = tmp_path / "out"
    out.mkdir()
    results = _race("batch", sources / "csv", "-o", out)
    wrote = [line for _, stdout, _ in results for line in stdout.splitlines()
             if line.startswith("wrote ")]
    refused = [line for _, _, err in results for line in err.splitlines()]
    assert len(wrote) == 3, results  # each workbook written by exactly one run
    assert len(refused) == 3 and all("already exists" in x for x in refused), results
    assert all("Traceback" not in err for _, _, err in results)
    assert sorted(p.name for p in out.iterdir()) == ["autumn.xlsx", "spring.xlsx",
                                                     "summer.xlsx"]
    for p in out.iterdir():
        workbook_is_whole(p)
