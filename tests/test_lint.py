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


def _package_imports() -> dict[str, set[str]]:
    """Every umaoka module and the umaoka modules it imports (also inside functions)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    packages = {"engine": "umaoka.engine", "addin": "umaoka.addin",
                "templates": "umaoka.templates"}
    graph: dict[str, set[str]] = {}
    for folder, package in packages.items():
        for path in sorted((root / folder).glob("*.py")):
            name = package if path.stem == "__init__" else f"{package}.{path.stem}"
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    if node.level:
                        base = package.split(".")[: len(package.split(".")) - node.level + 1]
                        target = ".".join(base + ([node.module] if node.module else []))
                    else:
                        target = node.module or ""
                    if target.startswith("umaoka"):
                        deps.add(target)
                        deps.update(f"{target}.{a.name}" for a in node.names)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names if a.name.startswith("umaoka"))
            graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def test_no_import_cycles_between_modules():
    # The engine reads bottom-up (rules -> presets -> resolve -> settle -> ...), and each
    # layer only imports the layers below it (addin -> templates -> engine). Package
    # __init__ modules only re-export, so they are left out of the cycle search.
    graph = {m: {d for d in deps if not d.endswith(("engine", "addin", "templates"))}
             for m, deps in _package_imports().items()
             if not m.endswith(("engine", "addin", "templates"))}
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


def test_layers_import_downwards_only():
    layer = {"umaoka.engine": 0, "umaoka.templates": 1, "umaoka.addin": 2}
    wrong = [(m, d) for m, deps in _package_imports().items() for d in deps
             if layer[".".join(d.split(".")[:2])] > layer[".".join(m.split(".")[:2])]]
    assert wrong == []
