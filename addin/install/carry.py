"""The manager's own cells inside umaoka's sheets, carried into the sheets written anew.

An update writes umaoka's sheets (the league tabs, Players, ...) again from what the
workbook holds; a manager also writes into them: a note beside the table, an Email column
added on Players, a comment on a typed name, a fill on an input cell. What our layout
writes is ours, so a cell counts as the manager's when the sheet written anew has **no
cell at that place** (a helper column added to the layout is ours without a list of
columns to keep up to date). When the header rows moved (a column added to a tab) or
something looks left out, the sheet as umaoka writes it for the workbook as it was
decides instead: what is there is umaoka's, wherever the new layout put it. Those cells
are copied into the new sheet as they are (value, formula, style: the merged styles and
shared strings keep every old entry at its old number), with the widths of their
columns. An input cell of ours (unlocked) keeps the manager's formatting. The sheet's
comments (Excel's legacy comments with their drawing, and threaded comments) are kept
and hang off the new sheet.

What cannot be carried (a chart or picture placed on our sheet, merged cells, conditional
formats, data validations, tables and hyperlinks of the manager's own, a shared formula
whose first cell is ours) is named in one line each, which the command shows before it
writes.

One module, not two: finding the manager's cells, carrying them and naming what is
left out read the same two sheets with the same few patterns, in one pass each.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from html import unescape
from itertools import compress
from typing import Any

from defusedxml.ElementTree import fromstring

from umaoka.addin.install.parts import MAIN, R

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
_ROW_AT = re.compile(rb'<row\b[^>]*?\sr="(\d+)"')
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


def _sheet_data(data: bytes) -> tuple[int, int] | None:
    """(start, end) of sheetData's content in ``data``, None without one."""
    m = re.search(rb"<sheetData\b[^>]*?(/?)>", data)
    if m is None:
        return None
    if m.group(1):
        return m.end(), m.end()
    return m.end(), data.index(b"</sheetData>", m.end())


_KEY = re.compile(rb'<c r="([A-Z]{1,3}\d+)"')
#: A cell holding something: a formula, a value, a text of its own.
_FILLED = re.compile(rb'<c r="([A-Z]{1,3}\d+)"[^>]*>(?:<f[\s>/]|<v>[^<]|<is>)')
_SPLIT = re.compile(rb"([A-Z]+)(\d+)")


def _styled(data: bytes, span: tuple[int, int], styles: list[bytes]) -> dict[bytes, bytes]:
    """The cells of a sheet in one of ``styles`` (format numbers) -> their format."""
    if not styles:
        return {}
    pattern = re.compile(rb'<c r="([A-Z]{1,3}\d+)" s="(' + b"|".join(styles) + rb')"')
    return dict(pattern.findall(data, *span))


def _place(key: bytes) -> tuple[int, int]:
    """(row, column) of a cell reference such as ``AZ12``."""
    m = _SPLIT.match(key)
    assert m is not None
    return int(m.group(2)), col_number(m.group(1))


def _row_index(data: bytes, start: int, end: int) -> dict[int, tuple[int, int, bool]]:
    """Each row's number -> (start of its tag, end of its tag, closed at once)."""
    out = {}
    for m in _ROW.finditer(data, start, end):
        num = _ROW_NUM.search(m.group(1))
        if num is not None:
            out[int(num.group(1))] = (m.start(), m.end(), bool(m.group(2)))
    return out


def _row_cells(data: bytes, where: tuple[int, int, bool]) -> tuple[bytes, int, int,
                                                                    dict[int, bytes]]:
    """A row's opening tag, its start and end (after ``</row>``) and its cells by column."""
    start, head_end, closed = where
    end = head_end if closed else data.index(b"</row>", head_end) + len(b"</row>")
    cells = {}
    if not closed:
        for c in _CELL.finditer(data, head_end, end - len(b"</row>")):
            ref = _REF.search(c.group(1))
            if ref is not None:
                cells[col_number(ref.group(1))] = c.group(0)
    return data[start:head_end], start, end, cells


