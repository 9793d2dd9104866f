"""The Season sheet as written: its settings table (with defaults, choices and notes), its
stage rows (a league tab, advance, carry and the stage's own settings), and the sheet made
from a season file; what a stage row's setting cell means (:func:`unset`,
:func:`stage_setting`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from umaoka.engine.season.ranking import DEFAULT_TIE_BREAKS, RANKINGS
from umaoka.engine.season.settings import SEASON_ONLY, STAGE_SETTINGS, STAGE_TABLE
from umaoka.engine.season.stages import Season, Stage, carry_rounding_of
from umaoka.engine.season.substitutes import SUBSTITUTES
from umaoka.templates.book.model import Book

#: The settings rows of the Season sheet, in order, with their defaults.
SETTINGS: dict[str, Any] = {
    "name": "Season",
    "competition": "individual",
    "min_games": 0,
    "ranking": "total",
    "tie_breaks": ", ".join(DEFAULT_TIE_BREAKS),
    "substitutes": "team",
    "absent_result": -30,
    "chip_value": 0,
    "game_caps": "",
    "carry_rounding": "",
}

#: Settings with a fixed list of choices (a dropdown on the Season sheet).
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "competition": ("individual", "team"),
    "ranking": tuple(RANKINGS),
    "substitutes": tuple(SUBSTITUTES),
}

#: The settings' notes in Japanese (English: the engine's own help texts).
SETTING_HELP_JA: dict[str, str] = {
    "name": "シーズン名。",
    "competition": "individual（個人: プレイヤーが勝ち上がり持ち越す）または team（チーム）。",
    "min_games": "これより対局数が少ないプレイヤーは順位なしで別に表示し、勝ち上がれません。",
    "ranking": "順位の基準: total（合計）、average（1局平均）、average_place（平均着順）。",
    "tie_breaks": "同点の順位の決め方（順に）: total, average, average_place, best（最高スコア）, "
                  "places（1着・2着…の数）, firsts, fewer_lasts, previous（前ステージの順位）, "
                  f"earlier（名簿順）。既定: {', '.join(DEFAULT_TIE_BREAKS)}。",
    "substitutes": "代打ちの成績: team（チームのみに加算）、player（欠席者に加算）、fixed"
                   "（欠席者に absent_result とラスを与える）。",
    "absent_result": "substitutes = fixed のときの欠席者の最終スコア（既定 -30）。",
    "chip_value": "祝儀1枚の最終ポイント（ゼロサムの外で加算）。例: 2。",
    "game_caps": "1人の最少・最多対局数。例: 10-45。外れると対局タブのチェック欄と成績に表示。",
    "carry_rounding": "持ち越しポイントの丸め（ステージの単位で: 丸めないルールは0.1、"
                      "それ以外は1点）: half_up（四捨五入、-4.35→-4.3）、half_down、"
                      "half_toward_zero、half_away_from_zero、floor、ceil、toward_zero、exact（丸めない）。"
                      "空欄: ルールの丸め、丸めないルールは half_up（Mリーグ）。",
}


def setting_help(key: str, lang: str) -> str:
    """The plain-words note of a Season sheet setting."""
    if lang == "ja":
        return SETTING_HELP_JA[key]
    return {**SEASON_ONLY, **STAGE_SETTINGS}[key]


@dataclass
class StageRow:
    """One row of the Season sheet's stage table: a league tab, who advances, the carry,
    and the stage's own settings (:data:`STAGE_TABLE` keys; a key left out or blank is the
    season's value from the settings table)."""

    name: str
    advance: Any = None
    carry: Any = None
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeasonSpec:
    """The Season sheet as written: stages in order and the season's settings."""

    stages: list[StageRow] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=lambda: dict(SETTINGS))


def default_spec(book: Book, name: str | None = None) -> SeasonSpec:
    """Every league tab a stage, in order, everybody going on with nothing carried."""
    spec = SeasonSpec([StageRow(lg.name, None, None if i == 0 else "zero")
                       for i, lg in enumerate(book.leagues)])
    if name:
        spec.settings["name"] = name
    return spec


