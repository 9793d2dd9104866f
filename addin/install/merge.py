"""Merging two workbook packages: the manager's file with umaoka's sheets written anew.

:func:`merge_packages` keeps every part of the old file that umaoka does not own (sheets
added by hand, their charts and images, the manager's defined names, a VBA project, custom
parts) byte for byte, and takes umaoka's sheets (and what hangs off them: tables, charts,
drawings, comments) from the new one. ``xl/workbook.xml``'s sheet list and defined names,
the workbook's relationships and ``[Content_Types].xml`` are merged; so are the two tables
umaoka's sheets share with the manager's: the styles (``styles.xml``) and the shared
strings. Those keep every entry the file had, at the same place (the manager's sheets point
to them by number), and get umaoka's entries added after them (an entry already there is
reused, so a file does not grow from update to update). ``calcChain.xml`` (Excel's
calculation order, a cache) is dropped; Excel rebuilds it.

One module, not two: the merge of workbook.xml, the styles, the strings and the content
types is one operation over one pair of packages; its pieces share the part maps and
would only pass them back and forth if split.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from defusedxml.ElementTree import fromstring

from umaoka.addin.install.carry import (
    KEPT_RELS,
    REL_DRAWING,
    REL_TABLE,
    REL_VML,
    carry_cells,
    layout_moved,
    left_out,
    unlocked_styles,
    with_legacy_drawing,
)
from umaoka.addin.install.parts import (
    DECLARATION,
    MAIN,
    REL_OFFICE_DOCUMENT,
    TYPES,
    Package,
    R,
    Rels,
    free_name,
    new_id,
    relative,
    rels_name,
    rels_xml,
    resolve,
    write_zip,
)
from umaoka.engine import UmaokaError
from umaoka.templates.book.layout import HEADER_ROW

XML_NS = "http://www.w3.org/XML/1998/namespace"
REL_SHEET = R + "/worksheet"
REL_CHARTSHEET = R + "/chartsheet"
REL_STYLES = R + "/styles"
REL_STRINGS = R + "/sharedStrings"
REL_THEME = R + "/theme"
REL_CALC_CHAIN = R + "/calcChain"
CT_TABLE = "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"

def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _canon(el: ET.Element) -> tuple[Any, ...]:
    """An element's content without namespaces or attribute order: equal entries compare
    equal whichever program wrote them."""
    attrs = tuple(sorted((_local(k), v) for k, v in el.attrib.items()))
    return (_local(el.tag), attrs, (el.text or "").strip() if len(el) else el.text or "",
            tuple(_canon(c) for c in el))


def _render(el: ET.Element) -> str:
    """An element of the main namespace as XML text without prefixes (umaoka's parts use
    no other namespace in styles and strings; anything else is left out)."""
    if not el.tag.startswith(f"{{{MAIN}}}") and el.tag.startswith("{"):
        return ""
    tag = _local(el.tag)
    attrs = ""
    for k, v in el.attrib.items():
        if k.startswith(f"{{{XML_NS}}}"):
            attrs += f" xml:{_local(k)}={quoteattr(v)}"
        elif not k.startswith("{"):
            attrs += f" {k}={quoteattr(v)}"
    inner = escape(el.text or "") + "".join(_render(c) + escape(c.tail or "") for c in el)
    return f"<{tag}{attrs}>{inner}</{tag}>" if inner else f"<{tag}{attrs}/>"


def _child(tree: ET.Element, name: str) -> ET.Element | None:
    return tree.find(f"{{{MAIN}}}{name}")


def _kids(tree: ET.Element, name: str) -> list[ET.Element]:
    block = _child(tree, name)
    return [] if block is None else list(block)


#: The blocks of styles.xml in the order the schema gives them.
_STYLE_BLOCKS = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs",
                 "cellStyles", "dxfs", "tableStyles", "colors", "extLst")


def _append_block(text: str, block: str, items: list[str], total: int) -> str:
    """``text`` (a styles or strings part) with ``items`` added at the end of ``block``
    and its count set to ``total`` (the block is made when missing)."""
    if not items:
        return text
    # unprefixed only: an extension list may hold its own (x14:dxfs), never the main one
    open_re = re.compile(rf"<(){block}\b([^>]*?)(/?)>")
    m = open_re.search(text)
    body = "".join(items)
    if m is None:  # a new block, before the first later one there
        later = _STYLE_BLOCKS[_STYLE_BLOCKS.index(block) + 1:]
        spots = [s.start() for b in later if (s := re.search(rf"<{b}\b", text))]
        end = re.search(r"</styleSheet>", text)
        at = min(spots) if spots else (end.start() if end else len(text))
        return f'{text[:at]}<{block} count="{total}">{body}</{block}>{text[at:]}'
    prefix, attrs, closed = m.group(1), m.group(2), m.group(3)
    attrs = re.sub(r'\scount="\d*"', "", attrs) + f' count="{total}"'
    if closed:
        return (f"{text[:m.start()]}<{prefix}{block}{attrs}>{body}</{prefix}{block}>"
                f"{text[m.end():]}")
    close = text.index(f"</{prefix}{block}>", m.end())
    return f"{text[:m.start()]}<{prefix}{block}{attrs}>{text[m.end():close]}{body}{text[close:]}"


class _Table:
    """Entries of one block of the old part, to which new ones are added (or reused)."""

    def __init__(self, old: list[ET.Element]) -> None:
        self.index = {}
        for i, el in enumerate(old):
            self.index.setdefault(_canon(el), i)
        self.size = len(old)
        self.added: list[str] = []

    def add(self, el: ET.Element) -> int:
        key = _canon(el)
        if key not in self.index:
            self.index[key] = self.size
            self.size += 1
            self.added.append(_render(el))
        return self.index[key]


def _remap(el: ET.Element, maps: dict[str, dict[int, int]]) -> ET.Element:
    for attr, table in maps.items():
        value = el.get(attr)
        if value is not None and value.isdigit() and int(value) in table:
            el.set(attr, str(table[int(value)]))
    return el


def merge_styles(old: bytes, new: bytes) -> tuple[bytes, dict[int, int], dict[int, int]]:
    """The old styles part with the new one's entries added: (part, cell style map, dxf map)."""
    text = old.decode("utf-8")
    if re.search(r"<\w+:styleSheet\b", text):
        raise UmaokaError("the workbook's styles are saved in a form umaoka cannot add to "
                          "(prefixed XML); save it once from Excel, then run the command "
                          "again.")
    otree, ntree = fromstring(old), fromstring(new)
    # number formats: by code, new ids above the old ones
    codes = {el.get("formatCode"): int(el.get("numFmtId", "0"))
             for el in _kids(otree, "numFmts")}
    top = max([163, *codes.values()])
    fmt_map: dict[int, int] = {}
    fmt_items: list[str] = []
    for el in _kids(ntree, "numFmts"):
        nid, code = int(el.get("numFmtId", "0")), el.get("formatCode")
        if code not in codes:
            top += 1
            codes[code] = top
            fmt_items.append(f"<numFmt numFmtId=\"{top}\" formatCode={quoteattr(code or '')}/>")
        fmt_map[nid] = codes[code]
    maps: dict[str, dict[int, int]] = {"numFmtId": fmt_map}
    out = _append_block(text, "numFmts", fmt_items, len(codes)) if fmt_items else text
    for block, attr in (("fonts", "fontId"), ("fills", "fillId"), ("borders", "borderId")):
        table = _Table(_kids(otree, block))
        maps[attr] = {i: table.add(el) for i, el in enumerate(_kids(ntree, block))}
        out = _append_block(out, block, table.added, table.size)
    style_xfs = _Table(_kids(otree, "cellStyleXfs"))
    xf_id = {i: style_xfs.add(_remap(el, maps)) for i, el in enumerate(
        _kids(ntree, "cellStyleXfs"))}
    out = _append_block(out, "cellStyleXfs", style_xfs.added, style_xfs.size)
    cell_xfs = _Table(_kids(otree, "cellXfs"))
    xf_map = {i: cell_xfs.add(_remap(el, {**maps, "xfId": xf_id})) for i, el in enumerate(
        _kids(ntree, "cellXfs"))}
    out = _append_block(out, "cellXfs", cell_xfs.added, cell_xfs.size)
    old_styles = _kids(otree, "cellStyles")
    names = {el.get("name") for el in old_styles}
    builtin = {el.get("builtinId") for el in old_styles if el.get("builtinId") is not None}
    extra = [_render(_remap(el, {"xfId": xf_id})) for el in _kids(ntree, "cellStyles")
             if el.get("name") not in names and (el.get("builtinId") is None
                                                  or el.get("builtinId") not in builtin)]
    out = _append_block(out, "cellStyles", extra, len(old_styles) + len(extra))
    dxfs = _Table(_kids(otree, "dxfs"))
    dxf_map = {i: dxfs.add(el) for i, el in enumerate(_kids(ntree, "dxfs"))}
    out = _append_block(out, "dxfs", dxfs.added, dxfs.size)
    return out.encode("utf-8"), xf_map, dxf_map


