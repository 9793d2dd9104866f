"""Online games in the league workbook: ``umaoka import --into`` and the platform-finals
block (rows settled by the platform keep its finals and count like any game)."""

from __future__ import annotations

import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError, settle, standings
from umaoka.engine.online.imports import read_results
from umaoka.templates.book.layout import league_cols
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.build import write_league
from umaoka.templates.import_book import import_into
from umaoka.templates.settle_book import read_book, settle_file

DATA = Path(__file__).parent / "data" / "imports"
LOBBY = DATA / "sca20260404.log"
JSON_WIN = DATA / "2026040421gm-0009-1002-5e6f7a8b.json"
AWKWARD = ("L1002 | 00:44 | 四般南喰赤－ | しきさん(+61.0) NoName(0.0) あたまくん(-25.0) "
           "*芹澤六花*(-36.0)\n"
           "L1002 | 01:20 | 四般南喰赤－ | =SUM(A1)(+48.0) (^_^)(+12.0) No.1(2.0)(-20.0) "
           "a(b)c(-40.0)\n"
           "L1002 | 01:50 | 四般南喰赤－ | しきさん(+30.0) NoName(+10.0) a(b)c(-10.0) "
           "<Eve>(-30.0)\n")


def _book(tmp_path: Path, lang: str = "en", name: str = "league.xlsx") -> Path:
    path = tmp_path / name
    write_league(make_book(["standard"], lang=lang), path)
    return path


def _imported(*files: tuple[str, bytes]):
    result = read_results(*files[0])
    for f in files[1:]:
        result.extend(read_results(*f))
    return result


def _engine_games(result, rules):
    """What the engine makes of the imported games: platform finals kept, logs settled."""
    out = []
    for g in result.games:
        if g.settled:
            out.append((list(g.names), list(g.finals), list(g.places)))
        else:
            out.append((list(g.names), settle(list(g.scores), rules, g.deposits)))
    return out


def test_import_round_trip_standings_equal_the_engines(tmp_path: Path) -> None:
    book = _book(tmp_path)
    result = _imported(("sca20260404.log", AWKWARD.encode()),
                       (JSON_WIN.name, JSON_WIN.read_bytes()))
    report = import_into(book, result, session=1)
    assert len(report.added) == 4 and report.problems == []
    assert report.path == tmp_path / "league_imported.xlsx"
    assert book.exists()  # the input is kept as it was
    back = read_book(report.path)
    league = back.leagues[0]
    assert league.given
    rows = [g for g in league.games if not g.is_blank()]
    assert rows[1].players[0] == "=SUM(A1)"  # a name is text, never a formula
    assert [g.given for g in rows[:3]] == [[61, 0, -25, -36], [48, 12, -20, -40],
                                           [30, 10, -10, -30]]
    assert rows[3].given == [None] * 4 and all(isinstance(s, int) for s in rows[3].scores)
    expected = standings(_engine_games(result, back.rules[0].ruleset))
    settled = settle_file(report.path)
    assert settled.games == 4 and settled.problems == []
    assert [(p.name, p.total, p.places) for p in settled.standings] == \
        [(p.name, p.total, p.places) for p in expected]
    # the settled copy's cells: platform rows keep the finals, "By platform" in the check
    wb = load_workbook(settled.path)
    ws = wb[league.name]
    cols = league_cols(league, 4)
    assert [ws.cell(5, c).value for c in cols.results] == [61, 0, -25, -36]
    assert [ws.cell(5, c).value for c in cols.places] == [1, 2, 3, 4]
    assert ws.cell(5, cols.check).value == "By platform"
    assert ws.cell(8, cols.check).value == "OK"
    stand = wb[f"{league.name} Standings"]
    assert [stand.cell(5 + k, 2).value for k in range(len(expected))] == \
        [p.name for p in expected]


