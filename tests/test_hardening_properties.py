"""Every input path against every class of hostile value: a result or one sentence, fast.

Issue 34 found the same few weaknesses again and again, each on a new surface: exponents
beyond Decimal's range (``1e9999999``: ``decimal.Overflow``) or below it (``1e-9999999``
read as 0), long texts (a pattern that backtracked), counts (lists of thousands of
values), encodings (UTF-16, Shift-JIS, broken bytes, NULs), devices, and names (control
characters, bidi overrides, hundreds of characters, names Excel turns into numbers). Here
hypothesis sends values of each class down each path a league manager or a caller has:

ruleset text and tables, hand arguments, season files (INI and JSON), the penalty log, a
chips cell, a game row's scores, deposits and penalties, player names (``--players``,
rosters, CSV round trips) and the Excel functions' arguments.

Each call must give a result or an :class:`UmaokaError` (in Excel: an error whose text is
one sentence, never "internal error"), in under :data:`SECONDS`. A new surface that reads
a value through its own ``Decimal(text)`` or its own pattern fails here.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mjseason import season_args
from test_safety_season import _season_book
from test_safety_udfs import _check, _parameters

from umaoka.addin import udfs
from umaoka.engine import FIELDS, UmaokaError, ruleset, settle
from umaoka.engine.hands.payment import hand
from umaoka.engine.season.gamelog import game_record, result_of
from umaoka.engine.season.penalties import penalty
from umaoka.engine.season.settings import STAGE_TABLE, read_season
from umaoka.engine.season.stages import run_season

#: Seconds a call may take under load; the bugs this guards against took seconds to never.
SECONDS = 3.0

HOSTILE = settings(max_examples=int(os.environ.get("UMAOKA_FUZZ", "80")), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                          HealthCheck.function_scoped_fixture])

# ------------------------------------------------------------------------------------------
# The classes of hostile values

#: Exponents on both sides of Decimal's range (999,999), with every sign and spelling.
exponents = st.builds(
    lambda sign, mantissa, letter, esign, e: f"{sign}{mantissa}{letter}{esign}{e}",
    st.sampled_from(["", "-", "+", "\u2212"]),
    st.sampled_from(["1", "9", "0", "1.5", ".5", "007", "35700", "0.0"]),
    st.sampled_from(["e", "E"]), st.sampled_from(["", "+", "-"]),
    st.one_of(st.integers(0, 40), st.integers(999_990, 1_000_010), st.integers(0, 10**12)))
#: Words Decimal reads and spreadsheets do not, and other numbers people type.
specials = st.sampled_from([
    "NaN", "nan", "-sNaN", "Infinity", "-inf", "INF", "1_000", "35_700", "1e9999999",
    "-1e9999999", "1e-9999999", "0e-9999999", "1E+999999999", "9" * 5000,
    "0." + "0" * 5000 + "1", "1,000", "1,5", "32400", "-20", "2.5", "0", "", " ", "\u22122",
    "\uff13\uff12\uff14\uff10\uff10", "#N/A", "#REF!", "TRUE", "=1+1", "\x00", "1\x00"])
#: Long texts: up to Excel's 32,767 characters a cell, and more (a file has no cap).
long_texts = st.builds(lambda piece, n: (piece * n)[:n], st.text(
    alphabet="9e+-._,x to~/:;|= \t", min_size=1, max_size=6), st.integers(1, 40_000))
#: Names: control characters, bidi overrides, broken (surrogate) characters, long ones,
#: and names Excel turns into something else.
names = st.one_of(
    st.text(st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Cc", "Cf")),
            max_size=20),
    st.sampled_from(["Aki", "Ben", "Chie", "Dan", "\u202eAki", "A\rB", "A\x1b[2J", "N" * 300,
                     "007", "1/2", "1e3", "TRUE", "-5", "#N/A", "Jan 2", "\ud800", "\ufeff",
                     "/dev/zero", "a" * 201]))
numbers = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30),
    st.sampled_from([10**5000, -(10**5000), 10**12, 10**9, 999_999_999]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.decimals(allow_nan=True, allow_infinity=True),
    st.sampled_from([Decimal("1E+9999999"), Decimal("-1E-9999999"), Decimal("sNaN"),
                     Decimal("1E+999999999"), Decimal("0E-9999999")]))
values = st.one_of(exponents, specials, long_texts, names, numbers)
#: What a spreadsheet cell can hold (what the Excel functions receive).
cell_values = st.one_of(exponents, specials, long_texts, names, st.none(), st.booleans(),
                        st.integers(-10**15, 10**15), st.floats(allow_nan=False,
                                                                 allow_infinity=False))
#: Counts: a list where one value, or four, belong.
counts = st.one_of(st.lists(values, max_size=12),
                   st.builds(lambda v, n: [v] * n, values, st.integers(0, 5000)))


def answers(call: Callable[[], Any], *, errors: tuple[type[BaseException], ...] = ()) -> Any:
    """The call's result, or None when it said one sentence; anything else fails."""
    start = time.perf_counter()
    try:
        return call()
    except (UmaokaError, *errors) as e:
        message = str(e)
        assert message and "\n" not in message and len(message) < 700, message
        assert "internal error" not in message and "unexpected" not in message, message
        return None
    finally:
        took = time.perf_counter() - start
        assert took < SECONDS, took


