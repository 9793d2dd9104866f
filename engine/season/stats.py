"""Player statistics beyond the standings: 連対率, トビ率, 平均素点, best games, streaks,
and head-to-head records.

Games are given as for :func:`standings`: ``(names, Settlement)``, ``(names, finals)``,
``(names, finals, places)``, or ``(names, finals, places, raw_scores)``, names in the
order of the scores; games count in the order given (for streaks and "game numbers").
Raw scores come from a Settlement (the points as entered) or the fourth item; games
without them (results settled by a platform) leave the raw-score figures out.

Definitions:

- **top-two rate** (連対率): share of games finished 1st or 2nd.
- **bust rate** (トビ率): share of the games with known raw scores that ended below 0.
- **average raw score** (平均素点): mean of the raw end scores, as entered (before
  leftover riichi sticks go to 1st), over the games that have them.
- **highest raw score** (最高素点): the highest raw end score as entered, over the same
  games.
- **best / worst game**: highest and lowest final score, with the number of that game
  (from 1, in the order given; the earliest on equal scores).
- **streaks**: the longest runs of a player's own consecutive games finishing 1st
  (連続トップ), 1st or 2nd (連続連対), and not last (連続ラス回避).
- **shared places** (``shared_place``, the ruleset's field, default ``better``): a place
  shared by tied players counts as the better place (tied for 3rd-4th: 3rd), the worse
  place (4th), or split (half a 3rd, half a 4th), in the top-two rate and the average
  place difference as in the standings; a streak goes on through a split place only
  when every place shared meets it (tied for 3rd-4th breaks a no-last streak).
- **head-to-head** (A against B, over the games both played at one table): games,
  games A finished above B ("ahead") and below B ("behind"), the average place
  difference (B's place minus A's: positive when A usually finishes higher) and the
  points difference, the sum of A's final minus B's final (so B against A is the
  negative).

>>> from umaoka.engine import settle
>>> g1 = (["Aki", "Ben", "Chie", "Dan"], settle([35700, 32400, 32200, -300]))
>>> g2 = (["Ben", "Aki", "Dan", "Chie"], settle([40000, 30000, 20000, 10000]))
>>> aki = {p.name: p for p in player_stats([g1, g2])}["Aki"]
>>> aki.top_two_rate, aki.average_raw, aki.top_streak, aki.top_two_streak
(Decimal('1.0000'), Decimal('32850.00'), 1, 2)
>>> {p.name: p.bust_rate for p in player_stats([g1, g2])}["Dan"]
Decimal('0.5000')
>>> h = head_to_head([g1, g2], "Aki")[0]
>>> h.opponent, h.games, h.ahead, h.behind, h.place_diff, h.points
('Ben', 2, 1, 1, Decimal('0.00'), Decimal('-6'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from umaoka.engine.errors import UmaokaError
from umaoka.engine.settle import Settlement
from umaoka.engine.standings import _game as _standings_game
from umaoka.engine.standings import check_shared_place, place_spans

_TWO = Decimal("0.01")
_FOUR = Decimal("0.0001")

STATS_HEADER = ("Player", "Games", "Total", "Top-two rate", "Bust rate", "Average raw",
                "Best", "Best game", "Worst", "Worst game", "Top streak", "Top-two streak",
                "No-last streak", "Highest raw")


@dataclass(frozen=True, slots=True)  # many per league: no __dict__ each
class GameRecord:
    """One game as the statistics see it: names, finals, places, raw scores if known."""

    names: tuple[str, ...]
    finals: tuple[Decimal, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...] | None = None


def records(games: Iterable[Any]) -> list[GameRecord]:
    """Games in any of the accepted shapes (see the module help), checked, as records."""
    return [g if isinstance(g, GameRecord) else _record(g, index)
            for index, g in enumerate(games, 1)]


def _record(game: Any, index: int) -> GameRecord:
    if not isinstance(game, (tuple, list)) or len(game) not in (2, 3, 4):
        raise UmaokaError(f"game {index} must be (names, result), (names, finals, places) or "
                          "(names, finals, places, raw scores).")
    # Names, finals and places are checked as the standings check them.
    head = game[:3] if len(game) >= 3 and game[2] is not None else game[:2]
    names, finals, places = _standings_game(head, index)
    scores = None
    if isinstance(game[1], Settlement):
        scores = game[1].scores
    elif len(game) == 4 and game[3] is not None:
        scores = tuple(int(s) for s in game[3])
    if len(places) != len(finals) or (scores is not None and len(scores) != len(finals)):
        raise UmaokaError(f"game {index} has {len(names)} player names for {len(finals)} "
                          "final scores; give one name, place and score per player.")
    return GameRecord(tuple(names), tuple(finals), tuple(places), scores)


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures (rates to 0.0001, the average raw score to 0.01 points)."""

    name: str
    games: int
    total: Decimal
    top_two_rate: Decimal
    raw_games: int  # games with known raw scores
    busts: int
    bust_rate: Decimal | None  # None without raw scores
    average_raw: Decimal | None
    best: Decimal
    best_game: int
    worst: Decimal
    worst_game: int
    top_streak: int
    top_two_streak: int
    no_last_streak: int
    best_raw: int | None = None  # the highest raw score; None without raw scores

    def row(self) -> list[Any]:
        return [self.name, self.games, self.total, self.top_two_rate, self.bust_rate,
                self.average_raw, self.best, self.best_game, self.worst, self.worst_game,
                self.top_streak, self.top_two_streak, self.no_last_streak, self.best_raw]


