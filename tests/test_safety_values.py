"""Typed numbers beyond Decimal's own exponent range (issue 34, item 4): one sentence each.

``1e9999999`` is a valid Decimal, but its exponent (9,999,999) is beyond the default
context's 999,999, so ``abs()`` or any other operation on it raised ``decimal.Overflow``:
``calc --ruleset "standard; start=1e9999999"``, ``hand --riichi 1e9999999``, a season's
chip_value, a penalty-log row and a chips cell did, and in the workbook one such cell made
``settle`` abort and every MJ_SEASON table an internal error. ``1e-9999999`` as a game
row's penalty or deposit counted as 0 without a word (the context rounds it away), and
``1_000`` was read as 1000 (Python's digit grouping, which no spreadsheet reads). Every
path now goes through :mod:`umaoka.engine.typed_numbers`, which bounds a number by its
exponent and digits before any arithmetic.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from umaoka.engine import UmaokaError, ruleset, settle
from umaoka.engine.hands.payment import hand
from umaoka.engine.online.rankpoints import rank_points
from umaoka.engine.online.rating import rating_change
from umaoka.engine.season.gamelog import game_record
from umaoka.engine.season.penalties import penalty
from umaoka.engine.season.settings import read_season
from umaoka.engine.typed_numbers import MAX_PLACES, NumberError, read_number, read_whole

GAME = [35700, 32400, 22200, 9700]
HUGE, TINY = "1e9999999", "1e-9999999"


def said(call: Any) -> str:
    """The one sentence a call answers with (any other exception fails the test)."""
    start = time.perf_counter()
    with pytest.raises(UmaokaError) as e:
        call()
    assert time.perf_counter() - start < 1.0
    message = str(e.value)
    assert "\n" not in message and message.endswith((".", ")", "?")), message
    return message


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ruleset(f"standard; start={HUGE}"), "start must be a whole number of points below"),
    (lambda: ruleset(f"standard; start=-{HUGE}"), "start must be a whole number of points below"),
    (lambda: ruleset(f"standard; target={HUGE}"), "target must be a whole number of points"),
    (lambda: ruleset(f"standard; uma={HUGE}/0/0/0"), "is not a list of numbers in thousands"),
    (lambda: ruleset({"uma": [HUGE, 0, 0, 0]}), "is not a list of numbers in thousands"),
    (lambda: hand(1, 30, riichi=HUGE), 'riichi must be a whole number from 0 to 100 (got "1e'),
    (lambda: hand(1, 30, honba=f"-{HUGE}"), "honba must be a whole number from 0 to 100 (got"),
    (lambda: hand(HUGE, 30), "han"),
    (lambda: penalty({"player": "Aki", "points": HUGE}), "is beyond 100,000 final points"),
    (lambda: penalty({"player": "Aki", "points": f"-{HUGE}"}), "is beyond 100,000 final points"),
    (lambda: game_record({"east": "A", "east_score": 25000, "east_chips": HUGE}),
     'east\'s chips "1e9999999" are beyond 1,000'),
    (lambda: game_record({"east": "A", "east_score": 25000, "east_chips": f"-{HUGE}"}),
     "are beyond 1,000"),
    (lambda: rank_points(1, HUGE), 'score ("1e9999999") is far too large'),
    (lambda: rating_change(HUGE, [1500, 1500, 1500], 1), 'the rating "1e9999999" is not a'),
    (lambda: rating_change("NaN", [1500, 1500, 1500], 1), 'the rating "NaN" is not a number'),
    (lambda: settle(GAME, penalties=[HUGE, 0, 0, 0]), "penalty 1 (1e9999999) is far too large"),
    (lambda: settle(GAME, deposits=HUGE), "deposits (1e9999999) is far too large"),
])
def test_an_exponent_beyond_decimal_range_is_one_sentence(call: Any, words: str) -> None:
    assert words in said(call)


@pytest.mark.parametrize("setting", ["chip_value", "absent_result"])
def test_a_season_setting_beyond_decimal_range(setting: str) -> None:
    ini = f"[stage A]\nsubstitutes = fixed\n{setting} = {HUGE}\n"
    assert f"{setting}: {HUGE} is beyond 100,000 final points" in said(lambda: read_season(ini))
    text = json.dumps({"stages": [{"name": "A", "substitutes": "fixed", setting: HUGE}]})
    assert "is beyond 100,000 final points" in said(lambda: read_season(text, "json"))


@pytest.mark.parametrize(("call", "words"), [
    (lambda: settle(GAME, deposits=TINY), 'deposits ("1e-9999999") has more than 20 decimal'),
    (lambda: settle(GAME, penalties=[TINY, 0, 0, 0]), 'penalty 1 ("1e-9999999") has more than'),
    (lambda: settle(GAME, penalties=["-1e-30", 0, 0, 0]), "has more than 20 decimal places"),
    (lambda: settle([f"35700{'0' * 0}", 32400, 22200, "9700.000000000000000000001"]),
     "score 4"),
    (lambda: game_record({"east": "A", "east_score": 25000, "east_chips": TINY}),
     "are not a whole number"),
])
def test_a_tiny_fraction_is_refused_not_zero(call: Any, words: str) -> None:
    """1e-9999999 is not 0: as a deposit or a penalty it was settled as if blank."""
    assert words in said(call)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: settle(["35_700", 32400, 22200, 9700]), 'score 1 ("35_700") is not a number'),
    (lambda: settle(GAME, deposits="1_000"), 'deposits ("1_000") is not a number'),
    (lambda: settle(GAME, penalties=["-2_0", 0, 0, 0]), 'penalty 1 ("-2_0") is not a number'),
    (lambda: ruleset("standard; start=25_000"), 'start must be a number of points, e.g. 25000 '
                                                '(got "25_000")'),
    (lambda: ruleset("standard; uma=2_0/10/-10/-20"), "is not a list of numbers in thousands"),
    (lambda: hand(1, 30, riichi="1_0"), 'riichi must be a whole number of 0 or more (got "1_0")'),
    (lambda: penalty({"player": "Aki", "points": "-2_0"}), '"-2_0" is not a number'),
    (lambda: game_record({"east": "A", "east_score": 25000, "east_chips": "1_0"}),
     "are not a whole number"),
])
def test_underscores_are_not_digit_grouping(call: Any, words: str) -> None:
    """Python reads 1_000 as 1000; Excel and LibreOffice read it as text: so do we."""
    assert words in said(call)


def test_the_game_row_deposit_of_a_platform_result_is_not_zero() -> None:
    """A platform row's deposits cell must be empty or 0: 1e-9999999 is neither."""
    from umaoka.engine.season.gamelog import platform_result

    game = game_record({"east": "A", "east_final": "+30", "south": "B", "south_final": "+10",
                        "west": "C", "west_final": "-10", "north": "D", "north_final": "-30",
                        "deposits": TINY})
    assert "clear deposits" in said(lambda: platform_result(game))