def merge_strings(old: bytes | None, new: bytes | None) -> tuple[bytes | None, dict[int, int]]:
    """The old shared strings with the new part's added (reusing equal ones): (part, map)."""
    if new is None:
        return old, {}
    ntree = fromstring(new)
    if old is None:
        return new, {i: i for i in range(len(ntree))}
    text = old.decode("utf-8")
    if re.search(r"<\w+:sst\b", text):
        raise UmaokaError("the workbook's shared strings are saved in a form umaoka cannot "
                          "add to (prefixed XML); save it once from Excel, then run the "
                          "command again.")
    table = _Table(list(fromstring(old)))
    mapping = {i: table.add(el) for i, el in enumerate(ntree)}
    if not table.added:
        return old, mapping
    m = re.search(r"<sst\b([^>]*?)(/?)>", text)
    assert m is not None  # parsed above
    attrs = re.sub(r'\s(?:count|uniqueCount)="\d*"', "", m.group(1))
    attrs += f' count="{table.size}" uniqueCount="{table.size}"'
    body = "".join(table.added)
    if m.group(2):
        text = f"{text[:m.start()]}<sst{attrs}>{body}</sst>{text[m.end():]}"
    else:
        close = text.rindex("</sst>")
        text = f"{text[:m.start()]}<sst{attrs}>{text[m.end():close]}{body}{text[close:]}"
    return text.encode("utf-8"), mapping


