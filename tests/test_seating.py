"""Seating schedules: exact designs, the search, seats, sit-outs, pins and pairs kept apart."""

from __future__ import annotations

import doctest
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.engine import UmaokaError
from umaoka.engine.seating import designs as designs_module
from umaoka.engine.seating import draw as draw_module
from umaoka.engine.seating import plan as seating_module
from umaoka.engine.seating.designs import is_resolvable, packing, resolvable
from umaoka.engine.seating.draw import affine_plane
from umaoka.engine.seating.plan import Pin, parse_avoid, parse_pins, player_names, schedule


@pytest.mark.parametrize("module", [seating_module, draw_module, designs_module])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("q", [3, 4])
def test_affine_plane_is_a_resolvable_design(q: int) -> None:
    classes = affine_plane(q)
    assert len(classes) == q + 1
    met: dict[tuple[int, int], int] = {}
    for tables in classes:
        assert sorted(p for t in tables for p in t) == list(range(q * q))
        for t in tables:
            for pair in combinations(sorted(t), 2):
                met[pair] = met.get(pair, 0) + 1
    assert len(met) == q * q * (q * q - 1) // 2 and set(met.values()) == {1}


PERFECT = [(16, 4, "affine plane AG(2,4)"), (28, 4, "resolvable design 2-(28,4,1)"),
           (40, 4, "resolvable design 2-(40,4,1)"), (52, 4, "resolvable design 2-(52,4,1)"),
           (64, 4, "resolvable design 2-(64,4,1)"), (9, 3, "affine plane AG(2,3)"),
           (15, 3, "Kirkman triple system KTS(15)"), (21, 3, "Kirkman triple system KTS(21)"),
           (27, 3, "Kirkman triple system KTS(27)"), (33, 3, "Kirkman triple system KTS(33)"),
           (39, 3, "Kirkman triple system KTS(39)"), (45, 3, "Kirkman triple system KTS(45)"),
           (51, 3, "Kirkman triple system KTS(51)"), (57, 3, "Kirkman triple system KTS(57)"),
           (63, 3, "Kirkman triple system KTS(63)")]


@pytest.mark.parametrize("n, size, method", PERFECT)
def test_perfect_designs_every_pair_exactly_once(n: int, size: int, method: str) -> None:
    rounds = (n - 1) // (size - 1)
    if n == size * size:
        design = affine_plane(size)
    else:
        design = resolvable(n, size)
        assert design is not None
    assert len(design) == rounds and is_resolvable(design, n, size)
    met: dict[tuple[int, int], int] = {}
    for tables in design:
        for t in tables:
            for pair in combinations(sorted(t), 2):
                met[pair] = met.get(pair, 0) + 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    for seed in (0, 1):
        s = schedule(n, rounds=rounds, table_size=size, seed=seed)
        assert s.method == method
        assert set(s.meetings().values()) == {1}
        east = [c[0] for c in s.wind_counts().values()]
        assert max(east) - min(east) <= 1


def test_is_resolvable_rejects_a_repeat_and_a_missing_player() -> None:
    design = resolvable(15, 3)
    assert design is not None
    broken = [[t[:] for t in tables] for tables in design]
    broken[1][0][0], broken[1][1][0] = broken[1][1][0], broken[1][0][0]
    assert not is_resolvable(broken, 15, 3)  # some pair now meets twice, another never
    assert not is_resolvable(design[:-1], 15, 3)  # a round short: pairs never meet
    assert not is_resolvable([[[0, 1, 2]]], 15, 3)  # players missing from the round


def test_more_rounds_than_a_design_go_through_it_again() -> None:
    s = schedule(16, rounds=10, seed=3)
    assert set(s.meetings().values()) == {2}
    t = schedule(28, rounds=12, seed=3)
    assert (t.min_meetings, t.max_meetings) == (1, 2)
    # the first 3 rounds again: exactly the pairs of those rounds meet twice
    assert sum(1 for v in t.meetings().values() if v == 2) == 3 * 7 * 6


@pytest.mark.parametrize("n, size, rounds", [(15, 4, 5), (27, 4, 9), (63, 4, 21), (8, 3, 4),
                                              (14, 3, 7), (32, 3, 16),
                                              (44, 3, 22)])
def test_one_player_short_of_a_design_sits_out_the_empty_seat(n: int, size: int,
                                                             rounds: int) -> None:
    s = schedule(n, rounds=rounds, table_size=size, seed=4)
    assert s.method.endswith("one seat empty")
    met = s.meetings()
    assert max(met.values()) == 1
    # the only pairs that never meet are those who sat out together
    together = {tuple(sorted((a, b), key=s.players.index)) for names in s.sit_outs
                for a, b in combinations(names, 2)}
    assert {pair for pair, v in met.items() if v == 0} == together
    assert set(s.sit_out_counts().values()) == {1}


