"""Labels of the season sheets (Season, Penalties, Season standings, the chips and
substitutes blocks of a league tab), in English and Japanese; :func:`.labels.label` finds
them with the others.
"""

from __future__ import annotations

SEASON_LABELS: dict[str, tuple[str, str]] = {
    "sheet_season": ("Season", "シーズン"),
    "sheet_penalties": ("Penalties", "罰符記録"),
    "sheet_season_standings": ("Season standings", "シーズン成績"),
    # league tab blocks
    "group_chips": ("Chips", "祝儀"),
    "group_subs": ("Substitutes", "代打ち"),
    "chips": ("{seat} chips", "{seat} 祝儀"),
    "sub": ("{seat} sub", "{seat} 代打ち"),
    "team": ("Team", "チーム"),
    "over_cap": ("Over game cap", "対局数上限超過"),
    # Season sheet
    "title_season": ("Season: stages and settings", "シーズン: ステージと設定"),
    "note_season": ("Each stage is a league tab, in order. Advance: how many go on to the next "
                    "stage (blank: everybody). Carry: what share of the previous stage's total "
                    "goes with them (full, half, zero or a factor such as 0.5). A stage's own "
                    "carry_rounding, min_games, ... absent_result go in its row; a blank cell "
                    "there is the season's setting below. `umaoka settle` and the Season "
                    "standings follow this sheet.",
                    "ステージはリーグのタブで、上から順に行います。勝ち上がり: 次のステージへ"
                    "進む人数（空欄は全員）。持ち越し: 前ステージの合計のうち持ち込む割合"
                    "（full・half・zero または 0.5 などの係数）。ステージごとの設定"
                    "（carry_rounding から absent_result まで）はその行に書き、空欄のセルは"
                    "下のシーズン設定に従います。`umaoka settle` とシーズン成績はこのシートに"
                    "従います。"),
    "note_season_settled": ("The season as it was settled (inputs locked).",
                            "精算時のシーズン設定（入力はロック）。"),
    "stage": ("Stage (league tab)", "ステージ（リーグのタブ）"),
    "stage_short": ("Stage", "ステージ"),
    "ruleset": ("Ruleset", "ルール"),
    "advance": ("Advance", "勝ち上がり"),
    "carry": ("Carry", "持ち越し"),
    # a stage row's own settings: headed by the setting's name (as in the settings table)
    "col_carry_rounding": ("carry_rounding", "持ち越しの丸め carry_rounding"),
    "col_min_games": ("min_games", "最少対局数 min_games"),
    "col_ranking": ("ranking", "順位の基準 ranking"),
    "col_tie_breaks": ("tie_breaks", "同点の順位 tie_breaks"),
    "col_game_caps": ("game_caps", "対局数の上下限 game_caps"),
    "col_chip_value": ("chip_value", "祝儀の値 chip_value"),
    "col_substitutes": ("substitutes", "代打ち substitutes"),
    "col_absent_result": ("absent_result", "欠席者のスコア absent_result"),
    "col_seeds": ("seeds", "シード seeds"),
    "settings": ("Season settings", "シーズン設定"),
    # Penalties sheet
    "title_penalties": ("Penalty log", "罰符記録"),
    "note_penalties": ("One penalty a row: date, stage (a league tab), the player (or a team: "
                       "leave Player blank), points (negative, e.g. -20) and the reason. They "
                       "count in the Season standings, for the player and the team; "
                       "penalties typed in a game row keep counting too.",
                       "1行に1件: 日付、ステージ（リーグのタブ）、プレイヤー（チームへの罰符は"
                       "プレイヤーを空欄にしてチーム）、ポイント（マイナス、例 -20）、理由。"
                       "シーズン成績のプレイヤーとチームの合計に入ります。対局行のペナルティも"
                       "これまでどおり数えます。"),
    "points": ("Points", "ポイント"),
    "reason": ("Reason", "理由"),
    # Season standings
    "title_season_standings": ("Season standings", "シーズン成績"),
    "note_season_standings": ("Each stage's standings: carried points, this stage's points "
                              "(games, chips, penalties) and the total. Players below the "
                              "minimum of games are listed apart.",
                              "ステージごとの成績: 持ち越し、このステージのポイント（対局・祝儀・"
                              "罰符）と合計。最低対局数に満たないプレイヤーは別に表示します。"),
    "note_season_standings_live": (
        "Computed by umaoka when the workbook was written; after entering games, run "
        "`umaoka settle` for the season standings as they are now (the league standings "
        "tabs update by themselves).",
        "成績表の作成時に umaoka が計算した値です。対局を入力したら `umaoka settle` で最新の"
        "シーズン成績を出してください（リーグの成績タブは自動で更新されます）。"),
    "note_season_standings_functions": (
        "Live while umaoka's functions run (MJ_SEASON, in hidden columns R:AK); with them "
        "off, the values of when the workbook was written, and row 3 warns once games or "
        "penalties change.",
        "umaoka の関数が動いている間は自動で更新されます（MJ_SEASON、非表示の R:AK 列）。"
        "関数が使えないときは作成時の値を表示し、対局や罰符が変わると3行目に警告が出ます。"),
    "season_live_error": (
        "⚠ The season standings cannot be computed now: unhide columns R:AK and point at "
        "MJ_SEASON's error for the reason; the values below are from when the workbook was "
        "written.",
        "⚠ シーズン成績を計算できません。R:AK 列を再表示し、MJ_SEASON のエラーで理由を確認して"
        "ください。下の値は作成時のものです。"),
    "stale": ("⚠ Games or penalties changed since these standings were computed: run "
              "`umaoka settle` for the standings as they are now.",
              "⚠ 成績の計算後に対局または罰符が変わりました。`umaoka settle` で最新の成績を"
              "出してください。"),
    "stage_heading": ("{name}: {games} games", "{name}: {games}局"),
    "stage_rules": ("carry {carry}, {advance}", "持ち越し {carry}、{advance}"),
    "top_advance": ("top {n} advance", "上位{n}名が勝ち上がり"),
    "all_advance": ("no cut", "カットなし"),
    "carried": ("Carried", "持ち越し"),
    "stage_points": ("Points", "ポイント"),
    "chip_points": ("Chips", "祝儀"),
    "penalties": ("Penalties", "罰符"),
    "stage_total": ("Stage", "ステージ計"),
    "advanced": ("Advanced", "勝ち上がり"),
    "advanced_mark": ("✓ advanced", "✓ 勝ち上がり"),
    "tie_break": ("Decided by", "同点決着"),
    "flags": ("Flags", "注意"),
    "not_qualified": ("Not qualified (fewer than {n} games): listed, not ranked",
                      "規定対局数（{n}局）未満: 順位なしで表示"),
    "not_ranked": ("Not ranked: fewer than {n} games", "順位なし: {n}局未満"),
    "teams_heading": ("{name}: teams", "{name}: チーム"),
    "team_chart": ("Team totals: {name}", "チーム合計: {name}"),
    "stage_notes": ("Notes", "注記"),
    "problems": ("Rows left out", "除外された行"),
    # the season report printed by `umaoka season`, `settle` and `demo` (plain text)
    "r_games": ("{n} games", "{n}局"),
    "r_game": ("1 game", "1局"),
    "r_stage": ("{name}: {games}, {rules} rules, ranked by {ranking}",
                "{name}: {games}、{rules} ルール、{ranking}順"),
    "r_rank_total": ("total", "合計"),
    "r_rank_average": ("average", "平均"),
    "r_rank_average_place": ("average place", "平均着順"),
    "r_carried_in": ("Carried in: {share} of each {unit}'s total in the previous stage, "
                     "{rounded}.", "持ち越し: 前ステージの各{unit}の合計の{share}、{rounded}。"),
    "r_share_all": ("all", "全部"),
    "r_share_half": ("half", "半分"),
    "r_share": ("{factor} x", "{factor}倍"),
    "r_unit_team": ("team", "チーム"),
    "r_unit_player": ("player", "選手"),
    "r_exact": ("exact", "端数処理なし"),
    "r_rounded": ("to {unit} ({mode})", "{unit}単位（{mode}）"),
    "r_whole": ("whole points", "1点"),
    "r_rank": ("#", "順位"),
    "r_team": ("Team", "チーム"),
    "r_player": ("Player", "選手"),
    "r_g": ("G", "局"),
    "r_carried": ("Carried", "持越"),
    "r_points": ("Points", "ポイント"),
    "r_chips": ("Chips", "祝儀"),
    "r_pen": ("Pen.", "罰符"),
    "r_total": ("Total", "合計"),
    "r_avg": ("Avg", "平均"),
    "r_note": ("Note", "備考"),
    "r_on": ("on", "進出"),
    "r_caps": ("caps", "局数"),
    "r_seed": ("seed", "シード"),
    "r_seeded": ("{seed}: seeded into this stage whatever the cut (see the note).",
                 "{seed}: 勝ち上がりに関係なく出場（注記を参照）。"),
    "r_not_ranked": ("Not ranked (fewer than {games}):", "順位なし（{games}未満）:"),
    "r_goes_on": ("{on}: goes on to {stage} ({who}).", "{on}: {stage}へ進出（{who}）。"),
    "r_top": ("top {n}", "上位{n}名"),
    "r_all": ("all {n}", "全{n}名"),
    "r_tie": ("tb:{code}: tie decided by {how}.", "tb:{code}: 同点の決め手は「{how}」。"),
    "r_outside_caps": ("{caps}: outside the game caps {range} (see Flags).",
                       "{caps}: 対局数の範囲 {range} の外（「注意」を参照）。"),
    "r_stage_note": ("Note: {text}", "注記: {text}"),
    "r_penalty_log": ("Penalty log", "罰符記録"),
    "r_date": ("Date", "日付"),
    "r_stage_col": ("Stage", "ステージ"),
    "r_who": ("Player/team", "選手/チーム"),
    "r_reason": ("Reason", "理由"),
    "r_flags": ("Flags", "注意"),
    "r_warning_prefix": ("warning", "警告"),
    # settle's last line and the title of its standings
    "r_wrote": ("wrote {path}: {what}", "{path} を書き出しました: {what}"),
    "r_posted": ("wrote {picture} (a picture to share) and {page} (a web page)",
                 "{picture}（共有用の画像）と {page}（ウェブページ）を書き出しました"),
    "r_settled": ("{games} settled", "{games}を精算"),
    "r_not_settled": ("{n} rows not settled", "精算できない行 {n}"),
    "r_not_settled_one": ("1 row not settled", "精算できない行 1"),
    "r_warnings": ("{n} warnings", "警告 {n}"),
    "r_warning": ("1 warning", "警告 1"),
    # `umaoka demo`
    "r_demo": ("Demo league: {games}, {stages} stages, ruleset {rules}",
               "デモリーグ: {games}、{stages}ステージ、ルール {rules}"),
    "r_demo_league": ("wrote {path} (formulas for {runtime}, results saved in the file; see "
                      "its Start sheet)",
                      "{path} を書き出しました（{runtime} 用の数式、結果も保存済み。"
                      "「はじめに」シートを参照）"),
    "r_demo_settled": ("wrote {path} (settled copy: a report with plain values, opens "
                       "anywhere)",
                       "{path} を書き出しました（確定版: 値だけのレポート。どこでも開けます）"),
}

#: The penalty reasons a Penalties sheet's dropdown offers (any other text is fine too).
REASONS_JA = ("チョンボ", "遅刻", "欠席", "マナー違反", "その他")