def test_template_saved_values_of_platform_rows(tmp_path: Path) -> None:
    book = _book(tmp_path)
    report = import_into(book, _imported(("sca20260404.log", AWKWARD.encode())))
    wb = load_workbook(report.path)
    ws = wb["League"]
    cols = league_cols(read_book(report.path).leagues[0], 4)
    headers = [ws.cell(4, c).value for c in cols.given_cols]
    assert headers == ["East platform", "South platform", "West platform", "North platform"]
    formula = ws.cell(5, cols.results[0]).value.text
    # platform finals first, then MJ_SETTLE; without the add-in the same choice without it
    assert formula.startswith("=IFERROR(IF((ISNUMBER(")
    assert formula.count("MJ_SETTLE") == 1 and formula.count("IF((ISNUMBER(") == 2
    cached = load_workbook(report.path, data_only=True)["League"]
    assert [cached.cell(6, c).value for c in cols.results] == [48, 12, -20, -40]
    assert [cached.cell(7, c).value for c in cols.places] == [1, 2, 3, 4]
    assert cached.cell(5, cols.check).value == "By platform"


def test_ties_in_platform_finals_follow_the_listed_order(tmp_path: Path) -> None:
    book = make_book(["standard"])
    book.leagues[0].given = True
    book.leagues[0].games.append(Game(players=["A", "B", "C", "D"], scores=[None] * 4,
                                      penalties=[None] * 4, given=[20, 20, -20, -20]))
    book.leagues[0].games.append(Game(players=["A", "B", "C", "D"], scores=[None] * 4,
                                      penalties=[None] * 4, given=[20, None, -20, 0]))
    path = tmp_path / "ties.xlsx"
    write_league(book, path)
    ws = load_workbook(path, data_only=True)["League"]
    cols = league_cols(book.leagues[0], 4)
    assert [ws.cell(5, c).value for c in cols.places] == [1, 2, 3, 4]
    assert ws.cell(6, cols.results[0]).value == "Platform final missing"
    assert ws.cell(6, cols.check).value == "Platform final missing"
    report = settle_file(path)
    assert report.games == 1
    assert report.problems == ["League!row 6: a platform final score is missing or not a "
                               "number; give every seat's platform final, or clear them all."]
    assert [(p.name, p.places) for p in report.standings][:2] == [("A", (1, 0, 0, 0)),
                                                                 ("B", (0, 1, 0, 0))]


def test_duplicates_against_the_tab_and_nothing_half_imported(tmp_path: Path) -> None:
    book = _book(tmp_path)
    first = import_into(book, _imported((LOBBY.name, LOBBY.read_bytes()),
                                        (JSON_WIN.name, JSON_WIN.read_bytes())))
    # sanma lines cannot go into a four-player league; bad lines are skipped whole
    assert any("3-player game cannot go into League" in p.message for p in first.problems)
    again = _imported((LOBBY.name, LOBBY.read_bytes()), (JSON_WIN.name, JSON_WIN.read_bytes()))
    with pytest.raises(UmaokaError, match="no game could be added"):
        import_into(first.path, again, out=tmp_path / "again.xlsx")
    assert not (tmp_path / "again.xlsx").exists()
    dupes = [p for p in import_into(first.path, again, out=tmp_path / "again.xlsx",
                                    keep_duplicates=True).problems
             if "already in the workbook" in p.message]
    assert dupes == []
    # --strict: one bad line and nothing is written
    with pytest.raises(UmaokaError, match="--strict"):
        import_into(book, _imported((LOBBY.name, LOBBY.read_bytes())),
                    out=tmp_path / "strict.xlsx", strict=True)
    assert not (tmp_path / "strict.xlsx").exists()


def test_each_duplicate_names_the_row_it_repeats(tmp_path: Path) -> None:
    book = _book(tmp_path)
    first = import_into(book, _imported(("sca20260404.log", AWKWARD.encode()),
                                        (JSON_WIN.name, JSON_WIN.read_bytes())))
    seen = []
    with pytest.raises(UmaokaError):
        import_into(first.path, _imported(("sca20260404.log", AWKWARD.encode()),
                                          (JSON_WIN.name, JSON_WIN.read_bytes())),
                    warn=seen.extend)
    assert [p.message for p in seen] == [
        f"the same game as League!row {r} (already in the workbook); skipped."
        for r in (5, 6, 7, 8)]


