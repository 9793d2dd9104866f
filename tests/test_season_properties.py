"""Properties of a season that must hold for any games: carry-over, team totals, ranks."""

from __future__ import annotations

from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.engine import ruleset, settle
from umaoka.engine.season.gamelog import GameRecord
from umaoka.engine.season.penalties import Penalty
from umaoka.engine.season.stages import Season, SettledGames, Stage, carry_points, run_season
from umaoka.engine.season.teams import parse_teams, team_of

PLAYERS = ("Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Gin")
TEAMS = parse_teams({"Red": "Aki, Ben, Chie", "Blue": "Dan, Eri", "Green": "Fumi, Gin"})
TEAM_OF = team_of(TEAMS)
PRESETS = ("standard", "tenhou", "tenhou-classic", "mleague", "ema", "jpml-a", "mahjongsoul")


@st.composite
def game(draw, rules, stage=None):
    """A valid four-player game among PLAYERS, with chips and maybe a substitute."""
    names = draw(st.permutations(PLAYERS))[:4]
    total = rules.start * 4 // 100
    cuts = sorted(draw(st.lists(st.integers(-50, total + 50), min_size=3, max_size=3)))
    scores = [(b - a) * 100 for a, b in zip([0, *cuts], [*cuts, total])]
    chips = tuple(draw(st.lists(st.integers(-3, 3), min_size=4, max_size=4)))
    subs = tuple(draw(st.lists(st.sampled_from([None, None, None, "Zed"]), min_size=4,
                               max_size=4)))
    return GameRecord(tuple(names), tuple(scores), stage, chips=chips, substitutes=subs)


@st.composite
def season_games(draw):
    rules = ruleset(draw(st.sampled_from(PRESETS)))
    games = draw(st.lists(game(rules), min_size=1, max_size=12))
    split = draw(st.integers(0, len(games)))
    chip_value = draw(st.sampled_from([D(0), D(1), D(2)]))
    return rules, games, split, chip_value


@settings(max_examples=150, deadline=None)
@given(season_games(), st.sampled_from(["team", "player", "fixed"]))
def test_carrying_everything_equals_one_long_stage(case, subs) -> None:
    rules, games, split, chip_value = case
    kw = {"chip_value": chip_value, "substitutes": subs, "tie_breaks": ()}
    two = Season("Two", (Stage("First", rules, **kw), Stage("Second", rules, carry=D(1), **kw)))
    one = Season("One", (Stage("All", rules, **kw),))
    staged = [GameRecord(g.players, g.scores, "First" if i < split else "Second",
                         chips=g.chips, substitutes=g.substitutes) for i, g in enumerate(games)]
    long_stage = run_season(one, games).stages[0]
    second = run_season(two, staged).stages[1]
    assert {p.name: p.total for p in second.players} == {
        p.name: p.total for p in long_stage.players}
    assert [p.name for p in second.players] == [p.name for p in long_stage.players]


@st.composite
def log(draw):
    entries = []
    for _ in range(draw(st.integers(0, 4))):
        points = D(draw(st.integers(-300, 100))) / 10
        if draw(st.booleans()):
            entries.append(Penalty(points, player=draw(st.sampled_from(PLAYERS))))
        else:
            entries.append(Penalty(points, team=draw(st.sampled_from(["Red", "Blue",
                                                                      "Green"]))))
    return entries


@settings(max_examples=150, deadline=None)
@given(season_games(), st.sampled_from(["team", "player", "fixed"]), log())
def test_team_total_is_its_players_plus_team_penalties(case, subs, pens) -> None:
    rules, games, _, chip_value = case
    season = Season("S", (Stage("S", rules, chip_value=chip_value, substitutes=subs),),
                    teams=TEAMS)
    result = run_season(season, games, pens)
    assert result.problems == ()
    stage = result.stages[0]
    for team in stage.teams:
        members = sum((p.total for p in stage.players if p.team == team.name), D(0))
        own = sum((p.points for p in pens if p.team == team.name), D(0))
        # With substitutes = team, a substitute's seat counts for the team and no player.
        subs_only = D(0)
        if subs == "team":
            for g in games:
                finals = settle(g.scores, rules).final
                for seat, name in enumerate(g.players):
                    if g.substitutes[seat] and TEAM_OF[name] == team.name:
                        subs_only += finals[seat] + g.chips[seat] * chip_value
        assert team.total == members + own + subs_only


