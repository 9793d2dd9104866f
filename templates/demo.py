"""A realistic sample league, generated deterministically (seeded ``random.Random``).

Two seasons of weekly sessions, ten players, two tables a session and four games a
table; some tied scores, some leftover riichi sticks, one chombo penalty. Every game
is valid: scores are multiples of 100 that add up to 4 x start minus the deposits.

With ``season=True`` (``umaoka demo``) the two tabs are the stages of one season: a
regular season of three teams, then a final of its top four players, who carry half
their total in; chips (祝儀) in both stages, a substitute's game, a late player below the
minimum of games, and a penalty log.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from umaoka.engine.season.stages import SettledGames
from umaoka.templates.book.model import Book, Game, make_book
from umaoka.templates.book.season_book import SETTINGS, SeasonSpec, StageRow

PLAYERS = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumio", "Gin", "Hana", "Ivo", "Jun"]
PLAYERS_JA = ["秋山", "伴", "千恵", "段", "恵美", "文雄", "銀", "花", "伊央", "純"]
LEAGUES = ["Spring 2026", "Summer 2026"]
LEAGUES_JA = ["2026春", "2026夏"]
RULESET = "mleague"
GAMES_PER_TABLE = 4
TABLES = 2
#: The season demo: its stages, teams, a late joiner and a substitute.
STAGES = ["Regular 2026", "Final 2026"]
STAGES_JA = ["2026 レギュラー", "2026 ファイナル"]
TEAMS = {"Dragons": PLAYERS[:4], "Tigers": PLAYERS[4:7], "Phoenix": PLAYERS[7:]}
TEAMS_JA = {"龍": PLAYERS_JA[:4], "虎": PLAYERS_JA[4:7], "鳳凰": PLAYERS_JA[7:]}
LATE, LATE_JA = "Kou", "光"
SUB, SUB_JA = "Kei", "圭"
FINALISTS = 4
CHIP_VALUE = 2


def _scores(rng: random.Random, start: int, n: int, deposits: int) -> list[int]:
    """End-of-game points: a spread around start, whole hundreds, adding up exactly."""
    total = start * n - deposits
    while True:
        raw = [rng.gauss(0, 13000) for _ in range(n)]
        mean = sum(raw) / n
        scores = [start + round((x - mean) / 100) * 100 for x in raw]
        scores[-1] += total - sum(scores)
        if -12000 <= min(scores) and max(scores) <= 75000:
            break
    if rng.random() < 0.07:  # a tie: two players end on the same points
        i, j, k = rng.sample(range(n), 3)
        pair = scores[i] + scores[j]
        each = pair // 200 * 100
        scores[i] = scores[j] = each
        scores[k] += pair - 2 * each
    return scores


def demo_book(games: int = 120, seed: int = 2026, lang: str = "en",
              rules: str = RULESET, season: bool = False,
              settled: SettledGames | None = None) -> Book:
    """The demo league book with ``games`` games split over two seasons.

    ``rules`` (a preset or ruleset text) sets the seats and the start: scores always add
    up to start x players, and a 3-player ruleset seats three a table. ``season``: the
    two tabs are a season's stages instead (see the module's note); ``settled`` keeps the
    regular season's games as settled to find the finalists, for the run of the whole
    season that follows (see :class:`~umaoka.engine.season.stages.SettledGames`).
    """
    if season:
        return season_demo_book(games, seed, lang, rules, settled)
    rng = random.Random(seed)
    names = PLAYERS_JA if lang == "ja" else PLAYERS
    book = make_book([rules], LEAGUES_JA if lang == "ja" else LEAGUES, names, lang)
    rules = book.rules[0].ruleset
    per_league = [games - games // 2, games // 2]
    day = dt.date(2026, 4, 4)
    penalty_done = False
    for league, count in zip(book.leagues, per_league):
        session = 0
        while len(league.games) < count:
            session += 1
            seated = rng.sample(names, TABLES * rules.players)
            for table in range(TABLES):
                at_table = seated[table * rules.players:(table + 1) * rules.players]
                for number in range(1, GAMES_PER_TABLE + 1):
                    if len(league.games) >= count:
                        break
                    deposits = 1000 * rng.choice((1, 1, 2)) if rng.random() < 0.1 else 0
                    order = rng.sample(at_table, rules.players)
                    penalties: list[object] = []
                    if not penalty_done and len(league.games) == count // 3:
                        penalties = [0, -20, 0, 0][: rules.players]
                        penalty_done = True
                    league.games.append(Game(
                        date=day, session=session, table=table + 1, number=number,
                        players=order, scores=_scores(rng, rules.start, rules.players,
                                                      deposits),
                        deposits=deposits or None, penalties=penalties))
            day += dt.timedelta(days=7)
    return book



def _chips(rng: random.Random, n: int) -> list[int | None]:
    """A game's chips: now and then one player wins some from each of the others."""
    if rng.random() > 0.3:
        return [None] * n
    winner, each = rng.randrange(n), rng.choice((1, 1, 2, 3))
    return [each * (n - 1) if s == winner else -each for s in range(n)]


