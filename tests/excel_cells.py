"""Cells as the real Office.js clients send them, for every Excel function (tests/test_officejs.py
runs them through xlwings' own call path, tests/test_pyodide.py in the real Pyodide).

- An empty cell: Excel on the web sends null, desktop Excel (Windows, Mac) sends 0
  (OfficeDev/office-js #4702), some paths send "". :data:`BLANK_CASES` put each of the three
  into one argument at a time; the three answers must be equal, and where a blank is
  allowed equal to the answer with that argument left out (``omitted``); where it is not,
  the same one-sentence message (``omitted`` None).
- An error cell: ``{"type": "Error", "basicValue": "#N/A", "errorType": "NotAvailable"}``
  (xlwings' manifest sets allowErrorForDataTypeAny). :data:`ERROR_CASES` give the sentence.
- A date: its serial number (45658 is 2025-01-01), or a formatted number object.
  :data:`DATE_CASES` give the answer where a date belongs (a penalty's date) and the
  sentence where it does not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: An empty cell as each client sends it.
BLANKS = {"null": None, "zero": 0, "empty text": ""}
ERROR = {"type": "Error", "basicValue": "#N/A", "errorType": "NotAvailable"}
DATE = 45658  # 2025-01-01 as Excel's serial number
DATE_OBJECT = {"type": "FormattedNumber", "basicValue": DATE, "numberFormat": "yyyy-mm-dd"}
GAME = [[35700, 32400, 22200, 9700]]
ML = [["preset", "mleague"]]


def one(value: Any) -> list[list[Any]]:
    """A single cell as Excel sends it (every parameter is declared a matrix)."""
    return [[value]]


# A two-stage season (as in tests/test_pyodide.py): stages, settings, players, penalties.
_PAD = [None] * 9
STAGES = [["Regular", None, None, None], ["Final", None, None, "half"]]
SETTINGS = [["name", "Cup"], ["chip_value", 1]]
PLAYERS = [["A", "Red"], ["B", "Red"], ["C", "Blue"], ["D", "Blue"], ["E", "Blue"]]
PENALTIES = [[None, "Regular", "B", None, -10, "lateness"]]
REGULAR = [["A", "B", "C", "D", 35700, 32400, 22200, 9700, *[None] * 5, 1, 0, -1, 0],
           ["B", "C", "E", "A", 45000, 33000, 18000, 4000, *_PAD]]
FINAL = [["A", "B", "C", "D", 30000, 30000, 25000, 15000, *_PAD]]


def season(stage: Any = None, what: Any = None, lang: Any = None, ruleset1: Any = None,
           stages: Any = None, settings: Any = None, penalties: Any = None) -> list[Any]:
    """MJ_SEASON's arguments (None: the league above / omitted)."""
    return [stages or STAGES, settings or SETTINGS, PLAYERS, penalties or PENALTIES, stage,
            what, REGULAR, ruleset1, FINAL, one("mleague"), None, None, None, None, lang]


Make = Callable[[Any], list[Any]]

