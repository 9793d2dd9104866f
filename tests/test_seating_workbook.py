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
    [night] = back.seating
    assert night.schedule.tables == plan.tables and night.date is None
    assert night.schedule.design == plan.design and len(plan.design) == 16
    assert (night.schedule.max_meetings, night.schedule.min_meetings) == (1, 1)
    ws = load_workbook(done.path, data_only=True)["Seating"]
    assert ws.cell(3, 1).value.startswith("Meetings per pair: at most 1, at least 1.")
    assert [c.value for c in ws[4]][:7] == ["Date", "Round", "Table", "East", "South", "West",
                                           "North"]
    assert [c.value for c in ws[SEATING_FIRST]][:7] == [None, 1, 1, *plan.tables[0].seats]
    # seats per player: saved values of the COUNTIF formulas = the plan's wind counts
    top = SEATING_FIRST + len(plan.tables) + 2
    winds = plan.wind_counts()
    for j, p in enumerate(plan.players):
        row = [c.value for c in ws[top + 1 + j]][:7]
        assert row == [p, 5, 0, *winds[p]]
    formulas = load_workbook(done.path)["Seating"]
    assert formulas.cell(top + 1, 4).value.startswith("=COUNTIF($D$5:$D$24")


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
        assert set(seated) | set(back.seating[0].schedule.sit_outs[r - 1]) == set(plan.players)
    # meeting counts of the rows = the schedule's
    met: Counter[tuple[str, str]] = Counter()
    for g in rows:
        names = sorted(g.players, key=plan.players.index)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                met[a, b] += 1
    assert max(met.values()) == plan.max_meetings
    assert back.seating[0].schedule.meetings() == plan.meetings()


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
    assert [c.value for c in ws[4]][:4] == ["日付", "回戦", "卓", "東"]
    assert "同卓回数" in ws.cell(3, 1).value and "抜け番" in ws.cell(3, 1).value


