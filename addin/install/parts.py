"""The parts of an .xlsx file: read safely, rewrite a few, copy all others unchanged.

An .xlsx is a zip of XML parts tied together by relationship parts (``_rels/*.rels``)
and listed with their content types in ``[Content_Types].xml``. Reading is bounded
(file and part sizes) and goes through defusedxml, so a hostile file gives a one-line
:class:`UmaokaError`, never an entity expansion.
"""

from __future__ import annotations

import posixpath
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from defusedxml.ElementTree import fromstring

from umaoka.engine import UmaokaError
from umaoka.templates.xlsx.io import MAX_BYTES, check_parts, check_regular, open_zip

R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
#: The spreadsheet XML namespace of every sheet part.
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
REL_OFFICE_DOCUMENT = R + "/officeDocument"
#: How Office starts every XML part it writes.
DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
#: Biggest XML part we parse (bytes); an xlwings Lite part holds main.py (~100 kB).
MAX_XML = 64 * 1024 * 1024
Rels = list[dict[str, str]]  # a relationship part: the attributes of each relationship


def rels_name(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{name}.rels")


def resolve(source: str, target: str) -> str:
    """The part a relationship of ``source`` points to (relative or absolute target)."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(source), target))


def relative(source: str, part: str) -> str:
    return posixpath.relpath(part, posixpath.dirname(source) or ".")


class Package:
    """An .xlsx (or .xlsm) opened for reading its parts, with size bounds and one-line errors."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise UmaokaError(f"{path} does not exist.")
        if self.path.is_dir():
            raise UmaokaError(f"{path} is a folder, not an .xlsx workbook.")
        check_regular(self.path)
        if self.path.stat().st_size > MAX_BYTES:
            raise UmaokaError(f"{path} is larger than {MAX_BYTES // 2**20} MB; that is not a "
                              "league workbook.")
        if not zipfile.is_zipfile(self.path):
            raise UmaokaError(f"{path} is not an .xlsx workbook (not a zip file); save it from "
                              "Excel as an Excel Workbook (.xlsx).")
        self.zip = open_zip(self.path)
        try:
            self.infos = self.zip.infolist()
            self.names = {i.filename for i in self.infos}
            check_parts(self.infos, self.path)
            if "[Content_Types].xml" not in self.names or not any(
                    r.get("Type") == REL_OFFICE_DOCUMENT for r in self.rels("")):
                raise UmaokaError(f"{path} is not an Excel workbook (a zip file without a "
                                  "workbook inside); save it from Excel as an Excel Workbook.")
        except BaseException:
            self.zip.close()
            raise

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def read(self, part: str, limit: int | None = None) -> bytes:
        limit = MAX_XML if limit is None else limit
        info = self.zip.getinfo(part)
        if info.file_size > limit:
            raise UmaokaError(f"{self.path}: part {part} is larger than {limit // 2**20} MB "
                              "unpacked; refusing to read it.")
        try:
            return self.zip.read(info)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as e:
            raise UmaokaError(f"{self.path} is damaged ({part}: {e}).") from None

    def xml(self, part: str) -> ET.Element:
        try:
            return fromstring(self.read(part))
        except UmaokaError:
            raise
        except Exception as e:  # ParseError, defusedxml's DTD/entity refusals
            raise UmaokaError(f"{self.path} cannot be read as an Excel workbook "
                              f"({part}: {e}).") from None

    def rels(self, part: str) -> Rels:
        """The relationships of ``part`` ("" for the package itself), as attribute dicts."""
        name = "_rels/.rels" if part == "" else rels_name(part)
        if name not in self.names:
            return []
        return [dict(r.attrib) for r in self.xml(name) if r.tag == f"{{{PKG_RELS}}}Relationship"]

    def targets(self, part: str, kind: str) -> dict[str, str]:
        """Relationship id -> existing part, for ``part``'s relationships of type ``kind``."""
        return {r["Id"]: target for r in self.rels(part) if r.get("Type") == kind
                and r.get("TargetMode") != "External"
                and (target := resolve(part, r.get("Target", ""))) in self.names}


class HeldParts(Package):
    """The parts of a workbook being saved, as a :class:`Package`: the names of every part
    written and the bytes of the few held back to be finished (``[Content_Types].xml``,
    ``_rels/.rels``, see :func:`umaoka.templates.xlsx.writer.save_fast`)."""

    def __init__(self, names: set[str], held: dict[str, bytes], path: Path) -> None:
        self.path = Path(path)
        self.zip = None  # type: ignore[assignment]
        self.infos = []
        self.names = set(names)
        self._held = held

    def __exit__(self, *exc: object) -> None:
        pass

    def read(self, part: str, limit: int | None = None) -> bytes:
        if part not in self._held:  # only an umaoka bug can ask: say so in one line
            raise UmaokaError(f"{self.path}: part {part} was written before it could be read.")
        return self._held[part]


def rels_xml(rels: Rels) -> bytes:
    """A relationship part, as Office writes it."""
    rows = "".join("<Relationship " + " ".join(f"{k}={quoteattr(v)}" for k, v in r.items())
                   + "/>" for r in rels)
    return f'{DECLARATION}<Relationships xmlns="{PKG_RELS}">{rows}</Relationships>'.encode()


def free_name(names: set[str], pattern: str) -> str:
    """``pattern`` with the smallest number from 1 that gives a name not in ``names``."""
    n = 1
    while pattern.format(n) in names:
        n += 1
    return pattern.format(n)


def new_id(rels: Rels) -> str:
    """A relationship id not used in ``rels`` (rId1, rId2, ...)."""
    return free_name({r.get("Id", "") for r in rels}, "rId{}")


def tree_xml(tree: ET.Element, prefixes: dict[str, str]) -> bytes:
    """An XML part, each namespace declared where first used, with Office's ``prefixes``."""

    def render(el: ET.Element, scope: dict[str, str]) -> str:
        scope, decls = dict(scope), []

        def name(tag: str) -> str:
            if not tag.startswith("{"):
                return tag
            ns, local = tag[1:].split("}", 1)
            if ns not in scope:
                prefix = prefixes.get(ns) or f"ns{len(scope)}"
                while prefix in scope.values():
                    prefix += "x"
                scope[ns] = prefix
                decls.append(f" xmlns:{prefix}={quoteattr(ns)}")
            return f"{scope[ns]}:{local}"

        tag = name(el.tag)
        attrs = "".join(f" {name(k)}={quoteattr(v)}" for k, v in el.attrib.items())
        inner = escape(el.text or "") + "".join(render(c, scope) + escape(c.tail or "")
                                                for c in el)
        head = f"<{tag}{''.join(decls)}{attrs}"
        return f"{head}>{inner}</{tag}>" if inner else f"{head}/>"

    return (DECLARATION + render(tree, {})).encode("utf-8")


def content_types_xml(types: ET.Element, drop: set[str], add: dict[str, str]) -> bytes:
    """``[Content_Types].xml`` without the parts in ``drop``, with ``add`` (part -> type)."""
    rows = []
    gone = {f"/{p}".lower() for p in drop | set(add)}
    for el in types:
        local = el.tag.split("}")[-1]
        if local == "Override" and el.get("PartName", "").lower() in gone:
            continue
        rows.append(f"<{local}" + "".join(f" {k}={quoteattr(v)}" for k, v in el.attrib.items())
                    + "/>")
    rows += [f'<Override PartName="/{p}" ContentType="{ct}"/>' for p, ct in add.items()]
    return f'{DECLARATION}<Types xmlns="{TYPES}">{"".join(rows)}</Types>'.encode()


def _set_level(info: zipfile.ZipInfo, level: int) -> None:
    """The zlib level a part is written with (``ZipFile.open(info, "w")`` takes it from the
    ZipInfo, not from the ZipFile): ``compress_level`` from Python 3.13 on."""
    if hasattr(zipfile.ZipInfo, "compress_level"):
        info.compress_level = level  # type: ignore[attr-defined]
    else:
        info._compresslevel = level  # type: ignore[attr-defined]


def write_zip(pkg: Package, dst: Path, changed: dict[str, bytes], drop: set[str],
              compresslevel: int | None = None) -> None:
    """``pkg`` to ``dst`` without ``drop``, with ``changed`` (part -> data): new parts last.

    ``compresslevel``: zlib's (None: its default); 1 for a file umaoka has just written
    with that level, several times faster on big sheets.
    """
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED, compresslevel=compresslevel) as out:
        for info in pkg.infos:
            if info.filename in drop:
                continue
            if info.filename in changed:
                fresh = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                fresh.compress_type = zipfile.ZIP_DEFLATED
                out.writestr(fresh, changed.pop(info.filename))
            else:  # copied as it is, streamed (a sheet can be large)
                copy = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                copy.compress_type, copy.external_attr = info.compress_type, info.external_attr
                copy.file_size = info.file_size
                if compresslevel is not None:
                    _set_level(copy, compresslevel)
                with pkg.zip.open(info) as fin, out.open(copy, "w") as fout:
                    shutil.copyfileobj(fin, fout, 1 << 20)
        for name, data in changed.items():
            out.writestr(name, data)