#: (id, function, arguments with the cell in one place, the same call with it left out, or
#: None where a blank is not allowed and the message is the answer).
BLANK_CASES: list[tuple[str, str, Make, list[Any] | None]] = [
    ("settle, ruleset", "MJ_SETTLE", lambda b: [GAME, one(b)], [GAME]),
    ("settle, deposits", "MJ_SETTLE", lambda b: [GAME, None, one(b)], [GAME]),
    ("settle, penalties", "MJ_SETTLE", lambda b: [GAME, None, None, one(b)], [GAME]),
    ("settle, a game's penalty", "MJ_SETTLE", lambda b: [GAME, None, None, [[-20, b, b, b]]],
     [GAME, None, None, [[-20, None, None, None]]]),
    ("settle, a block's deposit", "MJ_SETTLE",
     lambda b: [[[35700, 32400, 22200, 8700], GAME[0]], None, [[1000], [b]]],
     [[[35700, 32400, 22200, 8700], GAME[0]], None, [[1000], [0]]]),
    ("settle, a blank row in a rules range", "MJ_SETTLE",
     lambda b: [GAME, [*ML, [b, b], ["ties", "seat"]]], [GAME, one("mleague; ties=seat")]),
    ("settle, the value of oka in a rules range", "MJ_SETTLE",
     lambda b: [GAME, [*ML, ["oka", b]]], None),
    ("settle, the value of floating in a rules range", "MJ_SETTLE",
     lambda b: [GAME, [*ML, ["floating", b]]], None),
    ("settle, the value of uma in a rules range", "MJ_SETTLE",
     lambda b: [GAME, [*ML, ["uma", b]]], None),
    ("settle, the value of preset in a rules range", "MJ_SETTLE",
     lambda b: [GAME, [["preset", b], ["ties", "seat"]]], None),
    ("rank, ruleset", "MJ_RANK", lambda b: [[[30000, 30000, 25000, 15000]], one(b)],
     [[[30000, 30000, 25000, 15000]]]),
    ("explain, ruleset and deposits", "MJ_EXPLAIN", lambda b: [GAME, one(b), one(b)], [GAME]),
    ("explain, a game not entered yet", "MJ_EXPLAIN", lambda b: [[[b, b, b, b]]],
     [[[None, None, None, None]]]),
    ("explain, one scores cell", "MJ_EXPLAIN", lambda b: [one(b)], [[[""]]]),
    ("settle, one scores cell", "MJ_SETTLE", lambda b: [one(b)], [[[""]]]),
    ("rank, a game not entered yet", "MJ_RANK", lambda b: [[[b, b, b, b]]],
     [[["", "", "", ""]]]),
    ("shortcut, ruleset and scores", "MJ_SHORTCUT", lambda b: [one(b), one(b)], []),
    ("standings, stats and scores", "MJ_STANDINGS",
     lambda b: [[["A", "B", "C", "D"]], [[46, 12, -18, -40]], one(b), one(b)],
     [[["A", "B", "C", "D"]], [[46, 12, -18, -40]]]),
    ("standings, a game not played yet", "MJ_STANDINGS",
     lambda b: [[["A", "B", "C", "D"], ["B", "C", "D", "A"], ["C", "D", "A", "B"]],
                [[46, 12, -18, -40], [b] * 4, [46, 12, -18, -40]]],
     [[["A", "B", "C", "D"], ["C", "D", "A", "B"]], [[46, 12, -18, -40], [46, 12, -18, -40]]]),
    ("standings with stats, a game not played yet", "MJ_STANDINGS",
     lambda b: [[["A", "B", "C", "D"], ["B", "C", "D", "A"]], [[46, 12, -18, -40], [b] * 4],
                one(True)],
     [[["A", "B", "C", "D"]], [[46, 12, -18, -40]], one(True)]),
    ("standings, a player's name", "MJ_STANDINGS",
     lambda b: [[["A", "B", "C", b], ["A", "B", "C", "D"]], [[46, 12, -18, -40]] * 2], None),
    ("ruleset, ruleset", "MJ_RULESET", lambda b: [one(b)], []),
    ("ruleset, a rules range's ties", "MJ_RULESET", lambda b: [[*ML, ["ties", b]]], None),
    ("hand, han", "MJ_HAND", lambda b: [one(b), one(30)], None),
    ("hand, fu of a mangan", "MJ_HAND", lambda b: [one(5), one(b)], [one(5)]),
    ("hand, fu of 3 han", "MJ_HAND", lambda b: [one(3), one(b)], None),
    ("hand, dealer, tsumo, honba, options, pao, liable_dealer", "MJ_HAND",
     lambda b: [one(3), one(40), one(b), one(b), one(b), one(b), one(b), one(b)],
     [one(3), one(40)]),
    ("hand, a pao yakuman's liable_dealer", "MJ_HAND",
     lambda b: [one("yakuman"), None, one(False), one(True), one(1), None, one(1), one(b)],
     [one("yakuman"), None, one(False), one(True), one(1), None, one(1)]),
    ("hand, a rules range's kiriage", "MJ_HAND",
     lambda b: [one(4), one(30), None, None, None, [["kiriage", b], ["sanma", "off"]]], None),
    ("hand table, dealer and options", "MJ_HAND_TABLE", lambda b: [one(b), one(b)], []),
    ("rank points, length, players and scores", "MJ_RANKPOINTS",
     lambda b: [[[1, 2, 3, 4]], one("tenhou"), one("phoenix"), one("七段"), one(b), one(b),
                one(b)],
     [[[1, 2, 3, 4]], one("tenhou"), one("phoenix"), one("七段")]),
    ("rank points, a place left empty", "MJ_RANKPOINTS",
     lambda b: [[[1, 2, 3, b]], one("tenhou"), one("phoenix"), one("七段")], None),
    ("rank points, a game not played yet", "MJ_RANKPOINTS",
     lambda b: [[[1], [b], [2]], one("tenhou"), one("phoenix"), one("七段")],
     [[[1], [None], [2]], one("tenhou"), one("phoenix"), one("七段")]),
    ("rank points, system", "MJ_RANKPOINTS",
     lambda b: [[[1, 2, 3, 4]], one(b), one("phoenix"), one("七段")], None),
    ("rank points, room", "MJ_RANKPOINTS",
     lambda b: [[[1, 2, 3, 4]], one("tenhou"), one(b), one("七段")], None),
    ("rank points, rank", "MJ_RANKPOINTS",
     lambda b: [[[1, 2, 3, 4]], one("tenhou"), one("phoenix"), one(b)], None),
    ("rank points, Mahjong Soul places without scores", "MJ_RANKPOINTS",
     lambda b: [one(4), one("mahjongsoul"), one("jade"), one("Master 1"), None, None, one(b)],
     None),
    ("season, what and lang", "MJ_SEASON",
     lambda b: season(one("Final"), one(b), one(b)), season(one("Final"))),
    ("season, stage", "MJ_SEASON", lambda b: season(one(b)), None),
    ("season, a stage's ruleset", "MJ_SEASON",
     lambda b: season(one("Regular"), ruleset1=one(b)), season(one("Regular"))),
    ("season, the ruleset a stage row shows", "MJ_SEASON",
     lambda b: season(one("Regular"), stages=[["Regular", b, None, None], STAGES[1]]),
     season(one("Regular"))),
    ("season, advance and carry", "MJ_SEASON",
     lambda b: season(one("Final"), stages=[["Regular", None, b, b], STAGES[1]]),
     season(one("Final"))),
    ("season, a penalty's date, team and reason", "MJ_SEASON",
     lambda b: season(one("Regular"), penalties=[[b, "Regular", "B", b, -10, b]]),
     season(one("Regular"), penalties=[[None, "Regular", "B", None, -10, None]])),
    ("season, a penalty's points", "MJ_SEASON",
     lambda b: season(one("Regular"), penalties=[[None, "Regular", "B", None, b, "x"]]),
     season(one("Regular"), penalties=[[None, "Regular", "B", None, None, "x"]])),
    ("season, a setting's value", "MJ_SEASON",
     lambda b: season(one("Final"), settings=[*SETTINGS, ["min_games", b]]),
     season(one("Final"))),
    ("season, the value of absent_result", "MJ_SEASON",
     lambda b: season(one("Final"), settings=[*SETTINGS, ["absent_result", b]]), None),
]