def test_the_reader_itself() -> None:
    assert read_number("1,250.5") == read_number(" 1250.50 ") == read_number(1250.5)
    assert read_number("−20") == -20 and read_number("+7") == 7 and read_number(".5") == 0.5
    assert str(read_number("2.5000000000000000000000000000")) == "2.5"  # trailing zeros
    assert str(read_number("0E-9999999")) == "0" and str(read_number("-0.0")) == "0"
    assert read_whole("3.0") == 3 and read_whole(3.0) == 3 and read_whole("1,000") == 1000
    kinds = {v: _kind(v) for v in ("1_000", "abc", "", "NaN", "-Infinity", "sNaN", HUGE,
                                   f"-{HUGE}", "9" * 5000, 10**5000, 10**12, float("inf"),
                                   TINY, 1e-300, "1" * 101 + ".5", True, None)}
    assert kinds == {"1_000": "text", "abc": "text", "": "text", "NaN": "infinite",
                     "-Infinity": "infinite", "sNaN": "infinite", HUGE: "large",
                     f"-{HUGE}": "large", "9" * 5000: "large", 10**5000: "large",
                     10**12: "large", float("inf"): "infinite", TINY: "fine", 1e-300: "fine",
                     "1" * 101 + ".5": "text", True: "text", None: "text"}
    assert read_number("1,234,567") == 1234567  # commas are thousands separators
    assert _kind("1,5", commas=False) == "text"  # ... unless the caller says otherwise
    assert MAX_PLACES == 20


