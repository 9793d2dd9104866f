"""Seeded entrants: a stage's ``seeds`` enter it whatever the cut before it, as the defending
title holder joins the top 3 of the A league in the JPML 鳳凰位決定戦 and the 最高位決定戦.

A league (advance = 3), then the Final (carry zero, seeds = Holder), under jpml-a (30,000
start, no oka, floating uma, exact to 0.1). The holder plays only the Final. Worked by
hand: A league Aki +30.0, Eri +14.0, Chie +9.0 go on (Fumi -16.0, Ben -18.0, Dan -19.0 do
not); in the Final (40,000 / 30,000 / 30,000 / 20,000, two floating: uma 8/4/-4/-8)
Holder +18.0, Aki and Eri +2.0 each, Chie -22.0. Each view gives the holder a line in the
Final, counts the holder's game, and says the holder was seeded.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from test_mjseason import mj_season, season_args

from umaoka.addin.cli.app import main
from umaoka.engine import UmaokaError
from umaoka.engine.season.settings import parse_seeds, read_season
from umaoka.engine.season.stages import Seed, run_season
from umaoka.templates.book.model import Game, make_book
from umaoka.templates.book.season_book import SETTINGS, SeasonSpec, StageRow, season_result
from umaoka.templates.build import write_league
from umaoka.templates.settle_book import read_book, write_settled

SEASON_INI = """\
[season]
name = Title 2026
ruleset = jpml-a

[stage A league]
advance = 3