_CELL_TAGS = re.compile(rb"<(c|row|col|cfRule)\b([^>]*)>(<v>(\d+)</v>)?")
_NUM_ATTR = {b"c": b"s", b"row": b"s", b"col": b"style", b"cfRule": b"dxfId"}


def remap_sheet(data: bytes, xf: dict[int, int], dxf: dict[int, int],
                strings: dict[int, int]) -> bytes:
    """A sheet of umaoka's with its style, conditional format and shared string numbers
    moved to where the merged styles and strings put them."""
    if all(k == v for m in (xf, dxf, strings) for k, v in m.items()):
        return data
    patterns = {tag: re.compile(rb"(\s" + attr + rb'=")(\d+)(")') for tag, attr in
                _NUM_ATTR.items()}

    def fix(m: re.Match[bytes]) -> bytes:
        tag, attrs = m.group(1), m.group(2)
        table = dxf if tag == b"cfRule" else xf
        attrs = patterns[tag].sub(
            lambda a: a.group(1) + str(table.get(int(a.group(2)), int(a.group(2)))).encode()
            + a.group(3), attrs)
        tail = m.group(3) or b""
        if tail and tag == b"c" and re.search(rb'\st="s"', attrs):
            n = int(m.group(4))
            tail = b"<v>" + str(strings.get(n, n)).encode() + b"</v>"
        return b"<" + tag + attrs + b">" + tail

    return _CELL_TAGS.sub(fix, data)


def _workbook(pkg: Package) -> str:
    for r in pkg.rels(""):
        if r.get("Type") == REL_OFFICE_DOCUMENT:
            return resolve("", r.get("Target", ""))
    raise UmaokaError(f"{pkg.path} has no workbook part.")


def _closure(pkg: Package, roots: set[str]) -> set[str]:
    """``roots`` and every part their relationships lead to, directly or not."""
    seen: set[str] = set()
    todo = [r for r in roots if r in pkg.names]
    while todo:
        part = todo.pop()
        if part in seen:
            continue
        seen.add(part)
        for r in pkg.rels(part):
            if r.get("TargetMode") == "External":
                continue
            target = resolve(part, r.get("Target", ""))
            if target in pkg.names and target not in seen:
                todo.append(target)
    return seen


def _sheet_list(pkg: Package, wb: str) -> list[tuple[str, str, dict[str, str]]]:
    """(name, part, attributes) of each sheet of the workbook, in tab order."""
    rels = {r["Id"]: r for r in pkg.rels(wb)}
    out = []
    sheets = _child(pkg.xml(wb), "sheets")
    for el in [] if sheets is None else list(sheets):
        rel = rels.get(el.get(f"{{{R}}}id", ""), {})
        part = resolve(wb, rel.get("Target", "")) if rel else ""
        out.append((el.get("name", ""), part, dict(el.attrib)))
    return out