def test_twenty_players_packing() -> None:
    rounds = packing(20, 4)
    assert rounds is not None and len(rounds) == 7
    met: dict[tuple[int, int], int] = {}
    for r, tables in enumerate(rounds, 1):
        assert sorted(p for t in tables for p in t) == list(range(20))
        for t in tables:
            for pair in combinations(sorted(t), 2):
                met[pair] = met.get(pair, 0) + 1
        if r == 5:
            assert set(met.values()) == {1} and len(met) == 5 * 5 * 6  # 150 once, 40 never
    # after 7 rounds every pair has met, 20 of them twice (each player with two others)
    assert len(met) == 190 and sorted(set(met.values())) == [1, 2]
    assert sum(1 for v in met.values() if v == 2) == 20


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_best_known_designs_reached(seed: int) -> None:
    # 20 x 5: no pair twice (the most rounds 20 players can have so: 5-4-6 has no solution)
    s = schedule(20, rounds=5, seed=seed)
    assert (s.min_meetings, s.max_meetings) == (0, 1)
    for r in range(1, 5):
        assert schedule(20, rounds=r, seed=seed).max_meetings == 1
    # 20 x 7: every pair meets, none more than twice
    s = schedule(20, rounds=7, seed=seed)
    assert (s.min_meetings, s.max_meetings) == (1, 2)
    # 24 x 7: no pair twice (6-4-7)
    s = schedule(24, rounds=7, seed=seed)
    assert (s.min_meetings, s.max_meetings) == (0, 1)
    # 28 x 9: every pair exactly once
    t = schedule(28, rounds=9, seed=seed)
    assert (t.min_meetings, t.max_meetings) == (1, 1)


@pytest.mark.parametrize("seed", [0, 1, 2, 2026])
def test_sixteen_players_five_rounds_meet_everyone_exactly_once(seed: int) -> None:
    s = schedule(16, rounds=5, seed=seed)
    assert s.method == "affine plane AG(2,4)"
    assert set(s.meetings().values()) == {1}
    assert (s.max_meetings, s.min_meetings) == (1, 1)
    # 20 tables, 16 players: everybody is East once or twice, and the seats rotate
    assert sorted({c[0] for c in s.wind_counts().values()}) == [1, 2]
    assert all(max(c) - min(c) <= 1 for c in s.wind_counts().values())


def test_nine_sanma_players_four_rounds_meet_everyone_exactly_once() -> None:
    s = schedule(9, rounds=4, table_size=3, seed=5)
    assert s.method == "affine plane AG(2,3)"
    assert (s.max_meetings, s.min_meetings) == (1, 1)


def test_twelve_sanma_players_three_rounds_meet_at_most_once() -> None:
    s = schedule(12, rounds=3, table_size=3, seed=3)
    assert s.max_meetings == 1
    assert sum(s.meetings().values()) == 3 * 4 * 3  # 3 rounds x 4 tables x 3 pairs


def test_twelve_players_at_tables_of_four_meet_at_most_twice_the_least_possible() -> None:
    # At three tables of 4, any four players include two who shared a round-1 table, so
    # every table of rounds 2 and 3 repeats at least one pair with each earlier round:
    # at least 3 + 6 = 9 pairs meet twice. The search reaches exactly that.
    s = schedule(12, rounds=3, seed=1)
    met = s.meetings()
    assert s.max_meetings == 2
    assert sum(1 for v in met.values() if v == 2) == 9


def test_same_seed_same_schedule_other_seed_other_schedule() -> None:
    a = schedule(14, rounds=4, seed=11)
    assert a == schedule(14, rounds=4, seed=11)
    assert a.tables != schedule(14, rounds=4, seed=12).tables


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 26), rounds=st.integers(1, 7), size=st.sampled_from([3, 4]),
       seed=st.integers(0, 10**6))
