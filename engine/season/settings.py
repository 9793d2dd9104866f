"""Writing a season down: settings as key/value pairs, from a mapping, an INI text or JSON.

A season file names the season's settings, then one section per stage in order, then
the teams. Settings written at the top apply to every stage that does not set its own::

    [season]
    name = M.League-like 2026
    competition = team
    ruleset = mleague
    tie_breaks = best, places, earlier

    [stage Regular season]
    advance = 6
    game_caps = 10-45

    [stage Semifinal]
    carry = half
    advance = 4

    [stage Final]
    carry = half

    [teams]
    Phoenix = Aki, Ben
    Pirates = Chie, Dan

>>> s = read_season("[stage Regular]\\nadvance = 2\\n[stage Final]\\ncarry = half")
>>> [(st.name, st.advance, st.carry) for st in s.stages]
[('Regular', 2, Decimal('0')), ('Final', None, Decimal('0.5'))]
"""

from __future__ import annotations

import configparser
import json
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from umaoka.engine.errors import UmaokaError, as_text, excerpt
from umaoka.engine.resolve import ruleset
from umaoka.engine.rules import _VALUE_ALIASES, _closest
from umaoka.engine.season.penalties import penalty_points
from umaoka.engine.season.ranking import DEFAULT_TIE_BREAKS, parse_ranking, parse_tie_breaks
from umaoka.engine.season.stages import CARRY_ROUNDINGS, COMPETITIONS, Season, Seed, Stage
from umaoka.engine.season.substitutes import DEFAULT_ABSENT_RESULT, parse_substitutes
from umaoka.engine.season.teams import parse_game_caps, parse_teams

#: Settings a stage may set, or the season for all its stages; one plain-words line each.
STAGE_SETTINGS: dict[str, str] = {
    "ruleset": "The stage's ruleset: a preset name or a text such as \"mleague; ties=seat\".",
    "ranking": "What the standings are ordered by: total, average or average_place.",
    "tie_breaks": "Equal standings are ordered by these, in turn: total, average, "
                  "average_place, best, places, firsts, fewer_lasts, previous, earlier "
                  f"(default {', '.join(DEFAULT_TIE_BREAKS)}).",
    "carry_rounding": "How points carried into the stage are rounded, at the stage's unit "
                      "(0.1 when its ruleset does not round, else whole points): half_up, "
                      "half_down, half_toward_zero, half_away_from_zero, floor, ceil, "
                      "toward_zero, or exact (every digit kept). Default: the ruleset's "
                      "rounding; half_up (M.League: -4.35 -> -4.3) when it does not round.",
    "min_games": "Players with fewer games are listed apart, not ranked, and take no place "
                 "in a cut (advance).",
    "game_caps": "Fewest and most games a player should play, e.g. 10-45; outside them the "
                 "player is flagged.",
    "chip_value": "Final points per chip (祝儀), added outside the zero sum, e.g. 2.",
    "substitutes": "A substitute's seat counts for the team only (team), for the absent "
                   "player (player), or the absent player gets absent_result (fixed).",
    "absent_result": "The absent player's final score when substitutes = fixed (default -30).",
}

#: The stage settings a table of stages gives per stage, in its column order after the
#: stage's name, ruleset, advance and carry (the Season sheet's stage rows, MJ_SEASON's
#: ``stages`` range); a blank cell there is the season's value. The ruleset is the
#: stage's league tab's, so it is not among them.
STAGE_TABLE: tuple[str, ...] = ("carry_rounding", "min_games", "ranking", "tie_breaks",
                                "game_caps", "chip_value", "substitutes", "absent_result",
                                "seeds")

#: Settings of a stage only.
STAGE_ONLY: dict[str, str] = {
    "name": "The stage's name, e.g. Regular season.",
    "advance": "How many (players, or teams in a team competition) go on to the next stage.",
    "carry": "What share of the previous stage's total is carried in: full, half, zero, or a "
             "factor such as 0.5.",
    "seeds": "Who enters the stage whatever the cut before it (e.g. the defending title "
             "holder), each with the points they bring in or none: Holder, or Holder: 20.5. "
             "A seed takes no place in the cut: advance = 3 sends the best three others.",
}

#: Settings of the season only.
SEASON_ONLY: dict[str, str] = {
    "name": "The season's name.",
    "competition": "individual (players advance and carry points) or team (teams do).",
    "players": "The roster (optional): game rows naming anyone else are reported.",
    "teams": "Each team with its players.",
    "stages": "The stages, in order.",
}

