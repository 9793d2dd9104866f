"""Teams and game caps: who plays for whom, and how many games each player may play.

A team's standing adds up its players' seats (and substitutes' seats counted for the
team) and penalties, plus penalties given to the team itself. Game caps (M.League: at
least 10 and at most 45 games a season) are reported as flags on a player's line,
never as errors: the league decides what to do about them.

>>> parse_teams({"Phoenix": "Aki, Ben", "Pirates": ["Chie", "Dan"]})
(('Phoenix', ('Aki', 'Ben')), ('Pirates', ('Chie', 'Dan')))
>>> caps = parse_game_caps("10-45")
>>> caps.flag(8)
'played 8 games, fewer than the minimum of 10'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt

Teams = tuple[tuple[str, tuple[str, ...]], ...]


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple)) else str(_scalar(value)).split(",")
    return [str(_scalar(x)).strip() for x in items if x is not None and str(x).strip()]


def _scalar(value: Any) -> Any:
    """A name or a team as written: text or a number, never a list or an object (JSON)."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return value
    raise UmaokaError(f"a team or a player's name must be text (got {excerpt(value)}); write "
                      'teams as "Team": ["Aki", "Ben"].')


def parse_teams(value: Mapping[str, Any] | Iterable[Any] | None) -> Teams:
    """Teams as (team, players) pairs in the order given, from a mapping or pairs.

    Players are a list or a comma-separated text; a player may play for one team only.
    """
    if not value:
        return ()
    if isinstance(value, (str, int, float)):  # JSON "teams": 5
        raise UmaokaError(f"teams must list each team with its players, e.g. "
                          f'{{"Phoenix": ["Aki", "Ben"]}} (got {excerpt(value)}).')
    pairs = value.items() if isinstance(value, Mapping) else value
    out: list[tuple[str, tuple[str, ...]]] = []
    seen: dict[str, str] = {}
    for pair in pairs:
        team, members = (pair[0], pair[1:] if len(pair) > 2 else pair[1]) \
            if isinstance(pair, (list, tuple)) and pair else (pair, None)
        name = str(_scalar(team) if team is not None else "").strip()
        if not name:
            raise UmaokaError("a team has no name; give every team a name.")
        if any(name == t for t, _ in out):
            raise UmaokaError(f'the team "{name}" is listed twice; list each team once with '
                              "all its players.")
        players = _names(members)
        if not players:
            raise UmaokaError(f'the team "{name}" has no players; list them, e.g. '
                              f'{name} = Aki, Ben.')
        for p in players:
            if p in seen:
                raise UmaokaError(f'{p} is listed for both "{seen[p]}" and "{name}"; a player '
                                  "plays for one team.")
            seen[p] = name
        out.append((name, tuple(players)))
    return tuple(out)


def team_of(teams: Teams) -> dict[str, str]:
    """Each player's team."""
    return {p: team for team, players in teams for p in players}


@dataclass(frozen=True)
class GameCaps:
    """The fewest and most games a player should play in a stage (either may be None)."""

    minimum: int | None = None
    maximum: int | None = None

    def flag(self, played: int, lang: str = "en") -> str | None:
        """A one-sentence flag when ``played`` games are outside the caps, else None
        (``lang="ja"``: in Japanese).

        >>> GameCaps(10, 45).flag(8), GameCaps(10, 45).flag(8, "ja")
        ('played 8 games, fewer than the minimum of 10', '8局（最少 10局 未満）')
        """
        games = f"{played} game" if played == 1 else f"{played} games"
        if self.minimum is not None and played < self.minimum:
            return (f"{played}局（最少 {self.minimum}局 未満）" if lang == "ja"
                    else f"played {games}, fewer than the minimum of {self.minimum}")
        if self.maximum is not None and played > self.maximum:
            return (f"{played}局（最多 {self.maximum}局 超過）" if lang == "ja"
                    else f"played {games}, more than the maximum of {self.maximum}")
        return None

    def text(self) -> str:
        return f"{'' if self.minimum is None else self.minimum}-" \
               f"{'' if self.maximum is None else self.maximum}"


def _count(value: Any, what: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = as_text(value).strip()
    # at most 6 digits: a count of games, never a run of digits beyond float's range
    if isinstance(value, bool) or not re.fullmatch(r"\d{1,6}(\.0*)?", text):
        raise UmaokaError(f'game_caps: the {what} "{excerpt(value)}" is not a whole number of '
                          "games up to 999,999; write e.g. 10-45.")
    return int(text.split(".")[0])


#: Between a minimum and a maximum of games: 10-45, 10–45, 10~45, 10..45, 10 to 45.
_CAPS_SEPARATOR = re.compile(r"-|–|~|\.\.|to")
#: The longest game_caps text read (999999.000 - 999999.000 has 23 characters).
MAX_CAPS_TEXT = 1000


def parse_game_caps(value: Any) -> GameCaps | None:
    """Caps from ``"10-45"``, ``"10-"`` (a minimum only), ``"-45"``, a pair or a mapping."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none",
                                                                             "off")):
        return None
    if isinstance(value, Mapping):
        low, high = value.get("min", value.get("minimum")), value.get("max",
                                                                      value.get("maximum"))
    elif isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = value
    else:
        text = as_text(value).strip()
        # split on the one separator (a pattern around it backtracked: quadratic in the
        # length), and a cell of thousands of characters is no pair of counts
        parts = _CAPS_SEPARATOR.split(text) if len(text) <= MAX_CAPS_TEXT else []
        if len(parts) != 2:
            raise UmaokaError(f'game_caps "{excerpt(value)}" should be a minimum and a maximum '
                              "number of games, e.g. 10-45 (or 10- or -45).")
        low, high = parts
    caps = GameCaps(_count(low, "minimum"), _count(high, "maximum"))
    if caps.minimum is not None and caps.maximum is not None and caps.minimum > caps.maximum:
        raise UmaokaError(f"game_caps {caps.text()}: the minimum is above the maximum; write "
                          "the fewest games first, e.g. 10-45.")
    return caps if caps != GameCaps() else None
