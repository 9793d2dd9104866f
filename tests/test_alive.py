"""A league workbook is alive the moment it opens, with formulas its add-in runtime binds.

* every add-in formula is written in the form Excel saves for the workbook's runtime
  (``_xldudf_`` for xlwings Lite and Server, plain names for classic xlwings), read from
  the written XML; the runtime is recorded in the workbook and can be switched;
* every formula carries a saved value, and those values are what the formulas compute
  (LibreOffice recalculates the same workbook from scratch and gets the same values);
* opened in LibreOffice without any add-in, the demo shows numbers or one short hint per
  game row, never ``#NAME?``, both as opened and after a hard recalculation
  (``calculateAll()`` through LibreOffice's UNO bridge, python3-uno; without it, a
  throw-away profile set to "always recalculate" on load); both render to PDF and PNG.
  As opened, the places and the chart's table keep their saved values, Stats never shows
  ``###``; a tab with platform finals (imported lobby lines) shows them, with their tenths,
  both ways.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from openpyxl import load_workbook
from test_libreoffice import _check_standings, convert

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError, standings
from umaoka.engine.online.imports import read_results
from umaoka.templates.book.labels import label
from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.runtime import Runtime, addin_calls, runtime
from umaoka.templates.build import LeagueCols, build_workbook, write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.import_book import import_into
from umaoka.templates.settle_book import read_book, switch_runtime
from umaoka.templates.xlsx.io import save_workbook
from umaoka.templates.xlsx.writer import CellError, save_fast, save_value

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
needs_lo = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
ERRORS = ("#NAME?", "#VALUE!", "#REF!", "#DIV/0!", "#NUM!", "#NULL!", "Err:")
HINT = label("hint", "en")


def sheet_xml(path: Path) -> dict[str, ET.Element]:
    """Every worksheet's parsed XML by sheet name, straight from the zip."""
    with zipfile.ZipFile(path) as z:
        book = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target") for r in rels}
        rid = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
        out = {}
        for s in book.find("m:sheets", NS):
            part = target[s.get(rid)].lstrip("/")
            part = part if part.startswith("xl/") else "xl/" + part
            out[s.get("name")] = ET.fromstring(z.read(part))
        return out


def formulas(xml: ET.Element) -> list[str]:
    return [f.text or "" for f in xml.iter(f"{{{NS['m']}}}f")]


# ------------------------------------------------------------------------------------------------
# The saved form of add-in formulas, per runtime


FLAVOURS = [
    (Runtime("lite"), "_xldudf_MJ_SETTLE("),
    (Runtime("classic"), "MJ_SETTLE("),
    # xlwings-server init's XLWINGS_ENVIRONMENT="dev": namespace XLWINGS_DEV (the default)
    (runtime("server"), "_xldudf_XLWINGS_DEV_MJ_SETTLE("),
    (runtime("server", "XLWINGS"), "_xldudf_XLWINGS_MJ_SETTLE("),  # XLWINGS_ENVIRONMENT=prod
    (runtime("server", "my.funcs"), "_xldudf_MY_FUNCS_MJ_SETTLE("),
    (runtime("server", ""), "_xldudf_MJ_SETTLE("),
]


@pytest.mark.parametrize(("rt", "saved"), FLAVOURS, ids=lambda v: getattr(v, "kind", v))
def test_every_addin_formula_has_the_saved_form(tmp_path: Path, rt: Runtime, saved: str
                                                ) -> None:
    book = make_book(["mleague", "tenhou-sanma"], ["Spring", "Sanma"], ["Aki", "Ben"],
                     runtime=rt)
    path = write_league(book, tmp_path / "book.xlsx")
    calls: dict[str, list[str]] = {}
    for name, xml in sheet_xml(path).items():
        for f in formulas(xml):
            if "MJ_" in f:
                calls.setdefault(name, []).append(f)
                assert addin_calls(f) == [rt.call("MJ_SETTLE")], f
                assert f.startswith("IFERROR(" + saved), f
                if rt.kind != "classic":  # no plain name left anywhere in the formula
                    assert not re.search(r"(?<![A-Za-z0-9_])MJ_SETTLE\(", f), f
    assert sorted(calls) == ["Sanma", "Spring"]  # one block formula per league tab
    assert all(len(v) == 1 for v in calls.values())
    meta = load_workbook(path)["_umaoka"]
    rows = {r[0]: r for r in meta.iter_rows(values_only=True)}
    assert rows["runtime"][1] == rt.kind
    assert read_book(path).runtime == rt