def test_schedule_properties(n: int, rounds: int, size: int, seed: int) -> None:
    if n < size:
        return
    s = schedule(n, rounds=rounds, table_size=size, seed=seed, steps=1500)
    tables = n // size
    assert len(s.tables) == rounds * tables
    for r in range(1, rounds + 1):
        seated = [p for t in s.round_tables(r) for p in t.seats]
        # every player seated exactly once or sitting out
        assert sorted(seated + list(s.sit_outs[r - 1])) == sorted(s.players)
        assert len(s.sit_outs[r - 1]) == n % size
        assert [t.number for t in s.round_tables(r)] == list(range(1, tables + 1))
        # sit-outs rotate: after any round, nobody has sat out two more times than another
        counts = {p: sum(p in s.sit_outs[k] for k in range(r)) for p in s.players}
        assert max(counts.values()) - min(counts.values()) <= 1
    met = s.meetings()
    assert sum(met.values()) == rounds * tables * size * (size - 1) // 2
    assert len(met) == n * (n - 1) // 2
    assert s.min_meetings <= s.max_meetings
    winds = s.wind_counts()
    east = [c[0] for c in winds.values()]
    assert max(east) - min(east) <= 1  # East is spread as evenly as possible
    assert all(max(c) - min(c) <= 2 for c in winds.values())  # seats rotate
    assert sum(east) == rounds * tables
    assert s.games() == {p: rounds - s.sit_out_counts()[p] for p in s.players}


def test_sit_outs_take_turns() -> None:
    s = schedule(["A", "B", "C", "D", "E", "F"], rounds=6, seed=4)  # 2 sit out per round
    assert set(s.sit_out_counts().values()) == {2}
    first_three = [p for names in s.sit_outs[:3] for p in names]
    assert sorted(first_three) == sorted(s.players)  # everyone once before anyone twice
    assert "sit" not in " ".join(schedule(8, 2).summary())
    assert "Sit-outs: 2 per player." in s.summary()


def test_pairs_kept_apart() -> None:
    names = [f"T{t}{m}" for t in range(1, 9) for m in "ab"]  # 8 teams of 2
    teams = ",".join(f"T{t}a+T{t}b" for t in range(1, 9))
    s = schedule(names, rounds=4, seed=2, avoid=parse_avoid(teams))
    assert s.method == "affine plane AG(2,4)"  # the design is the start, then repaired
    met = s.meetings()
    for t in range(1, 9):
        assert met[f"T{t}a", f"T{t}b"] == 0
    assert s.avoided_meetings() == []
    # more than a table can keep apart: reported, not hidden
    crowded = schedule(["A", "B", "C", "D"], rounds=1, avoid=[("A", "B")])
    assert crowded.avoided_meetings() == [("A", "B", 1)]
    assert any("kept apart but meet 1" in line for line in crowded.summary())


def test_pins_are_kept() -> None:
    text = "round,table,east,south,west,north\n1,1,Aki,,,\n2,2,,Ben,,\n3,1,Chie,Dan,Emi,Fumi\n"
    pins = parse_pins(text)
    names = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana", "Ito"]
    s = schedule(names, rounds=3, seed=9, pins=pins)
    assert s.round_tables(1)[0].seats[0] == "Aki"
    assert s.round_tables(2)[1].seats[1] == "Ben"
    assert s.round_tables(3)[0].seats == ("Chie", "Dan", "Emi", "Fumi")
    # pinned players never sit out their pinned round
    assert "Aki" not in s.sit_outs[0] and "Ben" not in s.sit_outs[1]
    assert not {"Chie", "Dan", "Emi", "Fumi"} & set(s.sit_outs[2])
    # a pin to a table without a seat keeps the table and lets the seat float
    t = schedule(names, rounds=2, seed=1, pins=[Pin(2, 2, "Gen")])
    assert "Gen" in t.round_tables(2)[1].seats


def test_rows_header_and_seats() -> None:
    s = schedule(6, rounds=2, table_size=3, seed=1)
    rows = s.rows()
    assert rows[0] == ["Round", "Table", "East", "South", "West"]
    assert len(rows) == 1 + 4 and all(len(r) == 5 for r in rows)


def test_parsers() -> None:
    assert player_names(["Aki", " Ben "]) == ("Aki", "Ben")
    assert parse_avoid("") == []
    assert parse_avoid("A+B") == [("A", "B")]
    assert parse_pins("# comment\n\n1,1,,X\n") == [Pin(1, 1, "X", 1)]


