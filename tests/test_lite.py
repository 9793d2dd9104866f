"""xlwings Lite: the generated main.py runs on its own, where umaoka cannot be imported.

main.py is loaded here the way the xlwings Lite runtime loads it (a fresh module, executed,
and put in sys.modules only afterwards: tests/pyodide/lite_runtime.py gives the evidence),
in a CPython that cannot import umaoka; tests/test_pyodide.py does the same in Pyodide.
"""

from __future__ import annotations

import ast
import glob
import importlib
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from umaoka.addin import udfs
from umaoka.addin.install.lite import REQUIREMENTS, lite_requirements, lite_source, write_lite
from umaoka.engine import UmaokaError

# Runs in a fresh interpreter (-I: no PYTHONPATH, no user site, no script directory), then
# drops the editable-install finder and the project from sys.path, proves umaoka is gone,
# loads main.py as xlwings Lite does and calls its functions the way xlwings Lite does.
CHILD = textwrap.dedent('''
    import asyncio, importlib.util, json, os, sys
    os.environ["XLWINGS_ON_SERVER"] = "true"
    os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"
    def ours(hook):
        return "__editable__" in str(getattr(hook, "__module__", "")) + repr(hook)

    class NoUmaoka:
        """umaoka may sit in the same site-packages as xlwings (a wheel install): refuse it."""

        def find_spec(self, name, path=None, target=None):
            if name == "umaoka" or name.startswith("umaoka."):
                raise ImportError("umaoka is blocked in this interpreter")
            return None

    sys.meta_path[:] = [f for f in sys.meta_path if not ours(f)]
    sys.meta_path.insert(0, NoUmaoka())
    sys.path_hooks[:] = [h for h in sys.path_hooks if not ours(h)]
    # The source tree itself (not a virtual environment that may live inside it).
    sys.path[:] = [p for p in sys.path
                   if p and not (p.startswith(PROJECT) and "site-packages" not in p)]
    sys.path[:0] = PACKAGES  # unpacked wheels, for an interpreter without them installed
    sys.path_importer_cache.clear()
    try:
        import umaoka  # noqa: F401
    except ImportError:
        pass
    else:
        raise SystemExit("import umaoka worked")

    def create_module_from_string(module_string, module_name):
        """xlwings Lite's loader: executed in a new module, registered only afterwards."""
        spec = importlib.util.spec_from_loader(module_name, loader=None)
        module = importlib.util.module_from_spec(spec)
        exec(module_string, module.__dict__)
        sys.modules[module_name] = module
        return module

    with open(os.path.join(LITE, "main.py"), encoding="utf-8") as f:
        source = f.read()
    loads = {"fresh": "main" not in sys.modules}
    first = create_module_from_string(source, "main")  # custom_functions_meta: none there yet
    main = create_module_from_string(source, "main")  # custom_functions_code: the first is
    loads["again"] = sys.modules["main"] is main and main is not first
    plain = {"__name__": "lite_plain"}
    exec(compile(source, "main.py", "exec"), plain)  # run without ever being registered
    loads["exec leaves sys.modules"] = "lite_plain" not in sys.modules and "MJ_SETTLE" in plain
    sys.path.insert(0, LITE)
    import lite_import  # a copy of main.py under another name: a plain import
    loads["import"] = sys.modules["lite_import"] is lite_import and hasattr(lite_import,
                                                                             "MJ_SETTLE")
    import xlwings as xw
    import xlwings.server

    def call(name, *args):
        data = {"func_name": name, "args": list(args), "caller_address": "Sheet1!A1",
                "formula_name": name, "version": xw.__version__, "runtime": "1.4",
                "client": "Office.js", "culture_info_name": "en-US", "date_format": "M/d/yyyy"}
        try:
            return asyncio.run(xlwings.server.custom_functions_call(data, main))
        except Exception as e:  # XlwingsError: the message Excel shows; else a failure
            return {"error": type(e).__name__, "message": str(e)}

    out = {
        "python": sys.version.split()[0],
        "xlwings": xw.__version__,
        "loads": loads,
        "modules": sorted(m for m in sys.modules if m.split(".")[0] == "umaoka"),
        "meta": sorted(f["name"] for f in
                       xlwings.server.custom_functions_meta(main)["functions"]),
        "descriptions": {f["name"]: f["description"] for f in
                         xlwings.server.custom_functions_meta(main)["functions"]},
        "help": {f["name"]: getattr(main, f["name"]).__doc__ for f in
                 xlwings.server.custom_functions_meta(main)["functions"]},
        "standard": call("MJ_SETTLE", [[35700, 32400, 22200, 9700]]),
        "mleague": call("MJ_SETTLE", [[30000.0], [30000.0], [30000.0], [10000.0]], "mleague"),
        "jpml": call("MJ_SETTLE", [[40000, 35000, 25000, 20000]], "jpml-a"),
        "block": call("MJ_SETTLE", [[35700, 32400, 22200, 9700], [0, 0, 0, 0],
                                    [35700, 32400, 22200, 9600]]),
        "error": call("MJ_SETTLE", [[35700, 32400, 22200, 9600]]),
        "rank": call("MJ_RANK", [[30000, 30000, 25000, 15000]], "mleague"),
        "ruleset": call("MJ_RULESET", "mleague; ties=seat"),
        "standings": call("MJ_STANDINGS", [["A", "B", "C", "D"]], [[46, 12, -18, -40]]),
        "hand": call("MJ_HAND", 3, 40, False, True, 1),
        "hand_rule_error": call("MJ_HAND", 3, 30, None, None, None, "kirage"),
        "table": call("MJ_HAND_TABLE", True)[3][3],
        "presets": len(call("MJ_PRESETS")),
        "shortcut": call("MJ_SHORTCUT")[1],
        "explain": call("MJ_EXPLAIN", [[35700, 32400, 22200, 9700]])[1],
        "season": call("MJ_SEASON", [["Regular", None, None, None],
                                     ["Final", None, None, "half"]],
                       [["chip_value", 1]], [["A", "Red"], ["B", "Red"], ["C", "Blue"],
                                             ["D", "Blue"], ["E", "Blue"]],
                       [[None, "Regular", "B", None, -10, "lateness"]], "Final", "players",
                       [["A", "B", "C", "D", 35700, 32400, 22200, 9700] + [None] * 5
                        + [1, 0, -1, 0],
                        ["B", "C", "E", "A", 45000, 33000, 18000, 4000] + [None] * 9,
                        ["A", "B", "C", "D", 35700, 32400, 22200, 9600] + [None] * 9],
                       "standard",
                       [["A", "B", "C", "D", 30000, 30000, 25000, 15000] + [None] * 9],
                       "mleague"),
    }
    print(json.dumps(out))
''')


