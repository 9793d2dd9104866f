"""Every label of the league workbook, in English and Japanese.

>>> label("total", "ja")
'合計'
>>> seat_label(2, "ja")
'西'
"""

from __future__ import annotations

import unicodedata

LANGS = ("en", "ja")

_LABELS: dict[str, tuple[str, str]] = {
    # sheet names (the league and ruleset names are added to some of them)
    "sheet_players": ("Players", "プレイヤー"),
    "sheet_presets": ("Presets", "プリセット"),
    "sheet_overall": ("Standings", "総合成績"),
    "sheet_rules": ("Rules - {name}", "ルール - {name}"),
    "sheet_league_standings": ("{name} Standings", "{name} 成績"),
    # titles and notes
    "title_players": ("Players", "プレイヤー一覧"),
    "note_players": ("One name per row. The player cells of the league tabs offer these names "
                     "as a dropdown.",
                     "1行に1人。対局表のプレイヤー欄でドロップダウンから選べます。"),
    "title_presets": ("Presets", "プリセット一覧"),
    "note_presets": ("Every built-in ruleset. Use a name in a Rules sheet's preset row, or copy "
                     "its values.",
                     "組み込みのルール一覧。ルールシートの値の参考にしてください。"),
    "title_rules": ("Ruleset: {name}", "ルール: {name}"),
    "note_rules": ("Change a value with its dropdown or by typing; the league tabs using this "
                   "ruleset follow it.",
                   "値はドロップダウンか入力で変更できます。このルールを使う対局表に反映されます。"),
    "title_league": ("{name}: games", "{name}: 対局記録"),
    "note_league": ("Ruleset {rules}. Enter each game's players and raw points; the final "
                    "scores need umaoka's Excel functions (umaoka addin).",
                    "ルール {rules}。各対局のプレイヤーと素点を入力してください。"
                    "最終スコアの計算には umaoka のExcel関数が必要です（umaoka addin）。"),
    "title_standings": ("{name}: standings", "{name}: 成績"),
    "title_overall": ("Overall standings", "総合成績"),
    "note_standings": ("Best first. Players without games are left out.",
                       "合計ポイント順。対局のないプレイヤーは表示されません。"),
    "note_overall": ("All leagues together.", "全リーグの合計。"),
    "chart_title": ("Cumulative points by session", "節ごとの累計ポイント"),
    "chart_x": ("Session", "節"),
    "chart_y": ("Points", "ポイント"),
    # column headers
    "key": ("Key", "項目"),
    "value": ("Value", "値"),
    "note": ("Note", "説明"),
    "preset": ("Preset", "プリセット"),
    "description": ("Description", "説明"),
    "source": ("Source", "出典"),
    "player": ("Player", "プレイヤー"),
    "date": ("Date", "日付"),
    "session": ("Session", "節"),
    "table": ("Table", "卓"),
    "game": ("Game", "対局"),
    "score": ("{seat} pts", "{seat} 素点"),
    "penalty": ("{seat} pen.", "{seat} 罰符"),
    "final": ("{seat} final", "{seat} 最終"),
    "place": ("{seat} place", "{seat} 順位"),
    "deposits": ("Deposits", "供託"),
    "check": ("Check", "チェック"),
    "group_players": ("Players", "プレイヤー"),
    "group_scores": ("Raw scores", "素点"),
    "group_penalties": ("Penalties", "罰符"),
    "group_results": ("Final scores", "最終スコア"),
    "group_places": ("Places", "順位"),
    "rank": ("Rank", "順位"),
    "games": ("Games", "対局数"),
    "total": ("Total", "合計"),
    "average": ("Average", "平均"),
    "average_place": ("Avg place", "平均着順"),
    "count": ("{place}", "{place}"),
    "rate": ("{place} %", "{place}率"),
    "top_rate": ("Top rate", "トップ率"),
    "last_avoid_rate": ("Last-avoid rate", "ラス回避率"),
    # check column texts (formula results)
    "ok": ("OK", "OK"),
    "off_by": ("Off by", "差"),
    "not_100": ("Not x100", "100点単位でない"),
    "missing": ("Missing score", "素点不足"),
}

_SEATS = (("East", "South", "West", "North"), ("東", "南", "西", "北"))
_PLACES = (("1st", "2nd", "3rd", "4th"), ("1着", "2着", "3着", "4着"))

#: Plain-words notes of the ruleset fields in Japanese (English: the engine's FIELD_HELP).
FIELD_HELP_JA: dict[str, str] = {
    "players": "人数: 4、三麻は3。",
    "start": "配給原点（持ち点）。例: 25000。",
    "target": "返し（原点）。例: 30000。オカありなら (返し-配給) x 人数 がトップへ。",
    "oka": "on: トップがオカを受け取る。off: 配給原点から計算。",
    "uma": "順位ウマ（千点単位、1着から）。例: 20/10/-10/-20 または 10-20。",
    "floating": "off、shift（浮き沈みウマ）、または表 1:12/-1/-3/-8|2:8/4/-4/-8|3:8/3/1/-12。",
    "rounding": "端数処理: none（なし、0.1単位）、half_down（五捨六入、-7.5→-8）、"
                "half_up（四捨五入、-7.5→-7）、half_toward_zero（絶対値で五捨六入、"
                "-10.5→-10）、half_away_from_zero（絶対値で四捨五入、ExcelのROUND、"
                "-10.5→-11）、floor（切り捨て）、ceil（切り上げ）、toward_zero（0への丸め）。",
    "round_on": "何を丸めるか: difference（(素点-返し)/1000 を丸める、通常）または "
                "raw（素点を千点単位に丸めてから 返し/1000 を引く。天鳳の整数時代: "
                "-3,500→-4-30=-34）。",
    "adjust": "端数調整を誰が負うか: first（トップ）、last（ラス）、none。",
    "ties": "同点: seat（上家優先）、split（オカとウマを等分）または "
            "split_uma（ウマのみ等分、オカは上家へ）。",
    "leftover": "終局時の供託: first（トップへ）または lost（没収）。",
}


def _index(lang: str) -> int:
    if lang not in LANGS:
        raise ValueError(f'language must be one of {", ".join(LANGS)} (got "{lang}").')
    return LANGS.index(lang)


def label(key: str, lang: str = "en", **fields: object) -> str:
    """The label ``key`` in ``lang``, with ``{name}``-style fields filled in."""
    text = _LABELS[key][_index(lang)]
    return text.format(**fields) if fields else text


def seat_label(seat: int, lang: str = "en") -> str:
    """East, South, West, North (0-based seat) in ``lang``."""
    return _SEATS[_index(lang)][seat]


def place_label(place: int, lang: str = "en") -> str:
    """1st ... 4th (1-based place) in ``lang``."""
    return _PLACES[_index(lang)][place - 1]


def note_lines(text: str, width: int = 76) -> int:
    """Lines a note needs in the rules sheet's note column (80 wide), at least 2.

    Japanese characters take two columns.

    >>> note_lines("x" * 100), note_lines("漢" * 60)
    (2, 2)
    >>> note_lines("x" * 200)
    3
    """
    columns = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return max(2, -(-columns // width))


def field_help(key: str, lang: str = "en") -> str:
    """The plain-words note of a ruleset field."""
    from umaoka.engine import FIELD_HELP

    return FIELD_HELP[key] if lang == "en" else FIELD_HELP_JA[key]
