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
    "sheet_start": ("Start", "はじめに"),
    # what a game row shows while umaoka's functions are off (first final-score cell)
    "hint": ("→ Start", "→ はじめに"),
    # the Start sheet of a workbook with formulas
    "title_start": ("umaoka league workbook", "umaoka リーグ成績表"),
    "start_runtime": ("This workbook's formulas are written for {runtime}. The final scores "
                      "come from umaoka's functions; places, standings and the chart follow "
                      "from them.",
                      "この成績表の数式は {runtime} 用です。最終スコアは umaoka の関数で計算され、"
                      "順位・成績・グラフはそこから求まります。"),
    "start_hint": ("Until the functions are on, each game with scores shows \"{hint}\" in its "
                   "first final-score cell, and rows without scores stay blank.",
                   "関数が使えるまでは、素点のある対局の最初の最終スコア欄に「{hint}」と表示されます"
                   "（素点のない行は空白のまま）。"),
    "start_on": ("Switch the functions on in one of three ways:",
                 "関数を使えるようにする方法（いずれか1つ）:"),
    "start_lite": ("1. xlwings Lite (free; Excel 2021/365 on Windows, Mac and the web): Home > "
                   "Add-ins > xlwings Lite, then paste main.py and requirements.txt from "
                   "`umaoka lite DIR` into its editor.",
                   "1. xlwings Lite（無料、Windows・Mac・Web 版の Excel 2021/365）: ホーム > "
                   "アドイン > xlwings Lite を追加し、`umaoka lite DIR` が作る main.py と "
                   "requirements.txt をエディターに貼り付けます。"),
    "start_lite_inside": ("1. xlwings Lite (free; Excel 2021/365 on Windows, Mac and the web): "
                          "Home > Add-ins > xlwings Lite; the code is already in this workbook.",
                          "1. xlwings Lite（無料、Windows・Mac・Web 版の Excel 2021/365）: "
                          "ホーム > アドイン > xlwings Lite を追加するだけです（コードはこの"
                          "ブックに入っています）。"),
    "start_classic": ("2. Classic xlwings (Excel on Windows with Python): run `umaoka addin` "
                      "and follow its steps (Import Functions).",
                      "2. classic xlwings（Python のある Windows 版 Excel）: `umaoka addin` の"
                      "手順に従います（Import Functions）。"),
    "start_server": ("3. xlwings Server: `from umaoka.addin.udfs import *` in the server's "
                     "custom functions, then reload the add-in.",
                     "3. xlwings Server: サーバーの custom functions に "
                     "`from umaoka.addin.udfs import *` を加え、アドインを再読み込みします。"),
    "start_this": ("  ← this workbook", "  ← この成績表"),
    "start_settle": ("No add-in at all? `umaoka settle BOOK.xlsx` writes a copy with every "
                     "result filled in, readable anywhere.",
                     "アドインなしでも: `umaoka settle BOOK.xlsx` ですべての結果を値で埋めた"
                     "コピーを作れます（どこでも開けます）。"),
    "start_switch": ("Another runtime: close the file, then `umaoka runtime BOOK.xlsx --to "
                     "classic` (lite, classic or server) gives it formulas that runtime binds "
                     "(your own sheets are kept; the previous version stays as BOOK.bak.xlsx).",
                     "別の実行環境にするには: ファイルを閉じて `umaoka runtime BOOK.xlsx --to "
                     "classic`（lite・classic・server）でその環境用の数式にします（自分で追加した"
                     "シートはそのまま、前の版は BOOK.bak.xlsx に残ります）。"),
    "start_rules": ("Functions on and the hint stays? Then a value on a Rules sheet is wrong: "
                    "=MJ_RULESET({rules}) in a free cell, or `umaoka settle`, says which.",
                    "関数が使えるのに表示が消えない場合はルールシートの値が誤りです: 空いたセルに "
                    "=MJ_RULESET({rules}) と入力するか `umaoka settle` で確認できます。"),
    # the Start sheet of a settled copy
    "title_start_settled": ("umaoka settled copy: a report", "umaoka 確定版（レポート）"),
    "settled_from": ("Settled from {source} on {when} by umaoka {version}.",
                     "{source} から {when} に umaoka {version} で確定しました。"),
    "settled_anon": ("Settled on {when} by umaoka {version}.",
                     "{when} に umaoka {version} で確定しました。"),
    "settled_what": ("Every final score, place and standing is a plain value worked out by "
                     "umaoka: nothing recalculates, and the inputs are locked.",
                     "最終スコア・順位・成績はすべて umaoka が計算した値です。再計算はされず、"
                     "入力欄はロックされています。"),
    "settled_change": ("To change a game or a rule, edit {source} and run `umaoka settle` on it "
                       "again.",
                       "対局やルールを直すときは {source} を編集し、もう一度 `umaoka settle` "
                       "を実行してください。"),
    "settled_change_anon": ("To change a game or a rule, edit the original and settle it again.",
                            "対局やルールを直すときは元のブックを編集し、もう一度確定してください。"),
    "settled_suffix": (" (settled copy)", "（確定版）"),
    "default_league": ("League", "リーグ"),
    "note_settled": ("Settled copy of {source}, {when}, umaoka {version}: values only, inputs "
                     "locked. Ruleset {rules}.",
                     "{source} の確定版（{when}、umaoka {version}）: 値のみ、入力はロック済み。"
                     "ルール {rules}。"),
    "note_settled_anon": ("Settled copy, {when}, umaoka {version}: values only, inputs locked. "
                          "Ruleset {rules}.",
                          "確定版（{when}、umaoka {version}）: 値のみ、入力はロック済み。"
                          "ルール {rules}。"),
    "note_rules_settled": ("The values these results were settled with (locked: change them in "
                           "the original and settle again).",
                           "この結果の計算に使った値です（ロック済み。変更は元のブックで行い、"
                           "もう一度確定してください）。"),
    "note_players_settled": ("The roster when the games were settled.",
                             "確定時のプレイヤー一覧。"),
    "edited": ("{name}, edited", "{name}（変更あり）"),
    "edited_from": ("edited from preset {name}: {changes}",
                    "プリセット {name} から変更: {changes}"),
    "edit": ("{field} {used} (preset {was})", "{field} {used}（プリセット {was}）"),
    # titles and notes
    "title_players": ("Players", "プレイヤー一覧"),
    "note_players": ("One name per row (rows may be inserted or deleted). The player cells of "
                     "the league tabs offer these names as a dropdown.",
                     "1行に1人（行の挿入・削除可）。対局表のプレイヤー欄でドロップダウンから"
                     "選べます。"),
    "title_presets": ("Presets", "プリセット一覧"),
    "note_presets": ("Every built-in ruleset. Name one when you make a workbook "
                     "(umaoka new --ruleset NAME), or copy its values into a Rules sheet.",
                     "組み込みのルール一覧。ブック作成時に名前で指定する（umaoka new --ruleset "
                     "名前）か、値をルールシートに写してください。"),
    "title_rules": ("Ruleset: {name}", "ルール: {name}"),
    "note_rules": ("Change a value with its dropdown or by typing; the league tabs using this "
                   "ruleset follow it.",
                   "値はドロップダウンか入力で変更できます。このルールを使う対局表に反映されます。"),
    "title_league": ("{name}: games", "{name}: 対局記録"),
    "note_league": ("Ruleset {rules}. Enter each game's players and raw points; the final "
                    "scores come from umaoka's functions (see the Start sheet). To remove a "
                    "game, clear its cells: rows cannot be deleted through the final-scores "
                    "block.",
                    "ルール {rules}。各対局のプレイヤーと素点を入力してください。"
                    "最終スコアは umaoka の関数で計算されます（「はじめに」シート参照）。"
                    "対局を消すときは行を削除せず、セルの内容を消してください。"),
    "title_standings": ("{name}: standings", "{name}: 成績"),
    "title_overall": ("Overall standings", "総合成績"),
    "post_last_game": ("Standings after the games of {date}", "{date} までの成績"),
    "post_rank": ("#", "#"),
    "post_games": ("G", "局数"),
    "post_penalties": ("Pen.", "罰符"),
    "post_average": ("Avg", "平均"),
    "post_average_place": ("Place", "平均着順"),
    "post_advanced": ("Next", "通過"),
    "post_made": ("Made by umaoka {version} from {source}.",
                  "umaoka {version} が {source} から作成。"),
    "note_standings": ("Best first. Players without games are left out.",
                       "合計ポイント順。対局のないプレイヤーは表示されません。"),
    "note_standings_live": ("Best first; players without games are left out. Empty while "
                            "umaoka's functions are off (see the Start sheet).",
                            "合計ポイント順。対局のないプレイヤーは表示されません。umaoka の関数が"
                            "使えるまでは空欄です（「はじめに」参照）。"),
    "note_overall": ("All leagues together.", "全リーグの合計。"),
    "shared_place_better": ("Shared places count as the better place (tied for 3rd-4th: "
                            "3rd; Rules: shared_place).",
                            "同点で分け合った着順は上の着順で数えます（3・4着同点は3着。"
                            "ルールの shared_place）。"),
    "shared_place_worse": ("Shared places count as the worse place (tied for 3rd-4th: 4th; "
                           "Rules: shared_place).",
                           "同点で分け合った着順は下の着順で数えます（3・4着同点は4着。"
                           "ルールの shared_place）。"),
    "shared_place_split": ("Shared places are split (tied for 3rd-4th: half a 3rd and half a "
                           "4th; Rules: shared_place).",
                           "同点で分け合った着順は等分して数えます（3・4着同点は3着と4着を"
                           "半分ずつ。ルールの shared_place）。"),
    "note_not_season": ("These count each game's final scores as typed, with chips and the "
                        "penalty log; a game a substitute played counts for the player of "
                        "that seat. The Season standings also count carried points, count a "
                        "substitute's game by the season's substitutes setting, and rank by "
                        "the season's rules (minimum games, tie-breaks).",
                        "各対局の最終スコアをそのまま集計し、チップとペナルティ記録も含みます。"
                        "代走の対局はその席のプレイヤーの成績です。シーズン順位表は持ち越し"
                        "ポイントも含め、代走の対局はシーズンの代走設定に従って数え、シーズンの"
                        "ルール（最低対局数・タイブレーク）で順位を決めます。"),
    "note_overall_live": ("All leagues together; empty while umaoka's functions are off (see "
                          "the Start sheet).",
                          "全リーグの合計。umaoka の関数が使えるまでは空欄です（「はじめに」"
                          "シート参照）。"),
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
    "penalty": ("{seat} pen.", "{seat} ペナルティ"),
    "final": ("{seat} final", "{seat} 最終"),
    "place": ("{seat} place", "{seat} 順位"),
    "deposits": ("Deposits", "供託"),
    "check": ("Check", "チェック"),
    "group_players": ("Players", "プレイヤー"),
    "group_scores": ("Raw scores", "素点"),
    "group_penalties": ("Penalties", "ペナルティ"),
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
    "ok": ("OK", "正常"),
    "not_on_roster": ("Not on roster", "名簿にない"),
    "case_differs": ("Case differs from roster", "名簿と大文字・小文字が違う"),
    "roster_warning": ("This name is not on the Players sheet. Keep it only if it is a new "
                       "player, and add it to Players; otherwise choose the name from the list.",
                       "この名前は「プレイヤー」シートにありません。新しいプレイヤーなら"
                       "プレイヤーシートに追加し、そうでなければ一覧から選んでください。"),
    "off_by": ("Off by", "差"),
    # the engine's "the scores look typed in thousands (35.7 for 35,700)", as a check text
    "in_thousands": ("Typed in thousands", "千点単位で入力"),
    "in_hundreds": ("Typed in hundreds", "百点単位で入力"),
    "not_100": ("Not x100", "100点単位でない"),
    "missing": ("Missing score", "素点不足"),
    # a score cell holding text ("32400" pasted, a Text-formatted cell): the row is refused
    "score_text": ("Score typed as text", "素点が文字列"),
    "score_validation": ("Type the raw score as a number, e.g. 32400 (a cell formatted as "
                         "Text keeps it as text, which is not counted).",
                         "素点は数値で入力してください (例: 32400)。書式が文字列のセルでは"
                         "文字列になり、集計されません。"),
    # the platform-finals block (imported online games) and the seating sheet
    "group_given": ("Platform finals", "対局サイトの最終スコア"),
    "given": ("{seat} platform", "{seat} サイト"),
    "by_platform": ("By platform", "サイト確定"),
    "given_missing": ("Platform final missing", "サイトの最終スコア不足"),
    "sheet_seating": ("Seating", "座席表"),
    "title_seating": ("Seating", "座席表"),
    "note_seating": ("{players} players, {rounds} rounds, tables of {size} (seed {seed}). "
                     "Session = round: the league tab's rows are filled in from this plan.",
                     "{players}人・{rounds}回戦・{size}人卓（シード {seed}）。節 = 回戦: "
                     "リーグの対局行にこの表のプレイヤーが入っています。"),
    "note_seating_nights": ("{nights} nights, {rounds} rounds, tables of {size}; each "
                            "`umaoka seating --into` adds a night below. Session = round: "
                            "the league tab's rows are filled in from this plan.",
                            "{nights}日・{rounds}回戦・{size}人卓。`umaoka seating --into` "
                            "のたびに下へ1日分を追加。節 = 回戦: リーグの対局行にこの表の"
                            "プレイヤーが入っています。"),
    "seating_repeats": ("Over {nights} nights: {repeats} repeat meeting(s).",
                        "{nights}日間の再同卓: {repeats} 回。"),
    "seating_meetings": ("Meetings per pair: at most {most}, at least {least}.",
                         "同卓回数（各ペア）: 最大 {most}、最小 {least}。"),
    "seating_east": ("Starts as East: {span} per player.", "起家（東）: 1人 {span} 回。"),
    "seating_sitouts": ("Sit-outs: {span} per player.", "抜け番: 1人 {span} 回。"),
    "seating_balance": ("Seats per player", "プレイヤー別の席"),
    "round": ("Round", "回戦"),
    "sit_outs": ("Sit-outs", "抜け番"),
    "sheet_league_stats": ("{name} Stats", "{name} 詳細"),
    "title_stats": ("{name}: player stats", "{name}: 詳細成績"),
    "note_stats": ("In the order of the standings. Top-two = 1st or 2nd; bust = raw score "
                   "below 0 and average raw, over the games with raw scores. Streaks, R "
                   "ratings and head to head: `umaoka settle` (the settled copy).",
                   "成績の順。連対率 = 1着・2着の割合。トビ率（素点が0未満）と平均素点は素点の"
                   "ある対局が対象。連続記録・レーティング・対戦成績は `umaoka settle` の"
                   "確定版にあります。"),
    "note_stats_settled": ("In the order of the standings. Top-two = 1st or 2nd; bust = raw "
                           "score below 0 and average raw, over the games with raw scores; "
                           "streaks = longest runs of 1st / 1st-2nd / not last.",
                           "成績の順。連対率 = 1着・2着の割合。トビ率（素点が0未満）と平均素点は"
                           "素点のある対局が対象。連続 = 最長の連続トップ・連対・ラス回避。"),
    "stat_player": ("Player", "プレイヤー"),
    "stat_games": ("Games", "対局数"),
    "stat_top_two_rate": ("Top-two rate", "連対率"),
    "stat_bust_rate": ("Bust rate", "トビ率"),
    "stat_average_raw": ("Avg raw", "平均素点"),
    "stat_best": ("Best", "最高"),
    "stat_worst": ("Worst", "最低"),
    "stat_top_streak": ("Top streak", "連続トップ"),
    "stat_top_two_streak": ("Top-two streak", "連続連対"),
    "stat_no_last_streak": ("No-last streak", "連続ラス回避"),
    "sheet_league_rating": ("{name} Rating", "{name} レート"),
    "title_rating": ("{name}: Tenhou R rating and head to head",
                     "{name}: 天鳳R（レーティング）と対戦成績"),
    "note_rating": ("R starts at 1500 and changes after every game by (1 - 0.002 x games "
                    "played, 0.2 from 400) x (place bonus +30/+10/-10/-30 + (table average R "
                    "- own R) / 40), as on Tenhou. Games count in the order of the league tab.",
                    "R は1500から始まり、対局ごとに (1 - 0.002 x 対局数、400戦以降 0.2) x "
                    "(順位点 +30/+10/-10/-30 + (卓平均R - 自分のR) / 40) 変動します（天鳳と"
                    "同じ）。対局はリーグの行の順です。"),
    "rating_player": ("Player", "プレイヤー"),
    "rating_games": ("Games", "対局数"),
    "rating_r": ("R", "R"),
    "rating_change": ("Change", "増減"),
    "rating_peak": ("Peak", "最高R"),
    "rating_low": ("Low", "最低R"),
    "rating_chart": ("R after every game", "対局ごとのR"),
    "rating_game": ("Game", "対局"),
    "h2h_title": ("Head to head", "対戦成績"),
    "h2h_player": ("Player", "プレイヤー"),
    "h2h_opponent": ("Opponent", "相手"),
    "h2h_games": ("Games", "同卓数"),
    "h2h_ahead": ("Ahead", "先着"),
    "h2h_behind": ("Behind", "後着"),
    "h2h_place_diff": ("Place +/-", "着順差"),
    "h2h_points": ("Points +/-", "得点差"),
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
    "scoring": "points（素点の差＋順位点）または places（順位点のみ: ウマと、オカありなら"
    "トップのオカ。素点は順位を決めるだけ）。",
    "shared_place": "同点で分け合った着順を成績でどう数えるか（着順回数・率・平均着順）: "
    "better（3・4着同点は3着）、worse（4着）、split（3着と4着を半分ずつ）。",
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


def _season_labels() -> None:
    """The season sheets' labels live in their own module (one topic a module)."""
    from umaoka.templates.book.season_labels import SEASON_LABELS

    _LABELS.update(SEASON_LABELS)


_season_labels()
