"""The xlwings Lite code inside a workbook: written the way xlwings Lite itself saves it.

xlwings Lite keeps a workbook's ``main.py`` and ``requirements.txt`` as Office add-in
settings of its task pane, in the parts below (the layout of every workbook saved by
xlwings Lite that we examined, see tests/test_embed.py)::

    _rels/.rels                               -> xl/webextensions/taskpanes.xml
    xl/webextensions/taskpanes.xml            one <wetp:taskpane> per add-in pane
    xl/webextensions/_rels/taskpanes.xml.rels -> webextension1.xml
    xl/webextensions/webextension1.xml        the add-in (store id WA200008175) and its
                                              settings main.py, pyodideVersion,
                                              addinVersion, requirements.txt

Each setting's value is the text as JSON (Office writes ``/`` as ``\\/``), XML-escaped.
openpyxl drops these parts when it loads and saves a workbook, so the code goes in
last, after the workbook is saved. Every other part is copied unchanged.

>>> encode_setting('x = "a/b"\\n')
'"x = \\\\"a\\\\/b\\\\"\\\\n"'
>>> json.loads(encode_setting('x = "a/b"\\n'))
'x = "a/b"\\n'
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape, quoteattr

from umaoka.addin.install.lite import lite_requirements, lite_source
from umaoka.addin.install.parts import (
    DECLARATION,
    HeldParts,
    Package,
    R,
    Rels,
    content_types_xml,
    free_name,
    new_id,
    relative,
    rels_name,
    rels_xml,
    tree_xml,
    write_zip,
)
from umaoka.engine import UmaokaError
from umaoka.templates.xlsx.io import check_target, write_atomic

#: xlwings Lite in Microsoft's add-in store (AppSource asset id; store type OMEX).
LITE_ID = "WA200008175"
#: The Pyodide and add-in versions recorded by the xlwings Lite workbooks we examined
#: (five of six saved by add-in 1.0.0.0-18 on Pyodide 0.27.5).
PYODIDE_VERSION = "0.27.5"
ADDIN_VERSION = "1.0.0.0-18"
#: The task pane opens with the workbook (visibility 1): xlwings Lite then starts, asks the
#: person to trust a workbook they did not write, and registers the functions. Width and
#: row as xlwings Lite saves them most often.
PANE = {"dockstate": "right", "visibility": "1", "width": "438", "row": "2"}

WE = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
WETP = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
REL_TASKPANES = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
REL_WEBEXTENSION = "http://schemas.microsoft.com/office/2011/relationships/webextension"
CT_TASKPANES = "application/vnd.ms-office.webextensiontaskpanes+xml"
CT_WEBEXTENSION = "application/vnd.ms-office.webextension+xml"
#: extLst entries of the webextension part: the add-in provides custom functions (four
#: of the six samples carry it, with an empty function id list).
CUSTOM_FUNCTIONS_EXT = (
    '<we:extLst><a:ext xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'uri="{D87F86FE-615C-45B5-9D79-34F1136793EB}"><we:containsCustomFunctions/></a:ext>'
    '<a:ext xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'uri="{7C84B067-C214-45C3-A712-C9D94CD141B2}"><we:customFunctionIdList/></a:ext>'
    "</we:extLst>")

PREFIXES = {WETP: "wetp", R: "r", WE: "we",
            "http://schemas.openxmlformats.org/drawingml/2006/main": "a"}
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")  # JSON may carry them, XML may not


def encode_setting(text: str) -> str:
    """A document setting's value as Office writes it: JSON, ``/`` as ``\\/``, non-ASCII kept."""
    out = json.dumps(text, ensure_ascii=False).replace("/", "\\/")
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def webextension_xml(settings: dict[str, str], instance: str | None = None) -> bytes:
    """The xlwings Lite webextension part holding ``settings`` (name -> text)."""
    instance = instance or "{" + str(uuid.uuid4()).upper() + "}"
    props = "".join(f'<we:property name={quoteattr(k)} value="'
                    f'{escape(encode_setting(v), {chr(34): "&quot;"})}"/>'
                    for k, v in settings.items())
    return (f'{DECLARATION}<we:webextension xmlns:we="{WE}" id="{instance}">'
            f'<we:reference id="{LITE_ID.lower()}" version="1.0.0.0" store="en-US" '
            'storeType="OMEX"/><we:alternateReferences>'
            f'<we:reference id="{LITE_ID}" version="1.0.0.0" store="{LITE_ID}" '
            f'storeType="OMEX"/></we:alternateReferences><we:properties>{props}'
            f'</we:properties><we:bindings/><we:snapshot xmlns:r="{R}"/>'
            f"{CUSTOM_FUNCTIONS_EXT}</we:webextension>").encode()


