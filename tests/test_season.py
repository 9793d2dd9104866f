"""A league season: stages, carry-over and cuts, teams, tie-breaks, substitutes, penalties,
chips, qualification and game caps, with seasons worked by hand."""

from __future__ import annotations

import csv
from decimal import Decimal as D
from pathlib import Path

import pytest

from umaoka.engine import UmaokaError, ruleset, settle, standings
from umaoka.engine.season.gamelog import GameRecord, game_record
from umaoka.engine.season.penalties import penalty
from umaoka.engine.season.ranking import StandingLine, parse_tie_breaks, rank_lines, standing_rows
from umaoka.engine.season.settings import parse_carry, read_season, season_settings
from umaoka.engine.season.stages import Season, Stage, carry_points, run_season
from umaoka.engine.season.teams import parse_game_caps, parse_teams

SEATS = ("east", "south", "west", "north")


def row(stage: str | None, names: str, scores: list[int], **extra: object) -> dict[str, object]:
    """A game row as a CSV reader gives it: names "Aki Ben Chie Dan" in seat order."""
    r: dict[str, object] = {"stage": stage}
    for seat, name, score in zip(SEATS, names.split(), scores):
        r[seat], r[f"{seat}_score"] = name, str(score)
    r.update(extra)
    return r


def by_name(lines):
    return {p.name: p for p in lines}


# ------------------------------------------------------------------------------------------------
# The M.League-like season of docs/season.md, worked by hand.

DATA = Path(__file__).parent / "data"
MLEAGUE_LIKE = (DATA / "mleague_like.ini").read_text(encoding="utf-8")


