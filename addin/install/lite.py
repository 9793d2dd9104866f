"""xlwings Lite: one self-contained ``main.py`` (engine + Excel functions) and its requirements.

xlwings Lite keeps a workbook's Python code in a single ``main.py`` and installs the
packages of ``requirements.txt`` from PyPI, so umaoka cannot be imported there. This
module builds ``main.py`` from the real source files every time (the engine modules,
then :mod:`umaoka.addin.udfs`), with the imports between them removed, so it can never
drift from the package.

>>> "def MJ_SETTLE(" in lite_source() and "import umaoka" not in lite_source()
True
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

from umaoka.engine import UmaokaError

#: The folder that holds engine/, templates/ and addin/ (umaoka's import package).
PACKAGE = Path(__file__).resolve().parent.parent.parent

#: The modules of main.py in the order they must run: each imports only modules above it
#: (the engine reads bottom-up: rules -> presets -> resolve -> settle; then hands, season,
#: the Excel functions' cell reading, the functions by area, and the list xlwings reads).
#: Modules not listed here are left out.
MODULES = (
    "engine.errors", "engine.typed_numbers", "engine.rules", "engine.presets", "engine.resolve",
    "engine.settle", "engine.batch", "engine.shortcut", "engine.shared_places",
    "engine.standings",
    "engine.hands.rules", "engine.hands.fu", "engine.hands.pao", "engine.hands.payment",
    "engine.online.ranks", "engine.online.rankpoints",
    "engine.season.stats", "engine.season.substitutes", "engine.season.gamelog",
    "engine.season.penalties", "engine.season.ranking", "engine.season.parts",
    "engine.season.teams",
    "engine.season.stages", "engine.season.settings", "engine.season.stage_rows",
    "addin.functions.recalc", "addin.functions.season_cache", "addin.functions.cells",
    "addin.functions.settle", "addin.functions.standings", "addin.functions.hands",
    "addin.functions.online", "addin.functions.season", "addin.udfs",
)

#: The modules that define Excel functions: their public names are never renamed.
FUNCTION_MODULES = frozenset(f"umaoka.{m}" for m in MODULES if m.startswith("addin."))

#: Packages main.py needs besides the standard library: Lite always runs xlwings, and
#: the hand module (when present) uses the mahjong package. The floors are the oldest
#: versions tests/test_pyodide.py runs every function with (in Pyodide 0.27 and 314):
#: before xlwings 0.33.9, ``xw.func`` registers nothing outside Windows.
REQUIREMENTS = {"xlwings": "xlwings>=0.33.9", "mahjong": "mahjong>=1.2"}


#: The first lines of main.py's code. xlwings Lite executes main.py into a new module and puts
#: that module in sys.modules only afterwards (xlwings-server: xlwings_server/wasm/
#: wasm_runtime.py, create_module_from_string), but dataclasses look a class's module up in
#: sys.modules while the class is made (for annotations kept as text, which is what
#: ``from __future__ import annotations`` gives): ``'NoneType' object has no attribute
#: '__dict__'`` at the first dataclass. So while main.py runs, its name in sys.modules stands
#: for main.py's own namespace, unless that name already holds this very module (a plain
#: import); LOADER_END undoes it. Python 3.10 to 3.14 behave alike here.
LOADER_START = '''\
# ------------------------------ loading under xlwings Lite ------------------------------
class _LiteModule:
    """main.py's namespace, in sys.modules while the file runs (see the last lines)."""

    def __init__(self, namespace: dict) -> None:
        self.__dict__ = namespace


# xlwings Lite registers this module in sys.modules only after it has run, but dataclasses
# look each class's module up there: stand in for it until then.
_lite_name = globals().get("__name__")
_lite_before = sys.modules.get(_lite_name) if _lite_name else None
_lite_stand_in = _LiteModule(globals())
if _lite_name and getattr(_lite_before, "__dict__", None) is not globals():
    sys.modules[_lite_name] = _lite_stand_in'''

#: The last lines of main.py: sys.modules as it was before (the runtime registers the module).
LOADER_END = '''\
# ------------------------------ loaded ------------------------------
if _lite_name and sys.modules.get(_lite_name) is _lite_stand_in:
    if _lite_before is None:
        del sys.modules[_lite_name]
    else:
        sys.modules[_lite_name] = _lite_before
