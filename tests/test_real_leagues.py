"""What real leagues asked for: placement-only scoring (scoring=places), and `umaoka stats`
reading the games CSV `umaoka season` reads (finals-only rows, the stage column, no
session/table/game columns) with the highest raw score beside the other figures."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError, ruleset, settle
from umaoka.engine.batch import settle_many
from umaoka.engine.shortcut import shortcut

D = Decimal
PLACES = "oka=off uma=3/1/-1/-3 scoring=places rounding=none"


def test_placement_only_scores_the_place_alone() -> None:
    # a blow-out and a close game give the same finals: only the order counts
    assert settle([60000, 20000, 15000, 5000], PLACES).final == (D(3), D(1), D(-1), D(-3))
    assert settle([25100, 25000, 25000, 24900], PLACES).final == (D(3), D(1), D(-1), D(-3))
    s = settle([12000, 40000, 30000, 18000], PLACES)
    assert s.final == (D(-3), D(3), D(1), D(-1))
    assert (s.base, s.rounded, s.adjustment) == ((D(0),) * 4,) * 3


def test_placement_only_ties_share_the_places_bonuses() -> None:
    # ties=split: two tied for 1st share 3 + 1; ties=seat: the earlier seat ranks higher
    shared = settle([30000, 30000, 25000, 15000], PLACES + " ties=split")
    assert shared.places == (1, 1, 3, 4) and shared.final == (D(2), D(2), D(-1), D(-3))
    assert settle([30000, 30000, 25000, 15000], PLACES).final == (D(3), D(1), D(-1), D(-3))
    # three tied for 2nd-4th share 1 - 1 - 3 = -3: -1.0 each
    three = settle([40000, 20000, 20000, 20000], PLACES + " ties=split")
    assert three.final == (D(3), D(-1), D(-1), D(-1))


def test_placement_only_with_oka_gives_first_the_oka() -> None:
    # as step 6 says: 1st's bonus is uma + oka (here 20): the finals then add up to the oka
    s = settle([35700, 32400, 22200, 9700], "standard; scoring=places")
    assert s.final == (D(40), D(10), D(-10), D(-20)) and sum(s.final) == 20
    # the leftover sticks decide nothing either
    assert settle([35700, 32400, 21200, 9700], "standard; scoring=places",
                  deposits=1000).final == s.final


def test_placement_only_steps_and_batch() -> None:
    s = settle([35700, 32400, 22200, 9700], PLACES)
    steps = s.steps()
    assert steps[2] == ("3. Base = 0 for everyone: scoring=places, the raw scores only "
                        "decide the places.")
    assert steps[5] == "6. Oka 0 to 1st; uma 3/1/-1/-3."
    assert s.explain()[1][-1] == D(3)
    games = [[35700, 32400, 22200, 9700], [10000, 20000, 30000, 40000]]
    assert [r.final for r in settle_many(games, PLACES)] == [settle(g, PLACES).final
                                                            for g in games]
    with pytest.raises(UmaokaError, match="does not hold with scoring=places"):
        shortcut(PLACES)


def test_placement_only_ruleset_text_and_errors() -> None:
    r = ruleset("mleague; scoring=placement")
    assert r.scoring == "places" and "scoring=places" in r.text()
    assert ruleset(r.text()) == r
    with pytest.raises(UmaokaError, match="scoring cannot be \"place-ish\"; use one of points, "
                       "places"):
        ruleset("scoring=place-ish")


def test_calc_shows_the_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "35700", "32400", "22200", "9700", "--ruleset", PLACES]) == 0
    out = capsys.readouterr().out
    assert "3. Base = 0 for everyone: scoring=places" in out
    assert "Final: +3.0  +1.0  -1.0  -3.0" in out


# ------------------------------------------------------------------------------------------------
# umaoka stats on a season's games CSV

SEASON = """\
[season]
name = Test season
ruleset = mleague

[stage Regular]
advance = 2

[stage Final]
carry = half
"""

GAMES = """\
stage,date,east,east_score,south,south_score,west,west_score,north,north_score,\
east_final,south_final,west_final,north_final
Regular,2026-01-10,Aki,45000,Ben,30000,Chie,15000,Dan,10000,,,,
Regular,2026-01-17,Aki,,Ben,,Chie,,Dan,,-10.5,40.2,-5.0,-24.7
Regular,2026-01-24,Aki,,Ben,,Chie,,Dan,,,,,
Final,2026-02-07,Aki,30000,Ben,30000,Chie,25000,Dan,15000,,,,
"""


def stats_lines(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines()
            if line.split() and line.split()[0] in ("Aki", "Ben", "Chie", "Dan")}


@pytest.fixture()
def season_files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "season.ini").write_text(SEASON, encoding="utf-8")
    (tmp_path / "games.csv").write_text(GAMES, encoding="utf-8")
    return tmp_path / "season.ini", tmp_path / "games.csv"


def test_stats_reads_the_season_csv_with_its_stages(
        season_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    season, games = season_files
    assert main(["stats", str(games), "--season", str(season)]) == 0
    out, err = capsys.readouterr()
    assert not err  # the blank row is a game not played yet
    assert "Stats: 3 games" in out  # the finals-only row counts
    lines = stats_lines(out)
    # Player Games Top-2 Bust Avg-raw Top-raw Best #n Worst #n Streaks
    # game 1 under M.League rules: Aki (45,000 - 30,000)/1000 + 30 + 20 = +65.0
    assert lines["Aki"][:8] == ["Aki", "3", "66.7%", "0.0%", "37,500", "45,000", "+65.0", "#1"]
    # Ben: 30,000 in game 1 and, tied for 1st, in the final; the finals-only game has no raw
    assert lines["Ben"][1] == "3" and lines["Ben"][4:6] == ["30,000", "30,000"]
    assert lines["Ben"][6:8] == ["+40.2", "#2"]
    assert "Top raw = highest raw score (最高素点)" in " ".join(out.split())
    # one stage
    assert main(["stats", str(games), "--season", str(season), "--stage", "final"]) == 0
    out = capsys.readouterr().out
    assert "Stats: 1 games" in out and stats_lines(out)["Dan"][5] == "15,000"


def test_stats_without_a_season_says_the_stages_are_not_used(
        season_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    _, games = season_files
    assert main(["stats", str(games)]) == 0
    out, err = capsys.readouterr()
    assert "names stages (Final, Regular) but no season file was given" in " ".join(err.split())
    assert "--season" in err
    # settled under --ruleset (standard): 15 + 20 + 20 = +55
    assert stats_lines(out)["Aki"][6] == "+55"


def test_stats_reports_bad_rows_and_unknown_stages(
        season_files: tuple[Path, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    season, games = season_files
    games.write_text(GAMES + "Semis,2026-02-01,Aki,30000,Ben,30000,Chie,25000,Dan,15000,,,,\n"
                     + "Final,2026-02-08,Aki,30000,Aki,30000,Chie,25000,Dan,15000,,,,\n",
                     encoding="utf-8")
    assert main(["stats", str(games), "--season", str(season)]) == 0
    out, err = capsys.readouterr()
    assert '"Semis" is not a stage of this season' in err and "games.csv line 6" in err
    assert "games.csv line 7 lists the same player twice" in err
    assert "Stats: 3 games" in out
    assert main(["stats", str(games), "--season", str(season), "--stage", "Semi"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and '"Semi" is not a stage' in err
    assert main(["stats", str(games), "--stage", "Final"]) == 2
    assert "--stage needs --season" in capsys.readouterr().err