@pytest.mark.parametrize("call, words", [
    (lambda: schedule(16, rounds=0), "between 1 and"),
    (lambda: schedule(16, rounds=3, table_size=5), "tables seat 4 players"),
    (lambda: schedule(2, rounds=3), "cannot fill a table"),
    (lambda: schedule(0, rounds=3), "between 1 and"),
    (lambda: schedule(["A", "B", "A", "C"], rounds=1), "listed twice"),
    (lambda: schedule(["A", "", "B", "C"], rounds=1), "blank"),
    (lambda: schedule(8, rounds=2, avoid=[("P1", "Zed")]), '"Zed"'),
    (lambda: schedule(8, rounds=2, avoid=[("P1", "P1")]), "themself"),
    (lambda: schedule(8, rounds=2, pins=[Pin(3, 1, "P1")]), "outside rounds 1-2"),
    (lambda: schedule(8, rounds=2, pins=[Pin(1, 3, "P1")]), "outside tables 1-2"),
    (lambda: schedule(8, rounds=2, pins=[Pin(1, 1, "Nobody")]), "not in the list"),
    (lambda: schedule(8, rounds=2, pins=[Pin(1, 1, "P1"), Pin(1, 2, "P1")]),
     "fixed to two places"),
    (lambda: schedule(8, rounds=2, pins=[Pin(1, 1, "P1", 0), Pin(1, 1, "P2", 0)]),
     "same seat"),
    (lambda: schedule(8, rounds=2, pins=[Pin(1, 1, f"P{i}") for i in range(1, 6)]),
     "more than 4 players"),
    (lambda: parse_avoid("A+,B"), "not a group"),
    (lambda: parse_pins("x,1,A"), "line 1 must start with a round"),
    (lambda: parse_pins("1,1,A,B,C,D,E"), "names 5 seats"),
])
def test_errors_are_one_sentence(call, words: str) -> None:
    with pytest.raises(UmaokaError) as e:
        call()
    message = str(e.value)
    assert words in message and "\n" not in message


# ------------------------------------------------------------------------------------------------
# umaoka seating


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from umaoka.addin.cli.app import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_seating_table_and_batch_csv(tmp_path, capsys) -> None:
    from rich.cells import cell_len

    from umaoka.engine import ruleset
    from umaoka.templates.batch import read_csv

    out_csv = tmp_path / "night.csv"
    code, out, err = run(capsys, "seating", "16", "--rounds", "5", "--seed", "3", "--csv",
                         str(out_csv), "--date", "2026-04-04")
    assert code == 0 and not err
    assert "Meetings per pair: at most 1, at least 1." in out
    assert all(cell_len(line) <= 80 for line in out.splitlines() if not line.startswith("wrote"))
    league = read_csv(out_csv, ruleset("standard")).league
    assert len(league.games) == 20 and all(g.is_blank() for g in league.games)
    first = league.games[0]
    assert (str(first.date), first.session, first.table, first.number) == ("2026-04-04", 1, 1, 1)
    s = schedule(16, rounds=5, seed=3)
    assert [g.players for g in league.games] == [list(t.seats) for t in s.tables]
    before = out_csv.read_bytes()
    code, _, err = run(capsys, "seating", "16", "--rounds", "5", "--csv", str(out_csv))
    assert code == 2 and "--force" in err and out_csv.read_bytes() == before


def test_cli_seating_names_file_pins_avoid_and_sanma(tmp_path, capsys) -> None:
    from rich.cells import cell_len

    names = tmp_path / "players.txt"
    names.write_text("# the club\n" + "\n".join(
        ["芹澤六花", "しきさん", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana",
         "Ito", "Jun"]) + "\n", encoding="utf-8")
    fixed = tmp_path / "fixed.csv"
    fixed.write_text("round,table,east,south,west\n1,1,芹澤六花,,\n", encoding="utf-8")
    code, out, err = run(capsys, "seating", str(names), "--rounds", "4", "--tables-of", "3",
                         "--fixed", str(fixed), "--avoid", "Ben+Chie")
    assert code == 0, err
    assert "Round 1 sits out:" in out and "Sit-outs: 0-1 per player." in out
    assert "芹澤六花" in out.splitlines()[4]  # round 1, table 1, East
    assert all(cell_len(line) <= 80 for line in out.splitlines())
    code, out, _ = run(capsys, "seating", "Aki,Ben,Chie,Dan", "--rounds", "2")
    assert code == 0 and "4 players, 2 rounds" in out


@pytest.mark.parametrize("argv, words", [
    (["seating", "16"], "--rounds"),
    (["seating", "16", "--rounds", "5", "--tables-of", "5"], "invalid choice"),
    (["seating", "3", "--rounds", "2"], "cannot fill a table"),
    (["seating", "no-such-file.txt", "--rounds", "2"], "is not a player count"),
    (["seating", "8", "--rounds", "2", "--avoid", "P1+Zed"], '"Zed"'),
    (["seating", "8", "--rounds", "2", "--fixed", "/nonexistent/pins.csv"], "pins.csv"),
])
def test_cli_seating_errors(capsys, argv: list[str], words: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code in (1, 2) and words in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