_ELEMENT = r"<((?:\w+:)?){0}\b[^>]*?(?:/>|>.*?</\1{0}>)"


def _elements(text: str, name: str) -> list[re.Match[str]]:
    return list(re.finditer(_ELEMENT.format(name), text, re.S))


def _types(pkg: Package) -> tuple[dict[str, str], dict[str, str]]:
    """[Content_Types].xml: extension -> type, part (lower case, no slash) -> type."""
    defaults, overrides = {}, {}
    for el in pkg.xml("[Content_Types].xml"):
        if _local(el.tag) == "Default":
            defaults[el.get("Extension", "").lower()] = el.get("ContentType", "")
        elif _local(el.tag) == "Override":
            overrides[el.get("PartName", "").lstrip("/").lower()] = el.get("ContentType", "")
    return defaults, overrides


def merge_packages(old: Package, new: Package, notes: list[str] | None = None,
                   before: Callable[[], Package | None] | None = None
                   ) -> tuple[dict[str, bytes], set[str]]:
    """The parts to write into ``old`` (name -> data) and to drop from it so that it holds
    ``new``'s sheets in place of its own sheets of the same names, everything else kept.

    The manager's own cells, column widths and comments inside those sheets are carried
    into the new ones (:mod:`umaoka.addin.install.carry`); what cannot be is added to
    ``notes``, one line each (``before()``: the workbook as umaoka writes it for the file
    as it was, to tell umaoka's cells from the manager's when the layout moved)."""
    notes = [] if notes is None else notes
    owb, nwb = _workbook(old), _workbook(new)
    osheets, nsheets = _sheet_list(old, owb), _sheet_list(new, nwb)
    ours = {name.casefold() for name, _, _ in nsheets}
    replaced = {part for name, part, _ in osheets if name.casefold() in ours}
    # old sheet -> new sheet of the same name; their comments' parts stay in the file
    pairs = {npart: opart for name, npart, _ in nsheets for oname, opart, _ in osheets
             if oname.casefold() == name.casefold() and opart in old.names}
    kept_rels = {npart: [r for r in old.rels(opart) if r.get("Type") in KEPT_RELS
                         and r.get("TargetMode") != "External"
                         and resolve(opart, r.get("Target", "")) in old.names]
                 for npart, opart in pairs.items()}
    orels = old.rels(owb)
    dropped_kinds = {REL_STYLES, REL_STRINGS, REL_CALC_CHAIN}
    roots = {resolve("", r.get("Target", "")) for r in old.rels("")
             if r.get("TargetMode") != "External" and r.get("Type") != REL_OFFICE_DOCUMENT}
    roots |= {resolve(owb, r.get("Target", "")) for r in orels
              if r.get("TargetMode") != "External" and r.get("Type") not in dropped_kinds
              and resolve(owb, r.get("Target", "")) not in replaced}
    roots |= {resolve(pairs[p], r.get("Target", "")) for p, rels in kept_rels.items()
              for r in rels}
    kept_reach = _closure(old, roots)
    gone = _closure(old, replaced) - kept_reach
    by_type = {r.get("Type"): resolve(owb, r.get("Target", "")) for r in orels}
    calc = by_type.get(REL_CALC_CHAIN)
    drop = set(gone) | {rels_name(p) for p in gone} | ({calc} if calc else set())
    drop &= old.names
    changed: dict[str, bytes] = {}

    # styles and shared strings: the old ones, with the new entries added
    ostyles, nstyles = by_type.get(REL_STYLES), _target(new, nwb, REL_STYLES)
    xf_map: dict[int, int] = {}
    dxf_map: dict[int, int] = {}
    new_rels: Rels = [r for r in orels if resolve(owb, r.get("Target", "")) not in drop]
    brought: dict[str, str] = {}  # new part -> its name in the merged file
    used = set(old.names) - drop
    if ostyles and nstyles:
        changed[ostyles], xf_map, dxf_map = merge_styles(old.read(ostyles), new.read(nstyles))
    elif nstyles:
        brought[nstyles] = _fresh(nstyles, used)
        new_rels.append({"Id": new_id(new_rels), "Type": REL_STYLES,
                         "Target": relative(owb, brought[nstyles])})
    ostrings, nstrings = by_type.get(REL_STRINGS), _target(new, nwb, REL_STRINGS)
    merged, str_map = merge_strings(old.read(ostrings) if ostrings else None,
                                    new.read(nstrings) if nstrings else None)
    if ostrings and merged is not None and merged != old.read(ostrings):
        changed[ostrings] = merged
    elif not ostrings and nstrings and merged is not None:
        brought[nstrings] = _fresh(nstrings, used)
        new_rels.append({"Id": new_id(new_rels), "Type": REL_STRINGS,
                         "Target": relative(owb, brought[nstrings])})
    if not by_type.get(REL_THEME) and (ntheme := _target(new, nwb, REL_THEME)):
        brought[ntheme] = _fresh(ntheme, used)
        new_rels.append({"Id": new_id(new_rels), "Type": REL_THEME,
                         "Target": relative(owb, brought[ntheme])})

    # the new sheets and everything hanging off them, renamed where a kept part has the name
    nparts = _closure(new, {part for _, part, _ in nsheets})
    for part in sorted(nparts, key=lambda p: (p not in {s for _, s, _ in nsheets}, p)):
        brought[part] = _fresh(part, used)
    table_ids = _table_ids(old, old.names - drop)
    merged_styles = changed.get(ostyles or "") or (new.read(nstyles) if nstyles else None)
    unlocked = unlocked_styles(merged_styles)
    sheet_names = {part: name for name, part, _ in nsheets}
    table_names = _table_names(old, old.names - drop, owb)
    for part, name in brought.items():
        data = new.read(part, limit=1 << 40)
        rels = new.rels(part)
        for r in rels:
            if r.get("TargetMode") != "External":
                target = resolve(part, r.get("Target", ""))
                if target in brought:
                    r["Target"] = relative(name, brought[target])
        if part in sheet_names:
            data = remap_sheet(data, xf_map, dxf_map, str_map)
            if part in pairs:
                data, rels = _carry(old, new, pairs[part], part, sheet_names[part], data,
                                    rels, kept_rels[part], name, unlocked, notes, before)
        elif data.lstrip().startswith(b"<") and b"<table " in data[:400]:
            data = _fresh_table_name(_fresh_table_id(data, table_ids), table_names)
        changed[name] = data
        if rels:
            changed[rels_name(name)] = rels_xml(rels)

    # the workbook: sheet list, defined names, relationships
    sheet_rid: dict[str, str] = {}
    for name, part, _ in nsheets:
        rid = new_id(new_rels)
        new_rels.append({"Id": rid, "Type": REL_SHEET, "Target": relative(owb, brought[part])})
        sheet_rid[name] = rid
    changed[owb] = _workbook_xml(old.read(owb).decode("utf-8"), new, nwb, osheets, nsheets,
                                 ours, sheet_rid)
    changed[rels_name(owb)] = rels_xml(new_rels)
    changed["[Content_Types].xml"] = _content_types(old, new, drop, brought)
    return changed, drop