@settings(max_examples=150, deadline=None)
@given(season_games(), log())
def test_totals_add_up_to_chips_and_penalties(case, pens) -> None:
    """Game results are zero-sum; only chips and penalties move the sum of all totals."""
    rules, games, _, chip_value = case
    games = [GameRecord(g.players, g.scores, chips=g.chips) for g in games]
    played = {n for g in games for n in g.players}
    pens = [p for p in pens if p.player in played]  # without a roster, others are rejected
    stage = run_season(Season("S", (Stage("S", rules, chip_value=chip_value),)), games,
                       pens).stages[0]
    chips = sum(sum(g.chips) for g in games) * chip_value
    assert sum(p.total for p in stage.players) == chips + sum(p.points for p in pens)


@settings(max_examples=150, deadline=None)
@given(season_games(), st.integers(0, 3),
       st.sampled_from(["total", "average", "average_place"]))
def test_ranks_follow_the_order(case, min_games, ranking) -> None:
    rules, games, _, _ = case
    stage = run_season(Season("S", (Stage("S", rules, ranking=ranking, min_games=min_games,
                                          tie_breaks=()),)), games).stages[0]
    ranked = [p for p in stage.players if p.rank is not None]
    assert all(p.qualified for p in ranked) and all(p.games >= min_games for p in ranked)
    assert stage.players[:len(ranked)] == tuple(ranked)  # unranked players come last
    for i, p in enumerate(ranked):
        assert p.rank == i + 1 or p.rank == ranked[i - 1].rank
    key = {"total": lambda p: -p.total, "average": lambda p: -p.stage_total / p.games,
           "average_place": lambda p: sum(i * c for i, c in enumerate(p.places, 1)) / p.games}
    values = [key[ranking](p) for p in ranked]
    assert values == sorted(values)


@given(st.integers(-10**6, 10**6), st.sampled_from(["0.5", "0.25", "1", "0", "0.3"]),
       st.sampled_from(["none", "half_down", "half_up", "floor", "ceil"]))
def test_carried_points_are_within_one_unit(tenths, factor, rounding) -> None:
    rules = ruleset(f"standard; rounding={rounding}")
    total = D(tenths) / 10
    carried = carry_points(total, D(factor), rules)
    unit = D("0.1") if rounding == "none" else D(1)
    assert carried % unit == 0
    assert abs(carried - total * D(factor)) <= unit / (1 if rounding in ("floor", "ceil")
                                                       else 2)
    if rounding == "none":  # a half goes up (M.League): -x carries as mirror image of +x
        # except on a half, which goes up for both
        half = abs(total * D(factor) * 20) % 2 == 1
        assert carry_points(-total, D(factor), rules) == -carried + (D("0.1") if half else 0)


@settings(max_examples=100, deadline=None)
@given(season_games(), st.integers(0, 12), st.booleans())
def test_settled_games_kept_between_runs_change_nothing(case, cut, same) -> None:
    """Running a season on some games, then on more with their settled games kept
    (``SettledGames``), gives what running it afresh gives; and what was kept for one
    season is never used for another (here: another ruleset)."""
    rules, games, _, chip_value = case
    stages = (Stage("A", rules, chip_value=chip_value),)
    season = Season("S", stages, TEAMS)
    other = season if same else Season("S", (Stage("A", ruleset("uma=10-30"),
                                                   chip_value=chip_value),), TEAMS)
    kept = SettledGames()
    run_season(season, games[:cut], settled=kept)
    assert len(kept) <= cut  # bad games are reported again, not kept
    assert run_season(season, games, settled=kept) == run_season(season, games)
    size = len(kept)
    assert run_season(other, games, settled=kept) == run_season(other, games)
    assert len(kept) == size  # nothing kept for, or taken from, another season
