"""Online ranks: Tenhou dans, Mahjong Soul ranks, their rooms and rank-point tables.

How a league manager may write each name (七段, 7dan, "Expert 2", 雀傑2, E2, 鳳凰, phoenix,
半荘, hanchan...) and the tables :mod:`umaoka.engine.online.rankpoints` computes with.

>>> TENHOU_DANS[tenhou_dan("7dan")], soul_rank_name(*soul_rank("雀傑★2"))
('七段', 'Expert 2')

**Tenhou**, from the riichi wiki page "Tenhou.net ranking" (riichi.wiki/Tenhou.net_ranking,
as exported in August 2020; a later revision shows the same tables); the hanchan values and
the kyu/dan rules agree with mahjong-dora2.com's 天鳳 page and Japanese Wikipedia's 天鳳
article. East-only (東風戦) values below; a hanchan (東南戦) gives 1.5 times each of them.

* 1st / 2nd by room, 4 players: general (一般) +20/+10, upper (上級) +40/+10, expert (特上)
  +50/+20, phoenix (鳳凰) +60/+30; 3rd 0. 3 players: 1st +30/+50/+70/+90, 2nd 0.
* Last place (4th, or 3rd in sanma) by dan: 新人 to 3級 0, 2級 -10, 1級 -20, 初段 -30,
  then -10 per dan up to 十段 -120. 天鳳位 is the top rank and keeps no points (0).
* Which room a dan may enter (and the R rating it needs) is not checked: it changed over
  the years, and the points depend on the room and the dan separately.

**Mahjong Soul**, the tables in use since the Celestial rework of August 2021, from the
riichi wiki page "Majsoul" (riichi.wiki/Majsoul, section Ladder: the tables as exported in
August 2020, and the revisions of August 2021 for Celestial) and amae-koromo
(github.com/SAPikachu/amae-koromo, src/data/types/level.ts and metadata.ts, 2025):

* points = ceil((score - start) / 1000 + uma) + room points - last-place penalty, where
  start is 25,000 (35,000 with 3 players), uma +15/+5/-5/-15 (3 players +15/0/-15), and
  the total is rounded up to a whole point (+68.2 -> +69, -1.9 -> -1).
* Room points, east / south: bronze 1st +10/+20, 2nd +5/+10; silver +20/+40, +10/+20;
  gold +40/+80, +20/+40; jade +55/+110, +30/+55; throne +60/+120, +30/+60; 3rd and 4th 0.
  3 players, 1st only: bronze +15/+30, silver +30/+60, gold +55/+105, jade +75/+160,
  throne +120/+240.
* Jade south 2nd: the wiki's table says +60, amae-koromo says +55; we use +55 because the
  recorded games agree (a 2nd place on 29,900 got 65 = ceil(4.9 + 5) + 55).
* Last-place penalty by rank, east / south: Novice 0; Adept 1-3 10/20, 20/40, 30/60;
  Expert 40/80, 50/100, 60/120; Master 80/165, 90/180, 100/195; Saint 110/210, 120/225,
  130/240. 3 players from Master 2: 95/190, 110/215, 125/240, 140/265, 160/290.
* Rooms by rank: bronze Novice-Adept, silver Adept-Expert, gold Expert-Master, jade
  Master-Saint, throne Saint-Celestial (checked: the client enforces it).
* Celestial counts Soul Points (SP) by place only: east +0.3/+0.1/-0.1/-0.3, south
  +0.5/+0.2/-0.2/-0.5 (3 players +0.3/0/-0.3 and +0.5/0/-0.5, from amae-koromo), doubled
  when every player at the table is Celestial. Before August 2021 Celestial had ordinary
  points and a last-place penalty of 140/255; that era is not implemented.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache, wraps
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt
from umaoka.engine.rules import _closest, _unknown_value


def _cached(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Remember what a typed name means: a league sheet repeats the same few names."""
    cached = lru_cache(maxsize=1024)(fn)

    @wraps(fn)
    def lookup(*args: Any) -> Any:
        try:
            hash(args)
        except TypeError:  # a list where a name belongs: the function says what is wrong
            return fn(*args)
        return cached(*args)

    return lookup


SYSTEMS = ("tenhou", "mahjongsoul")
LENGTHS = ("east", "south")
TENHOU_ROOMS = ("general", "upper", "expert", "phoenix")
SOUL_ROOMS = ("bronze", "silver", "gold", "jade", "throne")

#: Tenhou's dans, lowest first (index 0-20), as tenhou.net writes them.
TENHOU_DANS = ("新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級", "初段",
               "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳位")