def _kind(value: Any, **options: Any) -> str:
    with pytest.raises(NumberError) as e:
        read_number(value, **options)
    return e.value.kind


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("umaoka")  # as a user runs it, in a plain environment
    return subprocess.run([str(exe), *argv], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize(("argv", "words"), [
    (["calc", "--ruleset", f"standard; start={HUGE}", "35700", "32400", "22200", "9700"],
     "start must be a whole number of points below 1,000,000,000"),
    (["calc", "--penalties", f"{TINY},0,0,0", "35700", "32400", "22200", "9700"],
     'penalty 1 ("1e-9999999") has more than 20 decimal places'),
    (["calc", "35_700", "32400", "22200", "9700"], 'score 1 ("35_700") is not a number'),
    (["hand", "1", "30", "--riichi", HUGE], "riichi must be a whole number from 0 to 100"),
])
def test_the_command_line_says_one_sentence(argv: list[str], words: str) -> None:
    done = _cli(*argv)
    assert done.returncode in (1, 2) and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("umaoka: error: ") and words in lines[0], \
        done.stderr


# ------------------------------------------------------------------------------------------
# The same values typed into a season workbook (`umaoka settle`) and sent to MJ_SEASON

@pytest.mark.parametrize(("cells", "words"), [
    ({("Penalties", "E5"): HUGE}, f"{HUGE} is beyond 100,000 final points"),
    ({("Penalties", "E5"): f"-{HUGE}"}, "is beyond 100,000 final points"),
    ({("Penalties", "E5"): TINY}, "is not a number of final points with at most one decimal"),
    ({("Regular", "R5"): HUGE}, 'chips "1e9999999" are'),
    ({("Regular", "R5"): TINY}, 'chips "1e-9999999" are'),
])
def test_a_bad_row_in_a_season_workbook_is_a_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], cells: dict[tuple[str, str], Any],
        words: str) -> None:
    """One such cell made `settle` abort with decimal.Overflow; now its row is a warning."""
    from openpyxl import load_workbook
    from test_safety_season import _typed, run

    path = _typed(tmp_path, cells)
    code, out, err, took = run(capsys, "settle", str(path))
    assert code == 0 and took < 60  # the settled copy written
    assert words in err and "internal error" not in err and "unexpected" not in err, err
    ws = load_workbook(tmp_path / "s_settled.xlsx", read_only=True)["Season standings"]
    b = next(r for r in ws.iter_rows(values_only=True) if r[1] == "B")
    assert b[7] == -10  # B's penalty still counts


