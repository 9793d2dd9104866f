"""Every workbook umaoka writes keeps to Excel's published limits.

Microsoft's "Excel specifications and limits"
(https://support.microsoft.com/en-us/office/excel-specifications-and-limits-1672b34d-7043-467e-8e27-269d656771c3):
a formula's contents at most 8,192 characters, 64 nested functions and 255 arguments to a
function (in cells, shared and array formulas, defined names, data validations,
conditional formats and chart ranges); a cell's text at most 32,767 characters; a sheet
name at most 31 characters, none of ``[]:*?/\\``; a data validation's typed list at most
255 characters; a header or footer at most 255 characters; a column at most 255 wide, a
row at most 409 points high. Defined names must be names (not a cell reference) and
unique; a table's column names must equal its header cells. Excel reports a file past
them as damaged and removes what is past them; LibreOffice accepts it, so no other test
sees it (the league tab's Check once took 14,657 characters).

Each workbook is written as a user writes it: the ``umaoka`` command, run as a program.
The sizes go to what the commands allow: a 40-player roster, 200 players, a season of 100
stages (the most league tabs a command writes) with teams, chips and substitutes, 100
league tabs, names of 31 characters, both seat counts, both languages and every add-in
runtime.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import unescape

import pytest
from excel_limits import problems, shape
from openpyxl import Workbook
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.table import Table

from umaoka.templates.bundle import BUNDLED

EXE = str(Path(sys.executable).with_name("umaoka"))
LOBBY = Path(__file__).parent / "data" / "imports" / "sca20260404.log"
CSV = ("date,session,table,game,east,east_score,south,south_score,west,west_score,"
       "north,north_score,deposits\n"
       "2026-04-04,1,1,1,Aki,35700,Ben,32400,Chie,22200,Dan,9700,\n"
       "2026-04-04,1,1,2,Ben,40000,Aki,30000,Dan,20000,Chie,10000,\n"
       "2026-04-04,1,1,3,Ben,40000,Aki,30000,Dan,20000,Chie,9000,\n")
FORTY = ",".join(f"Player{i:02d}" for i in range(1, 41))
TEAMS = ";".join(f"T{t}=" + ",".join(f"Player{t * 4 + k + 1:02d}" for k in range(4))
                 for t in range(10))


def umaoka(*args: str | Path, cwd: Path | None = None) -> str:
    run = subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, timeout=600,
                         cwd=cwd)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def _season_file(path: Path, stages: int) -> Path:
    """A team season of ``stages`` stages (half carried) named as long as a sheet name can
    be, ten teams of four."""
    lines = ["[season]", "name = Long season", "competition = team", "ruleset = mleague",
             "game_caps = 2-40", ""]
    for i in range(1, stages + 1):
        lines += [f"[stage {_long(i)}]", *(["carry = half"] if i > 1 else []), ""]
    lines += ["[teams]"] + [f"T{t} = " + ", ".join(f"P{t}{k}" for k in range(4))
                            for t in range(10)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _long(i: int) -> str:
    """A stage or league name of Excel's 31 characters for a sheet name."""
    return f"Stage {i:03d} of a long season's name"[:31]


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of workbook umaoka writes, by name."""
    d = tmp_path_factory.mktemp("limits")
    out: dict[str, Path] = {"bundled template": BUNDLED}

    def new(name: str, *args: str) -> Path:
        path = d / f"{name}.xlsx"
        umaoka("new", path, *args)
        out[f"new {name}"] = path
        return path

    new("4 players", "--players", "Aki,Ben,Chie,Dan")
    new("3 players", "--ruleset", "tenhou-sanma", "--players", "Aki,Ben,Chie")
    new("ja", "--lang", "ja")
    new("3 players ja", "--lang", "ja", "--ruleset", "mahjongsoul-sanma")
    new("teams chips subs", "--teams", "Dragons=Aki,Ben;Tigers=Chie,Dan", "--chips", "--subs")
    new("40-player roster", "--players", FORTY, "--leagues", "Spring,Summer,Autumn")
    new("40 players in teams", "--players", FORTY, "--teams", TEAMS, "--chips", "--subs")
    new("200 players", "--players", ",".join(f"Player{i:03d}" for i in range(1, 201)))
    new("classic", "--runtime", "classic", "--chips")
    new("server", "--runtime", "server", "--namespace", "XLWINGS")
    # the most league tabs a command writes (100), as a season and as leagues
    new("season of 100 stages", "--season", str(_season_file(d / "long.ini", 100)), "--chips",
        "--subs", "--players", ",".join(f"P{t}{k}" for t in range(10) for k in range(4)))
    new("100 tabs", "--leagues", ",".join(_long(i) for i in range(1, 101)))
    new("3-player season", "--ruleset", "tenhou-sanma", "--teams",
        "A=Aki,Ben;B=Chie,Dan;C=Emi,Fumio", "--chips", "--subs")

    for runtime in ("lite", "classic", "server"):
        folder = d / f"demo-{runtime}"
        umaoka("demo", folder, "--runtime", runtime)
        out[f"demo {runtime}"] = folder / "demo_league.xlsx"
    umaoka("demo", d / "demo-ja", "--lang", "ja")
    out["demo ja"] = d / "demo-ja" / "demo_league.xlsx"
    out["demo ja settled"] = d / "demo-ja" / "demo_league_settled.xlsx"
    out["demo settled"] = d / "demo-lite" / "demo_league_settled.xlsx"
    umaoka("demo", d / "demo-sanma", "--ruleset", "tenhou-sanma", "--games", "60")
    out["demo 3 players"] = d / "demo-sanma" / "demo_league.xlsx"

    # in-place updates: online results, seating, added stages, teams and blocks
    plain = new("imported", "--players", "Aki,Ben,Chie,Dan")
    umaoka("import", LOBBY, "--into", plain)
    demo = d / "demo-imported.xlsx"
    demo.write_bytes(out["demo lite"].read_bytes())
    umaoka("import", LOBBY, "--into", demo, "--league", "Regular 2026")
    umaoka("import", LOBBY, "--into", demo, "--league", "Final 2026")
    out["demo after import --into"] = demo
    seated = new("seated", "--players", FORTY)
    umaoka("seating", FORTY, "--rounds", "4", "--into", seated, "--date", "2026-05-01")
    added = d / "added.xlsx"
    added.write_bytes(plain.read_bytes())
    umaoka("add", added, "--stage", "Final", "--ruleset", "mleague")
    umaoka("add", added, "--teams", "Dragons=Aki,Ben;Tigers=Chie,Dan", "--chips", "--subs")
    out["imported, then add"] = added
    umaoka("runtime", demo, "--to", "classic", "-o", d / "demo-classic-again.xlsx")
    out["demo after import, runtime classic"] = d / "demo-classic-again.xlsx"
    umaoka("lite", "--into", plain, "-o", d / "imported-lite.xlsx")
    out["imported, lite --into"] = d / "imported-lite.xlsx"
    umaoka("settle", plain)
    out["imported settled"] = plain.with_name("imported_settled.xlsx")
    umaoka("settle", demo)
    out["demo after import settled"] = demo.with_name("demo-imported_settled.xlsx")

    csvs = d / "csv"
    csvs.mkdir()
    (csvs / "club night.csv").write_text(CSV, encoding="utf-8")
    umaoka("batch", csvs, "-o", d / "batch")
    umaoka("batch", csvs, "-o", d / "batch-ja", "--lang", "ja", "--ruleset", "ema")
    out["batch"] = d / "batch" / "club night.xlsx"
    out["batch ja"] = d / "batch-ja" / "club night.xlsx"
    return out


NAMES = ["bundled template", "new 4 players", "new 3 players", "new ja", "new 3 players ja",
         "new teams chips subs", "new 40-player roster", "new 40 players in teams",
         "new 200 players", "new classic", "new server", "new season of 100 stages",
         "new 100 tabs", "new 3-player season", "demo lite", "demo classic", "demo server",
         "demo ja", "demo ja settled", "demo settled", "demo 3 players", "new imported",
         "demo after import --into", "new seated", "imported, then add",
         "demo after import, runtime classic", "imported, lite --into", "imported settled",
         "demo after import settled", "batch", "batch ja"]


@pytest.mark.parametrize("name", NAMES)
def test_workbook_keeps_to_excels_limits(books: dict[str, Path], name: str) -> None:
    path = books[name]
    assert path.exists(), path
    assert problems(path) == []


def test_every_workbook_written_is_checked(books: dict[str, Path]) -> None:
    assert sorted(books) == sorted(NAMES)


def test_formulas_stay_well_under_the_limit(books: dict[str, Path]) -> None:
    """Room to spare: no formula of the biggest workbooks (with 31-character stage names)
    is over three quarters of the limit."""
    for name in ("demo after import --into", "new season of 100 stages", "new 3-player season",
                 "new 40 players in teams"):
        with zipfile.ZipFile(books[name]) as z:
            longest = max(shape(f).length for part in z.namelist()
                          if part.startswith("xl/worksheets/")
                          for f in _formulas(z.read(part).decode()))
        assert longest < 6144, (name, longest)


def _formulas(xml: str) -> list[str]:
    """The text of every formula of a worksheet's XML."""
    return [unescape(m) for m in re.findall(r"<f[^>]*>([^<]*)</f>", xml)]


