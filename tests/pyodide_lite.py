"""Run an xlwings Lite main.py in the real Pyodide, from Python (tests and benchmarks).

``run_main(main_py, calls)`` loads one Pyodide line from tests/pyodide/node_modules (installed by
``npm ci`` there, pinned by its package-lock.json), unpacks the xlwings and mahjong wheels that
pip downloads into tests/pyodide/.cache/wheels, loads main.py exactly as xlwings Lite does
(tests/pyodide/lite_runtime.py says how, with the evidence) and makes the calls with the bodies
Excel sends (tests/pyodide/runner.mjs). Any main.py can be run, e.g. one taken out of a
workbook. A call is ``{"id": ..., "func": "MJ_SETTLE", "args": [...]}`` with None for a blank
cell or an omitted argument (it is JavaScript's null when it reaches Pyodide); the answer maps
each id to ``{"value": ...}`` or ``{"error": message}``, as Excel would show it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from umaoka.addin.install.lite import REQUIREMENTS

HERE = Path(__file__).resolve().parent / "pyodide"
RUNNER = HERE / "runner.mjs"
WHEELS = HERE / ".cache" / "wheels"
#: The Pyodide lines: the npm aliases of tests/pyodide/package.json (0.27.x is the line the
#: xlwings Lite docs name; 314.x is the current one).
LINES = tuple(sorted(json.loads((HERE / "package.json").read_text())["dependencies"]))
#: Packages main.py needs, by the names in addin/lite.py's REQUIREMENTS.
PACKAGES = ("xlwings", "mahjong")
#: Oldest Python of the lines: pip picks the wheels that it can run.
PYTHON = "3.12"


class NotReady(RuntimeError):
    """node, the npm packages or the wheels are missing (the message says how to get them)."""


def missing() -> str | None:
    """Why the Pyodide runs cannot happen here (no node), or None when node and Pyodide are
    in place: Pyodide is installed first when it is not (see :func:`install`)."""
    if shutil.which("node") is None:
        return "node is not installed (apt-get install nodejs npm)"
    install()
    return None


def _absent() -> list[str]:
    return [line for line in LINES if not (HERE / "node_modules" / line / "pyodide.mjs").exists()]


_INSTALL_FAILED: list[str] = []


def install() -> None:
    """Install the Pyodide lines with ``npm ci`` in tests/pyodide (pinned by its
    package-lock.json) when they are not there yet, once per test run, so the README's
    test command runs the Pyodide tests on any machine with node and npm. Raises
    :class:`NotReady` saying why when npm is missing or fails (a failure, not a skip)."""
    if _INSTALL_FAILED:
        raise NotReady(_INSTALL_FAILED[0])
    absent = _absent()
    if not absent:
        return
    npm = shutil.which("npm")
    if npm is None:
        reason = (f"{', '.join(absent)} not installed and npm is missing: install npm "
                  "(apt-get install npm), the tests then run `npm ci` in tests/pyodide")
    else:
        result = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                                cwd=HERE, capture_output=True, text=True, timeout=900)
        tail = (result.stderr.strip() or result.stdout.strip()).splitlines()[-1:]
        reason = (f"`npm ci` in tests/pyodide failed ({result.returncode}): {' '.join(tail)}"
                  if result.returncode != 0 else
                  f"`npm ci` in tests/pyodide did not install {', '.join(_absent())}"
                  if _absent() else "")
    if reason:
        _INSTALL_FAILED.append(reason)
        raise NotReady(reason)


def version_key(version: str) -> tuple[int, ...]:
    """1.2 and 1.2.0 alike (wheel versions here are plain release numbers)."""
    parts = [int(p) for p in re.findall(r"\d+", version)]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _cached(package: str) -> dict[tuple[int, ...], Path]:
    return {version_key(p.name.split("-")[1]): p
            for p in WHEELS.glob(f"{package}-*-py3-none-any.whl")}


def floor(package: str) -> str:
    """The oldest version our requirements allow (``xlwings>=0.36.6`` gives 0.36.6)."""
    spec = REQUIREMENTS[package]
    match = re.fullmatch(rf"{package}>=([\d.]+)", spec)
    if match is None:
        raise ValueError(f"requirement {spec!r} has no '>=' floor")
    return match.group(1)


def wheels(specs: Iterable[str]) -> list[Path]:
    """Pure-Python wheels for Pyodide (``xlwings==0.36.6``, or ``xlwings`` for the newest).

    pip downloads them once into tests/pyodide/.cache/wheels (``--no-deps``: neither needs
    anything on Pyodide); a pinned version already there is not asked for again.
    """
    specs = list(specs)
    WHEELS.mkdir(parents=True, exist_ok=True)
    wanted = [s for s in specs
              if "==" not in s or version_key(s.split("==")[1]) not in _cached(s.split("==")[0])]
    if wanted:
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--python-version", PYTHON,
             "--dest", str(WHEELS), *wanted],
            capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            raise NotReady(f"pip could not download {' '.join(wanted)}: "
                           + result.stderr.strip().splitlines()[-1])
    out = []
    for spec in specs:
        package, _, version = spec.partition("==")
        cached = _cached(package)
        key = version_key(version) if version else max(cached, default=None)
        if key not in cached:
            raise NotReady(f"no wheel for {spec} in {WHEELS}")
        out.append(cached[key])
    return out


@lru_cache(maxsize=1)
def wheel_sets() -> dict[str, list[Path]]:
    """The floor versions our requirements allow, and the newest on PyPI (asked once)."""
    return {"floor": wheels(f"{p}=={floor(p)}" for p in PACKAGES),
            "newest": wheels(PACKAGES)}


def start(line: str, runs: Sequence[dict[str, Any]]) -> tuple[subprocess.Popen, Path]:
    """Start one Pyodide line on the given runs (see runner.mjs); finish with ``answer``."""
    reason = missing()
    if reason:
        raise NotReady(reason)
    folder = Path(tempfile.mkdtemp(prefix="umaoka-pyodide-"))
    request = folder / "request.json"
    request.write_text(json.dumps({"line": line, "runs": [
        {**run, "main_py": str(run["main_py"]), "wheels": [str(w) for w in run["wheels"]]}
        for run in runs]}))
    process = subprocess.Popen(["node", str(RUNNER), str(request)], cwd=HERE, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "NODE_NO_WARNINGS": "1"})
    return process, folder


def answer(started: tuple[subprocess.Popen, Path], timeout: float = 600) -> dict[str, Any]:
    """Wait for a line started by ``start``: its versions and each run's results."""
    process, folder = started
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    if process.returncode != 0 or not out.strip():
        raise RuntimeError(f"Pyodide runner failed ({process.returncode}): {err[-4000:]}")
    return json.loads(out.strip().splitlines()[-1])


def run_main(main_py: str | os.PathLike[str], calls: Sequence[dict[str, Any]],
             line: str = LINES[-1], wheel_set: str = "newest") -> dict[str, Any]:
    """Load ``main_py`` in one Pyodide line as xlwings Lite does and make ``calls``.

    Returns the run: ``versions`` (xlwings, mahjong), ``functions`` (name: parameter
    count, as registered with Excel) and ``results`` (id: ``{"value": ...}`` or
    ``{"error": message}``), or ``error`` (the traceback) when main.py did not load.
    """
    run = {"name": wheel_set, "wheels": wheel_sets()[wheel_set], "main_py": main_py,
           "calls": list(calls)}
    return answer(start(line, [run]))["runs"][0]