def _sheet_values(season: Season, st: Stage) -> dict[str, Any]:
    """A stage's settings as the Season sheet writes them (text where a number cell would
    be read otherwise)."""
    return {
        "min_games": st.min_games, "ranking": st.ranking,
        "tie_breaks": ", ".join(st.tie_breaks), "substitutes": st.substitutes,
        # 0 as text: desktop Excel sends an empty cell as the number 0, so MJ_SEASON
        # refuses a 0 there (docs/excel.md)
        "absent_result": _plain(st.absent_result) or "0",
        "chip_value": _plain(st.chip_value),
        "game_caps": st.game_caps.text() if st.game_caps else "",
        "carry_rounding": st.carry_rounding or "",
        "seeds": ", ".join(seed.text() for seed in st.seeds),
    }


def spec_from_season(season: Season, book: Book) -> SeasonSpec:
    """The Season sheet for a season file (``umaoka new --season``); its stages must be
    the book's league tabs (they are made from it). The settings table holds, for each
    setting, the value most stages share (a tie: the default, else the earlier stage's;
    the carry rounding of the stages after the first, as nothing is carried into the
    first); a stage row gives each setting in which its stage differs."""
    sheet = [_sheet_values(season, st) for st in season.stages]
    common = {key: _shared([v[key] for v in (sheet[1:] if key == "carry_rounding"
                                             and len(sheet) > 1 else sheet)], SETTINGS[key])
              for key in STAGE_TABLE if key in SETTINGS}  # seeds: a stage's own only
    settings = dict(SETTINGS, name=season.name, competition=season.competition, **common)
    rows = []
    for i, (st, values) in enumerate(zip(season.stages, sheet)):
        carry = None if i == 0 else {1: "full", 0: "zero"}.get(
            st.carry, "half" if str(st.carry) == "0.5" else _plain(st.carry))
        own = {}
        for key in STAGE_TABLE:
            if values[key] == common.get(key, "") or (key == "carry_rounding" and i == 0):
                continue  # (nothing is carried into the first stage)
            value = values[key]
            if key == "carry_rounding" and not value:  # the default, by its name
                value = carry_rounding_of(None, st.ruleset)
            elif key == "game_caps" and not value:
                value = "none"
            elif value == 0:  # a blank stage cell is the season's value; "0" is 0
                value = "0"
            own[key] = value
        rows.append(StageRow(st.name, st.advance, carry, own))
    return SeasonSpec(rows, settings)


def _shared(values: list[Any], default: Any) -> Any:
    """The value most of ``values`` hold; a tie goes to ``default``, else the earliest."""
    counts = {v: values.count(v) for v in values}
    most = max(counts.values())
    return default if counts.get(default) == most else next(
        v for v in values if counts[v] == most)


def _plain(value: Any) -> Any:
    try:
        return int(value) if value == int(value) else float(value)
    except (TypeError, ValueError):
        return value


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def unset(value: Any) -> bool:
    """Whether a stage row's setting cell leaves the season's value: blank, or the number
    0 (how desktop Excel sends an empty cell to MJ_SEASON; a 0 of the stage's own is
    typed as text, "0", which the stage columns' text format does)."""
    return _blank(value) or (type(value) in (int, float) and value == 0)


def stage_setting(spec: SeasonSpec, name: str, key: str) -> Any:
    """Setting ``key`` of stage ``name`` as the Season sheet gives it: its stage row's
    cell (the first row of that name), else the settings table's; what the sheet's
    helper formulas (chip value, game caps, min_games) read."""
    row = next((s for s in spec.stages if not _blank(s.name)
                and str(s.name).strip().casefold() == name.strip().casefold()), None)
    if row is not None and not unset(row.settings.get(key)):
        return row.settings[key]
    return spec.settings.get(key)
