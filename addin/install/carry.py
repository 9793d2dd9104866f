"""The manager's own cells inside umaoka's sheets, carried into the sheets written anew.

An update writes umaoka's sheets (the league tabs, Players, ...) again from what the
workbook holds; a manager also writes into them: a note beside the table, an Email column
added on Players, a comment on a typed name, a fill on an input cell. What our layout
writes is ours, so a cell counts as the manager's when the sheet written anew has **no
cell at that place** (a helper column added to the layout is ours without a list of
columns to keep up to date). Those cells are copied into the new sheet as they are (value,
formula, style: the merged styles and shared strings keep every old entry at its old
number), with the widths of their columns. An input cell of ours (unlocked) keeps the
manager's formatting. The sheet's comments (Excel's legacy comments with their drawing,
and threaded comments) are kept and hang off the new sheet.

What cannot be carried (a chart or picture placed on our sheet, merged cells, conditional
formats, data validations, tables and hyperlinks of the manager's own, a shared formula
whose first cell is ours) is named in one line each, which the command shows before it
writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import unescape

from defusedxml.ElementTree import fromstring

from umaoka.addin.install.parts import R

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_COMMENTS = R + "/comments"
REL_VML = R + "/vmlDrawing"
REL_DRAWING = R + "/drawing"
REL_TABLE = R + "/table"
REL_HYPERLINK = R + "/hyperlink"
REL_THREADED = "http://schemas.microsoft.com/office/2017/10/relationships/threadedComment"
#: Relationships of an old sheet whose parts (comments) hang off the new one.
KEPT_RELS = (REL_COMMENTS, REL_VML, REL_THREADED)

_CELL = re.compile(rb"<c\b([^>]*?)(?:/>|>(.*?)</c>)", re.S)
_REF = re.compile(rb'\sr="([A-Z]{1,3})(\d+)"')
_ROW = re.compile(rb"<row\b([^>]*?)(/?)>")
_ROW_NUM = re.compile(rb'\sr="(\d+)"')
_STYLE = re.compile(rb'\ss="(\d+)"')
_SI = re.compile(rb'(<f\b[^>]*?\ssi=")(\d+)(")')
#: Elements that follow ``legacyDrawing`` in a worksheet (schema order).
_AFTER_LEGACY = (b"legacyDrawingHF", b"drawingHF", b"picture", b"oleObjects", b"controls",
                 b"webPublishItems", b"tableParts", b"extLst")


def col_number(letters: bytes) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ch - 64
    return n


def col_letters(n: int) -> str:
    out = ""
    while n:
        n, k = divmod(n - 1, 26)
        out = chr(65 + k) + out
    return out


def unlocked_styles(styles: bytes | None) -> set[int]:
    """The cell formats (``cellXfs`` numbers) that leave a cell unlocked: input cells."""
    if not styles:
        return set()
    tree = fromstring(styles)
    block = tree.find(f"{{{MAIN}}}cellXfs")
    out = set()
    for i, xf in enumerate([] if block is None else list(block)):
        p = xf.find(f"{{{MAIN}}}protection")
        if p is not None and p.get("locked") in ("0", "false"):
            out.add(i)
    return out


def _has_content(inner: bytes | None) -> bool:
    if not inner:
        return False
    return b"<f" in inner or b"<is>" in inner or re.search(rb"<v>[^<]", inner) is not None


@dataclass
class _Row:
    """A row of the new sheet: where it is in the XML and its cells by column."""

    start: int
    end: int  # after </row> (or the self-closing tag)
    head: bytes
    cells: list[tuple[int, bytes]] = field(default_factory=list)


def _sheet_data(data: bytes) -> tuple[int, int] | None:
    """(start, end) of sheetData's content in ``data``, None without one."""
    m = re.search(rb"<sheetData\b[^>]*?(/?)>", data)
    if m is None:
        return None
    if m.group(1):
        return m.end(), m.end()
    return m.end(), data.index(b"</sheetData>", m.end())