GAME = [35700, 32400, 22200, 9700]
ROW = {"stage": "A", "east": "Aki", "south": "Ben", "west": "Chie", "north": "Dan",
       "east_score": 35700, "south_score": 32400, "west_score": 22200, "north_score": 9700}


def _text(value: Any) -> str:
    try:
        return str(value)
    except ValueError:  # an int of over 4,300 digits
        return "9" * 5000


# ------------------------------------------------------------------------------------------
# The engine's paths

@HOSTILE
@given(key=st.sampled_from([*FIELDS, "preset", "uma", "start"]), value=values)
def test_ruleset_text_and_tables(key: str, value: Any) -> None:
    _rulesets(key, value)


def _rulesets(key: str, value: Any) -> None:
    answers(lambda: ruleset(f"standard; {key}={_text(value)}"))
    answers(lambda: ruleset({key: value}))
    answers(lambda: ruleset([["preset", "standard"], [key, value]]))


@HOSTILE
@given(uma=counts)
def test_uma_of_any_count(uma: list[Any]) -> None:
    answers(lambda: ruleset({"uma": uma}))
    answers(lambda: ruleset(f"standard; uma={'/'.join(_text(u) for u in uma[:50])}"))


@HOSTILE
@given(arg=st.sampled_from(["han", "fu", "honba", "riichi", "yakuman", "pao", "rules",
                            "dealer", "tsumo", "liable_dealer"]), value=values)
def test_hand_arguments(arg: str, value: Any) -> None:
    base: dict[str, Any] = {"han": 3, "fu": 40}
    answers(lambda: hand(**{**base, arg: value}))
    answers(lambda: hand(value))


@HOSTILE
@given(own=values, other=values, place=values)
def test_rank_points_and_ratings(own: Any, other: Any, place: Any) -> None:
    from umaoka.engine.online.rankpoints import rank_points
    from umaoka.engine.online.rating import rating_change

    answers(lambda: rating_change(own, [other, 1500, 1500], 1))
    answers(lambda: rank_points(place, own))
    answers(lambda: rank_points(1, 35700, "mahjongsoul", other))


@HOSTILE
@given(deposits=values, pen=values, score=values, seat=st.integers(0, 3))
def test_game_row_scores_deposits_and_penalties(deposits: Any, pen: Any, score: Any,
                                                seat: int) -> None:
    pens = [0, 0, 0, 0]
    pens[seat] = pen
    scores: list[Any] = list(GAME)
    scores[seat] = score
    for call in (lambda: settle(GAME, "standard", deposits),
                 lambda: settle(GAME, "standard", 0, pens),
                 lambda: settle(scores, "standard", deposits, pens)):
        game = answers(call)
        if game is not None:  # a result is a real one: finals add up to zero less sticks
            assert sum(game.final) <= 0 or any(p for p in game.penalty)
    if _tiny(deposits):  # a fraction such as 1e-9999999 is refused, never settled as 0
        assert answers(lambda: settle(GAME, "standard", deposits)) is None
    if _tiny(pen):
        assert answers(lambda: settle(GAME, "standard", 0, pens)) is None


def _tiny(value: Any) -> bool:
    """Whether ``value`` is a number other than 0 below 1e-20 (exponents compared only)."""
    try:
        d = Decimal(value if isinstance(value, (str, Decimal)) else "x")
    except ArithmeticError:
        return False
    return d.is_finite() and not d.is_zero() and d.adjusted() < -20