def _anchors(pkg: Package, sheet: str) -> int:
    """How many charts and pictures are placed on ``sheet`` (its drawing's anchors)."""
    count = 0
    for r in pkg.rels(sheet):
        if r.get("Type") == REL_DRAWING and r.get("TargetMode") != "External":
            part = resolve(sheet, r.get("Target", ""))
            if part in pkg.names:
                count += len(re.findall(rb"<(?:\w+:)?(?:twoCellAnchor|oneCellAnchor|"
                                        rb"absoluteAnchor)\b", pkg.read(part)))
    return count


def _tables(pkg: Package, sheet: str) -> int:
    return sum(r.get("Type") == REL_TABLE for r in pkg.rels(sheet))


def _carry(old: Package, new: Package, opart: str, npart: str, sheet: str, data: bytes,
           rels: Rels, kept: Rels, name: str, unlocked: set[int], notes: list[str],
           before: Callable[[], Package | None] | None) -> tuple[bytes, Rels]:
    """A new sheet with the manager's cells and comments of the old one carried in.

    ``before()`` gives the workbook as umaoka writes it for the file as it was, asked
    for only when something looks left out: what is there is umaoka's, not the manager's
    (a merged header moved by a column added to the tab)."""
    odata = old.read(opart, limit=1 << 40)
    counts = (_tables(old, opart), _anchors(old, opart))
    ours = (_tables(new, npart), _anchors(new, npart))

    def attempt(layout: bytes | None, was: tuple[int, int]) -> tuple[bytes, list[str]]:
        said: list[str] = []
        out = carry_cells(sheet, odata, data, unlocked, said, layout)
        said[:0] = left_out(sheet, odata, [data] + ([layout] if layout else []),
                            (counts[0], max(ours[0], was[0])),
                            (counts[1], max(ours[1], was[1])))
        return out, said

    out, said = attempt(None, ours)
    unsure = bool(said) or layout_moved(odata, data, HEADER_ROW)
    pkg = before() if unsure and before is not None else None
    if pkg is not None:
        parts = {n.casefold(): p for n, p, _ in _sheet_list(pkg, _workbook(pkg))}
        bpart = parts.get(sheet.casefold())
        if bpart is not None and bpart in pkg.names:
            out, said = attempt(pkg.read(bpart, limit=1 << 40),
                                (_tables(pkg, bpart), _anchors(pkg, bpart)))
    notes.extend(said)
    data = out
    if not kept:
        return data, rels
    if re.search(rb"<(?:\w+:)?legacyDrawing\b", data):
        notes.append(f"{sheet}: your comments are left out (umaoka's sheet has its own).")
        return data, rels
    rels = list(rels)
    for r in kept:
        rid = new_id(rels)
        rels.append({"Id": rid, "Type": r["Type"],
                     "Target": relative(name, resolve(opart, r.get("Target", "")))})
        if r["Type"] == REL_VML and re.search(
                rb"<(?:\w+:)?legacyDrawing\b[^>]*?:id=\"" + re.escape(r["Id"].encode()) + b'"',
                odata):
            data = with_legacy_drawing(data, rid)
    return data, rels