def _new_rows(data: bytes, start: int, end: int, wanted: set[int]) -> dict[int, _Row]:
    """The rows of the new sheet (cells parsed only for ``wanted`` rows)."""
    rows: dict[int, _Row] = {}
    pos = start
    while True:
        m = _ROW.search(data, pos, end)
        if m is None:
            break
        num = _ROW_NUM.search(m.group(1))
        if m.group(2):
            row_end = m.end()
        else:
            row_end = data.index(b"</row>", m.end()) + len(b"</row>")
        if num is not None:
            n = int(num.group(1))
            row = _Row(m.start(), row_end, m.group(0))
            if n in wanted and not m.group(2):
                for c in _CELL.finditer(data, m.end(), row_end - len(b"</row>")):
                    ref = _REF.search(c.group(1))
                    if ref is not None:
                        row.cells.append((col_number(ref.group(1)), c.group(0)))
            rows[n] = row
        pos = row_end
    return rows


def carry_cells(sheet: str, old: bytes, new: bytes, unlocked: set[int],
                notes: list[str], before: bytes | None = None) -> bytes:
    """``new`` (a sheet of ours written anew) with the manager's cells of ``old`` (the
    same sheet as the workbook had it) carried in; what is left out goes to ``notes``.

    ``before``, when given, is the sheet as umaoka writes it for the workbook as it was
    (before the update): a cell there is umaoka's, wherever the new layout moved it (a
    column added to the tab). Without it, a cell counts as the manager's when the new
    sheet has none at its place."""
    if re.search(rb"<\w+:worksheet\b", old[:2000]):
        notes.append(f"{sheet}: the cells typed beside umaoka's are left out (the sheet is "
                     "saved in a form umaoka cannot read: prefixed XML).")
        return new
    span_old, span_new = _sheet_data(old), _sheet_data(new)
    if span_old is None or span_new is None:
        return new
    # the old sheet's cells that hold something, and its styled cells (for input formats)
    old_cells: dict[int, dict[int, tuple[bytes, bool, int | None]]] = {}
    old_heads: dict[int, bytes] = {}
    pos = span_old[0]
    while True:
        m = _ROW.search(old, pos, span_old[1])
        if m is None:
            break
        num = _ROW_NUM.search(m.group(1))
        row_end = m.end() if m.group(2) else old.index(b"</row>", m.end())
        pos = row_end
        if num is None or m.group(2):
            continue
        n = int(num.group(1))
        for c in _CELL.finditer(old, m.end(), row_end):
            ref = _REF.search(c.group(1))
            if ref is None:
                continue
            style = _STYLE.search(c.group(1))
            content = _has_content(c.group(2))
            s = int(style.group(1)) if style else None
            if content or (s is not None and s in unlocked):
                old_cells.setdefault(n, {})[col_number(ref.group(1))] = (c.group(0), content, s)
                old_heads[n] = m.group(0)
    if not old_cells:
        return new
    rows = _new_rows(new, *span_new, set(old_cells))
    span_before = _sheet_data(before) if before is not None else None
    was: dict[int, _Row] | None = None
    if before is not None and span_before is not None:
        was = _new_rows(before, *span_before, set(old_cells))
    offset = 1 + max([-1, *(int(x) for x in re.findall(rb'<f\b[^>]*?\ssi="(\d+)"', new))])
    carried: dict[int, list[tuple[int, bytes]]] = {}  # row -> its cells to put in
    restyled: dict[int, dict[int, int]] = {}  # row -> column -> the manager's style
    masters: set[bytes] = set()
    ours_by_col: dict[int, set[str]] | None = None
    shared = _shared_texts(old)
    for n, cells in old_cells.items():
        ours = dict(rows[n].cells) if n in rows else {}
        then = {c for c, _ in was[n].cells} if was is not None and n in was else set()
        for col, (xml, content, s) in cells.items():
            mine = ours.get(col)
            if was is not None and col not in then and content and mine is not None and (
                    _has_content(_inner(mine)) or _is_input(mine, unlocked)):
                notes.append(f"{sheet}!{col_letters(col)}{n}: {_shown(xml)} is replaced by "
                             "umaoka's cell there.")
                continue
            if was is not None and col in then:  # umaoka's, in the file as it was
                if mine is not None and _is_input(mine, unlocked) and s is not None \
                        and s in unlocked and _style(mine) != s:
                    restyled.setdefault(n, {})[col] = s
                continue
            if mine is not None and _has_content(_inner(mine)) and not _is_input(mine,
                                                                                   unlocked):
                continue  # ours: a label or a formula
            if mine is not None and _is_input(mine, unlocked):
                if content and s not in unlocked and _value(xml) != _value(mine):
                    # typed where an input cell of umaoka's now is (a Team column)
                    notes.append(f"{sheet}!{col_letters(col)}{n}: {_shown(xml)} is replaced "
                                 "by umaoka's input cell there.")
                elif s is not None and s in unlocked and _style(mine) != s:
                    restyled.setdefault(n, {})[col] = s
                continue  # an input cell: its value is what the workbook was read as
            if not content:
                continue
            text = _formula(xml, shared)
            if text is not None:  # a formula of ours left from a longer table?
                if ours_by_col is None:
                    ours_by_col = _formulas_by_column(new)
                if text in ours_by_col.get(col, ()):
                    continue
            carried.setdefault(n, []).append((col, xml))
            if re.search(rb'<f\b[^>]*\st="shared"[^>]*\sref="', xml):
                masters.update(re.findall(rb'<f\b[^>]*?\ssi="(\d+)"', xml))
    # shared formulas: numbered after the new sheet's; one whose first cell is ours loses
    # its formula (the value stays)
    for n, cells in carried.items():
        for i, (col, xml) in enumerate(cells):
            if b"<f" not in xml:
                continue
            si = re.search(rb'<f\b[^>]*?\ssi="(\d+)"', xml)
            if si is not None and si.group(1) not in masters:
                notes.append(f"{sheet}!{col_letters(col)}{n}: its formula is kept as its "
                             "value (it was part of a shared formula starting in a cell of "
                             "umaoka's).")
                xml = re.sub(rb"<f\b[^>]*?(?:/>|>.*?</f>)", b"", xml, flags=re.S)
            else:
                xml = _SI.sub(lambda a: a.group(1) + str(int(a.group(2)) + offset).encode()
                              + a.group(3), xml)
            cells[i] = (col, xml)
    if not carried and not restyled:
        return new
    splices: list[tuple[int, int, bytes]] = []
    fresh: list[tuple[int, bytes]] = []  # rows the new sheet does not have
    for n in sorted(set(carried) | set(restyled)):
        if n not in rows:
            body = b"".join(x for _, x in sorted(carried.get(n, [])))
            head = re.sub(rb"\sspans=\"[^\"]*\"", b"", old_heads[n])
            fresh.append((n, head + body + b"</row>"))
            continue
        row = rows[n]
        mine = dict(row.cells)
        for col, s in restyled.get(n, {}).items():
            mine[col] = _STYLE.sub(b' s="' + str(s).encode() + b'"', mine[col], count=1)
        for col, xml in carried.get(n, []):
            mine[col] = xml
        head = re.sub(rb"\sspans=\"[^\"]*\"", b"", row.head)
        if head.endswith(b"/>"):
            head = head[:-2] + b">"
        splices.append((row.start, row.end,
                        head + b"".join(x for _, x in sorted(mine.items())) + b"</row>"))
    # rows of the manager's alone go between the new sheet's rows, in order
    order = sorted(rows.items())
    for n, xml in fresh:
        at = next((r.start for k, r in order if k > n), span_new[1])
        splices.append((at, at, xml))
    out = _splice(new, splices, span_new)
    out = _widths(old, out, {c for cells in carried.values() for c, _ in cells})
    return _dimension(out, carried)


