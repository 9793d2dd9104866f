"""Odd but valid, damaged and tampered workbooks: read right, or refused in one sentence."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.engine import UmaokaError
from umaoka.templates import settle_book
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.build import build_workbook
from umaoka.templates.settle_book import MAX_GAP, read_book, settle_file
from umaoka.templates.xlsx.io import (
    MAX_PART,
    MAX_SHEET,
    check_parts,
    check_prologs,
    save_workbook,
)

SHEET = "xl/worksheets/sheet1.xml"  # the league tab: the first sheet of a fresh workbook


@pytest.fixture
def league(tmp_path: Path) -> Path:
    book = make_book(["standard"], ["Spring"], ["Aki", "Ben", "Chie", "Dan"])
    book.leagues[0].games += [
        Game(1, 1, 1, 1, ["Aki", "Ben", "Chie", "Dan"], [35700, 32400, 22200, 9700]),
        Game(2, 1, 1, 2, ["Ben", "Aki", "Dan", "Chie"], [40000, 30000, 20000, 10000]),
    ]
    path = tmp_path / "league.xlsx"
    save_workbook(build_workbook(book), path)
    return path


def _sheet_part(path: Path, name: str) -> str:
    wb = load_workbook(path, read_only=True)
    try:
        return wb[name]._worksheet_path.lstrip("/")
    finally:
        wb.close()


def rewrite(path: Path, part: str, change: Callable[[str], str]) -> Path:
    """A copy of the workbook with one part's XML changed."""
    out = path.with_name("changed.xlsx")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == part:
                data = change(data.decode("utf-8")).encode("utf-8")
            dst.writestr(item, data)
    return out


def test_cells_without_an_address_follow_the_previous_cell(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(r' r="[A-Z]+\d+"', "", x))
    games = read_book(changed).leagues[0].games
    assert games[0].scores == [35700, 32400, 22200, 9700]
    assert games[1].players == ["Ben", "Aki", "Dan", "Chie"]


def test_an_iso_date_cell_reads_as_a_date(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(
        r'<c r="A5"([^>]*?)(/>|>.*?</c>)', r'<c r="A5"\1 t="d"><v>2026-04-04T00:00:00</v></c>',
        x, count=1))
    game = read_book(changed).leagues[0].games[0]
    assert str(game.date).startswith("2026-04-04")


def test_a_formula_in_the_date_column_uses_its_saved_value(league: Path):
    part = _sheet_part(league, "Spring")
    changed = rewrite(league, part, lambda x: re.sub(
        r'<c r="A6"([^>]*?)(/>|>.*?</c>)', r'<c r="A6"\1><f>A5+7</f><v>46123</v></c>', x,
        count=1))
    assert read_book(changed).leagues[0].games[1].date == 46123
    unsaved = rewrite(league, part, lambda x: re.sub(
        r'<c r="A6"([^>]*?)(/>|>.*?</c>)', r'<c r="A6"\1><f>A5+7</f></c>', x, count=1))
    with pytest.raises(UmaokaError, match=r"Spring!A6 holds a formula; .*needs its value saved"):
        read_book(unsaved)


@pytest.mark.parametrize(("change", "why"), [
    (lambda x: x.replace("</sheetData>", "</sheetDat>"), "XML error: mismatched tag"),
    (lambda x: x.replace('r="I5"', 'r="I2000000000"'), "below Excel's last row"),
    (lambda x: x.replace('<row r="5"', '<row r="99999999999"'), "outside Excel's rows"),
    (lambda x: x.replace('r="I5"', 'r="I5X"'), 'cell address "I5X"'),
    (lambda x: re.sub(r'<c r="E5"[^>]*?(/>|>.*?</c>)', r'<c r="E5" t="s"><v>99999</v></c>',
                      x, count=1), "E5 points to a missing shared text"),
    (lambda x: re.sub(r'<c r="I5"([^>]*?)(/>|>.*?</c>)', r'<c r="I5"\1><v>12abc</v></c>', x,
                      count=1), 'I5 holds "12abc" as a number'),
])
def test_damaged_league_tab_is_one_sentence(league: Path, change: Callable[[str], str],
                                             why: str):
    changed = rewrite(league, _sheet_part(league, "Spring"), change)
    with pytest.raises(UmaokaError) as err:
        settle_file(changed)
    message = str(err.value)
    assert why in message and "\n" not in message and len(message) < 600
    assert message.startswith('sheet "Spring" is damaged')


def test_tampered_layout_sheet_is_one_sentence(league: Path):
    part = _sheet_part(league, "_umaoka")

    def tamper(x: str) -> str:  # the league row's numbers become text
        return re.sub(r"(<c r=\"D\d+\"[^>]*?)(?: t=\"n\")?><v>0</v>",
                      r'\1 t="inlineStr"><is><t>zero</t></is>', x, count=1)

    changed = rewrite(league, part, tamper)
    with pytest.raises(UmaokaError, match="hidden layout sheet .* was changed"):
        read_book(changed)


