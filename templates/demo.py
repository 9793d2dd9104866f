"""A realistic sample league, generated deterministically (seeded ``random.Random``).

Two seasons of weekly sessions, ten players, two tables a session and four games a
table; some tied scores, some leftover riichi sticks, one chombo penalty. Every game
is valid: scores are multiples of 100 that add up to 4 x start minus the deposits.
"""

from __future__ import annotations

import datetime as dt
import random

from .model import Book, Game, make_book

PLAYERS = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumio", "Gin", "Hana", "Ivo", "Jun"]
PLAYERS_JA = ["秋山", "伴", "千恵", "段", "恵美", "文雄", "銀", "花", "伊央", "純"]
LEAGUES = ["Spring 2026", "Summer 2026"]
LEAGUES_JA = ["2026春", "2026夏"]
RULESET = "mleague"
GAMES_PER_TABLE = 4
TABLES = 2


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
              rules: str = RULESET) -> Book:
    """The demo league book with ``games`` games split over two seasons.

    ``rules`` (a preset or ruleset text) sets the seats and the start: scores always add
    up to start x players, and a 3-player ruleset seats three a table.
    """
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