def test_the_namespace_table_of_the_runtime_docs_is_what_umaoka_writes() -> None:
    # docs/runtimes.md: each server set-up, its saved form, and the option that writes it
    doc = (Path(__file__).resolve().parent.parent / "docs" / "runtimes.md").read_text(
        encoding="utf-8")
    table = doc.split("### The namespace")[1].split("\n\n")[2]
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    assert len(rows) == 5
    for row in rows:
        excel, saved, option = row[1].strip("`"), row[2].strip("`"), row[3].strip(" |")
        ns = re.search(r'--namespace (\S+)', option)
        value = None if ns is None else ns.group(1).strip('`"')
        rt = runtime("server", value)
        assert rt.call("MJ_SETTLE") + "(" == saved, row
        assert excel.replace(".", "_") == saved[len("_xldudf_"):-1], row  # dots saved as _
    assert runtime("server") == runtime("server", "XLWINGS_DEV")  # the first row: default


def test_cli_runtime_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "s.xlsx"), "--runtime", "server", "--namespace",
                 "mahjong"]) == 0
    f = formulas(sheet_xml(tmp_path / "s.xlsx")["League"])
    assert any(x.startswith("IFERROR(_xldudf_MAHJONG_MJ_SETTLE(") for x in f)
    assert "xlwings Server (namespace MAHJONG)" in capsys.readouterr().out
    assert main(["new", str(tmp_path / "c.xlsx"), "--runtime", "classic",
                 "--namespace", "x"]) == 2
    assert "for --runtime server only" in capsys.readouterr().err
    assert main(["new", str(tmp_path / "d.xlsx"), "--runtime", "server",
                 "--namespace", "1bad"]) == 2
    assert "not valid" in capsys.readouterr().err
    # the default is the namespace of a server as `xlwings-server init` sets it up
    assert main(["new", str(tmp_path / "dev.xlsx"), "--runtime", "server"]) == 0
    f = formulas(sheet_xml(tmp_path / "dev.xlsx")["League"])
    assert any(x.startswith("IFERROR(_xldudf_XLWINGS_DEV_MJ_SETTLE(") for x in f)
    assert "xlwings Server (namespace XLWINGS_DEV)" in capsys.readouterr().out
    assert main(["new", str(tmp_path / "prod.xlsx"), "--runtime", "server", "--namespace",
                 "XLWINGS"]) == 0
    f = formulas(sheet_xml(tmp_path / "prod.xlsx")["League"])
    assert any(x.startswith("IFERROR(_xldudf_XLWINGS_MJ_SETTLE(") for x in f)
    with pytest.raises(UmaokaError, match="unknown"):
        runtime("cloud")


def test_old_workbooks_without_runtime_read_as_classic(tmp_path: Path) -> None:
    path = write_league(make_book(), tmp_path / "new.xlsx")
    wb = load_workbook(path)
    meta = wb["_umaoka"]
    for row in range(meta.max_row, 0, -1):
        if meta.cell(row, 1).value == "runtime":
            meta.delete_rows(row)
    old = tmp_path / "old.xlsx"
    wb.save(old)
    assert read_book(old).runtime == Runtime("classic")


