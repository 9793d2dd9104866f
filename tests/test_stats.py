"""Player statistics, head-to-head records and Tenhou's R rating, and ``umaoka stats``."""

from __future__ import annotations

import doctest
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError, rating, settle, stats
from umaoka.engine.online.rating import factor, rating_change, rating_history, ratings
from umaoka.engine.season.stats import GameRecord, head_to_head, player_stats, records, stats_table

DATA = Path(__file__).parent / "data" / "imports"
P4 = ["A", "B", "C", "D"]


@pytest.mark.parametrize("module", [stats, rating])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------------------------------------------
# Player statistics


def season() -> list[tuple]:
    """Six games of four friends; raw scores known for all but the last (a platform game)."""
    return [
        (P4, settle([45000, 30000, 20000, 5000])),         # A B C D
        (P4, settle([20000, 42000, 40000, -2000])),        # B C A D, D busts
        (["D", "A", "B", "C"], settle([10000, 35000, 30000, 25000])),  # A B C D
        (P4, settle([33000, 33000, 30000, 4000])),         # A B C D (A first on seat order)
        (P4, settle([10000, 20000, 30000, 40000])),        # D C B A
        (P4, [Decimal("10"), Decimal("50"), Decimal("-20"), Decimal("-40")]),  # B A C D
    ]


def test_player_stats_rates_streaks_best_and_worst() -> None:
    by = {p.name: p for p in player_stats(season())}
    a, d = by["A"], by["D"]
    assert a.games == 6 and a.raw_games == 5
    # A: 1st, 3rd, 1st, 1st, 4th, 2nd
    assert a.top_two_rate == Decimal("0.6667")
    assert (a.top_streak, a.top_two_streak, a.no_last_streak) == (2, 2, 4)
    assert a.average_raw == Decimal("28600.00")  # (45000 + 20000 + 35000 + 33000 + 10000) / 5
    assert a.busts == 0 and a.bust_rate == Decimal("0.0000")
    assert d.busts == 1 and d.bust_rate == Decimal("0.2000")  # 1 of the 5 games with raw
    assert (d.top_streak, d.top_two_streak, d.no_last_streak) == (1, 1, 1)
    assert a.best == settle([45000, 30000, 20000, 5000]).final[0] and a.best_game == 1
    assert a.worst_game == 5
    assert [p.name for p in player_stats(season())] == \
        [p.name for p in sorted(by.values(), key=lambda p: -p.total)]
    assert stats_table(player_stats(season()))[0][0] == "Player"


def test_games_without_raw_scores_leave_raw_figures_out() -> None:
    only = player_stats([(P4, [30, 10, -10, -30]), (P4, [30, 10, -10, -30], None, None)])
    assert all(p.bust_rate is None and p.average_raw is None for p in only)
    assert {p.name: p.top_two_rate for p in only} == {
        "A": Decimal("1.0000"), "B": Decimal("1.0000"), "C": Decimal("0"), "D": Decimal("0")}


def test_tied_last_places_count_by_the_shared_place_rule() -> None:
    # ties=split: C and D share 3rd-4th; better: both 3rd (no last); worse and split:
    # not wholly clear of last, so the no-last streak breaks
    tied = settle([40000, 30000, 15000, 15000], "mleague")
    assert tied.places == (1, 2, 3, 3)
    streaks = {rule: {p.name: p.no_last_streak for p in player_stats([(P4, tied)], rule)}
               for rule in ("better", "worse", "split")}
    assert streaks == {"better": {"A": 1, "B": 1, "C": 1, "D": 1},
                       "worse": {"A": 1, "B": 1, "C": 0, "D": 0},
                       "split": {"A": 1, "B": 1, "C": 0, "D": 0}}


def test_records_accept_every_shape_and_check_them() -> None:
    s = settle([35700, 32400, 22200, 9700])
    recs = records([(P4, s), (P4, list(s.final)), (P4, s.final, s.places, s.scores),
                    GameRecord(tuple(P4), s.final, s.places)])
    assert recs[0] == recs[2] and recs[1].scores is None
    assert recs[1].places == (1, 2, 3, 4)
    with pytest.raises(UmaokaError, match="game 1 has 3 player names but 4 final scores"):
        records([(["A", "B", "C"], s)])
    with pytest.raises(UmaokaError, match="same player twice"):
        records([(["A", "A", "C", "D"], s)])
    with pytest.raises(UmaokaError, match="blank player name"):
        records([(["A", " ", "C", "D"], s)])
    with pytest.raises(UmaokaError, match="no final score for player 2"):
        records([(P4, [1, None, 3, 4])])
    with pytest.raises(UmaokaError, match="must be"):
        records(["A B C D"])