def _target(pkg: Package, wb: str, kind: str) -> str | None:
    found = list(pkg.targets(wb, kind).values())
    return found[0] if found else None


def _fresh(part: str, used: set[str]) -> str:
    """``part``'s name, or the next free one like it (sheet1.xml -> sheet2.xml ...)."""
    if part not in used:
        used.add(part)
        return part
    m = re.match(r"^(.*?)(\d*)(\.[^./]*)?$", part)
    assert m is not None
    pattern = m.group(1).replace("{", "{{").replace("}", "}}") + "{}" + (m.group(3) or "")
    name = free_name(used, pattern)
    used.add(name)
    return name


def _table_ids(pkg: Package, names: set[str]) -> set[str]:
    """The ids of the tables (ListObjects) among ``names``: unique in a workbook."""
    defaults, overrides = _types(pkg)
    ids = set()
    for part in names:
        if overrides.get(part.lower()) == CT_TABLE:
            ids.add(pkg.xml(part).get("id", ""))
    return ids


def _table_names(pkg: Package, names: set[str], wb: str) -> set[str]:
    """The names (casefolded) of the tables among ``names`` and of the workbook's defined
    names: a table's name must differ from all of them, in any case."""
    defaults, overrides = _types(pkg)
    taken = set()
    for part in names:
        if overrides.get(part.lower()) == CT_TABLE:
            table = pkg.xml(part)
            taken |= {table.get(k, "").casefold() for k in ("name", "displayName")}
    text = pkg.read(wb).decode("utf-8", "replace")
    taken |= {unescape(m).casefold() for m in re.findall(r'<(?:\w+:)?definedName\b[^>]*?'
                                                          r'\sname="([^"]*)"', text)}
    return taken - {""}


def _fresh_table_name(data: bytes, taken: set[str]) -> bytes:
    """Our table under a name no kept table (or defined name) has: ``Games_3`` when free,
    else ``Games_3_2``... (Excel repairs, and LibreOffice renames, a file with twins)."""
    m = re.search(rb'<table\b[^>]*?\sdisplayName="([^"]+)"', data)
    if m is None:
        return data
    value = m.group(1).decode()
    fresh, n = value, 1
    while fresh.casefold() in taken:
        n += 1
        fresh = f"{value}_{n}"
    taken.add(fresh.casefold())
    if fresh == value:
        return data
    head, rest = data[:m.end() + 400], data[m.end() + 400:]
    for attribute in (b"name", b"displayName"):
        head = re.sub(rb'(<table\b[^>]*?\s' + attribute + rb'=")' + re.escape(m.group(1)) + b'"',
                      lambda x: x.group(1) + fresh.encode() + b'"', head, count=1)
    return head + rest