def lite_settings(main_py: str | None = None, requirements: str | None = None
                  ) -> dict[str, str]:
    """The four settings xlwings Lite saves, in its order, with umaoka's code by default."""
    main_py = lite_source() if main_py is None else main_py
    compile(main_py, "main.py", "exec")  # never put code into a workbook that cannot run
    if requirements is None:
        requirements = lite_requirements(main_py)
    return {"main.py": main_py, "pyodideVersion": PYODIDE_VERSION,
            "addinVersion": ADDIN_VERSION, "requirements.txt": requirements}


def _taskpanes(pkg: Package) -> list[str]:
    """The task pane parts of the workbook (normally xl/webextensions/taskpanes.xml)."""
    return list(pkg.targets("", REL_TASKPANES).values())


def _lite_part(pkg: Package) -> ET.Element | None:
    """The first xlwings Lite webextension part, in task pane order, if any."""
    for panes in _taskpanes(pkg):
        addins = pkg.targets(panes, REL_WEBEXTENSION)
        for ref in pkg.xml(panes).iter(f"{{{WETP}}}webextensionref"):
            part = addins.get(ref.get(f"{{{R}}}id", ""))
            if part and _is_lite(webextension := pkg.xml(part)):
                return webextension
    return None


def _is_lite(webextension: ET.Element) -> bool:
    refs = webextension.iter(f"{{{WE}}}reference")
    return any(r.get("id", "").upper() == LITE_ID and r.get("storeType", "").upper() == "OMEX"
               for r in refs)


# ------------------------------------------------------------------------------------------------
# Writing


PanesPart = tuple[ET.Element, Rels]  # a taskpanes tree and its relationships


def _remove_lite(pkg: Package) -> tuple[dict[str, PanesPart], set[str], set[str]]:
    """Each task pane part without xlwings Lite's panes; parts to drop; parts changed.

    Other add-ins' panes stay. A pane whose add-in part is missing goes too: LibreOffice
    keeps taskpanes.xml but drops the add-in parts when it saves a workbook.
    """
    panes: dict[str, PanesPart] = {}
    drop: set[str] = set()
    changed: set[str] = set()
    for part in _taskpanes(pkg):
        tree, rels, addins = pkg.xml(part), pkg.rels(part), pkg.targets(part, REL_WEBEXTENSION)
        gone = {rid for rid, we in addins.items() if _is_lite(pkg.xml(we))}
        for pane in list(tree):
            ref = pane.find(f"{{{WETP}}}webextensionref")
            rid = "" if ref is None else ref.get(f"{{{R}}}id", "")
            if rid in gone or rid not in addins:
                tree.remove(pane)
                gone.add(rid)
        for rid in gone & set(addins):
            drop |= {addins[rid], rels_name(addins[rid])} & pkg.names
        panes[part] = (tree, [r for r in rels if r.get("Id") not in gone])
        if gone:
            changed |= {part, rels_name(part)}
    return panes, drop, changed


def _embed(src: Path, dst: Path, settings: dict[str, str],
           compresslevel: int | None = None) -> None:
    """Write ``src`` with xlwings Lite's parts (holding ``settings``) to ``dst``
    (``compresslevel``: see :func:`write_zip`)."""
    with Package(src) as pkg:
        changed, drop = _lite_changes(pkg, settings)
        write_zip(pkg, dst, changed, drop, compresslevel)


def lite_parts(names: set[str], held: dict[str, bytes]) -> dict[str, bytes]:
    """umaoka's xlwings Lite code for a workbook as it is being saved, in the same save.

    ``names``: every part written; ``held``: the parts held back until the end
    (``[Content_Types].xml`` and ``_rels/.rels``). Returns those, changed, and the new
    parts: the same parts :func:`embed_lite_inplace` puts in afterwards, without reading
    and writing the whole file again (the ``add_parts`` hook of
    :func:`umaoka.templates.xlsx.writer.save_fast`).
    """
    pkg = HeldParts(names, held, Path("the workbook being saved"))
    changed, drop = _lite_changes(pkg, lite_settings())
    if drop or (set(changed) & names) - set(held):  # never for a fresh workbook
        raise UmaokaError("the workbook being saved already has task panes; add the xlwings "
                          "Lite code after saving it (umaoka lite --into).")
    return {**held, **changed}