def test_switch_runtime_updates_the_workbook(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    src = write_league(demo_book(24), tmp_path / "league.xlsx")
    before = src.read_bytes()
    games = [g.scores for g in read_book(src).leagues[0].games]
    assert main(["runtime", str(src), "--to", "classic"]) == 0
    assert f"updated {src} (previous version kept as league.bak.xlsx): formulas for classic " \
        "xlwings (they were for xlwings Lite)" in capsys.readouterr().out
    assert (tmp_path / "league.bak.xlsx").read_bytes() == before  # the previous version
    f = [x for x in formulas(sheet_xml(src)["Spring 2026"]) if "MJ_" in x]
    assert f and f[0].startswith("IFERROR(MJ_SETTLE(")
    assert read_book(src).runtime == Runtime("classic")
    assert [g.scores for g in read_book(src).leagues[0].games] == games
    # -o: a new file, the workbook unchanged; never over an existing file or the input
    out = tmp_path / "league_classic.xlsx"
    now = hashlib.sha256(src.read_bytes()).hexdigest()
    assert main(["runtime", str(src), "--to", "classic", "-o", str(out)]) == 0
    assert read_book(out).runtime == Runtime("classic")
    assert main(["runtime", str(src), "--to", "classic", "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["runtime", str(src), "--to", "lite", "-o", str(src), "--force"]) == 2
    assert "input workbook" in capsys.readouterr().err
    assert hashlib.sha256(src.read_bytes()).hexdigest() == now
    back, was = switch_runtime(out, runtime("server"), tmp_path / "srv.xlsx")
    assert was == Runtime("classic")
    assert any(x.startswith("IFERROR(_xldudf_XLWINGS_DEV_MJ_SETTLE(")
               for x in formulas(sheet_xml(back)["Spring 2026"]))
    # a dev server's workbook for the production server: the namespace changes
    prod, was = switch_runtime(back, runtime("server", "XLWINGS"), tmp_path / "prod.xlsx")
    assert was == Runtime("server", "XLWINGS_DEV")
    assert any(x.startswith("IFERROR(_xldudf_XLWINGS_MJ_SETTLE(")
               for x in formulas(sheet_xml(prod)["Spring 2026"]))


# ------------------------------------------------------------------------------------------------
# Saved values


def test_writer_saves_formula_values(tmp_path: Path) -> None:
    from openpyxl import Workbook
    from openpyxl.worksheet.formula import ArrayFormula

    wb = Workbook()
    ws = wb.active
    ws.row_dimensions[1].height = 30
    ws["A1"], ws["B1"], ws["C1"], ws["D1"] = "=1+1", '=""', "=NA()", "=1=1"
    ws["E1"] = ArrayFormula("E1:F1", "={1,2}")
    ws["F1"] = None
    for col, v in zip(range(1, 7), [2, "", CellError("#N/A"), True, 1, 2.5]):
        save_value(ws, 1, col, v)
    save_fast(wb, tmp_path / "v.xlsx")
    xml = zipfile.ZipFile(tmp_path / "v.xlsx").read("xl/worksheets/sheet1.xml").decode()
    assert '<row r="1" ht="30" customHeight="1">' in xml
    assert '<c r="A1"><f>1+1</f><v>2</v></c>' in xml
    assert '<c r="B1" t="str"><f>""</f><v></v></c>' in xml
    assert '<c r="C1" t="e"><f>NA()</f><v>#N/A</v></c>' in xml
    assert '<c r="D1" t="b"><f>1=1</f><v>1</v></c>' in xml
    assert '<c r="E1"><f t="array" ref="E1:F1">{1,2}</f><v>1</v></c>' in xml
    assert '<c r="F1"><v>2.5</v></c>' in xml
    back = load_workbook(tmp_path / "v.xlsx", data_only=True).active
    assert [c.value for c in back[1]] == [2, None, "#N/A", True, 1, 2.5]


def _book_with_edge_rows() -> tuple[Any, int]:
    """The demo plus a bad row, a blank row between games and a three-way tie; and the
    row number of the bad row."""
    book = demo_book(40)
    games = book.leagues[0].games
    bad = 5 + len(games)
    p = games[0].players
    games += [Game(None, 9, 1, 1, p, [35700, 32400, 22200, 9600]),
              Game(players=[None] * 4, scores=[None] * 4),
              Game(None, 9, 1, 2, p, [30000, 30000, 30000, 10000])]
    return book, bad


def _values(path: Path) -> dict[tuple[str, str], Any]:
    """Every cell's shown value of every sheet ("" for empty text)."""
    wb = load_workbook(path, data_only=True)
    out = {}
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                out[(ws.title, c.coordinate)] = "" if c.value is None else c.value
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b


def recalculated_alike(book: Any, tmp_path: Path) -> tuple[dict, dict, int]:
    """Write ``book``, then have LibreOffice compute the same workbook from scratch with the
    add-in's block results given as values (what MJ_SETTLE returns in Excel): every other
    formula is its own, and each must equal the value we saved. Gives our values,
    LibreOffice's, and how many formulas were compared."""
    ours = write_league(book, tmp_path / "ours.xlsx")
    saved = _values(ours)
    wb = load_workbook(ours)
    cols = LeagueCols(4)
    for lg in book.leagues:
        ws = wb[lg.name]
        for r in range(5, 205):
            for c in cols.results:
                v = saved[(lg.name, ws.cell(r, c).coordinate)]
                ws.cell(r, c).value = None if v == "" else v
    given = tmp_path / "given.xlsx"
    wb.save(given)
    theirs = _values(hard_recalculated(given, "xlsx", tmp_path))
    checked = 0
    for ws in load_workbook(ours).worksheets:
        for row in ws.iter_rows():
            for c in row:
                if c.data_type != "f" or ws.title == "_umaoka":
                    continue
                key = (ws.title, c.coordinate)
                assert _same(saved[key], theirs[key]), (key, c.value, saved[key], theirs[key])
                checked += 1
    return saved, theirs, checked


@needs_lo
def test_saved_values_are_what_the_formulas_compute(tmp_path: Path) -> None:
    book, bad = _book_with_edge_rows()
    saved, theirs, checked = recalculated_alike(book, tmp_path)
    assert checked > 3500  # check, places, helpers, standings, chart tables
    row = [saved[("Spring 2026", f"{x}{bad}")] for x in "RSTUVW"]
    assert row[0] == "Off by -100" and row[1].startswith("scores add up to")
    assert row[2:] == ["", "", "", ""]  # no places for a bad row
    assert [saved[("Spring 2026", f"{x}{bad + 1}")] for x in "RSW"] == ["", "", ""]
    tie = [saved[("Spring 2026", f"{x}{bad + 2}")] for x in "STUVWXYZ"]
    assert tie == [16.8, 16.6, 16.6, -50, 1, 1, 1, 4]  # M.League splits the tie


# ------------------------------------------------------------------------------------------------
# LibreOffice without any add-in


def _uno_python() -> str | None:
    """A Python that can import LibreOffice's UNO bridge (Debian: python3-uno), or None."""
    for exe in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if exe and Path(exe).exists() and subprocess.run(
                [exe, "-c", "import uno"], capture_output=True).returncode == 0:
            return exe
    return None


UNO_RECALC = textwrap.dedent("""\
    import os, subprocess, sys, time
    import uno
    from com.sun.star.beans import PropertyValue

    def prop(name, value):
        p = PropertyValue()
        p.Name, p.Value = name, value
        return p

    soffice, profile, src, *outs = sys.argv[1:]
    pipe = "umaoka_test_%d" % os.getpid()
    office = subprocess.Popen([soffice, "-env:UserInstallation=" + profile, "--headless",
                               "--invisible", "--norestore", "--nologo",
                               "--accept=pipe,name=%s;urp;" % pipe])
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local)
        for _ in range(300):
            try:
                ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                break
            except Exception:
                time.sleep(0.2)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0,
                                           (prop("Hidden", True),))
        doc.calculateAll()  # the hard recalculation: every formula, cached or not
        filters = {"xlsx": "Calc MS Excel 2007 XML", "pdf": "calc_pdf_Export"}
        for out in outs:
            doc.storeToURL(uno.systemPathToFileUrl(out),
                           (prop("FilterName", filters[out.rsplit(".", 1)[1]]),))
        doc.close(True)
        try:
            desktop.terminate()
        except Exception:
            pass
        office.wait(timeout=60)
    finally:
        if office.poll() is None:
            office.kill()
""")

RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode"
 oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def as_opened(src: Path, fmt: str, tmp: Path) -> Path:
    """``src`` converted by LibreOffice as it opens it, with a fresh default profile."""
    return convert(src, fmt, tmp, out="opened", profile="lo-default", timeout=300)


def hard_recalculated(src: Path, fmt: str, tmp: Path) -> Path:
    """``src`` after a hard recalculation in LibreOffice, converted to ``fmt``."""
    out = tmp / f"recalc-{fmt}"
    out.mkdir(exist_ok=True)
    target = out / f"{src.stem}.{fmt}"
    python = _uno_python()
    if python is not None:
        script = tmp / "uno_recalc.py"
        script.write_text(UNO_RECALC)
        profile = (tmp / "lo-uno").as_uri()
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        result = subprocess.run([python, str(script), str(SOFFICE), profile,
                                 str(src.resolve()), str(target.resolve())],
                                capture_output=True, text=True, timeout=300, env=env)
    else:  # no UNO bridge: a profile that recalculates every formula on load
        profile_dir = tmp / "lo-recalc"
        (profile_dir / "user").mkdir(parents=True, exist_ok=True)
        (profile_dir / "user" / "registrymodifications.xcu").write_text(RECALC_ALWAYS)
        return convert(src, fmt, tmp, out="recalc", profile="lo-recalc", timeout=300)
    assert target.exists(), result.stdout + result.stderr
    return target


def _chart_table(ws: Any) -> set[str]:
    """Cells of a standings tab's chart table (its #N/A points are the chart's gaps)."""
    top = next((c.row for c in ws["A"] if c.value == "Cumulative points by session"), None)
    if top is None:
        return set()
    return {c.coordinate for row in ws.iter_rows(min_row=top + 2) for c in row}


def _check_alive(path: Path, recalculated: bool) -> None:
    """No error anywhere; game rows show numbers or the hint, spare rows stay blank."""
    from umaoka.templates.sheets.season_live import LIVE_FIRST, LIVE_WIDTH

    wb = load_workbook(path, data_only=True)
    for ws in wb.worksheets:
        chart = _chart_table(ws) if ws.title.endswith("Standings") else set()
        # the Season standings' hidden MJ_SEASON blocks name the call once (Excel evaluates
        # every call a formula names): without the add-in LibreOffice shows them #NAME?
        # (opened or recalculated), hidden, and every visible cell shows its saved value
        block = range(LIVE_FIRST, LIVE_FIRST + LIVE_WIDTH) if (
            ws.title == "Season standings") else range(0)
        for row in ws.iter_rows():
            for c in row:
                v = c.value
                if v == "#NAME?" and c.column in block:
                    assert ws.column_dimensions[c.column_letter].hidden or any(
                        d.hidden and d.min <= c.column <= d.max
                        for d in ws.column_dimensions.values()), c.coordinate
                    continue
                if isinstance(v, str) and (v in ERRORS or v.startswith("Err:")
                                           or (v == "#N/A" and c.coordinate not in chart)):
                    raise AssertionError(f"{ws.title}!{c.coordinate} shows {v}")
    cols = LeagueCols(4, chips=True, subs=True)  # the demo is a season with both blocks
    for name in ("Regular 2026", "Final 2026"):
        ws = wb[name]
        for r in range(5, 205):
            played = ws.cell(r, cols.scores[0]).value is not None
            first, *rest = (ws.cell(r, c).value for c in cols.results)
            places = [ws.cell(r, c).value for c in cols.places]
            if not played:
                assert first in (None, "") and all(v in (None, "") for v in rest), r
                assert all(v in (None, "") for v in places), r
                continue
            check = ws.cell(r, cols.check).value  # the demo season has a game cap
            assert check == "OK" or check.startswith("Over game cap: "), (r, check)
            numbers = all(isinstance(v, (int, float)) for v in [first, *rest])
            hinted = first == HINT and all(v in (None, "") for v in rest)
            blank_places = all(v in (None, "") for v in places)
            if recalculated:  # no add-in: the hint, and nothing derived from results
                assert hinted and blank_places, (r, first, rest, places)
            else:
                # LibreOffice 7.4 recalculates array formulas on load and keeps the saved
                # values of the others: the hint in the block, the saved places
                assert numbers or hinted, (r, first, rest)
                assert all(isinstance(v, int) for v in places), (r, places)
    top = [wb["Regular 2026 Standings"].cell(5, c).value for c in range(1, 5)]
    if recalculated:  # no results, no standings: an empty table, not an error wall
        assert all(v in (None, "") for v in top)
    else:
        assert all(v in (None, "") for v in top) or (top[0] == 1 and top[2] > 0)


def _pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True, timeout=120).stdout


@needs_lo
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")
def test_demo_is_alive_without_the_addin(tmp_path: Path) -> None:
    assert main(["demo", str(tmp_path / "demo"), "--games", "80"]) == 0
    demo = tmp_path / "demo" / "demo_league.xlsx"
    opened = as_opened(demo, "xlsx", tmp_path)
    _check_alive(opened, recalculated=False)
    _check_alive(hard_recalculated(demo, "xlsx", tmp_path), recalculated=True)
    # as opened, the chart plots the saved standings (its table keeps the saved values)
    saved, shown = load_workbook(demo, data_only=True), load_workbook(opened, data_only=True)
    for name in ("Regular 2026 Standings", "Final 2026 Standings"):
        table = sorted(c for c in _chart_table(saved[name])  # its points, not the criteria
                       if not str(saved[name][c].value).startswith("="))
        points = [saved[name][c].value for c in table]
        assert sum(isinstance(v, (int, float)) and v != 0 for v in points) > 10, name
        assert [shown[name][c].value for c in table] == points, name
    for way, pdf in (("opened", as_opened(demo, "pdf", tmp_path)),
                     ("recalc", hard_recalculated(demo, "pdf", tmp_path))):
        text = _pdf_text(pdf)
        for bad in (*ERRORS, "###"):  # ###: a number too wide, Stats' -1E9 sentinel was one
            assert bad not in text, (way, bad)
        assert HINT in text and "umaoka league workbook" in text
        assert "written for xlwings Lite" in text
        subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "6", str(pdf),
                        str(tmp_path / f"{way}-page")], check=True, timeout=120)
        pages = sorted(tmp_path.glob(f"{way}-page-*.png"))
        assert len(pages) == 6 and all(p.stat().st_size > 2000 for p in pages)