def csv_rows(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_mleague_like_season_by_hand() -> None:
    # mleague: final = (raw - 30,000) / 1000, exact to 0.1, + uma 30/10/-10/-30, + 20 oka
    # to 1st; equal raw scores share their places' uma and oka.
    # tests/data/mleague_like*: six teams of two; the top 4 go on to the semifinal with
    # half their points, the top 2 to the final with half again; C1 has a chombo.
    season = read_season(MLEAGUE_LIKE)
    result = run_season(season, csv_rows("mleague_like_games.csv"),
                        csv_rows("mleague_like_penalties.csv"))
    assert result.problems == ()
    regular, semi, final = result.stages

    # Regular season.
    # G1: A1 18.2+30+20 = +68.2, B1 1.5+10 = +11.5, C1 -17.7-10 = -27.7, D1 -22-30 = -52.0
    # G2: E1 10+30+20 = +60.0, F1 5.1+10 = +15.1, A2 -10-10 = -20.0, B2 -25.1-30 = -55.1
    # G3: C2 8.7+30+20 = +58.7, D2 -2.7+10 = +7.3, E2 -7-10 = -17.0, F2 -19-30 = -49.0
    # Teams: A 68.2-20.0 = +48.2, E 60.0-17.0 = +43.0, C -27.7+58.7 = +31.0,
    #        F 15.1-49.0 = -33.9, B 11.5-55.1 = -43.6, D -52.0+7.3 = -44.7 (sum 0).
    teams = [(t.rank, t.name, t.games, t.total) for t in regular.teams]
    assert teams == [(1, "A", 2, D("48.2")), (2, "E", 2, D("43.0")), (3, "C", 2, D("31.0")),
                     (4, "F", 2, D("-33.9")), (5, "B", 2, D("-43.6")), (6, "D", 2, D("-44.7"))]
    assert regular.advanced == ("A", "E", "C", "F")  # the top 4; B and D are out
    assert [t.advanced for t in regular.teams] == [True] * 4 + [False] * 2
    assert by_name(regular.players)["A1"].total == D("68.2")
    assert by_name(regular.players)["B2"].rank == 12

    # Semifinal: half of each total carried, to 0.1 (mleague does not round), a half
    # going up (M.League's rule): A 24.1, E 21.5, C 15.5, F -33.9/2 = -16.95 -> -16.9.
    # S1: A1 and F1 tie on 32,000: they share 1st and 2nd, (30+10+20)/2 = 30 each:
    #     A1 2+30 = +32.0, F1 +32.0, E1 -10-10 = -20.0, C1 -14-30 = -44.0
    # S2: C2 14.4+30+20 = +64.4, E2 0.8+10 = +10.8, A2 -14.6-10 = -24.6, F2 -20.6-30 = -50.6
    # C1's chombo (-20, penalty log) counts for C1 and for team C.
    # A +24.1 + (32.0-24.6) = +31.5; C +15.5 + (-44.0+64.4) - 20 = +15.9;
    # E +21.5 + (-20.0+10.8) = +12.3; F -16.9 + (32.0-50.6) = -35.5.
    t = by_name(semi.teams)
    assert [(x.name, x.carried) for x in semi.teams] == [
        ("A", D("24.1")), ("C", D("15.5")), ("E", D("21.5")), ("F", D("-16.9"))]
    assert (t["C"].points, t["C"].penalties, t["C"].total) == (D("20.4"), D("-20"), D("15.9"))
    assert [(x.rank, x.name, x.total) for x in semi.teams] == [
        (1, "A", D("31.5")), (2, "C", D("15.9")), (3, "E", D("12.3")), (4, "F", D("-35.5"))]
    assert semi.advanced == ("A", "C")
    p = by_name(semi.players)
    assert (p["C1"].points, p["C1"].penalties, p["C1"].total) == (D("-44.0"), D("-20"),
                                                                    D("-64.0"))
    assert p["C1"].carried == 0  # in a team competition only teams carry points
    # A1 and F1 are level on total, best game (32.0) and places (one shared 1st each);
    # the roster lists team A before team F, so "earlier" puts A1 2nd.
    assert (p["A1"].rank, p["F1"].rank) == (2, 3)
    assert p["A1"].tie_break == p["F1"].tie_break == "earlier"
    assert semi.penalties[0].reason == "chombo"

    # Final: half again: A 31.5/2 = 15.75 -> 15.8, C 15.9/2 = 7.95 -> 8.0.
    # F1: C1 5+30+20 = +55.0, A1 -3+10 = +7.0, C2 -10-10 = -20.0, A2 -12-30 = -42.0
    # C +8.0 + 35.0 = +43.0 wins; A +15.8 - 35.0 = -19.2.
    assert [(x.rank, x.name, x.carried, x.stage_total, x.total) for x in final.teams] == [
        (1, "C", D("8.0"), D("35.0"), D("43.0")), (2, "A", D("15.8"), D("-35.0"), D("-19.2"))]
    assert final.advanced == ()
    assert result.penalties == semi.penalties


def test_json_season_is_the_same_season() -> None:
    text = """{"name": "M.League-like 2026", "competition": "team", "ruleset": "mleague",
      "stages": [{"name": "Regular season", "advance": 4},
                 {"name": "Semifinal", "carry": "half", "advance": 2},
                 {"name": "Final", "carry": 0.5}],
      "teams": {"A": ["A1", "A2"], "B": "B1, B2", "C": ["C1", "C2"], "D": ["D1", "D2"],
                "E": ["E1", "E2"], "F": ["F1", "F2"]}}"""
    assert read_season(text, "json") == read_season(MLEAGUE_LIKE)


def test_individual_season_with_whole_points_and_a_cut() -> None:
    # standard: 25,000/30,000, uma 20/10/-10/-20, 五捨六入 (half_down) to whole points.
    season = read_season("""
        [season]
        players = Aki, Ben, Chie, Dan, Eri, Fumi
        [stage Regular]
        advance = 4
        [stage Final]
        carry = half
    """.replace("\n        ", "\n"))
    games = [
        # 5.7 -> 6, 2.4 -> 2, -6.8 -> -7, -21.3 -> -21; sum -20 = -oka, no adjustment:
        # Aki 6+20+20 = 46, Ben 2+10 = 12, Chie -7-10 = -17, Dan -21-20 = -41
        row("Regular", "Aki Ben Chie Dan", [35700, 32400, 23200, 8700]),
        # Eri 15+20+20 = 55, Fumi 3+10 = 13, Aki -12-10 = -22, Ben -26-20 = -46
        row("Regular", "Eri Fumi Aki Ben", [45000, 33000, 18000, 4000]),
        # Chie 10+40 = 50, Fumi 0+10 = 10, Aki -10-10 = -20, Eri -20-20 = -40
        row("Final", "Chie Fumi Aki Eri", [40000, 30000, 20000, 10000]),
        row("Final", "Ben Fumi Aki Eri", [40000, 30000, 20000, 10000]),  # Ben is out
    ]
    result = run_season(season, games)
    regular, final = result.stages
    # Totals: Eri 55, Aki 46-22 = 24, Fumi 13, Chie -17, Ben 12-46 = -34, Dan -41.
    assert [(p.name, p.total) for p in regular.players] == [
        ("Eri", 55), ("Aki", 24), ("Fumi", 13), ("Chie", -17), ("Ben", -34), ("Dan", -41)]
    assert regular.advanced == ("Eri", "Aki", "Fumi", "Chie")
    # Half, rounded to whole points as half_down rounds (a half toward minus infinity):
    # Eri 27.5 -> 27, Aki 12, Fumi 6.5 -> 6, Chie -8.5 -> -9.
    assert [(p.name, p.carried, p.total) for p in final.players] == [
        ("Chie", -9, 41), ("Fumi", 6, 16), ("Aki", 12, -8), ("Eri", 27, -13)]
    assert final.games == 1
    assert result.problems == ("game 4: Ben did not advance to Final; fix the name or the "
                               "stage.",)


@pytest.mark.parametrize("rounding, value, expected", [
    ("none", "15.75", "15.8"), ("none", "-16.95", "-16.9"), ("none", "7.95", "8.0"),
    ("none", "-0.05", "0.0"), ("none", "12.34", "12.3"), ("none", "-12.36", "-12.4"),
    ("half_down", "27.5", "27"), ("half_down", "-8.5", "-9"), ("half_down", "6.6", "7"),
    ("half_up", "27.5", "28"), ("half_up", "-8.5", "-8"),
    ("floor", "6.9", "6"), ("floor", "-6.1", "-7"), ("ceil", "6.1", "7"), ("ceil", "-6.9", "-6"),
])
def test_carry_points_round_as_the_ruleset_rounds(rounding: str, value: str,
                                                  expected: str) -> None:
    rules = ruleset(f"standard; rounding={rounding}")
    carried = carry_points(D(value), D(1), rules)
    assert str(carried) == expected


def test_carry_factors() -> None:
    assert [parse_carry(x) for x in ("full", "half", "zero", "0.25", "3/4", "40%", 1, 0)] == [
        D(1), D("0.5"), D(0), D("0.25"), D("0.75"), D("0.4"), D(1), D(0)]
    with pytest.raises(UmaokaError, match="not an exact decimal; write a factor such as 0.33"):
        parse_carry("1/3")
    with pytest.raises(UmaokaError, match="between 0 and 1"):
        parse_carry("1.5")
    with pytest.raises(UmaokaError, match="not a share of points"):
        parse_carry("most")


# ------------------------------------------------------------------------------------------------
# Tie-breaks.


def line(name: str, total: int, best: int, places: tuple[int, ...], games: int = 3,
         **kw: object) -> StandingLine:
    return StandingLine(name, points=D(total), best=D(best), worst=D(-best), places=places,
                        games=games, **kw)  # type: ignore[arg-type]


def test_tie_breaks_in_order() -> None:
    lines = [
        line("Ben", 50, 40, (1, 1, 1, 0)),
        line("Aki", 50, 60, (1, 0, 1, 1)),   # level with Ben on total, better best game
        line("Chie", 50, 40, (1, 2, 0, 0)),  # level with Ben on best, more 2nds
        line("Dan", 80, 10, (0, 3, 0, 0)),
    ]
    ranked = rank_lines(lines, "total", ("best", "places", "earlier"),
                        order={"Aki": 0, "Ben": 1, "Chie": 2, "Dan": 3})
    assert [(p.rank, p.name, p.tie_break) for p in ranked] == [
        (1, "Dan", None), (2, "Aki", "best"), (3, "Chie", "best"), (4, "Ben", "places")]
    # Another order: places first: Chie has more 2nds than Ben, Ben than Aki.
    ranked = rank_lines(lines, "total", ("places", "best"))
    assert [(p.name, p.tie_break) for p in ranked] == [
        ("Dan", None), ("Chie", "places"), ("Ben", "places"), ("Aki", "places")]
    # No tie-breaks: equal totals share the place (listed by name).
    ranked = rank_lines(lines, "total", ())
    assert [(p.rank, p.name, p.tie_break) for p in ranked] == [
        (1, "Dan", None), (2, "Aki", None), (2, "Ben", None), (2, "Chie", None)]


def test_earlier_and_previous_tie_breaks() -> None:
    twins = [line("Ben", 10, 20, (1, 0, 0, 0), 1), line("Aki", 10, 20, (1, 0, 0, 0), 1)]
    ranked = rank_lines(twins, "total", ("best", "places", "earlier"),
                        order={"Ben": 0, "Aki": 1})
    assert [(p.rank, p.name, p.tie_break) for p in ranked] == [(1, "Ben", "earlier"),
                                                                (2, "Aki", "earlier")]
    ranked = rank_lines(twins, "total", ("previous",), previous={"Aki": 1, "Ben": 4})
    assert [(p.rank, p.name, p.tie_break) for p in ranked] == [(1, "Aki", "previous"),
                                                                (2, "Ben", "previous")]


def test_ranking_by_average_and_average_place() -> None:
    lines = [line("Aki", 90, 50, (2, 0, 0, 1), 3),   # average 30, average place 2.00
             line("Ben", 70, 40, (1, 1, 0, 0), 2),   # average 35, average place 1.50
             line("Chie", 100, 40, (1, 2, 1, 0), 4)]  # average 25, average place 2.00
    assert [p.name for p in rank_lines(lines, "total")] == ["Chie", "Aki", "Ben"]
    assert [p.name for p in rank_lines(lines, "average")] == ["Ben", "Aki", "Chie"]
    ranked = rank_lines(lines, "average_place", ("total",))
    assert [(p.name, p.average_place, p.tie_break) for p in ranked] == [
        ("Ben", D("1.50"), None), ("Chie", D("2.00"), "total"), ("Aki", D("2.00"), "total")]
    # Averages compare exactly: 1/3 and 0.33 are not a tie.
    exact = [line("Aki", 1, 1, (1, 0, 0, 0), 3), StandingLine("Ben", points=D("0.33"), games=1,
                                                              places=(1, 0, 0, 0))]
    assert [p.tie_break for p in rank_lines(exact, "average")] == [None, None]


def test_tie_break_names() -> None:
    assert parse_tie_breaks(["Best game", "more 1sts", "fewer 4ths", "previous stage"]) == (
        "best", "firsts", "fewer_lasts", "previous")
    assert parse_tie_breaks("") == ()
    with pytest.raises(UmaokaError, match='"bets" is not a tie-break.*Did you mean "best"'):
        parse_tie_breaks("total, bets")


def test_a_cut_inside_an_undecided_tie_lets_both_through() -> None:
    season = season_settings({"tie_breaks": "best", "stages": [
        {"name": "Heats", "advance": 1}, {"name": "Final", "carry": "full"}]})
    # Aki and Ben both +10 with identical games: nothing separates them.
    games = [row("Heats", "Aki Chie Ben Dan", [30000, 30000, 20000, 20000]),
             row("Heats", "Ben Dan Aki Chie", [30000, 30000, 20000, 20000])]
    heats = run_season(season, games).stages[0]
    assert heats.advanced == ("Aki", "Ben")
    assert [(p.rank, p.name) for p in heats.players][:2] == [(1, "Aki"), (1, "Ben")]
    assert "place 1 is shared by Aki, Ben" in heats.notes[0]
    assert "2 advance instead of 1" in heats.notes[0]


# ------------------------------------------------------------------------------------------------
# Substitutes: Dan (team B) is absent; Zed plays the north seat for him.
# standard: 35,700/32,400/22,200/9,700 -> +46/+12/-18/-40.

SUB_SEASON = {"teams": {"A": "Aki, Chie", "B": "Ben, Dan"}, "chip_value": 1}
SUB_GAME = row(None, "Aki Ben Chie Dan", [35700, 32400, 22200, 9700], north_sub="Zed",
               north_chips="3", north_penalty="-5", east_chips="-3")


def sub_stage(treatment: str):
    season = season_settings({**SUB_SEASON, "substitutes": treatment})
    result = run_season(season, [SUB_GAME])
    assert result.problems == ()
    return result.stages[0]


def test_substitute_counts_for_the_team_only() -> None:
    stage = sub_stage("team")
    assert "Dan" not in by_name(stage.players)
    b = by_name(stage.teams)["B"]
    # Ben +12, Zed's seat -40 with its -5 row penalty (-45) and 3 chips (+3).
    assert (b.games, b.points, b.penalties, b.chips, b.total) == (2, D(-28), D(-5), D(3),
                                                                   D(-30))


def test_substitute_counts_for_the_absent_player() -> None:
    stage = sub_stage("player")
    dan = by_name(stage.players)["Dan"]
    assert (dan.games, dan.substituted, dan.points, dan.penalties, dan.chips, dan.total) == (
        1, 1, D(-40), D(-5), D(3), D(-42))
    assert dan.places == (0, 0, 0, 1)
    assert by_name(stage.teams)["B"].total == D(12) + D(-42)


def test_absent_player_gets_a_fixed_result() -> None:
    stage = sub_stage("fixed")
    dan = by_name(stage.players)["Dan"]
    # -30 (the default), last place; Zed's chips and row penalty count for nobody.
    assert (dan.games, dan.points, dan.penalties, dan.chips, dan.places) == (
        1, D(-30), D(0), D(0), (0, 0, 0, 1))
    assert by_name(stage.teams)["B"].total == D(12) - 30
    season = season_settings({**SUB_SEASON, "substitutes": "fixed", "absent_result": "-45"})
    assert by_name(run_season(season, [SUB_GAME]).stages[0].players)["Dan"].total == -45
    with pytest.raises(UmaokaError, match="not in the ruleset's unit of 1 final points"):
        season_settings({**SUB_SEASON, "substitutes": "fixed", "absent_result": "-30.5"})


def test_substitute_treatment_names() -> None:
    with pytest.raises(UmaokaError, match='substitutes cannot be "fix".*Did you mean "fixed"'):
        season_settings({"substitutes": "fix"})


# ------------------------------------------------------------------------------------------------
# Penalties and chips.


def test_penalties_and_chips_in_player_and_team_totals() -> None:
    season = season_settings({"teams": {"Red": "Aki, Ben", "Blue": "Chie, Dan"},
                              "chip_value": "2"})
    # +46/+12/-18/-40; Aki's row penalty -20 (a chombo written in the game row).
    games = [row(None, "Aki Ben Chie Dan", [35700, 32400, 22200, 9700], east_penalty="-20",
                 east_chips="2", south_chips="1", west_chips="-1", north_chips="-2")]
    pens = [{"player": "Ben", "points": "-10", "reason": "lateness"},
            {"team": "Blue", "points": "-5", "reason": "conduct"}]
    result = run_season(season, games, pens)
    p, t = by_name(result.stages[0].players), by_name(result.stages[0].teams)
    aki = p["Aki"]
    assert (aki.points, aki.penalties, aki.chip_count, aki.chips, aki.total) == (
        D(46), D(-20), 2, D(4), D(30))
    assert aki.best == D(26)  # the game's final score, row penalty included
    assert (p["Ben"].penalties, p["Ben"].chips, p["Ben"].total) == (D(-10), D(2), D(4))
    assert p["Chie"].total == -18 - 2 and p["Dan"].total == -40 - 4
    # Red: Aki 30 + Ben 4; Blue: Chie -20 + Dan -44 + its own -5.
    assert (t["Red"].total, t["Blue"].total) == (D(34), D(-69))
    assert t["Blue"].penalties == D(-5)
    assert [x.reason for x in result.penalties] == ["lateness", "conduct"]
    assert result.stages[0].penalties == result.penalties


def test_penalty_rows() -> None:
    p = penalty({"Date": "2026-04-04", "Player": " Aki ", "Points": "-2.5", "Reason": "",
                 "notes": "ignored"})
    assert (p.player, p.points, str(p.date), p.reason) == ("Aki", D("-2.5"), "2026-04-04", "")
    with pytest.raises(UmaokaError, match="needs a player or a team"):
        penalty({"player": "Aki", "team": "Red", "points": -5})
    with pytest.raises(UmaokaError, match="at most one decimal"):
        penalty({"player": "Aki", "points": "-2.25"})
    with pytest.raises(UmaokaError, match="has no points"):
        penalty({"player": "Aki"})
    with pytest.raises(UmaokaError, match="is not a date"):
        penalty({"player": "Aki", "points": -5, "date": "April"})


# ------------------------------------------------------------------------------------------------
# Qualification and game caps.


def test_unqualified_players_are_listed_apart_and_cannot_advance() -> None:
    season = season_settings({"min_games": 2, "stages": [{"name": "Regular", "advance": 2},
                                                         {"name": "Final", "carry": "zero"}]})
    games = [row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]),
             row("Regular", "Eri Ben Chie Dan", [35700, 32400, 22200, 9700])]
    regular = run_season(season, games).stages[0]
    # Aki and Eri (+46, one game each) lead on points but are not ranked.
    assert [(p.rank, p.name, p.qualified) for p in regular.players] == [
        (1, "Ben", True), (2, "Chie", True), (3, "Dan", True),
        (None, "Aki", False), (None, "Eri", False)]
    assert regular.advanced == ("Ben", "Chie")