#: East-only 1st/2nd points by room, 4 and 3 players (a hanchan gives 1.5 times these).
TENHOU_PLACE = {4: {"general": (20, 10), "upper": (40, 10), "expert": (50, 20),
                    "phoenix": (60, 30)},
                3: {"general": (30, 0), "upper": (50, 0), "expert": (70, 0),
                    "phoenix": (90, 0)}}
#: East-only last-place penalty by dan (index as TENHOU_DANS; 天鳳位 has no points).
TENHOU_LAST = (0, 0, 0, 0, 0, 0, 0, 0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 0)
#: Points to promote from each dan (the points start at 0 below 初段, at dan x 200 from it).
TENHOU_PROMOTE = {4: (20, 20, 20, 20, 40, 60, 80, 100, 100, 100),
                  3: (30, 30, 30, 60, 60, 60, 90, 100, 100, 100)}

SOUL_TIERS = ("Novice", "Adept", "Expert", "Master", "Saint", "Celestial")
SOUL_START = {4: 25000, 3: 35000}
SOUL_UMA = {4: (15, 5, -5, -15), 3: (15, 0, -15)}
#: Room points by place (east, south), 4 and 3 players.
SOUL_ROOM = {4: {"bronze": ((10, 5, 0, 0), (20, 10, 0, 0)),
                 "silver": ((20, 10, 0, 0), (40, 20, 0, 0)),
                 "gold": ((40, 20, 0, 0), (80, 40, 0, 0)),
                 "jade": ((55, 30, 0, 0), (110, 55, 0, 0)),
                 "throne": ((60, 30, 0, 0), (120, 60, 0, 0))},
             3: {"bronze": ((15, 0, 0), (30, 0, 0)), "silver": ((30, 0, 0), (60, 0, 0)),
                 "gold": ((55, 0, 0), (105, 0, 0)), "jade": ((75, 0, 0), (160, 0, 0)),
                 "throne": ((120, 0, 0), (240, 0, 0))}}
#: Last-place penalty (east, south) for Novice 1 ... Saint 3 (index tier x 3 + level - 1).
SOUL_LAST = {4: ((0, 0, 0, 10, 20, 30, 40, 50, 60, 80, 90, 100, 110, 120, 130),
                 (0, 0, 0, 20, 40, 60, 80, 100, 120, 165, 180, 195, 210, 225, 240)),
             3: ((0, 0, 0, 10, 20, 30, 40, 50, 60, 80, 95, 110, 125, 140, 160),
                 (0, 0, 0, 20, 40, 60, 80, 100, 120, 165, 190, 215, 240, 265, 290))}
#: Points to promote from Novice 1 ... Saint 3 (the points start at half of it from Adept).
SOUL_PROMOTE = (20, 80, 200, 600, 800, 1000, 1200, 1400, 2000, 2800, 3200, 3600, 4000, 6000,
                9000)
#: Celestial Soul Points by place (east, south).
SOUL_CELESTIAL = {4: (("0.3", "0.1", "-0.1", "-0.3"), ("0.5", "0.2", "-0.2", "-0.5")),
                  3: (("0.3", "0", "-0.3"), ("0.5", "0", "-0.5"))}
SOUL_ROOM_RANKS = {"bronze": ("Novice", "Adept"), "silver": ("Adept", "Expert"),
                   "gold": ("Expert", "Master"), "jade": ("Master", "Saint"),
                   "throne": ("Saint", "Celestial")}

_ALIASES = {
    "system": {"tenhou": "tenhou", "tenhou.net": "tenhou", "天鳳": "tenhou", "天凤": "tenhou",
               "mahjongsoul": "mahjongsoul", "majsoul": "mahjongsoul", "jantama": "mahjongsoul",
               "mjs": "mahjongsoul", "雀魂": "mahjongsoul"},
    "length": {"east": "east", "e": "east", "tonpuu": "east", "tonpuusen": "east",
               "tonpu": "east", "tonpusen": "east", "eastonly": "east", "quarter": "east",
               "東": "east", "東風": "east", "東風戦": "east", "东风": "east", "四人东": "east",
               "south": "south", "s": "south", "hanchan": "south", "eastsouth": "south",
               "half": "south", "半荘": "south", "半荘戦": "south", "東南": "south",
               "東南戦": "south", "半庄": "south", "东南": "south", "南": "south"},
    "players": {"4": 4, "4p": 4, "yonma": 4, "四麻": 4, "四人": 4, "3": 3, "3p": 3,
                "sanma": 3, "三麻": 3, "三人": 3},
    "tenhou room": {"general": "general", "ippan": "general", "一般": "general",
                    "upper": "upper", "joukyuu": "upper", "jokyu": "upper", "上級": "upper",
                    "expert": "expert", "tokujou": "expert", "tokujo": "expert",
                    "特上": "expert", "phoenix": "phoenix", "houou": "phoenix",
                    "hooh": "phoenix", "鳳凰": "phoenix"},
    "soul room": {"bronze": "bronze", "copper": "bronze", "銅": "bronze", "铜": "bronze",
                  "silver": "silver", "銀": "silver", "银": "silver", "gold": "gold",
                  "金": "gold", "jade": "jade", "玉": "jade", "throne": "throne",
                  "王座": "throne"},
    "tier": {"novice": 0, "n": 0, "shoshin": 0, "初心": 0, "adept": 1, "a": 1, "janshi": 1,
             "雀士": 1, "expert": 2, "e": 2, "janketsu": 2, "雀傑": 2, "雀杰": 2, "master": 3,
             "m": 3, "jangou": 3, "jango": 3, "雀豪": 3, "saint": 4, "s": 4, "jansei": 4,
             "雀聖": 4, "雀圣": 4, "celestial": 5, "c": 5, "tamaten": 5, "konten": 5, "魂天": 5},
}
_KANJI = {k: i for i, k in enumerate("一二三四五六七八九十", 1)}
_ROMAN = {"i": 1, "ii": 2, "iii": 3}