def _fresh_table_id(data: bytes, taken: set[str]) -> bytes:
    m = re.search(rb'<table\b[^>]*?\sid="(\d+)"', data)
    if m is None:
        return data
    value = m.group(1).decode()
    if value in taken:
        value = str(max([0, *(int(t) for t in taken if t.isdigit())]) + 1)
        data = data[:m.start(1)] + value.encode() + data[m.end(1):]
    taken.add(value)
    return data


def _content_types(old: Package, new: Package, drop: set[str],
                   brought: dict[str, str]) -> bytes:
    defaults, overrides = _types(old)
    ndefaults, noverrides = _types(new)
    rows = []
    for el in old.xml("[Content_Types].xml"):
        local = _local(el.tag)
        if local == "Override" and el.get("PartName", "").lstrip("/") in drop:
            continue
        rows.append(f"<{local}" + "".join(f" {k}={quoteattr(v)}" for k, v in el.attrib.items())
                    + "/>")
    for ext, kind in ndefaults.items():
        if ext not in defaults:
            rows.insert(0, f"<Default Extension={quoteattr(ext)} ContentType={quoteattr(kind)}/>")
    for part, name in brought.items():
        kind = noverrides.get(part.lower())
        if kind is None:
            continue  # its extension's default
        rows.append(f"<Override PartName={quoteattr('/' + name)} ContentType={quoteattr(kind)}/>")
    return f'{DECLARATION}<Types xmlns="{TYPES}">{"".join(rows)}</Types>'.encode()


def _workbook_xml(text: str, new: Package, nwb: str,
                  osheets: list[tuple[str, str, dict[str, str]]],
                  nsheets: list[tuple[str, str, dict[str, str]]], ours: set[str],
                  sheet_rid: dict[str, str]) -> bytes:
    """The old workbook.xml with the merged sheet list and defined names (all else kept)."""
    block = _elements(text, "sheets")
    if not block:
        raise UmaokaError("the workbook has no sheet list; it cannot be updated.")
    prefix = block[0].group(1)
    raw_sheets = [m.group(0) for m in _elements(block[0].group(0), "sheet")]
    if len(raw_sheets) != len(osheets):
        raise UmaokaError("the workbook's sheet list cannot be read; it cannot be updated.")
    user = [(name, raw) for (name, _, _), raw in zip(osheets, raw_sheets)
            if name.casefold() not in ours]
    # order: the new sheets in their order, each kept sheet after the sheet it followed
    order: list[tuple[str, str | None]] = []  # (name, raw text or None for ours)
    after: dict[str | None, list[tuple[str, str]]] = {}
    last: str | None = None
    for (name, _, _), raw in zip(osheets, raw_sheets):
        if name.casefold() in ours:
            last = name.casefold()
        else:
            after.setdefault(last, []).append((name, raw))
    order.extend(after.pop(None, []))
    for name, _, _ in nsheets:
        order.append((name, None))
        order.extend(after.pop(name.casefold(), []))
    for rest in after.values():  # followed a sheet of ours the new book no longer has
        order.extend(rest)
    rp = _prefix_of(text, R)
    taken = {int(a) for raw in (r for _, r in user)
             for a in re.findall(r'\ssheetId="(\d+)"', raw)}
    nattrs = {name: attrs for name, _, attrs in nsheets}
    next_id = 1
    parts = []
    for name, raw in order:
        if raw is not None:
            parts.append(raw)
            continue
        while next_id in taken:
            next_id += 1
        taken.add(next_id)
        state = nattrs[name].get("state")
        rid_attr = f' {rp}:id="{sheet_rid[name]}"' if rp else \
            f' xmlns:r="{R}" r:id="{sheet_rid[name]}"'
        parts.append(f"<{prefix}sheet name={quoteattr(name)} sheetId=\"{next_id}\""
                     + (f" state={quoteattr(state)}" if state else "") + f"{rid_attr}/>")
    index = {name.casefold(): i for i, (name, _) in enumerate(order)}
    old_index = [name.casefold() for name, _, _ in osheets]
    new_index = [name.casefold() for name, _, _ in nsheets]
    sheets_xml = f"<{prefix}sheets>{''.join(parts)}</{prefix}sheets>"

    # defined names: the new book's, then the old ones it does not define again
    names_xml, keys = [], set()
    ndefined = _child(new.xml(nwb), "definedNames")
    for el in [] if ndefined is None else list(ndefined):
        scope = el.get("localSheetId")
        where = new_index[int(scope)] if scope is not None and scope.isdigit() \
            and int(scope) < len(new_index) else None
        keys.add((el.get("name", "").casefold(), where))
        attrs = dict(el.attrib)
        if where is not None:
            attrs["localSheetId"] = str(index[where])
        names_xml.append(f"<{prefix}definedName" + "".join(
            f" {k}={quoteattr(v)}" for k, v in attrs.items() if not k.startswith("{"))
            + f">{escape(el.text or '')}</{prefix}definedName>")
    old_block = _elements(text, "definedNames")
    for m in _elements(old_block[0].group(0), "definedName") if old_block else []:
        raw = m.group(0)
        head = raw[:raw.index(">")]
        name = re.search(r'\sname="([^"]*)"', head)
        scope = re.search(r'\slocalSheetId="(\d+)"', head)
        where = None
        if scope:
            k = int(scope.group(1))
            if k >= len(old_index) or old_index[k] not in index:
                continue
            where = old_index[k]
            raw = raw.replace(scope.group(0), f' localSheetId="{index[where]}"', 1)
        if (unescape(name.group(1) if name else "").casefold(), where) in keys:
            continue
        names_xml.append(raw)
    names_block = (f"<{prefix}definedNames>{''.join(names_xml)}</{prefix}definedNames>"
                   if names_xml else "")

    out = text[:block[0].start()] + sheets_xml + text[block[0].end():]
    old_block = _elements(out, "definedNames")
    if old_block:
        out = out[:old_block[0].start()] + names_block + out[old_block[0].end():]
    elif names_block:
        spots = [m.start() for tag in ("calcPr", "oleSize", "customWorkbookViews",
                                       "pivotCaches", "smartTagPr", "smartTagTypes",
                                       "webPublishing", "fileRecoveryPr", "webPublishObjects",
                                       "extLst")
                 if (m := re.search(rf"<(?:\w+:)?{tag}\b", out))]
        end = out.rindex("</")
        at = min(spots) if spots else end
        out = out[:at] + names_block + out[at:]
    # the tab shown first: the same sheet as before, by name
    view = re.search(r'<(?:\w+:)?workbookView\b[^>]*>', out)
    if view:
        tag = view.group(0)
        active = re.search(r'\sactiveTab="(\d+)"', tag)
        fixed = re.sub(r'\sfirstSheet="\d+"', "", tag)
        if active:
            k = int(active.group(1))
            where = old_index[k] if k < len(old_index) else None
            fixed = fixed.replace(active.group(0),
                                  f' activeTab="{index.get(where or "", 0)}"')
        out = out[:view.start()] + fixed + out[view.end():]
    # an old calculation id: Excel calculates the whole workbook when it opens it
    out = re.sub(r'(<(?:\w+:)?calcPr\b[^>]*?\scalcId=")\d+(")', r"\g<1>124519\g<2>", out)
    return out.encode("utf-8")


