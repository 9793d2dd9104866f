"""Excel's published limits, checked on an .xlsx package as Excel reads it.

Microsoft's "Excel specifications and limits"
(https://support.microsoft.com/en-us/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3):
a formula's contents at most 8,192 characters, 64 levels of nested functions, 255 arguments
to a function; a cell at most 32,767 characters; a sheet name at most 31 characters and
none of ``[]:*?/\\``; a header or footer at most 255 characters; a column at most 255
characters wide, a row at most 409 points high; a data validation's typed list at most 255
characters. Excel reports a file past them as damaged and removes what is past them;
LibreOffice accepts it, so only a check of the file itself sees it.

The package is read as XML (no openpyxl), so every place a formula lives is seen as it is
stored: cells (plain, shared and array formulas), defined names (print areas too), data
validations, conditional formats and chart ranges.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from defusedxml import ElementTree

FORMULA_MAX = 8192
NESTING_MAX = 64
ARGUMENTS_MAX = 255
CELL_TEXT_MAX = 32767
SHEET_NAME_MAX = 31
SHEET_NAME_BAD = set("[]:*?/\\")
LIST_MAX = 255
HEADER_FOOTER_MAX = 255
COLUMN_WIDTH_MAX = 255
ROW_HEIGHT_MAX = 409

M = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
_CELL_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")
_R1C1 = re.compile(r"^[Rr](\d*)[Cc](\d*)$|^[RrCc]$")
_NAME = re.compile(r"^[A-Za-z_\\][A-Za-z0-9_.\\]*$", re.UNICODE)
_FUNC_CHAR = re.compile(r"[A-Za-z0-9_.]")


@dataclass(frozen=True)
class Shape:
    """What a formula asks of Excel: its length, deepest function nesting and the most
    arguments one function call gets."""

    length: int
    nesting: int
    arguments: int


def shape(formula: str) -> Shape:
    """The length, function nesting and widest call of ``formula`` (with or without its
    ``=``). Parentheses and commas inside string literals ("..."), quoted sheet names
    ('My Sheet'!A1), structured references ([...]) and array constants ({...}) are not
    calls or arguments.

    >>> shape('=IF(A1="(,",SUM(1,2,3),"")')
    Shape(length=25, nesting=2, arguments=3)
    >>> shape("SUM('a,(b'!A1,{1,2,3})")
    Shape(length=22, nesting=1, arguments=2)
    >>> shape("(1+2)*MAX((A1),B1)")
    Shape(length=18, nesting=1, arguments=2)
    """
    text = formula[1:] if formula.startswith("=") else formula
    stack: list[list[int]] = []  # per open parenthesis: [is a call, commas so far]
    nesting = calls = widest = 0
    brace = bracket = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":  # a string or a quoted sheet name: its quote doubled inside
            j = i + 1
            while j < n:
                if text[j] == ch:
                    if j + 1 < n and text[j + 1] == ch:
                        j += 2
                        continue
                    break
                j += 1
            i = j + 1
            continue
        if ch == "[":
            bracket += 1
        elif ch == "]":
            bracket = max(0, bracket - 1)
        elif bracket:
            pass
        elif ch == "{":
            brace += 1
        elif ch == "}":
            brace = max(0, brace - 1)
        elif brace:
            pass
        elif ch == "(":
            is_call = i > 0 and bool(_FUNC_CHAR.match(text[i - 1]))
            stack.append([int(is_call), 0])
            if is_call:
                calls += 1
                nesting = max(nesting, calls)
        elif ch == ")":
            if stack:
                is_call, commas = stack.pop()
                if is_call:
                    widest = max(widest, commas + 1)
                    calls -= 1
        elif ch == "," and stack:
            stack[-1][1] += 1
        i += 1
    return Shape(len(text), nesting, widest)


def is_cell_reference(name: str) -> bool:
    """A name Excel reads as a cell (A1, xfd1048576, R1C1, R, C) rather than a name."""
    m = _CELL_REF.match(name)
    if m:
        col = 0
        for ch in m.group(1).upper():
            col = col * 26 + ord(ch) - 64
        return col <= 16384 and 1 <= int(m.group(2)) <= 1048576
    return bool(_R1C1.match(name))


def _xml(z: zipfile.ZipFile, part: str) -> object:
    return ElementTree.fromstring(z.read(part))


def _rels(z: zipfile.ZipFile, part: str) -> dict[str, str]:
    """A part's relationships: id -> the target part's path in the package."""
    p = PurePosixPath(part)
    rels = p.parent / "_rels" / (p.name + ".rels")
    if str(rels) not in z.namelist():
        return {}
    out = {}
    for rel in _xml(z, str(rels)).iter(f"{PR}Relationship"):
        target = rel.get("Target", "")
        if rel.get("TargetMode") == "External":
            continue
        if target.startswith("/"):
            path = target[1:]
        else:
            parts: list[str] = []
            for bit in (p.parent / target).parts:
                if bit == "..":
                    parts.pop()
                elif bit != ".":
                    parts.append(bit)
            path = "/".join(parts)
        out[rel.get("Id", "")] = path
    return out


def _unescape(text: str) -> str:
    """Text as Excel shows it: ``_xHHHH_`` escapes of the XML turned back into characters."""
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), text)


def _text(si: object) -> str:
    """The text of a shared string or inline string (rich runs joined, phonetic runs out)."""
    if si is None:
        return ""
    direct = si.find(f"{M}t")  # type: ignore[attr-defined]
    if direct is not None:
        return direct.text or ""
    return "".join(r.findtext(f"{M}t") or "" for r in si.findall(f"{M}r"))  # type: ignore


def _col_row(ref: str) -> tuple[int, int]:
    m = _CELL_REF.match(ref)
    assert m, ref
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return col, int(m.group(2))


def problems(path: Path) -> list[str]:
    """Everything in the workbook at ``path`` past Excel's limits, one line each (empty
    when the file keeps to them)."""
    out: list[str] = []

    def formula(where: str, text: str | None) -> None:
        if not text:
            return
        s = shape(text)
        if s.length > FORMULA_MAX:
            out.append(f"{where}: formula of {s.length:,} characters (Excel: {FORMULA_MAX:,})")
        if s.nesting > NESTING_MAX:
            out.append(f"{where}: {s.nesting} nested functions (Excel: {NESTING_MAX})")
        if s.arguments > ARGUMENTS_MAX:
            out.append(f"{where}: a function of {s.arguments} arguments "
                       f"(Excel: {ARGUMENTS_MAX})")

    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        shared: list[str] = []
        if "xl/sharedStrings.xml" in names:
            shared = [_text(si) for si in _xml(z, "xl/sharedStrings.xml").iter(f"{M}si")]

        book = _xml(z, "xl/workbook.xml")
        book_rels = _rels(z, "xl/workbook.xml")
        sheets: list[tuple[str, str]] = []
        seen: set[str] = set()
        for sh in book.iter(f"{M}sheet"):  # type: ignore[attr-defined]
            name = sh.get("name", "")
            if len(name) > SHEET_NAME_MAX or SHEET_NAME_BAD & set(name) or not name.strip() \
                    or name.startswith("'") or name.endswith("'"):
                out.append(f"sheet name {name!r}: not a name Excel allows")
            if name.lower() in seen:
                out.append(f"sheet name {name!r}: twice")
            seen.add(name.lower())
            sheets.append((name, book_rels[sh.get(f"{R}id")]))
        defined: set[tuple[str, str]] = set()
        for dn in book.iter(f"{M}definedName"):  # type: ignore[attr-defined]
            name = dn.get("name", "")
            scope = dn.get("localSheetId", "")
            where = f"defined name {name}" + (f" (sheet {scope})" if scope else "")
            if not name.startswith("_xlnm.") and (
                    not _NAME.match(name) or is_cell_reference(name) or len(name) > 255):
                out.append(f"{where}: not a valid name")
            if (name.lower(), scope) in defined:
                out.append(f"{where}: defined twice")
            defined.add((name.lower(), scope))
            formula(where, dn.text)

        for sheet, part in sheets:
            ws = _xml(z, part)
            rels = _rels(z, part)
            cells: dict[tuple[int, int], str] = {}
            for c in ws.iter(f"{M}c"):  # type: ignore[attr-defined]
                ref = c.get("r", "")
                f = c.find(f"{M}f")
                if f is not None:
                    formula(f"{sheet}!{ref}", f.text)
                kind = c.get("t")
                v = c.find(f"{M}v")
                text = None
                if kind == "s" and v is not None and v.text is not None:
                    text = shared[int(v.text)]
                elif kind == "inlineStr":
                    text = _text(c.find(f"{M}is"))
                elif kind == "str" and v is not None:
                    text = v.text or ""
                if text is not None:
                    if len(text) > CELL_TEXT_MAX:
                        out.append(f"{sheet}!{ref}: text of {len(text):,} characters")
                    if ref:
                        cells[_col_row(ref)] = text
            for dv in ws.iter(f"{M}dataValidation"):  # type: ignore[attr-defined]
                where = f"{sheet} data validation {dv.get('sqref')}"
                for tag in ("formula1", "formula2"):
                    f = dv.find(f"{M}{tag}")
                    if f is None or not f.text:
                        continue
                    formula(where, f.text)
                    if dv.get("type") == "list" and f.text.startswith('"') \
                            and len(f.text) - 2 > LIST_MAX:
                        out.append(f"{where}: a list of {len(f.text) - 2} characters "
                                   f"(Excel: {LIST_MAX})")
            for cf in ws.iter(f"{M}conditionalFormatting"):  # type: ignore[attr-defined]
                for f in cf.iter(f"{M}formula"):
                    formula(f"{sheet} conditional format {cf.get('sqref')}", f.text)
            for hf in ws.iter(f"{M}headerFooter"):  # type: ignore[attr-defined]
                for part_ in hf:
                    if len(part_.text or "") > HEADER_FOOTER_MAX:
                        out.append(f"{sheet} {part_.tag[len(M):]}: "
                                   f"{len(part_.text or '')} characters")
            for col in ws.iter(f"{M}col"):  # type: ignore[attr-defined]
                if float(col.get("width", "0")) > COLUMN_WIDTH_MAX:
                    out.append(f"{sheet} column {col.get('min')}: width {col.get('width')}")
            for row in ws.iter(f"{M}row"):  # type: ignore[attr-defined]
                if float(row.get("ht", "0")) > ROW_HEIGHT_MAX:
                    out.append(f"{sheet} row {row.get('r')}: height {row.get('ht')}")
            for tp in ws.iter(f"{M}tablePart"):  # type: ignore[attr-defined]
                table = _xml(z, rels[tp.get(f"{R}id")])
                start = table.get("ref", "").split(":")[0]  # type: ignore[attr-defined]
                col0, row0 = _col_row(start)
                header_rows = int(table.get("headerRowCount", "1"))  # type: ignore
                for k, tc in enumerate(table.iter(f"{M}tableColumn")):  # type: ignore
                    name = _unescape(tc.get("name", ""))
                    header = cells.get((col0 + k, row0)) if header_rows else name
                    if header is None or _unescape(header) != name:
                        out.append(f"{sheet} table {table.get('name')}: column "  # type: ignore
                                   f"{name!r} under the header {header!r}")
                    formula(f"{sheet} table {table.get('name')} column {name}",  # type: ignore
                            tc.findtext(f"{M}calculatedColumnFormula"))
            for rid in [d.get(f"{R}id") for d in ws.iter(f"{M}drawing")]:  # type: ignore
                drawing = rels.get(rid or "")
                if not drawing:
                    continue
                for chart in _rels(z, drawing).values():
                    if chart in names and "/charts/" in chart:
                        for f in _xml(z, chart).iter(f"{C}f"):  # type: ignore[attr-defined]
                            formula(f"{sheet} chart {chart}", f.text)
    return out