# ------------------------------------------------------------------------------------------------
# The check itself finds what is past a limit


def test_shape_counts_nesting_and_arguments_outside_strings() -> None:
    assert shape("=" + "SUM(" * 65 + "1" + ")" * 65).nesting == 65
    assert shape("=IF(A1=\"((((\",1,2)").nesting == 1
    assert shape("=CHOOSE(1," + ",".join(["1"] * 255) + ")").arguments == 256
    assert shape('=SUM({1,2;3,4},\'a,b\'!A1:B2,"x,y")').arguments == 3
    assert shape("=SUM((A1,B1),C1)").arguments == 2  # a union in parentheses is one
    assert shape("=" + "A" * 9000).length == 9000


def test_problems_finds_each_limit_passed(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Games"
    ws["A1"] = "=" + "+".join(["B1"] * 3000)  # 8,999 characters
    ws["A2"] = "=" + "ABS(" * 65 + "1" + ")" * 65
    ws["A3"] = "=SUM(" + ",".join(["1"] * 256) + ")"
    ws["A4"] = "LONG-TEXT"  # made 32,768 characters below (openpyxl cuts it at 32,767)
    ws.column_dimensions["C"].width = 300
    ws.row_dimensions[9].height = 410
    ws.oddHeader.center.text = "h" * 300
    dv = DataValidation(type="list", formula1='"' + ",".join(["name"] * 60) + '"')
    dv.add("D1:D9")
    ws.add_data_validation(dv)
    ws["E1"], ws["F1"] = "Name", "Score"
    ws.add_table(Table(displayName="Games_1", ref="E1:F3"))
    wb.defined_names["B2"] = DefinedName("B2", attr_text="Games!$A$1")
    path = tmp_path / "bad.xlsx"
    wb.save(path)
    # a table column renamed away from its header, as a careless writer leaves it, and a
    # cell's text too long
    with zipfile.ZipFile(path) as z:
        parts = {n: z.read(n) for n in z.namelist()}
    table = next(n for n in parts if n.startswith("xl/tables/"))
    parts[table] = parts[table].replace(b'name="Score"', b'name="Points"')
    parts = {n: data.replace(b"LONG-TEXT", b"x" * 32768) for n, data in parts.items()}
    with zipfile.ZipFile(path, "w") as z:
        for n, data in parts.items():
            z.writestr(n, data)
    found = "\n".join(problems(path))
    for words in ("Games!A1: formula of 8,999 characters", "Games!A2: 65 nested",
                  "Games!A3: a function of 256 arguments", "Games!A4: text of 32,768",
                  "column 3: width 300", "row 9: height 410", "oddHeader: ",
                  "a list of 299 characters", "column 'Points' under the header 'Score'",
                  "defined name B2: not a valid name"):
        assert words in found, (words, found)