def test_a_chip_value_beyond_decimal_range_in_the_workbook(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from test_safety_season import _typed, one_sentence, run

    code, out, err, took = run(capsys, "settle", str(_typed(tmp_path,
                                                             {("Season", "B17"): HUGE})))
    assert code == 2 and took < 60
    one_sentence(err, f"chip_value: {HUGE} is beyond 100,000 final points")


@pytest.mark.parametrize(("change", "words"), [
    ({"points": HUGE}, "is beyond 100,000 final points"),
    ({"points": TINY}, "is not a number of final points with at most one decimal"),
    ({"chips": HUGE}, 'chips "1e9999999" are'),
    ({"chips": f"-{HUGE}"}, 'chips "-1e9999999" are'),
])
def test_mj_season_bad_row_is_listed_and_the_rest_rank(change: dict[str, Any],
                                                        words: str) -> None:
    """Every MJ_SEASON table was an internal error while one such cell was in the book."""
    from test_safety_season import _mj_args, _season_book

    from umaoka.addin.udfs import MJ_SEASON

    stages, settings_, players, pens, games = _mj_args(_season_book(**change))
    start = time.perf_counter()
    table = MJ_SEASON(stages, settings_, players, pens, "Regular", "players", *games)
    assert time.perf_counter() - start < 15
    text = " ".join(str(c) for row in table for c in row)
    assert words in text and "internal error" not in text, text
    b = next(row for row in table if row[1] == "B")
    assert b[7] == -10  # B's penalty still counts


@pytest.mark.parametrize("value", [HUGE, f"-{HUGE}", TINY, "1_0"])
def test_mj_season_bad_chip_value_is_one_sentence(value: str) -> None:
    from test_safety_season import _mj_args, _season_book

    from umaoka.addin.udfs import MJ_SEASON, UmaokaExcelError

    stages, settings_, players, pens, games = _mj_args(_season_book(chip_value=value))
    with pytest.raises(UmaokaExcelError) as e:
        MJ_SEASON(stages, settings_, players, pens, "Regular", "players", *games)
    assert "chip_value" in str(e.value) and "internal error" not in str(e.value)


# ------------------------------------------------------------------------------------------
# Item 5: game_caps is split on its separator, not matched by a backtracking pattern

@pytest.mark.parametrize("text", [
    "." * 8000 + "--", "to" * 4000 + "~~", " " * 8000 + "--", "1" * 32_767,
    "." * 1_000_000 + "--",
], ids=["dots", "to", "spaces", "digits", "a-million"])
def test_a_long_game_caps_text_is_one_sentence_at_once(text: str) -> None:
    """A pattern around the separator backtracked: 8,000 characters took 3 s, 32,000 in
    a Season cell 7 s per MJ_SEASON call, a million in a season file never finished."""
    from umaoka.engine.season.teams import parse_game_caps

    assert said(lambda: parse_game_caps(text)).startswith('game_caps "')


@pytest.mark.parametrize(("text", "low", "high"), [
    ("10-45", 10, 45), ("10–45", 10, 45), ("10~45", 10, 45), ("10..45", 10, 45),
    ("10 to 45", 10, 45), ("10-", 10, None), ("-45", None, 45), (" 10.0 - 45.00 ", 10, 45),
])
def test_game_caps_as_written(text: str, low: Any, high: Any) -> None:
    from umaoka.engine.season.teams import GameCaps, parse_game_caps

    assert parse_game_caps(text) == GameCaps(low, high)


def test_mj_season_with_a_long_game_caps_cell_is_fast() -> None:
    from test_safety_season import _mj_args, _season_book

    from umaoka.addin.udfs import MJ_SEASON, UmaokaExcelError

    book = _season_book()
    book.season.settings["game_caps"] = "." * 12_000 + "--"
    stages, settings_, players, pens, games = _mj_args(book)
    start = time.perf_counter()
    with pytest.raises(UmaokaExcelError) as e:
        MJ_SEASON(stages, settings_, players, pens, "Regular", "players", *games)
    assert time.perf_counter() - start < 2
    assert 'game_caps "...' in str(e.value)


# ------------------------------------------------------------------------------------------
# Item 13: a "Did you mean" hint does not change with the order of the names (or the hash seed)

def test_closest_name_does_not_depend_on_the_order_of_the_names() -> None:
    from itertools import permutations

    from umaoka.engine.season.stages import closest_name

    for names, word, hint in [(["Aki", "Ami", "Ben"], "Axi", "Aki"),
                              (["Ben", "Bea", "Ken", "Bex"], "Bem", "Bea"),
                              (["Chie", "Dan"], "Chei", "Chie")]:
        said = {closest_name(word, order) for order in permutations(names)}
        assert said == {f' Did you mean "{hint}"?'}, (word, said)
    assert closest_name("x" * 10_000, ["x"]) == ""  # no quadratic matching of a long word


def test_the_hint_of_a_misspelt_player_is_the_same_under_any_hash_seed(tmp_path: Path) -> None:
    """The roster is a set inside run_season: its order changed from run to run."""
    script = tmp_path / "hint.py"
    script.write_text(
        "from umaoka.engine.season.settings import read_season\n"
        "from umaoka.engine.season.stages import run_season\n"
        "season = read_season('players = Aki, Ben, Bea, Bex, Dan\\n[stage A]\\n')\n"
        "row = {'stage': 'A', 'east': 'aki', 'south': 'Bem', 'west': 'Dan', 'north': 'Ben',\n"
        "       'east_score': 35700, 'south_score': 32400, 'west_score': 22200,\n"
        "       'north_score': 9700}\n"
        "print(run_season(season, [row], []).problems)\n", encoding="utf-8")
    seen = set()
    for seed in ("0", "1", "2", "3", "4", "5", "6", "7"):
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              timeout=60, env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"})
        assert done.returncode == 0, done.stderr
        seen.add(done.stdout)
    assert len(seen) == 1, seen
    assert 'Did you mean "Bea"?' in seen.pop()  # Ben, Bea and Bex equally close: the first


# ------------------------------------------------------------------------------------------
# Item 14: the session after a tab's last never passes the --session bound

LOBBY = "L1002 | 00:44 | 四般南喰赤－ | Aki(+61.0) Ben(0.0) Chie(-25.0) Dan(-36.0)\n"


@pytest.mark.parametrize("last", [999_999_999, 1e15])
def test_import_into_after_the_last_session_number(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str],
                                                    last: Any) -> None:
    """A tab at session 999,999,999 got its next games at 1,000,000,000, a session number
    that --session refuses; now the command says so and writes nothing."""
    from test_safety_season import _league, one_sentence, run

    lobby = tmp_path / "sca20260404.log"
    lobby.write_text(LOBBY, encoding="utf-8")
    path = _league(tmp_path, last)
    before = path.read_bytes()
    code, out, err, _ = run(capsys, "import", str(lobby), "--into", str(path))
    assert code != 0 and path.read_bytes() == before
    one_sentence(err, "so the next would be beyond 999,999,999, the largest session number; "
                 "give the session with --session")
    code, out, err, _ = run(capsys, "import", str(lobby), "--into", str(path), "--session",
                            "999999999")  # the bound itself is taken
    assert code == 0, err
    from openpyxl import load_workbook

    ws = load_workbook(path)["Spring"]
    assert max(c.value for c in ws["B"] if isinstance(c.value, int)) == 999_999_999


