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
