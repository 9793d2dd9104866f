"""Importing online results: Tenhou lobby lines and game logs, finals CSV, duplicates, CLI."""

from __future__ import annotations

import doctest
import gzip
import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umaoka.addin.cli.app import main
from umaoka.engine import settle
from umaoka.engine.online import imported, imports, tenhou
from umaoka.engine.online.imports import (
    ImportedGame,
    ImportResult,
    drop_duplicates,
    finals_rows,
    parse_finals_csv,
    read_results,
)
from umaoka.engine.online.tenhou import parse_json, parse_lobby, parse_mjlog

DATA = Path(__file__).parent / "data" / "imports"
LOBBY = DATA / "sca20260404.log"
MJLOG = DATA / "2026040420gm-0001-1002-0a1b2c3d.mjlog"
SANMA_MJLOG = DATA / "2026040421gm-0019-1045-1a2b3c4d.mjlog"
JSON_WIN = DATA / "2026040421gm-0009-1002-5e6f7a8b.json"
JSON_DRAW = DATA / "draw-ending.json"
JSON_SANMA = DATA / "sanma.json"
FINALS = DATA / "mahjongsoul-night.csv"


def d(*values: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(v) for v in values)


def load(path: Path) -> ImportResult:
    return read_results(path.name, path.read_bytes())


@pytest.mark.parametrize("module", [imported, imports, tenhou])
def test_docstring_examples(module) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# ------------------------------------------------------------------------------------------------
# Tenhou lobby lines


def test_lobby_file_awkward_names_chips_sanma_and_bad_lines() -> None:
    result = load(LOBBY)  # CRLF line ends, as tenhou.net/sc/raw serves them
    games = {g.line: g for g in result.games}
    assert sorted(games) == [1, 2, 3, 4, 9, 10, 11]
    first = games[1]
    assert first.names == ("しきさん", "NoName", "あたまくん", "*芹澤六花*")
    assert first.finals == d("61.0", "0.0", "-25.0", "-36.0")
    assert first.places == (1, 2, 3, 4) and first.settled and first.scores is None
    assert (first.date.isoformat(), first.time, first.lobby, first.rule) == \
        ("2026-04-04", "00:44", "L1002", "四般南喰赤－")
    # parentheses inside names: the result is the last (number) before a space
    assert games[2].names == ("たろう(仮)", "(^_^)", "No.1(2.0)", "a(b)c")
    assert games[2].finals == d("48.0", "12.0", "-20.0", "-40.0")
    assert games[3].chips == (2, 6, -3, -5) and games[3].finals == d("57", "20", "-24", "-53")
    assert games[4].names == ("ごつごつ", "RaFaFa", "はらこはらこ") and games[4].players == 3
    # the ranked lobby's summary form: time | minutes | rules | players
    assert games[10].names[0] == "最終回" and games[10].time == "23:59" and not games[10].lobby
    lines = {p.line: p.message for p in result.problems}
    assert sorted(lines) == [6, 7, 8, 12, 13]
    assert "expected 4 players" in lines[6] and "found 3" in lines[6]
    assert "not in finishing order" in lines[7]
    assert "not a Tenhou lobby result" in lines[8]
    assert "should start with 四" in lines[12]
    assert "chips" in lines[13]
    assert str(result.problems[0]).startswith("sca20260404.log line 6: ")


def test_lobby_lines_pasted_without_a_file_name_have_no_date() -> None:
    result = parse_lobby("  L1002 | 9:05 | 四般東喰赤－ |  A(+40.0)  B(+20.0)  C(-20.0)  D(-40.0) ")
    g = result.games[0]
    assert g.date is None and g.time == "09:05" and g.names == ("A", "B", "C", "D")
    assert parse_lobby("# a comment\n\n").games == []
    bad = parse_lobby("L1002 | 00:44 | 四般南喰赤－ | A(+50.0) B(+10.0) (-20.0) D(-40.0)")
    assert "no name" in bad.problems[0].message
    twice = parse_lobby("L1002 | 00:44 | 四般南喰赤－ | A(+50.0) B(+10.0) A(-20.0) D(-40.0)")
    assert "listed twice" in twice.problems[0].message
    tail = parse_lobby("L1002 | 00:44 | 三般南喰赤－ | A(+50.0) B(+10.0) C(-60.0) extra")
    assert "check the line is complete" in tail.problems[0].message