def test_game_caps_are_flags() -> None:
    season = season_settings({"substitutes": "player", "stages": [
        {"name": "Regular", "game_caps": "2-3"}]})
    four = [row(None, "Aki Ben Chie Dan", [35700, 32400, 22200, 9700])] * 3 + [
        row(None, "Aki Ben Chie Eri", [35700, 32400, 22200, 9700], south_sub="Zed")]
    result = run_season(season, four)
    p = by_name(result.stages[0].players)
    assert p["Aki"].flags == ("played 4 games, more than the maximum of 3",)
    assert p["Ben"].flags == ()  # 4 games counted, one played by a substitute: 3 played
    assert (p["Ben"].games, p["Ben"].substituted) == (4, 1)
    assert p["Eri"].flags == ("played 1 game, fewer than the minimum of 2",)
    assert "Regular: Eri played 1 game, fewer than the minimum of 2" in result.flags
    assert p["Aki"].rank == 1  # flags never change the standings


def test_game_caps_text() -> None:
    assert parse_game_caps("10-45").text() == "10-45"
    assert parse_game_caps("10 to 45") == parse_game_caps([10, 45])
    assert parse_game_caps("-45").minimum is None and parse_game_caps("10-").maximum is None
    assert parse_game_caps({"min": 10}).minimum == 10
    assert parse_game_caps("") is None
    with pytest.raises(UmaokaError, match="the minimum is above the maximum"):
        parse_game_caps("45-10")
    with pytest.raises(UmaokaError, match='"ten" is not a whole number'):
        parse_game_caps("ten-45")


