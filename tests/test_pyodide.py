"""The Excel functions in the real xlwings Lite runtime: Pyodide, run by node.

Each Pyodide line of tests/pyodide/package.json (0.27.x, the line the xlwings Lite docs name,
and 314.x, the current one) is started once from node_modules; the xlwings and mahjong wheels
are unpacked in it at the floor versions our requirements allow and at the newest; main.py
(``umaoka lite``) is loaded as the Lite runtime loads it (tests/pyodide/lite_runtime.py gives
the evidence), and every MJ_* function is called with the bodies Excel sends, null for a blank
cell or an omitted argument (tests/pyodide/runner.mjs). Every answer is compared with what
the engine computes here, in CPython; bad input with its message.

Evidence for how the runtime loads and calls main.py (restated in tests/pyodide/
lite_runtime.py and runner.mjs), from xlwings' open-source runtime at commit 88620030ee48:
https://github.com/xlwings/xlwings-server/blob/88620030ee48643d4eff789728cc3aecf302be38/xlwings_server/wasm/wasm_runtime.py
(create_module_from_string: exec into a fresh module, sys.modules only afterwards;
custom_functions_call: data.to_py(), xlwings.server.custom_functions_call, to_js), and
https://github.com/xlwings/xlwings-server/blob/88620030ee48643d4eff789728cc3aecf302be38/xlwings_server/static/js/custom-functions/custom-functions-code.js
(base(): the body of a call). Excel passes null for an omitted optional argument:
https://learn.microsoft.com/en-us/office/dev/add-ins/excel/custom-functions-parameter-options

Needs node and npm: the first test to need Pyodide runs ``npm ci`` in tests/pyodide when
its node_modules lacks a line (pyodide_lite.install); pip downloads the wheels. A machine
without node skips these tests with the reason (in CI, CI=true, that is a failure); npm
missing or failing where node is installed is a failure.
"""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from excel_cells import client_cases
from pyodide_lite import (
    LINES,
    PACKAGES,
    NotReady,
    answer,
    floor,
    missing,
    run_main,
    start,
    version_key,
    wheel_sets,
)

from umaoka.addin import udfs
from umaoka.addin.functions import cells as cells_fns
from umaoka.addin.functions import settle as settle_fns
from umaoka.addin.install.lite import lite_source, write_lite
from umaoka.engine import PRESETS, UmaokaError, rank, ruleset, settle, shortcut, standings
from umaoka.engine import standings_table as table_of
from umaoka.engine.hands import hand, hand_rules, hand_table

SETS = ("floor", "newest")
GAME = [35700, 32400, 22200, 9700]
BAD_SUM = [35700, 32400, 22200, 9600]


def excel(value: Any) -> Any:
    """An engine value as it comes back from Excel's side: Decimals as plain numbers."""
    if isinstance(value, (list, tuple)):
        return [excel(v) for v in value]
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def message(compute: Any) -> str:
    """The one sentence the engine (or the conversion around it) gives for bad input."""
    try:
        compute()
    except (UmaokaError, udfs.UmaokaExcelError) as e:
        return str(e)
    raise AssertionError("no error")


def _standings(players: list[list[Any]], finals: list[list[Any]]) -> list[list[Any]]:
    return excel(table_of(standings(
        (names, [Decimal(str(f)) for f in fins]) for names, fins in zip(players, finals)
        if any(f is not None for f in fins))))


def cell(value: Any) -> list[list[Any]]:
    """A single value as Excel sends it: every parameter is declared a matrix (1 x 1 here)."""
    return [[value]]


BLANK = cell(None)  # a reference to a blank cell


