"""The league workbook generator: structure, safety, the settled copy, the bundled file."""

from __future__ import annotations

import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.formula import ArrayFormula

from umaoka.engine import PRESETS, UmaokaError, settle, standings
from umaoka.templates.book.labels import label, seat_label
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.build import LeagueCols, build_workbook
from umaoka.templates.bundle import BUNDLED, build_default, fingerprint
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import read_book, settle_file, write_settled
from umaoka.templates.xlsx.io import open_workbook, save_workbook

EVIL = ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-3", "@SUM(A1)", "Aki", "Ben"]


@pytest.fixture(scope="module")
def two_leagues(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = make_book(["mleague", "tenhou-classic"], ["Spring 2026", "Summer 2026"],
                     ["Aki", "Ben", "Chie", "Dan"])
    path = tmp_path_factory.mktemp("wb") / "league.xlsx"
    save_workbook(build_workbook(book), path)
    return path


def test_sheets_and_names(two_leagues: Path) -> None:
    wb = load_workbook(two_leagues)
    assert wb.sheetnames[:6] == ["Start", "Standings", "Spring 2026", "Spring 2026 Standings",
                                 "Summer 2026", "Summer 2026 Standings"]
    for name in ("Players", "Rules - mleague", "Rules - tenhou-classic", "Presets",
                 "xlwings.conf", "_umaoka"):
        assert name in wb.sheetnames
    assert wb["_umaoka"].sheet_state == "veryHidden"
    names = dict(wb.defined_names.items())
    assert names["Rules_mleague"].attr_text == "'Rules - mleague'!$A$5:$B$17"
    assert "Rules_tenhou_classic" in names
    assert "OFFSET" in names["RosterList"].attr_text
    # every formula carries its saved value: no forced recalculation on load (test_alive.py)
    assert not wb.calculation.fullCalcOnLoad


def test_rules_sheet(two_leagues: Path) -> None:
    ws = load_workbook(two_leagues)["Rules - mleague"]
    table = {ws.cell(r, 1).value: ws.cell(r, 2).value for r in range(5, 18)}
    assert table == PRESETS["mleague"].ruleset.values()
    assert "split" in ws.cell(14, 3).value.lower()
    lists = {str(dv.sqref): dv.formula1 for dv in ws.data_validations.dataValidation
             if dv.type == "list"}
    assert lists["B11"] == ('"none,half_down,half_up,half_toward_zero,half_away_from_zero,floor,'
                            'ceil,toward_zero"')
    assert lists["B12"] == '"difference,raw"'
    assert lists["B14"] == '"seat,split,split_uma"'
    assert lists["B16"] == '"points,places"' and lists["B17"] == '"better,worse,split"'
    assert set(lists) == {"B5", "B8", "B11", "B12", "B13", "B14", "B15", "B16", "B17"}
    assert ws.cell(6, 2).protection.locked is False
    assert ws.cell(6, 1).protection.locked is True
    presets = load_workbook(two_leagues)["Presets"]
    assert [presets.cell(5 + i, 1).value for i in range(len(PRESETS))] == list(PRESETS)


def test_league_tab(two_leagues: Path) -> None:
    ws = load_workbook(two_leagues)["Spring 2026"]
    cols = LeagueCols(4)
    assert [ws.cell(4, c).value for c in cols.players] == ["East", "South", "West", "North"]
    assert ws.cell(4, cols.check).value == "Check"
    table = ws.tables["Games_1"]
    assert table.ref == "A4:R204"
    af = ws["S5"].value
    assert isinstance(af, ArrayFormula)
    assert af.ref == "S5:V204"
    assert af.text.startswith("=IFERROR(_xldudf_MJ_SETTLE(I5:L204,Rules_mleague,M5:M204,"
                              "N5:Q204),")  # xlwings Lite, the default runtime
    assert "@" not in af.text
    assert ws["R5"].value.startswith("=IF(AND(COUNTA(I5:L5)=0")
    assert "COUNTIF" in ws["W5"].value and "SUMPRODUCT" not in ws["W5"].value
    dv = [d for d in ws.data_validations.dataValidation if d.formula1 == "RosterList"]
    assert dv and str(dv[0].sqref) == "E5:H204"
    assert ws.freeze_panes == "E5"
    assert ws.protection.sheet and not ws.protection.password
    assert ws["E5"].protection.locked is False and ws["S5"].protection.locked is True
    assert ws["S5"].number_format == "+0.0;-0.0;0.0"
    # whole points: whole numbers as they are, a platform's tenths shown (+45.3, not +45)
    summer = load_workbook(two_leagues)["Summer 2026"]
    assert summer["S5"].number_format == "+General;-General;General"
    assert ws.page_setup.orientation == "landscape"
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$3:$4"
    assert len(ws.conditional_formatting) >= 3


def test_standings_are_native_formulas(two_leagues: Path) -> None:
    wb = load_workbook(two_leagues)
    text = " ".join(str(c.value) for ws in (wb["Standings"], wb["Spring 2026 Standings"])
                    for row in ws.iter_rows() for c in row if isinstance(c.value, str)
                    and c.value.startswith("="))
    for fn in ("SUMIFS", "COUNTIFS", "INDEX", "MATCH", "SUMPRODUCT"):
        assert fn in text
    for banned in ("LET(", "XLOOKUP", "FILTER(", "SORT(", "UNIQUE(", "MJ_"):
        assert banned not in text
    assert len(wb["Spring 2026 Standings"]._charts) == 1
    with zipfile.ZipFile(two_leagues) as z:
        assert any(n.startswith("xl/charts/chart") for n in z.namelist())


def test_xlwings_conf(two_leagues: Path) -> None:
    from umaoka.addin.install.setup import UDF_MODULE

    ws = load_workbook(two_leagues)["xlwings.conf"]
    assert (ws["A1"].value, ws["B1"].value) == ("UDF Modules", UDF_MODULE)


def test_japanese_labels(tmp_path: Path) -> None:
    path = save_workbook(build_workbook(make_book(["standard"], ["春"], ["秋山"], "ja")),
                         tmp_path / "ja.xlsx")
    wb = load_workbook(path)
    assert "ルール - standard" in wb.sheetnames and "プレイヤー" in wb.sheetnames
    ws = wb["春"]
    assert [ws.cell(4, c).value for c in LeagueCols(4).players] == ["東", "南", "西", "北"]
    st = wb["春 成績"]
    headers = [st.cell(4, c).value for c in range(1, 16)]
    for text in ("順位", "合計", "平均着順", "トップ率", "ラス回避率"):
        assert text in headers
    assert seat_label(3, "ja") == "北" and label("average_place", "ja") == "平均着順"


def test_three_player_layout(tmp_path: Path) -> None:
    path = save_workbook(build_workbook(make_book(["tenhou-sanma"], ["Sanma"])),
                         tmp_path / "s.xlsx")
    ws = load_workbook(path)["Sanma"]
    cols = LeagueCols(3)
    assert ws.cell(5, cols.results[0]).value.text.startswith("=IFERROR(_xldudf_MJ_SETTLE(H5:J204,")
    assert [ws.cell(4, c).value for c in cols.players] == ["East", "South", "West"]


def test_bundled_template_is_up_to_date() -> None:
    assert BUNDLED.exists(), "run python -m umaoka.templates.bundle"
    assert fingerprint(BUNDLED) == fingerprint(build_default()), \
        "templates/league_template.xlsx is out of date: run python -m umaoka.templates.bundle"


# ------------------------------------------------------------------------------------------------
# Safety


def _sheet_xml(path: Path, title: str) -> str:
    wb = load_workbook(path, read_only=True)
    index = wb.sheetnames.index(title) + 1
    wb.close()
    with zipfile.ZipFile(path) as z:
        return z.read(f"xl/worksheets/sheet{index}.xml").decode()


def test_names_never_become_formulas(tmp_path: Path) -> None:
    book = make_book(["standard"], ["L"], EVIL)
    book.leagues[0].games.append(Game(1, 1, 1, 1, EVIL[:4], [25000] * 4))
    for settled in (False, True):
        path = save_workbook(build_workbook(book, settled=settled), tmp_path / f"{settled}.xlsx")
        for title in ("Players", "L"):
            xml = _sheet_xml(path, title)
            assert "<f>HYPERLINK" not in xml and "<f>SUM(A1)" not in xml
            assert 'HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)' in xml or \
                'HYPERLINK("http://x","y")' in xml
        wb = load_workbook(path)
        assert wb["Players"]["A5"].data_type == "s"
        assert wb["Players"]["A5"].value == EVIL[0]
        assert wb["L"]["E5"].value == EVIL[0] and wb["L"]["E5"].data_type == "s"
        assert wb["L"]["E5"].quotePrefix


def test_read_foreign_or_broken_workbooks(tmp_path: Path) -> None:
    plain = tmp_path / "plain.xlsx"
    Workbook().save(plain)
    with pytest.raises(UmaokaError, match="not an umaoka league workbook"):
        read_book(plain)
    text = tmp_path / "text.xlsx"
    text.write_text("hello")
    with pytest.raises(UmaokaError, match="not an .xlsx workbook"):
        read_book(text)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(plain.read_bytes()[:300])
    with pytest.raises(UmaokaError):
        read_book(broken)
    with pytest.raises(UmaokaError, match="does not exist"):
        read_book(tmp_path / "nope.xlsx")


def test_xml_bomb_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "ok.xlsx"
    save_workbook(build_workbook(make_book()), src)
    bomb = tmp_path / "bomb.xlsx"
    entity = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
              + "".join(f'<!ENTITY lol{i} "{"&lol%s;" % ("" if i == 1 else i - 1) * 10}">'
                        for i in range(1, 9)) + "]>")
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(bomb, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/workbook.xml":
                data = entity.encode() + (data.split(b"?>", 1)[1] if data.startswith(b"<?")
                                          else data)
            zout.writestr(item, data)
    with pytest.raises(UmaokaError, match="cannot be read"):
        read_book(bomb)
    with pytest.raises(UmaokaError):
        open_workbook(bomb)


# ------------------------------------------------------------------------------------------------
# Settling


def test_settled_copy_has_values_only(tmp_path: Path) -> None:
    book = demo_book(40)
    out = tmp_path / "settled.xlsx"
    report = write_settled(book, out)
    assert report.problems == [] and report.games == 40
    wb = load_workbook(out)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
    assert "xlwings.conf" not in wb.sheetnames
    ws = wb["Spring 2026"]
    cols = LeagueCols(4)
    rules = book.rules[0].ruleset
    for i, g in enumerate(book.leagues[0].games):
        s = settle(g.scores, rules, g.deposits or 0, g.penalties or None)
        assert [Decimal(str(ws.cell(5 + i, c).value)) for c in cols.results] == list(s.final)
        assert tuple(ws.cell(5 + i, c).value for c in cols.places) == s.places
    games = [(g.players, settle(g.scores, rules, g.deposits or 0, g.penalties or None))
             for lg in book.leagues for g in lg.games]
    expected = {p.name: p for p in standings(games)}
    overall = wb["Standings"]
    for r in range(5, 5 + len(expected)):
        name = overall.cell(r, 2).value
        assert Decimal(str(overall.cell(r, 4).value)) == expected[name].total
        assert overall.cell(r, 3).value == expected[name].games


def test_settle_reports_bad_rows(tmp_path: Path) -> None:
    book = make_book(["standard"], ["League"], ["A", "B", "C", "D"])
    book.leagues[0].games += [
        Game(None, 1, 1, 1, ["A", "B", "C", "D"], [35700, 32400, 22200, 9700]),
        Game(None, 1, 1, 2, ["A", "B", "C", "D"], [35700, 32400, 22200, 9600]),
    ]
    src = tmp_path / "filled.xlsx"
    save_workbook(build_workbook(book), src)
    report = settle_file(src)
    assert report.path == tmp_path / "filled_settled.xlsx"
    assert len(report.problems) == 1
    assert report.problems[0].startswith("League!row 6: scores add up to")
    ws = load_workbook(report.path)["League"]
    cols = LeagueCols(4)
    assert [ws.cell(5, c).value for c in cols.results] == [46, 12, -18, -40]
    assert ws.cell(6, cols.results[0]).value.startswith("scores add up to")
    assert ws.cell(6, cols.check).value == "Off by -100"
    with pytest.raises(UmaokaError, match="already exists"):
        settle_file(src)
    with pytest.raises(UmaokaError, match="input workbook"):
        settle_file(src, src, force=True)


def test_formula_in_input_cell_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "f.xlsx"
    save_workbook(build_workbook(make_book()), src)
    wb = load_workbook(src)
    wb["League"]["I5"] = "=1+1"
    wb.save(src)
    with pytest.raises(UmaokaError, match=r"League!I5 holds a formula"):
        read_book(src)


def test_round_trip_keeps_games(tmp_path: Path) -> None:
    book = demo_book(30)
    src = tmp_path / "demo.xlsx"
    save_workbook(build_workbook(book), src)
    back = read_book(src)
    assert [lg.name for lg in back.leagues] == [lg.name for lg in book.leagues]
    assert back.players == book.players
    a, b = book.leagues[0].games, back.leagues[0].games
    assert [g.scores for g in a] == [g.scores for g in b]
    assert [g.players for g in a] == [g.players for g in b]
    assert back.rules[0].ruleset == book.rules[0].ruleset


def test_bad_book_arguments() -> None:
    with pytest.raises(UmaokaError, match="2 rulesets for 3 leagues"):
        make_book(["standard", "mleague"], ["A", "B", "C"])
    with pytest.raises(UmaokaError, match="cannot be a sheet name"):
        make_book(["standard"], ["a/b"])
    with pytest.raises(UmaokaError, match="not a preset"):
        make_book(["mleeague"], ["A"])
    with pytest.raises(UmaokaError, match="longer than"):
        build_workbook(make_book(["standard"], ["x" * 40]))
