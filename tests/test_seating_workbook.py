"""A seating schedule in the league workbook: the Seating sheet and the pre-filled game rows
(``umaoka seating ... --into BOOK.xlsx``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError
from umaoka.engine.seating.plan import schedule
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.build import write_league
from umaoka.templates.import_book import seat_into
from umaoka.templates.settle_book import read_book, settle_file
from umaoka.templates.sheets.seating import SEATING_FIRST


def _book(tmp_path: Path, spec: str = "standard", lang: str = "en",
          name: str = "league.xlsx") -> Path:
    path = tmp_path / name
    write_league(make_book([spec], lang=lang), path)
    return path


def test_sixteen_players_five_rounds_prefilled(tmp_path: Path) -> None:
    book = _book(tmp_path)
    plan = schedule(16, rounds=5, seed=7)
    done = seat_into(book, plan)
    assert done.path == tmp_path / "league_seated.xlsx" and done.rows == 20
    assert done.sessions == (1, 5)
    back = read_book(done.path)
    rows = [g for g in back.leagues[0].games if any(g.players)]
    # every game row of the tab is a table of the plan: session = round, table, seats
    assert [(g.session, g.table, tuple(g.players)) for g in rows] == \
        [(t.round, t.number, t.seats) for t in plan.tables]
    assert all(g.is_blank() for g in rows)  # only the scores are left to type
    assert back.players[:16] == list(plan.players)
    # the Seating sheet reads back as the same plan
    assert back.seating.tables == plan.tables
    assert (back.seating.max_meetings, back.seating.min_meetings) == (1, 1)
    ws = load_workbook(done.path, data_only=True)["Seating"]
    assert ws.cell(3, 1).value.startswith("Meetings per pair: at most 1, at least 1.")
    assert [c.value for c in ws[4]][:6] == ["Round", "Table", "East", "South", "West",
                                           "North"]
    assert [c.value for c in ws[SEATING_FIRST]][:6] == [1, 1, *plan.tables[0].seats]
    # seats per player: saved values of the COUNTIF formulas = the plan's wind counts
    top = SEATING_FIRST + len(plan.tables) + 2
    winds = plan.wind_counts()
    for j, p in enumerate(plan.players):
        row = [c.value for c in ws[top + 1 + j]][:7]
        assert row == [p, 5, *winds[p], 0]
    formulas = load_workbook(done.path)["Seating"]
    assert formulas.cell(top + 1, 3).value.startswith("=COUNTIF($C$5:$C$24")


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.integers(5, 14), rounds=st.integers(1, 4), seed=st.integers(0, 99),
       sanma=st.booleans())
def test_property_each_player_once_per_round(tmp_path: Path, players: int, rounds: int,
                                            seed: int, sanma: bool) -> None:
    size = 3 if sanma else 4
    name = f"p{players}-{rounds}-{seed}-{size}.xlsx"
    book = tmp_path / name
    if not book.exists():
        write_league(make_book(["tenhou-sanma" if sanma else "standard"]), book)
    plan = schedule(players, rounds=rounds, seed=seed, table_size=size)
    out = tmp_path / f"seated-{name}"
    seat_into(book, plan, out=out, force=True)
    back = read_book(out)
    rows = [g for g in back.leagues[0].games if any(g.players)]
    for r in range(1, rounds + 1):
        seated = [p for g in rows if g.session == r for p in g.players]
        assert len(seated) == len(set(seated)) == (players // size) * size
        assert set(seated) | set(back.seating.sit_outs[r - 1]) == set(plan.players)
    # meeting counts of the rows = the schedule's
    met: Counter[tuple[str, str]] = Counter()
    for g in rows:
        names = sorted(g.players, key=plan.players.index)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                met[a, b] += 1
    assert max(met.values()) == plan.max_meetings
    assert back.seating.meetings() == plan.meetings()


def test_same_seed_same_workbook_rows(tmp_path: Path) -> None:
    book = _book(tmp_path)
    a = seat_into(book, schedule(12, rounds=3, seed=5), out=tmp_path / "a.xlsx")
    b = seat_into(book, schedule(12, rounds=3, seed=5), out=tmp_path / "b.xlsx")
    rows = [[(g.session, g.table, g.players) for g in read_book(p.path).leagues[0].games]
            for p in (a, b)]
    assert rows[0] == rows[1]


def test_sessions_follow_the_games_played_and_scores_settle(tmp_path: Path) -> None:
    bk = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    bk.leagues[0].games.append(Game(session=2, players=["Aki", "Ben", "Chie", "Dan"],
                                    scores=[40000, 30000, 20000, 10000],
                                    penalties=[None] * 4))
    path = tmp_path / "played.xlsx"
    write_league(bk, path)
    done = seat_into(path, schedule(["Aki", "Ben", "Chie", "Dan", "Emi"], rounds=2, seed=1))
    assert done.sessions == (3, 4) and done.new_players == ["Emi"]
    back = read_book(done.path)
    assert [g.session for g in back.leagues[0].games] == [2, 3, 4]
    # the manager types the scores of a pre-filled row: it settles like any game
    back.leagues[0].games[1].scores = [35000, 30000, 25000, 10000]
    filled = tmp_path / "filled.xlsx"
    write_league(back, filled)
    report = settle_file(filled)
    assert report.games == 2 and report.problems == []
    # the settled copy keeps the Seating sheet
    assert "Seating" in load_workbook(report.path).sheetnames


def test_refusals(tmp_path: Path) -> None:
    book = _book(tmp_path)
    with pytest.raises(UmaokaError, match="tables of 3"):
        seat_into(book, schedule(9, rounds=2, table_size=3))
    with pytest.raises(UmaokaError, match="input workbook"):
        seat_into(book, schedule(8, rounds=2), out=book, force=True)
    seat_into(book, schedule(8, rounds=2))
    with pytest.raises(UmaokaError, match="already exists"):
        seat_into(book, schedule(8, rounds=2))


def test_japanese_labels(tmp_path: Path) -> None:
    book = _book(tmp_path, lang="ja")
    done = seat_into(book, schedule(10, rounds=3, seed=2))
    ws = load_workbook(done.path, data_only=True)["座席表"]
    assert [c.value for c in ws[4]][:3] == ["回戦", "卓", "東"]
    assert "同卓回数" in ws.cell(3, 1).value and "抜け番" in ws.cell(3, 1).value


def test_cli_seating_into(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _book(tmp_path)
    assert main(["seating", "Aki,Ben,Chie,Dan,Emi,Fumi,Gen,Hana", "--rounds", "3",
                 "--seed", "4", "--into", str(book), "-o", str(tmp_path / "s.xlsx")]) == 0
    out = capsys.readouterr().out
    assert "6 game rows of League filled in (sessions 1-3" in out
    assert read_book(tmp_path / "s.xlsx").seating.rounds == 3