def _cases() -> list[tuple[str, str, list[Any], dict[str, Any]]]:
    """(id, function, arguments as Excel sends them, expected) for every MJ_* function.

    None is JavaScript's null: a blank cell, or (not wrapped in a range) an omitted
    argument; trailing omitted arguments are left out here and the runner passes them as
    null, as Excel does.
    """
    std, ml = ruleset("standard"), ruleset("mleague")
    other = [45000, 33000, 18000, 4000]
    changed = [45000, 34000, 17000, 4000]
    players = [["A", "B", "C", "D"], ["B", "C", "D", "A"], [None, None, None, None],
               ["C", "D", "A", "B"]]
    finals = [excel(settle(GAME).final), excel(settle(other).final), [None] * 4,
              [None] * 4]
    seat = ruleset("mleague; ties=seat")
    kiriage = hand_rules("kiriage")

    def paid(*args: Any, **kwargs: Any) -> list[list[Any]]:
        result = hand(*args, **kwargs)
        return [[result.total, *result.payments] + [""] * (2 - len(result.payments))]

    def ruleset_table(rules: Any) -> list[list[Any]]:
        head = [["preset", rules.name]] if rules.name in PRESETS else []
        return head + [[k, excel(v)] for k, v in rules.values().items()]

    # A two-stage season with teams, chips, a penalty and a bad row (left out, listed).
    pad = [None] * 9
    season = [[["Regular", None, None, None], ["Final", None, None, "half"]],
              [["name", "Cup"], ["chip_value", 1]],
              [["A", "Red"], ["B", "Red"], ["C", "Blue"], ["D", "Blue"], ["E", "Blue"]],
              [[None, "Regular", "B", None, -10, "lateness"]]]
    games = [[["A", "B", "C", "D", 35700, 32400, 22200, 9700, *[None] * 5, 1, 0, -1, 0],
              ["B", "C", "E", "A", 45000, 33000, 18000, 4000, *pad],
              ["A", "B", "C", "D", 35700, 32400, 22200, 9600, *pad]], cell("standard"),
             [["A", "B", "C", "D", 30000, 30000, 25000, 15000, *pad]], cell("mleague")]

    def season_of(stage: str, what: str) -> dict[str, Any]:
        return {"value": excel(udfs.MJ_SEASON(*season, stage, what, *games))}

    return [
        ("season, final stage's players", "MJ_SEASON",
         [*season, cell("Final"), cell("players"), *games], season_of("Final", "players")),
        ("season, a bad row and the teams", "MJ_SEASON",
         [*season, cell("Regular"), cell("teams"), *games], season_of("Regular", "teams")),
        ("settle one game, ruleset omitted", "MJ_SETTLE", [[GAME]],
         {"value": [excel(settle(GAME, std).final)]}),
        ("settle one game as a column, mleague", "MJ_SETTLE",
         [[[30000], [30000], [30000], [10000]], cell("mleague")],
         {"value": [[v] for v in excel(settle([30000, 30000, 30000, 10000], ml).final)]}),
        ("settle a block with a blank row", "MJ_SETTLE",
         [[GAME, [None] * 4, other], None, None, None],
         {"value": [excel(settle(GAME).final), ["", "", "", ""], excel(settle(other).final)]}),
        # the same block again, one row changed (only that row is settled again) and the
        # blank row (JavaScript's null in Pyodide 0.28+) kept
        ("settle the block again, one row changed", "MJ_SETTLE",
         [[GAME, [None] * 4, changed], None, None, None],
         {"value": [excel(settle(GAME).final), ["", "", "", ""], excel(settle(changed).final)]}),
        ("settle a block with a bad row", "MJ_SETTLE", [[GAME, BAD_SUM], cell("mleague")],
         {"value": [excel(settle(GAME, ml).final),
                    [message(lambda: settle(BAD_SUM, ml)), "", "", ""]]}),
        ("settle deposits and penalties with blank cells", "MJ_SETTLE",
         [[[35700, 32400, 22200, 8700]], BLANK, cell(1000), [[-20, None, None, None]]],
         {"value": [excel(settle([35700, 32400, 22200, 8700], std, 1000,
                                 [-20, None, None, None]).final)]}),
        ("settle a block, deposits per game with a blank", "MJ_SETTLE",
         [[[35700, 32400, 22200, 8700], GAME], None, [[1000], [None]]],
         {"value": [excel(settle([35700, 32400, 22200, 8700], std, 1000).final),
                    excel(settle(GAME).final)]}),
        ("settle a ruleset range with a blank row", "MJ_SETTLE",
         [[[30000, 30000, 25000, 15000]], [["preset", "mleague"], [None, None],
                                           ["ties", "seat"]]],
         {"value": [excel(settle([30000, 30000, 25000, 15000], seat).final)]}),
        ("settle a blank ruleset cell", "MJ_SETTLE", [[GAME], BLANK],
         {"value": [excel(settle(GAME, std).final)]}),
        ("settle a blank game", "MJ_SETTLE", [[[None] * 4]], {"value": [["", "", "", ""]]}),
        ("settle scores that do not add up", "MJ_SETTLE", [[BAD_SUM]],
         {"error": message(lambda: settle(BAD_SUM))}),
        ("settle an unknown preset", "MJ_SETTLE", [[GAME], cell("kirage")],
         {"error": message(lambda: ruleset("kirage"))}),
        ("rank with ties, mleague", "MJ_RANK", [[[30000, 30000, 25000, 15000]], cell("mleague")],
         {"value": [list(rank([30000, 30000, 25000, 15000], ml))]}),
        ("rank, ruleset omitted, blank row", "MJ_RANK", [[GAME, [None] * 4]],
         {"value": [list(rank(GAME)), ["", "", "", ""]]}),
        ("rank a text score", "MJ_RANK", [[["lots", 32400, 22200, 9700]]],
         {"error": message(lambda: rank(["lots", 32400, 22200, 9700]))}),
        ("explain, ruleset and deposits omitted", "MJ_EXPLAIN", [[GAME]],
         {"value": excel(settle(GAME).explain())}),
        ("explain, blank ruleset and deposits cells", "MJ_EXPLAIN",
         [[[35700, 32400, 22200, 8700]], BLANK, cell(1000)],
         {"value": excel(settle([35700, 32400, 22200, 8700], std, 1000).explain())}),
        ("explain a bad game", "MJ_EXPLAIN", [[BAD_SUM], cell("mleague")],
         {"error": message(lambda: settle(BAD_SUM, ml))}),
        ("shortcut, everything omitted", "MJ_SHORTCUT", [],
         {"value": excel(shortcut(std).table())}),
        ("shortcut on scores, mleague", "MJ_SHORTCUT", [cell("mleague"), [GAME]],
         {"value": excel(shortcut(ml, GAME).table())}),
        ("shortcut, blank ruleset cell", "MJ_SHORTCUT", [BLANK, BLANK],
         {"value": excel(shortcut(std).table())}),
        ("shortcut of a bad ruleset", "MJ_SHORTCUT", [cell("uma=10-20-30")],
         {"error": message(lambda: ruleset("uma=10-20-30"))}),
        ("standings with an unplayed game and a blank row", "MJ_STANDINGS", [players, finals],
         {"value": _standings(players, finals)}),
        ("standings of ranges that differ", "MJ_STANDINGS", [players[:2], finals[:1]],
         {"error": message(lambda: udfs.MJ_STANDINGS(players[:2], finals[:1]))}),
        ("ruleset text", "MJ_RULESET", [cell("mleague; ties=seat")],
         {"value": ruleset_table(seat)}),
        ("ruleset omitted", "MJ_RULESET", [], {"value": ruleset_table(std)}),
        ("ruleset, blank cell", "MJ_RULESET", [BLANK], {"value": ruleset_table(std)}),
        ("ruleset with an unknown key", "MJ_RULESET", [cell("okaa=5")],
         {"error": message(lambda: ruleset("okaa=5"))}),
        ("presets", "MJ_PRESETS", [], {"value": excel(udfs.MJ_PRESETS())}),
        ("hand, non-dealer tsumo with honba", "MJ_HAND",
         [cell(3), cell(40), cell(False), cell(True), cell(1)],
         {"value": paid(3, 40, False, True, 1)}),
        ("hand, mangan, the rest omitted", "MJ_HAND", [cell("mangan")],
         {"value": paid("mangan")}),
        ("hand, mangan, blank cells", "MJ_HAND", [cell("mangan"), BLANK, BLANK, BLANK, BLANK,
                                                  BLANK],
         {"value": paid("mangan")}),
        ("hand, dealer ron with kiriage", "MJ_HAND",
         [cell(4), cell(30), cell(True), None, None, cell("kiriage")],
         {"value": paid(4, 30, True, rules=kiriage)}),
        ("hand without fu", "MJ_HAND", [cell(3)], {"error": message(lambda: hand(3, None))}),
        ("hand with an unknown rule", "MJ_HAND", [cell(3), cell(30), None, None, None,
                                                  cell("kirage")],
         {"error": message(lambda: hand_rules("kirage"))}),
        ("hand table, everything omitted", "MJ_HAND_TABLE", [],
         {"value": hand_table(False, hand_rules(None))}),
        ("hand table, blank cells", "MJ_HAND_TABLE", [BLANK, BLANK],
         {"value": hand_table(False, hand_rules(None))}),
        ("hand table, dealer, kiriage", "MJ_HAND_TABLE", [cell(True), cell("kiriage")],
         {"value": hand_table(True, kiriage)}),
        ("hand table with an unknown rule", "MJ_HAND_TABLE", [None, cell("kirage")],
         {"error": message(lambda: hand_rules("kirage"))}),
        # The newer rules: Tenhou's integer era, shared uma, pao, kazoe without a limit.
        ("settle tenhou-classic, -3,500 raw", "MJ_SETTLE",
         [[[64700, 23500, 15300, -3500]], cell("tenhou-classic")],
         {"value": [excel(settle([64700, 23500, 15300, -3500], ruleset("tenhou-classic"))
                          .final)]}),
        ("settle ties=split_uma", "MJ_SETTLE",
         [[[35000, 35000, 20000, 10000]], cell("standard; ties=split_uma")],
         {"value": [excel(settle([35000, 35000, 20000, 10000],
                                 ruleset("standard; ties=split_uma")).final)]}),
        ("hand, pao on a tsumo yakuman", "MJ_HAND",
         [cell("yakuman"), None, cell(False), cell(True), cell(1), None, cell(1)],
         {"value": excel(udfs.MJ_HAND("yakuman", None, False, True, 1, None, 1))}),
        ("hand, kazoe without a limit", "MJ_HAND",
         [cell(26), None, None, None, None, cell("kazoe=unlimited")],
         {"value": excel(udfs.MJ_HAND(26, None, None, None, None, "kazoe=unlimited"))}),
        ("rank points, Mahjong Soul jade room", "MJ_RANKPOINTS",
         [[[13200, 20300, 29900, 36600]], cell("mahjongsoul"), cell("jade"),
          [["Master 2", "Master 1", "Master 3", "Master 1"]]],
         {"value": excel(udfs.MJ_RANKPOINTS([[13200, 20300, 29900, 36600]], "mahjongsoul",
                                            "jade", [["Master 2", "Master 1", "Master 3",
                                                      "Master 1"]]))}),
        ("rank points, Tenhou places, length and players blank", "MJ_RANKPOINTS",
         [[[1, 2, 3, 4]], cell("tenhou"), cell("phoenix"), cell("七段"), BLANK, BLANK],
         {"value": excel(udfs.MJ_RANKPOINTS([[1, 2, 3, 4]], "tenhou", "phoenix", "七段"))}),
        ("rank points, unknown room", "MJ_RANKPOINTS",
         [[[1, 2, 3, 4]], cell("tenhou"), cell("phenix"), cell("七段")],
         {"error": message(lambda: udfs.MJ_RANKPOINTS([[1, 2, 3, 4]], "tenhou", "phenix",
                                                      "七段"))}),
        # Whole tables and limit hands under each hand rule: the floor's mahjong must pay
        # what the newest pays.
        *[(f"hand table, {'dealer' if dealer else 'non-dealer'}, {rules}", "MJ_HAND_TABLE",
           [cell(dealer), cell(rules)], {"value": hand_table(dealer, hand_rules(rules))})
          for rules in ("aotenjou", "sanma", "kazoe=sanbaiman; multiple_yakuman=off")
          for dealer in (False, True)],
        *[(f"hand {han} {fu} dealer={dealer} tsumo={tsumo} {rules}", "MJ_HAND",
           [cell(han), cell(fu), cell(dealer), cell(tsumo), cell(2), cell(rules)],
           {"value": paid(han, fu, dealer, tsumo, 2, rules=hand_rules(rules))})
          for han, fu, rules in ((13, None, "kazoe=yakuman"), (13, None, "kazoe=sanbaiman"),
                                 ("double yakuman", None, "sanma"), (15, 30, "aotenjou"),
                                 ("yakuman", None, "multiple_yakuman=off; basengo"))
          for dealer in (False, True) for tsumo in (False, True)],
    ]