def _text(value: Any) -> str:
    """A typed name as a lookup key: full-width folded, lower case, no spaces or dashes."""
    text = unicodedata.normalize("NFKC", "" if value is None else as_text(value)).strip().lower()
    return re.sub(r"[\s\-_.]+", "", text)


_LABELS = {
    "system": "tenhou (天鳳), mahjongsoul (雀魂)",
    "length": "east (東風, tonpuusen), south (半荘, hanchan)",
    "tenhou room": "general (一般, ippan), upper (上級, joukyuu), expert (特上, tokujou), "
                   "phoenix (鳳凰, houou)",
    "soul room": "bronze (銅), silver (銀), gold (金), jade (玉), throne (王座)",
}


@_cached
def _choice(key: str, value: Any, table: str) -> Any:
    """A name typed in any of its spellings, as the canonical value (or one clear error)."""
    text = _text(value)
    for suffix in ("room", "の間", "之间", "之間", "卓"):
        if table.endswith("room") and text.endswith(suffix) and text != suffix:
            text = text[: -len(suffix)]
    found = _ALIASES[table].get(text)
    if found is None:
        said = f'cannot be "{excerpt(value)}"' if text else "is blank"
        home = room_system(value) if table.endswith("room") else None
        if home is not None:  # "jade" while the system is tenhou: say which system it needs
            raise UmaokaError(f'{key} "{excerpt(value)}" is a {_CLIENTS[home]} room; give the '
                              f"system {home}, or use one of {_LABELS[table]}.")
        raise UmaokaError(f"{key} {said}; use one of {_LABELS[table]}."
                          + (_closest(text, _ALIASES[table]) if text else ""))
    return found


#: The systems' names as players know them.
_CLIENTS = {"tenhou": "Tenhou", "mahjongsoul": "Mahjong Soul"}


def system_name(value: Any) -> str:
    """``tenhou`` or ``mahjongsoul`` for a system typed in any of its spellings (天鳳, 雀魂)."""
    return str(_choice("system", value, "system"))


def room_system(room: Any) -> str | None:
    """The system a room name belongs to (``tenhou`` or ``mahjongsoul``), None if neither.

    >>> room_system("jade"), room_system("鳳凰の間"), room_system("lobby")
    ('mahjongsoul', 'tenhou', None)
    """
    text = _text(room)
    for suffix in ("room", "の間", "之间", "之間", "卓"):
        if text.endswith(suffix) and text != suffix:
            text = text[: -len(suffix)]
    for system, table in (("tenhou", "tenhou room"), ("mahjongsoul", "soul room")):
        if text in _ALIASES[table]:
            return system
    return None


@_cached
def player_count(value: Any) -> int:
    if type(value) in (int, float) and value in (3, 4):
        return int(value)
    found = _ALIASES["players"].get(_text(value))
    if found is None:
        raise UmaokaError(_unknown_value("players", "" if value is None else value, ("4", "3")))
    return int(found)