_CARRY_WORDS = {"full": Decimal(1), "all": Decimal(1), "whole": Decimal(1), "half": Decimal("0.5"),
                "zero": Decimal(0), "none": Decimal(0), "off": Decimal(0), "no": Decimal(0)}

#: Most stages a season may have (a league workbook holds as many league tabs): a season
#: has a handful, and each stage is a tab of formulas in the workbook.
MAX_STAGES = 100

#: What a numeric carry may look like: 0.5, .25, 50%, 12.5 %, 1/3 (checked before any
#: arithmetic, so a typed exponent or a thousand digits cannot make the work grow).
_SHARE = re.compile(r"[+-]?(\d{0,6}(\.\d{0,12})?\s*%?|\d{1,6}/\d{1,6})")

_KEY_ALIASES = {"tiebreaks": "tie_breaks", "tie_break": "tie_breaks", "tiebreak": "tie_breaks",
                "rules": "ruleset", "preset": "ruleset", "caps": "game_caps",
                "minimum_games": "min_games", "chips": "chip_value", "chip": "chip_value",
                "substitute": "substitutes", "carry_over": "carry", "advances": "advance",
                "roster": "players", "carry_round": "carry_rounding",
                "rounding_of_carry": "carry_rounding", "rank_by": "ranking", "order": "ranking"}


def _key(raw: Any) -> str:
    key = str(raw).strip().lower().replace(" ", "_").replace("-", "_")
    return _KEY_ALIASES.get(key, key)


def parse_carry(value: Any) -> Decimal:
    """A carry-over factor from full, half, zero, 0.5, 1/2 or 50%.

    >>> parse_carry("half"), parse_carry("1/4"), parse_carry("50%")
    (Decimal('0.5'), Decimal('0.25'), Decimal('0.5'))
    """
    text = as_text(value).strip().lower()
    if text in _CARRY_WORDS:
        return _CARRY_WORDS[text]
    try:
        # a share is a short decimal, percentage or fraction: nothing such as 1e-9999999,
        # whose exact value alone would take minutes to work out
        if isinstance(value, bool) or not _SHARE.fullmatch(text):
            raise ValueError
        if text.endswith("%"):
            f = Fraction(text[:-1].strip()) / 100
        else:
            f = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UmaokaError(f'carry "{excerpt(value)}" is not a share of points; write full, '
                          "half, zero or a factor such as 0.5.") from None
    d = Decimal(f.numerator) / Decimal(f.denominator)
    if Fraction(d) != f:
        raise UmaokaError(f"carry {value} is not an exact decimal; write a factor such as "
                          f"{d:.2f}.")
    if not 0 <= f <= 1:
        raise UmaokaError(f"carry must be between 0 and 1 (got {value}); write full, half, "
                          "zero or a factor such as 0.5.")
    return d.normalize() if d else Decimal(0)


def parse_carry_rounding(value: Any) -> str | None:
    """How carried points round: a ruleset's rounding name (also in Japanese, e.g.
    四捨五入), or exact; blank is the default (None).

    >>> parse_carry_rounding("Half-Up"), parse_carry_rounding("四捨五入"), parse_carry_rounding("")
    ('half_up', 'half_up', None)
    """
    if value is None:
        return None
    text = as_text(value).strip().lower().replace("-", "_").replace(" ", "_")
    if not text:
        return None
    text = {**_VALUE_ALIASES["rounding"], "exactly": "exact", "keep": "exact",
            "そのまま": "exact"}.get(text, text)
    if text == "none":
        raise UmaokaError('carry_rounding cannot be "none"; write exact to keep every digit of '
                          "the carried points, or a rounding such as half_up.")
    if text not in CARRY_ROUNDINGS:
        raise UmaokaError(f'carry_rounding cannot be "{excerpt(value)}"; use one of '
                          f"{', '.join(CARRY_ROUNDINGS)}.{_closest(text, CARRY_ROUNDINGS)}")
    return text


def _whole(key: str, value: Any, least: int) -> int:
    text = as_text(value).strip()
    if isinstance(value, bool) or not re.fullmatch(r"[+-]?\d{1,15}(\.0*)?", text):
        raise UmaokaError(f'{key} must be a whole number (got "{excerpt(value)}").')
    n = int(text.split(".")[0])  # not via float: a long run of digits is no infinity
    if n < least:
        raise UmaokaError(f"{key} must be at least {least} (got {excerpt(value)}).")
    return n