[stage Final]
carry = zero
seeds = Holder
"""

SEASON_JSON = {"name": "Title 2026", "ruleset": "jpml-a",
               "stages": [{"name": "A league", "advance": 3},
                          {"name": "Final", "carry": "zero", "seeds": ["Holder"]}]}

A_LEAGUE = [(["Aki", "Ben", "Chie", "Dan"], [50000, 35000, 25000, 10000]),
            (["Eri", "Fumi", "Aki", "Ben"], [45000, 30000, 30000, 15000]),
            (["Chie", "Dan", "Eri", "Fumi"], [40000, 35000, 25000, 20000])]
FINAL = [(["Holder", "Aki", "Eri", "Chie"], [40000, 30000, 30000, 20000])]
SEATS = ("east", "south", "west", "north")

#: The Final's standings worked by hand: name, carried, points, total.
FINAL_LINES = [("Holder", 0, Decimal(18), Decimal(18)), ("Aki", 0, Decimal(2), Decimal(2)),
               ("Eri", 0, Decimal(2), Decimal(2)), ("Chie", 0, Decimal(-22), Decimal(-22))]
NOTE = "Seeded into Final whatever the cut: Holder (nothing carried)."


def rows(stage: str, games: list[tuple[list[str], list[int]]]) -> list[dict[str, Any]]:
    out = []
    for names, scores in games:
        row: dict[str, Any] = {"stage": stage}
        for seat, name, score in zip(SEATS, names, scores):
            row[seat], row[f"{seat}_score"] = name, score
        out.append(row)
    return out


def games_csv(path: Path) -> Path:
    lines = ["stage," + ",".join(f"{s},{s}_score" for s in SEATS)]
    for stage, games in (("A league", A_LEAGUE), ("Final", FINAL)):
        for names, scores in games:
            lines.append(stage + "," + ",".join(f"{n},{s}" for n, s in zip(names, scores)))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def check_final(result: Any) -> None:
    a_league, final = result.stages
    assert not result.problems  # the holder's game counts
    assert a_league.advanced == ("Aki", "Eri", "Chie")
    assert [(p.name, p.carried, p.points, p.total) for p in final.players] == FINAL_LINES
    assert final.players[0].flags == ("seeded",)
    assert final.notes == (NOTE,)
    assert result.flags == ()  # a seed is no problem to flag


@pytest.mark.parametrize("form", ["ini", "json"])
def test_season_file_and_json(form: str) -> None:
    text = SEASON_INI if form == "ini" else json.dumps(SEASON_JSON)
    season = read_season(text, form)
    assert season.stages[1].seeds == (Seed("Holder"),)
    check_final(run_season(season, rows("A league", A_LEAGUE) + rows("Final", FINAL)))


def test_without_seeds_the_holder_is_left_out() -> None:
    season = read_season(SEASON_INI.replace("seeds = Holder\n", ""))
    result = run_season(season, rows("A league", A_LEAGUE) + rows("Final", FINAL))
    assert "Holder did not advance to Final" in " ".join(result.problems)
    assert "Holder" not in [p.name for p in result.stages[1].players]


def test_a_seed_who_plays_the_stage_before_takes_no_place_in_its_cut() -> None:
    """The holder also plays the A league and finishes 3rd: the cut of 3 passes over the
    seed, so the best three others (Aki, Eri, Chie) go on, and the holder enters with the
    seed's own carry (12.5), not the A league's total."""
    season = read_season(SEASON_INI.replace("seeds = Holder", "seeds = Holder: 12.5"))
    a_league = [(["Aki", "Holder", "Chie", "Dan"], [50000, 35000, 25000, 10000]),
                (["Eri", "Holder", "Aki", "Ben"], [45000, 30000, 30000, 15000]),
                (["Chie", "Dan", "Eri", "Ben"], [40000, 35000, 25000, 20000])]
    result = run_season(season, rows("A league", a_league) + rows("Final", FINAL))
    first, final = result.stages
    assert [p.name for p in first.players[:4]] == ["Aki", "Eri", "Holder", "Chie"]
    assert first.advanced == ("Aki", "Eri", "Chie")
    assert [p.name for p in first.players if p.advanced] == ["Aki", "Eri", "Holder", "Chie"]
    assert "Holder goes on as seeded, outside the cut of 3." in first.notes
    holder = final.players[0]
    assert (holder.name, holder.carried, holder.total) == ("Holder", Decimal("12.5"),
                                                           Decimal("30.5"))
    assert final.notes == ("Seeded into Final whatever the cut: Holder (carried +12.5).",)


def test_seed_settings_errors() -> None:
    assert [s.text() for s in parse_seeds("Kobayashi, Sato: -4.5")] == ["Kobayashi",
                                                                       "Sato: -4.5"]
    with pytest.raises(UmaokaError, match="the first stage .* has seeds"):
        read_season("[stage A]\nseeds = Holder\nadvance = 2\n[stage B]\ncarry = zero")
    with pytest.raises(UmaokaError, match="Holder is seeded twice"):
        read_season(SEASON_INI.replace("seeds = Holder", "seeds = Holder, Holder"))
    with pytest.raises(UmaokaError, match=r'carry of the seed Holder \("lots"\) is not'):
        read_season(SEASON_INI.replace("seeds = Holder", "seeds = Holder: lots"))
    with pytest.raises(UmaokaError, match='"seeds" is not a season setting'):
        read_season("seeds = Holder\n" + SEASON_INI.split("\n", 1)[1])
    roster = SEASON_INI.replace("ruleset = jpml-a", "ruleset = jpml-a\nplayers = Aki, Ben")
    with pytest.raises(UmaokaError, match='the seed Holder is not a player of this season'):
        read_season(roster)


def test_umaoka_season(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "season.ini").write_text(SEASON_INI, encoding="utf-8")
    csv = games_csv(tmp_path / "games.csv")
    assert main(["season", str(tmp_path / "season.ini"), str(csv), "--stage", "Final"]) == 0
    out, err = capsys.readouterr()
    assert not err
    lines = out.splitlines()
    holder = next(x for x in lines if x.split()[1:2] == ["Holder"])
    assert holder.split() == ["1", "Holder", "1", "+18.0", "+18.0", "+18.00", "seed"]
    assert "seed: seeded into this stage whatever the cut (see the note)." in out
    assert f"Note: {NOTE}" in out
    assert main(["season", str(tmp_path / "season.ini"), str(csv), "--lang", "ja"]) == 0
    assert "シード" in capsys.readouterr().out


def season_book() -> Any:
    """The same season as a league workbook: a tab per stage, the Season sheet's Final row
    seeding the holder."""
    book = make_book(["jpml-a"], ["A league", "Final"],
                     ["Aki", "Ben", "Chie", "Dan", "Eri", "Fumi", "Holder"])
    for lg, games in zip(book.leagues, (A_LEAGUE, FINAL)):
        lg.games = [Game(session=1, players=list(n), scores=list(s), penalties=[None] * 4)
                    for n, s in games]
    book.season = SeasonSpec([StageRow("A league", 3),
                              StageRow("Final", None, "zero", {"seeds": "Holder"})],
                             dict(SETTINGS, name="Title 2026"))
    return book


def season_lines(ws: Any, stage: str) -> dict[str, list[Any]]:
    """The lines of one stage's player table on a Season standings sheet, by name."""
    out: dict[str, list[Any]] = {}
    inside = False
    for row in ws.iter_rows(min_row=4, values_only=True):
        first = row[0]
        if isinstance(first, str) and row[1] is None and first != "Rank":
            inside = first.startswith(stage) and "teams" not in first
            continue
        if inside and row[1] not in (None, "", "Player"):
            out[row[1]] = list(row)
    return out