# ------------------------------------------------------------------------------------------------
# Bad rows are left out with one sentence; the rest still count.


def test_bad_rows_are_reported_and_the_rest_count() -> None:
    season = season_settings({"players": "Aki, Ben, Chie, Dan", "stages": [
        {"name": "Regular"}, {"name": "Final", "carry": "full"}]})
    games = [
        row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]),
        row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 8700]),
        row("Regulr", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]),
        row("Regular", "Aki Bne Chie Dan", [35700, 32400, 22200, 9700]),
        row(None, "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]),
        {**row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]), "east_chips": "x",
         "_label": "games.csv row 7"},
        row("Final", "Aki Ben Aki Dan", [35700, 32400, 22200, 9700]),
    ]
    pens = [{"player": "Akki", "stage": "Regular", "points": -5},
            {"player": "Aki", "points": -5},
            {"team": "Red", "stage": "Final", "points": -5}]
    result = run_season(season, games, pens)
    assert result.problems == (
        "game 2: scores add up to 99,000 but 4 x 25,000 = 100,000: 1,000 missing; enter the "
        "leftover riichi sticks as deposits or fix a score.",
        'game 3: "Regulr" is not a stage of this season; use one of Regular, Final. Did you '
        'mean "Regular"?',
        "game 4: Bne is not on the season's roster or any team; fix the name or add the "
        'player. Did you mean "Ben"?',
        "game 5: the game has no stage; the season has 2 stages (Regular, Final), so say "
        "which one.",
        'games.csv row 7: east\'s chips "x" are not a whole number; give the chip count, '
        "e.g. 2 or -1.",
        "game 7 lists the same player twice (Aki, Ben, Aki, Dan); each seat needs a "
        "different player.",
        'penalty 1: Akki is not a player of this season; fix the name. Did you mean "Aki"?',
        "penalty 2: the penalty has no stage; the season has 2 stages (Regular, Final), so say "
        "which one.",
        'penalty 3: "Red" is not a team of this season; fix the name.',
    )
    assert result.stages[0].games == 1
    assert by_name(result.stages[0].players)["Aki"].total == 46