def _setting(key: str, value: Any) -> Any:
    """One stage setting, checked and converted."""
    if key == "ruleset":
        return ruleset(value)
    if key == "ranking":
        return parse_ranking(value)
    if key == "tie_breaks":
        return parse_tie_breaks(value)
    if key == "min_games":
        return _whole(key, value, 0)
    if key == "game_caps":
        return parse_game_caps(value)
    if key in ("chip_value", "absent_result"):
        return penalty_points(value, key)
    if key == "substitutes":
        return parse_substitutes(value)
    if key == "advance":
        return None if as_text(value).strip().lower() in ("", "all", "none") else _whole(key, value,
                                                                                        1)
    if key == "carry":
        return parse_carry(value)
    if key == "carry_rounding":
        return parse_carry_rounding(value)
    if key == "seeds":
        return parse_seeds(value)
    return _text(key, value)


def parse_seeds(value: Any) -> tuple[Seed, ...]:
    """A stage's seeds: names separated by commas, each with its carry after a colon, or
    none (nothing carried); a list of such texts; or a mapping of name to carry (JSON).

    >>> [s.text() for s in parse_seeds("Kobayashi, Sato: 12.5")]
    ['Kobayashi', 'Sato: 12.5']
    >>> parse_seeds({"Sato": -3, "Ito": None})[0].carry, parse_seeds(None)
    (Decimal('-3'), ())
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return ()
    if isinstance(value, Mapping):
        pairs = [(k, v) for k, v in value.items()]
    else:
        if isinstance(value, str):
            parts: list[Any] = value.split(",")
        elif isinstance(value, (list, tuple)):
            parts = list(value)
        else:
            raise UmaokaError(f"seeds must be names separated by commas, e.g. Holder or "
                              f"Holder: 20 (got {excerpt(value)}).")
        pairs = []
        for part in parts:
            text = _text("a seed", part)
            name, colon, carry = text.partition(":")
            pairs.append((name, carry.strip() if colon else None))
    out = []
    for name, carry in pairs:
        name = _text("a seed", name)
        if not name:
            raise UmaokaError(f'seeds "{excerpt(value)}" has a blank name; write names '
                              "separated by commas, e.g. Holder or Holder: 20.")
        blank = carry is None or (isinstance(carry, str) and carry.strip().lower() in
                                  ("", "none", "zero", "0"))
        try:
            points = Decimal(0) if blank else penalty_points(carry, "carry")
        except UmaokaError:
            raise UmaokaError(f'the carry of the seed {name} ("{excerpt(carry)}") is not a '
                              "number of final points with at most one decimal place; write "
                              "e.g. Holder: 20 or Holder: -4.5.") from None
        out.append(Seed(name, points))
    return tuple(out)


def check_stage_table(stages: list[Mapping[str, Any]]) -> None:
    """The stage settings of a table of stages (:data:`STAGE_TABLE` keys of each stage,
    with its ``name``), checked one by one: a bad one is one sentence naming its stage.

    >>> check_stage_table([{"name": "Final", "ranking": "wins"}])
    Traceback (most recent call last):
    umaoka.engine.errors.UmaokaError: stage Final: ranking cannot be "wins"; ...
    """
    for st in stages:
        for key in STAGE_TABLE:
            if key in st:
                try:
                    _setting(key, st[key])
                except UmaokaError as e:
                    raise UmaokaError(f"stage {st.get('name')}: {e}") from None


def _text(key: str, value: Any) -> str:
    """A name as text: a JSON null is blank, a list or an object is refused (never shown
    as "None" or "['R']")."""
    if value is None:
        return ""
    if isinstance(value, (bool, list, tuple, Mapping)) or not isinstance(value, (str, int,
                                                                                 float)):
        raise UmaokaError(f"{key} must be text, e.g. \"Regular season\" (got "
                          f"{excerpt(value)}).")
    return as_text(value).strip()


def _unknown(key: str, raw: Any, where: str, options: list[str]) -> UmaokaError:
    return UmaokaError(f'"{raw}" is not a {where} setting; use {", ".join(options)}.'
                       f"{_closest(key, options)}")


def season_settings(spec: Mapping[str, Any]) -> Season:
    """A :class:`Season` from plain settings: the season's keys, ``stages`` (a list of
    mappings, each with a ``name``) and ``teams`` (team -> players).

    >>> s = season_settings({"ruleset": "mleague", "stages": [{"name": "Regular"}]})
    >>> s.stages[0].ruleset.name
    'mleague'
    """
    common: dict[str, Any] = {}
    top: dict[str, Any] = {}
    season_keys = [*SEASON_ONLY, *STAGE_SETTINGS]
    for raw, value in spec.items():
        key = _key(raw)
        if key in STAGE_SETTINGS:
            common[key] = _setting(key, value)
        elif key in SEASON_ONLY:
            top[key] = value
        else:
            raise _unknown(key, raw, "season", season_keys)
    stages_spec = top.get("stages") or [{"name": _text("the season's name", top.get("name"))
                                         or "Season"}]
    if isinstance(stages_spec, Mapping) or not isinstance(stages_spec, (list, tuple)):
        raise UmaokaError("stages must be a list of stages, each with a name.")
    if len(stages_spec) > MAX_STAGES:
        raise UmaokaError(f"a season has at most {MAX_STAGES} stages (this one has "
                          f"{len(stages_spec):,}); merge stages or split the season.")
    stage_keys = [*STAGE_ONLY, *STAGE_SETTINGS]
    stages = []
    for i, st in enumerate(stages_spec):
        if not isinstance(st, Mapping):
            raise UmaokaError(f"stage {i + 1} must be a set of settings with a name.")
        values = dict(common)
        for raw, value in st.items():
            key = _key(raw)
            if key not in stage_keys:
                raise _unknown(key, raw, "stage", stage_keys)
            values[key] = _setting(key, value)
        name = values.pop("name", "") or ""
        if i and "carry" not in values:
            raise UmaokaError(f"stage {name or i + 1} does not say how points carry over; add "
                              "carry = full, half, zero or a factor such as 0.5.")
        values.setdefault("ruleset", ruleset("standard"))
        values.setdefault("absent_result", DEFAULT_ABSENT_RESULT)
        stages.append(Stage(name=name, **values))
    competition = str(top.get("competition") or "individual").strip().lower()
    competition = {"teams": "team", "individuals": "individual", "players": "individual",
                   "player": "individual"}.get(competition, competition)
    if competition not in COMPETITIONS:
        raise UmaokaError(f'competition cannot be "{excerpt(top.get("competition"))}"; use '
                          f"individual or team.{_closest(competition, COMPETITIONS)}")
    players = top.get("players") or ()
    if isinstance(players, str):
        players = players.split(",")
    if not isinstance(players, (list, tuple)):
        raise UmaokaError("players must be a list of names or names separated by commas "
                          f"(got {excerpt(players)}).")
    players = [_text("a player's name", p) for p in players]
    return Season(
        name=_text("the season's name", top.get("name")) or "Season",
        stages=tuple(stages),
        teams=parse_teams(top.get("teams")),
        players=tuple(dict.fromkeys(as_text(p).strip() for p in players if as_text(p).strip())),
        competition=competition,
    )


def _ini(text: str) -> dict[str, Any]:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",),
                                       comment_prefixes=("#", ";"), default_section="\0")
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # team names keep case
    if not re.match(r"\s*(?:[#;][^\n]*\n\s*)*\[", text):
        text = "[season]\n" + text  # settings before any section are the season's
    try:
        parser.read_string(text)
    except configparser.Error as e:
        first = str(e).splitlines()[0].rstrip(".")
        raise UmaokaError(f"the season file cannot be read ({first}); write [section] lines "
                          "and key = value lines.") from None
    spec: dict[str, Any] = {}
    stages: list[dict[str, Any]] = []
    for section in parser.sections():
        kind, _, rest = section.strip().partition(" ")
        kind, rest = kind.lower().rstrip(":"), rest.strip()
        items = dict(parser.items(section))
        if kind == "season" and not rest:
            spec.update(items)
        elif kind == "stage" and rest:
            stages.append({"name": rest, **items})
        elif kind == "teams" and not rest:
            spec["teams"] = list(items.items())
        else:
            raise UmaokaError(f'[{section}] is not a section of a season file; use [season], '
                              "[stage NAME] (one per stage, in order) and [teams].")
    if stages:
        spec["stages"] = stages
    return spec


def read_season(text: str, form: str = "ini") -> Season:
    """A season from the text of a season file, ``ini`` (sections and key = value) or ``json``."""
    if form == "json":
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as e:
            raise UmaokaError(f"the season file is not valid JSON ({e.msg} at line {e.lineno}); "
                              "fix it or write it as key = value lines.") from None
        except RecursionError:
            raise UmaokaError("the season file nests lists or objects too deeply to be a "
                              "season; write settings, stages and teams.") from None
        except ValueError:  # a whole number of over 4,300 digits, which Python will not read
            raise UmaokaError("the season file holds a number of over 4,300 digits; no "
                              "setting is that large.") from None
        if not isinstance(spec, Mapping):
            raise UmaokaError("a JSON season file must hold one object of settings.")
        return season_settings(spec)
    return season_settings(_ini(text))