class _Run:
    """The current and the longest run of games meeting a condition."""

    __slots__ = ("now", "best")

    def __init__(self) -> None:
        self.now = self.best = 0

    def add(self, ok: bool) -> None:
        self.now = self.now + 1 if ok else 0
        self.best = max(self.best, self.now)


def _spans(places: tuple[int, ...], rule: str) -> list[tuple[int, int]]:
    """Each seat's (best, worst) place as ``rule`` counts them: a place held alone is
    (p, p); ``better`` and ``worse`` make a shared place one place, ``split`` keeps it."""
    if len(set(places)) == len(places):
        return [(p, p) for p in places]
    spans = place_spans(places)
    if rule == "better":
        return [(lo, lo) for lo, _ in spans]
    if rule == "worse":
        return [(hi, hi) for _, hi in spans]
    return spans


def _share(lo: int, hi: int, best: int) -> Fraction:
    """The share of a game a player finished in places ``1..best`` (split over lo..hi)."""
    return Fraction(max(0, min(hi, best) - lo + 1), hi - lo + 1)


def player_stats(games: Iterable[Any], shared_place: str = "better") -> list[PlayerStats]:
    """Each player's figures (see the module help), sorted by total, best first;
    ``shared_place``: how a place shared by tied players counts."""
    rule = check_shared_place(shared_place)
    acc: dict[str, dict[str, Any]] = {}
    for number, g in enumerate(records(games), 1):
        last = len(g.places)
        spans = _spans(g.places, rule)
        for i, name in enumerate(g.names):
            a = acc.get(name)
            if a is None:
                a = acc[name] = {"games": 0, "total": Decimal(0), "top_two": 0, "raw": 0,
                                 "raw_sum": 0, "busts": 0, "raw_best": None,
                                 "best": (g.finals[i], number), "worst": (g.finals[i], number),
                                 "runs": (_Run(), _Run(), _Run())}
            (place, worst), final = spans[i], g.finals[i]
            a["games"] += 1
            a["total"] += final
            a["top_two"] += place <= 2 if place == worst else _share(place, worst, 2)
            if g.scores is not None:
                a["raw"] += 1
                a["raw_sum"] += g.scores[i]
                a["busts"] += g.scores[i] < 0
                if a["raw_best"] is None or g.scores[i] > a["raw_best"]:
                    a["raw_best"] = g.scores[i]
            if final > a["best"][0]:
                a["best"] = (final, number)
            if final < a["worst"][0]:
                a["worst"] = (final, number)
            top, top_two, no_last = a["runs"]
            top.add(worst == 1)
            top_two.add(worst <= 2)
            no_last.add(worst != last)
    out = []
    for name, a in acc.items():
        n, raw = Decimal(a["games"]), a["raw"]
        out.append(PlayerStats(
            name=name, games=a["games"], total=a["total"],
            top_two_rate=(Decimal(Fraction(a["top_two"]).numerator)
                          / (Fraction(a["top_two"]).denominator * n)).quantize(
                _FOUR, ROUND_HALF_UP),
            raw_games=raw, busts=a["busts"],
            bust_rate=(Decimal(a["busts"]) / raw).quantize(_FOUR, ROUND_HALF_UP) if raw else None,
            average_raw=(Decimal(a["raw_sum"]) / raw).quantize(_TWO, ROUND_HALF_UP)
            if raw else None,
            best=a["best"][0], best_game=a["best"][1],
            worst=a["worst"][0], worst_game=a["worst"][1],
            top_streak=a["runs"][0].best, top_two_streak=a["runs"][1].best,
            no_last_streak=a["runs"][2].best, best_raw=a["raw_best"]))
    out.sort(key=lambda p: (-p.total, p.name))
    return out