_SAYS = "is the Excel error #N/A; fix the cell it comes from, or type the value."

#: (id, function, arguments, the sentence): an error cell where a value should be.
ERROR_CASES: list[tuple[str, str, list[Any], str]] = [
    ("settle, ruleset", "MJ_SETTLE", [GAME, one(ERROR)], f"ruleset {_SAYS}"),
    ("settle, a score", "MJ_SETTLE", [[[35700, 32400, 22200, ERROR]]],
     'score 4 ("#N/A") is not a number; enter raw points such as 32400.'),
    ("settle, deposits", "MJ_SETTLE", [GAME, None, one(ERROR)],
     'deposits ("#N/A") is not a number; enter the leftover riichi sticks in points, e.g. '
     "1000 for one stick."),
    ("settle, a rules range's oka", "MJ_SETTLE", [GAME, [*ML, ["oka", ERROR]]],
     "the value of oka is the Excel error #N/A; fix the cell it comes from or type the value."),
    ("rank, ruleset", "MJ_RANK", [GAME, one(ERROR)], f"ruleset {_SAYS}"),
    ("explain, ruleset", "MJ_EXPLAIN", [GAME, one(ERROR)], f"ruleset {_SAYS}"),
    ("shortcut, ruleset", "MJ_SHORTCUT", [one(ERROR)], f"ruleset {_SAYS}"),
    ("ruleset, ruleset", "MJ_RULESET", [one(ERROR)], f"ruleset {_SAYS}"),
    ("standings, stats", "MJ_STANDINGS",
     [[["A", "B", "C", "D"]], [[46, 12, -18, -40]], one(ERROR)], f"stats {_SAYS}"),
    ("standings, a player's name", "MJ_STANDINGS",
     [[["A", "B", "C", "D"], ["A", "B", "C", ERROR]], [[46, 12, -18, -40]] * 2],
     "row 2 of players is the Excel error #N/A; fix the cell it comes from."),
    ("standings, a final", "MJ_STANDINGS", [[["A", "B", "C", "D"]], [[46, 12, -18, ERROR]]],
     "row 1 of the range has no final score for player 4 ('#N/A'); fix that game's scores "
     "or remove it from the range."),
    ("hand, han", "MJ_HAND", [one(ERROR)], f"han {_SAYS}"),
    ("hand, fu", "MJ_HAND", [one(3), one(ERROR)], f"fu {_SAYS}"),
    ("hand, honba", "MJ_HAND", [one(3), one(30), None, None, one(ERROR)], f"honba {_SAYS}"),
    ("hand, options", "MJ_HAND", [one(3), one(30), None, None, None, one(ERROR)],
     f"options {_SAYS}"),
    ("hand table, dealer", "MJ_HAND_TABLE", [one(ERROR)], f"dealer {_SAYS}"),
    ("rank points, system", "MJ_RANKPOINTS",
     [[[1, 2, 3, 4]], one(ERROR), one("phoenix"), one("七段")], f"system {_SAYS}"),
    ("rank points, rank", "MJ_RANKPOINTS",
     [[[1, 2, 3, 4]], one("tenhou"), one("phoenix"), one(ERROR)], f"rank {_SAYS}"),
    ("season, stage", "MJ_SEASON", season(one(ERROR)), f"stage {_SAYS}"),
    ("season, stage, an error sent without its text", "MJ_SEASON",
     season(one({"type": "Error", "errorType": "NotAvailable"})), f"stage {_SAYS}"),
    ("season, a player's name", "MJ_SEASON",
     [STAGES, SETTINGS, [PLAYERS[0], [ERROR, "Red"]], *season(one("Final"))[3:]],
     "row 2 of players is the Excel error #N/A; fix the cell it comes from."),
    ("season, a setting", "MJ_SEASON",
     [STAGES, [SETTINGS[0], ["chip_value", ERROR]], *season(one("Final"))[2:]],
     "row 2 of settings is the Excel error #N/A; fix the cell it comes from."),
    ("season, lang", "MJ_SEASON", season(one("Final"), lang=one(ERROR)), f"lang {_SAYS}"),
]

