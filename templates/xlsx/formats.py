"""Which kind of file a spreadsheet is: one clear sentence for a file umaoka cannot read.

League managers keep leagues in LibreOffice, Numbers, old Excel or CSV exports too; openpyxl
reads only Excel Workbooks (.xlsx), and its own message for anything else ("File is not a
zip file", "openpyxl does not support the old .xls file format") does not say what to do.
The file's first bytes decide (its name can lie), the extension only names what it is.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from umaoka.engine import UmaokaError
from umaoka.templates.xlsx.io import check_regular, open_zip

_OLE2 = bytes.fromhex("D0CF11E0A1B11AE1")  # old binary Office files (.xls)
_SAVE = "save it as Excel Workbook (.xlsx)"


def _kind(path: Path) -> str | None:
    """What the file is when it is not an Excel workbook, else None."""
    suffix = path.suffix.lower()
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(_OLE2):
        return "an old Excel 97-2003 workbook (.xls)"
    if head.startswith(b"PK"):
        try:
            with open_zip(path) as z:
                names = set(z.namelist())
                mime = z.read("mimetype").decode("ascii", "replace") if "mimetype" in names \
                    else ""
        except (zipfile.BadZipFile, OSError, KeyError):
            return None  # damaged: open_workbook says so
        if "[Content_Types].xml" in names:  # an Office Open XML file, whatever its name
            if suffix in (".xlsx", ".xlsm", ".xltx", ".xltm"):
                return None
            raise UmaokaError(f"{path.name} looks like an Excel workbook with another name; "
                              f"rename it to end in .xlsx.")
        if "opendocument.spreadsheet" in mime:
            return "an OpenDocument spreadsheet (LibreOffice, .ods)"
        if any(n.startswith("Index/") for n in names) or suffix == ".numbers":
            return "an Apple Numbers spreadsheet"
        return None
    if suffix in (".csv", ".txt", ".tsv"):
        return ("a text (CSV) file, not a workbook; settle a folder of CSV files with "
                "`umaoka batch`, or open it in Excel and")
    if suffix in (".ods", ".xls", ".numbers"):
        return "not a spreadsheet umaoka can read (damaged?); open it and"
    return None


def check_spreadsheet(path: Path) -> None:
    """Refuse an input that is missing, unreadable or not an Excel workbook, in one sentence.

    >>> check_spreadsheet(Path("no-such-league.xlsx"))
    Traceback (most recent call last):
    umaoka.engine.errors.UmaokaError: no-such-league.xlsx does not exist.
    """
    path = Path(path)
    if not path.exists():
        raise UmaokaError(f"{path} does not exist.")
    if path.is_dir():
        if path.suffix.lower() == ".numbers":
            raise UmaokaError(f"{path} is an Apple Numbers spreadsheet; in Numbers, export it "
                              f"as Excel (.xlsx).")
        raise UmaokaError(f"{path} is a folder, not an .xlsx workbook.")
    check_regular(path)
    if not os.access(path, os.R_OK):
        raise UmaokaError(f"{path} cannot be read (permission denied); check its permissions.")
    try:
        kind = _kind(path)
    except OSError as e:
        raise UmaokaError(f"{path} cannot be read ({e.strerror or e}).") from None
    if kind:
        raise UmaokaError(f"{path.name} is {kind} {_SAVE}." if kind.endswith(" and")
                          else f"{path.name} is {kind}; {_SAVE}.")
