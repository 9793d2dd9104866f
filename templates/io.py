"""Safe writing (atomic, never over an existing file without force) and safe reading.

openpyxl parses the workbook's XML with defusedxml when it is installed (it is a
dependency of umaoka), so a hostile workbook cannot expand XML entity bombs; a file
that is not a workbook, or a damaged one, gives a one-line :class:`UmaokaError`.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook
from umaoka.engine import UmaokaError

from .writer import save_fast

#: Biggest workbook we read (bytes): league files are a few MB at most.
MAX_BYTES = 200 * 1024 * 1024
#: Biggest uncompressed part of a workbook we accept (a zip bomb guard).
MAX_PART = 1024 * 1024 * 1024


def check_target(path: Path, force: bool, inputs: tuple[Path, ...] = ()) -> None:
    """Refuse to overwrite an input file (ever) or an existing file (without force)."""
    for src in inputs:
        if _same(path, src):
            raise UmaokaError(f"{path} is the input workbook; choose another output name "
                              "(the input is never overwritten).")
    if path.exists() and not force:
        raise UmaokaError(f"{path} already exists; use --force to replace it.")
    if path.exists() and path.is_dir():
        raise UmaokaError(f"{path} is a folder; give a file name ending in .xlsx.")
    if not path.parent.exists():
        raise UmaokaError(f"folder {path.parent} does not exist; create it first.")


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def write_atomic(path: Path, write: Callable[[Path], Any]) -> None:
    """Call ``write(tmp)`` on a temporary file in the same folder, then move it into place.

    A crash or Ctrl+C leaves the old file untouched and no half-written workbook.
    """
    path = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def save_workbook(wb: Workbook, path: Path, force: bool = False,
                  inputs: tuple[Path, ...] = (),
                  after_save: Callable[[Path], Any] | None = None) -> Path:
    """Save atomically, refusing to replace inputs or (without force) existing files.

    ``after_save(tmp)`` runs on the saved file before it is moved into place, for parts
    openpyxl does not write (it must leave a valid workbook at ``tmp``).
    """
    path = Path(path)
    if path.suffix.lower() != ".xlsx":
        raise UmaokaError(f"{path} should end in .xlsx (an Excel workbook).")
    check_target(path, force, inputs)

    def write(tmp: Path) -> None:
        save_fast(wb, tmp)
        if after_save is not None:
            after_save(tmp)

    write_atomic(path, write)
    return path


def open_workbook(path: Path, read_only: bool = True) -> Workbook:
    """Open a workbook for reading (formulas as text), with one-line errors."""
    path = Path(path)
    if not path.exists():
        raise UmaokaError(f"{path} does not exist.")
    if path.is_dir():
        raise UmaokaError(f"{path} is a folder, not an .xlsx workbook.")
    if path.stat().st_size > MAX_BYTES:
        raise UmaokaError(f"{path} is larger than {MAX_BYTES // 2**20} MB; that is not a "
                          "league workbook.")
    if not zipfile.is_zipfile(path):
        raise UmaokaError(f"{path} is not an .xlsx workbook (not a zip file); save it from "
                          "Excel as an Excel Workbook (.xlsx).")
    try:
        with zipfile.ZipFile(path) as z:
            if any(i.file_size > MAX_PART for i in z.infolist()):
                raise UmaokaError(f"{path} has a part larger than {MAX_PART // 2**30} GB "
                                  "unpacked; refusing to read it.")
        return load_workbook(path, read_only=read_only, data_only=False, keep_links=False)
    except UmaokaError:
        raise
    except Exception as e:  # zip, XML (defusedxml), openpyxl: all mean a damaged file
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UmaokaError(f"{path} cannot be read as an Excel workbook ({reason}).") from None