def test_game_record_from_a_row() -> None:
    g = game_record(row("Regular", "Aki Ben Chie", [45000, 35000, 25000], deposits="",
                        session="3"), players=3)
    assert g == GameRecord(("Aki", "Ben", "Chie"), ("45000", "35000", "25000"), "Regular", 0,
                           (None, None, None), (0, 0, 0), (None, None, None), None, "game")


# ------------------------------------------------------------------------------------------------
# The season definition.


@pytest.mark.parametrize("spec, words", [
    ({"rulset": "mleague"}, '"rulset" is not a season setting; use name, competition, '),
    ({"stages": [{"name": "A", "advnce": 2}]}, 'Did you mean "advance"'),
    ({"stages": [{"name": "A"}, {"name": "B"}]}, "stage B does not say how points carry"),
    ({"stages": [{"name": "A", "advance": 2}]}, "the last stage (A) says advance = 2"),
    ({"stages": [{"name": "A", "carry": "half"}, {"name": "B", "carry": 1}]},
     "the first stage (A) has nothing to carry over"),
    ({"stages": [{"name": "A"}, {"name": "a", "carry": 1}]}, "stage names must be"),
    ({"stages": [{"name": "A", "advance": 0}, {"name": "B", "carry": 1}]},
     "advance must be at least 1"),
    ({"competition": "team"}, "a team competition needs teams"),
    ({"competition": "tema"}, 'Did you mean "team"'),
    ({"teams": {"A": "Aki", "B": "Aki"}}, 'Aki is listed for both "A" and "B"'),
    ({"teams": {"A": ""}}, 'the team "A" has no players'),
    ({"teams": {"Aki": "Aki, Ben"}}, '"Aki" is both a team and a player'),
    ({"ranking": "points per game"}, 'ranking cannot be "points per game"'),
    ({"min_games": "-1"}, "min_games must be at least 0"),
    ({"chip_value": "two"}, 'chip_value: "two" is not a number'),
    ({"stages": [{"name": "A", "ruleset": "mleague"}, {"name": "B", "carry": 1,
                                                       "ruleset": "tenhou-sanma"}]},
     "a season's stages use one player count"),
    ({"stages": {"name": "A"}}, "stages must be a list"),
])
def test_season_settings_errors(spec: dict[str, object], words: str) -> None:
    with pytest.raises(UmaokaError) as e:
        season_settings(spec)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