_F = re.compile(rb"<f\b([^>]*?)(?:/>|>(.*?)</f>)", re.S)


def _norm_formula(text: bytes) -> str:
    """A formula with its numbers (row numbers above all) blanked: the same formula of
    another row compares equal."""
    return re.sub(r"\d+", "#", unescape(text.decode("utf-8", "replace"))).replace(" ", "")


def _shared_texts(data: bytes) -> dict[bytes, str]:
    """Shared formulas of a sheet: their number -> the first cell's formula, normalised."""
    out = {}
    for m in _F.finditer(data):
        if m.group(2) and b'"shared"' in m.group(1):
            si = re.search(rb'\ssi="(\d+)"', m.group(1))
            if si is not None:
                out[si.group(1)] = _norm_formula(m.group(2))
    return out


def _formula(cell: bytes, shared: dict[bytes, str]) -> str | None:
    m = _F.search(cell)
    if m is None:
        return None
    if m.group(2):
        return _norm_formula(m.group(2))
    si = re.search(rb'\ssi="(\d+)"', m.group(1))
    return shared.get(si.group(1), "") if si else ""


def _formulas_by_column(data: bytes) -> dict[int, set[str]]:
    """The new sheet's formulas by column, normalised (see :func:`_norm_formula`)."""
    out: dict[int, set[str]] = {}
    for c in _CELL.finditer(data):
        if c.group(2) and b"<f" in c.group(2):
            ref = _REF.search(c.group(1))
            text = _formula(c.group(0), {})
            if ref is not None and text:
                out.setdefault(col_number(ref.group(1)), set()).add(text)
    return out