def test_cli_seating_into(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _book(tmp_path)
    assert main(["seating", "Aki,Ben,Chie,Dan,Emi,Fumi,Gen,Hana", "--rounds", "3",
                 "--seed", "4", "--into", str(book), "-o", str(tmp_path / "s.xlsx")]) == 0
    out = capsys.readouterr().out
    assert "night 1 on the Seating sheet and 6 game rows of League filled in (sessions 1-3" \
        in out
    assert read_book(tmp_path / "s.xlsx").seating[0].schedule.rounds == 3


# ------------------------------------------------------------------------------------------------
# Night after night: `seating --into` goes on from the season so far.


def _nights(tmp_path: Path, roster: list[str], nights: list[tuple[set[str], int]],
            capsys: pytest.CaptureFixture[str]) -> tuple[Path, list[str]]:
    """Seat ``nights`` (absent players, rounds) one after another into one workbook, as a
    manager does, and return it with what each night printed."""
    book = _book(tmp_path)
    names = tmp_path / "players.txt"
    names.write_text("\n".join(roster) + "\n", encoding="utf-8")
    said = []
    for k, (absent, rounds) in enumerate(nights):
        argv = ["seating", str(names), "--rounds", str(rounds), "--seed", str(7 + k),
                "--date", f"2026-04-{4 + 7 * k:02d}", "--into", str(book)]
        if absent:
            argv += ["--absent", ",".join(sorted(absent))]
        assert main(argv) == 0
        said.append(capsys.readouterr().out)
    return book, said


def _season(path: Path) -> tuple[list, list[list[str]]]:
    back = read_book(path)
    played = [[p for p in g.players if p] for g in back.leagues[0].games]
    return [n.schedule for n in back.seating], played


def test_three_nights_changing_players_repeat_little(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """20 members; 16, 18 and 19 of them come: the season repeats far fewer pairs than
    nights drawn on their own, and no more than one draw of the whole season at once."""
    from umaoka.engine.seating.nights import fewest_repeats, repeats, season_tables

    roster = [f"M{i:02d}" for i in range(1, 21)]
    nights = [({"M01", "M02", "M03", "M04"}, 2), ({"M05", "M06"}, 2), ({"M07"}, 3)]
    book, said = _nights(tmp_path, roster, nights, capsys)
    plans, played = _season(book)
    assert [len(p.players) for p in plans] == [16, 18, 19]
    assert [p.rounds for p in plans] == [2, 2, 3]
    # every night kept, under its date, and tonight's absent players are left out
    back = read_book(book)
    assert [n.date.isoformat() for n in back.seating] == ["2026-04-04", "2026-04-11",
                                                          "2026-04-18"]
    assert [n.session for n in back.seating] == [1, 3, 5]
    assert not {"M01", "M02", "M03", "M04"} & {p for t in plans[0].tables for p in t.seats}
    # the tab's rows: one per table of every night, sessions following on
    assert [g.session for g in back.leagues[0].games if any(g.players)] == \
        [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 4 + [7] * 4
    season = season_tables(plans, played)
    assert len(season) == 28  # a planned table pre-filled in the tab counts once
    got, least = repeats(season), fewest_repeats(plans, played)
    # the same nights drawn each on their own (seeds as above), and the season drawn at once
    alone = [schedule([p for p in roster if p not in absent], rounds, seed=7 + k)
             for k, (absent, rounds) in enumerate(nights)]
    at_once = schedule(roster[1:], 7, seed=1, steps=300_000)  # 19 players, 7 rounds
    # (the counting bound, 3 here, does not know that only four tables play each round:
    # the whole season drawn at once, knowing every night in advance, repeats 12)
    assert least == 3 and got <= repeats(t.seats for t in at_once.tables) + 3
    assert repeats(season_tables(alone)) >= got + 25  # 41 against 14
    # each night reports the season's spread so far
    assert "Season so far (1 night, 2 rounds): 48 pairs met once; 0 repeat meeting(s). No " \
        "seating of these nights repeats fewer than 0." in " ".join(said[0].split())
    assert f"{got} repeat meeting(s). No seating of these nights repeats fewer than " \
        f"{least}." in " ".join(said[2].split())
    # the sheet's figures are the season's: the balance table holds every member
    ws = load_workbook(book, data_only=True)["Seating"]
    assert f"Over 3 nights: {got} repeat meeting(s)." in ws.cell(3, 1).value
    assert [c.value for c in ws[SEATING_FIRST]][:3] == [
        __import__("datetime").datetime(2026, 4, 4), 1, 1]
    top = SEATING_FIRST + 28 + 2
    rows = {ws.cell(r, 1).value: [ws.cell(r, c).value for c in range(2, 8)]
            for r in range(top + 1, top + 21)}
    assert set(rows) == set(roster)
    assert rows["M01"][0] == sum(1 for p in plans for t in p.tables if "M01" in t.seats)
    # sit-outs count only the rounds a member was there
    for name, (games, sat, *_) in rows.items():
        here = sum(p.rounds for p in plans if name in p.players)
        assert games + sat == here


def test_nights_of_two_rounds_near_no_repeat(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """24 members, 22, 21 and 24 of them come for two rounds: a season with no repeat may
    exist; night by night comes within a few repeat meetings of it."""
    from umaoka.engine.seating.nights import fewest_repeats, repeats, season_tables

    roster = [f"P{i:02d}" for i in range(1, 25)]
    book, _ = _nights(tmp_path, roster, [({"P01", "P02"}, 2), ({"P03", "P04", "P05"}, 2),
                                         (set(), 2)], capsys)
    plans, played = _season(book)
    assert fewest_repeats(plans, played) == 0
    assert repeats(season_tables(plans, played)) <= 3


@pytest.mark.parametrize("players,rounds,pairs", [(16, [2, 2, 1], 120), (28, [3, 3, 3], 378),
                                                  (40, [5, 4, 4], 780), (15, [2, 2, 1], 90)])
def test_perfect_design_continues(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                  players: int, rounds: list[int], pairs: int) -> None:
    """The same players night after night: the design goes on with its next rounds, so no
    pair meets twice before every pair has met once (15: the design of 16, one seat
    empty: each player sits out once, beside three others they do not meet)."""
    from umaoka.engine.seating.nights import meetings, repeats, season_tables

    roster = [f"N{i:02d}" for i in range(1, players + 1)]
    book, _ = _nights(tmp_path, roster, [(set(), r) for r in rounds], capsys)
    plans, played = _season(book)
    assert [p.design_from for p in plans] == [0, rounds[0], rounds[0] + rounds[1]]
    assert all(len(p.design) == players for p in plans)
    met = meetings(season_tables(plans, played))
    assert repeats(season_tables(plans, played)) == 0
    assert len(met) == pairs  # 16 x 5, 28 x 9, 40 x 13: every pair once
    assert "rounds" in plans[1].method and "season's design" in plans[1].method


def test_design_goes_round_again_evenly(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """16 players, three nights of two rounds: the sixth round starts the design again, so
    the 24 repeats are the fewest possible (every pair met once before any met twice)."""
    from umaoka.engine.seating.nights import fewest_repeats, repeats, season_tables, spread

    roster = [f"N{i:02d}" for i in range(1, 17)]
    book, said = _nights(tmp_path, roster, [(set(), 2)] * 3, capsys)
    plans, played = _season(book)
    season = season_tables(plans, played)
    assert spread(season) == {1: 96, 2: 24}
    assert repeats(season) == fewest_repeats(plans, played) == 24
    assert "96 pairs met once, 24 pairs met twice; 24 repeat meeting(s). No seating of " \
        "these nights repeats fewer than 24." in " ".join(said[2].split())


def test_games_typed_in_the_tab_count(tmp_path: Path) -> None:
    """A game typed by hand (not from a plan) counts: its players are not seated together
    again tonight when they need not be."""
    from umaoka.engine.seating.nights import draw_night, meetings

    bk = make_book(["standard"], players=[f"T{i}" for i in range(1, 17)])
    bk.leagues[0].games.append(Game(session=1, players=["T1", "T2", "T3", "T4"],
                                    scores=[40000, 30000, 20000, 10000],
                                    penalties=[None] * 4))
    path = tmp_path / "typed.xlsx"
    write_league(bk, path)
    from umaoka.templates.import_book import seating_so_far

    back = read_book(path)
    so_far = seating_so_far(back, back.leagues[0])
    assert so_far.met()[("T1", "T2")] == 1
    tonight = draw_night(so_far, [f"T{i}" for i in range(1, 17)], 4, seed=3)
    met = meetings(t.seats for t in tonight.tables)
    assert not any(met.get(pair) for pair in [("T1", "T2"), ("T1", "T3"), ("T1", "T4"),
                                              ("T2", "T3"), ("T2", "T4"), ("T3", "T4")])


def test_absent_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = _book(tmp_path)
    assert main(["seating", "Aki,Ben,Chie,Dan,Emi", "--rounds", "1", "--absent", "Fumi",
                 "--into", str(book)]) == 2
    assert 'names "fumi", who is not in the player list' in capsys.readouterr().err
    assert main(["seating", "8", "--rounds", "1", "--absent", "P1"]) == 2
    assert "list of names" in capsys.readouterr().err


def test_a_seat_swapped_on_the_tab_counts_as_played(tmp_path: Path) -> None:
    """A manager swaps two players between tables on the tab: the season counts who really
    sat together (the tab's row), once, not the plan as well."""
    from umaoka.engine.seating.nights import meetings
    from umaoka.templates.import_book import seating_so_far

    book = _book(tmp_path)
    plan = schedule([f"S{i:02d}" for i in range(1, 9)], rounds=1, seed=3)
    done = seat_into(book, plan)
    back = read_book(done.path)
    rows = [g for g in back.leagues[0].games if any(g.players)]
    a, b = rows[0].players[0], rows[1].players[0]
    rows[0].players[0], rows[1].players[0] = b, a  # swapped by hand
    so_far = seating_so_far(back, back.leagues[0])
    assert len(so_far.tables) == 2
    assert so_far.met() == meetings([rows[0].players, rows[1].players])
    assert so_far.met().get(tuple(sorted((a, rows[0].players[1])))) is None