@needs_lo
def test_japanese_demo_hint(tmp_path: Path) -> None:
    book = demo_book(16, lang="ja")
    path = save_workbook(build_workbook(book), tmp_path / "ja.xlsx")
    wb = load_workbook(hard_recalculated(path, "xlsx", tmp_path), data_only=True)
    assert wb.sheetnames[0] == "はじめに"
    ws = wb[book.leagues[0].name]
    assert ws.cell(5, LeagueCols(4).results[0]).value == "→ はじめに"


#: Tenhou lobby lines whose finals have tenths (+45.3): the 4 players' totals are +101.4,
#: +19.1, -43.4 and -77.1, which a whole-point format would show as +101, +19, -43, -77.
LOBBY_TENTHS = ("L1002 | 19:10 | 四般南喰赤－ | Aki(+45.3) Ben(+9.1) Chie(-14.6) Dan(-39.8)\n"
                "L1002 | 19:50 | 四般南喰赤－ | Ben(+44.1) Aki(+12.0) Dan(-17.3) Chie(-38.8)\n"
                "L1002 | 20:30 | 四般南喰赤－ | Aki(+44.1) Chie(+10.0) Dan(-20.0) Ben(-34.1)\n")


@needs_lo
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")
def test_platform_finals_show_without_the_addin(tmp_path: Path) -> None:
    # a whole-point league with one typed game, then lobby lines imported into it
    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].games.append(Game(None, 1, 1, 1, ["Aki", "Ben", "Chie", "Dan"],
                                      [35700, 32400, 22200, 9700]))
    result = read_results("sca20260405.log", LOBBY_TENTHS.encode())
    path = import_into(write_league(book, tmp_path / "league.xlsx"), result).path
    league = read_book(path).leagues[0]
    cols = league_cols(league, 4)
    expected = standings([(list(g.names), list(g.finals), list(g.places))
                          for g in result.games])
    for recalculated, xlsx in ((False, as_opened(path, "xlsx", tmp_path)),
                               (True, hard_recalculated(path, "xlsx", tmp_path))):
        wb = load_workbook(xlsx, data_only=True)
        for ws in wb.worksheets:  # no #NAME? (the whole block showed it), no error at all
            for row in ws.iter_rows():
                for c in row:
                    assert not (isinstance(c.value, str) and (c.value in ERRORS or c.value
                                .startswith("Err:"))), (recalculated, ws.title, c.coordinate)
        ws = wb["League"]
        typed = [ws.cell(5, c).value for c in cols.results]
        assert typed == [HINT, None, None, None]  # no add-in: the typed game waits for it
        assert all(isinstance(ws.cell(5, c).value, int) != recalculated for c in cols.places)
        for i, g in enumerate(result.games):
            r = 6 + i
            assert [ws.cell(r, c).value for c in cols.results] == [float(f) for f in g.finals]
            assert tuple(ws.cell(r, c).value for c in cols.places) == g.places
            assert ws.cell(r, cols.check).value == "By platform"
        if recalculated:  # LibreOffice's own standings: the platform games alone
            _check_standings(wb["League Standings"], expected)
    # what is printed: every final with its tenths, in the tab and in the standings
    for way, pdf in (("opened", as_opened(path, "pdf", tmp_path)),
                     ("recalc", hard_recalculated(path, "pdf", tmp_path))):
        text = _pdf_text(pdf)
        for bad in (*ERRORS, "###"):
            assert bad not in text, (way, bad)
        for g in result.games:  # the platform block, then the same finals as Final scores
            finals = r"\s+".join(re.escape(f"{f:+.1f}") for f in g.finals)
            assert re.search(finals, text), (way, finals)  # Final scores: one page, in a row
            for f in g.finals:  # the platform block may run on over the page's edge
                assert len(re.findall(re.escape(f"{f:+.1f}") + r"(?![\d])", text)) >= 2, (way, f)
        if way == "recalc":
            for p in expected:
                assert re.search(rf"{re.escape(p.name)}\s+3\s+{re.escape(f'{p.total:+.1f}')}\s",
                                 text), (way, p.name, p.total)