def _value(cell: bytes) -> bytes:
    m = _CELL.match(cell)
    inner = (m.group(2) if m else None) or b""
    v = re.search(rb"<v>(.*?)</v>|<t\b[^>]*>(.*?)</t>", inner, re.S)
    return (v.group(1) or v.group(2) or b"") if v else b""


def _shown(cell: bytes) -> str:
    """What the manager sees of a cell, for a message (a shared string by its number)."""
    if b't="s"' in cell[:cell.find(b">")]:
        return "your entry"
    text = unescape(_value(cell).decode("utf-8", "replace"))
    return f'"{text[:40]}"' if text else "your entry"


def _inner(cell: bytes) -> bytes | None:
    m = _CELL.match(cell)
    return m.group(2) if m else None


def _style(cell: bytes) -> int | None:
    m = _STYLE.search(cell[:cell.find(b">")])
    return int(m.group(1)) if m else None


def _is_input(cell: bytes, unlocked: set[int]) -> bool:
    s = _style(cell)
    return s is not None and s in unlocked


def _splice(data: bytes, splices: list[tuple[int, int, bytes]], span: tuple[int, int]
            ) -> bytes:
    if span[0] == span[1] and re.search(rb"<sheetData\b[^>]*/>", data):
        m = re.search(rb"<sheetData\b([^>]*?)/>", data)
        assert m is not None
        opened = b"<sheetData" + m.group(1) + b">"
        data = data[:m.start()] + opened + b"</sheetData>" + data[m.end():]
        shift = len(opened) - (m.end() - m.start())
        splices = [(a + shift if a >= m.end() else a, b + shift if b >= m.end() else b, x)
                   for a, b, x in splices]
    out, last = [], 0
    for a, b, x in sorted(splices, key=lambda s: (s[0], s[1])):
        out += [data[last:a], x]
        last = b
    out.append(data[last:])
    return b"".join(out)


_COL = re.compile(rb"<col\b[^>]*?/>")


def _col_range(tag: bytes) -> tuple[int, int]:
    lo = re.search(rb'\smin="(\d+)"', tag)
    hi = re.search(rb'\smax="(\d+)"', tag)
    a = int(lo.group(1)) if lo else 0
    return a, int(hi.group(1)) if hi else a


