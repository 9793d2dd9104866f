"""The manager's league workbook stays theirs: every command that adds to it updates that
file in place, keeping every part umaoka does not own byte for byte (a sheet added by hand
with a chart and an image, a defined name, a VBA project), keeps the previous version as
``NAME.bak.xlsx``, refuses while Excel or LibreOffice has the file open, and writes
atomically. ``settle`` writes a report beside it and refuses to settle a report."""

from __future__ import annotations

import posixpath
import re
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
from openpyxl import load_workbook
from openpyxl.chart import BarChart, Reference
from openpyxl.drawing.image import Image
from openpyxl.workbook.defined_name import DefinedName

from umaoka.addin.cli.app import main
from umaoka.addin.install import merge, update
from umaoka.addin.install.embed import extract_lite
from umaoka.addin.install.lite import lite_source
from umaoka.templates.settle_book import read_book

LINES = ("L1002 | 00:44 | 四般南喰赤－ | Aki(+61.0) Ben(0.0) Chie(-25.0) Dan(-36.0)\n"
         "L1002 | 01:20 | 四般南喰赤－ | Ben(+48.0) Aki(+12.0) Dan(-20.0) Chie(-40.0)\n")
MORE = "L1002 | 02:10 | 四般南喰赤－ | Chie(+50.0) Dan(+10.0) Aki(-20.0) Ben(-40.0)\n"
VBA = b"\xd0\xcf\x11\xe0 a VBA project, not read by umaoka " * 40
REL_VBA = "http://schemas.microsoft.com/office/2006/relationships/vbaProject"


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    raw = b"".join(b"\x00" + b"\xc8\x1e\x1e" * 4 for _ in range(3))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 3, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class _Png(Image):
    """An image for openpyxl without Pillow: the PNG's bytes as they are."""

    def __init__(self, data: bytes) -> None:
        self.ref, self.width, self.height, self.format = data, 40, 30, "png"

    def _data(self) -> bytes:
        return self.ref


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def _manager_book(folder: Path, macro: bool = False) -> Path:
    """A league with games' rows and, added by hand: a "Club notes" sheet with a chart and
    an image, a defined name ClubDues; with ``macro``, an .xlsm with a VBA project."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "league.xlsx"
    assert main(["new", str(path), "--players", "Aki,Ben,Chie,Dan"]) == 0
    wb = load_workbook(path)
    ws = wb.create_sheet("Club notes")
    ws.append(["Player", "Dues"])
    for row in (["Aki", 10], ["Ben", 20], ["Chie", 5]):
        ws.append(row)
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    ws.add_chart(chart, "D2")
    picture = _Png(_png())
    picture.anchor = "D20"
    ws.add_image(picture)
    wb.defined_names["ClubDues"] = DefinedName("ClubDues", attr_text="'Club notes'!$B$2:$B$4")
    wb.save(path)
    if not macro:
        return path
    parts = _parts(path)
    xlsm = folder / "league.xlsm"
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    parts["xl/_rels/workbook.xml.rels"] = rels.replace(
        "</Relationships>", f'<Relationship Id="rIdVba" Type="{REL_VBA}" '
        'Target="vbaProject.bin"/></Relationships>').encode()
    types = parts["[Content_Types].xml"].decode()
    types = re.sub(r'ContentType="application/vnd\.openxmlformats-officedocument\.'
                   r'spreadsheetml\.sheet\.main\+xml"',
                   'ContentType="application/vnd.ms-excel.sheet.macroEnabled.main+xml"', types)
    types = types.replace("<Default ", '<Default Extension="bin" ContentType="application/'
                          'vnd.ms-office.vbaProject"/><Default ', 1)
    parts["[Content_Types].xml"] = types.encode()
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(
        b"<workbookPr/>", b'<workbookPr codeName="ThisWorkbook"/>')
    parts["xl/vbaProject.bin"] = VBA
    with zipfile.ZipFile(xlsm, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    path.unlink()
    return xlsm


def _theirs(path: Path) -> dict[str, bytes]:
    """The parts umaoka does not own: the hand-made sheet and all that hangs off it, the
    theme, document properties and the VBA project."""
    parts = _parts(path)
    wb_xml = parts["xl/workbook.xml"].decode()
    rid = re.search(r'<sheet [^>]*name="Club notes"[^>]*>', wb_xml).group(0)
    rid = re.search(r'r:id="([^"]+)"', rid).group(1)
    rels = parts["xl/_rels/workbook.xml.rels"].decode()
    target = re.search(rf'<Relationship [^>]*Id="{rid}"[^>]*>', rels).group(0)
    sheet = re.search(r'Target="([^"]+)"', target).group(1).lstrip("/")
    sheet = sheet if sheet.startswith("xl/") else posixpath.join("xl", sheet)
    todo, seen = [sheet], set()
    while todo:
        part = todo.pop()
        seen.add(part)
        rel = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rel in parts:
            seen.add(rel)
            for t in re.findall(r'Target="([^"]+)"', parts[rel].decode()):
                full = t.lstrip("/") if t.startswith("/") else posixpath.normpath(
                    posixpath.join(posixpath.dirname(part), t))
                if full not in seen:
                    todo.append(full)
    seen |= {p for p in parts if p.startswith(("docProps/", "xl/theme/"))
             or p == "xl/vbaProject.bin"}
    assert any(p.startswith("xl/charts/") for p in seen)
    assert any(p.startswith("xl/media/") for p in seen)
    return {p: parts[p] for p in seen}


def _check_kept(path: Path, theirs: dict[str, bytes]) -> None:
    parts = _parts(path)
    for name, data in theirs.items():
        assert parts.get(name) == data, f"{name} changed"
    wb_xml = parts["xl/workbook.xml"].decode()
    assert "<definedName name=\"ClubDues\">'Club notes'!$B$2:$B$4</definedName>" in wb_xml
    wb = load_workbook(path, keep_vba=path.suffix == ".xlsm")
    assert wb["Club notes"]["B3"].value == 20 and len(wb["Club notes"]._charts) == 1
    if path.suffix == ".xlsm":
        assert 'codeName="ThisWorkbook"' in wb_xml
        types = parts["[Content_Types].xml"].decode()
        assert "macroEnabled.main+xml" in types and 'Extension="bin"' in types
        assert "vbaProject" in parts["xl/_rels/workbook.xml.rels"].decode()


def _no_temporaries(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("macro", [False, True], ids=["xlsx", "xlsm"])
def test_every_command_that_adds_keeps_the_managers_parts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], macro: bool) -> None:
    book = _manager_book(tmp_path / "club", macro)
    folder = book.parent
    theirs = _theirs(book)
    lines, more = folder / "sca1.log", folder / "sca2.log"
    lines.write_text(LINES, encoding="utf-8")
    more.write_text(MORE, encoding="utf-8")
    backup = update.backup_path(book)
    assert backup.name == f"league.bak{book.suffix}"
    steps = [
        ["import", str(lines), "--into", str(book)],
        ["seating", "Aki,Ben,Chie,Dan", "--rounds", "2", "--into", str(book)],
        ["import", str(more), "--into", str(book)],
        ["runtime", str(book), "--to", "classic"],
        ["add", str(book), "--stage", "Final", "--ruleset", "mleague"],
        ["add", str(book), "--teams", "Red=Aki,Ben;Blue=Chie,Dan", "--chips", "--subs"],
        ["runtime", str(book), "--to", "lite"],
        ["lite", "--into", str(book)],  # on classic formulas it is refused (test_lite_into_runtime)
    ]
    for argv in steps:
        before = book.read_bytes()
        assert main(argv) == 0, (argv, capsys.readouterr().err)
        out = capsys.readouterr().out
        assert f"updated {book} (previous version kept as {backup.name})" in out, out
        assert backup.read_bytes() == before  # the previous version, beside it
        assert book.read_bytes() != before
        _check_kept(book, theirs)
        _no_temporaries(folder)
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            [book.name, backup.name, "sca1.log", "sca2.log"])  # no new file names
    back = read_book(book)
    assert [lg.name for lg in back.leagues] == ["League", "Final"]
    games = [g for g in back.leagues[0].games if any(back_p for back_p in g.players)]
    # lobby games without a session take the next one (1, then after the seating's 2 and 3)
    assert [g.session for g in games] == [1, 1, 2, 3, 4]
    assert back.teams == {"Aki": "Red", "Ben": "Red", "Chie": "Blue", "Dan": "Blue"}
    assert back.leagues[0].chips and back.leagues[1].subs
    assert back.runtime.kind == "lite" and extract_lite(book)[0] == lite_source()
    assert back.seating is not None
    # the report: a separate file; the league is not changed; a report is not settled again
    before = book.read_bytes()
    assert main(["settle", str(book)]) == 0
    settled = folder / "league_settled.xlsx"
    assert settled.exists() and book.read_bytes() == before
    capsys.readouterr()
    for argv in (["settle", str(settled), "-o", str(folder / "again.xlsx")],
                 ["import", str(lines), "--into", str(settled)],
                 ["runtime", str(settled), "--to", "classic"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "is a settled copy (a report, from league" in err and err.count("\n") == 1


@pytest.mark.parametrize("lock", ["~${}", ".~lock.{}#"])
def test_refused_while_open_in_excel_or_libreoffice(tmp_path: Path, lock: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    book = _manager_book(tmp_path)
    (tmp_path / lock.format(book.name)).write_text("someone", encoding="utf-8")
    lines = tmp_path / "sca1.log"
    lines.write_text(LINES, encoding="utf-8")
    before = book.read_bytes()
    for argv in (["import", str(lines), "--into", str(book)],
                 ["seating", "4", "--rounds", "1", "--into", str(book)],
                 ["runtime", str(book), "--to", "classic"], ["lite", "--into", str(book)],
                 ["add", str(book), "--chips"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert f"{book} is open in Excel or LibreOffice" in err and err.count("\n") == 1, err
        assert book.read_bytes() == before
        assert not update.backup_path(book).exists()
    # a new file (-o) may still be written from it: reading an open file is fine
    assert main(["import", str(lines), "--into", str(book), "-o",
                 str(tmp_path / "copy.xlsx")]) == 0
    assert book.read_bytes() == before


def test_atomic_no_partial_file_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    book = _manager_book(tmp_path)
    before = book.read_bytes()
    real = merge.write_zip

    def half(pkg, dst, changed, drop, compresslevel=None):  # type: ignore[no-untyped-def]
        real(pkg, dst, dict(list(changed.items())[:2]), drop, compresslevel)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(merge, "write_zip", half)
    assert main(["runtime", str(book), "--to", "classic"]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert book.read_bytes() == before
    _no_temporaries(tmp_path)
    assert load_workbook(book).sheetnames[-1] == "Club notes"


def test_output_flag_writes_a_new_file_with_the_managers_parts(tmp_path: Path) -> None:
    book = _manager_book(tmp_path)
    theirs = _theirs(book)
    before = book.read_bytes()
    book.chmod(0o640)
    assert main(["add", str(book), "--chips"]) == 0  # in place: permissions kept
    assert book.stat().st_mode & 0o777 == 0o640
    book.write_bytes(before)
    update.backup_path(book).unlink()
    out = tmp_path / "classic.xlsx"
    assert main(["runtime", str(book), "--to", "classic", "-o", str(out)]) == 0
    assert book.read_bytes() == before and not update.backup_path(book).exists()
    _check_kept(out, theirs)
    assert read_book(out).runtime.kind == "classic"


def test_styles_and_strings_do_not_grow_from_update_to_update(tmp_path: Path) -> None:
    book = _manager_book(tmp_path)
    assert main(["runtime", str(book), "--to", "classic"]) == 0
    first = _parts(book)
    for kind in ("lite", "classic"):
        assert main(["runtime", str(book), "--to", kind]) == 0
    again = _parts(book)
    assert again["xl/styles.xml"] == first["xl/styles.xml"]
    assert again.get("xl/sharedStrings.xml") == first.get("xl/sharedStrings.xml")
    shutil.copy(book, tmp_path / "plain.xlsx")
    assert load_workbook(tmp_path / "plain.xlsx")["League"]["A4"].value is not None


def test_updated_workbook_opens_in_libreoffice(tmp_path: Path) -> None:
    """LibreOffice reads the merged file whole: the hand-made sheet, its chart, the
    manager's name and umaoka's sheets with the games added."""
    from test_libreoffice import SOFFICE, convert

    if SOFFICE is None:  # the LibreOffice tests need it installed (see test_libreoffice)
        pytest.fail("LibreOffice (soffice) is not installed")
    book = _manager_book(tmp_path / "club")
    lines = tmp_path / "sca1.log"
    lines.write_text(LINES, encoding="utf-8")
    assert main(["import", str(lines), "--into", str(book)]) == 0
    assert main(["add", str(book), "--stage", "Final"]) == 0
    saved = convert(book, "xlsx", tmp_path)
    wb = load_workbook(saved)
    assert {"League", "Final", "Club notes", "Players"} <= set(wb.sheetnames)
    assert wb["Club notes"]["B3"].value == 20 and len(wb["Club notes"]._charts) == 1
    assert "ClubDues" in wb.defined_names
    assert [wb["League"].cell(5, c).value for c in range(1, 3)][1] == 1  # session 1


def test_add_a_season_to_a_league_with_games(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Stages, teams and settings of a season file join a league whose games were typed
    already: the games stay, new stages are new tabs, no game is typed again."""
    book = _manager_book(tmp_path)
    lines = tmp_path / "sca1.log"
    lines.write_text(LINES, encoding="utf-8")
    assert main(["import", str(lines), "--into", str(book)]) == 0
    season = tmp_path / "season.ini"
    season.write_text("[season]\nname = Club 2026\nruleset = standard\n\n"
                      "[stage League]\nmin_games = 1\nadvance = 2\n\n"
                      "[stage Final]\ncarry = half\n\n[teams]\nRed = Aki, Ben\n"
                      "Blue = Chie, Dan\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["add", str(book), "--season", str(season)]) == 0
    out = capsys.readouterr().out
    assert "added stage Final, the season file's settings (2 games kept)" in out, out
    back = read_book(book)
    assert [lg.name for lg in back.leagues] == ["League", "Final"]
    assert [g.players for g in back.leagues[0].games if g.players[0]] == [
        ["Aki", "Ben", "Chie", "Dan"], ["Ben", "Aki", "Dan", "Chie"]]
    assert back.teams["Chie"] == "Blue" and back.season.settings["name"] == "Club 2026"
    assert [(s.name, s.advance) for s in back.season.stages] == [("League", 2), ("Final", None)]
    # a tab the season file leaves out, a stage already there, nothing to add: one sentence
    other = tmp_path / "other.ini"
    other.write_text("[season]\nruleset = standard\n[stage Spring]\n", encoding="utf-8")
    for argv, words in ((["add", str(book), "--season", str(other)],
                         "the season file leaves out the league tab(s) League, Final"),
                        (["add", str(book), "--stage", "final"],
                         'already has a league tab "final"'),
                        (["add", str(book)], "nothing to add")):
        before = book.read_bytes()
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
        assert book.read_bytes() == before


def test_roster_from_a_file_as_text_and_without_twins(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    names = tmp_path / "players.txt"
    names.write_text("Aki\nBen\n# the new ones\n007\n佐藤\n", encoding="utf-8")
    book = tmp_path / "league.xlsx"
    assert main(["new", str(book), "--players", str(names)]) == 0
    assert read_book(book).players == ["Aki", "Ben", "007", "佐藤"]
    wb = load_workbook(book)
    assert wb["Players"]["A7"].value == "007" and wb["Players"]["A7"].number_format == "@"
    assert wb["Players"]["A30"].number_format == "@"  # empty roster rows too: 007 stays
    league = wb["League"]
    assert [league.cell(5, c).number_format for c in range(5, 9)] == ["@"] * 4
    capsys.readouterr()
    for players, words in (("missing.txt", "missing.txt does not exist; give --players"),
                           ("Aki,Aki,Ben", "Aki is given twice in --players"),
                           ("Aki,aki", "Aki and aki differ only by case in --players")):
        assert main(["new", str(tmp_path / "x.xlsx"), "--players", players]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.xlsx").exists()
    assert main(["add", str(book), "--players", "aki"]) == 2
    assert '"aki" differs from "Aki" on the Players sheet only by case' in \
        capsys.readouterr().err


def test_a_name_differing_only_by_case_is_a_warning(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from umaoka.templates.book.model import Game, make_book
    from umaoka.templates.build import write_league

    book = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].games.append(Game(players=["Aki", "Ben", "chie", "Dan"],
                                      scores=[40000, 30000, 20000, 10000], penalties=[None] * 4))
    path = write_league(book, tmp_path / "league.xlsx")
    assert main(["settle", str(path)]) == 0
    err = capsys.readouterr().err
    assert ('umaoka: warning: League!row 5: "chie" differs from "Chie" on the Players sheet '
            "only by case and counts as Chie; type it as on the Players sheet") in err, err
    assert err.count("warning:") == 1  # said once, not "warning: ... warning:"
    # the Check column says so too: the live formula's saved value and the settled copy
    from umaoka.templates.book.layout import league_cols

    check = league_cols(book.leagues[0], 4).check
    live = load_workbook(path, data_only=True)["League"].cell(5, check).value
    settled = load_workbook(tmp_path / "league_settled.xlsx")["League"].cell(5, check).value
    assert live == settled == "Case differs from roster: chie"
    # the Check shows its helper cells' first message: the names' helper finds the case
    names = league_cols(book.leagues[0], 4).check_names
    assert load_workbook(path, data_only=True)["League"].cell(5, names).value == live
    formula = load_workbook(path)["League"].cell(5, names).value
    assert "FIND(INDEX(Roster,MATCH(" in formula


def test_names_scoped_to_the_managers_sheets_follow_them(tmp_path: Path) -> None:
    """A print area of the manager's sheet (a name scoped to it) still points to that
    sheet when an added stage moves it along the tabs; a sheet placed between umaoka's
    keeps its neighbour; a hidden sheet stays hidden; an extension list of the styles
    with its own dxfs (as Excel writes) is left alone."""
    book = _manager_book(tmp_path)
    wb = load_workbook(book)
    ws = wb["Club notes"]
    wb.move_sheet(ws, -(len(wb.sheetnames) - 1 - wb.sheetnames.index("Players")))
    ws.print_area = "A1:B4"
    secret = wb.create_sheet("Secret")
    secret["A1"] = "key"
    secret.sheet_state = "hidden"
    wb.save(book)
    parts = _parts(book)
    styles = parts["xl/styles.xml"].decode()
    ext = ('<extLst><ext xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/'
           'main" uri="{46F421CA-312F-682f-3DD2-61675219B42D}"><x14:dxfs count="0"/></ext>'
           "</extLst>")
    parts["xl/styles.xml"] = styles.replace("</styleSheet>", ext + "</styleSheet>").encode()
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)
    order = load_workbook(book).sheetnames
    assert order[order.index("Players") - 1] == "Club notes"
    before = order[order.index("Club notes") - 1]
    assert main(["add", str(book), "--stage", "Final"]) == 0
    wb = load_workbook(book)
    names = wb.sheetnames
    assert names[names.index("Club notes") - 1] == before and "Final" in names
    assert wb["Club notes"].print_area == "'Club notes'!$A$1:$B$4"
    assert wb["Secret"].sheet_state == "hidden" and wb["Secret"]["A1"].value == "key"
    styles = _parts(book)["xl/styles.xml"].decode()
    assert '<x14:dxfs count="0"/>' in styles  # the extension's, untouched
    assert styles.index("<dxfs") < styles.index("<extLst")


# ------------------------------------------------------------------------------------------------
# The manager's own cells inside umaoka's sheets

def _with_managers_cells(folder: Path, saved_by: str) -> Path:
    """A league with a typed game and what a manager writes into umaoka's sheets: a comment
    on a typed name, a note and a formula beside the League table, a bold filled input
    cell, an Email column on Players (after the Team column's place) with its width; saved
    by openpyxl or re-saved by LibreOffice."""
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "league.xlsx"
    assert main(["new", str(path), "--players", "Aki,Ben,Chie,Dan"]) == 0
    wb = load_workbook(path)
    ws = wb["League"]
    for c, v in zip("EFGHIJKL", ["Aki", "Ben", "Chie", "Dan", 48200, 31500, 12300, 8000]):
        ws[f"{c}5"] = v
    ws["E5"].comment = Comment("Aki came late", "Manager")
    ws["AZ1"] = "Venue moved to the club room"
    ws["AZ2"] = "=COUNTA(E5:H5)"
    ws["F5"].font = Font(bold=True)
    ws["F5"].fill = PatternFill("solid", fgColor="FFFF00")
    players = wb["Players"]
    players["C4"] = "Email"
    players["C5"] = "aki@example.com"
    players.column_dimensions["C"].width = 30
    wb.save(path)
    if saved_by == "openpyxl":
        return path
    from test_libreoffice import SOFFICE, convert

    if SOFFICE is None:  # the LibreOffice tests need it installed (see test_libreoffice)
        pytest.fail("LibreOffice (soffice) is not installed")
    saved = convert(path, "xlsx", folder / "lo")
    shutil.copyfile(saved, path)
    return path


def _check_managers_cells(path: Path) -> None:
    wb = load_workbook(path)
    ws = wb["League"]
    assert ws["E5"].value == "Aki" and ws["E5"].comment is not None
    assert ws["E5"].comment.text.strip().endswith("Aki came late")
    assert ws["AZ1"].value == "Venue moved to the club room"
    assert ws["AZ2"].value == "=COUNTA(E5:H5)"
    assert ws["F5"].value == "Ben" and ws["F5"].font.b
    assert ws["F5"].fill.fgColor.rgb.endswith("FFFF00")
    assert ws["F5"].protection.locked is False  # still an input cell
    players = wb["Players"]
    assert [players["C4"].value, players["C5"].value] == ["Email", "aki@example.com"]
    assert players.column_dimensions["C"].width == pytest.approx(30, abs=0.8)


@pytest.mark.parametrize("saved_by", ["openpyxl", "libreoffice"])
def test_every_update_keeps_the_managers_cells_in_umaokas_sheets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], saved_by: str) -> None:
    book = _with_managers_cells(tmp_path / "club", saved_by)
    lines = tmp_path / "sca1.log"
    lines.write_text(LINES, encoding="utf-8")
    _check_managers_cells(book)
    capsys.readouterr()
    for argv in (["import", str(lines), "--into", str(book)],
                 ["seating", "Aki,Ben,Chie,Dan", "--rounds", "2", "--into", str(book)],
                 ["runtime", str(book), "--to", "classic"],
                 ["add", str(book), "--stage", "Final", "--chips"],
                 ["add", str(book), "--teams", "Red=Aki,Ben;Blue=Chie,Dan"],
                 ["runtime", str(book), "--to", "lite"],
                 ["lite", "--into", str(book)]):  # (refused on a classic workbook)
        assert main(argv) == 0, argv
        err = capsys.readouterr().err
        assert "left out" not in err, (argv, err)  # nothing of theirs is lost
        _check_managers_cells(book)
    assert read_book(book).teams["Aki"] == "Red"
    # one comment, not one more each update; LibreOffice reads the file with them
    with zipfile.ZipFile(book) as z:
        comments = [n for n in z.namelist() if re.search(r"comments?\d*\.xml$", n)]
        assert len(comments) == 1 and z.read(comments[0]).count(b"Aki came late") == 1
    from test_libreoffice import convert

    again = load_workbook(convert(book, "xlsx", tmp_path / "check"))
    assert again["League"]["AZ1"].value == "Venue moved to the club room"
    assert again["League"]["E5"].comment.text.strip().endswith("Aki came late")
    assert again["Players"]["C5"].value == "aki@example.com"


