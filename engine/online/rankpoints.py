"""Online rank points: Tenhou dan points and Mahjong Soul rank points for one game.

Online clients move a player's rank by placement: Tenhou (tenhou.net) by place, room
and game length, with a last-place penalty that grows with the player's dan; Mahjong
Soul by place and room plus the end score, with a last-place penalty that grows with
the player's rank. A league manager types what the client shows: place (or the whole
table's raw end scores), system, room, rank, game length and players.

>>> rank_points(1, system="tenhou", room="phoenix", rank="7段", length="south").points
Decimal('90')
>>> rank_points(4, system="tenhou", room="phoenix", rank="七段").points
Decimal('-135')
>>> [p.points for p in game_rank_points([13200, 20300, 29900, 36600], "mahjongsoul", "jade",
...                                      ["Master 2", "Master 1", "Master 3", "Master 1"])]
[Decimal('-206'), Decimal('-9'), Decimal('65'), Decimal('137')]

Sources (tables and the choices made where sources disagree: :mod:`umaoka.engine.online.ranks`):
Tenhou, the riichi wiki page "Tenhou.net ranking" (riichi.wiki/Tenhou.net_ranking);
Mahjong Soul, the riichi wiki page "Majsoul" (riichi.wiki/Majsoul, section Ladder) and
amae-koromo (github.com/SAPikachu/amae-koromo, src/data/types/level.ts, metadata.ts), the
tables in use since August 2021. Checked against 1,867 recorded Mahjong Soul games of
2023-2025 (amae-koromo records kept in github.com/killerducky/mahjong_stats): every one of
their 7,467 rank-point changes comes out the same.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from umaoka.engine.errors import UmaokaError, as_repr, excerpt
from umaoka.engine.online.ranks import (
    SOUL_CELESTIAL,
    SOUL_LAST,
    SOUL_ROOM,
    SOUL_ROOM_RANKS,
    SOUL_START,
    SOUL_TIERS,
    SOUL_UMA,
    TENHOU_DANS,
    TENHOU_LAST,
    TENHOU_PLACE,
    _choice,
    player_count,
    soul_rank,
    soul_rank_name,
    soul_tier,
    tenhou_dan,
)
from umaoka.engine.typed_numbers import NumberError, read_number


def _whole(value: Any, what: str, example: str) -> int:
    """A whole number typed in a cell (1.0 from Excel, "1st", "32,400")."""
    if type(value) is int and abs(value) <= 10**9:
        return value
    if isinstance(value, bool) or value is None:
        raise UmaokaError(f"{what} is {'blank' if value is None else value}; enter {example}.")
    text = value if isinstance(value, (int, float, Decimal)) else re.sub(
        r"(?<=\d)(st|nd|rd|th|位)$", "", unicodedata.normalize("NFKC", str(value)).strip().lower())
    try:  # bounded by its exponent before any arithmetic: 1e9999999 costs nothing
        number = read_number(text, what, f"enter {example}", 10**9 + 1)
    except NumberError as e:
        word = "is far too large" if e.kind == "large" else "is not a whole number"
        raise UmaokaError(f'{what} ("{excerpt(value)}") {word}; enter {example}.') from None
    if number != number.to_integral_value():  # exact: the number is bounded
        raise UmaokaError(f'{what} ("{excerpt(value)}") is not a whole number; enter {example}.')
    return int(number)


def _place(value: Any, players: int) -> int:
    place = _whole(value, "place", f"a place from 1 to {players}")
    if not 1 <= place <= players:
        raise UmaokaError(f"place {place} does not exist with {players} players; enter a "
                          f"place from 1 to {players}.")
    return place


@dataclass(frozen=True)
class RankPoints:
    """One player's rank points from one game, with each part (exact decimals).

    ``points = place_points + score_points + penalty``; ``penalty`` is 0 or negative.
    ``unit`` is "pt", or "SP" (Soul Points) for Mahjong Soul's Celestial.
    """

    system: str
    room: str
    rank: str
    length: str
    players: int
    place: int
    score: int | None
    place_points: Decimal
    uma: Decimal
    score_points: Decimal
    penalty: Decimal
    points: Decimal
    unit: str = "pt"

    def explain(self) -> str:
        """One line: where each point comes from."""
        client = "Tenhou" if self.system == "tenhou" else "Mahjong Soul"
        where = (f"{client} {self.room} room, {self.length}, {self.players} players, "
                 f"{self.rank}, place {self.place}")
        if self.unit == "SP":
            return f"{where}: {_signed(self.points)} SP by place"
        parts = [f"room {_signed(self.place_points)}"]
        if self.system == "mahjongsoul" and self.score is not None:
            start = SOUL_START[self.players]
            exact = Decimal(self.score - start) / 1000 + self.uma
            parts.append(f"({self.score:,} - {start:,})/1000 + uma {self.uma} = {exact}, "
                         f"rounded up {_signed(self.score_points)}")
        if self.penalty:
            parts.append(f"last place {self.penalty}")
        return f"{where}: {', '.join(parts)} -> {_signed(self.points)}"


def _signed(value: Decimal) -> str:
    return f"{value:+}" if value else "0"


def rank_points(place: Any, score: Any = None, system: Any = "tenhou", room: Any = None,
                rank: Any = None, length: Any = "south", players: Any = 4,
                all_celestial: bool = False) -> RankPoints:
    """Rank points of one player from one game.

    ``place`` 1 = top; ``score`` the raw end score (needed by Mahjong Soul, ignored by
    Tenhou); ``system`` tenhou or mahjongsoul; ``room``; ``rank`` the player's Tenhou dan
    (七段, 7dan, 2級, 新人, 天鳳位) or Mahjong Soul rank ("Expert 2", 雀傑2, E2, Celestial);
    ``length`` east (東風) or south (hanchan, 半荘); ``players`` 4 or 3;
    ``all_celestial``: every player at the table is Celestial (doubles Soul Points).

    >>> rank_points(2, system="tenhou", room="expert", rank="5dan", length="east").points
    Decimal('20')
    >>> p = rank_points(1, 41200, "mahjongsoul", "gold", "Expert 3")
    >>> p.place_points, p.score_points, p.penalty, p.points
    (Decimal('80'), Decimal('32'), Decimal('0'), Decimal('112'))
    >>> print(p.explain())
    Mahjong Soul gold room, ... (41,200 - 25,000)/1000 + uma 15 = 31.2, rounded up +32 -> +112
    """
    sys_ = _choice("system", system, "system")
    n = player_count(players)
    south = _choice("length", length, "length") == "south"
    length_name = "south" if south else "east"
    pos = _place(place, n)
    blank = score is None or score == ""
    raw = None if blank else _whole(score, "score", "raw points such as 32400")
    zero = Decimal(0)
    if sys_ == "tenhou":
        where = _choice("room", room, "tenhou room")
        dan = tenhou_dan(rank)
        first, second = TENHOU_PLACE[n][where]
        gain = {1: first, 2: second}.get(pos, 0) if dan < 20 else 0  # 天鳳位 keeps no points
        last = TENHOU_LAST[dan] if pos == n else 0
        if south:  # a hanchan moves 1.5 times the points (every table value is a multiple of 10)
            gain, last = gain * 3 // 2, last * 3 // 2
        return RankPoints(sys_, where, TENHOU_DANS[dan], length_name, n, pos, raw,
                          Decimal(gain), zero, zero, Decimal(-last), Decimal(gain - last))
    where = _choice("room", room, "soul room")
    tier, level = soul_rank(rank)
    name = soul_rank_name(tier, level)
    if SOUL_TIERS[tier] not in SOUL_ROOM_RANKS[where]:
        allowed = " and ".join(SOUL_ROOM_RANKS[where])
        article = "an" if name[:1] in "AEIOU" else "a"
        raise UmaokaError(f"{article} {name} player cannot play in the {where} room, which is for "
                          f"{allowed}; check the room or the rank.")
    if tier == 5:
        sp = Decimal(SOUL_CELESTIAL[n][south][pos - 1]) * (2 if all_celestial else 1)
        return RankPoints(sys_, where, name, length_name, n, pos, raw, sp, zero, zero, zero,
                          sp, "SP")
    if raw is None:
        raise UmaokaError("Mahjong Soul rank points need the player's raw end score as well as "
                          "the place; enter the score (e.g. 32400).")
    uma = SOUL_UMA[n][pos - 1]
    # ceil((score - start)/1000 + uma) in whole points: -((-x) // 1000) rounds x/1000 up exactly
    score_points = -((SOUL_START[n] - raw - uma * 1000) // 1000)
    bonus = SOUL_ROOM[n][where][south][pos - 1]
    last = SOUL_LAST[n][south][tier * 3 + level - 1] if pos == n else 0
    return RankPoints(sys_, where, name, length_name, n, pos, raw, Decimal(bonus), Decimal(uma),
                      Decimal(score_points), Decimal(-last), Decimal(bonus + score_points - last))


def _is_places(values: Sequence[Any], n: int) -> bool:
    try:
        return all(1 <= _whole(v, "place", "") <= n for v in values)
    except UmaokaError:
        return False


def _scores(values: Sequence[Any], n: int) -> list[int]:
    raw = [_whole(v, f"score {i + 1}", "raw points such as 32400") for i, v in enumerate(values)]
    start = SOUL_START[n]  # Tenhou starts at the same 25,000 (35,000 with 3 players)
    if sum(raw) != n * start:
        raise UmaokaError(f"scores add up to {sum(raw):,} but {n} x {start:,} = {n * start:,}; "
                          "fix a score (leftover riichi sticks belong in 1st's score).")
    return raw


def game_rank_points(results: Sequence[Any], system: Any = "tenhou", room: Any = None,
                     ranks: Any = None, length: Any = "south", players: Any = 4,
                     scores: Sequence[Any] | None = None) -> tuple[RankPoints, ...]:
    """Rank points of every player at one table, in seat order (East first).

    ``results`` is the table's places (each once) or its raw end scores, which give the
    places (equal scores: the earlier seat ranks higher, as both clients do) and, for
    Mahjong Soul, the score part. ``ranks`` is one rank for everybody or one per seat;
    ``scores`` gives the raw scores when ``results`` holds places. Soul Points double
    when every player is Celestial.

    >>> [str(p.points) for p in game_rank_points([1, 2, 3, 4], "tenhou", "upper", "初段")]
    ['60', '15', '0', '-45']
    """
    n = player_count(players)
    values = list(results)
    if len(values) != n:
        raise UmaokaError(f"expected {n} results (one per player, in seat order) but got "
                          f"{len(values)}; enter {n} places or {n} raw scores.")
    rank_list = list(ranks) if isinstance(ranks, (list, tuple)) else [ranks] * n
    if len(rank_list) != n:
        raise UmaokaError(f"expected one rank for everybody or {n} ranks (one per seat) but got "
                          f"{len(rank_list)}; enter {n} ranks in seat order.")
    raw: list[int] | None = None
    if _is_places(values, n):
        places = [_whole(v, "place", "") for v in values]
        if sorted(places) != list(range(1, n + 1)):
            raise UmaokaError(f"places {', '.join(map(str, places))} do not give each place "
                              f"once; online games break ties by seat, so enter 1 to {n} once "
                              "each.")
        if scores is not None:
            if isinstance(scores, (str, bytes)) or not isinstance(scores, Iterable):
                raise UmaokaError(f"scores must be {n} raw scores, one per player in seat order, "
                                  f"but got the single value {excerpt(as_repr(scores))}; give the "
                                  "table's raw scores in the shape of results, or leave scores "
                                  "out.")
            score_list = list(scores)
            if len(score_list) != n:
                raise UmaokaError(f"expected {n} scores (one per player, in seat order) but "
                                  f"got {len(score_list)}; enter {n} raw scores.")
            raw = _scores(score_list, n)
    else:
        raw = _scores(values, n)
        places = []
    if raw is not None:
        order = sorted(range(n), key=lambda s: (-raw[s], s))
        by_score = [order.index(s) + 1 for s in range(n)]
        if places and places != by_score:
            raise UmaokaError(f"places {', '.join(map(str, places))} do not match the scores "
                              "(higher score, better place; equal scores, earlier seat); fix a "
                              "place or a score.")
        places = by_score
    all_celestial = _choice("system", system, "system") == "mahjongsoul" and all(
        soul_tier(r) == 5 for r in rank_list)
    return tuple(rank_points(places[s], None if raw is None else raw[s], system, room,
                             rank_list[s], length, n, all_celestial) for s in range(n))


@dataclass(frozen=True)
class RankPointRule:
    """Rank points for league standings: one system, room and length, each player's rank.

    Called with (names, raw points or None, places) it gives each seat's points: from the
    raw points when known (places by score, equal scores to the earlier seat), else from
    the places (Tenhou and Celestial only). Make one with :func:`rank_point_rule`.
    """

    system: str
    room: str
    length: str
    players: int
    rank: str | None  # everybody's rank, or None when ranks maps each player's name
    ranks: tuple[tuple[str, str], ...] = ()

    def __call__(self, names: Sequence[str], raw: Sequence[int] | None,
                 places: Sequence[int]) -> tuple[Decimal, ...]:
        by_name = dict(self.ranks)
        missing = [n for n in names if self.rank is None and n not in by_name]
        if missing:
            raise UmaokaError(f"there is no rank for {', '.join(missing)}; add each player's "
                              "rank (e.g. Aki=七段).")
        ranks = [self.rank if self.rank is not None else by_name[n] for n in names]
        results = list(places) if raw is None else list(raw)
        return tuple(p.points for p in game_rank_points(
            results, self.system, self.room, ranks, self.length, self.players))


def rank_point_rule(system: Any, room: Any, rank: Any, length: Any = "south",
                    players: Any = 4) -> RankPointRule:
    """A :class:`RankPointRule`, checked now: ``rank`` is one rank for everybody or a mapping
    of player name to rank (the text ``"Aki=七段, Ben=六段"`` works too).

    >>> from umaoka.engine import settle, standings
    >>> rule = rank_point_rule("tenhou", "phoenix", "Aki=七段, Ben=八段, Chie=七段, Dan=九段")
    >>> game = (["Aki", "Ben", "Chie", "Dan"], settle([35700, 32400, 22200, 9700]))
    >>> [f"{p.name} {p.rank_points}" for p in standings([game, game], rank_points=rule)]
    ['Aki 180', 'Ben 90', 'Chie 0', 'Dan -330']
    """
    n = player_count(players)
    sys_ = _choice("system", system, "system")
    where = _choice("room", room, "tenhou room" if sys_ == "tenhou" else "soul room")
    how_long = _choice("length", length, "length")
    check = tenhou_dan if sys_ == "tenhou" else soul_rank
    if isinstance(rank, str) and "=" in rank:
        pairs = [part.split("=", 1) for part in re.split(r"[,;\n]", rank) if part.strip()]
        if any(len(pair) != 2 for pair in pairs):
            raise UmaokaError(f'ranks "{rank}" must be name=rank pairs such as "Aki=七段, '
                              'Ben=六段".')
        rank = {name.strip(): value.strip() for name, value in pairs}
    if isinstance(rank, Mapping):
        for value in rank.values():
            check(value)
        mapping = tuple((str(k).strip(), str(v)) for k, v in rank.items())
        return RankPointRule(sys_, where, how_long, n, None, mapping)
    check(rank)
    return RankPointRule(sys_, where, how_long, n, str(rank))