NAME = st.text(st.characters(blacklist_categories=("Z", "C")), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(names=st.lists(NAME, min_size=4, max_size=4, unique=True),
       finals=st.lists(st.integers(-999, 999), min_size=4, max_size=4))
def test_lobby_lines_round_trip_any_names(names: list[str], finals: list[int]) -> None:
    finals = sorted(finals, reverse=True)
    text = " ".join(f"{n}({'+' if f > 0 else ''}{f / 10:.1f})" for n, f in zip(names, finals))
    result = parse_lobby(f"L1234 | 12:00 | 四般南喰赤－ | {text}")
    assert not result.problems, result.problems
    g = result.games[0]
    assert list(g.names) == names
    assert g.finals == tuple(Decimal(f).scaleb(-1) for f in finals)


def test_lobby_file_gzip_and_shift_jis() -> None:
    packed = gzip.compress(LOBBY.read_bytes())
    result = read_results("sca20260404.log.gz", packed)
    assert len(result.games) == 7 and result.games[0].date.isoformat() == "2026-04-04"
    sjis = "L1002 | 00:44 | 四般南喰赤－ | しきさん(+61.0) 甲(0.0) 乙(-25.0) 丙(-36.0)"
    assert read_results("x.log", sjis.encode("cp932")).games[0].names[1] == "甲"
    broken = read_results("x.log.gz", b"\x1f\x8b" + b"garbage")
    assert "cannot be unpacked" in broken.problems[0].message
    # b"\xff\xfe..." would now read as UTF-16 (Excel's "Unicode text"): truly undecodable bytes
    undecodable = b"\x81\x00\xff\xfe\x80" * 3 + b"\xfd"
    assert "neither UTF-8" in read_results("x.log", undecodable).problems[0].message
    assert '"xml" is not a results format' in read_results("x", b"", "xml").problems[0].message


# ------------------------------------------------------------------------------------------------
# Tenhou game logs


def test_mjlog_raw_scores_in_seat_order_with_leftover_sticks() -> None:
    result = load(MJLOG)
    assert not result.problems
    g = result.games[0]
    assert g.names == ("あかり(仮)", "ぼぶ", "C&D", "<Eve>")  # URL-decoded, East first
    assert not g.settled and g.places is None
    # Tenhou's owari gave the two leftover sticks to 1st; they come back out as deposits
    assert g.scores == (24200, 31500, 26800, 15500) and g.deposits == 2000
    assert g.finals == d("-15.8", "43.5", "6.8", "-34.5") and g.start == 25000
    assert (g.rule, g.lobby, g.ref, g.date.isoformat()) == \
        ("四般東喰赤", "L1002", "2026040420gm-0001-1002-0a1b2c3d", "2026-04-04")
    # settled under the league's rules like a typed game: Tenhou's rules give Tenhou's finals
    assert settle(g.scores, "tenhou", g.deposits).final == g.finals
    lost = settle(g.scores, "tenhou; leftover=lost", g.deposits).final
    assert lost[1] == Decimal("41.5") and sum(lost) == Decimal("-2.0")


def test_mjlog_seat_order_starts_with_the_first_dealer() -> None:
    text = MJLOG.read_text(encoding="utf-8").replace('<TAIKYOKU oya="0"/>',
                                                     '<TAIKYOKU oya="2"/>')
    g = parse_mjlog(text.encode(), MJLOG.name).games[0]
    assert g.names == ("C&D", "<Eve>", "あかり(仮)", "ぼぶ")
    assert g.scores == (26800, 15500, 24200, 31500)


def test_mjlog_sanma() -> None:
    g = load(SANMA_MJLOG).games[0]
    assert g.names == ("さんま1号", "Ｔａｒｏ", "猫(ねこ)") and g.players == 3
    assert g.scores == (23000, 35000, 47000) and g.deposits == 0 and g.rule == "三般南喰赤"
    assert settle(g.scores, "tenhou-sanma").final == g.finals == d("-37.0", "-5.0", "42.0")


def test_json_logs() -> None:
    win = load(JSON_WIN).games[0]
    assert win.names == ("ぜろ", "Q(+1.0)", "三毛猫", "N/A")
    assert win.scores == (16300, 30700, 24000, 29000) and win.deposits == 0
    assert win.ref == "2026040421gm-0009-1002-5e6f7a8b" and win.date.isoformat() == "2026-04-04"
    assert settle(win.scores, "tenhou-classic").final == win.finals == d("-34", "41", "-16", "9")
    draw = load(JSON_DRAW).games[0]  # a draw with two riichi sticks (r tiles) in the last hand
    assert draw.scores == (25500, 23500, 31500, 17500) and draw.deposits == 2000
    assert draw.date is None
    assert settle(draw.scores, "tenhou-classic", draw.deposits).final == draw.finals
    sanma = load(JSON_SANMA).games[0]
    assert sanma.names == ("さん1", "さん2", "さん3") and sanma.scores == (35000, 23000, 47000)


def test_bad_logs_are_problems_not_errors() -> None:
    broken = parse_json('{"name": ["A",\n "B",\n oops]}', "x.json")
    assert broken.problems[0].line == 3 and "not valid JSON" in broken.problems[0].message
    assert "lacks name, sc or log" in parse_json('{"a": 1}', "x.json").problems[0].message
    data = json.loads(JSON_WIN.read_text(encoding="utf-8"))
    data["sc"][0] = 17300  # the points no longer add up
    assert "add up to" in parse_json(json.dumps(data), "x.json").problems[0].message
    data = json.loads(JSON_DRAW.read_text(encoding="utf-8"))
    data["log"][-1][-1][1][0] = 2500  # the draw's payments disagree with the final points
    assert "do not match" in parse_json(json.dumps(data), "x.json").problems[0].message
    data["log"] = [[1]]
    assert "layout" in parse_json(json.dumps(data), "x.json").problems[0].message
    bomb = ('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
            '<!ENTITY b "&a;&a;&a;&a;&a;&a;">]><mjloggm>&b;</mjloggm>')
    assert "entities" in parse_mjlog(bomb, "x.mjlog").problems[0].message
    assert "not valid XML" in parse_mjlog("<mjloggm><GO", "x.mjlog").problems[0].message
    assert "<mjloggm>" in parse_mjlog("<html/>", "x.mjlog").problems[0].message
    unfinished = MJLOG.read_text(encoding="utf-8").replace(' owari="', ' x="')
    assert "is the game finished" in parse_mjlog(unfinished, "x").problems[0].message
    damaged = MJLOG.read_text(encoding="utf-8").replace('sc="227,15,', 'sc="227,25,')
    assert "do not match" in parse_mjlog(damaged, "x").problems[0].message


# ------------------------------------------------------------------------------------------------
# Finals CSV and duplicates


def test_finals_csv_from_another_platform() -> None:
    result = load(FINALS)
    g = result.games
    assert [x.names for x in g] == [("Aki", "Ben", "Chie", "Dan"), ("Emi", "Fumi", "Gen"),
                                    ("Ben", "Aki", "Dan", "Chie")]
    assert g[0].finals == d("52.1", "8.3", "-19.4", "-41.0")  # ▲ is minus
    assert g[0].scores == (42100, 28300, 20600, 9000) and g[1].scores is None
    assert (g[0].time, g[0].table) == ("19:00", "1")
    assert [(p.line, p.message.split(";")[0]) for p in result.problems] == [
        (5, 'the date "2026-04-31" is not a date'),
        (6, 'Ben\'s final score ("ten") is not a number'),
        (7, "the same player is listed twice (Emi, Emi, Gen, Hana).")]
    header = parse_finals_csv("date,first,first_final\n", "y.csv").problems[0]
    assert header.line == 1 and "lacks second" in header.message
    assert "empty" in parse_finals_csv("", "y.csv").problems[0].message


def test_finals_csv_round_trip() -> None:
    games = load(LOBBY).games + load(FINALS).games
    rows = finals_rows(games)
    text = "\n".join(",".join(str(c) for c in r) for r in rows)
    back = parse_finals_csv(text, "out.csv").games
    assert [(b.names, b.finals, b.date, b.time, b.lobby, b.scores) for b in back] == \
        [(g.names, g.finals, g.date, g.time, g.lobby, g.scores) for g in games]
    with pytest.raises(ValueError):
        finals_rows(load(MJLOG).games)


def test_duplicates_within_a_file_across_formats_and_against_earlier_imports() -> None:
    result = ImportResult()
    for path in (LOBBY, MJLOG, JSON_WIN):
        result.extend(load(path))
    kept = drop_duplicates(result)
    dupes = [str(p) for p in kept.problems if "imported twice" in p.message]
    assert dupes == [
        "sca20260404.log line 9: the same game as sca20260404.log line 1 (imported twice); "
        "skipped.",
        "2026040420gm-0001-1002-0a1b2c3d.mjlog: the same game as sca20260404.log line 11 "
        "(imported twice); skipped."]
    assert len(kept.games) == len(result.games) - 2
    # the same log a second time (saved as JSON, then as JSON again under another name)
    again = ImportResult(games=[*load(JSON_WIN).games,
                                *parse_json(JSON_WIN.read_text(encoding="utf-8"), "b").games])
    assert len(drop_duplicates(again).games) == 1
    seen: dict = {}
    drop_duplicates(load(FINALS), seen)
    assert drop_duplicates(load(FINALS), seen).games == []


def test_the_same_result_twice_in_a_night_is_not_a_duplicate() -> None:
    text = ("L1002 | 20:05 | 四般南喰赤－ | A(+50.0) B(+10.0) C(-20.0) D(-40.0)\n"
            "L1002 | 21:10 | 四般南喰赤－ | A(+50.0) B(+10.0) C(-20.0) D(-40.0)\n"
            "L1002 | 21:10 | 四般南喰赤－ | A(+50.0) B(+10.0) C(-20.0) D(-40.0)\n")
    result = drop_duplicates(parse_lobby(text, "sca20260404.log"))
    assert [g.line for g in result.games] == [1, 2]
    assert [p.line for p in result.problems] == [3]


def test_raw_keys_tell_games_apart() -> None:
    a = ImportedGame(("A", "B", "C", "D"), False, scores=(30000, 30000, 20000, 20000))
    b = ImportedGame(("A", "B", "C", "D"), False, scores=(30000, 20000, 30000, 20000))
    assert not a.keys() & b.keys()


# ------------------------------------------------------------------------------------------------
# umaoka import


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fits_80_columns(out: str) -> bool:
    """Every printed line but the "wrote PATH" ones is at most 80 cells wide (CJK count 2)."""
    from rich.cells import cell_len

    return all(cell_len(line) <= 80 for line in out.splitlines() if not line.startswith("wrote"))


def test_cli_import_lobby_writes_finals_csv_and_never_clobbers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv = tmp_path / "night.csv"
    code, out, err = run(capsys, "import", str(LOBBY), "-o", str(out_csv))
    assert code == 0 and "wrote" in out and "finals CSV" in out
    assert fits_80_columns(out)
    assert err.count("warning") == 6 and "line 9: the same game as" in err
    data = out_csv.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and "*芹澤六花*" in data.decode("utf-8-sig")
    assert len(parse_finals_csv(data.decode("utf-8-sig"), "x").games) == 6
    code, _, err = run(capsys, "import", str(LOBBY), "-o", str(out_csv))
    assert code == 2 and "--force" in err and out_csv.read_bytes() == data
    # importing the same night again, against the earlier output: nothing new
    code, _, err = run(capsys, "import", str(LOBBY), "--existing", str(out_csv))
    assert code == 2 and "no game could be imported" in err
    assert err.count("imported twice") == 7
    code, _, _ = run(capsys, "import", str(LOBBY), "--strict", "-o", str(tmp_path / "s.csv"))
    assert code == 2 and not (tmp_path / "s.csv").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files


def test_cli_import_logs_write_a_batch_csv_that_batch_settles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "night"
    folder.mkdir()
    out_csv = folder / "logs.csv"
    code, out, err = run(capsys, "import", str(MJLOG), str(JSON_WIN), str(JSON_DRAW),
                         "-o", str(out_csv))
    assert code == 0 and not err and "batch CSV" in out
    text = out_csv.read_text(encoding="utf-8-sig").splitlines()
    assert text[1].startswith("2026-04-04,,,1,あかり(仮),24200,ぼぶ,31500,C&D,26800,<Eve>,15500,2000")
    code, out, err = run(capsys, "batch", str(folder), "--ruleset", "tenhou")
    assert code == 0 and "3 games" in out, err
    code, out, err = run(capsys, "import", str(MJLOG), str(LOBBY), "-o", str(tmp_path / "m.csv"))
    assert code == 2 and "mix platform results" in err
    code, out, err = run(capsys, "import", str(MJLOG), str(SANMA_MJLOG), "-o",
                         str(tmp_path / "m.csv"))
    assert code == 2 and "four- and three-player" in err


# ------------------------------------------------------------------------------------------------
# Issue 33 item 5: names in another case, and chips


CASE_NIGHT = ("L1002 | 00:44 | 四般南喰赤－ | aki(+61.0) Ben(0.0) Chie(-25.0) Dan(-36.0)\n"
              "C3630 | 23:25 | 四般南喰赤祝 | Ben(+57.0,+2枚) aki(+20.0,+6枚) Chie(-24.0,-3枚) "
              "Dan(-53.0,-5枚)\n")


def _tab(path: Path) -> list[tuple[list[str], list[object], list[object]]]:
    from umaoka.templates.settle_book import read_book

    return [(list(g.players), list(g.given), list(g.chips))
            for g in read_book(path).leagues[0].games if not g.is_blank()]


def test_import_spells_a_name_as_the_roster_and_finds_it_again_after_a_fix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``aki`` for the roster's ``Aki`` goes in as ``Aki``, and the command says so; the
    same log imported again is the same games. A tab still holding ``aki`` (typed, or
    imported by an older umaoka) and fixed by hand to ``Aki`` (or not) is matched whatever
    the case: the games are not added twice."""
    import datetime as dt

    from openpyxl import load_workbook

    from umaoka.templates.book.model import Game, make_book
    from umaoka.templates.build import write_league

    night = tmp_path / "sca20260404.log"
    night.write_text(CASE_NIGHT, encoding="utf-8")
    book = tmp_path / "league.xlsx"
    assert run(capsys, "new", str(book), "--players", "Aki,Ben,Chie,Dan")[0] == 0
    code, out, err = run(capsys, "import", str(night), "--into", str(book))
    assert code == 0 and "spelt as on the Players sheet: aki as Aki" in out, out + err
    assert "new on the Players sheet" not in out
    assert [names for names, _, _ in _tab(book)] == [["Aki", "Ben", "Chie", "Dan"],
                                                     ["Ben", "Aki", "Chie", "Dan"]]
    code, _, err = run(capsys, "import", str(night), "--into", str(book))
    assert code == 2 and err.count("already in the workbook") == 2, err
    # an older tab: "aki" in the cells; imported again, fixed to "Aki", imported again
    old = make_book(["standard"], players=["Aki", "Ben", "Chie", "Dan"])
    old.leagues[0].given = True
    old.leagues[0].games.append(Game(players=["aki", "Ben", "Chie", "Dan"], scores=[None] * 4,
                                     penalties=[None] * 4, given=[61, 0, -25, -36],
                                     date=dt.datetime(2026, 4, 4, 0, 44)))
    older = write_league(old, tmp_path / "older.xlsx")
    code, out, err = run(capsys, "import", str(night), "--into", str(older))
    assert code == 0 and "1 game added" in out, out + err
    assert err.count("already in the workbook") == 1 and "line 1: the same game as League!row 5" \
        in err, err
    assert _tab(older)[0][0] == ["aki", "Ben", "Chie", "Dan"]  # what was typed stays
    wb = load_workbook(older)  # the manager fixes the cell
    wb["League"]["E5"] = "Aki"
    wb.save(older)
    code, _, err = run(capsys, "import", str(night), "--into", str(older))
    assert code == 2 and err.count("already in the workbook") == 2, err
    assert [names for names, _, _ in _tab(older)] == [["Aki", "Ben", "Chie", "Dan"],
                                                      ["Ben", "Aki", "Chie", "Dan"]]


def test_chip_lines_go_into_the_chips_block_and_the_finals_csv(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    night = tmp_path / "sca20260404.log"
    night.write_text(CASE_NIGHT, encoding="utf-8")
    chips = tmp_path / "chips.xlsx"
    assert run(capsys, "new", str(chips), "--players", "Aki,Ben,Chie,Dan", "--chips")[0] == 0
    code, _, err = run(capsys, "import", str(night), "--into", str(chips))
    assert code == 0 and "left out" not in err, err
    assert _tab(chips)[1] == (["Ben", "Aki", "Chie", "Dan"], [57, 20, -24, -53], [2, 6, -3, -5])
    assert _tab(chips)[0][2] in ([], [None] * 4)  # a lobby without chips: none typed
    # a workbook without a Chips block: the games go in, the command says chips were left out
    plain = tmp_path / "plain.xlsx"
    assert run(capsys, "new", str(plain), "--players", "Aki,Ben,Chie,Dan")[0] == 0
    code, _, err = run(capsys, "import", str(night), "--into", str(plain))
    assert code == 0 and len(_tab(plain)) == 2
    assert ("warning: the chips (枚) of 1 chip-lobby game(s) were left out: League has no "
            "Chips block") in err, err
    # -o: the finals CSV carries them, and reads them back (into a Chips block too)
    out_csv = tmp_path / "night.csv"
    assert run(capsys, "import", str(night), "-o", str(out_csv))[0] == 0
    text = out_csv.read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].endswith("first_chips,second_chips,third_chips,fourth_chips")
    assert text.splitlines()[2].endswith(",+2,+6,-3,-5")
    back = parse_finals_csv(text, "night.csv")
    assert [g.chips for g in back.games] == [None, (2, 6, -3, -5)]
    again = tmp_path / "again.xlsx"
    assert run(capsys, "new", str(again), "--players", "Aki,Ben,Chie,Dan", "--chips")[0] == 0
    assert run(capsys, "import", str(out_csv), "--into", str(again))[0] == 0
    assert _tab(again)[1][2] == [2, 6, -3, -5]
    # a finals CSV's chips are whole numbers, for every player or none
    bad = parse_finals_csv("date,first,first_final,second,second_final,third,third_final,"
                           "first_chips,second_chips,third_chips\n"
                           "2026-04-04,A,+30,B,0,C,-30,1.5,0,0\n"
                           "2026-04-04,A,+30,B,0,C,-30,1,,\n", "x.csv")
    assert [p.message for p in bad.problems] == [
        'A\'s chips ("1.5") are not a whole number like +2 or -1.',
        "give chips for every player or for none (0 for none won or paid)."]