def test_season_file_errors() -> None:
    with pytest.raises(UmaokaError, match=r"\[round 1\] is not a section"):
        read_season("[round 1]\nadvance = 2")
    with pytest.raises(UmaokaError, match="cannot be read"):
        read_season("[season]\nname = a\nname = b")
    with pytest.raises(UmaokaError, match="not valid JSON"):
        read_season("{name: 1}", "json")


def test_one_stage_by_default_and_settings_before_any_section() -> None:
    s = read_season("name = Club night\n# a comment\nruleset = tenhou\nmin_games = 3\n")
    assert s.name == "Club night" and [st.name for st in s.stages] == ["Club night"]
    assert (s.stages[0].ruleset.name, s.stages[0].min_games) == ("tenhou", 3)
    assert s.stages[0].substitutes == "team" and s.stages[0].absent_result == -30


def test_teams_keep_their_order_and_case() -> None:
    s = read_season("[teams]\nKONAMI Club = Aki, Ben\nabemas = Chie\n")
    assert s.teams == parse_teams([("KONAMI Club", "Aki, Ben"), ("abemas", ["Chie"])])
    assert s.roster == ("Aki", "Ben", "Chie")


def test_a_plain_season_matches_the_standings() -> None:
    games = [(["Aki", "Ben", "Chie", "Dan"], [35700, 32400, 22200, 9700]),
             (["Ben", "Aki", "Dan", "Chie"], [40000, 30000, 20000, 10000]),
             (["Chie", "Dan", "Ben", "Eri"], [30000, 30000, 25000, 15000])]
    expected = standings([(n, settle(s, "mleague")) for n, s in games])
    season = Season("S", (Stage("S", ruleset("mleague"), tie_breaks=()),))
    lines = run_season(season, [GameRecord(tuple(n), tuple(s)) for n, s in games]).stages[0]
    assert [(p.name, p.games, p.total, p.average, p.average_place, p.places, p.best, p.worst)
            for p in lines.players] == [
        (p.name, p.games, p.total, p.average, p.average_place, p.places, p.best, p.worst)
        for p in expected]