def test_seating_into_after_the_last_session_number(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from test_safety_season import _league, run

    path = _league(tmp_path, 999_999_998)
    before = path.read_bytes()
    code, out, err, _ = run(capsys, "seating", "4", "--rounds", "2", "--into", str(path))
    assert code != 0 and path.read_bytes() == before
    assert "the last session in Spring is 999,999,998, so the next would be beyond " \
           "999,999,999" in err
    code, out, err, _ = run(capsys, "seating", "4", "--rounds", "2", "--into", str(path),
                            "--session", "999999999")
    assert code != 0 and path.read_bytes() == before
    assert "2 rounds from session 999,999,999 would end beyond 999,999,999" in err
    code, out, err, _ = run(capsys, "seating", "4", "--rounds", "1", "--into", str(path))
    assert code == 0, err  # one round fits: session 999,999,999
    assert "sessions 999999999-999999999" in out


# ------------------------------------------------------------------------------------------
# Item 10: player names from --players (and --teams, a season file) are printable text

@pytest.mark.parametrize(("players", "words"), [
    ("Ab\x01c", 'the name "Ab\\x01c" holds a control character (\\x01)'),
    ("Aki,Ab\rX", 'the name "Ab\\rX" holds a control character (\\r)'),
    ("A\x1b[2J", 'the name "A\\x1b[2J" holds a control character (\\x1b)'),
    ("N" * 300, "is longer than 200 characters; shorten it"),
], ids=["soh", "cr", "escape", "300-characters"])
def test_add_players_refuses_a_name_no_sheet_holds(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   players: str, words: str) -> None:
    """Control characters gave "unexpected IllegalCharacterError"; a 300-character name
    was taken for a file name ("File name too long")."""
    from test_safety_season import one_sentence, run

    run(capsys, "new", str(tmp_path / "l.xlsx"))
    before = (tmp_path / "l.xlsx").read_bytes()
    for argv in (["add", str(tmp_path / "l.xlsx")], ["new", str(tmp_path / "n.xlsx")]):
        code, out, err, _ = run(capsys, *argv, "--players", players)
        assert code == 2 and out == ""
        one_sentence(err, "--players: the name", words)
    assert (tmp_path / "l.xlsx").read_bytes() == before and not (tmp_path / "n.xlsx").exists()


@pytest.mark.parametrize(("argv", "words"), [
    (["--teams", "R\x01=Aki,Ben"], '--teams: the name "R\\x01" holds a control character'),
    (["--teams", "Red=Aki,B\x7fen"], '--teams: the name "B\\x7fen" holds a control character'),
])
def test_add_teams_refuses_a_control_character(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str],
                                               argv: list[str], words: str) -> None:
    from test_safety_season import one_sentence, run

    run(capsys, "new", str(tmp_path / "l.xlsx"))
    code, out, err, _ = run(capsys, "add", str(tmp_path / "l.xlsx"), *argv)
    assert code == 2
    one_sentence(err, words)