def _other_pythons() -> dict[str, str]:
    """CPython 3.10+ interpreters on this machine besides the one running the tests."""
    found: dict[str, str] = {}
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    candidates = [*glob.glob(f"{pyenv}/versions/*/bin"), *os.environ.get("PATH", "").split(
        os.pathsep)]
    for folder in candidates:
        if folder.rstrip("/").endswith("shims"):  # pyenv's shims run only its chosen version
            continue
        for path in sorted(glob.glob(os.path.join(folder, "python3.1[0-9]"))):
            minor = re.search(r"python(3\.\d+)$", path)
            if minor and minor.group(1) != f"3.{sys.version_info[1]}":
                found.setdefault(minor.group(1), path)
    return dict(sorted(found.items()))


OTHER_PYTHONS = _other_pythons()


@pytest.fixture(scope="module")
def lite_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lite")
    paths = write_lite(folder)
    assert paths == [folder / "main.py", folder / "requirements.txt"]
    (folder / "lite_import.py").write_text(paths[0].read_text(encoding="utf-8"),
                                           encoding="utf-8")
    return folder


def _run_child(python: str, lite_dir: Path, packages: list[str]) -> dict:
    project = str(Path(__file__).resolve().parents[1])
    code = (f"PROJECT = {project!r}\nLITE = {str(lite_dir)!r}\nPACKAGES = {packages!r}\n"
            + CHILD)
    result = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True,
                            cwd=str(lite_dir.parent), timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def child(lite_dir: Path) -> dict:
    return _run_child(sys.executable, lite_dir, [])