@dataclass(frozen=True)
class HeadToHead:
    """``player`` against ``opponent`` over the games they shared (see the module help)."""

    player: str
    opponent: str
    games: int
    ahead: int
    behind: int
    place_diff: Decimal  # average of opponent's place minus player's place, to 0.01
    points: Decimal  # sum of player's final minus opponent's final (exact)


def head_to_head(games: Iterable[Any], player: str | None = None,
                 shared_place: str = "better") -> list[HeadToHead]:
    """Head-to-head records: ``player`` against each opponent (most games first), or, with
    no player, every pair once (the pair's first-listed player in the order of first
    appearance); ``shared_place``: how a shared place counts in the place difference."""
    rule = check_shared_place(shared_place)
    pairs: dict[tuple[str, str], list[Any]] = {}
    seen: dict[str, int] = {}
    for g in records(games):
        counted = [Fraction(lo + hi, 2) for lo, hi in _spans(g.places, rule)]
        for name in g.names:
            seen.setdefault(name, len(seen))
        for i, a in enumerate(g.names):
            if player is not None and a != player:
                continue
            for j, b in enumerate(g.names):
                # only the pairs given back: the player's, or each pair in the order of
                # first appearance (known already: every name of the game is seen)
                if i != j and (player is not None or seen[a] <= seen[b]):
                    acc = pairs.setdefault((a, b), [0, 0, 0, Fraction(0), Decimal(0)])
                    acc[0] += 1
                    acc[1] += g.places[i] < g.places[j]
                    acc[2] += g.places[i] > g.places[j]
                    acc[3] += counted[j] - counted[i]
                    acc[4] += g.finals[i] - g.finals[j]
    if player is not None and player not in seen:
        raise UmaokaError(f'"{player}" played no game here; check the spelling.')
    out = []
    for (a, b), (n, ahead, behind, diff, points) in pairs.items():
        if (a == player) if player is not None else seen[a] < seen[b]:
            diff /= n
            out.append(HeadToHead(a, b, n, ahead, behind,
                                  (Decimal(diff.numerator) / diff.denominator).quantize(
                                      _TWO, ROUND_HALF_UP), points))
    out.sort(key=lambda h: (-h.games, seen[h.player], seen[h.opponent]))
    return out


def stats_table(rows: Sequence[PlayerStats]) -> list[list[Any]]:
    """A header row and one row per player."""
    return [list(STATS_HEADER)] + [p.row() for p in rows]