def test_a_season_roster_with_a_control_character(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from test_safety_season import one_sentence, run

    (tmp_path / "s.ini").write_text("players = Aki, B\x01en\n[stage A]\n", encoding="utf-8")
    code, out, err, _ = run(capsys, "new", str(tmp_path / "n.xlsx"), "--season",
                            str(tmp_path / "s.ini"))
    assert code == 2 and not (tmp_path / "n.xlsx").exists()
    one_sentence(err, 'a player of the season: the name "B\\x01en" holds a control character')


def test_a_bidi_override_in_a_name_is_not_echoed_raw(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """U+202E reverses the rest of a terminal line: shown written out, kept in the book."""
    from openpyxl import load_workbook
    from test_safety_season import run

    run(capsys, "new", str(tmp_path / "l.xlsx"))
    code, out, err, _ = run(capsys, "add", str(tmp_path / "l.xlsx"), "--players", "Q\u202eZ")
    assert code == 0 and "\u202e" not in out and "added players Q\\u202eZ" in out
    ws = load_workbook(tmp_path / "l.xlsx")["Players"]
    assert "Q\u202eZ" in [c.value for c in ws["A"]]


@pytest.mark.parametrize(("text", "names"), [
    ("Aki\nBen\n# a comment\n\nChie\n", ["Aki", "Ben", "Chie"]),
    ("Name,Team\nFumi,Red\nGen,Blue\n", ["Fumi", "Gen"]),
    ("Team,Player\nRed,Fumi\nBlue,Gen\n", ["Fumi", "Gen"]),
    ('"name","team"\n"Fumi","Red"\n', ["Fumi"]),
    ("Name\nFumi\nGen\n", ["Fumi", "Gen"]),
])
def test_a_roster_file(tmp_path: Path, text: str, names: list[str]) -> None:
    """A header such as Name,Team names the column of names; it is no player."""
    from umaoka.addin.cli.base import _roster

    (tmp_path / "p.csv").write_text(text, encoding="utf-8")
    assert _roster(str(tmp_path / "p.csv")) == names


def test_a_roster_file_line_with_a_comma_is_one_sentence(tmp_path: Path) -> None:
    """`Fumi, Gen` kept Fumi and dropped Gen without a word."""
    from umaoka.addin.cli.base import _roster

    (tmp_path / "p.txt").write_text("Aki\nFumi, Gen\n", encoding="utf-8")
    assert said(lambda: _roster(str(tmp_path / "p.txt"))) == (
        f'{tmp_path / "p.txt"} line 2 holds a comma ("Fumi, Gen"); write one name a line, or '
        "head a CSV with a Name column.")


# ------------------------------------------------------------------------------------------
# Item 12: names in the CSVs we write come back as the same text

#: Names Excel turns into something else when it opens a CSV: 007 -> 7, 1/2 -> 2 January,
#: 1e3 -> 1000, TRUE -> a boolean, -5 -> -5, #N/A -> an error, Jan 2 -> a date, 12:30 -> a
#: time. Written with a leading ' (which Excel shows, as text, and keeps when it saves).
CONVERTED = ["007", "1/2", "1e3", "TRUE", "-5", "#N/A", "Jan 2", "12:30"]


def test_seating_csv_names_round_trip(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """seating --csv wrote these names bare; after Excel they no longer matched the roster.
    Read back by `umaoka batch`'s reader (scores typed in), every name is as given."""
    import csv

    from test_safety_season import run

    from umaoka.templates.batch import read_csv

    out = tmp_path / "night.csv"
    code, _, err, _ = run(capsys, "seating", ",".join(CONVERTED), "--rounds", "2", "--csv",
                          str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8-sig")
    rows = list(csv.reader(text.splitlines()))
    header = rows[0]
    seats = [header.index(s) for s in ("east", "south", "west", "north")]
    written = {r[i] for r in rows[1:] for i in seats}
    assert written == {"'" + n for n in CONVERTED}  # each guarded, none bare
    for r in rows[1:]:  # the manager types the scores
        for i, score in zip(seats, (35700, 32400, 22200, 9700)):
            r[i + 1] = str(score)
    with out.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    league = read_csv(out, ruleset("standard")).league
    assert {p for g in league.games for p in g.players} == set(CONVERTED)


def test_import_finals_csv_names_round_trip(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """import -o writes a finals CSV; `umaoka import` of that file gives the same names."""
    from test_safety_season import run

    from umaoka.engine.online.imports import parse_finals_csv

    names = ["007", "1e3", "TRUE", "-5"]
    src = tmp_path / "in.csv"
    src.write_text("date,first,first_final,second,second_final,third,third_final,fourth,"
                   "fourth_final\n2026-04-04," + ",".join(f"'{n},{f}" for n, f in zip(
                       names, ("+50", "+10", "-20", "-40"))) + "\n", encoding="utf-8")
    assert [*parse_finals_csv(src.read_text(encoding="utf-8")).games[0].names] == names
    out = tmp_path / "out.csv"
    code, _, err, _ = run(capsys, "import", str(src), "-o", str(out))
    assert code == 0, err
    text = out.read_text(encoding="utf-8-sig")
    assert all(f",'{n}," in text for n in names), text
    again = parse_finals_csv(text, "out.csv")
    assert not again.problems and [*again.games[0].names] == names


@pytest.mark.parametrize("name", [*CONVERTED, "'007", "=1+1", "+1", "@SUM(A1)", "Aki",
                                  "Player 2", "A1", "１２３", "1,000", "50%", "2026-04-04",
                                  "1月2日", "false", "#REF!"])
def test_csv_name_round_trips_and_guards_what_excel_converts(name: str) -> None:
    from umaoka.engine.online.imported import csv_name, csv_plain, excel_converts

    written = csv_name(name)
    assert csv_plain(written) == name
    plain = name in ("Aki", "Player 2", "A1")
    assert (written == name) == plain and excel_converts(name) == (
        not plain and name not in ("'007", "=1+1", "@SUM(A1)"))