# ------------------------------------------------------------------------------------------------
# Hostile workbooks: entity bombs, external entities, zip bombs, far rows -> refused or read
# safely, within a time and memory bound, never leaking a local file


LAUGHS = ('<!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol;" if i == 1 else f"&lol{i - 1};") * 10}">'
                    for i in range(1, 10)) + "]>", "&lol9;")


def _xxe(secret: Path) -> tuple[str, str]:
    return f'<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>', "&xxe;"


def _inject(xml: str, doctype: str, ref: str) -> str:
    """``doctype`` before the root element, ``ref`` as its first content."""
    body = re.sub(r"^<\?xml[^>]*\?>", "", xml).lstrip()
    root = re.match(r"<[^!?][^>]*>", body)
    assert root is not None
    end = root.end()
    return ('<?xml version="1.0" encoding="UTF-8"?>' + doctype + body[:end] + ref + body[end:])


PARTS = ["[Content_Types].xml", "xl/workbook.xml", "xl/styles.xml", "xl/sharedStrings.xml",
         "Spring", "Players", "Rules - standard", "_umaoka"]


def _part(league: Path, name: str) -> str:
    return name if "." in name else _sheet_part(league, name)


def _with_shared_strings(league: Path) -> Path:
    """The workbook with its first player name (Spring!E5) in a shared-strings part."""
    sheet = _sheet_part(league, "Spring")
    out = league.with_name("shared.xlsx")
    with zipfile.ZipFile(league) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item).decode("utf-8")
            if item.filename == sheet:
                data = re.sub(r'<c r="E5"([^>]*?) t="inlineStr"><is><t>Aki</t></is></c>',
                              r'<c r="E5"\1 t="s"><v>0</v></c>', data, count=1)
                assert 't="s"><v>0</v>' in data
            elif item.filename == "[Content_Types].xml":
                data = data.replace("</Types>", '<Override PartName="/xl/sharedStrings.xml" '
                                    'ContentType="application/vnd.openxmlformats-officedocument'
                                    '.spreadsheetml.sharedStrings+xml"/></Types>')
            elif item.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace("</Relationships>", '<Relationship Id="rIdSST" Type="http'
                                    '://schemas.openxmlformats.org/officeDocument/2006/'
                                    'relationships/sharedStrings" Target="sharedStrings.xml"/>'
                                    "</Relationships>")
            dst.writestr(item, data.encode("utf-8"))
        dst.writestr("xl/sharedStrings.xml", '<?xml version="1.0" encoding="UTF-8"?><sst xmlns='
                     '"http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
                     'uniqueCount="1"><si><t>Aki</t></si></sst>')
    assert read_book(out).leagues[0].games[0].players[0] == "Aki"
    return out


def _outputs(folder: Path) -> bytes:
    """Everything written into ``folder``, every workbook unpacked."""
    data = b""
    for p in folder.rglob("*"):
        if p.is_file() and zipfile.is_zipfile(p):
            with zipfile.ZipFile(p) as z:
                data += b"".join(z.read(i) for i in z.infolist())
        elif p.is_file():
            data += p.read_bytes()
    return data


