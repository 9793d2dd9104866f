"""A league season: stages, teams, substitutes, penalties, carry-over and standings.

``stages`` runs a season stage by stage (:func:`run_season`); ``settings`` reads a season
file or table; ``ranking`` orders players and teams with the tie-breaks; ``teams``,
``substitutes`` and ``penalties`` are what their names say; ``gamelog`` is one settled
game as a season sees it; ``stats`` counts each player's places and points.

>>> from umaoka.engine import ruleset
>>> from umaoka.engine.season import Season, Stage, run_season
>>> game = {"stage": "regular", "east": "A", "south": "B", "west": "C", "north": "D",
...         "east_score": 40000, "south_score": 30000, "west_score": 20000,
...         "north_score": 10000}
>>> result = run_season(Season("Spring", stages=(Stage("regular", ruleset("mleague")),)),
...                     [game])
>>> [(line.name, str(line.total)) for line in result.stages[0].players]
[('A', '60.0'), ('B', '10.0'), ('C', '-20.0'), ('D', '-50.0')]
"""

from umaoka.engine.season.stages import (
    COMPETITIONS,
    Season,
    SeasonResult,
    SettledGames,
    Stage,
    StageResult,
    carry_points,
    carry_rounding_of,
    closest_name,
    run_season,
)

__all__ = [
    "COMPETITIONS",
    "Season",
    "SeasonResult",
    "SettledGames",
    "Stage",
    "StageResult",
    "carry_points",
    "carry_rounding_of",
    "closest_name",
    "run_season",
]
