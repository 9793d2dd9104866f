"""One stage, two standings, each saying on its face what it counts (#24 item 3).

A league tab's standings sheet and the overall Standings count each game's finals as
typed; the Season standings also count carry, the penalty log, chips and substitutes and
rank by the season's rules. In a season workbook the first two say so; a workbook without
a season does not carry the note."""

from umaoka.templates.book.labels import label
from umaoka.templates.build import build_workbook
from umaoka.templates.demo import demo_book


def _notes(wb):
    return {ws.title: ws.cell(2, 1).value for ws in wb.worksheets
            if "Standings" in ws.title or ws.title.endswith("成績")}


def test_season_workbook_standings_say_they_count_the_finals_as_typed():
    for lang in ("en", "ja"):
        for settled in (False, True):
            wb = build_workbook(demo_book(40, lang=lang, season=True), settled=settled)
            notes = _notes(wb)
            tabs = [t for t in notes if t not in ("Season standings", "シーズン成績")]
            assert tabs, notes
            for title in tabs:
                assert label("note_not_season", lang) in notes[title], (title, notes[title])


def test_plain_league_workbook_has_no_season_note():
    wb = build_workbook(demo_book(40))
    for title, note in _notes(wb).items():
        assert label("note_not_season", "en") not in (note or ""), title


def test_the_note_is_true_chips_penalty_log_and_the_seat_of_a_substitute(tmp_path):
    """#35 item 5: the tab's standings count chips and the penalty log (as the note says)
    and give a substitute's game to the player of the seat; the Season standings count the
    same stage by the season's substitutes setting. The two differ by that game only."""
    from decimal import Decimal

    from openpyxl import load_workbook

    from umaoka.addin.cli.app import main
    from umaoka.engine import settle
    from umaoka.templates.book.season_book import season_result
    from umaoka.templates.settle_book import read_book

    assert main(["demo", str(tmp_path), "--games", "60"]) == 0
    book = read_book(tmp_path / "demo_league.xlsx")
    stage = book.leagues[0]
    rules = book.rules_of(stage).ruleset
    [(game, seat)] = [(g, k) for g in stage.games for k, s in enumerate(g.subs or []) if s]
    seated = game.players[seat]
    sub_final = settle(game.scores, rules, game.deposits or 0, game.penalties).final[seat]
    season = season_result(book)
    assert season.season.stages[0].substitutes == "team"  # the demo's: the team only
    lines = {p.name: p for p in season.stages[0].players}
    ws = load_workbook(tmp_path / "demo_league_settled.xlsx", data_only=True)[
        f"{stage.name} Standings"]
    tab = {}
    for r in ws.iter_rows(min_row=5, values_only=True):
        if not r[1]:
            break  # the chart's data follow
        tab[r[1]] = Decimal(str(r[3]))
    assert any(p.chips for p in lines.values()) and any(p.penalties for p in lines.values())
    for name, total in tab.items():
        p = lines[name]
        want = p.points + p.chips + p.penalties + (sub_final if name == seated else 0)
        assert total == want, name