def child_names() -> list[str]:
    """Every Excel function of the add-in: all of them must be in main.py."""
    from umaoka.addin import udfs

    return sorted(udfs.__all__)


def test_main_py_runs_without_umaoka(child: dict):
    assert child["modules"] == []
    assert child["loads"] == {"fresh": True, "again": True, "exec leaves sys.modules": True,
                              "import": True}
    assert child["meta"] == child_names()
    # Excel's help is the docstring's first paragraph on one line; Python's is the whole
    assert child["descriptions"] == descriptions()
    assert child["help"] == {name: getattr(udfs, name).__doc__ for name in child_names()}


def descriptions() -> dict[str, str]:
    """Each function's description as the installed package's metadata gives it to Excel."""
    import xlwings.server

    return {f["name"]: f["description"]
            for f in xlwings.server.custom_functions_meta(udfs)["functions"]}


def test_main_py_settles(child: dict):
    assert child["standard"] == [[46, 12, -18, -40]]
    assert child["mleague"] == [[16.8], [16.6], [16.6], [-50]]
    assert child["jpml"] == [[18, 9, -9, -18]]
    assert child["block"][0] == [46, 12, -18, -40]
    assert child["block"][1] == ["", "", "", ""]
    assert child["block"][2][0].startswith("scores add up to 99,900")
    assert child["error"] == {"error": "UmaokaExcelError", "message": (
        "scores add up to 99,900 but 4 x 25,000 = 100,000: 100 missing; fix a score or the "
        "deposits.")}


def test_main_py_other_functions(child: dict):
    assert child["rank"] == [[1, 1, 3, 4]]
    assert dict(child["ruleset"])["ties"] == "seat"
    assert child["standings"][1][:4] == [1, "A", 1, 46]
    assert child["hand"] == [[5500, 1400, 2700]]
    assert child["hand_rule_error"]["message"].startswith('"kirage" is not a hand rule')
    assert child["table"] == "5800 / 2000 all"
    assert child["presets"] == 11
    assert child["shortcut"] == [1, 25000, 25000, 25, 35, 10]
    assert child["explain"] == ["East", 35700, 0, 1, 5.7, 6, 0, 20, 20, 0, 46]
    # worked by hand: B 12 + 55 - 10 = 57 in the regular season, half (28.5) carried,
    # 30 in the final (a tie for 1st under mleague's split uma)
    assert child["season"][1][:9] == [1, "B", "Red", 1, 28.5, 30, 0, 0, 58.5]
    assert child["season"][2][:9] == [2, "A", "Red", 1, 0.5, 30, 0, 0, 30.5]
    assert [r[1] for r in child["season"][1:]] == ["B", "A", "E", "C", "D"]