# ------------------------------------------------------------------------------------------------
# Head to head


def test_head_to_head_against_each_opponent() -> None:
    rows = head_to_head(season(), "A")
    assert [h.opponent for h in rows] == ["B", "C", "D"]
    b = rows[0]
    # A ahead of B in games 1, 3, 4; behind in 2, 5, 6
    assert (b.games, b.ahead, b.behind) == (6, 3, 3)
    finals = [(g[1].final if hasattr(g[1], "final") else g[1]) for g in season()]
    names = [g[0] for g in season()]
    expected = sum(f[n.index("A")] - f[n.index("B")] for f, n in zip(finals, names))
    assert b.points == expected
    assert b.place_diff == Decimal("-0.17")  # B's place minus A's: (1-2+1+1-1-1) / 6
    with pytest.raises(UmaokaError, match='"Zed" played no game'):
        head_to_head(season(), "Zed")


GAME = st.lists(st.integers(-300, 600), min_size=4, max_size=4)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.permutations(["A", "B", "C", "D", "E"]), GAME), min_size=1,
                max_size=12))
def test_head_to_head_is_antisymmetric(games: list) -> None:
    data = [(list(names[:4]), [Decimal(f) for f in finals]) for names, finals in games]
    pairs = {(h.player, h.opponent): h for h in head_to_head(data)}
    for (a, b), h in pairs.items():
        other = {(x.player, x.opponent): x for x in head_to_head(data, b)}[b, a]
        assert other.games == h.games and (other.ahead, other.behind) == (h.behind, h.ahead)
        assert other.points == -h.points and other.place_diff == -h.place_diff
        assert (b, a) not in pairs  # every pair once


# ------------------------------------------------------------------------------------------------
# Tenhou R rating


def test_rating_worked_example_from_the_source() -> None:
    # Example 1 of the club page: R2000, 400+ games, table R2100/R1900/R2000, 4th: -6.
    assert rating_change(2000, [2100, 1900, 2000], place=4, games=400) == Decimal("-6.00")
    # The same through the season API, with the players' ratings and games carried over.
    start = {"A": (2000, 400), "B": (2100, 650), "C": (1900, 401), "D": (2000, 1200)}
    steps = rating_history([(["B", "C", "D", "A"], [40, 10, -20, -30])], start)
    a = next(s for s in steps if s.name == "A")
    assert (a.before, a.table_average, a.factor, a.bonus, a.change, a.after) == (
        Decimal("2000"), Decimal("2000.00"), Decimal("0.2"), Decimal("-30"),
        Decimal("-6.00"), Decimal("1994.00"))
    # That page's examples 2 and 3 print -16 and -12.25, but its own formula gives
    # 0.2 x (-30 + (1600 - 2000)/40) = -8 and 0.2 x (-30 + (1875 - 2000)/40) = -6.625:
    assert rating_change(2000, [1500, 1500, 1400], place=4, games=400) == Decimal("-8.00")
    assert rating_change(2000, [1500, 1900, 2100], place=4, games=400) == Decimal("-6.63")


def test_rating_factor_and_bonuses() -> None:
    assert factor(0) == 1 and factor(1) == Fraction(499, 500) and factor(399) == Fraction(
        101, 500) and factor(400) == factor(10_000) == Fraction(1, 5)
    # a newcomer (factor 1) 2nd at a table averaging R1600 (own 1500): 10 + 100/40 = 12.5
    assert rating_change(1500, [1700, 1600, 1600], place=2) == Decimal("12.50")
    # sanma: +30 / 0 / -30
    assert [r.rating for r in ratings([(["A", "B", "C"], [40, 0, -40])])] == \
        [Decimal("1530.00"), Decimal("1500.00"), Decimal("1470.00")]
    # players sharing a place share its bonuses: two tied 1st get (30 + 10) / 2
    tied = settle([35000, 35000, 20000, 10000], "mleague")
    steps = rating_history([(P4, tied)])
    assert [s.change for s in steps] == [Decimal("20.00"), Decimal("20.00"),
                                         Decimal("-10.00"), Decimal("-30.00")]
    with pytest.raises(UmaokaError, match="rates four- and three-player games separately"):
        rating_history([(P4, [30, 10, -10, -30]), (["A", "B", "C"], [30, 0, -30])])
    with pytest.raises(UmaokaError, match="no Tenhou rating"):
        rating_change(1500, [1500], place=1)