# ------------------------------------------------------------------------------------------------
# The Start sheet


@pytest.mark.parametrize("kind", ["lite", "classic", "server"])
def test_start_sheet(tmp_path: Path, kind: str) -> None:
    book = make_book(runtime=runtime(kind))
    wb = load_workbook(write_league(book, tmp_path / "b.xlsx"))
    assert wb.sheetnames[0] == "Start" and wb.active.title == "Start"
    lines = [c.value for c in wb["Start"]["A"] if c.value]
    text = "\n".join(lines)
    assert f"written for {book.runtime.title}" in text
    ways = [x for x in lines if x[:3] in ("1. ", "2. ", "3. ")]
    assert [w[:3] for w in ways] == ["1. ", "2. ", "3. "]
    marked = [w for w in ways if w.endswith("← this workbook")]
    assert len(marked) == 1 and marked[0].startswith({"lite": "1. xlwings Lite",
                                                      "classic": "2. Classic xlwings",
                                                      "server": "3. xlwings Server"}[kind])
    assert "umaoka settle" in text and "umaoka runtime" in text and HINT in text
    assert wb["Start"].protection.sheet


def test_start_sheet_when_lite_code_is_inside(tmp_path: Path) -> None:
    path = save_workbook(build_workbook(make_book(), lite_code_inside=True), tmp_path / "b.xlsx")
    lines = [c.value for c in load_workbook(path)["Start"]["A"] if c.value]
    assert any(x.startswith("1. xlwings Lite") and "already in this workbook" in x
               for x in lines)