def _lite_changes(pkg: Package, settings: dict[str, str]) -> tuple[dict[str, bytes], set[str]]:
    """The parts to write (name -> data) and to drop to give ``pkg`` xlwings Lite's parts
    holding ``settings`` in place of any it has."""
    panes, drop, dirty = _remove_lite(pkg)
    changed: dict[str, bytes] = {}
    names = (pkg.names - drop) | dirty
    if panes:
        target = next(iter(panes))
    else:
        target = "xl/webextensions/taskpanes.xml"
        if target in names:
            target = free_name(names, "xl/webextensions/taskpanes{}.xml")
        panes[target] = (ET.Element(f"{{{WETP}}}taskpanes"), [])
        root = pkg.rels("")
        changed["_rels/.rels"] = rels_xml([*root, {
            "Id": new_id(root), "Type": REL_TASKPANES, "Target": target}])
        names.add(target)
    webext = free_name(names, "xl/webextensions/webextension{}.xml")
    tree, rels = panes[target]
    rid = new_id(rels)
    rels.append({"Id": rid, "Type": REL_WEBEXTENSION, "Target": relative(target, webext)})
    pane = ET.SubElement(tree, f"{{{WETP}}}taskpane", PANE)
    ET.SubElement(pane, f"{{{WETP}}}webextensionref", {f"{{{R}}}id": rid})
    for part, (tree, rels) in panes.items():
        if part in dirty or part == target:
            changed[part] = tree_xml(tree, PREFIXES)
            changed[rels_name(part)] = rels_xml(rels)
    changed[webext] = webextension_xml(settings)
    changed["[Content_Types].xml"] = content_types_xml(
        pkg.xml("[Content_Types].xml"), drop, {target: CT_TASKPANES, webext: CT_WEBEXTENSION})
    return changed, drop


def _check_book(path: Path) -> None:
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        raise UmaokaError(f"{path} should end in .xlsx (an Excel workbook).")


def embed_lite(src: Path, dst: Path, force: bool = False) -> Path:
    """Write a copy of workbook ``src`` to ``dst`` with umaoka's xlwings Lite code inside.

    The copy holds the generated main.py and requirements.txt as xlwings Lite saves them
    (replacing any xlwings Lite code already there); every other part is kept as it is.
    ``src`` is never overwritten; an existing ``dst`` only with ``force``. Returns ``dst``.
    """
    src, dst = Path(src), Path(dst)
    _check_book(dst)
    if src.suffix.lower() != dst.suffix.lower():
        raise UmaokaError(f"{dst} should end in {src.suffix} like {src.name}: Excel refuses "
                          "a workbook whose extension does not match its kind.")
    with Package(src):  # a clear message for a missing or broken input, first
        pass
    check_target(dst, force, inputs=(src,))
    settings = lite_settings()
    write_atomic(dst, lambda tmp: _embed(src, tmp, settings), force=force)
    return dst


def embed_lite_inplace(path: Path) -> Path:
    """Put umaoka's xlwings Lite code into a workbook umaoka has just written.

    For the last step of writing a workbook: call it on the freshly saved file (for
    instance on the temporary file before it is moved into place). The file is replaced
    atomically. Returns ``path``.
    """
    path = Path(path)
    settings = lite_settings()
    # our own file, saved with zlib's level 1 (writer.save_fast): the same level again
    write_atomic(path, lambda tmp: _embed(path, tmp, settings, 1), force=True)
    return path


def lite_settings_of(path: Path) -> dict[str, str]:
    """The xlwings Lite settings stored in workbook ``path`` (name -> text)."""
    with Package(Path(path)) as pkg:
        webextension = _lite_part(pkg)
    if webextension is None:
        raise UmaokaError(f"{path} holds no xlwings Lite code; add it with "
                          "`umaoka lite --into`.")
    settings: dict[str, str] = {}
    for prop in webextension.iter(f"{{{WE}}}property"):
        try:
            value = json.loads(prop.get("value", ""))
        except ValueError:
            value = None
        if not isinstance(value, str):
            raise UmaokaError(f"{path}: the xlwings Lite setting {prop.get('name')!r} is "
                              "damaged (not a JSON text).")
        settings[prop.get("name", "")] = value
    return settings


def extract_lite(path: Path) -> tuple[str, str]:
    """(main.py, requirements.txt) as stored in workbook ``path`` for xlwings Lite.

    A workbook without requirements.txt gives "" for it (xlwings Lite then installs its
    defaults); one without xlwings Lite code is an error.
    """
    settings = lite_settings_of(path)
    if "main.py" not in settings:
        raise UmaokaError(f"{path}: the xlwings Lite part has no main.py.")
    return settings["main.py"], settings.get("requirements.txt", "")

