"""The code stays ruff-clean: the linter runs as part of the tests."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    # ruff is part of the test extras; run the copy installed beside this interpreter.
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


#: The rooms of the house, lowest first: a module imports only modules of its own room or
#: of a room before it (the engine knows no workbook, a sheet no workbook flow, the Excel
#: functions no command). See docs/architecture.md.
ROOMS = (
    "umaoka.engine",  # the settlement core: rules, presets, resolve, settle, batch, standings
    "umaoka.engine.hands",
    "umaoka.engine.season",
    "umaoka.engine.online",
    "umaoka.engine.seating",
    "umaoka.templates.xlsx",  # the spreadsheet substrate
    "umaoka.templates.book",  # what a league workbook holds
    "umaoka.templates.sheets",  # one module per sheet
    "umaoka.templates",  # the workbook flows: build, settle_book, import_book, batch, demo
    "umaoka.templates.post",  # standings to share: a picture and a page
    "umaoka.addin.functions",  # the Excel functions
    "umaoka.addin",  # udfs: the list xlwings reads
    "umaoka.addin.install",
    "umaoka.addin.cli",
)


def _room(module: str) -> str:
    """The room a module lives in (a package's __init__ is in its own room)."""
    return max((r for r in ROOMS if module == r or module.startswith(r + ".")), key=len)


def _package_imports() -> dict[str, set[str]]:
    """Every umaoka module and the umaoka modules it imports (also inside functions)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    graph: dict[str, set[str]] = {}
    for folder in ("engine", "addin", "templates"):
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(("umaoka", *parts[:-1], *([] if parts[-1] == "__init__" else
                                                      [parts[-1]])))
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    assert not node.level, f"{path}: imports within umaoka are absolute"
                    target = node.module or ""
                    if target.startswith("umaoka"):
                        deps.add(target)
                        deps.update(f"{target}.{a.name}" for a in node.names)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names if a.name.startswith("umaoka"))
            graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def test_no_import_cycles_between_modules():
    # Package __init__ modules only re-export, so they are left out of the cycle search.
    packages = set(ROOMS)
    graph = {m: {d for d in deps if d not in packages}
             for m, deps in _package_imports().items() if m not in packages}
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph.get(m, ())):
            if state.get(d) == 1:
                cycles.append(path[path.index(d):] + [d] if d in path else [m, d])
            elif d not in state:
                visit(d, path + [d])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []


def test_rooms_import_downwards_only():
    graph = _package_imports()
    assert {_room(m) for m in graph} == set(ROOMS)  # every room holds code
    rank = {r: i for i, r in enumerate(ROOMS)}
    wrong = [(m, d) for m, deps in graph.items() for d in deps
             if rank[_room(d)] > rank[_room(m)] and d != "umaoka.engine.moved"]
    assert wrong == []


def test_no_module_is_long_without_saying_why():
    """A module over ~400 lines is usually two concepts: the long ones say at their top why
    they are one."""
    root = Path(__file__).resolve().parents[1]
    long = []
    for folder in ("engine", "addin", "templates"):
        for path in (root / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if text.count("\n") > 450 and "One module, not two:" not in text[:3000]:
                long.append(f"{path.relative_to(root)} ({text.count(chr(10))} lines)")
    assert long == []
