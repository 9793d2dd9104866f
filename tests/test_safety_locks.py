"""One update of a league at a time, links followed, and what an update checks before it
replaces the league: two runs at once never lose a change without a word, a linked league
is updated where it lives, a read-only, hard-linked or changed file is refused in one line,
a full disk or temporary folder says the truth, and odd inputs (devices, zips of a million
parts, twin part names, UTF-16 parts) are one sentence. Commands run as a user runs them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl.worksheet.table import Table

from umaoka.addin.install import lock, update
from umaoka.engine import UmaokaError
from umaoka.templates.settle_book import read_book
from umaoka.templates.xlsx.io import (
    MAX_ENTRIES,
    STALE_SECONDS,
    check_prologs,
    load_quietly,
    open_zip,
)

EXE = str(Path(sys.executable).with_name("umaoka"))
LINES = ("L1002 | 00:44 | 四般南喰赤－ | Aki(+61.0) Ben(0.0) Chie(-25.0) Dan(-36.0)\n"
         "L1002 | 01:20 | 四般南喰赤－ | Ben(+48.0) Aki(+12.0) Dan(-20.0) Chie(-40.0)\n")


def umaoka(*args: str | Path, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True,
                          timeout=300, **kw)  # type: ignore[call-overload]


def one_line(run: subprocess.CompletedProcess[str], *words: str) -> str:
    """The run failed with exactly one ``umaoka: error:`` line saying ``words``."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0 and len(lines) == 1, run.stderr
    assert lines[0].startswith("umaoka: error: "), run.stderr
    assert all(w in lines[0] for w in words), run.stderr
    return lines[0]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo league (two league tabs, 20 games) and its settled copy."""
    folder = tmp_path_factory.mktemp("demo")
    subprocess.run([EXE, "demo", str(folder), "--games", "20"], check=True,
                   capture_output=True)
    return folder


@pytest.fixture
def league(tmp_path: Path, demo: Path) -> Path:
    path = tmp_path / "league.xlsx"
    shutil.copyfile(demo / "demo_league.xlsx", path)
    return path


def games(path: Path) -> int:
    return sum(1 for lg in read_book(path).leagues for g in lg.games if not g.is_blank())


# ------------------------------------------------------------------------------------------------
# 1. Two updates at once


def test_two_updates_at_once_never_lose_a_change(tmp_path: Path):
    """Each of ten trials starts two updates of one league (an import and an add, or two
    adds), the second a little later in each (while the first reads, builds or replaces):
    both changes are there, or one run was refused in one sentence and its change is not;
    never `updated` for a lost change. The trials run side by side, on leagues of their own.
    """
    log = tmp_path / "sca20260404.log"
    log.write_text(LINES, encoding="utf-8")
    fresh = tmp_path / "fresh.xlsx"
    subprocess.run([EXE, "new", str(fresh), "--leagues", "Regular 2026"], check=True,
                   capture_output=True)
    started = time.perf_counter()
    delays = [0, 0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0]
    paths, runs = [], []
    for trial in range(len(delays)):
        path = tmp_path / f"trial{trial}" / "league.xlsx"
        path.parent.mkdir()
        shutil.copyfile(fresh, path)
        paths.append(path)
        first = ([EXE, "import", str(log), "--into", str(path), "--league", "Regular 2026"]
                 if trial % 2 else [EXE, "add", str(path), "--players", "Zed"])
        runs.append([subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True)])
    for trial, delay in enumerate(delays):
        time.sleep(max(0.0, started + delay - time.perf_counter()))
        runs[trial].append(subprocess.Popen([EXE, "add", str(paths[trial]), "--players",
                                             "Yu,Xi"], stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True))
    refused = 0
    for trial, (path, pair) in enumerate(zip(paths, runs)):
        done = [(p.wait(120), *p.communicate()) for p in pair]
        book = read_book(path)
        kept = {
            0: "Zed" in book.players if trial % 2 == 0 else games(path) == 2,
            1: "Yu" in book.players and "Xi" in book.players,
        }
        assert any(code == 0 for code, _, _ in done), (trial, done)
        for i, (code, out, err) in enumerate(done):
            if code == 0:
                assert out.startswith(f"updated {path}"), (trial, out, err)
                assert kept[i], (trial, i, "said updated, but its change is lost", done)
            else:
                refused += 1
                lines = err.strip().splitlines()
                assert len(lines) == 1 and "is being updated by another umaoka run" in \
                    lines[0] and "nothing was written" in lines[0], (trial, err)
                assert not kept[i], (trial, i)
        assert not lock.lock_path(path).exists(), trial  # the lock is given back
        assert not [p for p in path.parent.iterdir() if p.suffix == ".tmp"]
    assert refused, "no trial overlapped: the test did not test anything"
    assert time.perf_counter() - started < 120


def test_a_held_lock_refuses_and_a_killed_runs_lock_is_taken_over(league: Path):
    held = lock.lock_path(league)
    held.write_bytes(f"umaoka {os.getppid()} {socket.gethostname()} 2026-04-04T19:00:00 "
                     f"{time.time_ns()}\n".encode())  # a live process holds it
    run = umaoka("add", league, "--players", "Zed")
    one_line(run, "league.xlsx is being updated by another umaoka run", "since 2026-04-04 "
             "19:00:00", "nothing was written", str(held))
    assert "Zed" not in read_book(league).players
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    held.write_bytes(f"umaoka {dead} {socket.gethostname()} 2026-04-04T19:00:00 "
                     f"{time.time_ns()}\n".encode())  # its process is gone
    assert umaoka("add", league, "--players", "Zed").returncode == 0
    assert "Zed" in read_book(league).players and not held.exists()
    # another computer's lock (a synced folder): refused while it is recent, not after
    held.write_bytes(f"umaoka 1 far-away-pc 2026-04-04T19:00:00 {time.time_ns()}\n".encode())
    one_line(umaoka("add", league, "--players", "Yu"), "process 1 on far-away-pc")
    old = time.time_ns() - (lock.STALE_LOCK + 60) * 10**9
    held.write_bytes(f"umaoka 1 far-away-pc 2026-04-04T19:00:00 {old}\n".encode())
    assert umaoka("add", league, "--players", "Yu").returncode == 0
    assert not held.exists()


def test_a_league_changed_meanwhile_is_not_replaced(league: Path):
    """Another program (Excel saving, a sync client) replaces the file while umaoka builds:
    the update is refused before the replace, the other program's file kept."""
    book = read_book(league)
    book.players.append("Zed")
    with lock.updating(league):
        theirs = league.read_bytes() + b""  # the same workbook, saved again by "Excel"
        league.unlink()
        league.write_bytes(theirs)
        with pytest.raises(UmaokaError, match="was changed by another program while umaoka "
                           "worked on it; nothing was written"):
            update.update_league(book, league)
    assert league.read_bytes() == theirs and not update.backup_path(league).exists()
    assert not lock.lock_path(league).exists()