#: The calls above, then blanks sent as null, 0 (desktop Excel) and "", error cells and dates
#: (tests/excel_cells.py), expected to answer as they do through xlwings' Office.js path here.
CASES = _cases() + client_cases()
CALLS = [{"id": case, "func": func, "args": args} for case, func, args, _ in CASES]


def _not_ready(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the Pyodide test cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"Pyodide not available here: {reason}")


@pytest.fixture(scope="session")
def lines(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every Pyodide line at once (one node process each), every wheel set in each."""
    try:
        reason = missing()  # installs Pyodide with npm ci when node_modules lacks it
    except NotReady as e:  # npm missing or failing on a machine with node: a failure
        return {"failed": str(e)}
    if reason:
        return {"not ready": reason}
    try:
        sets = wheel_sets()
    except NotReady as e:
        return {"not ready": str(e)}
    main_py = write_lite(tmp_path_factory.mktemp("lite"))[0]
    runs = [{"name": name, "wheels": sets[name], "main_py": main_py, "calls": CALLS}
            for name in SETS]
    started = {line: start(line, runs) for line in LINES}
    return {line: answer(process) for line, process in started.items()}


@pytest.fixture(params=[(line, name) for line in LINES for name in SETS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def run(request: pytest.FixtureRequest, lines: dict[str, Any]) -> dict[str, Any]:
    if "failed" in lines:
        pytest.fail(f"Pyodide could not be installed: {lines['failed']}", pytrace=False)
    if "not ready" in lines:
        _not_ready(lines["not ready"])
    line, name = request.param
    found = next(r for r in lines[line]["runs"] if r["name"] == name)
    assert "error" not in found, f"main.py did not load in {line}:\n{found['error']}"
    return {**found, "line": lines[line]}


def test_lines_are_the_ones_named(run: dict[str, Any]):
    line = run["line"]
    python = {"pyodide-0.27": "3.12.", "pyodide-314": "3.14."}[line["line"]]
    assert line["python"].startswith(python)
    assert line["pyodide"].split(".")[0] == line["line"].split("-")[1].split(".")[0]


def test_every_function_is_registered_and_checked(run: dict[str, Any]):
    names = sorted(udfs.__all__)
    assert sorted(run["functions"]) == names
    for name in names:
        assert f'CustomFunctions.associate("{name}", {name});' in run["code"]
        assert any(func == name for _, func, _, _ in CASES), f"add a case for {name} here"


@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_function(run: dict[str, Any], case: str):
    expected = next(c[3] for c in CASES if c[0] == case)
    got = run["results"][case]
    if "error" in expected:
        assert "value" not in got, got
        assert got["error"] == expected["error"]
    else:
        assert got.get("error") is None, got.get("details") or got["error"]
        assert got["value"] == expected["value"]


def test_versions_are_the_floor_and_the_newest(run: dict[str, Any]):
    if run["name"] == "floor":
        for package in PACKAGES:
            assert version_key(run["versions"][package]) == version_key(floor(package))
    else:  # what pip found newest on PyPI: at least the versions this was first proven with
        assert version_key(run["versions"]["xlwings"]) >= (0, 37, 8)
        assert version_key(run["versions"]["mahjong"]) >= (2, 1)


def test_runs_any_main_py(tmp_path: Path):
    """run_main takes any main.py (e.g. one taken out of a workbook): a tiny one here."""
    reason = missing()
    if reason:
        _not_ready(reason)
    main_py = tmp_path / "main.py"
    main_py.write_text("import xlwings as xw\n\n\n@xw.func\ndef TWICE(x):\n    return 2 * x\n")
    try:
        out = run_main(main_py, [{"id": "x", "func": "TWICE", "args": [[[21]]]}], line=LINES[0])
    except NotReady as e:
        _not_ready(str(e))
    assert out["functions"] == {"TWICE": 1}
    assert out["results"]["x"]["value"] == [[42]]


# ------------------------------------------------------------------------------------------------
# The same conversion edge in CPython, where no Pyodide is needed: a stand-in for JsNull.


class FakeJsNull:
    """Takes the place of pyodide.ffi.JsNull: a value that is not None and not ''."""

    def __repr__(self) -> str:
        return "jsnull"


def _swap_nulls(value: Any) -> Any:
    if value is None:
        return FakeJsNull()
    if isinstance(value, list):
        return [_swap_nulls(v) for v in value]
    return value


@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_every_argument_takes_javascript_null(monkeypatch: pytest.MonkeyPatch, case: str):
    """Each function called directly with JsNull wherever Excel sends null, every omitted
    trailing argument included, answers as with None (Pyodide 0.27 and CPython's xlwings)."""
    _, func, args, _ = next(c for c in CASES if c[0] == case)
    function = getattr(udfs, func)
    full = args + [None] * (len(function.__xlfunc__["args"]) - len(args))

    def answer_of(arguments: list[Any]) -> Any:
        try:
            return {"value": function(*arguments)}
        except udfs.UmaokaExcelError as e:
            return {"error": str(e)}

    expected = answer_of(full)
    monkeypatch.setattr(cells_fns, "_JS_NULL", FakeJsNull)
    monkeypatch.setattr(settle_fns, "_JS_NULL", FakeJsNull)
    assert answer_of([_swap_nulls(a) for a in full]) == expected


def test_cpython_never_imports_pyodide():
    import subprocess
    import sys

    code = ("import sys, umaoka.addin.functions.cells as u; "
            "print(u._JS_NULL, u._grid([[None]]), 'pyodide' in sys.modules)")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         env={**os.environ, "XLWINGS_ON_SERVER": "true",
                              "XLWINGS_LICENSE_KEY": "noncommercial"}, timeout=60)
    assert out.stdout.split() == ["None", "[[None]]", "False"], out.stderr


def test_main_py_inside_a_lite_workbook_runs_in_pyodide(tmp_path: Path):
    # `umaoka new` (default runtime: xlwings Lite) puts main.py into the workbook as xlwings
    # Lite keeps it; taken back out, it must load and settle in the current Pyodide line.
    from umaoka.addin.cli.app import main as umaoka
    from umaoka.addin.install.embed import extract_lite

    reason = missing()
    if reason:
        _not_ready(reason)
    book = tmp_path / "league.xlsx"
    assert umaoka(["new", str(book), "--ruleset", "mleague"]) == 0
    main_py, requirements = extract_lite(book)
    assert main_py == lite_source() and "xlwings>=" in requirements
    path = tmp_path / "main.py"
    path.write_text(main_py, encoding="utf-8")
    calls = [{"id": "settle", "func": "MJ_SETTLE",
              "args": [[[30000, 30000, 30000, 10000]], cell("mleague")]},
             {"id": "blank ruleset", "func": "MJ_SETTLE", "args": [[GAME], BLANK]}]
    try:
        out = run_main(path, calls)
    except NotReady as e:
        _not_ready(str(e))
    assert "error" not in out, out.get("error")
    assert out["results"]["settle"]["value"] == [[16.8, 16.6, 16.6, -50]]
    assert out["results"]["blank ruleset"]["value"] == [[46, 12, -18, -40]]


def test_the_test_run_installs_pyodide_with_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A machine with node and npm but no tests/pyodide/node_modules: missing() runs
    ``npm ci`` there once (a stand-in npm on PATH records the call and installs)."""
    import pyodide_lite

    if shutil.which("node") is None:
        _not_ready("node is not installed")
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy(pyodide_lite.HERE / name, folder / name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    made = " ".join(f"node_modules/{line}" for line in LINES)
    npm.write_text("#!/bin/sh\n"
                   f'echo "$PWD $*" >> "{tmp_path}/calls"\n'
                   f"for d in {made}; do mkdir -p $d && touch $d/pyodide.mjs; done\n")
    npm.chmod(0o755)
    node_dir = Path(shutil.which("node") or "").parent
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{node_dir}")
    monkeypatch.setattr(pyodide_lite, "HERE", folder)
    monkeypatch.setattr(pyodide_lite, "_INSTALL_FAILED", [])
    assert pyodide_lite.missing() is None
    assert pyodide_lite.missing() is None  # installed: npm is not asked again
    calls = (tmp_path / "calls").read_text().splitlines()
    assert calls == [f"{folder} ci --no-audit --no-fund --loglevel=error"]
    # npm that fails: a failure with npm's own last line, not a skip
    shutil.rmtree(folder / "node_modules")
    npm.write_text("#!/bin/sh\necho 'npm ERR! network unreachable' >&2\nexit 1\n")
    with pytest.raises(NotReady, match=r"^`npm ci` in tests/pyodide failed \(1\): npm ERR! "
                                       "network unreachable$"):
        pyodide_lite.missing()
    # no node at all: the one reason to skip
    monkeypatch.setenv("PATH", str(bin_dir))
    assert pyodide_lite.missing() == "node is not installed (apt-get install nodejs npm)"