@_cached
def tenhou_dan(value: Any) -> int:
    """Index into TENHOU_DANS of a dan typed as 七段, 7段, 7dan, 2級, 2kyu, 新人 or 天鳳位."""
    text = _text(value)
    if text in ("新人", "shinjin", "novice", "rookie"):
        return 0
    if text in ("天鳳位", "天鳳", "tenhoui", "tenhou"):
        return 20
    if text in ("初段", "shodan"):
        return 10
    m = re.fullmatch(r"(\d{1,2}|[一二三四五六七八九十])(級|kyuu|kyu|k|段|dan|d)"
                     r"|(kyuu|kyu|dan)(\d{1,2})", text)
    if m:
        number = m.group(1) or m.group(4)
        n = _KANJI.get(number) or int(number)
        kyu = (m.group(2) or m.group(3)).startswith(("級", "k"))
        if kyu and 1 <= n <= 9:
            return 10 - n
        if not kyu and 1 <= n <= 10:
            return 9 + n
    english = ["novice", *(f"{k}kyu" for k in range(9, 0, -1)),
               *(f"{d}dan" for d in range(1, 11)), "tenhoui"]
    hint = _closest(text, english) if text else ""
    said = f'cannot be "{excerpt(value)}"' if text else "is blank"
    raise UmaokaError(f"rank {said}; use a Tenhou dan: 新人, 9級-1級, 初段-十段 or 天鳳位 (also "
                      f"novice, 9kyu-1kyu, 1dan-10dan, tenhoui).{hint}")


@_cached
def soul_rank(value: Any) -> tuple[int, int]:
    """(tier, level) of a rank typed as Expert 2, expert II, E2, 雀傑★2 or Celestial.

    Tiers count from 0 (Novice) to 5 (Celestial); Celestial's level is 0 when not given.
    """
    raw = unicodedata.normalize("NFKC", "" if value is None else as_text(value)).strip().lower()
    stars = raw.count("★") + raw.count("☆")
    raw = re.sub(r"[★☆]|\blv(l)?\b|\blevel\b", " ", raw)
    words = [w for w in re.split(r"[\s\-_.]+", raw) if w]
    level: int | None = None
    if len(words) > 1 and words[-1] in _ROMAN:
        level = _ROMAN[words.pop()]
    m = re.fullmatch(r"(\D+?)(?:lv|lvl)?(\d{1,2})?", "".join(words))
    tier = _ALIASES["tier"].get(m.group(1)) if m else None
    if m and m.group(2):
        level = int(m.group(2)) if level is None else -1
    if stars and level is None:  # ★★ is level 2; in 雀傑★2 the digit says it
        level = stars
    if tier is not None and (level in (1, 2, 3) or (tier == 5 and level is None)
                             or (tier == 5 and level is not None and 1 <= level <= 20)):
        return tier, level or 0
    if tier is not None and tier < 5:
        raise UmaokaError(f'rank "{excerpt(value)}" needs a level from 1 to 3 (★ to ★★★), e.g. '
                          f'"{SOUL_TIERS[tier]} 2"; write the level after the rank.')
    names = {f"{t}{n}": f"{t} {n}" for t in ("novice", "adept", "expert", "master", "saint")
             for n in (1, 2, 3)}
    names["celestial"] = "celestial"
    hint = _closest(_text(value), names)
    for key, name in names.items():
        hint = hint.replace(f'"{key}"', f'"{name}"')
    said = f'cannot be "{excerpt(value)}"' if raw.strip() or stars else "is blank"
    raise UmaokaError(f"rank {said}; use a Mahjong Soul rank: Novice, Adept, Expert, Master or "
                      f'Saint with a level 1-3 (e.g. "Expert 2", 雀傑2, E2), or Celestial.{hint}')


def soul_rank_name(tier: int, level: int) -> str:
    """A rank as the English client shows it: "Expert 2", "Celestial"."""
    return SOUL_TIERS[tier] + (f" {level}" if level else "")


def soul_tier(value: Any) -> int | None:
    try:
        return soul_rank(value)[0]
    except UmaokaError:
        return None


def promotion(system: Any, rank: Any, players: Any = 4) -> tuple[Decimal, Decimal | None]:
    """(points a player starts the rank with, points that promote), None at the top.

    >>> promotion("tenhou", "七段")
    (Decimal('1400'), Decimal('2800'))
    >>> promotion("mahjongsoul", "Master 1")
    (Decimal('1400'), Decimal('2800'))
    """
    n = player_count(players)
    if _choice("system", system, "system") == "tenhou":
        dan = tenhou_dan(rank)
        if dan == 20:
            return Decimal(0), None
        if dan < 10:
            return Decimal(0), Decimal(TENHOU_PROMOTE[n][dan])
        return Decimal((dan - 9) * 200), Decimal((dan - 9) * 400)
    tier, level = soul_rank(rank)
    if tier == 5:
        return Decimal(10), Decimal(20)  # Soul Points, every Celestial level
    target = SOUL_PROMOTE[tier * 3 + level - 1]
    return Decimal(target // 2 if tier else 0), Decimal(target)