# ------------------------------------------------------------------------------------------------
# 2. Links


def test_a_symlinked_league_is_updated_where_it_lives(tmp_path: Path, demo: Path):
    real = tmp_path / "real" / "league.xlsx"
    real.parent.mkdir()
    shutil.copyfile(demo / "demo_league.xlsx", real)
    link = tmp_path / "league.xlsx"
    link.symlink_to(Path("real") / "league.xlsx")
    run = umaoka("add", "league.xlsx", "--players", "Zed", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert link.is_symlink() and "Zed" in read_book(real).players  # one file, updated
    assert (tmp_path / "real" / "league.bak.xlsx").exists()  # the backup beside it
    assert str(tmp_path / "real" / "league.bak.xlsx") in run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.xlsx", "real"]
    # Excel's lock file beside the real file refuses the update through the link
    (tmp_path / "real" / "~$league.xlsx").write_bytes(b"owner")
    one_line(umaoka("add", link, "--players", "Yu"), "is open in Excel or LibreOffice")
    (tmp_path / "real" / "~$league.xlsx").unlink()
    # and so does umaoka's own lock, which lives beside the real file
    lock.lock_path(real).write_bytes(f"umaoka {os.getppid()} {socket.gethostname()} "
                                     f"2026-04-04T19:00:00 {time.time_ns()}\n".encode())
    one_line(umaoka("add", link, "--players", "Yu"), "being updated by another umaoka run")


def test_a_hard_linked_league_is_refused(league: Path):
    other = league.with_name("other name.xlsx")
    os.link(league, other)
    before = league.read_bytes()
    for args in (["add", league, "--players", "Zed"], ["lite", "--into", league],
                 ["runtime", league, "--to", "classic"]):
        one_line(umaoka(*args), "league.xlsx is a file with 2 names (hard links)",
                 "nothing was written")
    assert league.read_bytes() == before and os.stat(league).st_nlink == 2
    assert umaoka("add", league, "--players", "Zed", "-o", league.with_name("new.xlsx")
                  ).returncode == 0  # a new file is fine


# ------------------------------------------------------------------------------------------------
# 3. Read-only leagues, full disks, temporaries


def test_a_read_only_league_is_refused(league: Path):
    league.chmod(0o444)
    before = league.read_bytes()
    one_line(umaoka("add", league, "--players", "Zed"), "league.xlsx is read-only",
             "nothing was written")
    assert league.read_bytes() == before and not update.backup_path(league).exists()


def _mount(folder: Path, size: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    folder.mkdir()
    run = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                         capture_output=True, text=True)
    if run.returncode:
        pytest.skip(f"mount is not permitted here: {run.stderr.strip()}")


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB file system."""
    folder = tmp_path / "small"
    _mount(folder, "4m")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _fill(folder: Path, leave: int) -> None:
    st = os.statvfs(folder)
    (folder / "filler").write_bytes(b"\0" * max(0, st.f_bavail * st.f_frsize - leave))


def test_a_full_disk_keeps_the_league_and_its_backup(small: Path, demo: Path,
                                                      tmp_path: Path):
    """Room for umaoka's new sheets and the backup's copy, not for the whole new league as
    well: the old code renewed the backup, then failed on the league and said no file was
    written; now the new league is written first and the backup only once it is whole."""
    trial = tmp_path / "trial.xlsx"  # how big the updated league is
    shutil.copyfile(demo / "demo_league.xlsx", trial)
    assert umaoka("add", trial, "--players", "Zed").returncode == 0
    league = small / "league.xlsx"
    shutil.copyfile(demo / "demo_league.xlsx", league)
    backup = update.backup_path(league)
    backup.write_bytes(b"last week's backup")
    before = league.read_bytes()
    _fill(small, trial.stat().st_size * 3 // 2 + len(before))
    run = umaoka("add", league, "--players", "Zed")
    one_line(run, "No space left on device", "no file was written")
    assert league.read_bytes() == before and backup.read_bytes() == b"last week's backup"
    assert sorted(p.name for p in small.iterdir()) == ["filler", "league.bak.xlsx",
                                                       "league.xlsx"]


def test_a_full_temporary_folder_is_named_not_the_league(small: Path, league: Path):
    _fill(small, 8_000)  # room for Python's look at the folder, not for the sheets
    run = umaoka("add", league, "--players", "Zed", env={**os.environ, "TMPDIR": str(small)})
    line = one_line(run, "No space left on device", "temporary folder", str(small))
    assert f": {league}" not in line and "Zed" not in read_book(league).players
    assert sorted(p.name for p in small.iterdir()) == ["filler"]  # nothing of ours left


def test_a_killed_runs_temporaries_in_tmpdir_are_removed(tmp_path: Path, league: Path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp / f"umaoka-{dead}-k1ll3d9x"  # a 50,000-game update's rows, killed
    stale.mkdir()
    (stale / "umaoka-rows-abc.xml").write_bytes(b"<row/>" * 10_000)
    (stale / "openpyxl.xyz").write_bytes(b"<worksheet/>")
    old = time.time() - STALE_SECONDS - 5
    os.utime(stale, (old, old))
    theirs = tmp / "umaoka-notes.txt"  # not ours: kept
    theirs.write_bytes(b"x")
    os.utime(theirs, (old, old))
    run = umaoka("add", league, "--players", "Zed", env={**os.environ, "TMPDIR": str(tmp)})
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp.iterdir()) == ["umaoka-notes.txt"]


# ------------------------------------------------------------------------------------------------
# 6. Zips of a million parts, twin part names


def test_a_zip_of_too_many_parts_is_refused_at_once(league: Path, tmp_path: Path):
    many = tmp_path / "many.xlsx"
    with zipfile.ZipFile(league) as src, zipfile.ZipFile(many, "w") as z:
        count = len(src.infolist()) + MAX_ENTRIES
        for item in src.infolist():
            z.writestr(item, src.read(item))
        for n in range(MAX_ENTRIES):
            z.writestr(f"e/{n}", b"")
    started = time.perf_counter()
    for args in (["settle", many], ["add", many, "--players", "Zed"]):
        one_line(umaoka(*args), f"holds {count:,} parts, over the "
                 f"{MAX_ENTRIES:,} a workbook needs")
    with pytest.raises(UmaokaError, match="parts, over the"):
        open_zip(many)
    assert time.perf_counter() - started < 30


def test_twin_part_names_are_refused(league: Path):
    with zipfile.ZipFile(league, "a") as z, pytest.warns(UserWarning, match="Duplicate"):
        z.writestr("xl/media/image1.png", b"one")
        z.writestr("xl/media/image1.png", b"two")
    before = league.read_bytes()
    for args in (["add", league, "--players", "Zed"], ["settle", league]):
        one_line(umaoka(*args), "holds two parts named xl/media/image1.png")
    assert league.read_bytes() == before


# ------------------------------------------------------------------------------------------------
# 7. Table names stay unique


def test_a_managers_table_named_like_ours_keeps_its_name(league: Path):
    wb = load_quietly(league)
    ws = wb.create_sheet("Copy of games")
    ws.append(["Date", "Note"])
    ws.append(["2026-04-04", "a copied tab"])
    ws.add_table(Table(displayName="Games_3", ref="A1:B2"))
    wb.save(league)
    run = umaoka("add", league, "--stage", "Playoff")
    assert run.returncode == 0, run.stderr
    names = []
    with zipfile.ZipFile(league) as z:
        for part in z.namelist():
            if part.startswith("xl/tables/"):
                text = z.read(part).decode()
                names.append(text.split('displayName="', 1)[1].split('"', 1)[0])
    assert sorted(n.casefold() for n in names) == sorted({n.casefold() for n in names})
    assert "Games_3" in names and len(names) == 4, names
    wb = load_quietly(league)
    assert list(wb["Copy of games"].tables) == ["Games_3"]
    assert games(league) == 20
    # and again: the name stays stable from update to update
    assert umaoka("add", league, "--players", "Zed").returncode == 0
    assert list(load_quietly(league)["Copy of games"].tables) == ["Games_3"]


# ------------------------------------------------------------------------------------------------
# 8. UTF-16 parts, devices as inputs


def _utf16_styles(league: Path, out: Path, doctype: bool) -> Path:
    with zipfile.ZipFile(league) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/styles.xml":
                text = data.decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
                if doctype:
                    text = text.replace("<styleSheet", '<!DOCTYPE s [<!ENTITY a "aaaa">]>'
                                        "<styleSheet", 1)
                data = text.encode("utf-16")
            z.writestr(item, data)
    return out


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_part_with_a_dtd_is_refused(league: Path, tmp_path: Path, encoding: str):
    hostile = _utf16_styles(league, tmp_path / "hostile.xlsx", doctype=True)
    if encoding != "utf-16":  # without a byte order mark
        with zipfile.ZipFile(hostile) as z:
            parts = {i.filename: z.read(i) for i in z.infolist()}
        parts["xl/styles.xml"] = parts["xl/styles.xml"].decode("utf-16").encode(encoding)
        with zipfile.ZipFile(hostile, "w") as z:
            for name, data in parts.items():
                z.writestr(name, data)
    with zipfile.ZipFile(hostile) as z, pytest.raises(UmaokaError, match="xl/styles.xml "
                                                       "declares a DTD"):
        check_prologs(z, hostile)
    for args in (["settle", hostile], ["add", hostile, "--players", "Zed"]):
        one_line(umaoka(*args), "declares a DTD")


def test_a_utf16_styles_part_is_one_sentence(league: Path, tmp_path: Path):
    plain = _utf16_styles(league, tmp_path / "utf16.xlsx", doctype=False)
    assert umaoka("settle", plain).returncode == 0  # read as any reader would
    before = plain.read_bytes()
    one_line(umaoka("add", plain, "--players", "Zed"), "has a part that is not UTF-8 text",
             "open and save it in Excel")
    assert plain.read_bytes() == before and not lock.lock_path(plain).exists()


@pytest.mark.parametrize("args", [
    ["import", "/dev/zero"],
    ["stats", "/dev/zero"],
    ["settle", "/dev/zero"],
    ["add", "/dev/zero", "--players", "Zed"],
    ["new", "{tmp}/x.xlsx", "--season", "/dev/zero"],
    ["seating", "8", "--rounds", "2", "--fixed", "/dev/zero"],
])
def test_a_device_as_input_is_read_no_further_than_a_limit(tmp_path: Path, args: list[str]):
    args = [a.format(tmp=tmp_path) for a in args]
    started = time.perf_counter()
    run = subprocess.run(["/usr/bin/env", "prlimit", "--as=1500000000", EXE, *args],
                         capture_output=True, text=True, timeout=120) \
        if shutil.which("prlimit") else umaoka(*args)
    line = one_line(run, "/dev/zero")
    assert "larger than" in line or "not a file (a device or a pipe)" in line, line
    assert time.perf_counter() - started < 60


def test_a_fifo_as_a_workbook_is_refused(tmp_path: Path):
    fifo = tmp_path / "league.xlsx"
    os.mkfifo(fifo)
    one_line(umaoka("settle", fifo), "is not a file (a device or a pipe)")


# ------------------------------------------------------------------------------------------------
# 9. --force for CSV outputs; 11. lite --into a settled copy


def test_force_replaces_csv_outputs(tmp_path: Path):
    csv = tmp_path / "night.csv"
    assert umaoka("seating", "8", "--rounds", "2", "--csv", csv).returncode == 0
    one_line(umaoka("seating", "8", "--rounds", "2", "--csv", csv), "already exists",
             "--force")
    run = umaoka("seating", "8", "--rounds", "3", "--csv", csv, "--force")
    assert run.returncode == 0, run.stderr
    assert len(csv.read_text(encoding="utf-8-sig").splitlines()) == 1 + 3 * 2
    log = tmp_path / "sca.log"
    log.write_text(LINES, encoding="utf-8")
    out = tmp_path / "finals.csv"
    out.write_text("an older import\n", encoding="utf-8")
    one_line(umaoka("import", log, "-o", out), "already exists", "--force")
    run = umaoka("import", log, "-o", out, "--force")
    assert run.returncode == 0, run.stderr
    assert "Aki" in out.read_text(encoding="utf-8-sig")


def test_lite_into_a_settled_copy_is_refused(demo: Path, tmp_path: Path):
    settled = tmp_path / "settled.xlsx"
    shutil.copyfile(demo / "demo_league_settled.xlsx", settled)
    before = settled.read_bytes()
    one_line(umaoka("lite", "--into", settled), "is a settled copy (a report")
    assert settled.read_bytes() == before and not update.backup_path(settled).exists()