@HOSTILE
@given(pens=counts, scores=counts)
def test_per_seat_lists_of_any_count(pens: list[Any], scores: list[Any]) -> None:
    answers(lambda: settle(GAME, "standard", 0, pens))
    answers(lambda: settle(scores, "standard"))


@HOSTILE
@given(chips=values, name=names, deposits=values, pen=values)
def test_a_season_game_row(chips: Any, name: Any, deposits: Any, pen: Any) -> None:
    """A games CSV row or a league tab row: chips, deposits, penalties and names."""
    row = {**ROW, "east_chips": chips, "south": name, "deposits": deposits,
           "west_penalty": pen}
    record = answers(lambda: game_record(row))
    if record is not None:
        answers(lambda: result_of(record, ruleset("standard")))
    season = read_season("players = Aki, Ben, Chie, Dan\n[stage A]\nchip_value = 2\n")
    result = answers(lambda: run_season(season, [row, ROW], []))
    assert result is not None  # a bad row is a problem of the run, never an exception
    assert len(result.problems) <= 1


@HOSTILE
@given(points=values, date=values, who=names, stage=values, reason=values)
def test_a_penalty_log_row(points: Any, date: Any, who: Any, stage: Any, reason: Any) -> None:
    row = {"points": points, "date": date, "player": who, "stage": stage, "reason": reason}
    answers(lambda: penalty(row))
    season = read_season("players = Aki, Ben, Chie, Dan\n[stage A]\n")
    result = answers(lambda: run_season(season, [ROW], [row, {"player": "Ben",
                                                               "points": -10}]))
    assert result is not None and len(result.problems) <= 1


@HOSTILE
@given(key=st.sampled_from([*STAGE_TABLE, "chip_value", "absent_result", "game_caps",
                            "min_games", "advance", "carry", "players", "teams", "name",
                            "competition", "ranking", "tie_breaks"]), value=values)
def test_season_files(key: str, value: Any) -> None:
    text = _text(value).replace("\n", " ").replace("\r", " ")
    answers(lambda: read_season(f"[stage A]\nsubstitutes = fixed\n{key} = {text}\n"))
    answers(lambda: read_season(f"{key} = {text}\n[stage A]\n"))
    try:
        spec = json.dumps({"stages": [{"name": "A", key: value}]})
    except (TypeError, ValueError):  # a Decimal or a huge int: written as JSON's own number
        spec = json.dumps({"stages": [{"name": "A", key: 0}]}).replace("0", _text(value))
    answers(lambda: read_season(spec, "json"))
    number = _text(value) if isinstance(value, str) and value[:1].isdigit() else "1e9999999"
    answers(lambda: read_season(json.dumps({"stages": [{"name": "A", key: 0}]}).replace(
        "0", number), "json"))


@HOSTILE
@given(encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "shift_jis", "broken"]),
       key=st.sampled_from(["chip_value", "game_caps", "players", "carry"]), value=names)
def test_season_file_encodings(tmp_path: Path, encoding: str, key: str, value: str) -> None:
    from umaoka.addin.cli.season import load_season

    text = f"players = Aki, Ben, {value}\n[stage A]\n{key} = {value}\n"
    try:
        data = b"\xff\xfe\xfd\x80" + text.encode("utf-8", "surrogatepass") \
            if encoding == "broken" else text.encode(encoding)
    except UnicodeEncodeError:  # a name Shift-JIS cannot hold, or a lone surrogate
        data = text.encode("utf-8", "surrogatepass")
    path = tmp_path / "s.ini"
    path.write_bytes(data)
    answers(lambda: load_season(path))


@HOSTILE
@given(final=values, score=values, name=names)
def test_an_imported_finals_csv_row(final: Any, score: Any, name: str) -> None:
    """Platform finals and raw scores of a finals CSV: a problem of the line, or the game."""
    import csv
    import io

    from umaoka.engine.online.imports import parse_finals_csv

    out = io.StringIO()
    csv.writer(out).writerows([
        ["date", "first", "first_final", "first_score", "second", "second_final",
         "second_score", "third", "third_final", "third_score", "fourth", "fourth_final",
         "fourth_score"],
        ["2026-04-04", name, _text(final), _text(score), "Ben", "+10", "", "Chie", "-20", "",
         "Dan", "-40", ""]])
    result = answers(lambda: parse_finals_csv(out.getvalue().replace("\x00", ""), "f.csv"))
    assert result is not None and len(result.games) + len(result.problems) == 1


