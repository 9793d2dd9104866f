"""umaoka as a user on Linux or macOS has it: no ``XLWINGS_*`` variable, xlwings' plain path.

Off Windows, xlwings' decorators leave a function as it is unless ``XLWINGS_ON_SERVER`` is
set (then they are xlwings Server's). The test process imports xlwings on that Office.js
path (tests/conftest.py), so each check here runs as a subprocess, with the environment
of the tests, which holds no ``XLWINGS_*`` variable: ``umaoka addin`` and
``import umaoka.addin.udfs`` (docs/python.md, docs/runtimes.md) once failed there with
"'function' object has no attribute '__xlfunc__'".
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

UMAOKA = Path(sys.executable).with_name("umaoka")


def _plain(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """A command as the user types it, in the tests' environment (no XLWINGS_* in it)."""
    assert not [k for k in os.environ if k.startswith("XLWINGS_")]
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))


def test_the_tests_run_commands_without_xlwings_variables() -> None:
    """conftest.py imports xlwings on its Office.js path and leaves no variable behind."""
    import xlwings

    assert xlwings.on_server
    assert not [k for k in os.environ if k.startswith("XLWINGS_")]


def test_umaoka_addin_without_xlwings_variables(tmp_path: Path) -> None:
    result = _plain([str(UMAOKA), "addin"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "UDF Modules  umaoka.addin.udfs" in result.stdout
    assert "MJ_SETTLE, MJ_SHORTCUT, MJ_STANDINGS" in result.stdout
    result = _plain([str(UMAOKA), "addin", "--config"], tmp_path)
    assert result.returncode == 0, result.stderr


CHILD = textwrap.dedent('''
    import doctest, pydoc, sys
    import xlwings
    assert not xlwings.on_server
    import umaoka.addin.udfs as udfs
    from umaoka.addin.udfs import MJ_HAND, MJ_SETTLE
    print(MJ_SETTLE([[35700, 32400, 22200, 9700]], "mleague"))
    print(MJ_HAND(3, 40, False, True, 1))
    text = pydoc.render_doc(MJ_HAND, renderer=pydoc.plaintext)
    print("Amounts past" in text and "What a win pays" in text)
    result = doctest.testmod(udfs, optionflags=doctest.ELLIPSIS)
    print(result.attempted, result.failed)
''')


def test_import_udfs_without_xlwings_variables(tmp_path: Path) -> None:
    """The module docs/python.md shows, as plain Python functions; help() has the whole
    docstring; the module's own examples pass on this path too."""
    result = _plain([sys.executable, "-c", CHILD], tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "[[55.7, 12.4, -17.8, -50.3]]"
    assert lines[2] == "True"
    attempted, failed = map(int, lines[3].split())
    assert attempted > 0 and failed == 0
    assert lines[1].startswith("[[")