def _widths(old: bytes, new: bytes, columns: set[int]) -> bytes:
    """The old sheet's column widths for the manager's columns the new sheet leaves alone."""
    old_cols = re.search(rb"<cols>(.*?)</cols>", old, re.S)
    if not columns or old_cols is None:
        return new
    new_cols = re.search(rb"<cols>(.*?)</cols>", new, re.S)
    taken: set[int] = set()
    for tag in _COL.findall(new_cols.group(1) if new_cols else b""):
        a, b = _col_range(tag)
        taken.update(range(a, b + 1))
    extra = []
    for tag in _COL.findall(old_cols.group(1)):
        a, b = _col_range(tag)
        for c in sorted(columns):
            if a <= c <= b and c not in taken:
                one = re.sub(rb'\smin="\d+"', b' min="' + str(c).encode() + b'"', tag)
                extra.append((c, re.sub(rb'\smax="\d+"', b' max="' + str(c).encode() + b'"',
                                        one)))
                taken.add(c)
    if not extra:
        return new
    if new_cols is None:
        at = new.index(b"<sheetData")
        body = b"".join(t for _, t in sorted(extra))
        return new[:at] + b"<cols>" + body + b"</cols>" + new[at:]
    tags = [(_col_range(t)[0], t) for t in _COL.findall(new_cols.group(1))] + extra
    body = b"".join(t for _, t in sorted(tags))
    return new[:new_cols.start(1)] + body + new[new_cols.end(1):]


def _dimension(data: bytes, carried: dict[int, list[tuple[int, bytes]]]) -> bytes:
    m = re.search(rb'<dimension\b[^>]*?\sref="([A-Z]+)(\d+)(?::([A-Z]+)(\d+))?"', data)
    if m is None or not carried:
        return data
    c1, r1 = col_number(m.group(1)), int(m.group(2))
    c2 = col_number(m.group(3)) if m.group(3) else c1
    r2 = int(m.group(4)) if m.group(4) else r1
    cols = [c for cells in carried.values() for c, _ in cells]
    c1, c2 = min(c1, *cols), max(c2, *cols)
    r1, r2 = min(r1, *carried), max(r2, *carried)
    ref = f"{col_letters(c1)}{r1}:{col_letters(c2)}{r2}".encode()
    return data[:m.start(1)] + ref + data[m.end(4) if m.group(4) else m.end(2):]


def with_legacy_drawing(data: bytes, rid: str) -> bytes:
    """A sheet's XML pointing to its comments' drawing ``rid`` (schema order kept)."""
    tag = f'<legacyDrawing xmlns:r="{R}" r:id="{rid}"/>'.encode()
    spots = [m.start() for name in _AFTER_LEGACY
             if (m := re.search(rb"<(?:\w+:)?" + name + rb"\b", data))]
    at = min(spots) if spots else data.rindex(b"</")
    return data[:at] + tag + data[at:]


def left_out(sheet: str, old: bytes, layouts: list[bytes], tables: tuple[int, int],
             anchors: tuple[int, int]) -> list[str]:
    """One line for each thing of the manager's on ``sheet`` that the update leaves out:
    what ``old`` has that none of umaoka's ``layouts`` of the sheet (the new one, and the
    one umaoka writes for the workbook as it was) has; ``tables`` and ``anchors`` (charts
    and pictures) are counted on the old sheet and on umaoka's."""
    notes = []
    if anchors[0] > anchors[1]:
        k = anchors[0] - anchors[1]
        notes.append(f"{sheet}: {k} chart{'s' if k > 1 else ''} or picture{'s' if k > 1 else ''}"
                     " placed on this sheet (move them to a sheet of your own to keep them).")
    kinds = [(rb"mergeCell", rb"ref", "merged cells"),
             (rb"conditionalFormatting", rb"sqref", "conditional format"),
             (rb"dataValidation", rb"sqref", "data validation"),
             (rb"hyperlink", rb"ref", "hyperlink")]
    for tag, attr, what in kinds:
        pattern = rb"<(?:\w+:)?" + tag + rb"\b[^>]*?\s" + attr + rb'="([^"]*)"'
        ours = {_norm(r) for xml in layouts for r in re.findall(pattern, xml)}
        for r in re.findall(pattern, old):
            if _norm(r) not in ours:
                notes.append(f"{sheet}!{r.decode()}: {what} of your own.")
    if tables[0] > tables[1]:
        k = tables[0] - tables[1]
        notes.append(f"{sheet}: {k} table{'s' if k > 1 else ''} (Format as Table) of your "
                     "own.")
    return notes


def _norm(ref: bytes) -> frozenset[bytes]:
    return frozenset(ref.replace(b"$", b"").split())