def test_log_the_rules_cannot_settle_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "big.xlsx"
    write_league(make_book(["start=30000,target=30000"]), path)
    with pytest.raises(UmaokaError, match="no game could be added"):
        import_into(path, _imported((JSON_WIN.name, JSON_WIN.read_bytes())))


def test_japanese_headers_and_league_choice(tmp_path: Path) -> None:
    path = tmp_path / "two.xlsx"
    write_league(make_book(["standard"], ["A級", "B級"], lang="ja"), path)
    with pytest.raises(UmaokaError, match="--league"):
        import_into(path, _imported(("sca20260404.log", AWKWARD.encode())))
    with pytest.raises(UmaokaError, match='no league "C級"'):
        import_into(path, _imported(("sca20260404.log", AWKWARD.encode())), league="C級")
    report = import_into(path, _imported(("sca20260404.log", AWKWARD.encode())), league="b級")
    assert report.league == "B級"
    ws = load_workbook(report.path, data_only=True)["B級"]
    cols = league_cols(read_book(report.path).leagues[1], 4)
    assert ws.cell(4, cols.given_cols[0]).value == "東 サイト"
    assert ws.cell(5, cols.check).value == "サイト確定"
    assert not read_book(report.path).leagues[0].given  # only the league imported into


def test_cli_import_into(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _book(tmp_path)
    lines = tmp_path / "sca20260404.log"
    lines.write_text(AWKWARD, encoding="utf-8")
    assert main(["import", str(lines), str(JSON_WIN), "--into", str(book), "--session", "2",
                 "-o", str(tmp_path / "out.xlsx")]) == 0
    out = capsys.readouterr().out
    assert "4 games added to League" in out
    games = read_book(tmp_path / "out.xlsx").leagues[0].games
    assert {g.session for g in games} == {2}
    # a second run refuses an existing output without --force, and never the input
    assert main(["import", str(lines), "--into", str(book), "-o",
                 str(tmp_path / "out.xlsx")]) != 0
    assert main(["import", str(lines), "--into", str(book), "-o", str(book), "--force"]) != 0
    assert "input workbook" in capsys.readouterr().err


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_platform_rows_recalculated_by_libreoffice(tmp_path: Path) -> None:
    from test_libreoffice import _check_standings, convert

    book = _book(tmp_path)
    result = _imported(("sca20260404.log", AWKWARD.encode()))
    report = import_into(book, result)
    # drop the saved values: LibreOffice computes every formula itself (the add-in's
    # function is unknown there, so only the platform finals give results)
    wb = load_workbook(report.path)
    ws = wb["League"]
    cols = league_cols(read_book(report.path).leagues[0], 4)
    block = ws.cell(5, cols.results[0]).value
    # LibreOffice knows no MJ_SETTLE: a native stand-in of the same shape for typed rows
    block.text = re.sub(r"[\w.]*MJ_SETTLE\([^()]*\)", "I5:L204/1000", block.text)
    assert "MJ_SETTLE" not in block.text
    filled = tmp_path / "filled.xlsx"
    wb.save(filled)
    back = load_workbook(convert(filled, "xlsx", tmp_path), data_only=True)
    ws = back["League"]
    for i, g in enumerate(result.games):
        assert [Decimal(str(ws.cell(5 + i, c).value)) for c in cols.results] == list(g.finals)
        assert tuple(ws.cell(5 + i, c).value for c in cols.places) == g.places
        assert ws.cell(5 + i, cols.check).value == "By platform"
    expected = standings([(list(g.names), list(g.finals), list(g.places))
                          for g in result.games])
    _check_standings(back["League Standings"], expected)