del _LiteModule, _lite_name, _lite_before, _lite_stand_in'''

#: Top-level names of the loader lines, which no module may take over.
LOADER_NAMES = ("_LiteModule", "_lite_name", "_lite_before", "_lite_stand_in", "sys")


def _sources() -> list[tuple[str, Path]]:
    """(dotted name, path) of every file that goes into main.py, in order."""
    files = [(f"umaoka.{m}", PACKAGE.joinpath(*m.split(".")).with_suffix(".py"))
             for m in MODULES]
    return [(name, path) for name, path in files if path.exists()]


def _is_ours(node: ast.Import | ast.ImportFrom) -> bool:
    """An import of umaoka itself (relative, or absolute from ``umaoka``)."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").split(".")[0] == "umaoka"
    return any(alias.name.split(".")[0] == "umaoka" for alias in node.names)


def _source_module(node: ast.ImportFrom, module: str) -> str:
    """The dotted name an import of ours reads from (``.settle`` in umaoka.engine.x ...)."""
    if node.level:
        package = module.rsplit(".", node.level)[0]
        return f"{package}.{node.module}" if node.module else package
    return node.module or ""


def _top_names(tree: ast.Module) -> set[str]:
    """Names a module defines at top level (functions, classes, assignments)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.If, ast.Try, ast.For, ast.While, ast.With)):
            names.update(n.id for n in ast.walk(node)
                         if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return names - {"__all__"}


def _locals(tree: ast.Module) -> set[str]:
    """Names bound inside functions (parameters and assignments): never renamed safely."""
    names: set[str] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = fn.args
            names.update(x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs,
                                         *([a.vararg] if a.vararg else []),
                                         *([a.kwarg] if a.kwarg else [])])
            for stmt in (fn.body if isinstance(fn.body, list) else [fn.body]):
                names.update(n.id for n in ast.walk(stmt)
                             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return names


class _Module:
    """One source file on its way into main.py."""

    def __init__(self, name: str, path: Path) -> None:
        self.name = name
        # hands.rules -> "hands_rules": a room's module apart from the core's of that name
        self.short = "_".join(name.split(".")[2:])
        self.text = path.read_text(encoding="utf-8")
        self.tree = ast.parse(self.text, filename=str(path))
        self.lines = self.text.splitlines()
        self.defined = _top_names(self.tree)
        self.globals: dict[str, str] = {}  # own top-level name -> name in main.py

    def where(self, node: ast.AST) -> str:
        return f"{self.name} line {getattr(node, 'lineno', '?')}"

    def segment(self, node: ast.stmt) -> str:
        """The source text of a statement (``ast.get_source_segment`` splits the whole file
        on every call: a second per build; this uses the lines split once)."""
        first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        start = _char_col(self.lines[first], node.col_offset)
        end = _char_col(self.lines[last], node.end_col_offset or 0)
        if first == last:
            return self.lines[first][start:end]
        return "\n".join([self.lines[first][start:], *self.lines[first + 1:last],
                          self.lines[last][:end]])


def _char_col(line: str, byte_col: int) -> int:
    """ast column offsets count UTF-8 bytes; lines hold characters."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8"))


#: The last main.py built, keyed by its source files' names, sizes and times, with the
#: top-level packages it imports: building it parses every engine module (about a second),
#: and every written workbook carries it.
_BUILT: dict[tuple[Any, ...], tuple[str, frozenset[str]]] = {}


def lite_source() -> str:
    """The text of main.py (built once per version of its source files; see
    :func:`build_lite_source`)."""
    return _built()[0]


def _built() -> tuple[str, frozenset[str]]:
    key = tuple((name, str(path), path.stat().st_mtime_ns, path.stat().st_size)
                for name, path in _sources())
    if key not in _BUILT:
        _BUILT.clear()
        _BUILT[key] = _build()
    return _BUILT[key]


def build_lite_source() -> str:
    """The text of main.py: the engine and the Excel functions as one importable module.

    Imports of umaoka are removed (``from umaoka.engine.x import a as b`` becomes
    ``b = a``), the other top-level imports are gathered at the top and module docstrings are
    dropped. A private top-level name that an earlier module already uses (``_closest`` in
    rules and hands) is renamed in the later module (``_hands_payment_closest``), where it is
    defined and everywhere it is used; so is a public one of the engine (``GameRecord`` of
    stats and of gamelog: ``_season_gamelogGameRecord``, which gamelog's importers read). The Excel
    functions' names are never renamed: a clash with one of them is an error.
    """
    return _build()[0]


def _build() -> tuple[str, frozenset[str]]:
    """main.py's text, and the top-level packages its imports read (as
    :func:`lite_requirements` finds them in the text, without parsing it again)."""
    modules = [_Module(name, path) for name, path in _sources()]
    used = _import_roots(ast.parse(LOADER_START + "\n" + LOADER_END)) | {"sys"}
    taken = dict.fromkeys(LOADER_NAMES, "main.py's loader")  # name in main.py -> its module
    for m in modules:
        for name in sorted(m.defined):
            final = name
            if final in taken:
                if not name.startswith("_") and m.name in FUNCTION_MODULES:
                    raise UmaokaError(f"{m.name} and {taken[name]} both define '{name}'; "
                                      "rename one so main.py can hold both.")
                final = f"_{m.short}{name}"
                while final in taken or any(final in o.defined for o in modules):
                    final = f"_{final}"
            taken[final] = m.name
            m.globals[name] = final
    by_name = {m.name: m for m in modules}

    def resolve(node: ast.ImportFrom, m: _Module, imported: str) -> str:
        """The name in main.py of ``imported`` as the import ``node`` in ``m`` reads it."""
        source = by_name.get(_source_module(node, m.name))
        if source is not None and imported in source.globals:
            return source.globals[imported]
        owners = [o for o in modules if imported in o.defined and not imported.startswith("_")]
        if len(owners) != 1:
            raise UmaokaError(f"{m.where(node)}: cannot tell which module '{imported}' comes "
                              "from; import it from the module that defines it.")
        return owners[0].globals[imported]

    header: list[str] = []
    body: list[str] = []
    for m in modules:
        edits: dict[int, tuple[int, list[str]]] = {}  # first line -> (last line, new lines)
        rename = {k: v for k, v in m.globals.items() if k != v}
        top_level = {id(n) for n in m.tree.body}
        first = m.tree.body[0] if m.tree.body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and isinstance(first.value.value, str):
            edits[first.lineno] = (first.end_lineno or first.lineno, [])
        for node in ast.walk(m.tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            last = node.end_lineno or node.lineno
            if not _is_ours(node):
                used |= _import_roots(node)
                if id(node) in top_level:
                    statement = m.segment(node) or ast.unparse(node)
                    if statement not in header:
                        header.append(statement)
                    edits[node.lineno] = (last, [])
                continue
            if isinstance(node, ast.Import) or any(a.name == "*" for a in node.names) \
                    or by_name.get(_source_module(node, m.name) + "." + node.names[0].name):
                raise UmaokaError(f"{m.where(node)}: cannot inline '{ast.unparse(node)}'; "
                                  "import names (from umaoka.engine.rules import name) instead.")
            assigns = []
            for a in node.names:
                final = resolve(node, m, a.name)
                local = a.asname or a.name
                if id(node) not in top_level:
                    if local != final:
                        assigns.append(f"{local} = {final}")
                elif a.asname and a.asname != final:  # "x as x": a re-export, nothing to do
                    if taken.setdefault(local, final) != final and taken[local] != m.name:
                        raise UmaokaError(f"{m.where(node)}: '{local}' already names "
                                          f"something else in main.py; use another alias.")
                    if local != final:
                        assigns.append(f"{local} = {final}")
                elif local != final:
                    rename[local] = final
            if id(node) in top_level:
                edits[node.lineno] = (last, assigns)
            else:
                indent = m.lines[node.lineno - 1][: node.col_offset]
                edits[node.lineno] = (last, [indent + s for s in ["pass", *assigns]])
        clash = set(rename) & _locals(m.tree)
        if clash:
            raise UmaokaError(f"{m.name}: {', '.join(sorted(clash))} is also a local name "
                              "there, so it cannot be renamed for main.py; rename it.")
        lines = list(m.lines)
        spots: list[tuple[int, int, int, str]] = []  # line, start, end (chars), new name
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Name) and node.id in rename:
                line = lines[node.lineno - 1]
                start = _char_col(line, node.col_offset)
                spots.append((node.lineno, start, start + len(node.id), rename[node.id]))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and node.name in rename:
                line = lines[node.lineno - 1]
                start = line.index(node.name, line.index("def " if "def " in line else "class "))
                spots.append((node.lineno, start, start + len(node.name), rename[node.name]))
        for lineno, start, end, new in sorted(spots, reverse=True):
            line = lines[lineno - 1]
            lines[lineno - 1] = line[:start] + new + line[end:]
        out: list[str] = []
        i = 1
        while i <= len(lines):
            if i in edits:
                last, new = edits[i]
                out.extend(new)
                i = last + 1
            else:
                out.append(lines[i - 1])
                i += 1
        body.append(f"# {'-' * 30} {m.name} {'-' * 30}\n" + "\n".join(out).strip("\n"))
    future = [h for h in header if h.startswith("from __future__")]
    rest = _merge_imports([h for h in header if h not in future] + ["import sys"])
    names = ", ".join(m.name for m in modules)
    doc = ('"""umaoka for xlwings Lite: riichi mahjong oka/uma settlement as Excel functions.\n\n'
           f"Generated by `umaoka lite` from {names}.\n"
           'Do not edit: regenerate it instead.\n"""')
    text = "\n\n".join([doc, "\n".join(future + rest), LOADER_START, *body, LOADER_END]) + "\n"
    return text, frozenset(used)


def _import_roots(tree: ast.AST) -> set[str]:
    """The top-level packages the imports in ``tree`` read (absolute imports only)."""
    used = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
            for a in n.names}
    used |= {(n.module or "").split(".")[0] for n in ast.walk(tree)
             if isinstance(n, ast.ImportFrom) and n.level == 0}
    return used


def _merge_imports(statements: list[str]) -> list[str]:
    """``from x import a`` and ``from x import b`` as one ``from x import a, b``; sorted."""
    plain: set[str] = set()
    names: dict[str, set[str]] = {}
    for statement in statements:
        node = ast.parse(statement).body[0]
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.setdefault(node.module, set()).update(
                a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names)
        else:
            plain.add(statement)
    merged = [f"from {module} import {', '.join(sorted(n))}" for module, n in names.items()]
    return sorted(plain) + sorted(merged)


def lite_requirements(source: str | None = None) -> str:
    """requirements.txt for main.py: xlwings, plus mahjong when the hand module is in."""
    # umaoka's own main.py: its imports were gathered while it was built
    last = _built() if source is None else next(iter(_BUILT.values()), None)
    if last is not None and (source is None or source == last[0]):
        used = last[1]
    else:
        used = _import_roots(ast.parse(source))  # type: ignore[arg-type]
    return "".join(f"{spec}\n" for pkg, spec in REQUIREMENTS.items() if pkg in used)


def _write_atomic(path: Path, text: str, force: bool) -> None:
    """The file as any other file umaoka writes: atomic, the umask's mode, no clobbering."""
    from umaoka.templates.xlsx.io import write_atomic

    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8", newline="\n"),
                 force=force)


def write_lite(directory: str | os.PathLike[str], force: bool = False) -> list[Path]:
    """Write main.py and requirements.txt for xlwings Lite into ``directory``.

    Paste main.py into the xlwings Lite editor's main.py tab and requirements.txt into
    its requirements.txt tab. Existing files are kept unless ``force``; each file is
    written to a temporary file first and then moved into place. Returns the paths.
    """
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        raise UmaokaError(f"{folder} is a file, not a folder; give a folder for main.py.")
    targets = [folder / "main.py", folder / "requirements.txt"]
    existing = [p for p in targets if p.exists()]
    if existing and not force:
        raise UmaokaError(f"{', '.join(str(p) for p in existing)} already "
                          f"{'exists' if len(existing) == 1 else 'exist'}; choose another "
                          "folder or overwrite with --force.")
    source = lite_source()
    compile(source, str(targets[0]), "exec")  # never write a main.py that cannot run
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(targets[0], source, force)
    _write_atomic(targets[1], lite_requirements(source), force)
    return targets