def _prefix_of(text: str, namespace: str) -> str | None:
    head = text[:text.find(">", text.find("<", text.find("?>") + 2 if "?>" in text else 0))]
    m = re.search(r'xmlns:(\w+)="' + re.escape(namespace) + '"', head)
    return m.group(1) if m else None




def merge_into(old_path: Path, new_path: Path, dst: Path,
               extra: Callable[[Package, dict[str, bytes], set[str]], None] | None = None,
               say: Callable[[str], None] | None = None,
               before: Callable[[], Package | None] | None = None) -> None:
    """Write ``old_path`` with ``new_path``'s sheets in place of its own to ``dst``;
    ``extra(view, changed, drop)`` may change more parts (the Lite code); ``say(line)``
    hears, before anything is written, each thing of the manager's that is left out."""
    with Package(old_path) as old, Package(new_path) as new:
        notes: list[str] = []
        changed, drop = merge_packages(old, new, notes, before)
        for line in notes:
            if say is not None:
                say(line)
        if extra is not None:
            extra(_View(old, changed, drop), changed, drop)
        write_zip(old, dst, changed, drop)


class _View(Package):
    """``old`` as it will be written: its parts with ``changed`` in place, without ``drop``."""

    def __init__(self, old: Package, changed: dict[str, bytes], drop: set[str]) -> None:
        self.path, self.zip, self.infos = old.path, old.zip, old.infos
        self._old, self._changed = old, changed
        self.names = (old.names - drop) | set(changed)

    def __exit__(self, *exc: object) -> None:
        pass

    def read(self, part: str, limit: int | None = None) -> bytes:
        if part in self._changed:
            return self._changed[part]
        return self._old.read(part, limit)