def test_three_player_season() -> None:
    # tenhou-sanma: 35,000/40,000, oka 15 to 1st, uma 20/0/-20, exact.
    # 50,000/35,000/20,000 -> 10+20+15 = +45.0, -5.0, -20-20 = -40.0
    season = season_settings({"ruleset": "tenhou-sanma", "stages": [
        {"name": "Regular", "advance": 2}, {"name": "Final", "carry": "half"}]})
    games = [game_record(row("Regular", "Aki Ben Chie", [50000, 35000, 20000]), 3),
             game_record(row("Final", "Aki Ben Chie", [50000, 35000, 20000]), 3)]
    result = run_season(season, games)
    regular, final = result.stages
    assert [(p.name, p.total, p.places) for p in regular.players] == [
        ("Aki", D("45.0"), (1, 0, 0)), ("Ben", D("-5.0"), (0, 1, 0)),
        ("Chie", D("-40.0"), (0, 0, 1))]
    # The final's only game seats Chie, who is out: it is left out, so only carry remains.
    assert [(p.name, p.carried, p.total) for p in final.players] == [
        ("Aki", D("22.5"), D("22.5")), ("Ben", D("-2.5"), D("-2.5"))]
    assert result.problems == ("game 2: Chie did not advance to Final; fix the name or the "
                               "stage.",)


