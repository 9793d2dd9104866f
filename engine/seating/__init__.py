"""Seating: who sits at which table in each round.

``plan`` draws a season's or a tournament's tables (sit-outs, pairs to keep apart,
fixed seats); ``designs`` holds the perfect and best known designs it starts from;
``draw`` is the search that evens out who meets whom; ``nights`` seats a season one
night at a time on top of who already met.

>>> from umaoka.engine.seating import schedule
>>> drawn = schedule(16, 5, seed=1)
>>> drawn.rounds, drawn.method
(5, 'affine plane AG(2,4)')
"""

from umaoka.engine.seating.plan import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_STEPS,
    Pin,
    Schedule,
    Table,
    parse_avoid,
    parse_pins,
    player_names,
    schedule,
)

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_STEPS",
    "Pin",
    "Schedule",
    "Table",
    "parse_avoid",
    "parse_pins",
    "player_names",
    "schedule",
]