@pytest.mark.parametrize("version", list(OTHER_PYTHONS))
def test_main_py_loads_on_other_pythons(version: str, lite_dir: Path,
                                        tmp_path_factory: pytest.TempPathFactory):
    """The same load in every other CPython 3.10+ found on this machine, with the floor wheels
    of our requirements unpacked for it (the newest xlwings needs 3.11+), optional arguments
    given (see the note below)."""
    from pyodide_lite import NotReady, floor, wheels

    try:
        files = wheels(f"{p}=={floor(p)}" for p in REQUIREMENTS)
    except NotReady as e:
        if os.environ.get("CI"):
            pytest.fail(str(e), pytrace=False)
        pytest.skip(str(e))
    packages = tmp_path_factory.mktemp("packages")
    for file in files:
        with zipfile.ZipFile(file) as wheel:
            wheel.extractall(packages)
    out = _run_child(OTHER_PYTHONS[version], lite_dir, [str(packages)])
    assert out["python"].startswith(version + ".")
    assert out["xlwings"] == floor("xlwings")
    assert out["modules"] == []
    assert all(out["loads"].values()), out["loads"]
    assert out["meta"] == child_names()
    assert out["descriptions"] == descriptions()
    assert out["standard"] == [[46, 12, -18, -40]]
    assert out["block"][1] == ["", "", "", ""]
    assert out["error"]["message"].startswith("scores add up to 99,900")
    assert out["presets"] == 11
    # Optional arguments given: under CPython 3.10, typing.get_type_hints turns ``ruleset:
    # Cells = None`` into Optional[Any], which xlwings' Office.js path would take for the
    # converter (typing.Union: "AttributeError: reader") had udfs.py not named it.
    assert out["mleague"] == [[16.8], [16.6], [16.6], [-50]]
    assert dict(out["ruleset"])["ties"] == "seat"
    assert out["hand"] == [[5500, 1400, 2700]]
    assert out["shortcut"] == [1, 25000, 25000, 25, 35, 10]


def test_source_is_one_module_without_umaoka_imports():
    source = lite_source()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("umaoka")
        if isinstance(node, ast.Import):
            assert all(not a.name.startswith("umaoka") for a in node.names)
    top = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    names = [n.name for n in top]
    assert len(names) == len(set(names)), "a top-level name is defined twice"
    assert source.count("from __future__ import annotations") == 1
    for expected in ("def MJ_SETTLE(", "def settle(", "def hand(", "class Ruleset:",
                     "PRESETS: dict[str, Preset] = {"):
        assert expected in source
    # Private names that two modules share are renamed in the later one.
    assert "def _hands_rules_apply(" in source and "def _apply(" in source


def test_source_follows_the_package(tmp_path: Path):
    # Generated from the real files: every engine function of the package is in it.
    settle_module = importlib.import_module("umaoka.engine.settle")

    source = lite_source()
    for name in ("settle", "rank", "seat_names", "tenths_to_decimal", "_floating_uma"):
        assert f"def {name}(" in source
        assert hasattr(settle_module, name)


def test_requirements(lite_dir: Path):
    text = (lite_dir / "requirements.txt").read_text()
    assert text.splitlines() == ["xlwings>=0.33.9", "mahjong>=1.2"]
    assert "umaoka" not in text
    assert lite_requirements("import xlwings as xw\n") == "xlwings>=0.33.9\n"
    assert lite_requirements("def f():\n    from mahjong.shanten import Shanten\n") \
        == "mahjong>=1.2\n"


def test_main_pys_imports_gathered_while_built_are_those_in_its_text():
    """lite_requirements reads umaoka's own main.py from what the build gathered: the same
    packages a parse of the finished text finds."""
    import ast

    from umaoka.addin.install.lite import _built, _import_roots

    text, roots = _built()
    assert roots == _import_roots(ast.parse(text))
    assert {"xlwings", "mahjong"} <= roots
    assert lite_requirements(text) == lite_requirements() == "xlwings>=0.33.9\nmahjong>=1.2\n"


def test_write_lite_never_overwrites_unless_forced(tmp_path: Path):
    (tmp_path / "main.py").write_text("# mine\n")
    with pytest.raises(UmaokaError, match="main.py already exists.*--force"):
        write_lite(tmp_path)
    assert (tmp_path / "main.py").read_text() == "# mine\n"
    assert not (tmp_path / "requirements.txt").exists()
    paths = write_lite(tmp_path, force=True)
    assert paths[0].read_text() == lite_source()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["main.py", "requirements.txt"]


def test_write_lite_creates_the_folder_and_rejects_a_file(tmp_path: Path):
    paths = write_lite(tmp_path / "new" / "lite")
    assert all(p.exists() for p in paths)
    (tmp_path / "afile").write_text("x")
    with pytest.raises(UmaokaError, match="is a file, not a folder"):
        write_lite(tmp_path / "afile")