# ------------------------------------------------------------------------------------------
# Names

@HOSTILE
@given(players=st.lists(names, max_size=6))
def test_players_option(players: list[str]) -> None:
    from umaoka.addin.cli.base import _roster
    from umaoka.templates.book.model import make_book

    roster = answers(lambda: _roster(",".join(players)))
    if roster is not None:
        assert all(n.isprintable() or all(c not in n for c in "\r\n\x1b\x00") for n in roster)
        answers(lambda: make_book(["standard"], ["Spring"], roster))
    answers(lambda: _roster(players[0] if players else ""))  # one name: maybe a file name


@HOSTILE
@given(name=names)
def test_names_in_csv_come_back_as_written(name: str) -> None:
    from umaoka.engine.online.imported import csv_name, csv_plain, csv_text, excel_converts

    assert csv_plain(csv_name(name)) == name and csv_plain(csv_text(name)) == name
    written = csv_name(name)
    assert not excel_converts(written) or written.startswith("'")


@HOSTILE
@given(word=names, roster=st.lists(names, max_size=8))
def test_did_you_mean_is_one_answer(word: str, roster: list[str]) -> None:
    from umaoka.engine.season.stages import closest_name

    hint = answers(lambda: closest_name(word, roster))
    assert hint == closest_name(word, list(reversed(roster))) == closest_name(word, set(roster))


# ------------------------------------------------------------------------------------------
# The Excel functions' arguments

def _udf(call: Callable[[], Any]) -> Any:
    from umaoka.addin.udfs import UmaokaExcelError

    return answers(call, errors=(UmaokaExcelError,))


@HOSTILE
@given(value=cell_values, seat=st.integers(0, 3))
def test_settle_and_hand_functions(value: Any, seat: int) -> None:
    from umaoka.addin.udfs import MJ_HAND, MJ_RULESET, MJ_SETTLE

    scores: list[Any] = list(GAME)
    scores[seat] = value
    pens: list[Any] = [None] * 4
    pens[seat] = value
    _udf(lambda: MJ_SETTLE([scores], "standard", None, None))
    _udf(lambda: MJ_SETTLE([GAME], "standard", [[value]], [pens]))
    _udf(lambda: MJ_SETTLE([GAME], [["preset", "standard"], ["start", value]], None, None))
    _udf(lambda: MJ_RULESET([["uma", value]]))
    _udf(lambda: MJ_HAND(3, 40, False, False, value, None, None, None, value))


@HOSTILE
@given(where=st.sampled_from(["chip_value", "game_caps", "absent_result", "min_games",
                              "points", "chips", "deposits", "penalty", "player"]),
       value=cell_values)
def test_season_function(where: str, value: Any) -> None:
    """MJ_SEASON with one hostile cell: a table (the bad row listed) or one sentence."""
    from umaoka.addin.udfs import MJ_SEASON

    stages, settings_, players, pens, games = season_args(_season_book())
    if where in ("chip_value", "game_caps", "absent_result", "min_games"):
        settings_ = [r for r in settings_ if r[0] != where] + [[where, value]]
    elif where == "points":
        pens[0][4] = value
    elif where == "player":
        players[0][0] = value
        games[0][0][0] = value
    else:
        row = games[0][0]  # 4 players, 4 scores, deposits, 4 penalties, 4 chips
        row[{"deposits": 8, "penalty": 9, "chips": 13}[where]] = value
    table = _udf(lambda: MJ_SEASON(stages, settings_, players, pens, "Regular", "players",
                                   *games))
    if table is not None:
        text = " ".join(str(c) for r in table for c in r)
        assert "internal error" not in text and "unexpected" not in text


@pytest.mark.parametrize("name", sorted(udfs.__all__))
@HOSTILE
@given(data=st.data())
def test_every_excel_function_through_office_js(name: str, data: st.DataObject) -> None:
    """Each function's every argument a hostile cell or a range of them, as Office.js sends
    them (xlwings' own conversion first): a result or one sentence."""
    ranges = st.lists(st.lists(cell_values, min_size=1, max_size=4), min_size=1, max_size=3)
    args = [data.draw(st.one_of(cell_values, ranges), label=f"arg {i}")
            for i in range(_parameters(name))]
    _check(name, args)