def season_demo_book(games: int = 120, seed: int = 2026, lang: str = "en",
                     rules: str = RULESET, settled: SettledGames | None = None) -> Book:
    """A season of two stages: about four fifths of ``games`` in the regular season, the
    rest in the final of the top four (who carry half their total)."""
    from umaoka.templates.book.season_book import season_result

    rng = random.Random(seed)
    ja = lang == "ja"
    names = PLAYERS_JA if ja else PLAYERS
    late, sub = (LATE_JA, SUB_JA) if ja else (LATE, SUB)
    teams = TEAMS_JA if ja else TEAMS
    stages = STAGES_JA if ja else STAGES
    book = make_book([rules], stages, [*names, late], lang)
    book.teams = {p: t for t, members in teams.items() for p in members}
    book.teams[late] = next(iter(teams))
    regular, final = book.leagues
    regular.chips = final.chips = regular.subs = final.subs = True
    r = book.rules[0].ruleset
    n = r.players
    count = max(1, games - games // 5)
    spec = SeasonSpec([StageRow(regular.name, FINALISTS), StageRow(final.name, None, "half")],
                      dict(SETTINGS, name="2026 シーズン" if ja else "Season 2026",
                           min_games=max(1, count * n // (len(names) * 3)),
                           chip_value=CHIP_VALUE,
                           game_caps=f"{max(1, count * n // (len(names) * 3))}-"
                                     f"{count * n * 6 // (len(names) * 5)}"))
    book.season = spec
    day = dt.date(2026, 4, 4)
    session = 0
    while len(regular.games) < count:
        session += 1
        seated = rng.sample(names, TABLES * n)
        for table in range(TABLES):
            for number in range(1, GAMES_PER_TABLE + 1):
                if len(regular.games) >= count:
                    break
                at_table = seated[table * n:(table + 1) * n]
                if len(regular.games) == count // 2 and late not in at_table:
                    at_table[0] = late  # the late joiner's only game
                regular.games.append(_game(rng, r, day, session, table + 1, number, at_table))
        day += dt.timedelta(days=7)
    # a substitute stood in for the first seat of the second game (counts for the team)
    regular.games[min(1, len(regular.games) - 1)].subs = [sub] + [None] * (n - 1)
    book.penalties = [
        {"date": regular.games[0].date, "stage": regular.name, "player": names[1],
         "team": None, "points": -10, "reason": "遅刻" if ja else "lateness"},
        {"date": regular.games[-1].date, "stage": regular.name, "player": None,
         "team": next(iter(teams)), "points": -20,
         "reason": "マナー違反" if ja else "conduct"},
    ]
    finalists = list(season_result(book, settled).stages[0].advanced) or names[:FINALISTS]
    session = 0
    for number in range(games - count):
        if number % GAMES_PER_TABLE == 0:
            session += 1
            day += dt.timedelta(days=7)
        at_table = rng.sample(finalists, min(n, len(finalists)))
        final.games.append(_game(rng, r, day, session, 1, number % GAMES_PER_TABLE + 1,
                                 at_table))
    return book


def _game(rng: random.Random, r: Any, day: dt.date, session: int, table: int, number: int,
          at_table: list[str]) -> Game:
    deposits = 1000 * rng.choice((1, 1, 2)) if rng.random() < 0.1 else 0
    order = rng.sample(at_table, r.players)
    return Game(date=day, session=session, table=table, number=number, players=order,
                scores=_scores(rng, r.start, r.players, deposits), deposits=deposits or None,
                penalties=[], chips=_chips(rng, r.players), subs=[None] * r.players)