def test_what_cannot_be_kept_is_said_before_writing(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """An Email column where the Team column comes, merged cells and a picture of the
    manager's on the League tab: each named in one line, the rest kept."""
    path = tmp_path / "league.xlsx"
    assert main(["new", str(path), "--players", "Aki,Ben,Chie,Dan"]) == 0
    wb = load_workbook(path)
    players = wb["Players"]
    players["B4"], players["B5"] = "Email", "aki@example.com"
    ws = wb["League"]
    ws["BA1"] = "kept"
    ws.merge_cells("BB1:BC1")
    picture = _Png(_png())
    picture.anchor = "BE3"
    ws.add_image(picture)
    wb.save(path)
    capsys.readouterr()
    assert main(["add", str(path), "--teams", "Red=Aki,Ben;Blue=Chie,Dan"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert sorted(err) == sorted([
        "umaoka: warning: left out: League: 1 chart or picture placed on this sheet (move "
        "them to a sheet of your own to keep them).",
        "umaoka: warning: left out: League!BB1:BC1: merged cells of your own.",
        'umaoka: warning: left out: Players!B4: "Email" is replaced by umaoka\'s cell there.',
        'umaoka: warning: left out: Players!B5: "aki@example.com" is replaced by umaoka\'s '
        "cell there."]), err
    wb = load_workbook(path)
    assert wb["Players"]["B4"].value == "Team" and wb["Players"]["B5"].value == "Red"
    assert wb["League"]["BA1"].value == "kept"
    assert load_workbook(update.backup_path(path))["Players"]["B5"].value == "aki@example.com"


def test_a_shorter_table_leaves_nothing_of_umaokas_behind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last games cleared, the tab is written shorter: umaoka's rows below it (the
    final scores' block, the checks, the places) are not taken for the manager's cells,
    nothing is said to be left out, and the manager's note down there stays."""
    from umaoka.templates.book.model import Game, make_book
    from umaoka.templates.build import write_league

    names = ["Aki", "Ben", "Chie", "Dan"]
    book = make_book(["standard"], players=names)
    book.leagues[0].games = [Game(None, 1 + i // 10, None, None, names,
                                  [40000, 30000, 20000, 10000]) for i in range(300)]
    path = write_league(book, tmp_path / "league.xlsx")
    wb = load_workbook(path)
    ws = wb["League"]
    assert ws.max_row == 404
    for row in ws.iter_rows(min_row=60, max_row=304, max_col=12):
        for cell in row:
            cell.value = None
    ws["AZ300"] = "Trophy night"
    wb.save(path)
    capsys.readouterr()
    assert main(["add", str(path), "--players", "Eri"]) == 0
    assert capsys.readouterr().err == ""
    ws = load_workbook(path)["League"]
    assert ws["AZ300"].value == "Trophy night"
    assert [c.coordinate for row in ws.iter_rows(min_row=205, max_row=404)
            for c in row if c.value is not None] == ["AZ300"]