def check_sheet(ws: Any) -> None:
    final = season_lines(ws, "Final")
    assert list(final) == ["Holder", "Aki", "Eri", "Chie"]
    holder = final["Holder"]
    assert holder[0] == 1 and holder[3] == 1 and holder[9] == 18  # rank, games, total
    assert holder[14] == "seeded"  # the Flags column
    texts = [str(c) for row in ws.iter_rows(values_only=True) for c in row if c]
    assert any(NOTE in t for t in texts)


def test_workbook_season_sheet_saved_values_and_settled_copy(tmp_path: Path) -> None:
    book = season_book()
    assert [(p.name, p.total) for p in season_result(book).stages[1].players] == [
        (name, total) for name, _, _, total in FINAL_LINES]
    src = write_league(book, tmp_path / "title.xlsx")
    # the Season sheet's Final row holds the seed, in the seeds column (M), and reads back
    ws = load_workbook(src)["Season"]
    assert ws["M4"].value == "seeds" and ws["A6"].value == "Final" and ws["M6"].value == "Holder"
    back = read_book(src)
    assert back.season.stages[1].settings["seeds"] == "Holder"
    check_final(season_result(back))
    # the template's saved values of the Season standings
    check_sheet(load_workbook(src, data_only=True)["Season standings"])
    # the settled copy
    out = tmp_path / "settled.xlsx"
    write_settled(back, out, source=src.name)
    check_sheet(load_workbook(out)["Season standings"])


def test_mj_season() -> None:
    book = season_book()
    args = season_args(book)
    args[0] = [row + [""] * 8 + [s.settings.get("seeds", "")]  # the seeds column, M
               for row, s in zip(args[0], book.season.stages)]
    table = mj_season(args, "Final", "players")
    header = table[0]
    lines = [dict(zip(header, r)) for r in table[1:] if r[1]]
    assert [(x["Name"], x["Total"], x["Flags"]) for x in lines[:4]] == [
        ("Holder", 18, "seeded"), ("Aki", 2, ""), ("Eri", 2, ""), ("Chie", -22, "")]
    assert any(r[0] == NOTE for r in table)


def test_umaoka_new_from_a_season_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "season.json").write_text(json.dumps(SEASON_JSON), encoding="utf-8")
    path = tmp_path / "title.xlsx"
    assert main(["new", str(path), "--season", str(tmp_path / "season.json")]) == 0
    capsys.readouterr()
    back = read_book(path)
    assert [(s.name, s.settings.get("seeds")) for s in back.season.stages] == [
        ("A league", None), ("Final", "Holder")]