#: (id, function, arguments, the sentence, or None where a date belongs and the answer is
#: that of ``same``, the call with the date written as text).
DATE_CASES: list[tuple[str, str, list[Any], str | None, list[Any] | None]] = [
    ("season, a penalty's date (serial)", "MJ_SEASON",
     season(one("Regular"), penalties=[[DATE, "Regular", "B", None, -10, "x"]]), None,
     season(one("Regular"), penalties=[["2025-01-01", "Regular", "B", None, -10, "x"]])),
    ("season, a penalty's date (formatted)", "MJ_SEASON",
     season(one("Regular"), penalties=[[DATE_OBJECT, "Regular", "B", None, -10, "x"]]), None,
     season(one("Regular"), penalties=[["2025-01-01", "Regular", "B", None, -10, "x"]])),
    ("settle, a score (formatted date)", "MJ_SETTLE", [[[35700, 32400, 22200, DATE_OBJECT]]],
     'score 4 ("2025-01-01") is not a number; enter raw points such as 32400.', None),
    ("settle, a score (serial)", "MJ_SETTLE", [[[35700, 32400, 22200, DATE]]],
     "score 4 (45,658) is not a whole multiple of 100; raw points always end in 00, so check "
     "it for a typo.", None),
    ("settle, ruleset (serial)", "MJ_SETTLE", [GAME, one(DATE)],
     '"45658" is not a preset; use one of standard, tenhou, tenhou-classic, tenhou-sanma, '
     "mahjongsoul, mahjongsoul-sanma, mleague, ema, wrc, jpml-a.", None),
    ("hand, han (serial)", "MJ_HAND", [one(DATE), one(30)],
     "han must be a whole number from 1 to 500 (got 45658); enter the han count, or "
     "'yakuman'.", None),
    ("rank points, rank (formatted date)", "MJ_RANKPOINTS",
     [[[1, 2, 3, 4]], one("tenhou"), one("phoenix"), [[DATE_OBJECT]]],
     'rank cannot be "2025-01-01"; use a Tenhou dan: 新人, 9級-1級, 初段-十段 or 天鳳位 (also '
     "novice, 9kyu-1kyu, 1dan-10dan, tenhoui).", None),
]