def test_previous_stage_breaks_a_team_tie_and_knocked_out_penalties() -> None:
    season = season_settings({
        "competition": "team", "tie_breaks": "previous",
        "teams": {"Red": "Aki", "Blue": "Ben", "Green": "Chie", "Gold": "Dan"},
        "stages": [{"name": "Regular", "advance": 3}, {"name": "Final", "carry": "zero"}]})
    games = [row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700]),  # 46 12 -18 -40
             row("Final", "Chie Ben Aki Dan", [35700, 32400, 22200, 9700])]   # Gold is out
    pens = [{"stage": "Final", "team": "Gold", "points": -5},
            {"stage": "Final", "player": "Aki", "points": -30}]
    result = run_season(season, games, pens)
    final = result.stages[1]
    assert result.problems == (
        "game 2: Gold did not advance to Final; fix the name or the stage.",
        "penalty 1: Gold did not advance to Final; fix the name or the stage.")
    # Nothing played in the final; carry zero; Red's -30 penalty puts it last. Blue and
    # Green are level on 0: Blue was 2nd in the regular season, Green 3rd.
    assert [(t.rank, t.name, t.total, t.tie_break) for t in final.teams] == [
        (1, "Blue", 0, "previous"), (2, "Green", 0, "previous"), (3, "Red", -30, None)]
    assert result.penalties == (penalty({"stage": "Final", "player": "Aki", "points": -30},
                                        "penalty 2"),)


def test_standing_rows_are_plain_values() -> None:
    result = run_season(read_season(MLEAGUE_LIKE), csv_rows("mleague_like_games.csv"))
    header, *rows = standing_rows(result.stages[1].players)
    assert header[:10] == ["Rank", "Name", "Team", "Games", "Carried", "Points", "Chips",
                           "Penalties", "Total", "Average"]
    a1 = dict(zip(header, rows[1]))
    assert (a1["Rank"], a1["Name"], a1["Team"], a1["Total"], a1["1st"], a1["4th"],
            a1["Tie-break"], a1["Advanced"]) == (2, "A1", "A", D("32.0"), 1, 0, "earlier", "")
    teams = standing_rows(result.stages[0].teams)
    assert [r[0] for r in teams[1:]] == [1, 2, 3, 4, 5, 6]
    assert [r[header.index("Advanced")] for r in teams[1:]] == ["yes"] * 4 + [""] * 2


def test_team_penalty_after_a_cut_in_an_individual_competition() -> None:
    season = season_settings({"teams": {"Red": "Aki, Ben", "Blue": "Chie, Dan"}, "stages": [
        {"name": "Regular", "advance": 1}, {"name": "Final", "carry": "full"}]})
    games = [row("Regular", "Aki Ben Chie Dan", [35700, 32400, 22200, 9700])]
    pens = [{"stage": "Final", "team": "Blue", "points": -5},
            {"stage": "Final", "player": "Ben", "points": -5}]
    result = run_season(season, games, pens)
    final = result.stages[1]
    # Only Aki (+46) goes on; Blue has no player left but its own penalty still counts.
    assert [(p.name, p.total) for p in final.players] == [("Aki", 46)]
    assert [(t.name, t.total) for t in final.teams] == [("Red", 46), ("Blue", -5)]
    assert result.problems == ("penalty 2: Ben did not advance to Final; fix the name or the "
                               "stage.",)