def _top_filled(data: bytes, rows: int) -> set[bytes]:
    """The filled cells of a sheet's first ``rows`` rows (its title and headers)."""
    span = _sheet_data(data)
    if span is None:
        return set()
    end = span[1]
    for m in _ROW_AT.finditer(data, *span):
        if int(m.group(1)) > rows:
            end = m.start()
            break
    return set(_FILLED.findall(data, span[0], end))


def layout_moved(old: bytes, new: bytes, rows: int) -> bool:
    """Whether the title and header rows (the first ``rows``) hold cells at other places
    in ``old`` than in ``new`` within the new layout's width: a column added to the layout
    (or the manager's own cells up there). Then umaoka's cells cannot be told from the
    manager's by the new layout alone."""
    ours = _top_filled(new, rows)
    width = max((_place(k)[1] for k in ours), default=0)
    return {k for k in _top_filled(old, rows) if _place(k)[1] <= width} != ours


def carry_cells(sheet: str, old: bytes, new: bytes, unlocked: set[int],
                notes: list[str], before: bytes | None = None) -> bytes:
    """``new`` (a sheet of ours written anew) with the manager's cells of ``old`` (the
    same sheet as the workbook had it) carried in; what is left out goes to ``notes``.

    ``before``, when given, is the sheet as umaoka writes it for the workbook as it was
    (before the update): a cell there is umaoka's, wherever the new layout moved it (a
    column added to the tab). Without it, a cell counts as the manager's when the new
    sheet has none at its place.

    An input cell (unlocked) keeps the manager's formatting: a format other than the one
    the old sheet gives most of the cells where the new sheet puts the same input format
    (so a file re-saved by another program, whose formats are numbered anew, or written
    by an older umaoka, takes the new formats, and a cell the manager made bold stays
    bold)."""
    if re.search(rb"<\w+:worksheet\b", old[:2000]):
        notes.append(f"{sheet}: the cells typed beside umaoka's are left out (the sheet is "
                     "saved in a form umaoka cannot read: prefixed XML).")
        return new
    span_old, span_new = _sheet_data(old), _sheet_data(new)
    if span_old is None or span_new is None:
        return new
    inputs = sorted({str(i).encode() for i in unlocked})
    old_s = _styled(old, span_old, inputs)  # input cells -> their format
    new_s = _styled(new, span_new, inputs)
    ours = set(_KEY.findall(new, *span_new))
    was: set[bytes] | None = None
    if before is not None and (span := _sheet_data(before)) is not None:
        was = set(_KEY.findall(before, *span))
    take: dict[int, set[int]] = {}  # row -> columns of the manager's cells to carry
    filled = set(_FILLED.findall(old, *span_old))
    for key in filled - ours - (was or set()):
        row, col = _place(key)
        take.setdefault(row, set()).add(col)
    _drop_array_parts(old, span_old, take)
    # typed where umaoka's cell now is: an input cell of ours that was none, or (when the
    # sheet as umaoka wrote it is known) any cell of ours that was not umaoka's
    clash = (filled & new_s.keys()) - old_s.keys()
    if was is not None:
        clash |= (filled & ours) - was
    for key in sorted(clash - (was or set()), key=_place):
        row, col = _place(key)
        notes.append(f"{sheet}!{col_letters(col)}{row}: {_shown(old, key)} is replaced "
                     "by umaoka's cell there.")
    # input formats: the old format most input cells of one new format had is umaoka's
    both = list(old_s.keys() & new_s.keys())
    pairs = list(zip(map(new_s.__getitem__, both), map(old_s.__getitem__, both)))
    common: dict[bytes, tuple[int, bytes]] = {}
    for (mine, s), k in Counter(pairs).items():
        if k > common.get(mine, (0, b""))[0]:
            common[mine] = (k, s)
    odd = {(mine, s) for mine, s in set(pairs) if s != mine and s != common[mine][1]}
    restyled: dict[int, dict[int, bytes]] = {}
    for key, (_, s) in compress(zip(both, pairs), map(odd.__contains__, pairs)):
        row, col = _place(key)
        restyled.setdefault(row, {})[col] = s
    if not take and not restyled:
        return new
    carried = _old_cells(sheet, old, new, span_old, span_new, take, notes)
    if not carried and not restyled:
        return new
    rows = _row_index(new, *span_new)
    old_rows = _row_index(old, *span_old) if set(carried) - set(rows) else {}
    splices: list[tuple[int, int, bytes]] = []
    numbers = sorted(rows)
    for n in sorted(set(carried) | set(restyled)):
        if n not in rows:
            body = b"".join(x for _, x in sorted(carried.get(n, {}).items()))
            head = re.sub(rb'\sspans="[^"]*"', b"", old[old_rows[n][0]:old_rows[n][1]])
            head = head[:-2] + b">" if head.endswith(b"/>") else head
            i = bisect_right(numbers, n)
            at = rows[numbers[i]][0] if i < len(numbers) else span_new[1]
            splices.append((at, at, head + body + b"</row>"))
            continue
        head, start, end, mine = _row_cells(new, rows[n])
        for col, style in restyled.get(n, {}).items():
            if col in mine:
                mine[col] = _STYLE.sub(b' s="' + style + b'"', mine[col], count=1)
        mine.update(carried.get(n, {}))
        head = re.sub(rb'\sspans="[^"]*"', b"", head)
        head = head[:-2] + b">" if head.endswith(b"/>") else head
        splices.append((start, end, head + b"".join(x for _, x in sorted(mine.items()))
                        + b"</row>"))
    out = _splice(new, splices, span_new)
    columns = {c for cells in carried.values() for c in cells}
    out = _widths(old, out, columns)
    return _dimension(out, {n: list(cells.items()) for n, cells in carried.items()})


