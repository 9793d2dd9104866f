"""Temporary files: where a save keeps its own, and removing those a killed run left.

A workbook is written to a hidden temporary beside its target (``.NAME.umaoka-PID-XXXX.tmp``,
see :func:`umaoka.templates.xlsx.io.write_atomic`); the rows of a big sheet and openpyxl's
sheet files go to a private folder in the system's temporary folder
(``umaoka-PID-XXXX``, :func:`scratch_folder`). A later run removes both kinds once their
process is gone and they are a minute old, so a run killed in the middle of a 50,000-game
update does not leave tens of MB behind.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Temporary files of ours: ``.<name>.umaoka-<pid>-<random>.tmp`` beside the target.
TMP_MARK = ".umaoka-"
#: A temporary of ours this old whose process is gone is left over from a crash.
STALE_SECONDS = 60


def remove_stale(folder: Path, folders: bool = False) -> None:
    """Delete temporaries of ours left by a killed run (their process is gone, and old):
    ``.NAME.umaoka-PID-XXXX.tmp`` files beside a target, or (``folders``) the private
    ``umaoka-PID-XXXX`` folders of :func:`scratch_folder` in the system's temporary folder."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        name = entry.name
        if folders:
            if not name.startswith("umaoka-") or name.count("-") != 2:
                continue
            digits = name.split("-")[1]
        elif name.startswith(".") and name.endswith(".tmp") and TMP_MARK in name:
            digits = name.rsplit(TMP_MARK, 1)[1].split("-", 1)[0]
        else:
            continue
        try:
            pid = int(digits)
            if now - entry.stat(follow_symlinks=False).st_mtime < STALE_SECONDS \
                    or process_alive(pid):
                continue
            if folders:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except (ValueError, OSError):
            continue


def process_alive(pid: int) -> bool:
    """Whether a process of this computer with id ``pid`` is running (on Windows without
    ``os.kill``, which would end it there)."""
    if pid == os.getpid():
        return True
    if pid <= 0:
        return False
    if os.name == "nt":  # pragma: no cover - Windows
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return ctypes.GetLastError() == 5  # access denied: it exists  # type: ignore
        try:
            code = ctypes.c_ulong()
            kernel.GetExitCodeProcess(handle, ctypes.byref(code))
            return code.value == 259  # STILL_ACTIVE
        finally:
            kernel.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, but not ours to signal
    return True


#: The private folder in the system's temporary folder that a save's own temporaries
#: (rows spooled to disk, openpyxl's sheet files) go into: ``umaoka-<pid>-<random>``.
_SCRATCH: list[Path] = []


@contextmanager
def scratch_folder(target: Path) -> Iterator[Path]:
    """A private folder in the system's temporary folder for the temporaries of one save
    (ours and openpyxl's), removed afterwards; one left by a killed run is removed by the
    next save. A full temporary folder is reported as that folder, not as ``target``."""
    if _SCRATCH:  # already inside one save
        yield _SCRATCH[-1]
        return
    base = Path(tempfile.gettempdir())
    remove_stale(base, folders=True)
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"umaoka-{os.getpid()}-", dir=base))
    except OSError as e:
        raise _in_scratch(e, base) from None
    before = tempfile.tempdir
    tempfile.tempdir = str(folder)
    _SCRATCH.append(folder)
    try:
        yield folder
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT) and _blame_scratch(e, folder, target):
            raise _in_scratch(e, base) from None
        raise
    finally:
        _SCRATCH.pop()
        tempfile.tempdir = before
        shutil.rmtree(folder, ignore_errors=True)


def _blame_scratch(e: OSError, folder: Path, target: Path) -> bool:
    """Whether a full disk met while saving ``target`` is the temporary folder's."""
    if e.filename:
        return str(e.filename).startswith(str(folder))
    try:  # a write to an open file names none: the fuller of the two devices
        if os.stat(folder).st_dev == os.stat(Path(target).parent).st_dev:
            return False
        return shutil.disk_usage(folder).free < shutil.disk_usage(Path(target).parent).free
    except OSError:
        return False


def _in_scratch(e: OSError, base: Path) -> OSError:
    return OSError(e.errno, f"{e.strerror} in the temporary folder (TMPDIR); free some space "
                   "there or set TMPDIR to a folder with room", str(base))