def test_rating_history_second_game_uses_updated_ratings_and_counts() -> None:
    games = [(P4, [50, 10, -20, -40]), (["D", "C", "B", "A"], [50, 10, -20, -40])]
    steps = rating_history(games)
    d2 = [s for s in steps if s.name == "D"][1]
    # D: 1470 before, average (1530+1510+1490+1470)/4 = 1500, factor 0.998, 1st:
    # 0.998 x (30 + 30/40) = 30.6885 -> 30.69
    assert (d2.before, d2.games_before, d2.factor, d2.change) == (
        Decimal("1470.00"), 1, Decimal("0.998"), Decimal("30.69"))
    final = {r.name: r for r in ratings(games)}
    assert final["D"].rating == Decimal("1500.69") and final["D"].low == Decimal("1470.00")
    assert final["A"].peak == Decimal("1530.00") and final["A"].games == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.permutations(P4), min_size=1, max_size=15))
def test_ratings_stay_zero_sum_within_rounding(orders: list) -> None:
    games = [(list(order), [30, 10, -10, -30]) for order in orders]
    steps = rating_history(games)
    for k in range(len(games)):
        table = [s for s in steps if s.game == k + 1]
        if len({s.games_before for s in table}) == 1:  # same factor for all four
            assert abs(sum(s.change for s in table)) <= Decimal("0.02")


# ------------------------------------------------------------------------------------------------
# umaoka stats


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fits_80_columns(out: str) -> bool:
    from rich.cells import cell_len

    return all(cell_len(line) <= 80 for line in out.splitlines())


def test_cli_stats_on_a_batch_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "season.csv"
    path.write_text(
        "date,session,table,game,east,east_score,south,south_score,west,west_score,north,"
        "north_score,deposits\n"
        "2026-04-04,1,1,1,Aki,45000,Ben,30000,Chie,20000,Dan,5000,\n"
        "2026-04-04,1,1,2,Ben,20000,Chie,42000,Aki,40000,Dan,-2000,\n"
        "2026-04-04,1,1,3,Aki,25000,Ben,25000,Chie,25000,Dan,24000,\n"   # 1,000 missing
        "2026-04-04,1,1,4,Aki,,Ben,,Chie,,Dan,,\n", encoding="utf-8")   # not played yet
    code, out, err = run(capsys, "stats", str(path), "--h2h", "Aki", "--rating",
                         "--history", "Dan")
    assert code == 0, err
    assert "season.csv line 4: scores add up to 99,000" in err
    assert fits_80_columns(out)
    assert "Stats: 2 games" in out and "Head to head" in out and "Tenhou R rating" in out
    dan = next(line for line in out.splitlines() if line.startswith(" Dan"))
    assert "50.0%" in dan and "1,500" in dan  # busts once in two games; (5000 - 2000) / 2 raw
    assert "R of Dan" in out and "1470.00" in out
    code, _, err = run(capsys, "stats", str(path), "--history", "Zed")
    assert code == 2 and '"Zed" played no game' in err


def test_cli_stats_on_a_finals_csv_rates_sanma_apart(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", str(DATA / "mahjongsoul-night.csv"), "--rating",
                         "--h2h")
    assert code == 0 and err.count("warning") == 3
    assert "Tenhou R rating (4-player games)" in out and "(3-player games)" in out
    assert fits_80_columns(out)


def test_cli_stats_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.csv"
    empty.write_text("date,first,first_final,second,second_final,third,third_final\n")
    code, _, err = run(capsys, "stats", str(empty))
    assert code == 2 and "no settled game" in err
    code, _, err = run(capsys, "stats", str(tmp_path / "missing.csv"))
    assert code == 2 and "missing.csv does not exist" in err  # a missing input is bad input