@pytest.mark.parametrize("parser", ["lxml", "etree"])
@pytest.mark.parametrize("attack", ["laughs", "xxe"])
@pytest.mark.parametrize("part", PARTS)
def test_hostile_xml_in_every_part_is_refused_without_a_leak(league: Path, tmp_path: Path,
                                                              part: str, attack: str,
                                                              parser: str):
    """Refused whichever parser openpyxl uses: lxml when installed (the test extras
    install it), the standard library's with defusedxml otherwise."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-4242")
    if part == "xl/sharedStrings.xml":  # as Excel saves it: texts in a shared table
        league = _with_shared_strings(league)
    name = _part(league, part)
    with zipfile.ZipFile(league) as z:
        assert name in z.namelist()
    doctype, ref = LAUGHS if attack == "laughs" else _xxe(secret)
    hostile = rewrite(league, name, lambda x: _inject(x, doctype, ref))
    out = tmp_path / "out"
    out.mkdir()
    exe = Path(sys.executable).with_name("umaoka")
    started = time.perf_counter()
    env = {**os.environ, "OPENPYXL_LXML": "True" if parser == "lxml" else "False"}
    run = subprocess.run([str(exe), "settle", str(hostile), "-o", str(out / "s.xlsx")],
                         capture_output=True, text=True, timeout=60, env=env)
    assert time.perf_counter() - started < 20
    said = run.stdout + run.stderr
    assert "TOP-SECRET" not in said and "lollollol" not in said
    assert "Traceback" not in said and len(run.stderr.strip().splitlines()) <= 1
    assert run.returncode == 2, said  # refused, in one sentence
    assert b"TOP-SECRET" not in _outputs(out) and not list(out.iterdir())


def _far_value(league: Path, part: str, cell: str, row: int) -> Path:
    def change(x: str) -> str:
        x = re.sub(r'<dimension ref="[^"]*"/>', f'<dimension ref="A1:{cell}{row}"/>', x)
        return x.replace("</sheetData>",
                         f'<row r="{row}"><c r="{cell}{row}"><v>5</v></c></row></sheetData>')
    return rewrite(league, part, change)


FAR = """
import resource, subprocess, sys, time
started = time.perf_counter()
run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(run.returncode, peak, round(time.perf_counter() - started, 1))
print(run.stderr)
"""


@pytest.mark.parametrize(("sheet", "cell"), [("Spring", "I"), ("Players", "A"),
                                             ("_umaoka", "XFD")])
def test_a_value_in_the_last_row_costs_one_row(league: Path, tmp_path: Path, sheet: str,
                                               cell: str):
    far = _far_value(league, _sheet_part(league, sheet), cell, 1_048_576)
    exe = Path(sys.executable).with_name("umaoka")
    run = subprocess.run([sys.executable, "-c", FAR, str(exe), "settle", str(far), "-o",
                          str(tmp_path / "s.xlsx")], capture_output=True, text=True, timeout=120)
    code, peak_mb, seconds = run.stdout.split("\n", 1)[0].split()
    assert int(peak_mb) < 500 and float(seconds) < 30, run.stdout
    assert "Traceback" not in run.stdout
    if sheet == "Spring":  # a game far below the others: settled, its row named in the warning
        assert code == "0"
        assert "Spring!row 1048576: South's score is blank" in run.stdout
        games = read_book(tmp_path / "s.xlsx").leagues[0].games
        assert len(games) == 3 and games[2].scores[0] == 5  # the long blank run is closed up


def test_short_blank_runs_keep_their_place_long_ones_close_up(league: Path):
    part = _sheet_part(league, "Spring")
    near = _far_value(league, part, "I", 9)  # rows 7 and 8 blank: kept
    assert [g.row for g in read_book(near).leagues[0].games] == [5, 6, 7, 8, 9]
    far = _far_value(league, part, "I", 6 + MAX_GAP + 2)  # one blank row too many: closed up
    assert [g.row for g in read_book(far).leagues[0].games] == [5, 6, 6 + MAX_GAP + 2]


def test_more_games_than_a_workbook_holds_is_one_sentence(league: Path,
                                                          monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(settle_book, "MAX_GAMES", 1)
    with pytest.raises(UmaokaError, match="at most 1 games: split the league into seasons"):
        read_book(league)


def test_a_zip_bomb_is_refused(league: Path, tmp_path: Path):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(league) as src, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        for item in src.infolist():
            z.writestr(item, src.read(item))
        z.writestr("xl/media/image1.png", b"\0" * (20 * 2**20))  # 20 MB packed to ~20 kB
    started = time.perf_counter()
    with pytest.raises(UmaokaError, match="unpacks over 200 times its packed size"):
        read_book(bomb)
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize(("name", "size", "why"), [
    ("xl/worksheets/sheet2.xml", MAX_SHEET + 1, "over the 256 MB a league workbook needs"),
    ("xl/styles.xml", MAX_PART + 1, "over the 64 MB a league workbook needs"),
])
def test_parts_bigger_than_a_league_needs_are_refused(name: str, size: int, why: str):
    info = zipfile.ZipInfo(name)
    info.file_size, info.compress_size = size, size // 10
    with pytest.raises(UmaokaError, match=why):
        check_parts([info], Path("big.xlsx"))
    parts = [zipfile.ZipInfo(f"xl/worksheets/sheet{i}.xml") for i in range(3)]
    for p in parts:
        p.file_size, p.compress_size = MAX_SHEET, MAX_SHEET // 10
    with pytest.raises(UmaokaError, match="unpacks to 768 MB, over the 512 MB"):
        check_parts(parts, Path("big.xlsx"))


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not really", b"hello, world\n"])
def test_empty_and_non_zip_files_are_one_sentence(tmp_path: Path, content: bytes):
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(content)
    with pytest.raises(UmaokaError, match="not an .xlsx workbook"):
        read_book(bad)


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9, 0.99])
def test_truncated_workbooks_are_one_sentence(league: Path, tmp_path: Path, keep: float):
    data = league.read_bytes()
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(data[:int(len(data) * keep)])
    with pytest.raises(UmaokaError) as err:
        read_book(cut)
    assert "\n" not in str(err.value) and len(str(err.value)) < 600


def test_a_dtd_is_refused_before_openpyxl_reads(league: Path):
    """The prolog check itself: one sentence naming the part; a clean workbook passes."""
    with zipfile.ZipFile(league) as z:
        check_prologs(z, league)
    hostile = rewrite(league, "xl/styles.xml", lambda x: _inject(x, *LAUGHS))
    with zipfile.ZipFile(hostile) as z, pytest.raises(UmaokaError, match=r"xl/styles.xml "
                                                       r"declares a DTD"):
        check_prologs(z, hostile)