def office_answer(func: str, args: list[Any]) -> dict[str, Any]:
    """What Excel shows for one call made through xlwings' Office.js path here in CPython
    (``xlwings.server.custom_functions_call``, as xlwings Server and Lite call): the values,
    or the one-sentence message."""
    import asyncio

    import xlwings as xw
    import xlwings.server

    from umaoka.addin import udfs

    body = {"func_name": func, "args": list(args), "caller_address": "Games!K2",
            "formula_name": func, "version": xw.__version__, "runtime": "1.4",
            "client": "Office.js", "culture_info_name": "en-US", "date_format": "M/d/yyyy"}
    try:
        return {"value": asyncio.run(xlwings.server.custom_functions_call(body, udfs))}
    except xw.XlwingsError as e:
        return {"error": str(e)}


def client_cases() -> list[tuple[str, str, list[Any], dict[str, Any]]]:
    """Every case above as (id, function, arguments, the answer here in CPython): blanks as
    null, 0 and "" each expected to answer as the call without them (or, where a blank is
    not allowed, with the message of a null), error cells and dates with their sentence."""
    out = []
    for case, func, make, omitted in BLANK_CASES:
        expected = office_answer(func, make(None) if omitted is None else omitted)
        out += [(f"blank as {kind}: {case}", func, make(cell), expected)
                for kind, cell in BLANKS.items()]
    out += [(f"error cell: {case}", func, args, {"error": said})
            for case, func, args, said in ERROR_CASES]
    out += [(f"date: {case}", func, args,
             office_answer(func, same) if said is None else {"error": said})
            for case, func, args, said, same in DATE_CASES]
    return out