_ARRAY = re.compile(rb'<c r="([A-Z]{1,3}\d+)"[^>]*>\s*<f\b(?=[^>]*\st="array")[^>]*?'
                    rb'\sref="([A-Z]{1,3}\d+)(?::([A-Z]{1,3}\d+))?"')


def _drop_array_parts(old: bytes, span: tuple[int, int], take: dict[int, set[int]]) -> None:
    """Take out of ``take`` the cells of an array formula whose first cell is not taken:
    the results of umaoka's block formula (the final scores) left below a shorter table."""
    if not take:
        return
    for m in _ARRAY.finditer(old, *span):
        row, col = _place(m.group(1))
        if col in take.get(row, ()):
            continue  # the manager's own array formula
        r1, c1 = _place(m.group(2))
        r2, c2 = _place(m.group(3)) if m.group(3) else (r1, c1)
        for n in [n for n in take if r1 <= n <= r2]:
            take[n] = {c for c in take[n] if not c1 <= c <= c2}
            if not take[n]:
                del take[n]


def _old_cells(sheet: str, old: bytes, new: bytes, span_old: tuple[int, int],
               span_new: tuple[int, int], take: dict[int, set[int]], notes: list[str]
               ) -> dict[int, dict[int, bytes]]:
    """The manager's cells to carry, as XML (row -> column -> cell): a formula of ours
    left from a longer table is not one of them; shared formulas get numbers after the
    new sheet's, and one whose first cell is not carried keeps its value only."""
    index = _row_index(old, *span_old)
    found: dict[int, dict[int, bytes]] = {}
    for n, cols in take.items():
        if n in index:
            cells = _row_cells(old, index[n])[3]
            found[n] = {c: cells[c] for c in cols if c in cells}
    shared: dict[bytes, str] | None = None
    ours: dict[int, set[str]] = {}
    masters: set[bytes] = set()
    for cells in found.values():
        for col, xml in list(cells.items()):
            if b"<f" not in xml:
                continue
            if shared is None:
                shared = _shared_texts(old)
            if col not in ours:
                ours[col] = _column_formulas(new, span_new, col)
            if _formula(xml, shared) in ours[col]:
                del cells[col]
            elif re.search(rb'<f\b[^>]*\st="shared"[^>]*\sref="', xml):
                masters.update(re.findall(rb'<f\b[^>]*?\ssi="(\d+)"', xml))
    offset = 1 + max([-1, *(int(x) for x in re.findall(rb'<f\b[^>]*?\ssi="(\d+)"', new))])
    for n, cells in found.items():
        for col, xml in list(cells.items()):
            si = re.search(rb'<f\b[^>]*?\ssi="(\d+)"', xml)
            if si is None:
                continue
            if si.group(1) not in masters:
                notes.append(f"{sheet}!{col_letters(col)}{n}: its formula is kept as its "
                             "value (it was part of a shared formula starting in a cell of "
                             "umaoka's).")
                cells[col] = re.sub(rb"<f\b[^>]*?(?:/>|>.*?</f>)", b"", xml, flags=re.S)
            else:
                cells[col] = _SI.sub(lambda a: a.group(1) + str(int(a.group(2)) + offset)
                                     .encode() + a.group(3), xml)
    return {n: cells for n, cells in found.items() if cells}


