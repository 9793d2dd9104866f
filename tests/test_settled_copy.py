"""The settled copy is clearly a report: it says what it is, locks its inputs, and no note
promises that a change is followed; an edited ruleset's headings show the values used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.engine import __version__
from umaoka.templates.book.model import make_book
from umaoka.templates.build import LeagueCols, write_league
from umaoka.templates.demo import demo_book
from umaoka.templates.settle_book import settle_file, write_settled

#: Phrases of the template's notes that do not hold in a report.
LIVE_PHRASES = ("follow it", "results follow", "tabs follow", "change a value", "need umaoka",
                "come from umaoka", "dropdown", "while umaoka's functions", "反映",
                "ドロップダウン", "関数で計算", "関数が使えるまで")
WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    assert main(["demo", str(folder), "--games", "40"]) == 0
    return folder / "demo_league_settled.xlsx"


def _texts(wb) -> list[tuple[str, str, str]]:
    return [(ws.title, c.coordinate, c.value) for ws in wb.worksheets if ws.title != "_umaoka"
            for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


def test_it_says_what_it_is(demo: Path) -> None:
    wb = load_workbook(demo)
    assert wb.sheetnames[0] == "Start"
    start = [c.value for c in wb["Start"]["A"] if c.value]
    assert start[0] == "umaoka settled copy: a report"
    assert re.fullmatch(rf"Settled from demo_league\.xlsx on {WHEN} by umaoka "
                        rf"{re.escape(__version__)}\.", start[1])
    assert any("edit demo_league.xlsx" in x for x in start)
    for name in ("Regular 2026", "Final 2026"):
        ws = wb[name]
        assert ws["A1"].value == f"{name}: games (settled copy)"
        assert re.match(rf"Settled copy of demo_league\.xlsx, {WHEN}, umaoka "
                        rf"{re.escape(__version__)}: values only, inputs locked\. Ruleset "
                        r"mleague \(players=4 ", ws["A2"].value)
    for name in ("Standings", "Regular 2026 Standings", "Players", "Season", "Penalties", "Season standings", "Rules - mleague"):
        assert wb[name]["A1"].value.endswith("(settled copy)"), name
    meta = {r[0]: r[1:] for r in wb["_umaoka"].iter_rows(values_only=True)}
    assert meta["source"][0] == "demo_league.xlsx" and meta["settled"][0] == 1
    assert meta["runtime"][0] == "lite" and meta["version"][0] == __version__


def test_inputs_are_locked_and_no_note_promises_a_follow_up(demo: Path) -> None:
    wb = load_workbook(demo)
    for ws in wb.worksheets:
        if ws.sheet_state != "visible":
            continue
        assert ws.protection.sheet, ws.title
        for row in ws.iter_rows():
            for c in row:
                assert c.protection.locked, (ws.title, c.coordinate)
        if ws.title != "Presets":
            assert not ws.data_validations.dataValidation, ws.title
    for title, where, text in _texts(wb):
        low = text.lower()
        assert not any(p in low for p in LIVE_PHRASES), (title, where, text)
    # the template says the opposite: its inputs are open and its notes are live
    template = load_workbook(demo.with_name("demo_league.xlsx"))
    assert template["Regular 2026"]["I5"].protection.locked is False
    assert template["Rules - mleague"]["B6"].protection.locked is False
    assert "follow it" in template["Rules - mleague"]["A2"].value


def test_japanese_report(tmp_path: Path) -> None:
    out = tmp_path / "ja_settled.xlsx"
    write_settled(demo_book(8, lang="ja"), out, source="ja.xlsx")
    wb = load_workbook(out)
    assert wb.sheetnames[0] == "はじめに"
    start = [c.value for c in wb["はじめに"]["A"] if c.value]
    assert start[0] == "umaoka 確定版（レポート）" and start[1].startswith("ja.xlsx から ")
    assert wb["2026春"]["A1"].value.endswith("（確定版）")
    assert wb["2026春"]["A2"].value.startswith("ja.xlsx の確定版（")
    for title, where, text in _texts(wb):
        assert not any(p in text for p in LIVE_PHRASES), (title, where, text)


def test_a_report_without_a_source_file(tmp_path: Path) -> None:
    out = tmp_path / "s.xlsx"
    write_settled(demo_book(8), out)  # e.g. games read from CSV
    wb = load_workbook(out)
    assert re.fullmatch(rf"Settled on {WHEN} by umaoka .+\.", wb["Start"]["A2"].value)
    assert wb["Spring 2026"]["A2"].value.startswith("Settled copy, ")


def test_edited_ruleset_heading_shows_the_values_used(tmp_path: Path) -> None:
    src = write_league(make_book(["mleague"], ["League"], ["A", "B", "C", "D"]),
                       tmp_path / "league.xlsx")
    wb = load_workbook(src)
    rules = wb["Rules - mleague"]
    row = next(r for r in range(5, 20) if rules.cell(r, 1).value == "uma")
    assert "uma 30/10/-10/-30" in rules["A2"].value  # the preset's own description
    rules.cell(row, 2).value = "20/10/-10/-20"
    league = wb["League"]
    for c, v in zip(range(5, 13), ["A", "B", "C", "D", 35700, 32400, 22200, 9700]):
        league.cell(5, c).value = v
    wb.save(src)
    report = settle_file(src)
    out = load_workbook(report.path)
    heading = out["Rules - mleague"]["A2"].value
    assert "edited from preset mleague: uma 20/10/-10/-20 (preset 30/10/-10/-30)" in heading
    assert "uma 30/10/-10/-30," not in heading
    assert out["Rules - mleague"].cell(row, 2).value == "20/10/-10/-20"
    note = out["League"]["A2"].value
    assert "Ruleset mleague, edited (" in note and "uma=20/10/-10/-20" in note
    assert "30/10/-10/-30" not in note
    # the result follows the edited uma: 35700 -> (35700 - 30000)/1000 + 20 + oka 20
    assert out["League"].cell(5, LeagueCols(4).results[0]).value == pytest.approx(45.7)


def test_report_tables_hold_the_players_not_empty_roster_rows(demo: Path) -> None:
    # a template keeps 40+ roster slots for new players; a report prints just the players
    wb = load_workbook(demo)
    roster = [c.value for c in wb["Players"]["A"][4:]]
    assert roster and all(roster)
    assert wb["Players"].max_row == 4 + len(roster)
    for name in ("Standings", "Regular 2026 Standings", "Final 2026 Standings"):
        ws = wb[name]
        names = [ws.cell(r, 2).value for r in range(5, 5 + len(roster) + 5)]
        ranked = [x for x in names if x]
        assert names[:len(ranked)] == ranked and 4 <= len(ranked) <= len(roster)
        area = ws.print_area if isinstance(ws.print_area, str) else ws.print_area[0]
        chart = 0 if name == "Standings" else 2 + 20 - 1  # the chart right below the table
        assert area.endswith(f"${4 + len(ranked) + chart}"), (name, area)


def test_japanese_penalty_headers_fit_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ja.xlsx"
    write_league(make_book(lang="ja"), path)
    ws = load_workbook(path)["リーグ"]
    cols = LeagueCols(4)
    for c in cols.penalties:
        header = ws.cell(4, c).value
        assert header.endswith("ペナルティ")
        # seen rendered: 12 character widths hold "東 ペナルティ" in the bold header font
        needed = 1.5 * len(header)
        assert ws.column_dimensions[ws.cell(4, c).column_letter].width >= needed
    note = ws["A2"]
    merged = [str(r) for r in ws.merged_cells.ranges if r.min_row == 2]
    assert merged and merged[0].startswith("A2:") and note.alignment.wrap_text