@HOSTILE
@given(encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "shift_jis", "broken"]),
       players=st.lists(names, min_size=1, max_size=5), header=st.booleans())
def test_roster_file_encodings(tmp_path: Path, encoding: str, players: list[str],
                               header: bool) -> None:
    from umaoka.addin.cli.base import _roster

    text = ("Name,Team\n" if header else "") + "\n".join(
        p.replace("\n", " ").replace("\r", " ") + (",Red" if header else "") for p in players)
    try:
        data = b"\xff\xfe\xfd\x80" + text.encode("utf-8", "surrogatepass") \
            if encoding == "broken" else text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8", "surrogatepass")
    path = tmp_path / "players.csv"
    path.write_bytes(data)
    answers(lambda: _roster(str(path)))


@pytest.mark.parametrize("piece", ["." * 2 + "-", "to~", " -", "9e+9_"])
def test_a_long_cell_on_every_text_path_is_fast(piece: str) -> None:
    """The largest cell Excel holds, on each path at once (a backtracking pattern took
    seconds at 8,000 characters)."""
    text = (piece * 40_000)[:32_767]
    for key in ("uma", "start", "floating", "ties"):
        _rulesets(key, text)
    for key in ("game_caps", "chip_value", "carry", "players", "ranking", "tie_breaks"):
        answers(lambda key=key: read_season(f"[stage A]\n{key} = {text}\n"))
    answers(lambda: penalty({"player": "Aki", "points": text}))
    answers(lambda: game_record({**ROW, "east_chips": text}))
    answers(lambda: settle(GAME, "standard", text, [text, 0, 0, 0]))
    answers(lambda: hand(text, text, honba=text, riichi=text))


# ------------------------------------------------------------------------------------------
# Devices: every file a command reads, given as a device that never ends or a pipe

#: Each command's file inputs, the device put where the file goes (``{dev}``); a demo
#: league (``league.xlsx``) and a season file (``s.ini``) stand for the other inputs.
FILE_INPUTS = [
    ["season", "{dev}"],
    ["season", "s.ini", "{dev}"],
    ["season", "s.ini", "--penalties", "{dev}"],
    ["stats", "{dev}"],
    ["import", "{dev}"],
    ["seating", "{dev}", "--rounds", "1"],
    ["seating", "Aki,Ben,Chie,Dan", "--fixed", "{dev}"],
    ["new", "x.xlsx", "--players", "{dev}"],
    ["settle", "{dev}"],
    ["post", "{dev}"],
    ["add", "{dev}", "--players", "Zed"],
    ["runtime", "{dev}", "--to", "classic"],
    ["lite", "--into", "{dev}"],
]


#: The commands whose file is a workbook: a pipe there is refused before it is opened (a
#: text input from a pipe is read as it comes, as ``cat`` reads it).
WORKBOOK_INPUTS = [a for a in FILE_INPUTS if a[0] in ("settle", "post", "add", "runtime",
                                                     "lite")]


@pytest.mark.parametrize(("dev", "argv"), [
    *((d, a) for d in ("/dev/zero", "/dev/urandom") for a in FILE_INPUTS),
    *(("fifo", a) for a in WORKBOOK_INPUTS)], ids=lambda x: x if isinstance(x, str)
    else " ".join(x))
def test_a_device_on_every_file_input_is_one_sentence(tmp_path: Path, argv: list[str],
                                                      dev: str) -> None:
    """A command reading ``/dev/zero`` or ``/dev/urandom`` for any of its files, or a pipe
    for a workbook, answers at once with one sentence (exit status 2), never reads until
    memory runs out nor waits forever: a text input is read no further than its limit, a
    workbook that is not a plain file is refused before it is opened."""
    import subprocess
    import sys

    if dev == "fifo":
        dev = str(tmp_path / "pipe")
        os.mkfifo(dev)
    (tmp_path / "s.ini").write_text("players = Aki, Ben, Chie, Dan\n[stage A]\n",
                                    encoding="utf-8")
    args = [a.replace("{dev}", dev) for a in argv]
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS")}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "import sys; from umaoka.addin.cli.app "
                           "import main; sys.exit(main())", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    took = time.perf_counter() - start
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert len(lines) == 1 and lines[0].startswith("umaoka: error: "), done.stderr
    assert "unexpected" not in lines[0] and "Traceback" not in done.stderr
    assert took < 30, took  # start-up included; 64 MB of a device at most