def _column_formulas(data: bytes, span: tuple[int, int], col: int) -> set[str]:
    """The formulas of one column of the new sheet, normalised (:func:`_norm_formula`)."""
    letters = col_letters(col).encode()
    pattern = re.compile(rb'<c r="' + letters + rb'\d+"[^>]*><f\b[^>]*>([^<]*)</f>')
    return {_norm_formula(f) for f in pattern.findall(data, *span)}


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


def _shown(data: bytes, key: bytes) -> str:
    """What the manager sees of the cell ``key`` of a sheet, for a message (a text of the
    shared strings is not looked up)."""
    m = re.search(rb'<c r="' + key + rb'"[^>]*?(?:/>|>(.*?)</c>)', data, re.S)
    cell = m.group(0) if m else b""
    if not cell or b't="s"' in cell[:cell.find(b">")]:
        return "your entry"
    v = re.search(rb"<v>(.*?)</v>|<t\b[^>]*>(.*?)</t>", m.group(1) or b"", re.S)
    text = unescape(((v.group(1) or v.group(2) or b"") if v else b"").decode("utf-8",
                                                                           "replace"))
    return f'"{text[:40]}"' if text else "your entry"


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
    old, layouts = _tail(old), [_tail(xml) for xml in layouts]
    for tag, attr, what in _KINDS:
        ours: set[Any] = set()
        for xml in layouts:
            for m in _element(tag, attr).finditer(xml):
                ours |= _keys(m)
        for m in _element(tag, attr).finditer(old):
            if not _keys(m) & ours:
                notes.append(f"{sheet}!{m.group(1).decode()}: {what} of your own.")
    if tables[0] > tables[1]:
        k = tables[0] - tables[1]
        notes.append(f"{sheet}: {k} table{'s' if k > 1 else ''} (Format as Table) of your "
                     "own.")
    return notes


#: What :func:`left_out` looks for: (element, its range attribute, its name for people).
_KINDS = [(b"mergeCell", b"ref", "merged cells"),
          (b"conditionalFormatting", b"sqref", "conditional format"),
          (b"dataValidation", b"sqref", "data validation"),
          (b"hyperlink", b"ref", "hyperlink")]


def _tail(data: bytes) -> bytes:
    """What follows a sheet's cells (merges, formats, validations, links...)."""
    at = data.rfind(b"</sheetData>")
    return data[at:] if at >= 0 else data


def _element(tag: bytes, attr: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"<(?:\w+:)?" + tag + rb"\b[^>]*?\s" + attr
                      + rb'="([^"]*)"[^>]*?(?:/>|>(.*?)</(?:\w+:)?' + tag + rb">)", re.S)


def _keys(m: re.Match[bytes]) -> set[Any]:
    """What makes a merge, a conditional format or a validation umaoka's: the same ranges,
    the same first cells and columns (a table grown or shrunk since), or the same rules
    (a table moved down)."""
    ranges = [r.replace(b"$", b"") for r in m.group(1).split()]
    spans = []
    for r in ranges:
        a, _, b = r.partition(b":")
        if not _SPLIT.fullmatch(a) or (b and not _SPLIT.fullmatch(b)):
            continue
        (r1, c1), (_, c2) = _place(a), _place(b or a)
        spans.append((r1, c1, c2))
    keys: set[Any] = {("ranges", frozenset(ranges)), ("starts", frozenset(spans))}
    rules = m.group(2) or b""
    if rules.strip():
        keys.add(("rules", re.sub(rb"\d+|\s", b"", rules)))
    return keys
